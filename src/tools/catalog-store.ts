// The session's tool catalog in SQLite: incremental sync by record hash, visibility, counts.
import { z } from "zod";
import { jsonChunks, type Sql } from "../db/sql";
import { TroveError, validationError } from "../errors";
import { sha256Hex } from "../search/hash";
import { CatalogEntries, type CatalogEntry, type IndexedFields } from "./catalog-entries";
import {
  assertNotReserved,
  desiredProviderNames,
  freeProviderNames,
  writeProviderNames,
} from "./catalog-naming";
import { type Held, planPublished, planSync, type SyncPlan } from "./catalog-plan";
import { readTools, type StoredTool } from "./catalog-queries";
import {
  insertRows,
  type PlannedRow,
  type PublishedRecord,
  type PublishedSource,
  type ToolRow,
  type ToolSource,
  updateRows,
} from "./catalog-rows";
import { type CatalogCounts, CatalogStats } from "./catalog-stats";
import { IndexUpkeep } from "./index-upkeep";
import type { Visibility } from "./policy";
import { recordsBefore, type ToolChange, toolChanges } from "./tool-changes";
import { type LoadingMode, MAX_TOOLS, type ToolRecordInput } from "./tool-record";

export interface SyncResult {
  fingerprint: string;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  total: number;
}

const AGENT: ToolSource = "agent";

/** A sync by a pack or skill: names the agent's catalog already holds stay the agent's. */
export interface SourceSyncResult extends SyncResult {
  skipped: string[];
  /** For a published catalog: what changed in the tools it updated (tool-changes.ts). */
  changes?: ToolChange[];
}

export type { CatalogCounts, CatalogEntry, IndexedFields };

export class CatalogStore {
  #hashes: Map<string, Held> | null = null;
  readonly #entries: CatalogEntries;
  /** What writes left to merge in the search index (see IndexUpkeep). */
  readonly upkeep = new IndexUpkeep();
  /** What search reads of the catalog as a whole (its vocabulary, its names), cached until the next write. */
  readonly stats: CatalogStats;
  #lastSync: { digest: string; result: SyncResult } | null = null;
  /** Record JSON as last received → its record hash (never stale: the hash depends on nothing else). */
  #hashByRaw = new Map<string, string>();
  #naming: Map<string, { provider: string | null; allowed: boolean }> | null = null;

  /**
   * @param reserved names of Trove's own tools: the agent's catalog may not hold one and no
   *   provider name may take one (the operations layer knows them; the catalog keeps clear of them).
   */
  constructor(
    private readonly sql: Sql,
    private readonly reserved: readonly string[],
  ) {
    this.#entries = new CatalogEntries(sql);
    this.stats = new CatalogStats(sql);
  }

  /** Forgets in-memory copies; the next read goes to SQLite. Call after any outside write. */
  invalidate(): void {
    this.#hashes = null;
    this.#naming = null;
    this.#entries.invalidate();
    this.stats.invalidate();
    this.#lastSync = null;
  }

  /**
   * Forgets what learned text can change: the index's vocabulary and the candidates' indexed text.
   * The counts, names, entries and record hashes stand, so the first search after a learning sync
   * reads no pass over the tools (the one pass is about 30 ms at 10,000 tools).
   */
  learnedTextChanged(): void {
    this.#entries.forgetIndexed();
    this.stats.forgetTerms();
  }

  /**
   * Writes only new or changed records (by record hash); `replace` also removes absent tools.
   * Throws before writing anything when the result would exceed MAX_TOOLS.
   */
  sync(inputs: readonly ToolRecordInput[], mode: "replace" | "merge", visibility: Visibility): SyncResult {
    assertNotReserved(inputs, this.reserved);
    // Agents resend the same catalog every turn: when this request is byte-for-byte the previous
    // sync, nothing can have changed since (every write clears #lastSync), so skip per-record work.
    const digest = `${mode}:${sha256Hex(JSON.stringify(inputs))}`;
    if (this.#lastSync?.digest === digest) {
      const { fingerprint, total } = this.#lastSync.result;
      return { fingerprint, added: 0, updated: 0, removed: 0, unchanged: inputs.length, total };
    }
    this.assertNotPublished(inputs);
    const result = this.syncRecords(inputs, mode, visibility, AGENT);
    this.#lastSync = { digest, result };
    return result;
  }

