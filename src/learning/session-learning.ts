// A session's side of learning from use: it notices which searched-for tool the model went on to
// use, queues the (query → tool) pair for the tenant's learning object, and keeps the tenant's
// learned texts in the tools' index (field f_learned) no more than REFRESH_MS out of date.
import type { Sql } from "../db/sql";
import { indexText } from "../search/text";
import type { EventLog } from "../state/events";
import type { LearnedPair } from "./learning-store";

export type { LearnedPair };

/** A session ranks with what its tenant learned up to this long before. */
export const REFRESH_MS = 60_000;
/** A use teaches the queries of searches this recent that returned the tool… */
const SEARCH_WINDOW_MS = 10 * 60_000;
/** …among the session's last few searches, at most this many of them. */
const SEARCHES_LOOKED_AT = 5;
const QUERIES_PER_USE = 1;

export class SessionLearning {
  #pending: LearnedPair[] = [];
  /** Pairs this object already queued: a session teaches each pair once. */
  readonly #taught = new Set<string>();
  /** The tenant's version this session's index holds; -1 when learned text was cleared. */
  #version = 0;
  #checkedAt = 0;

  constructor(
    private readonly sql: Sql,
    private readonly events: EventLog,
  ) {}

  /**
   * The model is using `tool` (valid arguments, allowed or waiting for approval): each recent
   * full-text search that returned it becomes a pair to teach.
   */
  observeUse(tool: string, now: number): void {
    const searches = this.events.recent("tool_search_query", SEARCHES_LOOKED_AT, now - SEARCH_WINDOW_MS);
    let taught = 0;
    for (const search of searches) {
      if (taught >= QUERIES_PER_USE) break;
      const { query, results, effective_search_type: type } = search;
      if (type !== "fts" || typeof query !== "string" || !Array.isArray(results) || !results.includes(tool))
        continue;
      const key = `${tool}\u0000${query.trim().toLowerCase()}`;
      if (query.trim() === "" || this.#taught.has(key)) continue;
      this.#taught.add(key);
      this.#pending.push({ query, tool, at: now });
      taught++;
    }
  }

  hasPending(): boolean {
    return this.#pending.length > 0;
  }

  /** The pairs waiting to be sent; they are the caller's now (put them back with `requeue`). */
  take(): LearnedPair[] {
    const pairs = this.#pending;
    this.#pending = [];
    return pairs;
  }

  requeue(pairs: readonly LearnedPair[]): void {
    this.#pending = [...pairs, ...this.#pending];
  }

  /** Whether the index's learned text may be more than REFRESH_MS old. */
  stale(now: number): boolean {
    return now - this.#checkedAt >= REFRESH_MS;
  }

  /** The version to ask the tenant for changes after. */
  get version(): number {
    return Math.max(0, this.#version);
  }

  /**
   * Puts the tenant's learned texts in the tools' index; returns the tools changed. A tool this
   * session does not hold is skipped (it gets its text when a later full refresh finds it).
   */
  apply(
    version: number,
    tools: readonly { tool: string; text: string }[],
    ids: ReadonlyMap<string, number>,
    now: number,
  ): number {
    let changed = 0;
    for (const { tool, text } of tools) {
      const id = ids.get(tool);
      if (id === undefined) continue;
      const learned = indexText(text);
      const { rowsWritten } = this.sql.run(
        `UPDATE trove_tools SET f_learned = ? WHERE id = ? AND f_learned != ?`,
        learned,
        id,
        learned,
      );
      if (rowsWritten > 0) changed++;
    }
    this.#version = version;
    this.#checkedAt = now;
    return changed;
  }

  /** A failed refresh: try again in a while, ranking with what the index holds meanwhile. */
  retryLater(now: number): void {
    this.#checkedAt = now - REFRESH_MS + 10_000;
  }

  /** Learning is off for this session: no learned text in its index. Returns the tools changed. */
  clear(): number {
    if (this.#version === -1) return 0;
    this.#version = -1;
    this.#checkedAt = 0;
    this.#pending = [];
    return this.sql.run(`UPDATE trove_tools SET f_learned = '' WHERE f_learned != ''`).rowsWritten;
  }

  /** Tools were added: the next search fetches every learned text again. */
  catalogChanged(): void {
    if (this.#version !== -1) this.#version = 0;
    this.#checkedAt = 0;
  }

  /** The session's storage was erased. */
  reset(): void {
    this.#pending = [];
    this.#taught.clear();
    this.#version = 0;
    this.#checkedAt = 0;
  }
}
