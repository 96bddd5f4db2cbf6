// The tenant's learning object: one per tenant (named by it), holding what all the tenant's
// sessions taught its ranking (src/learning/learning-store.ts). Sessions send it uses after their
// responses and read learned terms at most once a minute; the worker's /v1/learning routes read
// and clear it. No other tenant's session can reach it: its name is the key's tenant.
import { DurableObject } from "cloudflare:workers";
import { createSql } from "./db/sql";
import type { Env } from "./env";
import type { LearningRpc } from "./learning/learning-rpc";
import {
  type LearnedTool,
  type LearnedUse,
  type LearningSource,
  type LearningState,
  LearningStore,
  type ServedTool,
} from "./learning/learning-store";

export class LearningObject extends DurableObject<Env> implements LearningRpc {
  readonly #store: LearningStore;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new LearningStore(createSql(ctx.storage.sql));
    // Schema, and the one-time conversion of a first-version store (queries) to terms.
    ctx.storage.transactionSync(() => this.#store.migrate(Date.now()));
  }

  async record(from: LearningSource, uses: LearnedUse[]): Promise<number> {
    return this.ctx.storage.transactionSync(() => this.#store.record(from, uses, Date.now()));
  }

  async changedSince(since: number): Promise<{ version: number; tools: ServedTool[] }> {
    return this.#store.changedSince(since);
  }

  async state(): Promise<LearningState> {
    return this.#store.state();
  }

  async tool(name: string): Promise<LearnedTool | null> {
    return this.#store.tool(name, Date.now());
  }

  async forget(tool: string | null): Promise<number> {
    return this.ctx.storage.transactionSync(() => this.#store.forget(tool, Date.now()));
  }
}
