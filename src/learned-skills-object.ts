// The tenant's learned skills (issue 31): one object per tenant (named by it) holding the lessons
// its sessions' runs submitted (src/lessons/lesson-store.ts). Sessions send lessons and feedback
// after their responses and copy approved lessons at most once a minute; the worker's
// /v1/learned-skills routes review them. No other tenant's session can reach it: its name is the
// key's tenant.
import { DurableObject } from "cloudflare:workers";
import { createSql, type Sql } from "./db/sql";
import type { Env } from "./env";
import type { FeedbackSubmission, LessonSubmission } from "./lessons/lesson";
import {
  DEFAULT_POLICY,
  type IngestResult,
  type LearnedPolicy,
  type LessonStatus,
  LessonStore,
  type LessonView,
  type ServedLesson,
} from "./lessons/lesson-store";
import type { LearnedSkillsRpc } from "./lessons/lessons-rpc";

export class LearnedSkillsObject extends DurableObject<Env> implements LearnedSkillsRpc {
  /** The object's SQL; its stats count rows read and written (the bench reads them). */
  readonly sql: Sql;
  readonly #store: LessonStore;
  /** Whether the schema is in place (a tenant that never learned has none, and reading writes none). */
  #ready = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = createSql(ctx.storage.sql);
    this.#store = new LessonStore(this.sql);
    if (this.#store.exists()) this.ensureReady();
  }

  async ingest(lessons: LessonSubmission[], feedback: FeedbackSubmission[]): Promise<IngestResult> {
    this.ensureReady();
    return this.ctx.storage.transactionSync(() => this.#store.ingest(lessons, feedback, Date.now()));
  }

  async changedSince(
    since: number,
    project: string,
  ): Promise<{ version: number; lessons: ServedLesson[]; more: boolean; policy: LearnedPolicy }> {
    return this.#ready
      ? this.#store.changedSince(since, project)
      : { version: 0, lessons: [], more: false, policy: DEFAULT_POLICY };
  }

  async list(status: LessonStatus | null, limit: number) {
    if (!this.#ready)
      return {
        lessons: [],
        counts: { pending: 0, approved: 0, rejected: 0 },
        dropped: 0,
        policy: DEFAULT_POLICY,
      };
    return { ...this.#store.list(status, limit), policy: this.#store.policy() };
  }

  async get(name: string): Promise<LessonView | null> {
    return this.#ready ? this.#store.get(name) : null;
  }

  async review(name: string, status: "approved" | "rejected"): Promise<LessonView | null> {
    if (!this.#ready) return null;
    return this.ctx.storage.transactionSync(() => this.#store.review(name, status, Date.now()));
  }

  async remove(name: string): Promise<boolean> {
    if (!this.#ready) return false;
    return this.ctx.storage.transactionSync(() => this.#store.remove(name));
  }

  async policy(): Promise<LearnedPolicy> {
    return this.#ready ? this.#store.policy() : DEFAULT_POLICY;
  }

  async setPolicy(policy: LearnedPolicy): Promise<LearnedPolicy> {
    this.ensureReady();
    return this.ctx.storage.transactionSync(() => this.#store.setPolicy(policy));
  }

  private ensureReady(): void {
    if (this.#ready) return;
    this.ctx.storage.transactionSync(() => this.#store.migrate());
    this.#ready = true;
  }
}
