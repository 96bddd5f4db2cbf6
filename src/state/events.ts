// The session's structured event log: bounded, cursor-paged, and mirrored as JSON log lines.
import type { Sql } from "../db/sql";

/** Events kept per session; older ones are pruned in the same transaction as each insert. */
export const MAX_EVENTS = 5_000;

export type EventType =
  | "tool_search_query"
  | "tool_activated"
  | "tool_deactivated"
  | "tool_activation_denied"
  | "approval_requested"
  | "approval_decided"
  | "catalog_synced"
  | "skill_pack_loaded"
  | "skill_search_query"
  | "skills_retrieved"
  | "skill_get"
  | "skill_list"
  | "skill_directory_rendered"
  | "skill_loaded"
  | "skill_enabled"
  | "skill_disabled"
  | "pack_attached"
  | "pack_detached"
  | "pack_tools_enabled";

export interface SessionEvent {
  id: number;
  type: EventType;
  at: string;
  data: Record<string, unknown>;
}

/** An event `recent` found: when it happened (ms since the epoch) and its data. */
export interface RecentEvent {
  at: number;
  data: Record<string, unknown>;
}

/** How far back `recent` looks, in events. */
const RECENT_WINDOW = 200;

/** Deferred events written at the latest with this many waiting. */
const MAX_PENDING = 50;

/** Events that record what `context` showed: written when it changes, counted when it repeats. */
type ChangeEvent = "skill_directory_rendered" | "skills_retrieved";

interface Pending {
  type: EventType;
  data: Record<string, unknown>;
  at: number;
}

/**
 * The event log. Events on read paths are deferred: kept in memory and written by the session
 * object right after the response (`flush` in a transaction of its own), or earlier with the
 * operation's own writes — so a search never waits for its telemetry. No acknowledged event is
 * lost: events flushed inside an operation that then fails are put back (`rollback`), and the
 * object flushes what is pending after every request.
 */
export class EventLog {
  #pending: Pending[] = [];
  /** Deferred events written inside the current operation's transaction, until it commits. */
  #inTransaction: Pending[] = [];
  /** Per change event: the digest of what was last recorded, and how often it repeated since. */
  #last = new Map<ChangeEvent, { digest: string; repeated: number }>();

  constructor(
    private readonly sql: Sql,
    private readonly label: () => { tenant: string; sid: string },
  ) {}

  record(type: EventType, data: Record<string, unknown>, now = Date.now()): void {
    this.flush();
    this.insert(type, data, now);
  }

