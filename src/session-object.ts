// The per-session Durable Object: owns start-up (schema) and runs operations inside a transaction.
import { DurableObject } from "cloudflare:workers";
import { migrate } from "./db/migrations";
import { createSql, type Sql } from "./db/sql";
import type { Env } from "./env";
import { TroveError } from "./errors";
import type { OpContext } from "./ops/context";
import { OPERATIONS_BY_NAME } from "./ops/registry";
import { ConfigStore } from "./state/config";
import { CatalogStore } from "./tools/catalog-store";

export interface SessionAddress {
  tenant: string;
  sid: string;
}

export type OpResult =
  | { ok: true; value: unknown }
  | { ok: false; status: number; error: { code: string; message: string; details: Record<string, unknown> } };

export class SessionObject extends DurableObject<Env> {
  readonly sql: Sql;
  readonly config: ConfigStore;
  readonly catalog: CatalogStore;
  #ready = false;
  #eraseRequested = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = createSql(ctx.storage.sql);
    this.config = new ConfigStore(this.sql);
    this.catalog = new CatalogStore(this.sql);
    this.ensureReady();
  }

  /**
   * Runs one operation on already-validated input. Expected failures come back as values, so the
   * worker can map them to HTTP without relying on how errors cross the RPC boundary.
   */
  async run(name: string, input: unknown, address: SessionAddress): Promise<OpResult> {
    const op = OPERATIONS_BY_NAME.get(name);
    if (!op)
      return failure(
        new TroveError("unknown_operation", 404, `no operation named "${name}"`, { field: "operation" }),
      );
    try {
      this.#eraseRequested = false;
      this.ensureReady();
      const ctx = this.context(address);
      const value = this.ctx.storage.transactionSync(() => op.handler(ctx, input));
      if (this.#eraseRequested) await this.erase();
      return { ok: true, value };
    } catch (err) {
      if (err instanceof TroveError) return failure(err);
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
  }

  private context(address: SessionAddress): OpContext {
    return {
      sql: this.sql,
      config: this.config,
      catalog: this.catalog,
      tenant: address.tenant,
      erase: () => {
        this.#eraseRequested = true;
      },
    };
  }

  /** Drops every table and row; the schema is re-created lazily by the next request. */
  private async erase(): Promise<void> {
    this.#eraseRequested = false;
    await this.ctx.storage.deleteAll();
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
