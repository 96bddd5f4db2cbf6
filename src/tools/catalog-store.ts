// The session's tool catalog in SQLite: incremental sync by record hash, visibility, counts.
import { z } from "zod";
import { jsonChunks, type Sql } from "../db/sql";
import { TroveError, validationError } from "../errors";
import { frequenciesOf, readVocabulary } from "../search/fts-query";
import { sha256Hex } from "../search/hash";
import {
  assertNotReserved,
  desiredProviderNames,
  freeProviderNames,
  writeProviderNames,
} from "./catalog-naming";
import { readTools, type StoredTool } from "./catalog-queries";
import {
  insertRows,
  type PlannedRow,
  type RecordRow,
  type ToolRow,
  type ToolSource,
  toolRow,
  updateRows,
  withVisibility,
} from "./catalog-rows";
import type { Visibility } from "./policy";
import {
  hashTool,
  type LoadingMode,
  MAX_TOOLS,
  normalizeTool,
  type SideEffects,
  type ToolRecordInput,
} from "./tool-record";

export interface SyncResult {
  fingerprint: string;
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  total: number;
}

const AGENT: ToolSource = "agent";

/** A record of a published catalog: its row as the catalog computed it (JSON RecordRow). */
export interface PublishedRecord {
  row: string;
  hash: string;
}

/** The source of a published catalog's tools in a session. */
export type PublishedSource = `catalog:${string}`;

/** A sync by a pack or skill: names the agent's catalog already holds stay the agent's. */
export interface SourceSyncResult extends SyncResult {
  skipped: string[];
}

/** What search and listing need of a tool, kept in memory between writes. */
export interface CatalogEntry {
  id: number;
  name: string;
  qualified_name: string;
  local_name: string;
  /** The name the model sees; null while the policy denies the tool. */
  provider_name: string | null;
  namespace: string;
  description: string;
  /** Tags joined by spaces. */
  tags: string;
  /** Lowercased copies when all three texts are ASCII (literal regex patterns then use string search). */
  ascii?: { name: string; description: string; tags: string };
  side_effects: SideEffects;
  effective_mode: LoadingMode;
  allowed: number;
}

export interface CatalogCounts {
  tools: number;
  deferred: number;
  always: number;
}

const ASCII = /^\p{ASCII}*$/u;
const ENTRY_COLUMNS = `id, name, qualified_name, local_name, provider_name, namespace, description, tags,
  side_effects, effective_mode, allowed`;

interface Held {
  id: number;
  hash: string;
  source: ToolSource;
}

/**
 * How names find entries. trove_tools has no index but its rowid (every index is another row
 * written per tool in every new session): lookups by name go through these maps, kept in memory
 * until the next write, and then read rows by id.
 */
interface Lookup {
  byName: Map<string, CatalogEntry>;
  byProvider: Map<string, CatalogEntry>;
  /** Lowercased name, qualified name and local name → entries (exact search is case-insensitive). */
  folded: Map<string, CatalogEntry[]>;
}

/** What a sync changes, worked out before anything is written. */
interface SyncPlan {
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
  /** Record JSON → record hash of every input. */
  hashByRaw: Map<string, string>;
}

export class CatalogStore {
  #hashes: Map<string, Held> | null = null;
  #entries: CatalogEntry[] | null = null;
  #size: number | null = null;
  #counts: CatalogCounts | null = null;
  #vocabulary: Map<string, number> | null = null;
  #lastSync: { digest: string; result: SyncResult } | null = null;
  /** Record JSON as last received → its record hash (never stale: the hash depends on nothing else). */
  #hashByRaw = new Map<string, string>();
  #naming: Map<string, { provider: string | null; allowed: boolean }> | null = null;
  #lookup: Lookup | null = null;

  /**
   * @param reserved names of Trove's own tools: the agent's catalog may not hold one and no
   *   provider name may take one (the operations layer knows them; the catalog keeps clear of them).
   */
  constructor(
    private readonly sql: Sql,
    private readonly reserved: readonly string[],
  ) {}

