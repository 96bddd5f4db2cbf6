// Shared by the suites in test/long/: run counts (small in `npm test`, large under TROVE_LONG),
// operations run inside a session object, restarts, and the consistency check after every fault.
import { createExecutionContext, env, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { createApp } from "../../src/http/app";
import { OPERATIONS_BY_NAME } from "../../src/ops/registry";
import type { OpResult, SessionAddress, SessionObject } from "../../src/session-object";
import { sessionStub } from "../support/session";

/** Set by the `long` project (vitest.config.mts): `npm run test:long`. */
export const LONG = env.TROVE_LONG === "1";

/** How many runs a property or a scenario gets: `fast` in `npm test`, `long` in `npm run test:long`. */
export const runs = (fast: number, long: number): number => (LONG ? long : fast);

export const stubFor = (sid: string, tenant = "tenant-a") => sessionStub(sid, tenant);

export const inObject = <R>(
  sid: string,
  fn: (obj: SessionObject, state: DurableObjectState) => R | Promise<R>,
  tenant = "tenant-a",
) => runInDurableObject(stubFor(sid, tenant), fn);

/**
 * Runs one operation inside the object the way the worker does (src/http/invoke.ts): the input is
 * parsed with the operation's schema first. A schema failure comes back as a 400 result.
 */
export async function runIn(obj: SessionObject, address: SessionAddress, name: string, raw: unknown) {
  const op = OPERATIONS_BY_NAME.get(name);
  if (!op) throw new Error(`no operation ${name}`);
  const parsed = op.input.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      status: 400,
      error: { code: "invalid_input", message: parsed.error.message, details: {} },
    } satisfies OpResult;
  }
  return obj.run(name, parsed.data, address);
}

/** The value of a successful result; a failure fails the test with its error body. */
export function answerOf(result: OpResult, what = ""): any {
  if (!result.ok) throw new Error(`${what} failed: ${result.status} ${JSON.stringify(result.error)}`);
  return result.value;
}

/** Ends the object's instance, as a deploy does; the next request starts a new one. */
export async function restart(sid: string, tenant = "tenant-a"): Promise<void> {
  await runInDurableObject(stubFor(sid, tenant), (_obj, state) => {
    state.abort("restart for the test");
  }).catch(() => undefined);
}

/** Silences the one JSON log line per event while `fn` runs thousands of operations. */
export async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await fn();
  } finally {
    console.log = log;
  }
}

const TOOL_FTS = "trove_tools_fts";
const SKILL_FTS = "trove_skills_fts";

/**
 * What must hold in a session's storage whatever happened to it: both forms of FTS5's integrity
 * check on both indexes (the `rank = 1` form also compares the index with its content), provider
 * names unique and present exactly for allowed tools, no activation or approval of a tool that
 * is gone, and event ids strictly increasing. Returns the counts the caller compares with answers.
 */
export function checkStorage(obj: SessionObject): {
  tools: number;
  allowed: number;
  skills: number;
  events: number[];
} {
  const hasSchema = obj.sql.one(`SELECT 1 AS x FROM sqlite_master WHERE name = 'trove_tools'`);
  if (!hasSchema) return { tools: 0, allowed: 0, skills: 0, events: [] };
  for (const fts of [TOOL_FTS, SKILL_FTS]) {
    obj.sql.run(`INSERT INTO ${fts}(${fts}) VALUES('integrity-check')`);
    obj.sql.run(`INSERT INTO ${fts}(${fts}, rank) VALUES('integrity-check', 1)`);
  }
  const count = (query: string) => obj.sql.one<{ n: number }>(query)?.n ?? -1;
  expect(
    obj.sql.all(
      `SELECT provider_name FROM trove_tools WHERE provider_name IS NOT NULL GROUP BY provider_name HAVING count(*) > 1`,
    ),
  ).toEqual([]);
  expect(count(`SELECT count(*) AS n FROM trove_tools WHERE allowed = 1 AND provider_name IS NULL`)).toBe(0);
  expect(count(`SELECT count(*) AS n FROM trove_tools WHERE allowed = 0 AND provider_name IS NOT NULL`)).toBe(
    0,
  );
  expect(
    count(
      `SELECT count(*) AS n FROM trove_activations WHERE tool_name NOT IN (SELECT name FROM trove_tools)`,
    ),
  ).toBe(0);
  expect(
    count(
      `SELECT count(*) AS n FROM trove_tools WHERE source <> 'agent' AND source NOT IN (
         SELECT 'pack:' || pack FROM trove_packs WHERE tools_enabled_at IS NOT NULL
         UNION SELECT 'skill:' || qid FROM trove_enabled_skills)`,
    ),
  ).toBe(0);
  const events = obj.sql.all<{ id: number }>(`SELECT id FROM trove_events ORDER BY rowid`).map((r) => r.id);
  const unordered = events.findIndex((id, i) => i > 0 && id <= (events[i - 1] as number));
  expect(unordered, "event ids strictly increasing").toBe(-1);
  return {
    tools: count(`SELECT count(*) AS n FROM trove_tools`),
    allowed: count(`SELECT count(*) AS n FROM trove_tools WHERE allowed = 1`),
    skills: count(`SELECT count(*) AS n FROM trove_skills WHERE allowed = 1`),
    events,
  };
}

const app = createApp();

/**
 * An HTTP request to the worker's own fetch handler (its Hono app: the same routes, auth, body
 * parsing, MCP endpoint and session objects as SELF.fetch). SELF.fetch slows down with every request
 * a test file makes (cloudflare/workers-sdk#15446), so suites that send thousands use this.
 */
export async function appCall(
  method: string,
  path: string,
  body?: unknown,
  key = "key-a",
  accept?: string,
): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (accept) headers.accept = accept;
  const res = await app.fetch(
    new Request(`https://trove.test${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    env,
    createExecutionContext(),
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

export const appOp = (sid: string, name: string, body: unknown, key = "key-a") =>
  appCall("POST", `/v1/sessions/${sid}/${name}`, body, key);
