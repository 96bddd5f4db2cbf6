// What crosses from the worker to a session's object: the session's address, the one RPC method
// that runs an operation, and its result as a value (errors included, so the worker maps them to
// HTTP without relying on how exceptions cross the RPC boundary).
import type { ErrorBody } from "../errors";

export interface SessionAddress {
  tenant: string;
  sid: string;
}

/** What a request cost the session's storage: SQLite rows read and written while it ran. */
export interface StorageCost {
  rows_read: number;
  rows_written: number;
}

export type OpResult = ({ ok: true; value: unknown } | ({ ok: false; status: number } & ErrorBody)) & {
  cost?: StorageCost;
};

/** The session object as the worker sees it through its stub (src/session-object.ts implements it). */
export interface SessionRpc extends Rpc.DurableObjectBranded {
  /** Runs the named operation on input its schema already accepted. */
  run(name: string, input: unknown, address: SessionAddress): Promise<OpResult>;
}
