// fieldStats counts a field's tokens and the wanted terms in it without splitting it: it must agree
// with splitting on every text, whatever its spacing or how terms overlap inside other tokens.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldStats } from "../../src/search/rerank";

/** The same as splitting the field into its tokens. */
function bySplitting(text: string, wanted: readonly string[]) {
  const counts = new Map<string, number>();
  if (text === "") return { length: 0, counts };
  const tokens = text.split(" ");
  for (const term of wanted) {
    const n = tokens.filter((t) => t === term).length;
    if (n > 0 && term !== "") counts.set(term, n);
  }
  return { length: tokens.length, counts };
}

describe("fieldStats", () => {
  it("counts whole tokens only, as splitting does", () => {
    expect(fieldStats("creat issu issu comment", ["issu", "is", "comment"])).toEqual({
      length: 4,
      counts: new Map([
        ["issu", 2],
        ["comment", 1],
      ]),
    });
    expect(fieldStats("aaa aa", ["aa"])).toEqual({ length: 2, counts: new Map([["aa", 1]]) });
    expect(fieldStats("", ["a"])).toEqual({ length: 0, counts: new Map() });
  });

  it("agrees with splitting on any text of a small alphabet and spaces", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", " "), maxLength: 40 });
    const wanted = fc.array(fc.string({ unit: fc.constantFrom("a", "b"), maxLength: 3 }), { maxLength: 5 });
    fc.assert(
      fc.property(text, wanted, (t, w) => {
        const terms = [...new Set(w)];
        expect(fieldStats(t, terms)).toEqual(bySplitting(t, terms));
      }),
      { numRuns: 2_000 },
    );
  });
});
