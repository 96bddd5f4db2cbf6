// Reads of single tools for activation, resolution and context: allowed tools only.
import type { Sql } from "../db/sql";
import type { LoadingMode, NormalizedTool } from "./tool-record";

/** A tool as stored, with the session's view of it. */
export interface StoredTool {
  name: string;
  provider_name: string;
  qualified_name: string;
  effective_mode: LoadingMode;
  record: NormalizedTool;
  /** Who brought it: "agent", "pack:<pack>" or "skill:<qid>". */
  source: string;
}

interface StoredToolRow {
  name: string;
  provider_name: string | null;
  qualified_name: string;
  effective_mode: LoadingMode;
  record: string;
  source: string;
}

const STORED_COLUMNS = "name, provider_name, qualified_name, effective_mode, record, source";

function toStoredTool(row: StoredToolRow): StoredTool {
  return {
    name: row.name,
    provider_name: row.provider_name ?? row.name,
    qualified_name: row.qualified_name,
    effective_mode: row.effective_mode,
    source: row.source,
    // Written by sync from a validated record (canonical JSON of NormalizedTool).
    record: JSON.parse(row.record) as NormalizedTool,
  };
}

/**
 * An allowed tool by its name or its provider name; undefined for unknown and denied tools alike,
 * so callers cannot tell them apart.
 */
export function findTool(sql: Sql, nameOrProviderName: string): StoredTool | undefined {
  const row =
    sql.one<StoredToolRow>(
      `SELECT ${STORED_COLUMNS} FROM trove_tools WHERE name = ? AND allowed = 1`,
      nameOrProviderName,
    ) ??
    sql.one<StoredToolRow>(
      `SELECT ${STORED_COLUMNS} FROM trove_tools WHERE provider_name = ? AND allowed = 1`,
      nameOrProviderName,
    );
  return row ? toStoredTool(row) : undefined;
}

/** Allowed tools that are always loaded or among `activated`, by name. */
export function visibleTools(sql: Sql, activated: ReadonlySet<string>): StoredTool[] {
  return sql
    .all<StoredToolRow>(
      `SELECT ${STORED_COLUMNS} FROM trove_tools
       WHERE allowed = 1 AND (effective_mode = 'always' OR name IN (SELECT value FROM json_each(?)))
       ORDER BY name`,
      JSON.stringify([...activated]),
    )
    .map(toStoredTool);
}

/** Provider names of the given tools. */
export function providerNamesOf(sql: Sql, names: readonly string[]): Map<string, string> {
  const rows = sql.all<{ name: string; provider_name: string | null }>(
    `SELECT name, provider_name FROM trove_tools WHERE name IN (SELECT value FROM json_each(?))`,
    JSON.stringify(names),
  );
  return new Map(rows.map((r) => [r.name, r.provider_name ?? r.name]));
}
