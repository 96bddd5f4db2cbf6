// What goes into a full-text MATCH (src/search/fts-query.ts): terms rarest first within a budget of
// records, then a boost for each concept of the request they leave out; a boost joins only where a
// term matches, so it never adds a record (checked against FTS5 itself).
import { runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSql } from "../../src/db/sql";
import { candidateTerms, ftsMatchExpression } from "../../src/search/fts-query";
import { newSid } from "../support/http";
import { sessionStub } from "../support/session";

const df = new Map([
  ["kubectl", 3],
  ["crash", 40],
  ["pod", 250],
  ["log", 330],
  ["get", 2000],
]);

describe("candidateTerms", () => {
  it("takes the rarest terms while they cover at most 300 records, the first whatever it covers", () => {
    expect(candidateTerms(["pod", "crash", "kubectl", "log", "unknown"], df).terms).toEqual([
      "kubectl",
      "crash",
      "pod",
    ]);
    expect(candidateTerms(["get", "log"], df).terms).toEqual(["log"]);
    expect(candidateTerms(["get"], df).terms).toEqual(["get"]);
    expect(candidateTerms(["unknown"], df)).toEqual({ terms: [], boosts: [] });
  });

  it("boosts each concept the terms leave out by its rarest term, within the caps", () => {
    // "pod logs": pod fills the budget; logs is what the request is about too.
    expect(candidateTerms(["pod", "log"], df, [["pod"], ["log"]])).toEqual({
      terms: ["pod"],
      boosts: ["log"],
    });
    // A concept the terms already hold, or none of whose terms the index holds, adds nothing.
    expect(candidateTerms(["pod", "log"], df, [["pod"], ["unknown"]]).boosts).toEqual([]);
    // Too common to read (more than 450 records), or past 600 records read in all.
    expect(candidateTerms(["crash", "get"], df, [["crash"], ["get"]]).boosts).toEqual([]);
    expect(candidateTerms(["pod", "crash", "log"], df, [["pod"], ["log"]])).toEqual({
      terms: ["crash", "pod"],
      boosts: [],
    });
  });
});

describe("ftsMatchExpression", () => {
  it("quotes every term, and joins boosts only where a term matches", () => {
    expect(ftsMatchExpression(['say"s', "pod"])).toBe('"say""s" OR "pod"');
    expect(ftsMatchExpression(["pod"], ["log", "pod"])).toBe('"pod" OR (("log") AND ("pod"))');
    expect(ftsMatchExpression([], ["log"])).toBeNull();
  });

  it("matches exactly the records its terms match, boosts or not, in FTS5", async () => {
    const words = ["pod", "log", "crash", "get", "node", "event"];
    await runInDurableObject(sessionStub(newSid()), (_obj, state) => {
      const sql = createSql(state.storage.sql);
      sql.run(`CREATE VIRTUAL TABLE t_fts USING fts5(a, b)`);
      fc.assert(
        fc.property(
          fc.array(
            fc.tuple(
              fc.array(fc.constantFrom(...words), { maxLength: 4 }),
              fc.array(fc.constantFrom(...words), { maxLength: 6 }),
            ),
            { minLength: 1, maxLength: 30 },
          ),
          fc.uniqueArray(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }),
          fc.uniqueArray(fc.constantFrom(...words), { maxLength: 3 }),
          (docs, terms, boosts) => {
            sql.run(`DELETE FROM t_fts`);
            for (const [a, b] of docs)
              sql.run(`INSERT INTO t_fts (a, b) VALUES (?, ?)`, a.join(" "), b.join(" "));
            const ids = (match: string | null) =>
              sql
                .all<{ id: number }>(
                  `SELECT rowid AS id FROM t_fts WHERE t_fts MATCH ? ORDER BY rowid`,
                  match ?? "",
                )
                .map((r) => r.id);
            expect(ids(ftsMatchExpression(terms, boosts))).toEqual(ids(ftsMatchExpression(terms)));
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
