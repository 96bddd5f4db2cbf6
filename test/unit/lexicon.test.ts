// The lexicon (src/search/lexicon.json) is data the code reads through one loader: every entry says
// why it exists, holds lower-case words without repeats, and every pattern compiles with its slots.
import { describe, expect, it } from "vitest";
import { pattern, patterns, wordGroups, wordMap, wordSet } from "../../src/search/lexicon";
import LEXICON from "../../src/search/lexicon.json";
import { ACTION_WORDS } from "../../src/search/synonyms";
import { indexTextVersion } from "../../src/search/text";

const entries = Object.entries(LEXICON).filter(([name]) => name !== "$comment") as [
  string,
  Record<string, unknown>,
][];

describe("lexicon.json", () => {
  it("gives every entry a one-line reason and exactly one kind of content", () => {
    expect(entries.length).toBeGreaterThan(20);
    for (const [name, entry] of entries) {
      expect(typeof entry.why, name).toBe("string");
      expect(entry.why as string, name).toMatch(/^[A-Z"].{20,200}[.)]$/);
      const kinds = ["words", "groups", "map", "pattern", "patterns", "hints"].filter((k) => k in entry);
      expect(kinds, name).toHaveLength(1);
    }
  });

  it("holds lower-case words without repeats in its word lists and groups", () => {
    for (const [name, entry] of entries) {
      const lists =
        typeof entry.words === "string"
          ? [entry.words]
          : Array.isArray(entry.groups)
            ? (entry.groups as string[])
            : [];
      for (const list of lists) {
        const words = list.split(" ");
        expect(
          words.every((w) => /^[a-z0-9']+$/.test(w)),
          `${name}: ${list}`,
        ).toBe(true);
        expect(new Set(words).size, `${name}: ${list}`).toBe(words.length);
      }
    }
    // A word folds to one synonym group only.
    const grouped = wordGroups("synonyms").flat();
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  it("reads maps as word lists and patterns as regular expressions, slots filled", () => {
    expect(wordMap("phrasal_verbs").get("get rid")).toEqual(["delete"]);
    expect(wordSet("stopwords").has("the")).toBe(true);
    expect(pattern("filler_phrases").test("who's said yes so far?")).toBe(true);
    const hints = patterns("shape_hints", { actions: ACTION_WORDS });
    expect(hints.length).toBe(LEXICON.shape_hints.hints.length);
    for (const { pattern: re } of hints) expect(re.source).not.toMatch(/\{[a-z]+\}/);
    // The conversion hint reads "utc to pst" and not "upload to s3" (an action word leads).
    const convert = hints.find((h) => h.related.includes("convert"));
    expect(convert?.pattern.test("utc to pst")).toBe(true);
    expect(convert?.pattern.test("upload to s3")).toBe(false);
  });

  it("versions the index text by the entries documents go through", () => {
    expect(indexTextVersion()).toMatch(/^[0-9a-f]{16}$/);
  });
});
