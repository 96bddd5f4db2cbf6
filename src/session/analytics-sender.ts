// The session object's side of the tenant's analytics (issue 32): counts each finished operation in
// memory (src/analytics/session-analytics.ts) and sends them to the tenant's analytics object a
// second after a response, one send at a time; what the object does not take waits in the session's
// outbox for the next send. Nothing here runs on a request's path but the in-memory count.
import type { AnalyticsRpc } from "../analytics/analytics-rpc";
import type { SessionAnalytics } from "../analytics/session-analytics";
import type { SessionAddress, StorageCost } from "../ops/dispatch";
import { withTimeout } from "../timeout";

/** How long after a response its counts wait for the rest of the burst before they are sent. */
const SEND_DELAY_MS = 1_000;
/** How long a send waits for the analytics object before its batch goes to the outbox. */
const WAIT_MS = 5_000;

/** What the sender needs of the session object. */
export interface AnalyticsSenderHost {
  analytics: SessionAnalytics;
  /** The ANALYTICS binding; undefined where the deployment has none (nothing is counted then). */
  namespace(): DurableObjectNamespace<AnalyticsRpc> | undefined;
  address(): SessionAddress;
  /** Whether the session's schema is in place (false right after an erase). */
  ready(): boolean;
  transaction<T>(fn: () => T): T;
  waitUntil(promise: Promise<unknown>): void;
}

export class AnalyticsSender {
  #scheduled = false;

  constructor(private readonly host: AnalyticsSenderHost) {}

  /** Counts a finished operation (value undefined when it failed), in memory: nothing is written. */
  observe(name: string, input: unknown, value: unknown, cost: StorageCost, at: number): void {
    if (!this.host.namespace()) return;
    this.host.analytics.observe({
      name,
      input,
      value,
      rowsRead: cost.rows_read,
      rowsWritten: cost.rows_written,
      at,
    });
  }

  /** Schedules a send after the response, unless one is scheduled or nothing waits. */
  schedule(): void {
    const { analytics } = this.host;
    if (this.#scheduled || !this.host.ready() || !this.host.namespace() || !analytics.hasPending()) return;
    this.#scheduled = true;
    // A turn's requests (context, searches, resolves) come in a burst: they go in one send.
    const sent = new Promise<void>((resolve) => setTimeout(resolve, SEND_DELAY_MS))
      .then(() => this.send())
      .finally(() => {
        this.#scheduled = false;
        // Counted while this send was under way: the next goes after its own delay.
        if (this.host.ready() && analytics.hasPending()) this.schedule();
      });
    this.host.waitUntil(sent);
  }

  private async send(): Promise<void> {
    const { analytics } = this.host;
    const ns = this.host.namespace();
    const { tenant, sid } = this.host.address();
    if (!ns || !this.host.ready() || !tenant) return;
    const batch = this.host.transaction(() => analytics.take());
    if (batch.length === 0) return;
    try {
      await withTimeout(ns.get(ns.idFromName(tenant)).record(tenant, batch, sid), WAIT_MS);
      if (this.host.ready()) this.host.transaction(() => analytics.sent());
    } catch (err) {
      console.error(JSON.stringify({ msg: "analytics send failed", error: String(err), days: batch.length }));
      if (this.host.ready()) this.host.transaction(() => analytics.failed(batch));
    }
  }
}
