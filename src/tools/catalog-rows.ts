// The trove_tools row as catalog sync writes it: its type, how a record becomes one, and the bulk
// upsert that reads rows by column name from a JSON array.

import type { Sql, SqlValue } from "../db/sql";
import { SYNCED_TOOL_COLUMNS, TOOL_FTS_COLUMNS } from "../db/tool-columns";
import type { Visibility } from "./policy";
import type { ToolSearchFields } from "./tool-index";
import { toolSearchFields } from "./tool-index";
import {
  type LoadingMode,
  localName,
  type NormalizedTool,
  qualifiedName,
  type SideEffects,
} from "./tool-record";

/**
 * Who put a tool in the catalog: the agent's catalog_sync, a catalog the tenant published (the
 * session's `catalog`), or a pack or skill that brings tools.
 */
export type ToolSource = "agent" | `catalog:${string}` | `pack:${string}` | `skill:${string}`;

/** A record of a published catalog: its row as the catalog computed it (JSON RecordRow). */
export interface PublishedRecord {
  row: string;
  hash: string;
}

/** The source of a published catalog's tools in a session. */
export type PublishedSource = `catalog:${string}`;

/** A trove_tools row as sync writes it, one field per column (the bulk writes read them by name). */
export interface ToolRow extends ToolSearchFields {
  name: string;
  qualified_name: string;
  local_name: string;
  namespace: string;
  description: string;
  /** JSON array. */
  tags: string;
  side_effects: SideEffects;
  loading_mode: LoadingMode | null;
  effective_mode: LoadingMode;
  allowed: 0 | 1;
  /** Canonical JSON of the normalized record. */
  record: string;
  record_hash: string;
  provider_name: string | null;
  source: ToolSource;
}

/** A new or changed record: its row, short of what is decided when writing. */
export type PlannedRow = Omit<ToolRow, "provider_name" | "source">;

/** The columns a sync writes: all but the rowid and the learned text (src/learning/ writes it). */
const COLUMNS = SYNCED_TOOL_COLUMNS;

/**
 * Writes rows one prepared statement each: measured several times faster than one `json_each`
 * statement, whose every `->>` parses the element's JSON again.
 */
const INSERT_ROW = `INSERT INTO trove_tools (${COLUMNS.join(", ")}) VALUES (${COLUMNS.map(() => "?").join(", ")})`;
const UPDATE_ROW = `UPDATE trove_tools SET (${COLUMNS.join(", ")}) = (${COLUMNS.map(() => "?").join(", ")}) WHERE id = ?`;

const values = (row: ToolRow): SqlValue[] => COLUMNS.map((c) => row[c]);

/**
 * Inserts new rows and indexes them in one FTS statement (no per-row trigger, as for skills);
 * returns the id each got.
 */
export function insertRows(sql: Sql, rows: readonly ToolRow[]): Map<string, number> {
  const ids = new Map<string, number>();
  if (rows.length === 0) return ids;
  // A rowid without AUTOINCREMENT is max + 1: the rows get consecutive ids above the largest.
  const before = sql.one<{ id: number | null }>(`SELECT max(id) AS id FROM trove_tools`)?.id ?? 0;
  rows.forEach((row, i) => {
    sql.run(INSERT_ROW, ...values(row));
    ids.set(row.name, before + i + 1);
  });
  sql.run(
    `INSERT INTO trove_tools_fts (rowid, ${TOOL_FTS_COLUMNS})
     SELECT id, ${TOOL_FTS_COLUMNS} FROM trove_tools WHERE id > ? AND allowed = 1`,
    before,
  );
  return ids;
}

/** Rewrites stored rows by id (their FTS documents follow through the update trigger). */
export function updateRows(sql: Sql, rows: readonly (ToolRow & { id: number })[]): void {
  for (const row of rows) sql.run(UPDATE_ROW, ...values(row), row.id);
}

/** A row's fields that depend on the record alone, not on the session's policy. */
export type RecordRow = Omit<PlannedRow, "effective_mode" | "allowed">;

/** The row of a new or changed record (provider name and source are added when writing). */
export function toolRow(
  tool: NormalizedTool,
  json: string,
  hash: string,
  visibility: Visibility,
): PlannedRow {
  return withVisibility(recordRow(tool, json, hash), visibility);
}

/**
 * What a record's row holds whatever the session: a published catalog computes it once, when it is
 * published, and every session using the catalog only adds its policy's view (withVisibility).
 */
export function recordRow(tool: NormalizedTool, json: string, hash: string): RecordRow {
  return {
    name: tool.name,
    qualified_name: qualifiedName(tool),
    local_name: localName(tool),
    namespace: tool.namespace,
    description: tool.description,
    tags: JSON.stringify(tool.tags ?? []),
    side_effects: tool.side_effects,
    loading_mode: tool.loading_mode ?? null,
    record: json,
    record_hash: hash,
    ...toolSearchFields(tool),
  };
}

/** The session's view of a row: whether its policy allows the tool, and how it loads. */
export function withVisibility(row: RecordRow, visibility: Visibility): PlannedRow {
  const loading = row.loading_mode ?? undefined;
  return {
    ...row,
    effective_mode: visibility.mode(row.name, row.qualified_name, loading),
    allowed: visibility.allowed(row.name, row.qualified_name) ? 1 : 0,
  };
}
