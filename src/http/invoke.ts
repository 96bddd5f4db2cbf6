// Runs one operation for a session: the operation's own validation, then the session's object.
// REST routes (app.ts) and MCP tools (mcp.ts) both go through here, so they answer alike.
import type { Env } from "../env";
import { TroveError, validationError } from "../errors";
import type { OpResult, SessionAddress, SessionRpc } from "../ops/dispatch";
import { type Operation, retrySafe } from "../ops/operation";

/**
 * Validates `raw` with the operation's input schema and runs it in the session's object. Invalid
 * input comes back as a 400 result with the body REST answers (`validationError`).
 *
 * @example await invoke(env, toolSearch, { query: "open a bug" }, { tenant: "acme", sid: "s1" })
 */
export async function invoke(
  env: Env,
  op: Operation,
  raw: unknown,
  address: SessionAddress,
): Promise<OpResult> {
  const parsed = op.input.safeParse(raw);
  if (!parsed.success) {
    const err = validationError(parsed.error);
    return { ok: false, status: err.status, error: err.toBody().error };
  }
  try {
    return await callSession(env, address, (stub) => stub.run(op.name, parsed.data, address));
  } catch (err) {
    // The object went away mid-request (a deploy, an eviction, a reset): its transaction either
    // committed or rolled back whole. A 503 tells the client to try again, not to give up.
    console.error(JSON.stringify({ msg: "session object unavailable", op: op.name, error: String(err) }));
    const unavailable = new TroveError("unavailable", 503, "the session was restarting; try again", {
      retry_after: RETRY_AFTER_SECONDS,
      retry_safe: retrySafe(op),
    });
    return { ok: false, status: unavailable.status, error: unavailable.toBody().error };
  }
}

/** What a 503 asks the client to wait, in seconds (also sent as `Retry-After`). */
export const RETRY_AFTER_SECONDS = 1;

/** Calls the session's object, retrying transient failures with a fresh stub (never overloads). */
async function callSession<T>(
  env: Env,
  address: SessionAddress,
  call: (stub: DurableObjectStub<SessionRpc>) => Promise<T>,
): Promise<T> {
  const id = env.SESSIONS.idFromName(`${address.tenant}/${address.sid}`);
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(env.SESSIONS.get(id));
    } catch (err) {
      const e = err as { retryable?: boolean; overloaded?: boolean };
      if (attempt >= 2 || !e.retryable || e.overloaded) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 * 2 ** attempt));
    }
  }
}
