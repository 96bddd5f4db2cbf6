// Index text written under an earlier normalization (a deploy changed stopwords, synonyms or the
// stemmer) is re-normalized from the stored records on the object's next start, in sessions and in
// published catalogs (src/session/index-text.ts). The earlier text is simulated by rewriting the stored
// search fields as an older release would have written them; the restart is a real one.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { CatalogObject } from "../../src/catalog-object";
import { createSql } from "../../src/db/sql";
import { indexTextVersion } from "../../src/search/text";
import { renormalizeSession } from "../../src/session/index-text";
import { useCorePack } from "../support/core-pack";
import { call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const NEWS = { name: "search.headlines", description: "Search recent news by keyword" };
const OTHER = { name: "search.web", description: "Search the web for pages" };

/** What a release that read "news" as the plural of "new" (create) stored for it. */
const STALE_NEWS = { f_description: "search recent creat keyword" };

async function restart(stub: DurableObjectStub): Promise<void> {
  await expect(
    runInDurableObject(stub, (_obj, state) => {
      state.abort("restart for the test");
    }),
  ).rejects.toThrow();
}

/** Tools the session's FTS index holds under `term`. */
function indexed(stub: DurableObjectStub, term: string): Promise<number> {
  return runInDurableObject(stub, (_obj, state) => {
    const match = `SELECT count(*) AS n FROM trove_tools_fts WHERE trove_tools_fts MATCH ?`;
    return state.storage.sql.exec<{ n: number }>(match, `"${term}"`).one().n;
  });
}

async function found(sid: string, query: string): Promise<string[]> {
  const res = await op(sid, "tool_search", { query, limit: 5 });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.tools.map((t: { name: string }) => t.name);
}

describe("index text across normalization changes", () => {
  it("re-normalizes a session's tools and skills on its next start, once", async () => {
    const sid = newSid();
    await useCorePack(sid);
    expect((await op(sid, "catalog_sync", { tools: [NEWS, OTHER] })).status).toBe(200);
    const stub = sessionStub(sid); // this instance's: a restarted object needs a new stub
    const skill = await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      sql.exec(
        `UPDATE trove_tools SET f_description = ? WHERE name = 'search.headlines'`,
        STALE_NEWS.f_description,
      );
      const row = sql
        .exec<{ id: number; name: string; f_title: string }>(
          `SELECT id, name, f_title FROM trove_skills ORDER BY id LIMIT 1`,
        )
        .one();
      sql.exec(`UPDATE trove_skills SET f_name = 'stale', f_title = 'stale' WHERE id = ?`, row.id);
      // Written before index text versions were kept.
      sql.exec(`DELETE FROM trove_meta WHERE key = 'index_text'`);
      return row;
    });
    // The stale index no longer knows the tool by what it is.
    expect(await indexed(stub, "news")).toBe(0);

    await restart(stub);
    await useCorePack(sid); // the operator's bundle, as deployed (the restart dropped the test's)
    expect(await indexed(sessionStub(sid), "news")).toBe(1);
    expect((await found(sid, "news"))[0]).toBe("search.headlines");
    const skills = await op(sid, "skill_search", { query: skill.name.replaceAll(".", " "), limit: 5 });
    expect(skills.json.skills.map((s: { name: string }) => s.name)).toContain(skill.name);
    await runInDurableObject(sessionStub(sid), (_obj, state) => {
      const sql = createSql(state.storage.sql);
      const stamp = sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'index_text'`);
      expect(stamp?.value).toBe(indexTextVersion());
      expect(
        sql.one<{ f_title: string }>(`SELECT f_title FROM trove_skills WHERE id = ?`, skill.id)?.f_title,
      ).toBe(skill.f_title);
      // Current: nothing to do, nothing written.
      const before = sql.stats.rowsWritten;
      expect(renormalizeSession(sql)).toBeNull();
      expect(sql.stats.rowsWritten).toBe(before);
    });
  });

  it("rewrites only the rows whose text changed", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: [NEWS, OTHER] });
    await runInDurableObject(sessionStub(sid), (_obj, state) => {
      const sql = createSql(state.storage.sql);
      sql.run(
        `UPDATE trove_tools SET f_description = ? WHERE name = 'search.headlines'`,
        STALE_NEWS.f_description,
      );
      sql.run(`UPDATE trove_meta SET value = 'an-older-release' WHERE key = 'index_text'`);
      expect(renormalizeSession(sql)).toEqual({ tools: 1, skills: 0 });
      expect(renormalizeSession(sql)).toBeNull();
    });
  });

  it("re-normalizes a published catalog's rows, so new sessions take current text", async () => {
    const name = `cat-${crypto.randomUUID().slice(0, 8)}`;
    expect((await call("PUT", `/v1/catalogs/${name}`, { tools: [NEWS, OTHER] })).status).toBe(200);
    const catalog = env.CATALOGS.get(env.CATALOGS.idFromName(`tenant-a/${name}`));
    const typed = catalog as unknown as DurableObjectStub<CatalogObject>;
    await runInDurableObject(typed, (_obj, state) => {
      const sql = state.storage.sql;
      const row = sql
        .exec<{ row: string }>(`SELECT row FROM pub_tools WHERE name = 'search.headlines'`)
        .one().row;
      const stale = JSON.stringify({ ...JSON.parse(row), ...STALE_NEWS });
      sql.exec(`UPDATE pub_tools SET row = ? WHERE name = 'search.headlines'`, stale);
      sql.exec(`DELETE FROM pub_meta WHERE key = 'index_text'`);
    });
    await restart(catalog);

    const sid = newSid();
    expect((await call("PUT", `/v1/sessions/${sid}`, { catalog: name })).status).toBe(200);
    expect((await found(sid, "news"))[0]).toBe("search.headlines");
    // The catalog's version did not move: its records did not change.
    const info = await call("GET", `/v1/catalogs/${name}`);
    expect(info.json.version).toBe(1);
  });
});
