// A tenant's published catalogs: one object per catalog (named `{tenant}/{name}`), which holds its
// records and answers sessions asking what changed, and one object per tenant that lists them.
// Sessions hold their own indexed copy (src/published/session-catalog.ts), so no object here serves
// a session's searches; a session asks its catalog's object at most once a minute.
import { DurableObject } from "cloudflare:workers";
import { createSql } from "./db/sql";
import type { Env } from "./env";
import { TroveError } from "./errors";
import type {
  CatalogListRpc,
  CatalogRpc,
  PublishedChanges,
  PublishedInfo,
  PublishResult,
  RpcResult,
} from "./published/catalog-rpc";
import { PAGE_BYTES, PublishedStore } from "./published/published-store";
import type { ToolRecordInput } from "./tools/tool-record";

export class CatalogObject extends DurableObject<Env> implements CatalogRpc {
  #store: PublishedStore;
  /** How many bytes of rows one page of changes holds (tests make it small to see paging). */
  pageBytes = PAGE_BYTES;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#store = new PublishedStore(createSql(ctx.storage.sql));
  }

  async publish(
    name: string,
    tools: ToolRecordInput[],
    mode: "replace" | "merge",
    reserved: string[],
  ): Promise<RpcResult<PublishResult>> {
    try {
      const value = this.ctx.storage.transactionSync(() =>
        this.#store.publish(name, tools, mode, reserved, Date.now()),
      );
      return { ok: true, value };
    } catch (err) {
      if (!(err instanceof TroveError)) throw err;
      return { ok: false, status: err.status, ...err.toBody() };
    }
  }

  async info(): Promise<PublishedInfo | null> {
    return this.#store.info();
  }

  async changesSince(epoch: string | null, version: number, after?: string): Promise<PublishedChanges> {
    return this.#store.changesSince(epoch, version, after, this.pageBytes);
  }

  async remove(): Promise<boolean> {
    const existed = this.#store.info() !== null;
    await this.ctx.storage.deleteAll();
    this.#store = new PublishedStore(createSql(this.ctx.storage.sql));
    return existed;
  }
}

/** The tenant's list of published catalogs: what `GET /v1/catalogs` reads. */
export class CatalogListObject extends DurableObject<Env> implements CatalogListRpc {
  readonly #sql = createSql(this.ctx.storage.sql);

  /** Whether the list's table exists: created by the first publish, so reads write nothing. */
  #exists(): boolean {
    return (
      this.#sql.one(`SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'catalogs'`) !==
      undefined
    );
  }

  async put(info: PublishedInfo): Promise<void> {
    this.#sql.run(
      `CREATE TABLE IF NOT EXISTS catalogs (name TEXT PRIMARY KEY, info TEXT NOT NULL) WITHOUT ROWID`,
    );
    this.#sql.run(
      `INSERT INTO catalogs (name, info) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET info = excluded.info WHERE info <> excluded.info`,
      info.name,
      JSON.stringify(info),
    );
  }

  async remove(name: string): Promise<void> {
    if (this.#exists()) this.#sql.run(`DELETE FROM catalogs WHERE name = ?`, name);
  }

  async list(): Promise<PublishedInfo[]> {
    if (!this.#exists()) return [];
    return this.#sql
      .all<{ info: string }>(`SELECT info FROM catalogs ORDER BY name`)
      .map((row) => JSON.parse(row.info) as PublishedInfo);
  }
}
