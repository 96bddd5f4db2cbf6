// The tools' search index stays compact (src/tools/index-upkeep.ts): after a request that rewrote
// a large share of it, the session merges it right after the response, so later searches read one
// segment; small changes are left to FTS5's own merging. Counted in the index's pages, not timed.
import { runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { IndexUpkeep } from "../../src/tools/index-upkeep";
import { KEY_A, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const tools = (n: number, words: string) =>
  Array.from({ length: n }, (_, i) => ({ name: `ns.tool_${i}`, description: `${words} number ${i}` }));

/** Pages of the index, then pages once merged by hand; FTS5's integrity check throws on a broken index. */
async function pages(sid: string): Promise<{ now: number; merged: number }> {
  return runInDurableObject(sessionStub(sid), (_obj, state) => {
    const count = () =>
      state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM trove_tools_fts_data`).one().n;
    const now = count();
    state.storage.sql.exec(`INSERT INTO trove_tools_fts (trove_tools_fts) VALUES ('integrity-check')`);
    state.storage.sql.exec(`INSERT INTO trove_tools_fts (trove_tools_fts) VALUES ('optimize')`);
    return { now, merged: count() };
  });
}

describe("search index upkeep", () => {
  it("merges the index after a request that rewrote a large share of it", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: tools(300, "alpha bravo") });
    // Every description changes: 300 rows rewritten, past the tidy threshold.
    const resync = await op(sid, "catalog_sync", { tools: tools(300, "charlie delta") });
    expect(resync.json.updated).toBe(300);
    const after = await pages(sid);
    expect(after.now).toBe(after.merged);
    const found = await op(sid, "tool_search", { query: "charlie", limit: 3 });
    expect(found.json.tools).toHaveLength(3);
    expect((await op(sid, "tool_search", { query: "alpha" })).json.tools).toEqual([]);
  });

  it("deleting the session right after a bulk rewrite leaves nothing to merge", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: tools(300, "alpha bravo") });
    await op(sid, "catalog_sync", { tools: tools(300, "charlie delta") });
    const res = await SELF.fetch(`https://trove.test/v1/sessions/${sid}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await op(sid, "catalog_sync", { tools: tools(300, "charlie delta") });
    const after = await pages(sid);
    expect(after.merged).toBeLessThanOrEqual(after.now);
  });

  it("leaves a small change to FTS5's own merging", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: tools(300, "alpha bravo") });
    await op(sid, "catalog_sync", {
      tools: [...tools(20, "charlie delta"), ...tools(300, "alpha bravo").slice(20)],
    });
    const after = await pages(sid);
    // Not merged: merging by hand still finds deleted entries and extra segments to drop.
    expect(after.merged).toBeLessThan(after.now);
  });
});

describe("IndexUpkeep", () => {
  it("is due once rewrites reach a tenth of the index and at least 100 rows", () => {
    const upkeep = new IndexUpkeep();
    upkeep.note(99);
    expect(upkeep.due(50)).toBe(false);
    expect(upkeep.pending()).toBe(false);
    upkeep.note(1);
    expect(upkeep.due(50)).toBe(true);
    expect(upkeep.pending()).toBe(true);
    expect(upkeep.due(1_000)).toBe(true);
    expect(upkeep.due(1_001)).toBe(false);
    const statements: string[] = [];
    upkeep.tidy((s) => statements.push(s));
    expect(statements).toEqual([`INSERT INTO trove_tools_fts (trove_tools_fts) VALUES ('optimize')`]);
    expect(upkeep.due(0)).toBe(false);
  });

  it("forgets what a rolled-back transaction noted, keeps what a committed one did", () => {
    const upkeep = new IndexUpkeep();
    upkeep.note(60);
    upkeep.begin();
    upkeep.note(60);
    upkeep.rollback();
    expect(upkeep.due(0)).toBe(false);
    upkeep.begin();
    upkeep.note(60);
    upkeep.commit();
    upkeep.rollback();
    expect(upkeep.due(0)).toBe(true);
  });
});
