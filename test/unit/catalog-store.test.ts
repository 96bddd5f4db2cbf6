// The catalog in SQLite, seen from inside the session object: FTS5 stays consistent with the
// table, unchanged syncs write nothing, changed ones write only their rows, and the schema is pinned.
import { runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIGRATIONS, migrate } from "../../src/db/migrations";
import { SKILL_FTS_COLUMNS } from "../../src/db/search-indexes";
import { TOOL_FTS_COLUMNS } from "../../src/db/tool-columns";
import { CatalogSyncInput } from "../../src/ops/tool-ops";
import type { SessionObject } from "../../src/session-object";
import { DEFAULT_CONFIG } from "../../src/state/config";
import { fingerprintOf } from "../../src/tools/catalog-store";
import { visibilityFor } from "../../src/tools/policy";
import { call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const stubFor = (sid: string, tenant = "tenant-a") => sessionStub(sid, tenant);
const inObject = <R>(sid: string, fn: (obj: SessionObject, state: DurableObjectState) => R | Promise<R>) =>
  runInDurableObject(stubFor(sid), fn);

const FTS_COLUMNS = "f_name, f_namespace, f_tags, f_description, f_params, f_examples";

/** Both forms of the FTS5 check; the `rank = 1` form also compares the index with trove_tools. */
function integrityCheck(obj: SessionObject): void {
  obj.sql.run(`INSERT INTO trove_tools_fts(trove_tools_fts) VALUES('integrity-check')`);
  obj.sql.run(`INSERT INTO trove_tools_fts(trove_tools_fts, rank) VALUES('integrity-check', 1)`);
}

/** An empty session object's storage as the migrations up to `version` left it. */
async function schemaAt(obj: SessionObject, state: DurableObjectState, version: number): Promise<void> {
  await state.storage.deleteAll();
  obj.sql.run(
    `CREATE TABLE trove_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
  );
  for (const m of MIGRATIONS.filter((m) => m.version <= version)) {
    for (const statement of m.statements) obj.sql.run(statement);
    obj.sql.run(`INSERT INTO trove_schema VALUES (?, ?, 0)`, m.version, m.name);
  }
}

const rowsWritten = (sid: string) => inObject(sid, (obj) => obj.sql.stats.rowsWritten);

/** Rows written by one HTTP request, read from the object's running SQL counters. */
async function writesOf(sid: string, request: () => Promise<{ status: number }>): Promise<number> {
  const before = await rowsWritten(sid);
  expect((await request()).status).toBe(200);
  return (await rowsWritten(sid)) - before;
}

const catalog = (n: number, prefix = "tool") =>
  Array.from({ length: n }, (_, i) => ({
    name: `ns${i % 7}.${prefix}_${i}`,
    description: `Tool number ${i} fetches widget ${i % 13} from the store`,
    tags: [`group${i % 5}`],
    side_effects: (["pure", "read", "write", "external", "stateful"] as const)[i % 5],
  }));

const sync = (sid: string, tools: unknown[], mode: "replace" | "merge" = "replace") =>
  op(sid, "catalog_sync", { tools, mode });

describe("FTS5 consistency", () => {
  it("passes integrity-check after add, update, remove, merge, replace, config changes and erase", async () => {
    const sid = newSid();
    const base = catalog(40);
    const steps: [string, () => Promise<unknown>][] = [
      ["add", () => sync(sid, base)],
      [
        "update",
        () =>
          sync(
            sid,
            base.map((t, i) => (i % 3 === 0 ? { ...t, description: `changed ${i}` } : t)),
          ),
      ],
      ["remove", () => sync(sid, base.slice(10))],
      ["merge", () => sync(sid, [...catalog(5, "merged"), { ...base[20], tags: ["new"] }], "merge")],
      ["replace", () => sync(sid, catalog(15, "fresh"))],
      [
        "config",
        () =>
          call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["ns1.*"] }, default_loading_mode: "always" }),
      ],
      [
        "rename",
        () =>
          sync(
            sid,
            catalog(15, "fresh").map((t) => ({ ...t, name: t.name.replace("fresh", "renamed") })),
          ),
      ],
      ["erase", () => call("DELETE", `/v1/sessions/${sid}`)],
      ["re-add", () => sync(sid, base)],
      ["clear", () => sync(sid, [])],
      ["refill", () => sync(sid, catalog(3))],
    ];
    for (const [label, step] of steps) {
      await step();
      await inObject(sid, (obj) => {
        if (label === "erase") {
          // Erase drops every table; the schema comes back with the next request.
          const left = obj.sql.all(`SELECT name FROM sqlite_master WHERE name LIKE 'trove%'`);
          expect(left).toEqual([]);
          return;
        }
        expect(() => integrityCheck(obj), label).not.toThrow();
        // The index holds exactly the tools the policy allows (denied ones stay out of ranking stats).
        const tools = obj.sql.one<{ n: number }>(
          `SELECT count(*) AS n FROM trove_tools WHERE allowed = 1`,
        )?.n;
        const docs = obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_tools_fts_docsize`)?.n;
        expect(docs, label).toBe(tools);
      });
    }
  });

  it("integrity-check with rank 1 detects an index that disagrees with the table", async () => {
    const sid = newSid();
    await sync(sid, catalog(5));
    await inObject(sid, (obj) => {
      integrityCheck(obj);
      const row = obj.sql.one<{ id: number }>(`SELECT id FROM trove_tools ORDER BY id LIMIT 1`);
      // A 'delete' with the wrong column values is exactly the corruption external content risks.
      obj.sql.run(
        `INSERT INTO trove_tools_fts(trove_tools_fts, rowid, ${FTS_COLUMNS}) VALUES('delete', ?, 'bogus', 'x', '', '', '', '')`,
        row?.id ?? 1,
      );
      expect(() =>
        obj.sql.run(`INSERT INTO trove_tools_fts(trove_tools_fts, rank) VALUES('integrity-check', 1)`),
      ).toThrow(/malformed|corrupt/i);
    });
  });

  it("finds every stored tool through the index by its own normalized name", async () => {
    const sid = newSid();
    await sync(sid, catalog(30));
    await sync(
      sid,
      catalog(30).map((t, i) => (i % 2 ? { ...t, name: `${t.name}_v2` } : t)),
    );
    await inObject(sid, (obj) => {
      const rows = obj.sql.all<{ id: number; f_name: string }>(`SELECT id, f_name FROM trove_tools`);
      expect(rows).toHaveLength(30);
      for (const row of rows) {
        const phrase = `"${row.f_name.replaceAll('"', '""')}"`;
        const hits = obj.sql.all<{ rowid: number }>(
          `SELECT rowid FROM trove_tools_fts WHERE trove_tools_fts MATCH ?`,
          `f_name : ${phrase}`,
        );
        expect(hits.map((h) => h.rowid)).toContain(row.id);
      }
    });
  });

  it("keeps FTS5 consistent across random sequences of replace and merge syncs", async () => {
    const names = ["a.x", "a.y", "b.x", "b.create_issue", "c.listUsers", "c.send-message", "d.z"];
    const record = fc.record({
      name: fc.constantFrom(...names),
      description: fc.constantFrom("create an issue", "list users", "send a message", "zzz", ""),
      tags: fc.option(fc.uniqueArray(fc.constantFrom("t1", "t2", "t3"), { maxLength: 2 }), {
        nil: undefined,
      }),
      side_effects: fc.option(fc.constantFrom("pure", "read", "write"), { nil: undefined }),
    });
    const step = fc.record({
      mode: fc.constantFrom("replace" as const, "merge" as const),
      tools: fc.uniqueArray(record, { selector: (t) => t.name, maxLength: names.length }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
        const sid = newSid();
        const model = new Map<string, unknown>();
        let fingerprint = "";
        for (const s of steps) {
          const res = await sync(sid, s.tools, s.mode);
          expect(res.status).toBe(200);
          if (s.mode === "replace") model.clear();
          for (const t of s.tools) model.set(t.name, t);
          expect(res.json.total).toBe(model.size);
          fingerprint = res.json.fingerprint;
        }
        await inObject(sid, (obj) => {
          integrityCheck(obj);
          const rows = obj.sql.all<{ name: string; record_hash: string }>(
            `SELECT name, record_hash FROM trove_tools ORDER BY name`,
          );
          expect(rows.map((r) => r.name)).toEqual([...model.keys()].sort());
          expect(fingerprintOf(rows.map((r) => r.record_hash))).toBe(fingerprint);
          expect(obj.catalog.fingerprint()).toBe(fingerprint);
          // The ids the store keeps in memory (names are looked up there, rows read by id) are the rows'.
          const stored = obj.sql.all<{ name: string; id: number }>(`SELECT name, id FROM trove_tools`);
          expect(obj.catalog.ids()).toEqual(new Map(stored.map((r) => [r.name, r.id])));
        });
      }),
      { numRuns: 30 },
    );
  });
});

