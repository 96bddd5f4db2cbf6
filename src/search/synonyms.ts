// Stopwords, synonym groups and abbreviations (src/search/lexicon.json), applied identically to
// documents and queries, so a synonym never creates a mismatch between what was indexed and what
// is asked. Query-only vocabulary is related.ts's.
import { phraseMap, wordGroups, wordSet } from "./lexicon";

/** Function words that carry no capability; dropped from documents and queries. */
export const STOPWORDS = wordSet("stopwords");

/** Filler that agents and users put in requests but tools never describe; dropped from queries only. */
export const QUERY_STOPWORDS = wordSet("query_stopwords");

/** Synonym groups: every word maps to the group's first word before stemming. */
const GROUPS = wordGroups("synonyms");

/** Things written as one word for several (a pull request, CI, a time zone). */
const THINGS = phraseMap("things");

export const SYNONYMS: ReadonlyMap<string, string> = new Map(
  GROUPS.flatMap(([head, ...rest]) => rest.map((word) => [word, head as string] as const)),
);

/** Every word of a synonym group that names an action: "erase", "make", "fetch", "upload", … */
export const ACTION_WORDS: ReadonlySet<string> = (() => {
  const heads = wordSet("action_heads");
  return new Set(GROUPS.filter(([head]) => heads.has(head as string)).flat());
})();

/** Words expanded to several words: things and shell commands, in documents and queries alike. */
export const ABBREVIATIONS: ReadonlyMap<string, readonly string[]> = new Map(
  [...THINGS, ...phraseMap("commands")].map(([word, phrase]) => [word, phrase.split(" ")]),
);

/** In a query, a thing names what the request is about, never its action ("MRs" asks for no merging). */
export const THING_ABBREVIATIONS: ReadonlySet<string> = new Set(THINGS.keys());

/** The things THINGS abbreviates, spelled out: "pull request", "continuous integration". */
export const THING_PHRASES: readonly (readonly string[])[] = [...new Set(THINGS.values())].map((p) =>
  p.split(" "),
);
