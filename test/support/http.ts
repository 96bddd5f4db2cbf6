// Helpers for integration tests: real HTTP requests through the worker (SELF.fetch).
import { SELF } from "cloudflare:test";

export const KEY_A = "key-a";
export const KEY_B = "key-b";

export function newSid(): string {
  return `t-${crypto.randomUUID()}`;
}

export async function call(
  method: string,
  path: string,
  body?: unknown,
  key: string | null = KEY_A,
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  let payload: string | undefined;
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await SELF.fetch(`https://trove.test${path}`, { method, headers, body: payload });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

export const op = (sid: string, name: string, body: unknown, key: string | null = KEY_A) =>
  call("POST", `/v1/sessions/${sid}/${name}`, body, key);

/**
 * Tool names without Trove's skill and pack tools, which context lists because the bundled core
 * pack has skills: for tests about the agent's own tools.
 */
export const agentTools = (names: readonly string[]) => names.filter((n) => !/^(skill|pack)_/.test(n));
