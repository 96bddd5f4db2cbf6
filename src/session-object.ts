// The per-session Durable Object: owns start-up (schema, packs), lifetime (the idle alarm, in
// session/lifetime.ts) and dispatch (each operation inside one transaction).
import { DurableObject } from "cloudflare:workers";
import { SessionAnalytics } from "./analytics/session-analytics";
import { migrate } from "./db/migrations";
import { createSql, type Sql } from "./db/sql";
import type { Env } from "./env";
import { TroveError } from "./errors";
import { BUNDLE } from "./generated/packs";
import type { LearningRpc } from "./learning/learning-rpc";
import type { LearnedSkillsRpc } from "./lessons/lessons-rpc";
import { SessionLessons } from "./lessons/session-lessons";
import type { OpResult, SessionAddress, SessionRpc, StorageCost } from "./ops/dispatch";
import { renormalizeSession } from "./session/index-text";

export type { OpResult, SessionAddress };

import { type LearnedUse, SessionLearning } from "./learning/session-learning";
import { reconcileBroughtTools } from "./ops/brought-tools";
import { modelToolNames } from "./ops/builtins";
import type { OpContext, Operation } from "./ops/operation";
import { OPERATIONS, OPERATIONS_BY_NAME } from "./ops/registry";
import { AttachmentStore } from "./packs/attachments";
import type { Bundle } from "./packs/bundle";
import type { CatalogRpc } from "./published/catalog-rpc";
import { type CatalogStep, SessionCatalog } from "./published/session-catalog";
import { AnalyticsSender } from "./session/analytics-sender";
import { Lifetime } from "./session/lifetime";
import { loadPacks } from "./skills/pack-upsert";
import { SkillStore, skillPolicy } from "./skills/skill-store";
import { ConfigStore, type SessionConfig } from "./state/config";
import { EventLog, type EventType } from "./state/events";
import { withTimeout } from "./timeout";
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
  #flushScheduled = false;
  #learningScheduled = false;
  #lessonsScheduled = false;
  #tidyScheduled = false;
  /** Whether pairs the tenant's learning object did not take wait in trove_learning_outbox. */
  #outbox: boolean | null = null;
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
    this.learning = new SessionLearning(this.sql, this.events, (word) => this.catalog.knows(word));
    this.published = new SessionCatalog(this.sql);
    // A connection of its own: what analytics reads and writes after a response is no request's cost.
    this.analytics = new SessionAnalytics(createSql(ctx.storage.sql), (word) => this.catalog.knows(word));
    this.#analyticsSender = new AnalyticsSender({
      analytics: this.analytics,
      namespace: () => this.env.ANALYTICS,
      address: () => this.#address,
      ready: () => this.#ready,
      transaction: (fn) => ctx.storage.transactionSync(fn),
      waitUntil: (promise) => ctx.waitUntil(promise),
    });
    this.lessons = new SessionLessons(this.sql);
    this.skills.weighWith((qid) => this.lessons.weight(qid, Date.now()));
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
      if (op.ranksTools) await this.refreshLearned(now);
      if (op.servesSkills) await this.refreshLessons(now);
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
      // What the failed transaction wrote to the catalog is gone: read it again.
      this.catalog.invalidate();
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
      this.scheduleEventFlush();
      this.scheduleLearningSend();
      this.scheduleLessonSend();
      this.scheduleIndexTidy();
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

  /** The tenant's learning object, or null when this deployment has none bound. */
  private learningStub(): DurableObjectStub<LearningRpc> | null {
    const ns = this.env.LEARNING;
    return ns && this.#address.tenant ? ns.get(ns.idFromName(this.#address.tenant)) : null;
  }

  /**
   * Brings the index's learned text up to what the tenant learned, when it may be more than a
   * minute old: one call to the tenant's learning object, bounded by LEARNING_WAIT_MS. A slow or
   * failed call leaves the ranking as it was and is tried again later.
   */
  private async refreshLearned(now: number): Promise<void> {
    const { enabled, ...thresholds } = this.config.get().learning;
    if (!enabled) {
      this.learnedChanged(this.ctx.storage.transactionSync(() => this.learning.clear()));
      return;
    }
    const stub = this.learningStub();
    if (!stub || !this.learning.stale(now, thresholds)) return;
    this.learning.retryLater(now);
    try {
      const changes = await withTimeout(stub.changedSince(this.learning.version), LEARNING_WAIT_MS);
      this.learnedChanged(
        this.ctx.storage.transactionSync(() =>
          this.learning.apply(changes.version, changes.tools, this.catalog.ids(), thresholds, now),
        ),
      );
    } catch (err) {
      console.error(JSON.stringify({ msg: "learning refresh failed", error: String(err) }));
    }
  }

  /** The tenant's learned-skills object, or null when this deployment has none bound. */
  private lessonsStub(): DurableObjectStub<LearnedSkillsRpc> | null {
    const ns = this.env.LEARNED_SKILLS;
    return ns && this.#address.tenant ? ns.get(ns.idFromName(this.#address.tenant)) : null;
  }

  /**
   * Brings the session's copy of the tenant's approved lessons up to date when it may be more than
   * a minute old: one call to the tenant's learned-skills object, bounded by LEARNING_WAIT_MS. A
   * slow or failed call serves what the session holds and is tried again later.
   */
  private async refreshLessons(now: number): Promise<void> {
    const stub = this.lessonsStub();
    const project = this.config.get().project_id ?? "";
    if (!stub || !this.lessons.stale(now, project)) return;
    const version = this.lessons.version;
    this.lessons.retryLater(now);
    const answer = stub.changedSince(version, project);
    const apply = (changes: Awaited<typeof answer>) => {
      // The config may have changed while the call was out: its answer is for `project` only.
      if (
        !this.#ready ||
        (this.config.get().project_id ?? "") !== project ||
        this.lessons.version !== version
      )
        return;
      const allowed = skillPolicy(this.config.get());
      const changed = this.ctx.storage.transactionSync(() =>
        this.lessons.apply(changes, allowed, project, now),
      );
      if (changed > 0) this.skills.invalidate();
    };
    try {
      apply(await withTimeout(answer, LEARNING_WAIT_MS));
    } catch (err) {
      console.error(JSON.stringify({ msg: "learned skills refresh failed", error: String(err) }));
      // A slow answer still lands, after this response: the next request serves it.
      this.ctx.waitUntil(answer.then(apply).catch(() => undefined));
    }
  }

  /**
   * Sends queued lessons and feedback to the tenant's object after the response; what it does not
   * take stays queued for the next send.
   */
  private scheduleLessonSend(): void {
    if (this.#lessonsScheduled || !this.#ready || !this.lessons.hasPending()) return;
    this.#lessonsScheduled = true;
    setTimeout(() => {
      this.#lessonsScheduled = false;
      this.ctx.waitUntil(this.sendLessons());
    }, 0);
  }

  private async sendLessons(): Promise<void> {
    const stub = this.lessonsStub();
    if (!stub || !this.#ready || !this.lessons.hasPending()) return;
    const user = this.config.get().user;
    const batch = this.lessons.pending(user ? `user:${user}` : `session:${this.#address.sid}`);
    try {
      await stub.ingest(batch.lessons, batch.feedback);
      if (!this.#ready) return;
      this.ctx.storage.transactionSync(() => this.lessons.acknowledge(batch.last));
      if (this.lessons.hasPending()) this.scheduleLessonSend();
    } catch (err) {
      console.error(JSON.stringify({ msg: "lesson send failed", error: String(err) }));
    }
  }

  /** `tools` had their learned text rewritten in the index. */
  protected learnedChanged(tools: number): void {
    if (tools === 0) return;
    this.catalog.invalidate();
    this.catalog.upkeep.note(tools);
  }

  /**
   * Merges the tools' search index right after the response when the request rewrote enough of
   * it (CatalogStore.tidyIndex): the request does not wait, and later searches read one segment.
   */
  private scheduleIndexTidy(): void {
    if (this.#tidyScheduled || !this.#ready || !this.catalog.upkeep.pending()) return;
    this.#tidyScheduled = true;
    setTimeout(() => {
      this.#tidyScheduled = false;
      if (!this.#ready) return;
      try {
        this.ctx.storage.transactionSync(() => this.catalog.tidyIndex());
      } catch (err) {
        console.error(JSON.stringify({ msg: "index tidy failed", error: String(err) }));
      }
    }, 0);
  }

  /**
   * Sends the pairs this session learned to the tenant's object after the response; what it does
   * not take waits in trove_learning_outbox and goes with the next send.
   */
  private scheduleLearningSend(): void {
    if (this.#learningScheduled || !(this.learning.hasPending() || this.#outbox)) return;
    this.#learningScheduled = true;
    setTimeout(() => {
      this.#learningScheduled = false;
      this.ctx.waitUntil(this.sendLearned());
    }, 0);
  }

  private async sendLearned(): Promise<void> {
    const stub = this.learningStub();
    if (!stub || !this.#ready) return;
    const fresh = this.learning.take();
    const stored = this.#outbox
      ? this.sql.all<{ id: number; use: string }>(
          `SELECT id, use FROM trove_learning_outbox ORDER BY id LIMIT 200`,
        )
      : [];
    const uses = [...stored.map((row) => JSON.parse(row.use) as LearnedUse), ...fresh];
    if (uses.length === 0) return;
    try {
      await stub.record({ session: this.#address.sid, user: this.config.get().user }, uses);
      if (stored.length > 0) {
        const last = stored.at(-1)?.id ?? 0;
        this.ctx.storage.transactionSync(() =>
          this.sql.run(`DELETE FROM trove_learning_outbox WHERE id <= ?`, last),
        );
        this.#outbox = this.sql.one(`SELECT 1 AS x FROM trove_learning_outbox LIMIT 1`) !== undefined;
      }
    } catch (err) {
      console.error(JSON.stringify({ msg: "learning send failed", error: String(err), uses: uses.length }));
      if (fresh.length === 0) return;
      this.ctx.storage.transactionSync(() => {
        for (const use of fresh)
          this.sql.run(`INSERT INTO trove_learning_outbox (use) VALUES (?)`, JSON.stringify(use));
      });
      this.#outbox = true;
    }
  }

  /**
   * Writes deferred events right after the response goes out, in a transaction of their own: the
   * request never waits for them, and an idle or restarted session keeps them.
   */
  private scheduleEventFlush(): void {
    if (this.#flushScheduled || !this.events.hasPending()) return;
    this.#flushScheduled = true;
    setTimeout(() => {
      this.#flushScheduled = false;
      this.flushEvents();
    }, 0);
  }

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
    this.catalog.upkeep.reset();
    this.learning.reset();
    this.published.reset();
    this.analytics.reset();
    this.lessons.reset();
    this.#outbox = null;
    this.#ready = false;
  }

  private ensureReady(): void {
    if (this.#ready) return;
    migrate(this.sql, (fn) => this.ctx.storage.transactionSync(fn));
    // A deploy that changed how text is normalized: the index is re-normalized before any search.
    const renormalized = this.ctx.storage.transactionSync(() => renormalizeSession(this.sql));
    if (renormalized) this.catalog.upkeep.note(renormalized.tools);
    this.#outbox ??= this.sql.one(`SELECT 1 AS x FROM trove_learning_outbox LIMIT 1`) !== undefined;
    this.#ready = true;
  }
}

/** How long a search waits for the tenant's learned texts before ranking with what it has. */
const LEARNING_WAIT_MS = 250;

/** The published catalog the request wants: the new config's when it configures one, else the session's. */
function wantedCatalog(op: Operation, input: unknown, config: SessionConfig): string | null {
  return op.publishedCatalog === "configures" ? (input as SessionConfig).catalog : config.catalog;
}

function failure(err: TroveError): OpResult {
  return { ok: false, status: err.status, error: err.toBody().error };
}
