// What crosses between the worker, sessions and a tenant's published catalogs (src/catalog-object.ts).
import type { ErrorBody } from "../errors";
import type { ToolRecordInput } from "../tools/tool-record";
import type { PublishedChanges, PublishedInfo, PublishResult } from "./published-store";

export type { PublishedChanges, PublishedInfo, PublishResult };

/** A result as a value: workerd RPC drops a thrown error's properties. */
export type RpcResult<T> = { ok: true; value: T } | ({ ok: false; status: number } & ErrorBody);

/** One published catalog, named `{tenant}/{name}`. */
export interface CatalogRpc extends Rpc.DurableObjectBranded {
  /** catalog_sync's semantics; `reserved` are Trove's own tool names. */
  publish(
    name: string,
    tools: ToolRecordInput[],
    mode: "replace" | "merge",
    reserved: string[],
  ): Promise<RpcResult<PublishResult>>;
  info(): Promise<PublishedInfo | null>;
  /**
   * What changed after a session's version (everything for another epoch or version 0), one page
   * by name after `after`; `next` names where the following page starts.
   */
  changesSince(epoch: string | null, version: number, after?: string): Promise<PublishedChanges>;
  /** Erases the catalog; false when there was none. */
  remove(): Promise<boolean>;
}

/** The tenant's list of its published catalogs (one object per tenant). */
export interface CatalogListRpc extends Rpc.DurableObjectBranded {
  put(info: PublishedInfo): Promise<void>;
  remove(name: string): Promise<void>;
  list(): Promise<PublishedInfo[]>;
}
