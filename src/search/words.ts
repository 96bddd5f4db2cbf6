// The raw words and tokens of any text, before normalization: what a name or a sentence is made of.

/** A token: letters with their combining marks, digits and underscores. */
const WORD = /[\p{L}\p{M}\p{N}_]+/gu;
/** A token of plain ASCII: the common case, which needs none of the folding and segmenting below. */
const ASCII = /^[A-Za-z0-9_]*$/;
/**
 * Letters of scripts written without spaces between words (Chinese, Japanese, Thai, Lao, Khmer,
 * Burmese): a run of them is split into words by the platform's dictionary segmenter.
 */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** A Chinese character is a word on its own; a single letter of any other script is not. */
const IDEOGRAPH = /\p{Script=Han}/u;
/**
 * The combining accents the full-text index folds away (FTS5's unicode61 tokenizer with
 * remove_diacritics 2): "créer" is indexed as "creer", so a term must be spelled so to be found in
 * the index's vocabulary.
 */
const ACCENTS = /[\u0300-\u036f]/g;
let segmenter: Intl.Segmenter | undefined;
/** An acronym's plural ("PRs", "URLs", "IDs"): one word, not "P" + "Rs". */
const ACRONYM_PLURAL = /(\p{Lu}{2,})s(?!\p{L})/gu;
const CAMEL_BOUNDARY = /([\p{Ll}\p{N}])(\p{Lu})|(\p{Lu})(\p{Lu}\p{Ll})/gu;
/** What `words` may split: a capital letter (camelCase, an acronym's plural) or an underscore. */
const SPLITS = /[\p{Lu}_]/u;
const DIGIT = /\p{N}/u;

/** Raw word tokens of any text, with identifiers split: `createIssue`, `create_issue` → create, issue. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const token = match[0];
    if (ASCII.test(token)) pushWords(token, out);
    else for (const piece of readable(token)) pushWords(piece, out);
  }
  return out;
}

function pushWords(token: string, out: string[]): void {
  // A word without capitals or underscores is one word as it stands (most of a request).
  if (!SPLITS.test(token)) {
    if (meaningful(token)) out.push(token.toLowerCase());
    return;
  }
  const spaced = token
    .replace(ACRONYM_PLURAL, "$1S")
    .replace(CAMEL_BOUNDARY, "$1$3 $2$4")
    .replaceAll("_", " ");
  for (const part of spaced.split(" ")) if (meaningful(part)) out.push(part.toLowerCase());
}

/** Single letters ("s" of "what's", "e" of "e-mail") carry no meaning worth matching; a digit or a Chinese character does. */
function meaningful(part: string): boolean {
  return part.length > 1 || DIGIT.test(part) || IDEOGRAPH.test(part);
}

/**
 * A token outside ASCII as the index reads it: accents folded, and a run of a script written
 * without spaces split into its words ("在仓库中创建问题" → 在, 仓库, 中, 创建, 问题). Other combining
 * marks (Thai vowels and tones, Devanagari vowel signs) stay in their word, as in the index
 * (src/db/migrations.ts TOKENIZER).
 */
function readable(token: string): string[] {
  const folded = token.normalize("NFD").replace(ACCENTS, "").normalize("NFC");
  return UNSPACED.test(folded) ? segmented(folded) : [folded];
}

function segmented(text: string): string[] {
  segmenter ??= new Intl.Segmenter("und", { granularity: "word" });
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) if (isWordLike) out.push(segment);
  return out;
}

/** A whitespace-separated token without the punctuation around it (`(Ana),` → `Ana`). */
export function bareToken(token: string): string {
  return token.replace(/^[^\p{L}\p{N}[]+|[^\p{L}\p{M}\p{N}\]]+$/gu, "");
}

/**
 * Whether a bare token is a name: a capitalized word (possessive or not) that does not start a
 * sentence, i.e. that follows another token not ending in `.`, `!`, `?` or `:`.
 *
 * @example isName("Ana", "with") // true;  isName("Cancel", undefined) // false
 */
export function isName(bare: string, previous: string | undefined): boolean {
  return previous !== undefined && !/[.!?:]$/.test(previous) && /^\p{Lu}\p{Ll}+(?:'s)?$/u.test(bare);
}
