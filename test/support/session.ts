// The one way tests reach a session's object: a stub typed by the class, for runInDurableObject.
import { env } from "cloudflare:test";
import { expect } from "vitest";
import type { SessionObject } from "../../src/session-object";

/**
 * The stub of session `sid` of `tenant`. The worker sees the object only through its RPC shape
 * (src/ops/dispatch.ts); tests reach inside it, so the stub is typed by the class itself.
 */
export function sessionStub(sid: string, tenant = "tenant-a"): DurableObjectStub<SessionObject> {
  const stub = env.SESSIONS.get(env.SESSIONS.idFromName(`${tenant}/${sid}`));
  return stub as unknown as DurableObjectStub<SessionObject>;
}

/**
 * Asks `sync` for a send twice, the second time while the first waits on the tenant's object (as
 * two requests' work after their responses can overlap), and waits until every send it started is
 * done. `sends` is what the sync handed its host's waitUntil.
 */
export async function scheduleTwiceOverlapping(
  sync: { schedule(): void },
  sends: Promise<unknown>[],
): Promise<void> {
  sync.schedule();
  // The send starts on the first timer after this one and waits on the tenant's object.
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(sends).toHaveLength(1);
  sync.schedule();
  for (let settled = 0; settled < sends.length; ) {
    await Promise.all(sends.slice(settled));
    settled = sends.length;
    // A send asked for while another ran starts on a timer after that one is done.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
