// The trove_tools row as catalog sync writes it: its type, how a record becomes one, and the bulk
// upsert that reads rows by column name from a JSON array.
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

/** A trove_tools row as sync writes it, one field per column (the bulk upsert reads them by name). */
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

export const UPSERT = `
  INSERT INTO trove_tools (name, qualified_name, local_name, namespace, description, tags, side_effects,
    loading_mode, effective_mode, allowed, record, record_hash,
    f_name, f_namespace, f_tags, f_description, f_params, f_examples, provider_name, source)
  SELECT j.value->>'name', j.value->>'qualified_name', j.value->>'local_name', j.value->>'namespace',
    j.value->>'description', j.value->>'tags', j.value->>'side_effects', j.value->>'loading_mode',
    j.value->>'effective_mode', j.value->>'allowed', j.value->>'record', j.value->>'record_hash',
    j.value->>'f_name', j.value->>'f_namespace', j.value->>'f_tags', j.value->>'f_description',
    j.value->>'f_params', j.value->>'f_examples', j.value->>'provider_name', j.value->>'source'
  FROM json_each(?) AS j WHERE true
  ON CONFLICT (name) DO UPDATE SET
    qualified_name = excluded.qualified_name, local_name = excluded.local_name,
    namespace = excluded.namespace, description = excluded.description, tags = excluded.tags,
    side_effects = excluded.side_effects, loading_mode = excluded.loading_mode,
    effective_mode = excluded.effective_mode, allowed = excluded.allowed, record = excluded.record,
    record_hash = excluded.record_hash, f_name = excluded.f_name, f_namespace = excluded.f_namespace,
    f_tags = excluded.f_tags, f_description = excluded.f_description, f_params = excluded.f_params,
    f_examples = excluded.f_examples, provider_name = excluded.provider_name, source = excluded.source`;

/** The row of a new or changed record (provider name and source are added when writing). */
export function toolRow(
  tool: NormalizedTool,
  json: string,
  hash: string,
  visibility: Visibility,
): PlannedRow {
  const qualified = qualifiedName(tool);
  return {
    name: tool.name,
    qualified_name: qualified,
    local_name: localName(tool),
    namespace: tool.namespace,
    description: tool.description,
    tags: JSON.stringify(tool.tags ?? []),
    side_effects: tool.side_effects,
    loading_mode: tool.loading_mode ?? null,
    effective_mode: visibility.mode(tool.name, qualified, tool.loading_mode),
    allowed: visibility.allowed(tool.name, qualified) ? 1 : 0,
    record: json,
    record_hash: hash,
    ...toolSearchFields(tool),
  };
}
