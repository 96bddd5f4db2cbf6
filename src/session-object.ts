// The per-session Durable Object: owns start-up (schema, packs), lifetime (the idle alarm, in
// session/lifetime.ts) and dispatch (each operation inside one transaction).
import { DurableObject } from "cloudflare:workers";
import { SessionAnalytics } from "./analytics/session-analytics";
import { migrate } from "./db/migrations";
import { createSql, type Sql } from "./db/sql";
import type { Env } from "./env";
import { TroveError } from "./errors";
import { BUNDLE } from "./generated/packs";
import { SessionLessons } from "./lessons/session-lessons";
import type { OpResult, SessionAddress, SessionRpc, StorageCost } from "./ops/dispatch";
import { renormalizeSession } from "./session/index-text";

export type { OpResult, SessionAddress };

import { SessionLearning } from "./learning/session-learning";
import { reconcileBroughtTools } from "./ops/brought-tools";
import { modelToolNames } from "./ops/builtins";
import type { OpContext, Operation } from "./ops/operation";
import { OPERATIONS, OPERATIONS_BY_NAME } from "./ops/registry";
import { AttachmentStore } from "./packs/attachments";
import type { Bundle } from "./packs/bundle";
import type { CatalogRpc } from "./published/catalog-rpc";
import { type CatalogStep, SessionCatalog } from "./published/session-catalog";
import { AfterResponse } from "./session/after-response";
import { AnalyticsSender } from "./session/analytics-sender";
import { LearningSync } from "./session/learning-sync";
import { LessonSync } from "./session/lesson-sync";
import { Lifetime } from "./session/lifetime";
import { loadPacks } from "./skills/pack-upsert";
import { SkillStore, skillPolicy } from "./skills/skill-store";
import { ConfigStore, type SessionConfig } from "./state/config";
import { EventLog, type EventType } from "./state/events";
import { ActivationStore } from "./tools/activation";
import { ApprovalStore } from "./tools/approvals";
import { CatalogStore } from "./tools/catalog-store";
import { visibilityFor } from "./tools/policy";