  /**
   * Replaces the tools a pack or skill brings with `inputs` (none: removes them all). A name the
   * agent's catalog (or another pack or skill) already holds is skipped: the first holder keeps it.
   */
  syncSource(
    source: Exclude<ToolSource, "agent">,
    inputs: readonly ToolRecordInput[],
    visibility: Visibility,
  ): SourceSyncResult {
    const held = this.hashes();
    const skipped = inputs.filter((t) => (held.get(t.name)?.source ?? source) !== source).map((t) => t.name);
    const own = inputs.filter((t) => !skipped.includes(t.name));
    return { ...this.syncRecords(own, "replace", visibility, source), skipped };
  }

  /**
   * Brings the tools of a published catalog to `changes` (src/published/): `full` makes them exactly
   * `changes.tools`, else its tools are upserted and `removed` removed. Records arrive normalized and
   * hashed by the catalog's object; only those whose hash differs are written (and re-indexed). A
   * name the agent's catalog or a pack already holds stays theirs and is skipped.
   */
  syncPublished(
    source: PublishedSource,
    changes: { full: boolean; tools: readonly PublishedRecord[]; removed: readonly string[] },
    visibility: Visibility,
  ): SourceSyncResult {
    const { plan, skipped } = planPublished(this.hashes(), source, changes, visibility);
    // The changed tools' records as they were, read before the plan overwrites them.
    const before = recordsBefore(this.sql, plan.changed);
    const result = this.applyPlan(plan, changes.tools.length - skipped.length, source);
    const after = new Map(
      plan.rows.filter((r) => before.has(r.name)).map((r) => [r.name, r.record] as const),
    );
    return { ...result, skipped, changes: toolChanges(before, after) };
  }

  /** The agent may not sync a name a published catalog of this session holds. */
  private assertNotPublished(inputs: readonly ToolRecordInput[]): void {
    const held = this.hashes();
    const issues = inputs.flatMap((tool, i) => {
      const source = held.get(tool.name)?.source;
      return source?.startsWith("catalog:")
        ? [
            {
              code: "custom" as const,
              path: ["tools", i, "name"],
              message: `"${tool.name}" is a tool of the published catalog "${source.slice(8)}" this session uses`,
              input: tool.name,
            },
          ]
        : [];
    });
    if (issues.length > 0) throw validationError(new z.ZodError(issues));
  }

  /** Names of the tools a source brought (allowed or not). */
  namesOf(source: string): string[] {
    return [...this.hashes()].filter(([, held]) => held.source === source).map(([name]) => name);
  }