  /** Forgets in-memory copies; the next read goes to SQLite. Call after any outside write. */
  invalidate(): void {
    this.#hashes = null;
    this.#naming = null;
    this.#entries = null;
    this.#lookup = null;
    this.#size = null;
    this.#counts = null;
    this.#vocabulary = null;
    this.#lastSync = null;
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
    const { existing, others } = splitBySource(this.hashes(), source);
    const next = changes.full ? new Map<string, string>() : new Map(existing);
    const plan: SyncPlan = {
      next,
      others,
      rows: [],
      removed: [],
      added: 0,
      updated: 0,
      hashByRaw: new Map(),
    };
    const skipped: string[] = [];
    for (const { row, hash } of changes.tools) {
      // Computed by the catalog's object from a record it validated and normalized.
      const record = JSON.parse(row) as RecordRow;
      if (others.has(record.name)) {
        skipped.push(record.name);
        continue;
      }
      next.set(record.name, hash);
      const previous = existing.get(record.name);
      if (previous === hash) continue;
      if (previous === undefined) plan.added++;
      else plan.updated++;
      plan.rows.push(withVisibility(record, visibility));
    }
    for (const name of changes.removed) next.delete(name);
    plan.removed = [...existing.keys()].filter((name) => !next.has(name));
    return { ...this.applyPlan(plan, changes.tools.length - skipped.length, source), skipped };
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
    const plan = this.planSync(inputs, mode, visibility, source);
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

  /**
   * Compares `inputs` with this source's stored hashes. A name held by another source is taken
   * over (only the agent syncs names others hold: its own catalog always wins), so for it the
   * record is new.
   */
  private planSync(
    inputs: readonly ToolRecordInput[],
    mode: "replace" | "merge",
    visibility: Visibility,
    source: ToolSource,
  ): SyncPlan {
    const { existing, others } = splitBySource(this.hashes(), source);
    const next = mode === "replace" ? new Map<string, string>() : new Map(existing);
    const plan: SyncPlan = {
      next,
      others,
      rows: [],
      removed: [],
      added: 0,
      updated: 0,
      hashByRaw: new Map(),
    };
    for (const input of inputs) {
      others.delete(input.name);
      // A record's hash is a pure function of its JSON, so hashes computed before are reused: a
      // re-sent record costs one JSON.stringify, not a canonicalization and a sha256.
      const raw = JSON.stringify(input);
      const known = this.#hashByRaw.get(raw);
      if (known !== undefined && existing.get(input.name) === known) {
        plan.hashByRaw.set(raw, known);
        next.set(input.name, known);
        continue;
      }
      const tool = normalizeTool(input);
      const { json, hash } = hashTool(tool);
      plan.hashByRaw.set(raw, hash);
      next.set(tool.name, hash);
      const previous = existing.get(tool.name);
      if (previous === hash) continue;
      if (previous === undefined) plan.added++;
      else plan.updated++;
      plan.rows.push(toolRow(tool, json, hash, visibility));
    }
    if (mode === "replace") plan.removed = [...existing.keys()].filter((name) => !next.has(name));
    return plan;
  }

  /** Deletes, upserts and renames what `plan` says; returns the catalog fingerprint after it. */
  private writeSync(plan: SyncPlan, present: readonly string[], source: ToolSource): string {
    const stored = this.naming();
    const ids = this.ids();
    this.invalidate();
    const removedIds = plan.removed.map((name) => ids.get(name));
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
    const { byName, byProvider } = this.lookup();
    // A denied tool's name may be another allowed tool's provider name (`a:b` is shown as `a_b`
    // when the tool `a_b` is denied): the name counts only when its tool is allowed.
    const entry = [byName.get(nameOrProviderName), byProvider.get(nameOrProviderName)].find(
      (e) => e?.allowed === 1,
    );
    return entry ? readTools(this.sql, [entry.id])[0] : undefined;
  }

  /** Whether the policy allows a tool of this exact name (false for unknown tools too). */
  allows(name: string): boolean {
    return this.lookup().byName.get(name)?.allowed === 1;
  }

  /** Allowed tools that are always loaded or among `activated`, by name. */
  visible(activated: ReadonlySet<string>): StoredTool[] {
    const ids = this.entries()
      .filter((e) => e.allowed === 1 && (e.effective_mode === "always" || activated.has(e.name)))
      .map((e) => e.id);
    return readTools(this.sql, ids);
  }

  /**
   * Allowed tools whose name, namespace-qualified name or name without namespace is `name` in any
   * case, or whose provider name is exactly `name`; deferred ones only unless `includeAlways`.
   */
  exact(name: string, includeAlways: boolean): CatalogEntry[] {
    const { byProvider, folded } = this.lookup();
    const hits = new Set(folded.get(name.toLowerCase()) ?? []);
    const provider = byProvider.get(name);
    if (provider) hits.add(provider);
    return [...hits]
      .filter((e) => e.allowed === 1 && (includeAlways || e.effective_mode === "deferred"))
      .sort((a, b) => a.id - b.id);
  }

  /** Provider names of the given tools (for search results). */
  providerNamesOf(names: readonly string[]): Map<string, string> {
    const { byName } = this.lookup();
    const out = new Map<string, string>();
    for (const name of names) {
      const entry = byName.get(name);
      if (entry) out.set(name, entry.provider_name ?? name);
    }
    return out;
  }

  /** Row ids by tool name (the learned-text refresh writes by id). */
  ids(): Map<string, number> {
    return new Map([...this.hashes()].map(([name, held]) => [name, held.id]));
  }

  private lookup(): Lookup {
    if (this.#lookup) return this.#lookup;
    const lookup: Lookup = { byName: new Map(), byProvider: new Map(), folded: new Map() };
    for (const entry of this.entries()) {
      lookup.byName.set(entry.name, entry);
      if (entry.provider_name !== null) lookup.byProvider.set(entry.provider_name, entry);
      for (const key of new Set(
        [entry.name, entry.qualified_name, entry.local_name].map((n) => n.toLowerCase()),
      )) {
        const list = lookup.folded.get(key) ?? [];
        list.push(entry);
        lookup.folded.set(key, list);
      }
    }
    this.#lookup = lookup;
    return lookup;
  }

  /** Counts over allowed tools only: a denied tool is never counted. Cached until the next write. */
  counts(): CatalogCounts {
    this.#counts ??= this.readCounts();
    return this.#counts;
  }

  private readCounts(): CatalogCounts {
    const rows = this.sql.all<{ effective_mode: LoadingMode; n: number }>(
      `SELECT effective_mode, count(*) AS n FROM trove_tools WHERE allowed = 1 GROUP BY effective_mode`,
    );
    const deferred = rows.find((r) => r.effective_mode === "deferred")?.n ?? 0;
    const always = rows.find((r) => r.effective_mode === "always")?.n ?? 0;
    return { tools: deferred + always, deferred, always };
  }

  /** Documents in the search index: the tools the policy allows. */
  size(): number {
    this.#size ??=
      this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_tools WHERE allowed = 1`)?.n ?? 0;
    return this.#size;
  }

  /**
   * How many searchable tools contain each normalized term. The whole FTS5 vocabulary is read once
   * after each write (a few ms at 10,000 tools) so that no search pays per-term lookups.
   */
  docFrequencies(terms: readonly string[]): Map<string, number> {
    this.#vocabulary ??= readVocabulary(this.sql, "trove_tools_vocab");
    return frequenciesOf(this.#vocabulary, terms);
  }

  fingerprint(): string {
    return (
      this.sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'catalog_fingerprint'`)
        ?.value ?? fingerprintOf([])
    );
  }

