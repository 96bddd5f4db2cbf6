// The raw words and tokens of any text, before normalization: what a name or a sentence is made of.

const WORD = /[\p{L}\p{N}_]+/gu;
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
    // A word without capitals or underscores is one word as it stands (most of a request).
    if (!SPLITS.test(token)) {
      if (token.length > 1 || DIGIT.test(token)) out.push(token.toLowerCase());
      continue;
    }
    const spaced = token
      .replace(ACRONYM_PLURAL, "$1S")
      .replace(CAMEL_BOUNDARY, "$1$3 $2$4")
      .replaceAll("_", " ");
    for (const part of spaced.split(" ")) {
      // Single letters ("s" of "what's", "e" of "e-mail") carry no meaning worth matching.
      if (part.length > 1 || DIGIT.test(part)) out.push(part.toLowerCase());
    }
  }
  return out;
}

/** A whitespace-separated token without the punctuation around it (`(Ana),` → `Ana`). */
export function bareToken(token: string): string {
  return token.replace(/^[^\p{L}\p{N}[]+|[^\p{L}\p{N}\]]+$/gu, "");
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
