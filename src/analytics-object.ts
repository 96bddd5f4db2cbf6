// The tenant's analytics object: one per tenant (named by it), holding daily counts of what its
// sessions did (src/analytics/analytics-store.ts). Sessions send batches after their responses;
// the worker's /v1/analytics routes read them. Its name is the key's tenant, so no other tenant's
// session reaches it.
import { DurableObject } from "cloudflare:workers";
import type { DayBatch } from "./analytics/analytics-batch";
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

export class AnalyticsObject extends DurableObject<Env> implements AnalyticsRpc {
  readonly #store: AnalyticsStore;
  #ready = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new AnalyticsStore(createSql(ctx.storage.sql));
    this.#ready = this.#store.exists();
  }

  async record(tenant: string, batch: DayBatch[], session?: string): Promise<number> {
    if (!Array.isArray(batch) || batch.length === 0) return 0;
    if (!this.#ready) {
      this.ctx.storage.transactionSync(() => this.#store.migrate());
      this.#ready = true;
    }
    const written = this.ctx.storage.transactionSync(() => this.#store.record(batch, Date.now(), session));
    writeDataPoints(this.env.ANALYTICS_ENGINE, tenant, batch);
    return written;
  }

  async series(
    from: string,
    to: string,
    bucket: "day" | "week",
    threshold: number,
    limit: number,
  ): Promise<Series> {
    if (!this.#ready) return emptySeries(from, to, bucket, threshold);
    return this.#store.series(from, to, bucket, threshold, limit);
  }

  async tools(from: string, to: string, limit: number): Promise<ToolStats> {
    return this.#ready ? this.#store.tools(from, to, limit) : { from, to, tools: [], never_found: [] };
  }

  async sessions(limit: number): Promise<RecentSessions> {
    return this.#ready ? this.#store.sessions(limit) : { sessions: [] };
  }

  async tool(name: string, from: string, to: string): Promise<ToolDays> {
    return this.#ready ? this.#store.tool(name, from, to) : { tool: name, days: [] };
  }
}
