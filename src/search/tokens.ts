// Token estimates for rendered tools and prompt text, without shipping a tokenizer in the worker.
//
// Method: split the text with o200k_base's own pre-tokenizer pattern (BPE never merges across its
// pieces) and price each piece instead of running BPE: a word 1 token + 1 per 6 letters past the
// sixth, a digit group or whitespace run 1, a punctuation run 1 + ⅓ per char past the 4th (repeats free).
// Weights were fitted against gpt-tokenizer (o200k_base) on bench/search-eval/catalog.json rendered
// in every format and on prose: within ±5 % there; test/unit/render.test.ts holds it to ±20 %.

// o200k_base's pre-tokenizer (tiktoken), minus the English contractions ('s, 't…), whose effect on
// a count is negligible. Groups: 1–2 word, 3 digits, 4 punctuation; otherwise whitespace.
const PIECE =
  /([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+)|([^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*)|(\p{N}{1,3})|( ?[^\s\p{L}\p{N}]+[\r\n/]*)|\s*[\r\n]+|\s+(?!\S)|\s+/gu;
const NON_ASCII = /\P{ASCII}/u;
// Scripts whose characters are mostly a token each; alphabetic scripts behave like Latin words.
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

// Common words up to ~6 letters are single tokens; longer or rarer ones split every few letters.
const WORD_FREE_LETTERS = 6;
const LETTERS_PER_EXTRA_TOKEN = 6;
// o200k has fewer merges for Cyrillic, Greek or accented letters than for ASCII.
const NON_ASCII_LETTER_WEIGHT = 1.75;
const IDEOGRAPH_TOKENS = 0.75;
// JSON glue such as `":"`, `","` or `":{"` is one token; longer runs like `"}]},{"` split.
const PUNCT_FREE_CHARS = 4;
const PUNCT_CHARS_PER_EXTRA_TOKEN = 3;

function wordCost(piece: string): number {
  // The optional leading space or symbol is merged into the word's first token.
  const body = /^[\p{L}\p{M}]/u.test(piece) ? piece : piece.slice(1);
  let letters = body.length;
  let ideographs = 0;
  if (NON_ASCII.test(body)) {
    letters = 0;
    for (const ch of body) {
      if (IDEOGRAPH.test(ch)) ideographs++;
      else letters += NON_ASCII.test(ch) ? NON_ASCII_LETTER_WEIGHT : 1;
    }
  }
  return (
    1 + Math.max(0, letters - WORD_FREE_LETTERS) / LETTERS_PER_EXTRA_TOKEN + ideographs * IDEOGRAPH_TOKENS
  );
}

function punctuationCost(piece: string): number {
  // Repeated characters (`-----`, `====`) have dedicated long tokens, so count only changes.
  let distinct = 1;
  for (let i = 1; i < piece.length; i++) if (piece[i] !== piece[i - 1]) distinct++;
  return distinct <= PUNCT_FREE_CHARS ? 1 : 1 + (distinct - PUNCT_FREE_CHARS) / PUNCT_CHARS_PER_EXTRA_TOKEN;
}

/**
 * Estimated o200k_base token count of `text`, within ±20 % on tool definitions and English prose.
 *
 * @example
 * estimateTokens("Create a new issue in a GitHub repository."); // 11 (o200k_base: 10)
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(PIECE)) {
    const [piece, lower, upper, digits, punctuation] = m;
    if (lower !== undefined || upper !== undefined) tokens += wordCost(piece);
    else if (digits !== undefined) tokens += 1;
    else if (punctuation !== undefined) tokens += punctuationCost(punctuation);
    else tokens += 1;
  }
  return Math.round(tokens);
}

/**
 * Estimated tokens of `JSON.stringify(value)`: what a rendered tool costs in the model's context.
 *
 * @example
 * estimateJsonTokens({ name: "search", description: "Search the catalog." }); // 12 (o200k_base: 12)
 */
export function estimateJsonTokens(value: unknown): number {
  return estimateTokens(JSON.stringify(value) ?? "");
}
