// What crosses from the worker to a session's object: the session's address, the one RPC method
// that runs an operation, and its result as a value (errors included, so the worker maps them to
// HTTP without relying on how exceptions cross the RPC boundary).
import type { ErrorBody } from "../errors";

export interface SessionAddress {
  tenant: string;
  sid: string;
}

export type OpResult = { ok: true; value: unknown } | ({ ok: false; status: number } & ErrorBody);

/** The session object as the worker sees it through its stub (src/session-object.ts implements it). */
export interface SessionRpc extends Rpc.DurableObjectBranded {
  /** Runs the named operation on input its schema already accepted. */
  run(name: string, input: unknown, address: SessionAddress): Promise<OpResult>;
}
