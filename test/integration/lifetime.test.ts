// A session's lifetime: the bounded, cursor-paged event log; the idle alarm that erases a session
// nobody used for ttl_seconds; and run-scoped activations that expire and are pruned.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { SessionObject } from "../../src/session-object";
import { DEFAULT_CONFIG } from "../../src/state/config";
import { EMPTY_FINGERPRINT, GITHUB_SLACK } from "../support/fixtures";
import { agentTools, call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const stubFor = (sid: string) => sessionStub(sid);
const inObject = <R>(sid: string, fn: (obj: SessionObject, state: DurableObjectState) => R | Promise<R>) =>
  runInDurableObject(stubFor(sid), fn);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function seeded(config: Record<string, unknown> = {}): Promise<string> {
  const sid = newSid();
  expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
  expect((await op(sid, "catalog_sync", { tools: GITHUB_SLACK })).status).toBe(200);
  return sid;
}

async function eventsPage(sid: string, body: Record<string, unknown>) {
  const res = await op(sid, "events", body);
  expect(res.status).toBe(200);
  return res.json as { events: { id: number; type: string; at: string; data: any }[]; next_cursor: number };
}

const lastSeen = (sid: string) =>
  inObject(sid, (obj) =>
    Number(obj.sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'last_seen'`)?.value),
  );

/**
 * Moves last_seen back in time, as if the session had been idle that long. The scheduled alarm is
 * left alone (an alarm set in the past would fire at once, by itself); runDurableObjectAlarm runs it.
 */
const idleFor = (sid: string, ms: number) =>
  inObject(sid, (obj) => {
    obj.sql.run(`UPDATE trove_meta SET value = ? WHERE key = 'last_seen'`, String(Date.now() - ms));
  });

/** Restarts the object so nothing it remembers in memory outlives the test's SQL edits. */
async function restart(sid: string): Promise<void> {
  await runInDurableObject(stubFor(sid), (_obj, state) => {
    state.abort("restart for the test");
  }).catch(() => undefined);
}

const troveTables = (sid: string) =>
  inObject(sid, (_obj, state) =>
    state.storage.sql
      .exec<{ name: string }>(`SELECT name FROM sqlite_master WHERE name LIKE 'trove%'`)
      .toArray()
      .map((r) => r.name),
  );

describe("the event log", () => {
  it("lists events oldest first with increasing ids and ISO timestamps", async () => {
    const sid = await seeded();
    await op(sid, "tool_search", { query: "issue" });
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    await op(sid, "tool_deactivate", { names: ["github.list_repos"] });
    const page = await eventsPage(sid, {});
    expect(page.events.map((e) => e.type)).toEqual([
      "catalog_synced",
      "tool_search_query",
      "tool_activated",
      "tool_deactivated",
    ]);
    expect(page.events.map((e) => e.id)).toEqual([1, 2, 3, 4]);
    expect(page.next_cursor).toBe(4);
    const times = page.events.map((e) => Date.parse(e.at));
    for (const [i, e] of page.events.entries()) {
      expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      if (i > 0) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] as number);
    }
    expect(page.events[1]?.data).toEqual({
      query: "issue",
      requested_search_type: "fts",
      effective_search_type: "fts",
      results_count: 1,
      results: ["github.create_issue"],
    });
  });

  it("pages with since and limit, next_cursor being the last id returned", async () => {
    const sid = newSid();
    for (let i = 0; i < 7; i++) await op(sid, "tool_search", { query: `q${i}` });
    const p1 = await eventsPage(sid, { limit: 3 });
    expect(p1.events.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(p1.next_cursor).toBe(3);
    const p2 = await eventsPage(sid, { since: p1.next_cursor, limit: 3 });
    expect(p2.events.map((e) => e.id)).toEqual([4, 5, 6]);
    expect(p2.next_cursor).toBe(6);
    const p3 = await eventsPage(sid, { since: p2.next_cursor, limit: 3 });
    expect(p3.events.map((e) => e.data.query)).toEqual(["q6"]);
    expect(p3.next_cursor).toBe(7);
    const p4 = await eventsPage(sid, { since: p3.next_cursor, limit: 3 });
    expect(p4).toEqual({ events: [], next_cursor: 7 });
    expect(await eventsPage(sid, { since: 1000 })).toEqual({ events: [], next_cursor: 1000 });
    expect((await eventsPage(sid, {})).events).toHaveLength(7);
  });

  it("paging one event at a time reaches every later event past events about a tool denied since", async () => {
    const sid = await seeded();
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    await op(sid, "tool_deactivate", { names: ["github.list_repos"] });
    expect((await call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["github.list_*"] } })).status).toBe(
      200,
    );
    await op(sid, "tool_search", { query: "after the deny" });
    const seen: { type: string; data: any }[] = [];
    let cursor = 0;
    for (let guard = 0; guard < 20; guard++) {
      const page = await eventsPage(sid, { since: cursor, limit: 1 });
      if (page.next_cursor === cursor) break;
      expect(page.next_cursor).toBeGreaterThan(cursor);
      seen.push(...page.events);
      cursor = page.next_cursor;
    }
    expect(JSON.stringify(seen)).not.toContain("list_repos");
    expect(seen.at(-1)).toMatchObject({ type: "tool_search_query", data: { query: "after the deny" } });
    expect(cursor).toBe(4);
  });

  it("rejects limits outside 1..500 and negative cursors with 400 invalid_input", async () => {
    const sid = newSid();
    for (const body of [{ limit: 0 }, { limit: 501 }, { since: -1 }, { since: 1.5 }, { limit: "10" }]) {
      const res = await op(sid, "events", body);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
    }
    expect((await eventsPage(sid, { limit: 500 })).events).toEqual([]);
  });

  it("keeps only the last 5,000 events", async () => {
    const sid = newSid();
    expect((await call("GET", `/v1/sessions/${sid}`)).status).toBe(200);
    const quiet = vi.spyOn(console, "log").mockImplementation(() => undefined);
    try {
      await inObject(sid, (obj, state) => {
        state.storage.transactionSync(() => {
          for (let i = 0; i < 5_100; i++) obj.events.record("tool_search_query", { i });
        });
      });
    } finally {
      quiet.mockRestore();
    }

    const seen: { id: number; data: any }[] = [];
    let cursor = 0;
    for (;;) {
      const page = await eventsPage(sid, { since: cursor, limit: 500 });
      if (page.next_cursor === cursor) break;
      seen.push(...page.events);
      cursor = page.next_cursor;
    }
    expect(seen).toHaveLength(5_000);
    expect(seen[0]).toMatchObject({ id: 101, data: { i: 100 } });
    expect(seen.at(-1)).toMatchObject({ id: 5_100, data: { i: 5_099 } });
    expect(seen.every((e, i) => e.id === 101 + i)).toBe(true);

    // One more event over HTTP pushes the oldest out.
    await op(sid, "tool_search", { query: "one more" });
    const head = await eventsPage(sid, { limit: 1 });
    expect(head.events[0]?.id).toBe(102);
    const tail = await eventsPage(sid, { since: 5_100 });
    expect(tail.events.map((e) => [e.id, e.type])).toEqual([[5_101, "tool_search_query"]]);
    expect(
      await inObject(sid, (obj) => obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_events`)?.n),
    ).toBe(5_000);
  });
});