describe("rows written", () => {
  it("re-syncing an unchanged catalog writes 0 rows", async () => {
    const sid = newSid();
    const tools = catalog(200);
    expect(await writesOf(sid, () => sync(sid, tools))).toBeGreaterThanOrEqual(200);
    expect(await writesOf(sid, () => sync(sid, tools))).toBe(0);
    expect(await writesOf(sid, () => sync(sid, [...tools].reverse()))).toBe(0);
    expect(await writesOf(sid, () => sync(sid, tools.slice(0, 50), "merge"))).toBe(0);
  });

  it("re-syncing an unchanged catalog inside the object writes 0 rows", async () => {
    const sid = newSid();
    const input = CatalogSyncInput.parse({ tools: catalog(100) });
    await inObject(sid, async (obj) => {
      const first = await obj.run("catalog_sync", input, { tenant: "tenant-a", sid });
      expect(first).toMatchObject({ ok: true, value: { added: 100 } });
      const before = obj.sql.stats.rowsWritten;
      const second = await obj.run("catalog_sync", input, { tenant: "tenant-a", sid });
      expect(second).toMatchObject({ ok: true, value: { added: 0, updated: 0, unchanged: 100 } });
      expect(obj.sql.stats.rowsWritten - before).toBe(0);
    });
  });

  it("changing one record writes only that row and its index rows", async () => {
    const sid = newSid();
    const tools = catalog(300);
    const full = await writesOf(sid, () => sync(sid, tools));
    expect(full).toBeGreaterThanOrEqual(300);

    const changed = tools.map((t, i) =>
      i === 123 ? { ...t, description: "a completely new description" } : t,
    );
    const one = await writesOf(sid, () => sync(sid, changed));
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThanOrEqual(20);
    expect(one * 50).toBeLessThan(full);

    const tagged = changed.map((t, i) => (i === 7 ? { ...t, tags: ["other"] } : t));
    expect(await writesOf(sid, () => sync(sid, tagged))).toBeLessThanOrEqual(20);
  });

  it("adding or removing one tool writes only a few rows", async () => {
    const sid = newSid();
    const tools = catalog(300);
    await sync(sid, tools);
    expect(
      await writesOf(sid, () => sync(sid, [{ name: "new.tool", description: "d" }], "merge")),
    ).toBeLessThanOrEqual(20);
    expect(await writesOf(sid, () => sync(sid, tools))).toBeLessThanOrEqual(20);
  });

  it("searches and reads write nothing but their telemetry, after the response", async () => {
    const sid = newSid();
    await sync(sid, catalog(50));
    // Each search writes its one event row, in a transaction of its own after the answer.
    expect(await writesOf(sid, () => op(sid, "tool_search", { query: "fetches widget" }))).toBe(1);
    expect(await writesOf(sid, () => op(sid, "tool_search", { query: "ns1", search_type: "regex" }))).toBe(1);
    expect(
      await writesOf(sid, () => op(sid, "tool_search", { query: "ns1.tool_1", search_type: "exact" })),
    ).toBe(1);
    expect(await writesOf(sid, () => call("GET", `/v1/sessions/${sid}`))).toBe(0);
    expect(await writesOf(sid, () => op(sid, "state", {}))).toBe(0);
    expect(await writesOf(sid, () => op(sid, "context", { format: "anthropic" }))).toBe(0);
    expect(await writesOf(sid, () => op(sid, "events", {}))).toBe(0);
    const types = (await op(sid, "events", {})).json.events.map((e: { type: string }) => e.type);
    expect(types.slice(-3)).toEqual(["tool_search_query", "tool_search_query", "tool_search_query"]);
  });

  it("putting the same config again writes nothing", async () => {
    const sid = newSid();
    await sync(sid, catalog(50));
    const config = { policy: { deny: ["ns1.*"] }, always_loaded_patterns: ["ns2.*"] };
    expect(await writesOf(sid, () => call("PUT", `/v1/sessions/${sid}`, config))).toBeGreaterThan(0);
    expect(await writesOf(sid, () => call("PUT", `/v1/sessions/${sid}`, config))).toBe(0);
  });

  it("a config change rewrites only the tools whose visibility changed", async () => {
    const sid = newSid();
    await sync(sid, catalog(70));
    // ns3.* holds 10 of the 70 tools.
    const writes = await writesOf(sid, () =>
      call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["ns3.*"] } }),
    );
    // Per newly denied tool: its row, its visibility and provider-name index entries, and its FTS
    // entry; nothing for the 60 others.
    expect(writes).toBeGreaterThanOrEqual(10);
    expect(writes).toBeLessThanOrEqual(10 * 4 + 2);
  });
});

