// The tenant's analytics (issue 32): scripted sessions through the real worker, and the counts the
// analytics object merged from their batches, read back over /v1/analytics. The request path writes
// nothing for analytics: every response's trove-rows-written header is what the operation itself
// wrote, and the analytics' rows written equal the sum of those headers.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Trove } from "../../packages/client/src/index";
import { type DayBatch, emptyDay } from "../../src/analytics/analytics-batch";
import { dataPoints, writeDataPoints } from "../../src/analytics/analytics-engine";
import type { SessionObject } from "../../src/session-object";
import { call, KEY_A, KEY_B, newSid } from "../support/http";
import { sessionStub } from "../support/session";

interface Totals {
  requests: number;
  errors: number;
  sessions: number;
  searches: number;
  no_result: number;
  low_relevance: number;
  searches_used: number;
  searches_unused: number;
  uses: number;
  approvals_asked: number;
  approvals_granted: number;
  approvals_denied: number;
  rows_read: number;
  rows_written: number;
  cost_usd: number;
}

async function analytics(key = KEY_A, query = ""): Promise<{ totals: Totals; failing_wording: unknown[] }> {
  const res = await call("GET", `/v1/analytics${query}`, undefined, key);
  expect(res.status).toBe(200);
  return res.json;
}

/** Waits until the tenant counted `requests` more requests than `before` (sessions send after responding). */
async function settled(before: number, requests: number, key = KEY_A): Promise<Totals> {
  for (let i = 0; i < 300; i++) {
    const { totals } = await analytics(key);
    if (totals.requests >= before + requests) return totals;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(
    `the tenant counted fewer than ${requests} requests: ${JSON.stringify(await analytics(key))} (before ${before})`,
  );
}

/** One request through the worker, with what its response says it wrote. */
async function post(sid: string, name: string, body: unknown, key = KEY_A, log?: number[][]) {
  const res = await fetchOp(sid, name, body, key);
  log?.push([Number(res.headers.get("trove-rows-read")), Number(res.headers.get("trove-rows-written"))]);
  return {
    status: res.status,
    json: (await res.json()) as any,
    written: Number(res.headers.get("trove-rows-written")),
  };
}

async function fetchOp(sid: string, name: string, body: unknown, key: string): Promise<Response> {
  const { SELF } = await import("cloudflare:test");
  return SELF.fetch(`https://trove.test/v1/sessions/${sid}/${name}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

const PIZZA = "order a pizza with anchovies";

function catalog() {
  const tag = crypto.randomUUID().slice(0, 6);
  return {
    create: `gh${tag}.create_issue`,
    list: `gh${tag}.list_issues`,
    never: `cal${tag}.book_room`,
    tools: [
      { name: `gh${tag}.create_issue`, description: "Create an issue in a GitHub repository" },
      { name: `gh${tag}.list_issues`, description: "List the issues of a GitHub repository" },
      { name: `cal${tag}.book_room`, description: "Reserve a meeting room in the office calendar" },
    ],
  };
}

describe("analytics from scripted sessions", () => {
  it("counts requests, sessions, searches, no results, uses, approvals and rows — and the request path writes none of it", async () => {
    const before = (await analytics()).totals;
    const c = catalog();
    const log: number[][] = [];
    let requests = 0;
    // Two sessions: one searches, uses and is asked for approvals; one only searches in vain.
    const a = newSid();
    const b = newSid();
    const config = { policy: { approval: [`${c.create.split(".")[0]}.create_*`] } };
    expect((await call("PUT", `/v1/sessions/${a}`, config)).status).toBe(200);
    requests++;
    expect((await post(a, "catalog_sync", { tools: c.tools }, KEY_A, log)).status).toBe(200);
    const found = await post(a, "tool_search", { query: "list the issues of my repository" }, KEY_A, log);
    expect(found.json.tools[0].name).toBe(c.list);
    expect(found.json.tools[0].relevance).toBeGreaterThanOrEqual(0.5);
    expect(found.written).toBe(0);
    // min_relevance leaves the poor matches out: nothing fits.
    const none = await post(a, "tool_search", { query: PIZZA, min_relevance: 0.3 }, KEY_A, log);
    expect(none.json.tools).toEqual([]);
    expect(none.written).toBe(0);
    expect((await post(a, "tool_resolve", { name: c.list }, KEY_A, log)).json.decision).toBe("allow");
    const asked = await post(a, "tool_resolve", { name: c.create, args: {} }, KEY_A, log);
    expect(asked.json.decision).toBe("needs_approval");
    const asked2 = await post(a, "tool_resolve", { name: c.create, args: { x: 1 } }, KEY_A, log);
    expect(asked2.json.decision).toBe("needs_approval");
    const id1 = asked.json.approval_id;
    const id2 = asked2.json.approval_id;
    expect(
      (await post(a, "approval_decide", { approval_id: id1, decision: "approve" }, KEY_A, log)).status,
    ).toBe(200);
    expect(
      (await post(a, "approval_decide", { approval_id: id2, decision: "deny" }, KEY_A, log)).status,
    ).toBe(200);
    const used = await post(a, "tool_resolve", { name: c.create, args: {}, approval_id: id1 }, KEY_A, log);
    expect(used.json.decision).toBe("allow");
    requests += 9;
    expect((await post(b, "catalog_sync", { tools: c.tools }, KEY_A, log)).status).toBe(200);
    // Without min_relevance the same words get a poor match: a low-relevance search.
    const low = await post(b, "tool_search", { query: PIZZA }, KEY_A, log);
    expect(low.json.tools[0].relevance).toBeLessThan(0.5);
    const vain = await post(b, "tool_search", { query: PIZZA, min_relevance: 0.3 }, KEY_A, log);
    expect(vain.json.tools).toEqual([]);
    const unknown = await post(b, "tool_resolve", { name: "nope.tool" }, KEY_A, log);
    expect(unknown.status).toBe(404);
    requests += 4;

    const after = await settled(before.requests, requests);
    const delta = (k: keyof Totals) => after[k] - before[k];
    expect(delta("requests")).toBe(requests);
    expect(delta("errors")).toBe(1);
    expect(delta("sessions")).toBe(2);
    expect(delta("searches")).toBe(4);
    expect(delta("no_result")).toBe(2);
    expect(delta("low_relevance")).toBe(1);
    expect(delta("searches_used")).toBe(1);
    expect(delta("searches_unused")).toBe(3);
    expect(delta("uses")).toBe(2);
    expect(delta("approvals_asked")).toBe(2);
    expect(delta("approvals_granted")).toBe(1);
    expect(delta("approvals_denied")).toBe(1);
    // The rows counted are exactly what the responses said the operations wrote: nothing more.
    // (The session's PUT wrote its config too; its headers are read below.)
    const headerWritten = log.reduce((a, [, w]) => a + (w ?? 0), 0);
    const headerRead = log.reduce((a, [r]) => a + (r ?? 0), 0);
    expect(delta("rows_written")).toBeGreaterThanOrEqual(headerWritten);
    expect(delta("rows_read")).toBeGreaterThanOrEqual(headerRead);
    expect(delta("cost_usd")).toBeGreaterThan(0);

    // Per tool: the used tools, and the catalog tool no search returned.
    const tools = await call("GET", "/v1/analytics/tools?days=1");
    expect(tools.status).toBe(200);
    const row = (name: string) => tools.json.tools.find((t: { tool: string }) => t.tool === name);
    expect(row(c.list)).toMatchObject({ found: 1, used: 1 });
    expect(row(c.create)).toMatchObject({ used: 1 });
    expect(tools.json.never_found).toContain(c.never);
    expect(tools.json.never_found).not.toContain(c.list);
    const one = await call("GET", `/v1/analytics/tools/${encodeURIComponent(c.list)}`);
    expect(one.json.days).toEqual([{ day: new Date().toISOString().slice(0, 10), found: 1, used: 1 }]);
  });

  it("the session's rows written on the request path are the operation's own: analytics adds none", async () => {
    const c = catalog();
    const sid = newSid();
    const before = (await analytics()).totals;
    const log: number[][] = [];
    await post(sid, "catalog_sync", { tools: c.tools }, KEY_A, log);
    for (let i = 0; i < 5; i++) {
      const res = await post(sid, "tool_search", { query: "create an issue" }, KEY_A, log);
      // A search writes no row, with analytics counting it (and its send from before) going on.
      expect(res.written).toBe(0);
      await settled(before.requests, i + 2);
    }
    const after = await settled(before.requests, 6);
    const headerWritten = log.reduce((a, [, w]) => a + (w ?? 0), 0);
    expect(after.rows_written - before.rows_written).toBe(headerWritten);
    expect(after.rows_read - before.rows_read).toBe(log.reduce((a, [r]) => a + (r ?? 0), 0));
  });

  it("keeps failing wording as ordinary words only: no names, numbers or ids", async () => {
    const c = catalog();
    const sid = newSid();
    const before = (await analytics()).totals;
    await post(sid, "catalog_sync", { tools: c.tools });
    await post(sid, "tool_search", {
      query: "send Jenna Ortiz the invoice 4111 1111 1111 1111 for order AB-99812",
    });
    await settled(before.requests, 2);
    const { failing_wording } = await analytics();
    const words = (failing_wording as { words: string }[]).map((w) => w.words);
    expect(words).toContain("invoice order send");
    for (const w of words) expect(w).not.toMatch(/jenna|ortiz|\d|ab/i);
  });

  it("one tenant never sees another's counts", async () => {
    const beforeB = (await analytics(KEY_B)).totals;
    const beforeA = (await analytics(KEY_A)).totals;
    const c = catalog();
    const sid = newSid();
    await post(sid, "catalog_sync", { tools: c.tools }, KEY_B);
    await post(sid, "tool_search", { query: "create an issue" }, KEY_B);
    const afterB = await settled(beforeB.requests, 2, KEY_B);
    expect(afterB.searches - beforeB.searches).toBe(1);
    const afterA = (await analytics(KEY_A)).totals;
    expect(afterA.requests).toBe(beforeA.requests);
    const tools = await call("GET", "/v1/analytics/tools", undefined, KEY_A);
    expect(tools.json.tools.map((t: { tool: string }) => t.tool)).not.toContain(c.create);
  });

  it("a batch the analytics object did not take waits in the session's outbox and goes with the next send", async () => {
    const c = catalog();
    const sid = newSid();
    const start = (await analytics()).totals.requests;
    await post(sid, "catalog_sync", { tools: c.tools });
    const before = await settled(start, 1);
    const stub = sessionStub(sid);
    // The batch is taken as a send would, then fails: it is kept in trove_meta.
    await runInDurableObject(stub, (object: SessionObject, state) => {
      object.analytics.observe({
        name: "tool_search",
        input: { query: "x" },
        value: { tools: [], search_type: "fts" },
        rowsRead: 3,
        rowsWritten: 0,
        at: Date.now(),
      });
      const batch = state.storage.transactionSync(() => object.analytics.take());
      object.analytics.failed(batch);
      expect(object.analytics.hasPending()).toBe(true);
    });
    await post(sid, "tool_search", { query: "create an issue" });
    const after = await settled(before.requests, 2);
    expect(after.searches - before.searches).toBe(2);
    expect(after.no_result - before.no_result).toBe(1);
    await runInDurableObject(stub, (object: SessionObject) => {
      expect(object.sql.one(`SELECT 1 AS x FROM trove_meta WHERE key = 'analytics_outbox'`)).toBeUndefined();
    });
  });
});

describe("analytics routes", () => {
  it("answer bad input with a 4xx JSON error naming the field", async () => {
    for (const [query, field] of [
      ["?days=0", "days"],
      ["?days=91", "days"],
      ["?days=abc", "days"],
      ["?bucket=month", "bucket"],
      ["?threshold=2", "threshold"],
      ["?to=2026-13-45", "to"],
      ["?to=yesterday", "to"],
      ["?color=red", "color"],
    ] as const) {
      const res = await call("GET", `/v1/analytics${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json.error).toMatchObject({ code: "invalid_input", details: { field } });
    }
    const badName = await call("GET", "/v1/analytics/tools/bad%20name");
    expect(badName.status).toBe(400);
    expect(badName.json.error.details.field).toBe("name");
    expect((await call("GET", "/v1/analytics", undefined, "wrong-key")).status).toBe(401);
  });

  it("buckets by week and reads the same through the typed client", async () => {
    const trove = new Trove({
      baseUrl: "https://trove.test",
      apiKey: KEY_A,
      fetch: async (url, init) => (await import("cloudflare:test")).SELF.fetch(url, init),
    });
    const weekly = await trove.tenant.analytics_get({ bucket: "week", days: 14 });
    expect(weekly.bucket).toBe("week");
    for (const b of weekly.buckets) expect(new Date(`${b.start}T00:00:00Z`).getUTCDay()).toBe(1);
    const daily = await trove.tenant.analytics_get();
    expect(daily.totals.requests).toBe(weekly.buckets.reduce((a, b) => a + b.requests, 0));
    expect(daily.prices.rows_written_per_million).toBe(1);
  });
});

