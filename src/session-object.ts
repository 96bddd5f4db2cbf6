// The per-session Durable Object: owns start-up (schema, packs), lifetime (the idle alarm, in
// session/lifetime.ts) and dispatch (each operation inside one transaction).
import { DurableObject } from "cloudflare:workers";
import { migrate } from "./db/migrations";
import { createSql, type Sql } from "./db/sql";
import type { Env } from "./env";
import { TroveError } from "./errors";
import { BUNDLE } from "./generated/packs";
import type { OpResult, SessionAddress, SessionRpc } from "./ops/dispatch";

export type { OpResult, SessionAddress };

import { reconcileBroughtTools } from "./ops/brought-tools";
import { modelToolNames } from "./ops/builtins";
import type { OpContext } from "./ops/operation";
import { OPERATIONS, OPERATIONS_BY_NAME } from "./ops/registry";
import { AttachmentStore } from "./packs/attachments";
import type { Bundle } from "./packs/bundle";
import { Lifetime } from "./session/lifetime";
import { loadPacks } from "./skills/pack-upsert";
import { SkillStore, skillPolicy } from "./skills/skill-store";
import { ConfigStore } from "./state/config";
import { EventLog, type EventType } from "./state/events";
import { ActivationStore } from "./tools/activation";
import { ApprovalStore } from "./tools/approvals";
import { CatalogStore } from "./tools/catalog-store";

export class SessionObject extends DurableObject<Env> implements SessionRpc {
  readonly sql: Sql;
  readonly config: ConfigStore;
  readonly catalog: CatalogStore;
  readonly activations: ActivationStore;
  readonly approvals: ApprovalStore;
  readonly events: EventLog;
  readonly skills: SkillStore;
  readonly attachments: AttachmentStore;
  /** The packs compiled into this build; tests may point a session at another bundle. */
  bundle: Bundle = BUNDLE;
  /** The bundle/tenant/project combination whose packs are loaded, once checked. */
  #packsKey: string | null = null;
  #address: SessionAddress = { tenant: "", sid: "" };
  #ready = false;
  #eraseRequested = false;
  #flushScheduled = false;
  readonly #lifetime: Lifetime;

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
      const value = this.ctx.storage.transactionSync(() => op.handler(ctx, input));
      this.events.commit();
      if (this.#eraseRequested) await this.erase();
      else await this.#lifetime.extend(now);
      return { ok: true, value };
    } catch (err) {
      // Deferred events the failed transaction had written are written again later.
      this.events.rollback();
      if (!(err instanceof TroveError)) {
        console.error(
          JSON.stringify({
            msg: "operation failed",
            op: name,
            error: String(err),
            stack: (err as Error)?.stack,
          }),
        );
        return failure(new TroveError("internal", 500, "internal error", {}));
      }
      // The operation's writes rolled back; what it must still record goes in on its own.
      if (err.event) {
        const { type, data } = err.event;
        this.ctx.storage.transactionSync(() => this.events.record(type as EventType, data, now));
        this.events.commit();
      }
      await this.#lifetime.extend(now);
      return failure(err);
    } finally {
      this.scheduleEventFlush();
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
      erase: () => {
        this.#eraseRequested = true;
      },
    };
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
    this.#ready = false;
  }

  private ensureReady(): void {
    if (this.#ready) return;
    migrate(this.sql, (fn) => this.ctx.storage.transactionSync(fn));
    this.#ready = true;
  }
}

function failure(err: TroveError): OpResult {
  return { ok: false, status: err.status, error: err.toBody().error };
}
