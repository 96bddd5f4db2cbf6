// Numbered, append-only schema steps for a session's SQLite, applied at object start.
// `PRAGMA user_version` is refused in Durable Objects, so the applied version lives in trove_schema.
// The full-text indexes are created as search-indexes.ts describes them now, in whichever step
// creates them; a step that changes how they are made rebuilds older ones under a `when`.
import { indexesKeepMarks, SKILL_FTS_COLUMNS, skillIndex, toolIndex } from "./search-indexes";
import type { Sql } from "./sql";
import { TOOL_FTS_COLUMNS, TOOL_FTS_COLUMNS_V1, TOOL_ROW_COLUMNS_V8 } from "./tool-columns";

interface Migration {
  version: number;
  name: string;
  statements: string[];
  /** Whether the statements are needed here; the version is recorded either way. */
  when?: (sql: Sql) => boolean;
}

const COLUMN_TYPES: Record<string, string> = {
  loading_mode: "TEXT",
  provider_name: "TEXT",
  allowed: "INTEGER NOT NULL",
  f_learned: "TEXT NOT NULL DEFAULT ''",
};

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "tool catalog with FTS5 index",
    statements: [
      `CREATE TABLE trove_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
      `CREATE TABLE trove_tools (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
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
        f_examples TEXT NOT NULL
      )`,
      `CREATE INDEX trove_tools_name_nocase ON trove_tools (name COLLATE NOCASE)`,
      `CREATE INDEX trove_tools_qualified_nocase ON trove_tools (qualified_name COLLATE NOCASE)`,
      `CREATE INDEX trove_tools_local_nocase ON trove_tools (local_name COLLATE NOCASE)`,
      `CREATE INDEX trove_tools_visibility ON trove_tools (allowed, effective_mode)`,
      ...toolIndex(TOOL_FTS_COLUMNS_V1),
    ],
  },
  {
    version: 2,
    name: "provider names, activations, approvals, events",
    statements: [
      // A name every provider accepts (see src/tools/provider-names.ts); NULL until computed.
      `ALTER TABLE trove_tools ADD COLUMN provider_name TEXT`,
      `CREATE UNIQUE INDEX trove_tools_provider_name ON trove_tools (provider_name)`,
      // run_id '' is a session-scoped activation; removing a tool removes its activations.
      `CREATE TABLE trove_activations (
        tool_name TEXT NOT NULL REFERENCES trove_tools (name) ON DELETE CASCADE,
        run_id TEXT NOT NULL,
        scope TEXT NOT NULL,
        source TEXT NOT NULL,
        reason TEXT,
        at INTEGER NOT NULL,
        expires_at INTEGER,
        PRIMARY KEY (tool_name, run_id)
      )`,
      `CREATE INDEX trove_activations_expiry ON trove_activations (expires_at) WHERE expires_at IS NOT NULL`,
      `CREATE TABLE trove_approvals (
        id TEXT PRIMARY KEY,
        tool_name TEXT NOT NULL,
        args TEXT,
        run_id TEXT,
        status TEXT NOT NULL,
        requested_at INTEGER NOT NULL,
        decided_at INTEGER,
        decided_by TEXT,
        note TEXT
      )`,
      `CREATE INDEX trove_approvals_pending ON trove_approvals (status, requested_at)`,
      // No AUTOINCREMENT (it writes sqlite_sequence on every insert): only the oldest events are
      // ever deleted, so ids never repeat.
      `CREATE TABLE trove_events (
        id INTEGER PRIMARY KEY,
        type TEXT NOT NULL,
        at INTEGER NOT NULL,
        data TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 3,
    name: "skill store with FTS5 index",
    statements: [
      `CREATE TABLE trove_skills (
        id INTEGER PRIMARY KEY,
        qid TEXT NOT NULL UNIQUE,
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
        ${SKILL_FTS_COLUMNS.split(", ")
          .map((c) => `${c} TEXT NOT NULL`)
          .join(",\n        ")}
      )`,
      // Every index is written for every bundled skill of every new session: keep only what lookups need.
      `CREATE INDEX trove_skills_name ON trove_skills (name COLLATE NOCASE)`,
      ...skillIndex(),
    ],
  },
  {
    version: 4,
    name: "skill loads for reload suppression",
    statements: [
      // The version (content_hash) of each skill whose body this session was last sent by skill_load.
      `CREATE TABLE trove_skill_loads (
        qid TEXT PRIMARY KEY,
        content_hash TEXT NOT NULL,
        at INTEGER NOT NULL
      )`,
    ],
  },
  {
    version: 5,
    name: "skills indexed in bulk by their loader",
    // A per-row FTS insert costs more than the row itself; insertSkills indexes new rows in one statement.
    statements: [`DROP TRIGGER trove_skills_fts_insert`],
  },
  {
    version: 6,
    name: "tools brought by packs and skills; attached packs; enabled skills",
    statements: [
      // Who put a tool in the catalog: 'agent' (catalog_sync), 'pack:<pack>' or 'skill:<qid>'.
      `ALTER TABLE trove_tools ADD COLUMN source TEXT NOT NULL DEFAULT 'agent'`,
      // The Active Pack Set (Capability Packs spec §5.1); tools_enabled_at once pack_enable_tools ran.
      `CREATE TABLE trove_packs (
        pack TEXT PRIMARY KEY,
        attached_at INTEGER NOT NULL,
        tools_enabled_at INTEGER
      )`,
      // Skills enabled with skill_enable (Nova ADR-014 §6): sticky until skill_disable.
      `CREATE TABLE trove_enabled_skills (
        qid TEXT PRIMARY KEY,
        enabled_at INTEGER NOT NULL
      )`,
    ],
  },
  {
    version: 7,
    name: "learned text in the tools' index; namespaces the session worked in",
    statements: [
      `ALTER TABLE trove_tools ADD COLUMN f_learned TEXT NOT NULL DEFAULT ''`,
      `DROP TRIGGER trove_tools_fts_insert`,
      `DROP TRIGGER trove_tools_fts_delete`,
      `DROP TRIGGER trove_tools_fts_update`,
      `DROP TABLE trove_tools_vocab`,
      `DROP TABLE trove_tools_fts`,
      `DROP VIEW trove_tools_searchable`,
      ...toolIndex(TOOL_FTS_COLUMNS),
      `INSERT INTO trove_tools_fts (trove_tools_fts) VALUES ('rebuild')`,
      // Namespaces of the tools this session activated or used: they win among comparable matches.
      `CREATE TABLE trove_namespaces_used (namespace TEXT PRIMARY KEY, at INTEGER NOT NULL)`,
      // (query, tool) pairs the tenant's learning store has not acknowledged yet (src/learning/).
      `CREATE TABLE trove_learning_outbox (
        id INTEGER PRIMARY KEY,
        query TEXT NOT NULL,
        tool TEXT NOT NULL,
        at INTEGER NOT NULL
      )`,
    ],
  },
  {
    version: 8,
    name: "slim storage: no index on trove_tools or trove_skills but their rowids",
    // Every index is one more row written per tool in every new session (PLATFORM.md: index rows
    // are billed). The catalog store finds tools by name in memory and reads rows by id, so the
    // table keeps only its rowid: a new tool writes its row and its FTS document size, nothing else.
    statements: [
      // Activations no longer name their tool through a foreign key (that needs a unique index on
      // trove_tools.name); the catalog store deletes a removed tool's activations itself.
      `CREATE TABLE trove_activations_v8 (
        tool_name TEXT NOT NULL,
        run_id TEXT NOT NULL,
        scope TEXT NOT NULL,
        source TEXT NOT NULL,
        reason TEXT,
        at INTEGER NOT NULL,
        expires_at INTEGER,
        PRIMARY KEY (tool_name, run_id)
      )`,
      `INSERT INTO trove_activations_v8 SELECT tool_name, run_id, scope, source, reason, at, expires_at
        FROM trove_activations`,
      `DROP TABLE trove_activations`,
      `ALTER TABLE trove_activations_v8 RENAME TO trove_activations`,
      `CREATE INDEX trove_activations_expiry ON trove_activations (expires_at) WHERE expires_at IS NOT NULL`,
      `DROP TRIGGER trove_tools_fts_insert`,
      `DROP TRIGGER trove_tools_fts_delete`,
      `DROP TRIGGER trove_tools_fts_update`,
      `DROP TABLE trove_tools_vocab`,
      `DROP TABLE trove_tools_fts`,
      `DROP VIEW trove_tools_searchable`,
      `CREATE TABLE trove_tools_v8 (
        id INTEGER PRIMARY KEY,
        ${TOOL_ROW_COLUMNS_V8.map((c) => `${c} ${COLUMN_TYPES[c] ?? "TEXT NOT NULL"}`).join(",\n        ")}
      )`,
      `INSERT INTO trove_tools_v8 (id, ${TOOL_ROW_COLUMNS_V8.join(", ")})
        SELECT id, ${TOOL_ROW_COLUMNS_V8.join(", ")} FROM trove_tools`,
      `DROP TABLE trove_tools`,
      `ALTER TABLE trove_tools_v8 RENAME TO trove_tools`,
      ...toolIndex(TOOL_FTS_COLUMNS),
      // As for skills (version 5): new rows are indexed in one statement by the catalog store.
      `DROP TRIGGER trove_tools_fts_insert`,
      `INSERT INTO trove_tools_fts (trove_tools_fts) VALUES ('rebuild')`,
      // The same for skills: the qualified id and the name are found in memory (SkillStore).
      `DROP TRIGGER trove_skills_fts_delete`,
      `DROP TRIGGER trove_skills_fts_update`,
      `DROP TABLE trove_skills_vocab`,
      `DROP TABLE trove_skills_fts`,
      `DROP VIEW trove_skills_searchable`,
      `CREATE TABLE trove_skills_v8 (
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
        ${SKILL_FTS_COLUMNS.split(", ")
          .map((c) => `${c} TEXT NOT NULL`)
          .join(",\n        ")}
      )`,
      `INSERT INTO trove_skills_v8 SELECT * FROM trove_skills`,
      `DROP TABLE trove_skills`,
      `ALTER TABLE trove_skills_v8 RENAME TO trove_skills`,
      ...skillIndex().filter((statement) => !statement.includes("trove_skills_fts_insert")),
      `INSERT INTO trove_skills_fts (trove_skills_fts) VALUES ('rebuild')`,
    ],
  },
  {
    version: 9,
    name: "learning keeps words, not queries; per-column term counts of the tools' index",
    statements: [
      // Which fields hold a term: a learned word another tool's own text uses needs more support
      // (src/learning/session-learning.ts). A virtual table over the index: it stores nothing.
      `CREATE VIRTUAL TABLE trove_tools_vocab_col USING fts5vocab(trove_tools_fts, 'col')`,
      // Learned text of the first version held whole queries: gone; the next search fetches words.
      `UPDATE trove_tools SET f_learned = '' WHERE f_learned != ''`,
      // Uses the tenant's learning object has not acknowledged yet, as the terms they teach (issue
      // 27): queued raw queries are dropped, never sent.
      `DROP TABLE trove_learning_outbox`,
      `CREATE TABLE trove_learning_outbox (
        id INTEGER PRIMARY KEY,
        use TEXT NOT NULL
      )`,
    ],
  },
  {
    version: 10,
    name: "learned skills: lessons and feedback to send, the record of lessons held",
    statements: [
      // Lessons and feedback the tenant's learned-skills object has not acknowledged (issue 31),
      // depersonalized before they were queued.
      `CREATE TABLE trove_lesson_outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL
      )`,
      // What ranks a learned skill held in trove_skills (qualified id learned/<name>): its record and age.
      `CREATE TABLE trove_learned (
        qid TEXT PRIMARY KEY,
        task_type TEXT NOT NULL,
        helpful INTEGER NOT NULL,
        harmful INTEGER NOT NULL,
        confirmed_at INTEGER NOT NULL
      ) WITHOUT ROWID`,
    ],
  },
  {
    version: 11,
    name: "operations a tool offers through a parameter",
    statements: [
      // Filled from each record when the session re-normalizes its index text on start
      // (src/session/index-text.ts: the text version moved with this column). Not indexed: search
      // reads it for the candidates FTS5 already found (src/tools/tool-search.ts).
      `ALTER TABLE trove_tools ADD COLUMN f_offers TEXT NOT NULL DEFAULT ''`,
    ],
  },
  {
    version: 12,
    name: "learned words a tool may use only where the request already fits it",
    statements: [
      // Not indexed: search reads it for the candidates FTS5 found (fts-pipeline's contenders).
      // The session's next learning refresh fills it.
      `ALTER TABLE trove_tools ADD COLUMN f_learned_near TEXT NOT NULL DEFAULT ''`,
    ],
  },
  {
    version: 13,
    name: "what a tool returns",
    statements: [
      // Filled from each record when the session re-normalizes its index text on start
      // (src/session/index-text.ts: the text version moved with this column). Not indexed: search
      // reads it for the candidates FTS5 already found (src/tools/tool-search.ts).
      `ALTER TABLE trove_tools ADD COLUMN f_returns TEXT NOT NULL DEFAULT ''`,
    ],
  },
  {
    version: 14,
    name: "learned words a tool says itself, which order it among the tools a request fits",
    statements: [
      // Not indexed: search reads it for the candidates FTS5 found (fts-pipeline's contenders).
      // The session's next learning refresh fills it.
      `ALTER TABLE trove_tools ADD COLUMN f_learned_own TEXT NOT NULL DEFAULT ''`,
    ],
  },
  {
    version: 15,
    name: "the tools that hold learned words short of their threshold",
    statements: [
      // Partial: a tool enters it only when learning gives it such words, so syncing a catalog
      // writes no index row. Search counts those words' documents through it
      // (CatalogStats.unindexedFrequencies).
      `CREATE INDEX trove_tools_learned_near ON trove_tools (id) WHERE f_learned_near != ''`,
    ],
  },
  {
    version: 16,
    name: "full-text indexes keep combining marks inside words",
    // Both indexes are rebuilt with the tokenizer every migration now creates them with
    // (search-indexes.ts TOKENIZER); a store created since has it already and writes nothing here.
    // The index text of the rows is written anew at the same start (src/session/index-text.ts: the
    // text version moved with the words of scripts written without spaces), and the triggers carry
    // it into the new indexes.
    when: (sql) => !indexesKeepMarks(sql),
    statements: [
      `DROP TABLE trove_tools_vocab_col`,
      `DROP TABLE trove_tools_vocab`,
      `DROP TRIGGER trove_tools_fts_delete`,
      `DROP TRIGGER trove_tools_fts_update`,
      `DROP TABLE trove_tools_fts`,
      `DROP VIEW trove_tools_searchable`,
      ...toolIndex(TOOL_FTS_COLUMNS).filter((statement) => !statement.includes("trove_tools_fts_insert")),
      `CREATE VIRTUAL TABLE trove_tools_vocab_col USING fts5vocab(trove_tools_fts, 'col')`,
      `INSERT INTO trove_tools_fts (trove_tools_fts) VALUES ('rebuild')`,
      `DROP TRIGGER trove_skills_fts_delete`,
      `DROP TRIGGER trove_skills_fts_update`,
      `DROP TABLE trove_skills_vocab`,
      `DROP TABLE trove_skills_fts`,
      `DROP VIEW trove_skills_searchable`,
      ...skillIndex().filter((statement) => !statement.includes("trove_skills_fts_insert")),
      `INSERT INTO trove_skills_fts (trove_skills_fts) VALUES ('rebuild')`,
    ],
  },
];

/** Applies every migration newer than the stored version, each in its own transaction step. */
export function migrate(sql: Sql, transaction: <T>(fn: () => T) => T): number {
  sql.run(
    `CREATE TABLE IF NOT EXISTS trove_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`,
  );
  const current = sql.one<{ v: number | null }>(`SELECT max(version) AS v FROM trove_schema`)?.v ?? 0;
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    transaction(() => {
      if (m.when?.(sql) ?? true) for (const statement of m.statements) sql.run(statement);
      sql.run(
        `INSERT INTO trove_schema (version, name, applied_at) VALUES (?, ?, ?)`,
        m.version,
        m.name,
        Date.now(),
      );
    });
  }
  return MIGRATIONS.at(-1)?.version ?? 0;
}
