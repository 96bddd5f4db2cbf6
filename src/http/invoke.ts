// Runs one operation for a session: the operation's own validation, then the session's object.
// REST routes (app.ts) and MCP tools (mcp.ts) both go through here, so they answer alike.
import type { Env } from "../env";
import { validationError } from "../errors";
import type { OpResult, SessionAddress, SessionRpc } from "../ops/dispatch";
import type { Operation } from "../ops/operation";

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
  return callSession(env, address, (stub) => stub.run(op.name, parsed.data, address));
}

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
