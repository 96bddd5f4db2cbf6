// The tenant's analytics object: one per tenant (named by it), holding daily counts of what its
// sessions did (src/analytics/analytics-store.ts). Sessions send batches after their responses;
// the worker's /v1/analytics routes read them. Its name is the key's tenant, so no other tenant's
// session reaches it.
import { DurableObject } from "cloudflare:workers";
import { combineDays, type DayBatch } from "./analytics/analytics-batch";
import { writeDataPoints } from "./analytics/analytics-engine";
import type { AnalyticsRpc } from "./analytics/analytics-rpc";
import {
  AnalyticsStore,
  emptySeries,
  type RecentSessions,
  type Series,
  type ToolDays,
  type ToolStats,
} from "./analytics/analytics-store";
import { createSql } from "./db/sql";
import type { Env } from "./env";

/** Batches held in memory at most this long before they are written… */
const FLUSH_MS = 10_000;
/** …or until this many are held. */
const FLUSH_BATCHES = 500;

export class AnalyticsObject extends DurableObject<Env> implements AnalyticsRpc {
  readonly #store: AnalyticsStore;
  #ready = false;
  /** Batches taken and not yet written (see record). */
  #pending: DayBatch[] = [];
  #sessions = new Map<string, { requests: number; days: Set<string> }>();
  #alarmSet = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new AnalyticsStore(createSql(ctx.storage.sql));
    this.#ready = this.#store.exists();
  }

  /**
   * Takes one session's batch into memory; it reaches SQLite with the others of the next
   * FLUSH_MS (or at FLUSH_BATCHES), merged: a tool found by many searches of many sessions is one
   * row written, not one per search. Returns the days taken.
   */
  async record(tenant: string, batch: DayBatch[], session?: string): Promise<number> {
    if (!Array.isArray(batch) || batch.length === 0) return 0;
    this.#pending.push(...batch);
    if (session) {
      const held = this.#sessions.get(session) ?? { requests: 0, days: new Set<string>() };
      for (const day of batch) {
        held.requests += Number(day.counts?.requests) || 0;
        held.days.add(day.day);
      }
      this.#sessions.set(session, held);
    }
    writeDataPoints(this.env.ANALYTICS_ENGINE, tenant, batch);
    if (this.#pending.length >= FLUSH_BATCHES) this.flush();
    else if (!this.#alarmSet) {
      this.#alarmSet = true;
      await this.ctx.storage.setAlarm(Date.now() + FLUSH_MS);
    }
    return batch.length;
  }

  override async alarm(): Promise<void> {
    this.#alarmSet = false;
    this.flush();
  }

  /** Writes what is held in memory, in one transaction. */
  private flush(): void {
    if (this.#pending.length === 0) return;
    const days = combineDays(this.#pending);
    const sessions = this.#sessions;
    this.#pending = [];
    this.#sessions = new Map();
    if (!this.#ready) {
      this.ctx.storage.transactionSync(() => this.#store.migrate());
      this.#ready = true;
    }
    try {
      this.ctx.storage.transactionSync(() => this.#store.record(days, Date.now(), sessions));
    } catch (err) {
      // Counts are lost rather than the read that flushed them failing; the store is unchanged.
      console.error(JSON.stringify({ msg: "analytics flush failed", error: String(err), days: days.length }));
    }
  }

  async series(
    from: string,
    to: string,
    bucket: "day" | "week",
    threshold: number,
    limit: number,
  ): Promise<Series> {
    this.flush();
    if (!this.#ready) return emptySeries(from, to, bucket, threshold);
    return this.#store.series(from, to, bucket, threshold, limit);
  }

  async tools(from: string, to: string, limit: number): Promise<ToolStats> {
    this.flush();
    return this.#ready ? this.#store.tools(from, to, limit) : { from, to, tools: [], never_found: [] };
  }

  async sessions(limit: number): Promise<RecentSessions> {
    this.flush();
    return this.#ready ? this.#store.sessions(limit) : { sessions: [] };
  }

  async tool(name: string, from: string, to: string): Promise<ToolDays> {
    this.flush();
    return this.#ready ? this.#store.tool(name, from, to) : { tool: name, days: [] };
  }
}
