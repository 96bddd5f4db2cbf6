// What crosses between a session's object, the worker and the tenant's analytics object.
import type { DayBatch } from "./analytics-batch";
import type { Series, ToolDays, ToolStats } from "./analytics-store";

export type { DayBatch, Series, ToolDays, ToolStats };

/** The tenant's analytics object as sessions and the worker see it through a stub. */
export interface AnalyticsRpc extends Rpc.DurableObjectBranded {
  /** Merges one session's batch; returns the rows written. `tenant` indexes Analytics Engine's points. */
  record(tenant: string, batch: DayBatch[]): Promise<number>;
  series(
    from: string,
    to: string,
    bucket: "day" | "week",
    threshold: number,
    wordingLimit: number,
  ): Promise<Series>;
  tools(from: string, to: string, limit: number): Promise<ToolStats>;
  tool(name: string, from: string, to: string): Promise<ToolDays>;
}