describe("schema", () => {
  it("matches the snapshot", async () => {
    const sid = newSid();
    const schema = await inObject(sid, (obj) =>
      obj.sql.all<{ type: string; name: string; sql: string | null }>(
        `SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE '_cf_%' ORDER BY name`,
      ),
    );
    expect(schema).toMatchInlineSnapshot(`
      [
        {
          "name": "sqlite_autoindex_trove_activations_1",
          "sql": null,
          "type": "index",
        },
        {
          "name": "sqlite_autoindex_trove_approvals_1",
          "sql": null,
          "type": "index",
        },
        {
          "name": "sqlite_autoindex_trove_enabled_skills_1",
          "sql": null,
          "type": "index",
        },
        {
          "name": "sqlite_autoindex_trove_meta_1",
          "sql": null,
          "type": "index",
        },
        {
          "name": "sqlite_autoindex_trove_namespaces_used_1",
          "sql": null,
          "type": "index",
        },
        {
          "name": "sqlite_autoindex_trove_packs_1",
          "sql": null,
          "type": "index",
        },
        {
          "name": "sqlite_autoindex_trove_skill_loads_1",
          "sql": null,
          "type": "index",
        },
        {
          "name": "trove_activations",
          "sql": "CREATE TABLE "trove_activations" (
              tool_name TEXT NOT NULL,
              run_id TEXT NOT NULL,
              scope TEXT NOT NULL,
              source TEXT NOT NULL,
              reason TEXT,
              at INTEGER NOT NULL,
              expires_at INTEGER,
              PRIMARY KEY (tool_name, run_id)
            )",
          "type": "table",
        },
        {
          "name": "trove_activations_expiry",
          "sql": "CREATE INDEX trove_activations_expiry ON trove_activations (expires_at) WHERE expires_at IS NOT NULL",
          "type": "index",
        },
        {
          "name": "trove_approvals",
          "sql": "CREATE TABLE trove_approvals (
              id TEXT PRIMARY KEY,
              tool_name TEXT NOT NULL,
              args TEXT,
              run_id TEXT,
              status TEXT NOT NULL,
              requested_at INTEGER NOT NULL,
              decided_at INTEGER,
              decided_by TEXT,
              note TEXT
            )",
          "type": "table",
        },
        {
          "name": "trove_approvals_pending",
          "sql": "CREATE INDEX trove_approvals_pending ON trove_approvals (status, requested_at)",
          "type": "index",
        },
        {
          "name": "trove_enabled_skills",
          "sql": "CREATE TABLE trove_enabled_skills (
              qid TEXT PRIMARY KEY,
              enabled_at INTEGER NOT NULL
            )",
          "type": "table",
        },
        {
          "name": "trove_events",
          "sql": "CREATE TABLE trove_events (
              id INTEGER PRIMARY KEY,
              type TEXT NOT NULL,
              at INTEGER NOT NULL,
              data TEXT NOT NULL
            )",
          "type": "table",
        },
        {
          "name": "trove_learned",
          "sql": "CREATE TABLE trove_learned (
              qid TEXT PRIMARY KEY,
              task_type TEXT NOT NULL,
              helpful INTEGER NOT NULL,
              harmful INTEGER NOT NULL,
              confirmed_at INTEGER NOT NULL
            ) WITHOUT ROWID",
          "type": "table",
        },
        {
          "name": "trove_learning_outbox",
          "sql": "CREATE TABLE trove_learning_outbox (
              id INTEGER PRIMARY KEY,
              use TEXT NOT NULL
            )",
          "type": "table",
        },
        {
          "name": "trove_lesson_outbox",
          "sql": "CREATE TABLE trove_lesson_outbox (
              id INTEGER PRIMARY KEY,
              kind TEXT NOT NULL,
              payload TEXT NOT NULL
            )",
          "type": "table",
        },
        {
          "name": "trove_meta",
          "sql": "CREATE TABLE trove_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
          "type": "table",
        },
        {
          "name": "trove_namespaces_used",
          "sql": "CREATE TABLE trove_namespaces_used (namespace TEXT PRIMARY KEY, at INTEGER NOT NULL)",
          "type": "table",
        },
        {
          "name": "trove_packs",
          "sql": "CREATE TABLE trove_packs (
              pack TEXT PRIMARY KEY,
              attached_at INTEGER NOT NULL,
              tools_enabled_at INTEGER
            )",
          "type": "table",
        },
        {
          "name": "trove_schema",
          "sql": "CREATE TABLE trove_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
          "type": "table",
        },
        {
          "name": "trove_skill_loads",
          "sql": "CREATE TABLE trove_skill_loads (
              qid TEXT PRIMARY KEY,
              content_hash TEXT NOT NULL,
              at INTEGER NOT NULL
            )",
          "type": "table",
        },
        {
          "name": "trove_skills",
          "sql": "CREATE TABLE "trove_skills" (
              id INTEGER PRIMARY KEY,
              qid TEXT NOT NULL,
              name TEXT NOT NULL,
              pack TEXT NOT NULL,
              title TEXT NOT NULL,
              description TEXT NOT NULL,
              trigger TEXT NOT NULL,
              task_type TEXT,
              tags TEXT NOT NULL,
              origin TEXT NOT NULL,
              scope TEXT NOT NULL,
              record TEXT NOT NULL,
              content_hash TEXT NOT NULL,
              use_count INTEGER NOT NULL DEFAULT 0,
              last_used INTEGER,
              allowed INTEGER NOT NULL DEFAULT 1,
              f_name TEXT NOT NULL,
              f_title TEXT NOT NULL,
              f_tags TEXT NOT NULL,
              f_trigger TEXT NOT NULL,
              f_description TEXT NOT NULL,
              f_body TEXT NOT NULL
            )",
          "type": "table",
        },
        {
          "name": "trove_skills_fts",
          "sql": "CREATE VIRTUAL TABLE trove_skills_fts USING fts5(f_name, f_title, f_tags, f_trigger, f_description, f_body,
              content='trove_skills_searchable', content_rowid='id', tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'")",
          "type": "table",
        },
        {
          "name": "trove_skills_fts_config",
          "sql": "CREATE TABLE 'trove_skills_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID",
          "type": "table",
        },
        {
          "name": "trove_skills_fts_data",
          "sql": "CREATE TABLE 'trove_skills_fts_data'(id INTEGER PRIMARY KEY, block BLOB)",
          "type": "table",
        },
        {
          "name": "trove_skills_fts_delete",
          "sql": "CREATE TRIGGER trove_skills_fts_delete AFTER DELETE ON trove_skills WHEN old.allowed = 1 BEGIN
              INSERT INTO trove_skills_fts (trove_skills_fts, rowid, f_name, f_title, f_tags, f_trigger, f_description, f_body)
                VALUES ('delete', old.id, old.f_name, old.f_title, old.f_tags, old.f_trigger, old.f_description, old.f_body);
            END",
          "type": "trigger",
        },
        {
          "name": "trove_skills_fts_docsize",
          "sql": "CREATE TABLE 'trove_skills_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB)",
          "type": "table",
        },
        {
          "name": "trove_skills_fts_idx",
          "sql": "CREATE TABLE 'trove_skills_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID",
          "type": "table",
        },
        {
          "name": "trove_skills_fts_update",
          "sql": "CREATE TRIGGER trove_skills_fts_update AFTER UPDATE OF allowed, f_name, f_title, f_tags, f_trigger, f_description, f_body ON trove_skills BEGIN
              INSERT INTO trove_skills_fts (trove_skills_fts, rowid, f_name, f_title, f_tags, f_trigger, f_description, f_body)
                SELECT 'delete', old.id, old.f_name, old.f_title, old.f_tags, old.f_trigger, old.f_description, old.f_body WHERE old.allowed = 1;
              INSERT INTO trove_skills_fts (rowid, f_name, f_title, f_tags, f_trigger, f_description, f_body)
                SELECT new.id, new.f_name, new.f_title, new.f_tags, new.f_trigger, new.f_description, new.f_body WHERE new.allowed = 1;
            END",
          "type": "trigger",
        },
        {
          "name": "trove_skills_searchable",
          "sql": "CREATE VIEW trove_skills_searchable AS SELECT id, f_name, f_title, f_tags, f_trigger, f_description, f_body FROM trove_skills WHERE allowed = 1",
          "type": "view",
        },
        {
          "name": "trove_skills_vocab",
          "sql": "CREATE VIRTUAL TABLE trove_skills_vocab USING fts5vocab(trove_skills_fts, 'row')",
          "type": "table",
        },
        {
          "name": "trove_tools",
          "sql": "CREATE TABLE "trove_tools" (
              id INTEGER PRIMARY KEY,
              name TEXT NOT NULL,
              qualified_name TEXT NOT NULL,
              local_name TEXT NOT NULL,
              namespace TEXT NOT NULL,
              description TEXT NOT NULL,
              tags TEXT NOT NULL,
              side_effects TEXT NOT NULL,
              loading_mode TEXT,
              effective_mode TEXT NOT NULL,
              allowed INTEGER NOT NULL,
              record TEXT NOT NULL,
              record_hash TEXT NOT NULL,
              f_name TEXT NOT NULL,
              f_namespace TEXT NOT NULL,
              f_tags TEXT NOT NULL,
              f_description TEXT NOT NULL,
              f_params TEXT NOT NULL,
              f_examples TEXT NOT NULL,
              provider_name TEXT,
              source TEXT NOT NULL,
              f_learned TEXT NOT NULL DEFAULT ''
            , f_offers TEXT NOT NULL DEFAULT '', f_learned_near TEXT NOT NULL DEFAULT '', f_returns TEXT NOT NULL DEFAULT '', f_learned_own TEXT NOT NULL DEFAULT '')",
          "type": "table",
        },
        {
          "name": "trove_tools_fts",
          "sql": "CREATE VIRTUAL TABLE trove_tools_fts USING fts5(f_name, f_namespace, f_tags, f_description, f_params, f_examples, f_learned,
              content='trove_tools_searchable', content_rowid='id', tokenize="unicode61 remove_diacritics 2 categories 'L* N* Co M*'")",
          "type": "table",
        },
        {
          "name": "trove_tools_fts_config",
          "sql": "CREATE TABLE 'trove_tools_fts_config'(k PRIMARY KEY, v) WITHOUT ROWID",
          "type": "table",
        },
        {
          "name": "trove_tools_fts_data",
          "sql": "CREATE TABLE 'trove_tools_fts_data'(id INTEGER PRIMARY KEY, block BLOB)",
          "type": "table",
        },
        {
          "name": "trove_tools_fts_delete",
          "sql": "CREATE TRIGGER trove_tools_fts_delete AFTER DELETE ON trove_tools WHEN old.allowed = 1 BEGIN
              INSERT INTO trove_tools_fts (trove_tools_fts, rowid, f_name, f_namespace, f_tags, f_description, f_params, f_examples, f_learned)
                VALUES ('delete', old.id, old.f_name, old.f_namespace, old.f_tags, old.f_description, old.f_params, old.f_examples, old.f_learned);
            END",
          "type": "trigger",
        },
        {
          "name": "trove_tools_fts_docsize",
          "sql": "CREATE TABLE 'trove_tools_fts_docsize'(id INTEGER PRIMARY KEY, sz BLOB)",
          "type": "table",
        },
        {
          "name": "trove_tools_fts_idx",
          "sql": "CREATE TABLE 'trove_tools_fts_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID",
          "type": "table",
        },
        {
          "name": "trove_tools_fts_update",
          "sql": "CREATE TRIGGER trove_tools_fts_update AFTER UPDATE OF allowed, f_name, f_namespace, f_tags, f_description, f_params, f_examples, f_learned ON trove_tools BEGIN
              INSERT INTO trove_tools_fts (trove_tools_fts, rowid, f_name, f_namespace, f_tags, f_description, f_params, f_examples, f_learned)
                SELECT 'delete', old.id, old.f_name, old.f_namespace, old.f_tags, old.f_description, old.f_params, old.f_examples, old.f_learned WHERE old.allowed = 1;
              INSERT INTO trove_tools_fts (rowid, f_name, f_namespace, f_tags, f_description, f_params, f_examples, f_learned) SELECT new.id, new.f_name, new.f_namespace, new.f_tags, new.f_description, new.f_params, new.f_examples, new.f_learned WHERE new.allowed = 1;
            END",
          "type": "trigger",
        },
        {
          "name": "trove_tools_learned_near",
          "sql": "CREATE INDEX trove_tools_learned_near ON trove_tools (id) WHERE f_learned_near != ''",
          "type": "index",
        },
        {
          "name": "trove_tools_searchable",
          "sql": "CREATE VIEW trove_tools_searchable AS
              SELECT id, f_name, f_namespace, f_tags, f_description, f_params, f_examples, f_learned FROM trove_tools WHERE allowed = 1",
          "type": "view",
        },
        {
          "name": "trove_tools_vocab",
          "sql": "CREATE VIRTUAL TABLE trove_tools_vocab USING fts5vocab(trove_tools_fts, 'row')",
          "type": "table",
        },
        {
          "name": "trove_tools_vocab_col",
          "sql": "CREATE VIRTUAL TABLE trove_tools_vocab_col USING fts5vocab(trove_tools_fts, 'col')",
          "type": "table",
        },
      ]
    `);
  });

  it("records one trove_schema row per migration", async () => {
    const sid = newSid();
    const rows = await inObject(sid, (obj) =>
      obj.sql.all<{ version: number; name: string; applied_at: number }>(
        `SELECT version, name, applied_at FROM trove_schema ORDER BY version`,
      ),
    );
    expect(rows.map(({ version, name }) => ({ version, name }))).toEqual(
      MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );
    for (const row of rows) expect(row.applied_at).toBeGreaterThan(0);
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it("re-running the migrations on an up-to-date database changes nothing and writes nothing", async () => {
    const sid = newSid();
    await sync(sid, catalog(3));
    await inObject(sid, (obj, state) => {
      const before = obj.sql.stats.rowsWritten;
      const version = migrate(obj.sql, (fn) => state.storage.transactionSync(fn));
      expect(version).toBe(MIGRATIONS.at(-1)?.version);
      expect(obj.sql.stats.rowsWritten - before).toBe(0);
      expect(obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_schema`)?.n).toBe(MIGRATIONS.length);
      expect(obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_tools`)?.n).toBe(3);
    });
  });

  it("migrates a session stored before slim storage (version 7) without losing a tool, activation or skill", async () => {
    const sid = newSid();
    await inObject(sid, async (obj, state) => {
      await schemaAt(obj, state, 7);
      // A tool, its activation and a skill as version 7 stored them (its insert trigger indexes the tool).
      obj.sql.run(
        `INSERT INTO trove_tools (name, qualified_name, local_name, namespace, description, tags, side_effects,
           loading_mode, effective_mode, allowed, record, record_hash, f_name, f_namespace, f_tags, f_description,
           f_params, f_examples, provider_name, source, f_learned)
         VALUES ('gh.open_issue', 'gh.open_issue', 'open_issue', 'gh', 'Open an issue', '[]', 'write', NULL,
           'deferred', 1, '{"name":"gh.open_issue","description":"Open an issue","namespace":"gh","side_effects":"write"}',
           'h1', 'open issu', 'gh', '', 'open issu', '', '', 'gh_open_issue', 'agent', 'file bug')`,
      );
      obj.sql.run(
        `INSERT INTO trove_activations VALUES ('gh.open_issue', '', 'session', 'search', NULL, 1, NULL)`,
      );
      const skillColumns =
        "qid, name, pack, title, description, trigger, task_type, tags, origin, scope, record, content_hash, f_name, f_title, f_tags, f_trigger, f_description, f_body";
      obj.sql.run(
        `INSERT INTO trove_skills (${skillColumns}) VALUES ('p/triage', 'triage', 'p', 'Triage', 'd', 't', NULL, '[]',
           'penguiflow', 'global', '{}', 'c1', 'triag', 'triag', '', 't', 'd', 'b')`,
      );
      obj.sql.run(
        `INSERT INTO trove_skills_fts (rowid, f_name, f_title, f_tags, f_trigger, f_description, f_body)
         SELECT id, f_name, f_title, f_tags, f_trigger, f_description, f_body FROM trove_skills`,
      );

      expect(migrate(obj.sql, (fn) => state.storage.transactionSync(fn))).toBe(MIGRATIONS.at(-1)?.version);
      integrityCheck(obj);
      obj.sql.run(`INSERT INTO trove_skills_fts(trove_skills_fts, rank) VALUES('integrity-check', 1)`);
      const hit = (table: string, term: string) =>
        obj.sql.all<{ rowid: number }>(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`, `"${term}"`)
          .length;
      expect(hit("trove_tools_fts", "issu")).toBe(1);
      // Learned text of that time held whole queries: migration 9 drops it (issue 27), and the index with it.
      expect(hit("trove_tools_fts", "bug")).toBe(0);
      expect(obj.sql.one(`SELECT f_learned FROM trove_tools`)).toEqual({ f_learned: "" });
      expect(hit("trove_skills_fts", "triag")).toBe(1);
      expect(obj.sql.one(`SELECT tool_name FROM trove_activations`)).toEqual({ tool_name: "gh.open_issue" });
      obj.catalog.invalidate();
      expect(obj.catalog.find("gh_open_issue")?.name).toBe("gh.open_issue");
      // The activation outlives nothing it named: removing the tool removes it, as the foreign key did.
      state.storage.transactionSync(() => obj.catalog.sync([], "replace", visibilityFor(DEFAULT_CONFIG)));
      expect(obj.sql.one(`SELECT count(*) AS n FROM trove_activations`)).toEqual({ n: 0 });
    });
  });

  it("rebuilds both indexes so that a combining mark stays in its word (version 16)", async () => {
    const sid = newSid();
    await inObject(sid, async (obj, state) => {
      await schemaAt(obj, state, 15);
      // The indexes as stores created before version 16 hold them: their tokenizer split a word at
      // its combining marks. A Thai tool indexed so: its vowel and tone signs split "สร้าง" (create).
      for (const [index, columns] of [
        ["trove_tools", TOOL_FTS_COLUMNS],
        ["trove_skills", SKILL_FTS_COLUMNS],
      ]) {
        if (index === "trove_tools") obj.sql.run(`DROP TABLE trove_tools_vocab_col`);
        obj.sql.run(`DROP TABLE ${index}_vocab`);
        obj.sql.run(`DROP TABLE ${index}_fts`);
        obj.sql.run(
          `CREATE VIRTUAL TABLE ${index}_fts USING fts5(${columns},
            content='${index}_searchable', content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
        );
        obj.sql.run(`CREATE VIRTUAL TABLE ${index}_vocab USING fts5vocab(${index}_fts, 'row')`);
      }
      obj.sql.run(`CREATE VIRTUAL TABLE trove_tools_vocab_col USING fts5vocab(trove_tools_fts, 'col')`);
      const tools = [{ name: "thai.create_bill", description: "สร้างใบแจ้งหนี้ใหม่" }];
      state.storage.transactionSync(() =>
        obj.catalog.sync(CatalogSyncInput.parse({ tools }).tools, "replace", visibilityFor(DEFAULT_CONFIG)),
      );
      const vocabulary = () =>
        obj.sql.all<{ term: string }>(`SELECT term FROM trove_tools_vocab ORDER BY term`).map((r) => r.term);
      expect(vocabulary()).not.toContain("สร้าง");
      expect(vocabulary()).toContain("สร");

      expect(migrate(obj.sql, (fn) => state.storage.transactionSync(fn))).toBe(MIGRATIONS.at(-1)?.version);
      integrityCheck(obj);
      obj.sql.run(`INSERT INTO trove_skills_fts(trove_skills_fts, rank) VALUES('integrity-check', 1)`);
      expect(vocabulary()).toContain("สร้าง");
      expect(vocabulary()).not.toContain("สร");
      const tokenizers = obj.sql
        .all<{ sql: string }>(
          `SELECT sql FROM sqlite_master WHERE name IN ('trove_tools_fts', 'trove_skills_fts')`,
        )
        .map((r) => r.sql);
      expect(tokenizers).toHaveLength(2);
      for (const sql of tokenizers) expect(sql).toContain("categories 'L* N* Co M*'");
      obj.catalog.invalidate();
      expect(obj.catalog.find("thai.create_bill")?.name).toBe("thai.create_bill");
    });
  });

  it("writes nothing for version 16 in a store whose indexes were created as it wants them", async () => {
    const sid = newSid();
    await inObject(sid, async (obj, state) => {
      await schemaAt(obj, state, 15);
      const before = obj.sql.stats.rowsWritten;
      expect(migrate(obj.sql, (fn) => state.storage.transactionSync(fn))).toBe(16);
      // Its trove_schema row alone: no index is dropped or rebuilt.
      expect(obj.sql.stats.rowsWritten - before).toBe(1);
      integrityCheck(obj);
    });
  });

  it("recreates the schema once after an erase", async () => {
    const sid = newSid();
    await sync(sid, catalog(3));
    await call("DELETE", `/v1/sessions/${sid}`);
    await sync(sid, catalog(2));
    await inObject(sid, (obj) => {
      expect(obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_schema`)?.n).toBe(MIGRATIONS.length);
      expect(obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_tools`)?.n).toBe(2);
      integrityCheck(obj);
    });
  });
});
