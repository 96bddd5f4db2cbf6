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
  | "catalog_synced";

export interface SessionEvent {
  id: number;
  type: EventType;
  at: string;
  data: Record<string, unknown>;
}

export class EventLog {
  constructor(
    private readonly sql: Sql,
    private readonly label: () => { tenant: string; sid: string },
  ) {}

  record(type: EventType, data: Record<string, unknown>, now = Date.now()): void {
    const json = JSON.stringify(data);
    const { id } = this.sql.one<{ id: number }>(
      `INSERT INTO trove_events (type, at, data) VALUES (?, ?, ?) RETURNING id`,
      type,
      now,
      json,
    ) ?? { id: 0 };
    if (id > MAX_EVENTS) this.sql.run(`DELETE FROM trove_events WHERE id <= ?`, id - MAX_EVENTS);
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
