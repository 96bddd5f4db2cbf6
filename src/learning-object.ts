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
  /** Whether the schema is in place (checked once; a tenant that never taught has none). */
  #ready = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new LearningStore(createSql(ctx.storage.sql));
    // A store that exists is brought to the current schema (a first-version store of queries is
    // converted to words) before anything reads it; a tenant that never taught stays empty.
    if (this.#store.exists()) this.ensureReady();
  }

  async record(from: LearningSource, uses: LearnedUse[]): Promise<number> {
    this.ensureReady();
    return this.ctx.storage.transactionSync(() => this.#store.record(from, uses, Date.now()));
  }

  async changedSince(since: number): Promise<{ version: number; tools: ServedTool[] }> {
    return this.#ready ? this.#store.changedSince(since) : { version: 0, tools: [] };
  }

  async state(): Promise<LearningState> {
    return this.#ready ? this.#store.state() : EMPTY_STATE;
  }

  async tool(name: string): Promise<LearnedTool | null> {
    return this.#ready ? this.#store.tool(name, Date.now()) : null;
  }

  async forget(tool: string | null): Promise<number> {
    if (!this.#ready) return 0;
    return this.ctx.storage.transactionSync(() => this.#store.forget(tool, Date.now()));
  }

  private ensureReady(): void {
    if (this.#ready) return;
    this.ctx.storage.transactionSync(() => this.#store.migrate(Date.now()));
    this.#ready = true;
  }
}

/** What a tenant that never taught anything has learned: reading it writes nothing. */
const EMPTY_STATE: LearningState = {
  rows: 0,
  merged: 0,
  tools: 0,
  sources: 0,
  version: 0,
  last_merge_at: null,
};