  /**
   * Records an event after the response instead of now. For events on read paths (tool_search): a
   * write makes the response wait until storage confirms it, and a search should not wait for its
   * own telemetry. Its log line goes out when it is written (with its own `at`).
   */
  defer(type: EventType, data: Record<string, unknown>, now = Date.now()): void {
    this.#pending.push({ type, data, at: now });
    if (this.#pending.length >= MAX_PENDING) this.flush();
  }

  /**
   * Defers `type` only when `digest` (what was shown) differs from the last one recorded; a repeat
   * is counted instead, and the count goes out with the next change as `repeated`. Returns whether
   * it changed. The last digest survives restarts: it is read back from the log.
   */
  deferChange(type: ChangeEvent, digest: string, data: Record<string, unknown>, now = Date.now()): boolean {
    const last = this.#last.get(type) ?? this.lastRecorded(type);
    if (last && last.digest === digest) {
      last.repeated++;
      this.#last.set(type, last);
      return false;
    }
    this.defer(type, { ...data, digest, repeated: last?.repeated ?? 0 }, now);
    this.#last.set(type, { digest, repeated: 0 });
    return true;
  }

  /**
   * The newest `limit` events of `type` (deferred ones included), newest first, recorded after
   * `after` and no later than `until` (ms since the epoch).
   */
  recent(type: EventType, limit: number, after: number, until = Number.POSITIVE_INFINITY): RecentEvent[] {
    const waiting = [...this.#inTransaction, ...this.#pending]
      .filter((e) => e.type === type && e.at > after && e.at <= until)
      .reverse()
      .map((e) => ({ at: e.at, data: e.data }));
    if (waiting.length >= limit) return waiting.slice(0, limit);
    const stored = this.sql
      .all<{ data: string; at: number }>(
        // Only the last RECENT_WINDOW events are looked at, so a log without a match costs little.
        `SELECT data, at FROM trove_events
         WHERE id > (SELECT max(id) FROM trove_events) - ${RECENT_WINDOW} AND type = ? AND at > ? AND at <= ?
         ORDER BY id DESC LIMIT ?`,
        type,
        after,
        Number.isFinite(until) ? until : Number.MAX_SAFE_INTEGER,
        limit - waiting.length,
      )
      .map((r) => ({ at: r.at, data: JSON.parse(r.data) as Record<string, unknown> }));
    return [...waiting, ...stored];
  }

  /** Whether deferred events wait to be written. */
  hasPending(): boolean {
    return this.#pending.length > 0;
  }

  /** Writes deferred events (inside a transaction: the operation's own, or one of their own). */
  flush(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    this.#inTransaction.push(...pending);
    for (const e of pending) this.insert(e.type, e.data, e.at);
  }

  /** The transaction that wrote the flushed events committed. */
  commit(): void {
    this.#inTransaction = [];
  }

  /** The transaction rolled back: the events it had flushed wait again, first. */
  rollback(): void {
    this.#pending = [...this.#inTransaction, ...this.#pending];
    this.#inTransaction = [];
  }

  /** Forgets deferred events (the session's storage is being erased). */
  discard(): void {
    this.#pending = [];
    this.#inTransaction = [];
    this.#last.clear();
  }

  private lastRecorded(type: ChangeEvent): { digest: string; repeated: number } | undefined {
    const row = this.sql.one<{ digest: string | null }>(
      `SELECT data->>'digest' AS digest FROM trove_events WHERE type = ? ORDER BY id DESC LIMIT 1`,
      type,
    );
    return row?.digest ? { digest: row.digest, repeated: 0 } : undefined;
  }

  private insert(type: EventType, data: Record<string, unknown>, now: number): void {
    const { id } = this.sql.one<{ id: number }>(
      `INSERT INTO trove_events (type, at, data) VALUES (?, ?, ?) RETURNING id`,
      type,
      now,
      JSON.stringify(data),
    ) ?? { id: 0 };
    if (id > MAX_EVENTS) this.sql.run(`DELETE FROM trove_events WHERE id <= ?`, id - MAX_EVENTS);
    this.log(type, id, data, now);
  }

  private log(type: EventType, id: number | null, data: Record<string, unknown>, now: number): void {
    console.log(JSON.stringify({ event: type, id, at: new Date(now).toISOString(), ...this.label(), data }));
  }

  /**
   * Up to `limit` events before `before` (an event id; null: the newest), newest first, skipping
   * events about tools the policy does not allow now, as `list` does. `next_cursor` is the oldest id
   * looked at (pass it as `before`); 0 when the log has nothing older.
   */
  listNewest(
    before: number | null,
    limit: number,
    allows: (tool: string) => boolean,
  ): { events: SessionEvent[]; next_cursor: number } {
    const events: SessionEvent[] = [];
    let cursor = before ?? Number.MAX_SAFE_INTEGER;
    for (;;) {
      const rows = this.sql.all<EventRow>(
        `SELECT id, type, at, data, data->>'tool_name' AS tool FROM trove_events
         WHERE id < ? ORDER BY id DESC LIMIT ?`,
        cursor,
        limit - events.length,
      );
      for (const r of rows) {
        cursor = r.id;
        if (r.tool === null || allows(r.tool)) events.push(toEvent(r, allows));
      }
      if (rows.length === 0) return { events, next_cursor: 0 };
      if (events.length >= limit) return { events, next_cursor: cursor };
    }
  }

  /**
   * Up to `limit` events after `since` (an event id), oldest first. Events about a tool the policy
   * does not allow now (or that is gone) are left out, so the log never names a denied tool; the
   * page is filled from later events instead, and an empty page means the end.
   */
  list(
    since: number,
    limit: number,
    allows: (tool: string) => boolean,
  ): { events: SessionEvent[]; next_cursor: number } {
    const events: SessionEvent[] = [];
    let cursor = since;
    for (;;) {
      const rows = this.sql.all<EventRow>(
        `SELECT id, type, at, data, data->>'tool_name' AS tool FROM trove_events
         WHERE id > ? ORDER BY id LIMIT ?`,
        cursor,
        limit - events.length,
      );
      for (const r of rows) {
        cursor = r.id;
        if (r.tool === null || allows(r.tool)) events.push(toEvent(r, allows));
      }
      if (rows.length === 0 || events.length >= limit) return { events, next_cursor: cursor };
    }
  }
}

interface EventRow {
  id: number;
  type: EventType;
  at: number;
  data: string;
  /** The tool the event names: it is shown only while the policy allows that tool. */
  tool: string | null;
}

function toEvent(r: EventRow, allows: (tool: string) => boolean): SessionEvent {
  const data = JSON.parse(r.data) as Record<string, unknown>;
  // A published catalog's changed tools (catalog_synced): only those the policy allows now.
  if (Array.isArray(data.changes)) {
    data.changes = (data.changes as { name: string }[]).filter((c) => allows(c.name));
  }
  return { id: r.id, type: r.type, at: new Date(r.at).toISOString(), data };
}
