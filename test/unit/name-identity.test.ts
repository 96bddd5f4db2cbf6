// A name's words are what a tool is (issue 29): a name word the query does not hold lowers the row's
// strength by up to NAME_IDENTITY, weighed by idf (identityFactors in src/search/fts-pipeline.ts).
import { describe, expect, it } from "vitest";
import { identityFactors, NAME_IDENTITY } from "../../src/search/fts-pipeline";

/** An index of 100 tools in which "get" is in 60 names, "issu" in 10, "comment" in 2. */
const stats = {
  size: () => 100,
  docFrequencies: (terms: readonly string[]) =>
    new Map(
      terms.map((t) => [t, ({ get: 60, issu: 10, comment: 2, creat: 20 } as Record<string, number>)[t] ?? 0]),
    ),
  nearTerms: () => [],
};

describe("identityFactors", () => {
  it("leaves a row alone whose name the query covers", () => {
    expect(identityFactors([["creat", "issu"]], new Set(["creat", "issu", "github"]), stats)).toEqual([1]);
  });

  it("costs a specific unasked name word more than a generic one", () => {
    const [specific, generic] = identityFactors(
      [
        ["issu", "comment"],
        ["get", "issu"],
      ],
      new Set(["issu"]),
      stats,
    );
    expect(specific).toBeLessThan(generic as number);
    expect(generic).toBeLessThan(1);
  });

  it("never takes more than NAME_IDENTITY off, and nothing from a row without a name", () => {
    const [none, empty] = identityFactors([["comment"], []], new Set(["issu"]), stats);
    expect(none).toBeCloseTo(1 - NAME_IDENTITY, 10);
    expect(empty).toBe(1);
  });
});
