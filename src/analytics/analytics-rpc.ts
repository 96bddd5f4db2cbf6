// What crosses between a session's object, the worker and the tenant's analytics object.
import type { DayBatch } from "./analytics-batch";
import type { RecentSessions, Series, ToolDays, ToolStats } from "./analytics-store";

export type { DayBatch, RecentSessions, Series, ToolDays, ToolStats };

/** The tenant's analytics object as sessions and the worker see it through a stub. */
export interface AnalyticsRpc extends Rpc.DurableObjectBranded {
  /**
   * Takes one session's batch (written with others within seconds); returns the days taken.
   * `tenant` indexes Analytics Engine's points; `session` joins the recent sessions the console
   * links to /inspect.
   */
  record(tenant: string, batch: DayBatch[], session?: string): Promise<number>;
  sessions(limit: number): Promise<RecentSessions>;
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
