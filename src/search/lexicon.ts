// The one loader of lexicon.json: Trove's English reading of queries and documents is data, each
// entry with the reason it exists, and the code reads it only through these functions (issue 29).
import LEXICON from "./lexicon.json";

type Lexicon = Omit<typeof LEXICON, "$comment">;
type Named<K extends string> = {
  [N in keyof Lexicon]: Lexicon[N] extends Record<K, unknown> ? N : never;
}[keyof Lexicon];

/** An entry's words, split on spaces. */
export function wordSet(name: Named<"words">): ReadonlySet<string> {
  return new Set(LEXICON[name].words.split(" "));
}

/** An entry's groups of words ("delete remove erase …"), each split on spaces. */
export function wordGroups(name: Named<"groups">): readonly (readonly string[])[] {
  return LEXICON[name].groups.map((group) => group.split(" "));
}

/** An entry's map of a word (or words) to words, each value split on spaces. */
export function wordMap(name: Named<"map">): ReadonlyMap<string, readonly string[]> {
  return new Map(
    Object.entries(LEXICON[name].map as Record<string, string>).map(([k, v]) => [k, v.split(" ")]),
  );
}

/** An entry's map of a word to a word or phrase, as written. */
export function phraseMap(name: Named<"map">): ReadonlyMap<string, string> {
  return new Map(Object.entries(LEXICON[name].map as Record<string, string>));
}

/**
 * An entry's regular expression. `{name}` in its source stands for an alternation of the words in
 * `slots[name]` (a word list the code derives, such as the action words of the synonym groups).
 */
export function pattern(
  name: Named<"pattern">,
  slots: Readonly<Record<string, Iterable<string>>> = {},
): RegExp {
  const entry = LEXICON[name] as { pattern: string; flags?: string };
  return compile(entry.pattern, entry.flags ?? "", slots);
}

/** An entry's list of regular expressions, each with what else it carries (`related` words). */
export function patterns(
  name: Named<"patterns"> | Named<"hints">,
  slots: Readonly<Record<string, Iterable<string>>> = {},
): readonly { pattern: RegExp; related: readonly string[] }[] {
  const entry = LEXICON[name] as { patterns?: Source[]; hints?: Source[] };
  return (entry.patterns ?? entry.hints ?? []).map((p) => ({
    pattern: compile(p.pattern, p.flags ?? "", slots),
    related: p.related === undefined ? [] : p.related.split(" "),
  }));
}

interface Source {
  pattern: string;
  flags?: string;
  related?: string;
}

function compile(source: string, flags: string, slots: Readonly<Record<string, Iterable<string>>>): RegExp {
  const filled = source.replace(/\{(\w+)\}/g, (whole, slot: string) => {
    const words = slots[slot];
    return words === undefined ? whole : [...words].map(escapeRegExp).join("|");
  });
  return new RegExp(filled, flags);
}

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The entries that decide how document text becomes terms, for the index text version. */
export function documentEntries(): unknown {
  return [LEXICON.stopwords, LEXICON.synonyms, LEXICON.things, LEXICON.commands, LEXICON.not_plural];
}
