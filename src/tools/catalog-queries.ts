// Reads of tools by row id for activation, resolution and context (the catalog store finds the ids).
import type { Sql } from "../db/sql";
import type { LoadingMode, NormalizedTool } from "./tool-record";

/** A tool as stored, with the session's view of it. */
export interface StoredTool {
  name: string;
  provider_name: string;
  qualified_name: string;
  effective_mode: LoadingMode;
  record: NormalizedTool;
  /** Who brought it: "agent", "catalog:<name>", "pack:<pack>" or "skill:<qid>". */
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

/** The tools of the given row ids (ids only: trove_tools has no other index), by name. */
export function readTools(sql: Sql, ids: readonly number[]): StoredTool[] {
  if (ids.length === 0) return [];
  return sql
    .all<StoredToolRow>(
      `SELECT ${STORED_COLUMNS} FROM trove_tools WHERE id IN (SELECT value FROM json_each(?)) ORDER BY name`,
      JSON.stringify(ids),
    )
    .map(toStoredTool);
}
