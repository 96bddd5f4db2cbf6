// A published catalog as its own object keeps it (src/catalog-object.ts): every record normalized
// and hashed as a session would store it, the version that last changed each one, and tombstones
// for removed tools, so that a session asks only for what changed since the version it holds.
import type { Sql } from "../db/sql";
import { TroveError } from "../errors";
import { indexTextVersion } from "../search/text";
import { assertNotReserved } from "../tools/catalog-naming";
import type { PublishedRecord, RecordRow } from "../tools/catalog-rows";
import { recordRow } from "../tools/catalog-rows";
import { fingerprintOf, type SyncResult } from "../tools/catalog-store";
import { toolSearchFields } from "../tools/tool-index";
import {
  hashTool,
  MAX_TOOLS,
  type NormalizedTool,
  normalizeTool,
  type ToolRecordInput,
} from "../tools/tool-record";

const SCHEMA = [
  // One row per tool ever published under this name, holding the tool's session row as JSON
  // (src/tools/catalog-rows.ts recordRow: computed once here, not in every session). A removed
  // tool keeps its row as a tombstone (removed = 1, no row) so that sessions learn of the removal. No secondary index: a catalog
  // holds at most MAX_TOOLS rows, and a publish writes one row per changed tool.
  `CREATE TABLE IF NOT EXISTS pub_tools (
    name TEXT PRIMARY KEY,
    row TEXT NOT NULL,
    hash TEXT NOT NULL,
    version INTEGER NOT NULL,
    removed INTEGER NOT NULL
  ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS pub_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
];

/** What the catalog's object says about itself. */
export interface PublishedInfo {
  name: string;
  /** Increases with every publish that changed a tool. */
  version: number;
  fingerprint: string;
  tools: number;
  namespaces: number;
  published_at: string;
}

export interface PublishResult extends SyncResult {
  version: number;
}

/** What changed since a session's version (all of it when `full`). */
export type PublishedChanges =
  | { status: "missing" }
  | {
      status: "ok";
      /** Changes when the catalog is deleted and published again: a session then takes it whole. */
      epoch: string;
      version: number;
      fingerprint: string;
      full: boolean;
      tools: PublishedRecord[];
      removed: string[];
      /** Set when the answer stopped at PAGE_BYTES: ask again with `after` = this name. */
      next: string | null;
    };

/** A page of changes stays under this many bytes of rows (RPC messages are bounded). */
export const PAGE_BYTES = 4_000_000;

interface Meta {
  name: string;
  epoch: string;
  version: number;
  fingerprint: string;
  published_at: string;
}

export class PublishedStore {
  #initialized = false;

  constructor(private readonly sql: Sql) {}

  private init(): void {
    if (this.#initialized) return;
    for (const statement of SCHEMA) this.sql.run(statement);
    this.renormalize();
    this.#initialized = true;
  }

  /**
   * Rows computed under another text normalization (an earlier deploy) get their search fields
   * recomputed from their records, so that sessions taking them index what queries now become.
   * The catalog's version does not move: the records did not change, and a session re-normalizes
   * the rows it already holds itself (src/session/index-text.ts).
   */
  private renormalize(): void {
    const current = indexTextVersion();
    const stored = this.sql.one<{ value: string }>(
      `SELECT value FROM pub_meta WHERE key = 'index_text'`,
    )?.value;
    if (stored === current) return;
    const rows = this.sql.all<{ name: string; row: string }>(
      `SELECT name, row FROM pub_tools WHERE removed = 0`,
    );
    for (const { name, row } of rows) {
      const held = JSON.parse(row) as RecordRow;
      const next = JSON.stringify({
        ...held,
        ...toolSearchFields(JSON.parse(held.record) as NormalizedTool),
      });
      if (next !== row) this.sql.run(`UPDATE pub_tools SET row = ? WHERE name = ?`, next, name);
    }
    this.sql.run(
      `INSERT INTO pub_meta (key, value) VALUES ('index_text', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      current,
    );
  }

  /**
   * The catalog's meta, null when none was published. A read of a catalog never published (or
   * deleted) writes nothing: the tables are created by a publish only, so a GET, a DELETE or a
   * session's check of a missing catalog leaves no object behind (issue 28).
   */
  private meta(): Meta | null {
    if (!this.#initialized) {
      const exists = this.sql.one(
        `SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'pub_meta'`,
      );
      if (!exists) return null;
    }
    this.init();
    const row = this.sql.one<{ value: string }>(`SELECT value FROM pub_meta WHERE key = 'meta'`);
    return row ? (JSON.parse(row.value) as Meta) : null;
  }

  /**
   * catalog_sync's semantics for a published catalog: only new or changed records are written,
   * `replace` removes absent tools, nothing is written when the result would exceed MAX_TOOLS.
   */
  publish(
    name: string,
    inputs: readonly ToolRecordInput[],
    mode: "replace" | "merge",
    reserved: readonly string[],
    now: number,
  ): PublishResult {
    assertNotReserved(inputs, reserved);
    try {
      this.init();
      return this.write(name, inputs, mode, now);
    } catch (err) {
      // The caller's transaction rolls back, tables created by this publish included.
      this.#initialized = false;
      throw err;
    }
  }

  private write(
    name: string,
    inputs: readonly ToolRecordInput[],
    mode: "replace" | "merge",
    now: number,
  ): PublishResult {
    const meta = this.meta();
    const held = new Map(
      this.sql
        .all<{ name: string; hash: string }>(`SELECT name, hash FROM pub_tools WHERE removed = 0`)
        .map((r) => [r.name, r.hash]),
    );
    const next = mode === "replace" ? new Map<string, string>() : new Map(held);
    const changed: { name: string; row: string; hash: string }[] = [];
    let added = 0;
    let updated = 0;
    for (const input of inputs) {
      const tool = normalizeTool(input);
      const { json, hash } = hashTool(tool);
      next.set(input.name, hash);
      const previous = held.get(input.name);
      if (previous === hash) continue;
      if (previous === undefined) added++;
      else updated++;
      changed.push({ name: input.name, row: JSON.stringify(recordRow(tool, json, hash)), hash });
    }
    const removed = mode === "replace" ? [...held.keys()].filter((n) => !next.has(n)) : [];
    if (next.size > MAX_TOOLS) {
      throw new TroveError("catalog_too_large", 400, `a catalog holds at most ${MAX_TOOLS} tools`, {
        field: "tools",
        limit: MAX_TOOLS,
        total: next.size,
      });
    }
    const fingerprint = fingerprintOf(next.values());
    const unchanged = inputs.length - added - updated;
    const result = { fingerprint, added, updated, removed: removed.length, unchanged, total: next.size };
    if (meta && changed.length === 0 && removed.length === 0) return { ...result, version: meta.version };
    const version = (meta?.version ?? 0) + 1;
    for (const tool of changed) {
      this.sql.run(
        `INSERT INTO pub_tools (name, row, hash, version, removed) VALUES (?, ?, ?, ?, 0)
         ON CONFLICT (name) DO UPDATE SET row = excluded.row, hash = excluded.hash,
           version = excluded.version, removed = 0`,
        tool.name,
        tool.row,
        tool.hash,
        version,
      );
    }
    for (const gone of removed) {
      this.sql.run(
        `UPDATE pub_tools SET row = '', hash = '', version = ?, removed = 1 WHERE name = ?`,
        version,
        gone,
      );
    }
    const written: Meta = {
      name,
      epoch: meta?.epoch ?? crypto.randomUUID(),
      version,
      fingerprint,
      published_at: new Date(now).toISOString(),
    };
    this.sql.run(
      `INSERT INTO pub_meta (key, value) VALUES ('meta', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      JSON.stringify(written),
    );
    return { ...result, version };
  }

  info(): PublishedInfo | null {
    const meta = this.meta();
    if (!meta) return null;
    const counts = this.sql.one<{ tools: number; namespaces: number }>(
      `SELECT count(*) AS tools, count(DISTINCT row->>'namespace') AS namespaces
       FROM pub_tools WHERE removed = 0`,
    );
    return {
      name: meta.name,
      version: meta.version,
      fingerprint: meta.fingerprint,
      tools: counts?.tools ?? 0,
      namespaces: counts?.namespaces ?? 0,
      published_at: meta.published_at,
    };
  }

  /**
   * What changed after `version` of `epoch` (everything when the epoch is another or version is 0),
   * by name from after `after`, one page of at most PAGE_BYTES. A publish between two pages is
   * safe: every row it changed has a version above the one the first page answered, so the
   * session's next check brings what a later page missed.
   */
  changesSince(epoch: string | null, version: number, after = "", pageBytes = PAGE_BYTES): PublishedChanges {
    const meta = this.meta();
    if (!meta) return { status: "missing" };
    const full = epoch !== meta.epoch || version <= 0;
    const page: Extract<PublishedChanges, { status: "ok" }> = {
      status: "ok",
      epoch: meta.epoch,
      version: meta.version,
      fingerprint: meta.fingerprint,
      full,
      tools: [],
      removed: [],
      next: null,
    };
    if (!full && version >= meta.version) return page;
    let bytes = 0;
    let last = "";
    for (const r of this.sql.all<{ name: string; row: string; hash: string; removed: number }>(
      full
        ? `SELECT name, row, hash, removed FROM pub_tools WHERE removed = 0 AND name > ? ORDER BY name`
        : `SELECT name, row, hash, removed FROM pub_tools WHERE version > ? AND name > ? ORDER BY name`,
      ...(full ? [after] : [version, after]),
    )) {
      if (bytes > 0 && bytes + r.row.length > pageBytes) {
        page.next = last;
        break;
      }
      bytes += r.row.length + r.name.length;
      last = r.name;
      if (r.removed === 1) page.removed.push(r.name);
      else page.tools.push({ row: r.row, hash: r.hash });
    }
    return page;
  }
}