  private syncRecords(
    inputs: readonly ToolRecordInput[],
    mode: "replace" | "merge",
    visibility: Visibility,
    source: ToolSource,
  ): SyncResult {
    const plan = planSync(this.hashes(), inputs, mode, visibility, source, this.#hashByRaw);
    // The raw → hash map serves the agent's catalog, which is re-sent every turn.
    if (source === AGENT) this.#hashByRaw = plan.hashByRaw;
    return this.applyPlan(plan, inputs.length, source);
  }

  /** Writes a plan unless the catalog would exceed MAX_TOOLS; `received` records were compared. */
  private applyPlan(plan: SyncPlan, received: number, source: ToolSource): SyncResult {
    const present = [...plan.others.keys(), ...plan.next.keys()];
    if (present.length > MAX_TOOLS) {
      throw new TroveError("catalog_too_large", 400, `a session holds at most ${MAX_TOOLS} tools`, {
        field: "tools",
        limit: MAX_TOOLS,
        total: present.length,
      });
    }
    const { added, updated, removed, next } = plan;
    const unchanged = received - added - updated;
    if (plan.rows.length === 0 && removed.length === 0) {
      return { fingerprint: this.fingerprint(), added, updated, removed: 0, unchanged, total: next.size };
    }
    const fingerprint = this.writeSync(plan, present, source);
    return { fingerprint, added, updated, removed: removed.length, unchanged, total: next.size };
  }

  /** Deletes, upserts and renames what `plan` says; returns the catalog fingerprint after it. */
  private writeSync(plan: SyncPlan, present: readonly string[], source: ToolSource): string {
    const stored = this.naming();
    const ids = this.ids();
    this.invalidate();
    const removedIds = plan.removed.map((name) => ids.get(name));
    this.upkeep.note(removedIds.length + plan.rows.filter((row) => ids.has(row.name)).length);
    for (const chunk of jsonChunks(removedIds)) {
      this.sql.run(`DELETE FROM trove_tools WHERE id IN (SELECT value FROM json_each(?))`, chunk);
    }
    // What a foreign key would cascade: a removed tool's activations go with it.
    for (const chunk of jsonChunks(plan.removed)) {
      this.sql.run(
        `DELETE FROM trove_activations WHERE tool_name IN (SELECT value FROM json_each(?))`,
        chunk,
      );
    }
    const desired = this.providerNamesAfter(plan.rows, present, stored);
    freeProviderNames(this.sql, desired, stored, ids);
    const rows: ToolRow[] = plan.rows.map((row) => ({
      ...row,
      provider_name: desired.get(row.name) ?? null,
      source,
    }));
    const inserted = insertRows(
      this.sql,
      rows.filter((row) => !ids.has(row.name)),
    );
    updateRows(
      this.sql,
      rows.flatMap((row) => {
        const id = ids.get(row.name);
        return id === undefined ? [] : [{ ...row, id }];
      }),
    );
    writeProviderNames(this.sql, desired, stored, new Set(rows.map((row) => row.name)), ids);
    // The fingerprint is the agent's: it tells the agent whether its own catalog must be re-sent.
    const fingerprint = source === AGENT ? fingerprintOf(plan.next.values()) : this.fingerprint();
    if (source === AGENT) {
      this.sql.run(
        `INSERT INTO trove_meta (key, value) VALUES ('catalog_fingerprint', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        fingerprint,
      );
    }
    // What the catalog holds now, without reading it back: the next sync compares against it.
    this.#hashes = new Map([
      ...plan.others,
      ...[...plan.next].map(([name, hash]) => {
        const id = ids.get(name) ?? inserted.get(name) ?? 0;
        return [name, { id, hash, source }] as const;
      }),
    ]);
    return fingerprint;
  }

  /** Provider names once `rows` are written: a row's policy flag, else the stored one, decides. */
  private providerNamesAfter(
    rows: readonly PlannedRow[],
    present: readonly string[],
    stored: ReadonlyMap<string, { allowed: boolean }>,
  ): Map<string, string | null> {
    const rowAllowed = new Map(rows.map((row) => [row.name, row.allowed === 1]));
    const allowed = present.filter((name) => rowAllowed.get(name) ?? stored.get(name)?.allowed);
    return desiredProviderNames(allowed, present, this.reserved);
  }

  /** Recomputes `allowed` and `effective_mode` after a config change; writes only rows that differ. */
  applyVisibility(visibility: Visibility): number {
    const rows = this.sql.all<{
      id: number;
      name: string;
      qualified_name: string;
      loading_mode: LoadingMode | null;
      effective_mode: LoadingMode;
      allowed: number;
    }>(`SELECT id, name, qualified_name, loading_mode, effective_mode, allowed FROM trove_tools`);
    const changes: { id: number; allowed: 0 | 1; effective_mode: LoadingMode }[] = [];
    for (const row of rows) {
      const allowed = visibility.allowed(row.name, row.qualified_name) ? 1 : 0;
      const mode = visibility.mode(row.name, row.qualified_name, row.loading_mode);
      if (allowed !== row.allowed || mode !== row.effective_mode) {
        changes.push({ id: row.id, allowed, effective_mode: mode });
      }
    }
    if (changes.length === 0) return 0;
    this.upkeep.note(changes.length);
    const stored = this.naming();
    this.invalidate();
    const changed = new Map(changes.map((c) => [c.id, c.allowed === 1]));
    const allowed = rows.filter((r) => changed.get(r.id) ?? r.allowed === 1).map((r) => r.name);
    const desired = desiredProviderNames(
      allowed,
      rows.map((r) => r.name),
      this.reserved,
    );
    // A tool that becomes denied loses its provider name in the same write as its flag.
    for (const chunk of jsonChunks(changes)) {
      this.sql.run(
        `UPDATE trove_tools SET allowed = j.value->>'allowed', effective_mode = j.value->>'effective_mode',
           provider_name = CASE WHEN j.value->>'allowed' = 0 THEN NULL ELSE provider_name END
         FROM json_each(?) AS j WHERE trove_tools.id = j.value->>'id'`,
        chunk,
      );
    }
    const current = new Map(
      rows.map((r) => [
        r.name,
        { provider: changed.get(r.id) === false ? null : (stored.get(r.name)?.provider ?? null) },
      ]),
    );
    const ids = new Map(rows.map((r) => [r.name, r.id]));
    freeProviderNames(this.sql, desired, current, ids);
    writeProviderNames(this.sql, desired, current, new Set(), ids);
    return changes.length;
  }

  /** An allowed tool by name or provider name; unknown and denied tools alike give undefined. */
  find(nameOrProviderName: string): StoredTool | undefined {
    const entry = this.#entries.find(nameOrProviderName);
    return entry ? readTools(this.sql, [entry.id])[0] : undefined;
  }

  /** Whether the policy allows a tool of this exact name (false for unknown tools too). */
  allows(name: string): boolean {
    return this.#entries.allows(name);
  }

  /** Allowed tools that are always loaded or among `activated`, by name. */
  visible(activated: ReadonlySet<string>): StoredTool[] {
    return readTools(this.sql, this.#entries.visibleIds(activated));
  }

  /** See CatalogEntries.exact. */
  exact(name: string, includeAlways: boolean): CatalogEntry[] {
    return this.#entries.exact(name, includeAlways);
  }

  /** See CatalogEntries.withIndexedFields. */
  withIndexedFields(ids: readonly number[], includeAlways: boolean): (CatalogEntry & IndexedFields)[] {
    return this.#entries.withIndexedFields(ids, includeAlways);
  }

  /** Provider names of the given tools (for search results). */
  providerNamesOf(names: readonly string[]): Map<string, string> {
    return this.#entries.providerNamesOf(names);
  }

  /** Every catalog entry (allowed or not), cached until the next write. */
  entries(): CatalogEntry[] {
    return this.#entries.all();
  }

  /** Row ids by tool name (the learned-text refresh writes by id). */
  ids(): Map<string, number> {
    return new Map([...this.hashes()].map(([name, held]) => [name, held.id]));
  }

  /** Counts over allowed tools only: a denied tool is never counted. Cached until the next write. */
  counts(): CatalogCounts {
    return this.stats.counts();
  }

  /**
   * Merges the search index when writes since the last merge rewrote enough of it (IndexUpkeep);
   * returns whether it did. The session runs it after the response.
   */
  tidyIndex(): boolean {
    if (!this.upkeep.due(this.stats.size())) return false;
    this.upkeep.tidy((statement) => this.sql.run(statement));
    return true;
  }

  fingerprint(): string {
    return (
      this.sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'catalog_fingerprint'`)
        ?.value ?? fingerprintOf([])
    );
  }

  /** Stored provider name and policy flag of every tool, cached until the next write. */
  private naming(): Map<string, { provider: string | null; allowed: boolean }> {
    this.#naming ??= new Map(
      this.sql
        .all<{ name: string; provider_name: string | null; allowed: number }>(
          `SELECT name, provider_name, allowed FROM trove_tools`,
        )
        .map((r) => [r.name, { provider: r.provider_name, allowed: r.allowed === 1 }]),
    );
    return this.#naming;
  }

  private hashes(): Map<string, Held> {
    this.#hashes ??= new Map(
      this.sql
        .all<{ id: number; name: string; record_hash: string; source: ToolSource }>(
          `SELECT id, name, record_hash, source FROM trove_tools`,
        )
        .map((r) => [r.name, { id: r.id, hash: r.record_hash, source: r.source }]),
    );
    return this.#hashes;
  }
}

/** sha256 over the sorted record hashes: equal catalogs have equal fingerprints. */
export function fingerprintOf(hashes: Iterable<string>): string {
  return sha256Hex([...hashes].sort().join("\n"));
}
