// What the catalog store keeps of every tool in memory between writes: enough to search by regex,
// list, and find tools by name, and the indexed text of the tools full-text search has re-scored.
// trove_tools has no index but its rowid (every index is another row written per tool in every new
// session), so names are resolved here and rows read by id.

import type { Sql } from "../db/sql";
import { type LearnedColumn, TOOL_FTS_COLUMNS } from "../db/tool-columns";
import type { ToolSearchFields } from "./tool-index";
import type { LoadingMode, SideEffects } from "./tool-record";

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

/** A tool's indexed text, field by field (the learned fields too), as full-text re-scoring reads it. */
export type IndexedFields = ToolSearchFields & Record<LearnedColumn, string>;

const ASCII = /^\p{ASCII}*$/u;
const ENTRY_COLUMNS = `id, name, qualified_name, local_name, provider_name, namespace, description, tags,
  side_effects, effective_mode, allowed`;
/** The index's columns, and the four re-scoring reads beside them that FTS5 does not index. */
const INDEXED_COLUMNS = `id, ${TOOL_FTS_COLUMNS}, f_offers, f_returns, f_learned_near, f_learned_own`;

type EntryRow = Omit<CatalogEntry, "tags" | "ascii"> & { tags: string };

/** An entry as kept in memory: its tags joined, lowercased copies of its text when all is ASCII. */
function entryOf(row: EntryRow): CatalogEntry {
  const tags = (JSON.parse(row.tags) as string[]).join(" ");
  const ascii = ASCII.test(row.name) && ASCII.test(row.description) && ASCII.test(tags);
  const lower = ascii
    ? { name: row.name.toLowerCase(), description: row.description.toLowerCase(), tags: tags.toLowerCase() }
    : undefined;
  return { ...row, tags, ascii: lower };
}

/** How names find entries. */
interface Lookup {
  byId: Map<number, CatalogEntry>;
  byName: Map<string, CatalogEntry>;
  byProvider: Map<string, CatalogEntry>;
  /** Lowercased name, qualified name and local name → entries (exact search is case-insensitive). */
  folded: Map<string, CatalogEntry[]>;
}

export class CatalogEntries {
  #entries: CatalogEntry[] | null = null;
  #lookup: Lookup | null = null;
  /** Indexed text by row id, read when a search first re-scores the tool (withIndexedFields). */
  readonly #indexed = new Map<number, IndexedFields>();
  /** Entries read by id while the whole catalog is not in memory (withIndexedFields). */
  readonly #byId = new Map<number, CatalogEntry>();

  constructor(private readonly sql: Sql) {}

  /** Call after any write to trove_tools: the next read goes to SQLite. */
  invalidate(): void {
    this.#entries = null;
    this.#lookup = null;
    this.forgetIndexed();
    this.#byId.clear();
  }

  /** Call after a write to the indexed text alone (learned text): the entries stand. */
  forgetIndexed(): void {
    this.#indexed.clear();
  }

  /** Every entry (allowed or not), in id order. */
  all(): CatalogEntry[] {
    this.#entries ??= this.sql
      .all<EntryRow>(`SELECT ${ENTRY_COLUMNS} FROM trove_tools ORDER BY id`)
      .map(entryOf);
    return this.#entries;
  }

  /**
   * The allowed tool with this name or provider name. A denied tool's name may be another allowed
   * tool's provider name (`a:b` is shown as `a_b` when the tool `a_b` is denied): a name counts only
   * when its tool is allowed.
   */
  find(nameOrProviderName: string): CatalogEntry | undefined {
    const { byName, byProvider } = this.lookup();
    return [byName.get(nameOrProviderName), byProvider.get(nameOrProviderName)].find((e) => e?.allowed === 1);
  }

  /** Whether the policy allows a tool of this exact name (false for unknown tools too). */
  allows(name: string): boolean {
    return this.lookup().byName.get(name)?.allowed === 1;
  }

  /** Ids of the allowed tools that are always loaded or among `activated`. */
  visibleIds(activated: ReadonlySet<string>): number[] {
    return this.all()
      .filter((e) => e.allowed === 1 && (e.effective_mode === "always" || activated.has(e.name)))
      .map((e) => e.id);
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

  /**
   * The allowed entries of `ids`, deferred ones only unless `includeAlways`, in the order given,
   * each with its indexed text. The text of a tool is read on its first search and kept until the
   * next write, as the entries are: a session's searches return to the same part of its catalog,
   * and reading forty candidates' text from SQLite cost a search about as much as its full-text
   * query. At most the catalog's text is kept, less than its records.
   */
  withIndexedFields(ids: readonly number[], includeAlways: boolean): (CatalogEntry & IndexedFields)[] {
    const byId = this.#lookup?.byId ?? this.readById(ids);
    const entries = ids
      .map((id) => byId.get(id))
      .filter(
        (e): e is CatalogEntry =>
          e !== undefined && e.allowed === 1 && (includeAlways || e.effective_mode === "deferred"),
      );
    const unread = entries.filter((e) => !this.#indexed.has(e.id)).map((e) => e.id);
    if (unread.length > 0) {
      const rows = this.sql.all<IndexedFields & { id: number }>(
        `SELECT ${INDEXED_COLUMNS} FROM trove_tools WHERE id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(unread),
      );
      for (const { id, ...fields } of rows) this.#indexed.set(id, fields);
    }
    return entries.flatMap((e) => {
      const fields = this.#indexed.get(e.id);
      return fields ? [{ ...e, ...fields }] : [];
    });
  }

  /**
   * The entries of `ids`, read by id while the whole catalog is not in memory: a session's first
   * search needs only its candidates, and reading every entry of a 10,000-tool catalog for them was
   * a fifth of that search (bench/RESULTS.md, the first search after a change).
   */
  private readById(ids: readonly number[]): ReadonlyMap<number, CatalogEntry> {
    const unread = ids.filter((id) => !this.#byId.has(id));
    if (unread.length > 0) {
      const rows = this.sql.all<EntryRow>(
        `SELECT ${ENTRY_COLUMNS} FROM trove_tools WHERE id IN (SELECT value FROM json_each(?))`,
        JSON.stringify(unread),
      );
      for (const row of rows) this.#byId.set(row.id, entryOf(row));
    }
    return this.#byId;
  }

  /** Provider names of the given tools (their own name while they have none). */
  providerNamesOf(names: readonly string[]): Map<string, string> {
    const { byName } = this.lookup();
    const out = new Map<string, string>();
    for (const name of names) {
      const entry = byName.get(name);
      if (entry) out.set(name, entry.provider_name ?? name);
    }
    return out;
  }

  private lookup(): Lookup {
    if (this.#lookup) return this.#lookup;
    const lookup: Lookup = { byId: new Map(), byName: new Map(), byProvider: new Map(), folded: new Map() };
    for (const entry of this.all()) {
      lookup.byId.set(entry.id, entry);
      lookup.byName.set(entry.name, entry);
      if (entry.provider_name !== null) lookup.byProvider.set(entry.provider_name, entry);
      const keys = new Set([entry.name, entry.qualified_name, entry.local_name].map((n) => n.toLowerCase()));
      for (const key of keys) lookup.folded.set(key, [...(lookup.folded.get(key) ?? []), entry]);
    }
    this.#lookup = lookup;
    return lookup;
  }
}