describe("the analytics store's bounds", () => {
  const DAY_MS = 86_400_000;
  const day = (ago: number) => new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10);

  it("keeps at most 1,000 tools and 200 wordings a day, and nothing older than 90 days", async () => {
    const stub = env.ANALYTICS.get(env.ANALYTICS.idFromName(`bounds-${crypto.randomUUID()}`));
    const today = emptyDay(day(0));
    today.counts.searches = 5;
    today.tools = Array.from({ length: 1_100 }, (_, i) => [`t.tool_${i}`, 1, 0] as [string, number, number]);
    today.wording = Array.from({ length: 250 }, (_, i) => [
      `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))} pizza`,
      "no_result",
      1,
    ]) as DayBatch["wording"];
    const old = emptyDay(day(95));
    old.counts.searches = 7;
    await stub.record("bounds", [old, today]);
    // A known tool still counts once the day is full; a new one does not join.
    const more = emptyDay(day(0));
    more.tools = [
      ["t.tool_0", 2, 1],
      ["t.tool_new", 1, 0],
    ];
    await stub.record("bounds", [more]);
    const tools = await stub.tools(day(89), day(0), 2_000);
    expect(tools.tools).toHaveLength(1_000);
    expect(tools.tools.find((t) => t.tool === "t.tool_0")).toEqual({ tool: "t.tool_0", found: 3, used: 1 });
    expect(tools.tools.find((t) => t.tool === "t.tool_new")).toBeUndefined();
    const series = await stub.series(day(89), day(0), "day", 0.5, 1_000);
    expect(series.failing_wording).toHaveLength(200);
    expect(series.buckets).toHaveLength(90);
    // The 95-day-old batch was refused: 90 days are kept.
    expect(series.totals.searches).toBe(5);
    expect((await stub.series(day(99), day(90), "day", 0.5, 10)).totals.searches).toBe(0);
  });

  it("refuses wording that is not ordinary lower-case words", async () => {
    const stub = env.ANALYTICS.get(env.ANALYTICS.idFromName(`bounds-${crypto.randomUUID()}`));
    const batch = emptyDay(day(0));
    batch.wording = [
      ["refund card", "no_result", 1],
      ["card 4111 1111", "no_result", 1],
      ["Jenna", "low_relevance", 1],
    ];
    await stub.record("bounds", [batch]);
    const { failing_wording } = await stub.series(day(0), day(0), "day", 0.5, 10);
    expect(failing_wording).toEqual([{ words: "refund card", kind: "no_result", count: 1 }]);
  });
});

describe("Analytics Engine data points", () => {
  it("a batch becomes one point per day indexed by tenant, with the day's counts as doubles", () => {
    const day = emptyDay("2026-11-27");
    day.counts.requests = 7;
    day.counts.searches = 3;
    const points: unknown[] = [];
    expect(writeDataPoints({ writeDataPoint: (p) => points.push(p) }, "acme", [day])).toBe(1);
    expect(points).toEqual(dataPoints("acme", [day]));
    expect(points[0]).toMatchObject({ indexes: ["acme"], blobs: ["2026-11-27"] });
    expect((points[0] as { doubles: number[] }).doubles.slice(0, 4)).toEqual([7, 0, 0, 3]);
    expect(writeDataPoints(undefined, "acme", [day])).toBe(0);
  });
});
