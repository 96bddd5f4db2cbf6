// What a sync will change, worked out before anything is written: which records are new or
// changed (by record hash), which the source no longer has, and which names another source keeps.

import type { PublishedRecord, PublishedSource } from "./catalog-rows";
import { type PlannedRow, type RecordRow, type ToolSource, toolRow, withVisibility } from "./catalog-rows";
import type { Visibility } from "./policy";
import { hashTool, normalizeTool, type ToolRecordInput } from "./tool-record";

/** A stored tool: its row id, record hash and source. */
export interface Held {
  id: number;
  hash: string;
  source: ToolSource;
}

/** What a sync changes, worked out before anything is written. */
export interface SyncPlan {
  /** This source's tools after the sync: name → record hash. */
  next: Map<string, string>;
  /** Tools other sources keep. */
  others: Map<string, Held>;
  /** New and changed records. */
  rows: PlannedRow[];
  /** This source's tools the sync removes. */
  removed: string[];
  added: number;
  updated: number;
  /** Names of the changed records (`updated` of them). */
  changed: string[];
  /** Record JSON → record hash of every input. */
  hashByRaw: Map<string, string>;
}

/** A plan that starts from nothing (`fresh`) or from what `source` holds, and that source's hashes. */
function startPlan(held: ReadonlyMap<string, Held>, source: ToolSource, fresh: boolean) {
  const existing = new Map<string, string>();
  const others = new Map<string, Held>();
  for (const [name, h] of held) {
    if (h.source === source) existing.set(name, h.hash);
    else others.set(name, h);
  }
  const plan: SyncPlan = {
    next: fresh ? new Map() : new Map(existing),
    others,
    rows: [],
    removed: [],
    added: 0,
    updated: 0,
    changed: [],
    hashByRaw: new Map(),
  };
  /** Takes one record: new or changed unless its hash is the stored one. */
  const take = (name: string, hash: string, row: () => PlannedRow) => {
    plan.next.set(name, hash);
    const previous = existing.get(name);
    if (previous === hash) return;
    if (previous === undefined) plan.added++;
    else {
      plan.updated++;
      plan.changed.push(name);
    }
    plan.rows.push(row());
  };
  /** The source's stored tools the plan no longer has. */
  const gone = () => [...existing.keys()].filter((name) => !plan.next.has(name));
  return { plan, existing, take, gone };
}

/**
 * Compares `inputs` with this source's stored hashes. A name held by another source is taken
 * over (only the agent syncs names others hold: its own catalog always wins), so for it the
 * record is new. `hashByRaw` holds the hashes of records as last received.
 */
export function planSync(
  held: ReadonlyMap<string, Held>,
  inputs: readonly ToolRecordInput[],
  mode: "replace" | "merge",
  visibility: Visibility,
  source: ToolSource,
  hashByRaw: ReadonlyMap<string, string>,
): SyncPlan {
  const { plan, existing, take, gone } = startPlan(held, source, mode === "replace");
  for (const input of inputs) {
    plan.others.delete(input.name);
    // A record's hash is a pure function of its JSON, so hashes computed before are reused: a
    // re-sent record costs one JSON.stringify, not a canonicalization and a sha256.
    const raw = JSON.stringify(input);
    const known = hashByRaw.get(raw);
    if (known !== undefined && existing.get(input.name) === known) {
      plan.hashByRaw.set(raw, known);
      plan.next.set(input.name, known);
      continue;
    }
    const tool = normalizeTool(input);
    const { json, hash } = hashTool(tool);
    plan.hashByRaw.set(raw, hash);
    take(tool.name, hash, () => toolRow(tool, json, hash, visibility));
  }
  if (mode === "replace") plan.removed = gone();
  return plan;
}

/**
 * The plan for a published catalog's changes (src/published/): `full` makes its tools exactly
 * `changes.tools`, else they are upserted and `removed` removed. Rows arrive computed by the
 * catalog's object; a name another source holds stays theirs and is skipped.
 */
export function planPublished(
  held: ReadonlyMap<string, Held>,
  source: PublishedSource,
  changes: { full: boolean; tools: readonly PublishedRecord[]; removed: readonly string[] },
  visibility: Visibility,
): { plan: SyncPlan; skipped: string[] } {
  const { plan, take, gone } = startPlan(held, source, changes.full);
  const skipped: string[] = [];
  for (const { row, hash } of changes.tools) {
    // Computed by the catalog's object from a record it validated and normalized.
    const record = JSON.parse(row) as RecordRow;
    if (plan.others.has(record.name)) skipped.push(record.name);
    else take(record.name, hash, () => withVisibility(record, visibility));
  }
  for (const name of changes.removed) plan.next.delete(name);
  plan.removed = gone();
  return { plan, skipped };
}
