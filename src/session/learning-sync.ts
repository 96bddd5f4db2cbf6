// The session object's exchanges with the tenant's learning object (issue 27). Before a search it
// brings the index's learned text up to what the tenant learned, at most once a minute and within
// LEARNING_WAIT_MS; after a response it sends the uses this session taught, and what the tenant's
// object does not take waits in trove_learning_outbox for the next send.
import type { Sql } from "../db/sql";
import type { LearningRpc } from "../learning/learning-rpc";
import type { LearnedUse, SessionLearning } from "../learning/session-learning";
import type { SessionAddress } from "../ops/dispatch";
import type { SessionConfig } from "../state/config";
import { withTimeout } from "../timeout";
import { AfterResponse } from "./after-response";

/** How long a request waits for the tenant's learning objects before serving what it has. */
export const LEARNING_WAIT_MS = 250;
/** Uses sent at once from the outbox. */
const OUTBOX_BATCH = 200;

/** What the exchanges need of the session object. */
export interface LearningSyncHost {
  sql: Sql;
  learning: SessionLearning;
  config(): SessionConfig;
  /** The tenant's learning object; null where the deployment binds none. */
  stub(): DurableObjectStub<LearningRpc> | null;
  address(): SessionAddress;
  /** Whether the session's schema is in place (false right after an erase). */
  ready(): boolean;
  /** The tools' ids, by name: learned text goes to the tools the session holds. */
  toolIds(): ReadonlyMap<string, number>;
  /** `tools` had their learned text rewritten in the index. */
  learnedChanged(tools: number): void;
  transaction<T>(fn: () => T): T;
  waitUntil(promise: Promise<unknown>): void;
}

export class LearningSync {
  /** Whether uses the tenant's object did not take wait in the outbox (null: not read yet). */
  #outbox: boolean | null = null;
  // One send at a time: a send waits on the tenant's object, and another would read the same rows.
  readonly #send = new AfterResponse(
    () => this.send(),
    (sent) => this.host.waitUntil(sent),
  );

  constructor(private readonly host: LearningSyncHost) {}

  /**
   * Brings the index's learned text up to what the tenant learned, when it may be more than a
   * minute old. A slow or failed call leaves the ranking as it was and is tried again later.
   */
  async refresh(now: number): Promise<void> {
    const { learning } = this.host;
    const { enabled, ...thresholds } = this.host.config().learning;
    if (!enabled) {
      this.host.learnedChanged(this.host.transaction(() => learning.clear()));
      return;
    }
    const stub = this.host.stub();
    if (!stub || !learning.stale(now, thresholds)) return;
    learning.retryLater(now);
    try {
      const changes = await withTimeout(stub.changedSince(learning.version), LEARNING_WAIT_MS);
      this.host.learnedChanged(
        this.host.transaction(() =>
          learning.apply(changes.version, changes.tools, this.host.toolIds(), thresholds, now),
        ),
      );
    } catch (err) {
      console.error(JSON.stringify({ msg: "learning refresh failed", error: String(err) }));
    }
  }

  /** Reads whether uses wait in the outbox: once per start, with the schema in place. */
  start(): void {
    this.#outbox ??= this.outboxHolds();
  }

  /** Sends what this session taught after the response, when anything waits. */
  schedule(): void {
    if (this.host.ready() && (this.host.learning.hasPending() || this.#outbox)) this.#send.request();
  }

  /** The session's storage was erased. */
  reset(): void {
    this.#outbox = null;
  }

  private async send(): Promise<void> {
    const { sql, learning } = this.host;
    const stub = this.host.stub();
    if (!stub || !this.host.ready()) return;
    const fresh = learning.take();
    const stored = this.#outbox
      ? sql.all<{ id: number; use: string }>(
          `SELECT id, use FROM trove_learning_outbox ORDER BY id LIMIT ?`,
          OUTBOX_BATCH,
        )
      : [];
    const uses = [...stored.map((row) => JSON.parse(row.use) as LearnedUse), ...fresh];
    if (uses.length === 0) return;
    try {
      await stub.record({ session: this.host.address().sid, user: this.host.config().user }, uses);
      if (stored.length > 0) {
        const last = stored.at(-1)?.id ?? 0;
        this.host.transaction(() => sql.run(`DELETE FROM trove_learning_outbox WHERE id <= ?`, last));
        this.#outbox = this.outboxHolds();
      }
      this.schedule();
    } catch (err) {
      console.error(JSON.stringify({ msg: "learning send failed", error: String(err), uses: uses.length }));
      if (fresh.length === 0) return;
      this.host.transaction(() => {
        for (const use of fresh)
          sql.run(`INSERT INTO trove_learning_outbox (use) VALUES (?)`, JSON.stringify(use));
      });
      this.#outbox = true;
    }
  }

  private outboxHolds(): boolean {
    return this.host.sql.one(`SELECT 1 AS x FROM trove_learning_outbox LIMIT 1`) !== undefined;
  }
}