  /** Every catalog entry (allowed or not), cached until the next write. */
  entries(): CatalogEntry[] {
    this.#entries ??= this.sql
      .all<Omit<CatalogEntry, "tags" | "ascii"> & { tags: string }>(
        `SELECT ${ENTRY_COLUMNS} FROM trove_tools ORDER BY id`,
      )
      .map((row) => {
        const tags = (JSON.parse(row.tags) as string[]).join(" ");
        const ascii = ASCII.test(row.name) && ASCII.test(row.description) && ASCII.test(tags);
        const lower = ascii
          ? {
              name: row.name.toLowerCase(),
              description: row.description.toLowerCase(),
              tags: tags.toLowerCase(),
            }
          : undefined;
        return { ...row, tags, ascii: lower };
      });
    return this.#entries;
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

/** The stored tools of `source` by hash, and every other source's tools. */
function splitBySource(
  held: ReadonlyMap<string, Held>,
  source: ToolSource,
): { existing: Map<string, string>; others: Map<string, Held> } {
  const existing = new Map<string, string>();
  const others = new Map<string, Held>();
  for (const [name, h] of held) {
    if (h.source === source) existing.set(name, h.hash);
    else others.set(name, h);
  }
  return { existing, others };
}

/** sha256 over the sorted record hashes: equal catalogs have equal fingerprints. */
export function fingerprintOf(hashes: Iterable<string>): string {
  return sha256Hex([...hashes].sort().join("\n"));
}
