// What changed in a tool a published catalog updated, field by field, for the session's
// catalog_synced event: a tool whose description or schema changes after a session started using
// it (an upstream's "rug pull") is on record in that session with its before and after.
import type { Sql } from "../db/sql";
import { canonicalJson, sha256Hex } from "../search/hash";

/** At most this many tools' changes go into one event; the event's `updated` counts them all. */
export const MAX_CHANGES_RECORDED = 20;
/** A changed value longer than this (as JSON) is recorded as its digest, not its text. */
const MAX_VALUE_CHARS = 2_000;

export interface ToolChange {
  name: string;
  /** Each top-level field of the record that changed: its value before and after. */
  fields: Record<string, { before: unknown; after: unknown }>;
}

/**
 * The stored records (name → record JSON) of the first MAX_CHANGES_RECORDED of `names`, by name,
 * read before a sync overwrites them.
 */
export function recordsBefore(sql: Sql, names: readonly string[]): Map<string, string> {
  const recorded = [...names].sort().slice(0, MAX_CHANGES_RECORDED);
  if (recorded.length === 0) return new Map();
  return new Map(
    sql
      .all<{ name: string; record: string }>(
        // json_each drives the join, so each name is one index lookup.
        `SELECT t.name, t.record FROM json_each(?) AS j CROSS JOIN trove_tools AS t ON t.name = j.value`,
        JSON.stringify(recorded),
      )
      .map((r) => [r.name, r.record] as const),
  );
}

/** A value as recorded: itself, or `sha256:<hex>` of its canonical JSON when it is long. */
function shown(value: unknown): unknown {
  if (value === undefined) return null;
  const json = canonicalJson(value);
  return json.length > MAX_VALUE_CHARS ? `sha256:${sha256Hex(json)}` : value;
}

/**
 * The changes of the tools in `after` (name → new record JSON) that `before` held, by record field,
 * for at most MAX_CHANGES_RECORDED tools in name order.
 *
 * @example
 * toolChanges(new Map([["a", '{"description":"x"}']]), new Map([["a", '{"description":"y"}']]))
 * // [{ name: "a", fields: { description: { before: "x", after: "y" } } }]
 */
export function toolChanges(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): ToolChange[] {
  const names = [...after.keys()].filter((name) => before.has(name)).sort();
  return names.slice(0, MAX_CHANGES_RECORDED).flatMap((name) => {
    const old = JSON.parse(before.get(name) as string) as Record<string, unknown>;
    const now = JSON.parse(after.get(name) as string) as Record<string, unknown>;
    const fields: ToolChange["fields"] = {};
    for (const key of [...new Set([...Object.keys(old), ...Object.keys(now)])].sort()) {
      if (canonicalJson(old[key] ?? null) === canonicalJson(now[key] ?? null)) continue;
      fields[key] = { before: shown(old[key]), after: shown(now[key]) };
    }
    return Object.keys(fields).length > 0 ? [{ name, fields }] : [];
  });
}
