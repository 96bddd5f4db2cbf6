// The one way tests reach a session's object: a stub typed by the class, for runInDurableObject.
import { env } from "cloudflare:test";
import type { SessionObject } from "../../src/session-object";

/**
 * The stub of session `sid` of `tenant`. The worker sees the object only through its RPC shape
 * (src/ops/dispatch.ts); tests reach inside it, so the stub is typed by the class itself.
 */
export function sessionStub(sid: string, tenant = "tenant-a"): DurableObjectStub<SessionObject> {
  const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`${tenant}/${sid}`));
  return stub as unknown as DurableObjectStub<SessionObject>;
}
