// A tenant's upstream MCP servers as its UpstreamObject keeps them: where each is, its sealed
// headers, the tools last imported (as the upstream described them), the changes seen after import
// (rug pulls) and the tenant's gateway profile. Plain module over the object's SQLite.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Sql } from "../db/sql";
import type { ToolRecordInput } from "../tools/tool-record";
import { type GatewayProfile, GatewayProfileInput } from "./profile";
import { recordOf, toolFingerprint } from "./upstream-tools";

const SCHEMA = [
  // One row per upstream. `headers` is sealed (secrets.ts), never returned.
  `CREATE TABLE IF NOT EXISTS up_upstreams (
    name TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    namespace TEXT NOT NULL,
    headers TEXT,
    timeout_ms INTEGER NOT NULL,
    status TEXT NOT NULL,
    tools INTEGER NOT NULL,
    skipped INTEGER NOT NULL,
    last_import TEXT,
    last_error TEXT,
    updated_at TEXT NOT NULL,
    watch INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID`,
  // The accepted definition of each tool, and a changed one waiting for acceptance (review mode).
  `CREATE TABLE IF NOT EXISTS up_tools (
    upstream TEXT NOT NULL,
    tool TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    definition TEXT NOT NULL,
    pending TEXT,
    PRIMARY KEY (upstream, tool)
  ) WITHOUT ROWID`,
  // What changed after import, with before and after (the upstream's own JSON).
  `CREATE TABLE IF NOT EXISTS up_changes (
    id INTEGER PRIMARY KEY,
    upstream TEXT NOT NULL,
    tool TEXT NOT NULL,
    at TEXT NOT NULL,
    before TEXT NOT NULL,
    after TEXT NOT NULL,
    status TEXT NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS up_changes_by_upstream ON up_changes (upstream, id)`,
  `CREATE TABLE IF NOT EXISTS up_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
];

export interface UpstreamRow {
  name: string;
  url: string;
  namespace: string;
  headers: string | null;
  timeout_ms: number;
  status: string;
  tools: number;
  skipped: number;
  last_import: string | null;
  last_error: string | null;
  updated_at: string;
  /** 1: keep the upstream's standalone stream open for its list_changed (upstream-object.ts). */
  watch: number;
}

export interface ToolChange {
  id: number;
  tool: string;
  at: string;
  before: Tool;
  after: Tool;
  status: "pending" | "accepted";
}

/** What GET answers about an upstream: never its headers. */
export interface UpstreamView {
  name: string;
  url: string;
  namespace: string;
  has_headers: boolean;
  timeout_ms: number;
  status: "ok" | "error" | "pending";
  tools: number;
  skipped: number;
  last_import: string | null;
  last_error: string | null;
  /** Whether Trove listens for the upstream's list_changed between requests (asked with PUT). */
  watch: boolean;
  /** Whether that stream is open now (the tenant's object fills it in). */
  watching: boolean;
  changes: ToolChange[];
}

/** How many changes GET lists (the newest). */
const CHANGES_LISTED = 50;

export class UpstreamStore {
  constructor(private readonly sql: Sql) {
    for (const statement of SCHEMA) this.sql.run(statement);
    // Objects made before upstreams could be watched.
    const columns = this.sql.all<{ name: string }>(`SELECT name FROM pragma_table_info('up_upstreams')`);
    if (!columns.some((c) => c.name === "watch")) {
      this.sql.run(`ALTER TABLE up_upstreams ADD COLUMN watch INTEGER NOT NULL DEFAULT 0`);
    }
  }

  meta(key: string): string | null {
    return this.sql.one<{ value: string }>(`SELECT value FROM up_meta WHERE key = ?`, key)?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.sql.run(
      `INSERT INTO up_meta (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value <> excluded.value`,
      key,
      value,
    );
  }

  profile(): GatewayProfile {
    const raw = this.meta("profile");
    return GatewayProfileInput.parse(raw ? JSON.parse(raw) : {});
  }

  setProfile(profile: GatewayProfile): void {
    this.setMeta("profile", JSON.stringify(profile));
  }

  get(name: string): UpstreamRow | null {
    return this.sql.one<UpstreamRow>(`SELECT * FROM up_upstreams WHERE name = ?`, name) ?? null;
  }

  names(): string[] {
    return this.sql.all<{ name: string }>(`SELECT name FROM up_upstreams ORDER BY name`).map((r) => r.name);
  }

  put(row: Omit<UpstreamRow, "status" | "tools" | "skipped" | "last_import" | "last_error">): void {
    this.sql.run(
      `INSERT INTO up_upstreams (name, url, namespace, headers, timeout_ms, status, tools, skipped, updated_at, watch)
       VALUES (?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?)
       ON CONFLICT (name) DO UPDATE SET url = excluded.url, namespace = excluded.namespace,
         headers = excluded.headers, timeout_ms = excluded.timeout_ms, updated_at = excluded.updated_at,
         watch = excluded.watch`,
      row.name,
      row.url,
      row.namespace,
      row.headers,
      row.timeout_ms,
      row.updated_at,
      row.watch,
    );
  }

  remove(name: string): boolean {
    const existed = this.get(name) !== null;
    this.sql.run(`DELETE FROM up_upstreams WHERE name = ?`, name);
    this.sql.run(`DELETE FROM up_tools WHERE upstream = ?`, name);
    this.sql.run(`DELETE FROM up_changes WHERE upstream = ?`, name);
    return existed;
  }

  failed(name: string, reason: string, now: string): void {
    this.sql.run(
      `UPDATE up_upstreams SET status = 'error', last_error = ?, updated_at = ? WHERE name = ?`,
      reason,
      now,
      name,
    );
  }

  /**
   * Takes a fresh tools/list. A tool first seen is accepted as it is; one whose description,
   * schemas or hints changed since is recorded as a change with before and after, and accepted at
   * once unless `review` holds it back until acceptChanges; a tool gone is dropped.
   */
  applyImport(name: string, tools: Tool[], review: boolean, now: string): { changed: number } {
    const held = new Map(
      this.sql
        .all<{ tool: string; fingerprint: string; definition: string; pending: string | null }>(
          `SELECT tool, fingerprint, definition, pending FROM up_tools WHERE upstream = ?`,
          name,
        )
        .map((r) => [r.tool, r]),
    );
    let changed = 0;
    const seen = new Set<string>();
    for (const tool of tools) {
      if (seen.has(tool.name)) continue;
      seen.add(tool.name);
      const fingerprint = toolFingerprint(tool);
      const definition = JSON.stringify(tool);
      const row = held.get(tool.name);
      if (!row) {
        this.sql.run(
          `INSERT INTO up_tools (upstream, tool, fingerprint, definition, pending) VALUES (?, ?, ?, ?, NULL)`,
          name,
          tool.name,
          fingerprint,
          definition,
        );
        continue;
      }
      if (row.fingerprint === fingerprint) {
        // Changed back to what was accepted: nothing waits any more.
        if (row.pending !== null) {
          this.sql.run(`UPDATE up_tools SET pending = NULL WHERE upstream = ? AND tool = ?`, name, tool.name);
          this.sql.run(
            `DELETE FROM up_changes WHERE upstream = ? AND tool = ? AND status = 'pending'`,
            name,
            tool.name,
          );
        }
        continue;
      }
      if (row.pending !== null && toolFingerprint(JSON.parse(row.pending) as Tool) === fingerprint) continue;
      changed++;
      this.sql.run(
        `DELETE FROM up_changes WHERE upstream = ? AND tool = ? AND status = 'pending'`,
        name,
        tool.name,
      );
      this.sql.run(
        `INSERT INTO up_changes (upstream, tool, at, before, after, status) VALUES (?, ?, ?, ?, ?, ?)`,
        name,
        tool.name,
        now,
        row.definition,
        definition,
        review ? "pending" : "accepted",
      );
      if (review) {
        this.sql.run(
          `UPDATE up_tools SET pending = ? WHERE upstream = ? AND tool = ?`,
          definition,
          name,
          tool.name,
        );
      } else {
        this.sql.run(
          `UPDATE up_tools SET fingerprint = ?, definition = ?, pending = NULL WHERE upstream = ? AND tool = ?`,
          fingerprint,
          definition,
          name,
          tool.name,
        );
      }
    }
    for (const tool of held.keys()) {
      if (!seen.has(tool)) this.sql.run(`DELETE FROM up_tools WHERE upstream = ? AND tool = ?`, name, tool);
    }
    const upstream = this.get(name);
    const records = upstream ? this.records([name]) : [];
    this.sql.run(
      `UPDATE up_upstreams SET status = 'ok', tools = ?, skipped = ?, last_import = ?, last_error = NULL,
         updated_at = ? WHERE name = ?`,
      records.length,
      seen.size - records.length - this.pendingCount(name),
      now,
      now,
      name,
    );
    return { changed };
  }

  private pendingCount(name: string): number {
    return (
      this.sql.one<{ n: number }>(
        `SELECT count(*) AS n FROM up_tools WHERE upstream = ? AND pending IS NOT NULL`,
        name,
      )?.n ?? 0
    );
  }

  /** Accepts the pending changes of `tools` (all of them when null); returns how many. */
  acceptChanges(name: string, tools: string[] | null, now: string): number {
    const pending = this.sql
      .all<{ tool: string; pending: string }>(
        `SELECT tool, pending FROM up_tools WHERE upstream = ? AND pending IS NOT NULL ORDER BY tool`,
        name,
      )
      .filter((r) => tools === null || tools.includes(r.tool));
    for (const row of pending) {
      const tool = JSON.parse(row.pending) as Tool;
      this.sql.run(
        `UPDATE up_tools SET fingerprint = ?, definition = ?, pending = NULL WHERE upstream = ? AND tool = ?`,
        toolFingerprint(tool),
        row.pending,
        name,
        row.tool,
      );
      this.sql.run(
        `UPDATE up_changes SET status = 'accepted', at = ? WHERE upstream = ? AND tool = ? AND status = 'pending'`,
        now,
        name,
        row.tool,
      );
    }
    if (pending.length > 0) {
      this.sql.run(`UPDATE up_upstreams SET tools = ? WHERE name = ?`, this.records([name]).length, name);
    }
    return pending.length;
  }

  /**
   * The catalog records the upstreams serve: accepted tools with nothing pending (a changed tool
   * in review is withheld, not served as it was: the upstream would run its new version).
   */
  records(upstreams: string[]): ToolRecordInput[] {
    const out: ToolRecordInput[] = [];
    for (const name of upstreams) {
      const upstream = this.get(name);
      if (!upstream) continue;
      const rows = this.sql.all<{ definition: string }>(
        `SELECT definition FROM up_tools WHERE upstream = ? AND pending IS NULL ORDER BY tool`,
        name,
      );
      for (const row of rows) {
        const record = recordOf(name, upstream.namespace, JSON.parse(row.definition) as Tool);
        if (record) out.push(record);
      }
    }
    return out;
  }

  view(name: string): UpstreamView | null {
    const row = this.get(name);
    if (!row) return null;
    const changes = this.sql
      .all<{ id: number; tool: string; at: string; before: string; after: string; status: string }>(
        `SELECT id, tool, at, before, after, status FROM up_changes WHERE upstream = ? ORDER BY id DESC LIMIT ?`,
        name,
        CHANGES_LISTED,
      )
      .map((c) => ({
        id: c.id,
        tool: c.tool,
        at: c.at,
        before: JSON.parse(c.before) as Tool,
        after: JSON.parse(c.after) as Tool,
        status: c.status as ToolChange["status"],
      }));
    return {
      name: row.name,
      url: row.url,
      namespace: row.namespace,
      has_headers: row.headers !== null,
      timeout_ms: row.timeout_ms,
      status: row.status as UpstreamView["status"],
      tools: row.tools,
      skipped: row.skipped,
      last_import: row.last_import,
      last_error: row.last_error,
      watch: row.watch === 1,
      watching: false,
      changes,
    };
  }
}
