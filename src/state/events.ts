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

/** Deferred events written at the latest with this many waiting. */
const MAX_PENDING = 50;

export class EventLog {
  #pending: { type: EventType; data: Record<string, unknown>; at: number }[] = [];

  constructor(
    private readonly sql: Sql,
    private readonly label: () => { tenant: string; sid: string },
  ) {}

  record(type: EventType, data: Record<string, unknown>, now = Date.now()): void {
    this.flush();
    this.insert(type, data, now);
  }

  /**
   * Records an event with the session's next write instead of now. For events on read paths
   * (tool_search): a write makes the response wait until storage confirms it, and a search should
   * not wait for its own telemetry. Its log line goes out when it is written (with its own `at`).
   * At most MAX_PENDING wait; an object evicted before its next write loses them.
   */
  defer(type: EventType, data: Record<string, unknown>, now = Date.now()): void {
    this.#pending.push({ type, data, at: now });
    if (this.#pending.length >= MAX_PENDING) this.flush();
  }

  /** Writes deferred events (call inside the transaction of an operation that writes anyway). */
  flush(): void {
    const pending = this.#pending;
    if (pending.length === 0) return;
    this.#pending = [];
    for (const e of pending) this.insert(e.type, e.data, e.at);
  }

  /** Forgets deferred events (the session's storage is being erased). */
  discard(): void {
    this.#pending = [];
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
   * Up to `limit` events after `since` (an event id), oldest first. Events about a tool the policy
   * does not allow now (or that is gone) are left out, so the log never names a denied tool; the
   * page is filled from later events instead, and an empty page means the end.
   */
  list(since: number, limit: number): { events: SessionEvent[]; next_cursor: number } {
    const events: SessionEvent[] = [];
    let cursor = since;
    for (;;) {
      const rows = this.sql.all<{ id: number; type: EventType; at: number; data: string; hidden: number }>(
        `SELECT e.id, e.type, e.at, e.data,
           (e.data->>'tool_name' IS NOT NULL AND NOT EXISTS (
              SELECT 1 FROM trove_tools AS t WHERE t.name = e.data->>'tool_name' AND t.allowed = 1)) AS hidden
         FROM trove_events AS e WHERE e.id > ? ORDER BY e.id LIMIT ?`,
        cursor,
        limit - events.length,
      );
      for (const r of rows) {
        cursor = r.id;
        if (r.hidden) continue;
        events.push({
          id: r.id,
          type: r.type,
          at: new Date(r.at).toISOString(),
          data: JSON.parse(r.data) as Record<string, unknown>,
        });
      }
      if (rows.length === 0 || events.length >= limit) return { events, next_cursor: cursor };
    }
  }
}