export class SessionObject extends DurableObject<Env> implements SessionRpc {
  readonly sql: Sql;
  readonly config: ConfigStore;
  readonly catalog: CatalogStore;
  readonly activations: ActivationStore;
  readonly approvals: ApprovalStore;
  readonly events: EventLog;
  readonly skills: SkillStore;
  readonly attachments: AttachmentStore;
  readonly learning: SessionLearning;
  readonly published: SessionCatalog;
  readonly analytics: SessionAnalytics;
  readonly lessons: SessionLessons;
  /** The packs compiled into this build; tests may point a session at another bundle. */
  bundle: Bundle = BUNDLE;
  /** The bundle/tenant/project combination whose packs are loaded, once checked. */
  #packsKey: string | null = null;
  #address: SessionAddress = { tenant: "", sid: "" };
  #ready = false;
  #eraseRequested = false;
  readonly #learningSync: LearningSync;
  readonly #lessonSync: LessonSync;
  /** Deferred events, written right after the response in a transaction of their own. */
  readonly #eventFlush = new AfterResponse(() => this.flushEvents());
  /** The tools' index merged right after a response that rewrote enough of it. */
  readonly #indexTidy = new AfterResponse(() => this.tidyIndex());
  readonly #lifetime: Lifetime;
  readonly #analyticsSender: AnalyticsSender;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = createSql(ctx.storage.sql);
    this.config = new ConfigStore(this.sql);
    this.catalog = new CatalogStore(this.sql, modelToolNames(OPERATIONS));
    this.activations = new ActivationStore(this.sql);
    this.approvals = new ApprovalStore(this.sql);
    this.events = new EventLog(this.sql, () => this.#address);
    this.skills = new SkillStore(this.sql);
    this.attachments = new AttachmentStore(this.sql);
    this.learning = new SessionLearning(this.sql, this.events, (word) => this.catalog.stats.knows(word));
    this.published = new SessionCatalog(this.sql);
    // A connection of its own: what analytics reads and writes after a response is no request's cost.
    this.analytics = new SessionAnalytics(createSql(ctx.storage.sql), (word) =>
      this.catalog.stats.knows(word),
    );
    // What the work after a response needs of this object.
    const shared = {
      config: () => this.config.get(),
      address: () => this.#address,
      ready: () => this.#ready,
      transaction: <T>(fn: () => T) => ctx.storage.transactionSync(fn),
      waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise),
    };
    this.#analyticsSender = new AnalyticsSender({
      ...shared,
      analytics: this.analytics,
      namespace: () => this.env.ANALYTICS,
    });
    this.lessons = new SessionLessons(this.sql);
    this.skills.weighWith((qid) => this.lessons.weight(qid, Date.now()));
    this.#learningSync = new LearningSync({
      ...shared,
      sql: this.sql,
      learning: this.learning,
      stub: () => this.tenantStub(this.env.LEARNING),
      toolIds: () => this.catalog.ids(),
      learnedChanged: (tools) => this.learnedChanged(tools),
    });
    this.#lessonSync = new LessonSync({
      ...shared,
      lessons: this.lessons,
      stub: () => this.tenantStub(this.env.LEARNED_SKILLS),
      skillsChanged: () => this.skills.invalidate(),
    });
    this.#lifetime = new Lifetime({
      sql: this.sql,
      transaction: (fn) => ctx.storage.transactionSync(fn),
      setAlarm: (at) => ctx.storage.setAlarm(at),
      ttlSeconds: () => this.config.get().ttl_seconds,
      prune: (now) => this.activations.pruneExpired(now),
    });
    this.ensureReady();
  }

  /**
   * Runs one operation on already-validated input. Expected failures come back as values, so the
   * worker can map them to HTTP without relying on how errors cross the RPC boundary.
   */
  async run(name: string, input: unknown, address: SessionAddress): Promise<OpResult> {
    const op = OPERATIONS_BY_NAME.get(name);
    if (!op) {
      return failure(
        new TroveError("unknown_operation", 404, `no operation named "${name}"`, { field: "operation" }),
      );
    }
    this.#address = address;
    const now = Date.now();
    const before = { ...this.sql.stats };
    const cost = (): { cost: StorageCost } => ({
      cost: {
        rows_read: this.sql.stats.rowsRead - before.rowsRead,
        rows_written: this.sql.stats.rowsWritten - before.rowsWritten,
      },
    });
    try {
      this.#eraseRequested = false;
      this.ensureReady();
      // Idle past its TTL, the session is gone even when its alarm has not run yet (alarms can be
      // late): erase it as the alarm would, and serve the request as a new session.
      if (this.#lifetime.expired(now)) {
        await this.erase();
        this.ensureReady();
      }
      const ctx = this.context(address, now);
      this.ensurePacks(ctx);
      const step = await this.published.plan(wantedCatalog(op, input, this.config.get()), now, (catalog) =>
        this.catalogStub(catalog),
      );
      if (op.ranksTools) await this.#learningSync.refresh(now);
      if (op.servesSkills) await this.#lessonSync.refresh(now);
      this.catalog.upkeep.begin();
      const value = this.ctx.storage.transactionSync(() => {
        this.applyCatalog(step, op, ctx);
        return op.handler(ctx, input);
      });
      this.catalog.upkeep.commit();
      this.events.commit();
      if (this.#eraseRequested) await this.erase();
      else await this.#lifetime.extend(now);
      const done = { ok: true as const, value, ...cost() };
      this.#analyticsSender.observe(name, input, value, done.cost, now);
      return done;
    } catch (err) {
      // Deferred events the failed transaction had written are written again later.
      this.events.rollback();
      // What the failed transaction wrote to the catalog and activations is gone: read it again.
      this.catalog.invalidate();
      this.activations.invalidate();
      this.catalog.upkeep.rollback();
      this.published.rollback();
      if (!(err instanceof TroveError)) {
        console.error(
          JSON.stringify({
            msg: "operation failed",
            op: name,
            error: String(err),
            stack: (err as Error)?.stack,
          }),
        );
        const failed = { ...failure(new TroveError("internal", 500, "internal error", {})), ...cost() };
        this.#analyticsSender.observe(name, input, undefined, failed.cost, now);
        return failed;
      }
      // The operation's writes rolled back; what it must still record goes in on its own.
      if (err.event) {
        const { type, data } = err.event;
        this.ctx.storage.transactionSync(() => this.events.record(type as EventType, data, now));
        this.events.commit();
      }
      await this.#lifetime.extend(now);
      const failed = { ...failure(err), ...cost() };
      this.#analyticsSender.observe(name, input, undefined, failed.cost, now);
      return failed;
    } finally {
      if (this.events.hasPending()) this.#eventFlush.request();
      if (this.#ready && this.catalog.upkeep.pending()) this.#indexTidy.request();
      this.#learningSync.schedule();
      this.#lessonSync.schedule();
      this.#analyticsSender.schedule();
    }
  }

  /**
   * Brings the session's copy of its published catalog to the planned step, inside the request's
   * transaction (a failing request leaves the copy as it was).
   */
  private applyCatalog(step: CatalogStep, op: Operation, ctx: OpContext): void {
    const applied = this.published.apply(step, this.catalog, visibilityFor(this.config.get()), {
      configuring: op.publishedCatalog === "configures",
      exempt: op.publishedCatalog !== undefined,
    });
    if (!applied) return;
    if (applied.added > 0) this.learning.catalogChanged();
    if (applied.added + applied.updated + applied.removed > 0) {
      const { skipped, changes: all, ...counts } = applied;
      const changes = all?.filter((c) => this.catalog.allows(c.name));
      ctx.events.record(
        "catalog_synced",
        {
          ...counts,
          skipped: skipped.length,
          mode: "published",
          // A tool that changed under the session (an upstream's rug pull), before and after.
          ...(changes && changes.length > 0 ? { changes } : {}),
        },
        ctx.now,
      );
    }
  }

  /** The object of the tenant's published catalog `name`, or null when none is bound. */
  private catalogStub(name: string): DurableObjectStub<CatalogRpc> | null {
    const ns = this.env.CATALOGS;
    return ns && this.#address.tenant ? ns.get(ns.idFromName(`${this.#address.tenant}/${name}`)) : null;
  }

  /** The tenant's object of a tenant-wide kind, or null when this deployment has none bound. */
  private tenantStub<T extends Rpc.DurableObjectBranded | undefined>(
    ns: DurableObjectNamespace<T> | undefined,
  ): DurableObjectStub<T> | null {
    return ns && this.#address.tenant ? ns.get(ns.idFromName(this.#address.tenant)) : null;
  }

  /** `tools` had their learned text rewritten in the index. */
  protected learnedChanged(tools: number): void {
    if (tools === 0) return;
    this.catalog.learnedTextChanged();
    this.catalog.upkeep.note(tools);
  }

  /**
   * Merges the tools' search index (CatalogStore.tidyIndex) after a request that rewrote enough of
   * it: the request does not wait, and later searches read one segment.
   */
  private tidyIndex(): void {
    if (!this.#ready) return;
    try {
      this.ctx.storage.transactionSync(() => this.catalog.tidyIndex());
    } catch (err) {
      console.error(JSON.stringify({ msg: "index tidy failed", error: String(err) }));
    }
  }

  /**
   * Writes deferred events in a transaction of their own: after the response, so the request never
   * waits for them, and an idle or restarted session keeps them.
   */
  private flushEvents(): void {
    if (!this.events.hasPending() || !this.#ready) return;
    try {
      this.ctx.storage.transactionSync(() => this.events.flush());
      this.events.commit();
    } catch (err) {
      this.events.rollback();
      console.error(JSON.stringify({ msg: "event flush failed", error: String(err) }));
    }
  }

  /**
   * The idle alarm: erases a session nobody used for `ttl_seconds`, otherwise prunes expired
   * run activations and sleeps until the idle deadline. Safe to run any number of times.
   */
  override async alarm(): Promise<void> {
    const hasSchema = this.sql.one(`SELECT 1 AS x FROM sqlite_master WHERE name = 'trove_schema'`);
    if (!hasSchema) return;
    this.ensureReady();
    const now = Date.now();
    this.flushEvents();
    const deadline = this.#lifetime.idleDeadline();
    if (deadline === null || now >= deadline) {
      await this.erase();
      return;
    }
    this.ctx.storage.transactionSync(() => this.activations.pruneExpired(now));
    await this.ctx.storage.setAlarm(deadline);
  }

  private context(address: SessionAddress, now: number): OpContext {
    return {
      sql: this.sql,
      config: this.config,
      catalog: this.catalog,
      activations: this.activations,
      approvals: this.approvals,
      events: this.events,
      skills: this.skills,
      attachments: this.attachments,
      bundle: this.bundle,
      tenant: address.tenant,
      now,
      operations: OPERATIONS,
      storedBytes: () => this.ctx.storage.sql.databaseSize,
      published: () => this.published.held(),
      lessons: {
        submitted: () => this.lessons.submitted(),
        queueLesson: (lesson) => this.lessons.queueLesson(lesson),
        queueFeedback: (feedback) => this.lessons.queueFeedback(feedback),
      },
      learning: {
        observeUse: (tool, at) => {
          if (this.learns()) this.learning.observeUse(tool, at);
        },
        noteRequest: (query, at) => {
          if (this.learns()) this.learning.noteRequest(query, at);
        },
        noteActivation: (tool, at) => {
          if (this.learns()) this.learning.noteActivation(tool, at);
        },
        catalogChanged: () => this.learning.catalogChanged(),
      },
      erase: () => {
        this.#eraseRequested = true;
      },
    };
  }

  /** Whether this session teaches its tenant: learning on, and a learning object bound. */
  private learns(): boolean {
    return this.config.get().learning.enabled && this.env.LEARNING !== undefined;
  }

  /**
   * Loads the bundled packs this tenant and project may see. An unchanged bundle costs one SELECT
   * per object start (then nothing); a new one is loaded in one transaction.
   */
  private ensurePacks(ctx: OpContext): void {
    const config = this.config.get();
    const key = `${this.bundle.hash}|${ctx.tenant}|${config.project_id ?? ""}`;
    if (this.#packsKey === key) return;
    this.ctx.storage.transactionSync(() => {
      const changed = loadPacks(this.sql, this.bundle, ctx.tenant, config.project_id, skillPolicy(config));
      if (changed === null) return;
      this.skills.invalidate();
      for (const pack of changed) this.events.record("skill_pack_loaded", { ...pack }, ctx.now);
      // Attached packs and enabled skills follow the new bundle (or their absence from it).
      reconcileBroughtTools(ctx);
    });
    this.events.commit();
    this.skills.invalidate();
    this.#packsKey = key;
  }

  /** Drops every table, row and the alarm; the schema is re-created by the next request. */
  private async erase(): Promise<void> {
    this.#eraseRequested = false;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.events.discard();
    this.#packsKey = null;
    this.#lifetime.reset();
    this.config.reset();
    this.catalog.invalidate();
    this.activations.invalidate();
    this.catalog.upkeep.reset();
    this.learning.reset();
    this.published.reset();
    this.analytics.reset();
    this.lessons.reset();
    this.#learningSync.reset();
    this.#ready = false;
  }

  private ensureReady(): void {
    if (this.#ready) return;
    migrate(this.sql, (fn) => this.ctx.storage.transactionSync(fn));
    // A deploy that changed how text is normalized: the index is re-normalized before any search.
    const renormalized = this.ctx.storage.transactionSync(() => renormalizeSession(this.sql));
    if (renormalized) this.catalog.upkeep.note(renormalized.tools);
    this.#learningSync.start();
    this.#ready = true;
  }
}

/** The published catalog the request wants: the new config's when it configures one, else the session's. */
function wantedCatalog(op: Operation, input: unknown, config: SessionConfig): string | null {
  return op.publishedCatalog === "configures" ? (input as SessionConfig).catalog : config.catalog;
}

function failure(err: TroveError): OpResult {
  return { ok: false, status: err.status, error: err.toBody().error };
}