describe("the idle alarm", () => {
  it("a request schedules the alarm at last_seen + ttl_seconds", async () => {
    const before = Date.now();
    const sid = await seeded({ ttl_seconds: 3_600 });
    const { alarm, seen } = await inObject(sid, async (obj, state) => ({
      alarm: await state.storage.getAlarm(),
      seen: Number(
        obj.sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'last_seen'`)?.value,
      ),
    }));
    expect(alarm).not.toBeNull();
    expect(seen).toBeGreaterThanOrEqual(before);
    expect(alarm).toBe(seen + 3_600_000);
  });

  it("the alarm erases a session idle past ttl_seconds, storage, alarm and all", async () => {
    const sid = await seeded({ ttl_seconds: 120, project_id: "proj-1", activation_scope: "run" });
    await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "r1" });
    await idleFor(sid, 121_000);

    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    expect(await troveTables(sid)).toEqual([]);
    expect(await inObject(sid, (_obj, state) => state.storage.getAlarm())).toBeNull();
  });

  it("running the alarm again after an erase is harmless", async () => {
    const sid = await seeded({ ttl_seconds: 120 });
    await idleFor(sid, 121_000);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    // No alarm is left to run; calling the handler directly twice changes nothing either.
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(false);
    await inObject(sid, async (obj) => {
      await obj.alarm();
      await obj.alarm();
    });
    expect(await troveTables(sid)).toEqual([]);
    expect(await inObject(sid, (_obj, state) => state.storage.getAlarm())).toBeNull();
  });

  it("an erased session answers as a fresh session with the default config", async () => {
    const sid = await seeded({
      ttl_seconds: 120,
      project_id: "proj-1",
      examples: { enabled: false, max_per_tool: 1 },
    });
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    await idleFor(sid, 121_000);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);

    const view = await call("GET", `/v1/sessions/${sid}`);
    expect(view.status).toBe(200);
    expect(view.json).toEqual({
      config: DEFAULT_CONFIG,
      catalog: { fingerprint: EMPTY_FINGERPRINT, tools: 0, deferred: 0, visible: 0, published: null },
      storage: { bytes: expect.any(Number) },
    });
    const st = (await op(sid, "state", {})).json;
    expect(st.activations).toEqual([]);
    expect(st.pending_approvals).toEqual([]);
    expect(agentTools(st.visible)).toEqual(["tool_search"]);
    expect(await eventsPage(sid, {})).toEqual({ events: [], next_cursor: 0 });
    expect((await op(sid, "tool_resolve", { name: "github.list_repos" })).status).toBe(404);
    // The same catalog is new again, and the fresh session has its own alarm.
    const sync = await op(sid, "catalog_sync", { tools: GITHUB_SLACK });
    expect(sync.json).toMatchObject({ added: 3, updated: 0, removed: 0, unchanged: 0, total: 3 });
    const alarm = await inObject(sid, (_obj, state) => state.storage.getAlarm());
    expect(alarm).toBe((await lastSeen(sid)) + DEFAULT_CONFIG.ttl_seconds * 1000);
  });

  it("an alarm that fires before the idle deadline keeps the session and re-arms at the deadline", async () => {
    const sid = await seeded({ ttl_seconds: 3_600 });
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    const view = (await call("GET", `/v1/sessions/${sid}`)).json;
    expect(view.catalog.tools).toBe(3);
    expect((await op(sid, "state", {})).json.activations.map((a: any) => a.name)).toEqual([
      "github.list_repos",
    ]);
    const alarm = await inObject(sid, (_obj, state) => state.storage.getAlarm());
    expect(alarm).toBe((await lastSeen(sid)) + 3_600_000);
  });

  it("raising ttl_seconds keeps a session alive past the old deadline", async () => {
    const sid = await seeded({ ttl_seconds: 60 });
    expect((await call("PUT", `/v1/sessions/${sid}`, { ttl_seconds: 3_600 })).status).toBe(200);
    await idleFor(sid, 61_000);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(3);
  });

  it("lowering ttl_seconds brings the scheduled erase forward to the new deadline", async () => {
    const sid = await seeded(); // default TTL: 7 days
    const put = Date.now();
    expect((await call("PUT", `/v1/sessions/${sid}`, { ttl_seconds: 60 })).status).toBe(200);
    const alarm = await inObject(sid, (_obj, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    // At most the new TTL after the last request, not a week away.
    expect(alarm as number).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(alarm as number).toBeGreaterThanOrEqual(put - 1_000);
  });

  it("a request 59 s into a 60 s TTL pushes the erase back by about a full TTL", async () => {
    const sid = await seeded({ ttl_seconds: 60 });
    // The state 59 s after the last write: last_seen then, the alarm due in a second.
    await inObject(sid, async (obj, state) => {
      const then = Date.now() - 59_000;
      obj.sql.run(`UPDATE trove_meta SET value = ? WHERE key = 'last_seen'`, String(then));
      await state.storage.setAlarm(then + 60_000);
    });
    await restart(sid);
    const requestAt = Date.now();
    expect((await call("GET", `/v1/sessions/${sid}`)).status).toBe(200);
    const alarm = (await inObject(sid, (_obj, state) => state.storage.getAlarm())) as number;
    // api.md: the deadline moves once it has drifted by more than 1 % of the TTL.
    expect.soft(alarm).toBeGreaterThanOrEqual(requestAt + 59_400);
    // The consequence: a session used a second ago must survive its alarm.
    await sleep(1_100);
    if ((await inObject(sid, (_obj, state) => state.storage.getAlarm())) !== null) {
      await runDurableObjectAlarm(stubFor(sid));
    }
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(3);
  });

  it("DELETE erases the session and its alarm", async () => {
    const sid = await seeded();
    expect(await inObject(sid, (_obj, state) => state.storage.getAlarm())).not.toBeNull();
    expect((await call("DELETE", `/v1/sessions/${sid}`)).json).toEqual({ deleted: true });
    expect(await inObject(sid, (_obj, state) => state.storage.getAlarm())).toBeNull();
    expect(await troveTables(sid)).toEqual([]);
  });
});

describe("run-scoped activation expiry", () => {
  const RUN = { activation_scope: "run", ttl_seconds: 3_600 };

  it("an activation past run_activation_ttl_seconds is invisible in context and state", async () => {
    const sid = await seeded({ ...RUN, run_activation_ttl_seconds: 1 });
    await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "r1" });
    const listed = await op(sid, "context", { format: "json", run_id: "r1" });
    expect(agentTools(listed.json.tools.map((t: any) => t.name))).toEqual([
      "tool_search",
      "github.list_repos",
    ]);
    expect(listed.json.deferred_count).toBe(2);

    await sleep(1_100);
    const after = await op(sid, "context", { format: "json", run_id: "r1" });
    expect(agentTools(after.json.tools.map((t: any) => t.name))).toEqual(["tool_search"]);
    expect(after.json.deferred_count).toBe(3);
    const st = (await op(sid, "state", { run_id: "r1" })).json;
    expect(st.activations).toEqual([]);
    expect(agentTools(st.visible)).toEqual(["tool_search"]);
    // It can be activated again, as a new activation with a new event.
    const again = await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "r1" });
    expect(again.json).toEqual({ activated: ["github.list_repos"], already_visible: [] });
    const activated = (await eventsPage(sid, {})).events.filter((e) => e.type === "tool_activated");
    expect(activated).toHaveLength(2);
  });

  it("a resolve after expiry activates the tool again on first use", async () => {
    const sid = await seeded(RUN);
    await op(sid, "tool_resolve", { name: "github.list_repos", run_id: "r1" });
    await inObject(sid, (obj) => {
      obj.sql.run(`UPDATE trove_activations SET expires_at = ?`, Date.now() - 1_000);
    });
    const res = await op(sid, "tool_resolve", { name: "github.list_repos", run_id: "r1" });
    expect(res.json).toMatchObject({ decision: "allow", activated: true });
  });

  it("the alarm prunes expired run activations and keeps the session and live activations", async () => {
    const sid = await seeded(RUN);
    await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "r1" });
    await op(sid, "tool_activate", { names: ["slack.send_message"], run_id: "r2" });
    await inObject(sid, (obj) => {
      obj.sql.run(`UPDATE trove_activations SET expires_at = ? WHERE run_id = 'r1'`, Date.now() - 1_000);
    });
    const ctx = await op(sid, "context", { format: "json", run_id: "r1" });
    expect(agentTools(ctx.json.tools.map((t: any) => t.name))).toEqual(["tool_search"]);
    const rows = () =>
      inObject(sid, (obj) =>
        obj.sql.all<{ tool_name: string; run_id: string }>(
          `SELECT tool_name, run_id FROM trove_activations ORDER BY run_id`,
        ),
      );
    // Still stored: requests within the drift window write nothing.
    expect(await rows()).toHaveLength(2);

    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    expect(await rows()).toEqual([{ tool_name: "slack.send_message", run_id: "r2" }]);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(3);
    const r2 = await op(sid, "context", { format: "json", run_id: "r2" });
    expect(agentTools(r2.json.tools.map((t: any) => t.name))).toEqual(["tool_search", "slack.send_message"]);
    expect(await inObject(sid, (_obj, state) => state.storage.getAlarm())).toBe(
      (await lastSeen(sid)) + 3_600_000,
    );
  });
});
