// Cost you can see (issue 16, part 3): every session response says what it cost the session's
// storage, and the session resource reports its stored bytes. Slim storage (part 2): what a new
// session writes per tool and per bundled skill.
import { runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import { call, KEY_A, newSid } from "../support/http";
import { sessionStub } from "../support/session";

async function post(sid: string, name: string, body: unknown) {
  const res = await SELF.fetch(`https://trove.test/v1/sessions/${sid}/${name}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  const read = res.headers.get("trove-rows-read");
  const written = res.headers.get("trove-rows-written");
  expect(read, "trove-rows-read").toMatch(/^\d+$/);
  expect(written, "trove-rows-written").toMatch(/^\d+$/);
  return { status: res.status, read: Number(read), written: Number(written) };
}

const tools = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `ns.tool_${i}`, description: `Tool number ${i} for tests` }));

describe("storage cost headers", () => {
  it("count the rows a request wrote and read: a sync writes, an identical re-sync and a search do not", async () => {
    const sid = newSid();
    const sync = await post(sid, "catalog_sync", { tools: tools(20) });
    expect(sync.status).toBe(200);
    expect(sync.written).toBeGreaterThanOrEqual(20);
    const again = await post(sid, "catalog_sync", { tools: tools(20) });
    expect(again.written).toBeLessThan(sync.written);
    const search = await post(sid, "tool_search", { query: "tool number" });
    expect(search.status).toBe(200);
    expect(search.read).toBeGreaterThan(0);
    // Its telemetry is written after the response, not by the search.
    expect(search.written).toBe(0);
  });

  it("show a search reading its candidates' text once, until a write changes the catalog", async () => {
    const sid = newSid();
    await post(sid, "catalog_sync", { tools: tools(20) });
    const first = await post(sid, "tool_search", { query: "tool number", limit: 20 });
    const again = await post(sid, "tool_search", { query: "tool number", limit: 20 });
    // The second search reads the index alone: the twenty candidates' text is already in memory.
    expect(first.read - again.read).toBeGreaterThanOrEqual(20);
    // A sync that rewrites a description: the next search reads and ranks the new text.
    await post(sid, "catalog_sync", {
      tools: [{ name: "ns.tool_7", description: "Refund a card payment to the customer" }],
      mode: "merge",
    });
    const found = await call("POST", `/v1/sessions/${sid}/tool_search`, { query: "refund the payment" });
    expect(found.json.tools.map((t: { name: string }) => t.name)).toEqual(["ns.tool_7"]);
    const old = await call("POST", `/v1/sessions/${sid}/tool_search`, { query: "tests", limit: 20 });
    expect(old.json.tools).toHaveLength(19);
    expect(old.json.tools.map((t: { name: string }) => t.name)).not.toContain("ns.tool_7");
  });

  it("show a session's first search reading each tool once, not once per figure it needs", async () => {
    const sid = newSid();
    const n = 400;
    await post(sid, "catalog_sync", { tools: tools(n) });
    // Counts, names and description length come from one pass over the tools, and the index's
    // vocabulary from another (here a term per tool: its number); the candidates' entries are read
    // by id. Reading each figure apart read the whole catalog six times.
    const first = await post(sid, "tool_search", { query: "tool 123" });
    expect(first.status).toBe(200);
    expect(first.read).toBeLessThan(3 * n);
    const again = await post(sid, "tool_search", { query: "tool 321" });
    expect(again.read).toBeLessThan(n / 2);
    // An exact or regex search needs the counts alone (total_deferred): still one pass.
    const other = newSid();
    await post(other, "catalog_sync", { tools: tools(n) });
    const exact = await post(other, "tool_search", { query: "ns.tool_5", search_type: "exact" });
    expect(exact.read).toBeLessThan(3 * n);
  });

  it("show a search after a learning refresh re-reading the vocabulary and its candidates, not the catalog", async () => {
    const sid = newSid();
    const n = 400;
    await post(sid, "catalog_sync", { tools: tools(n) });
    const first = await post(sid, "tool_search", { query: "tool 123" });
    // What a refresh from the tenant's learning object does: one tool's learned words change.
    const changed = await runInDurableObject(sessionStub(sid), (obj, state) => {
      const { enabled: _, ...thresholds } = obj.config.get().learning;
      const terms = ["refund", "payment"].map((term) => ({ term, support: 100 }));
      const taught = state.storage.transactionSync(() =>
        obj.learning.apply(1, [{ tool: "ns.tool_7", terms }], obj.catalog.ids(), thresholds, Date.now()),
      );
      (obj as unknown as { learnedChanged(tools: number): void }).learnedChanged(taught);
      return taught;
    });
    expect(changed).toBe(1);
    // Learned text changes the index's words, not which tools there are, their names or their
    // descriptions: the next search skips the pass over the tools that the first one made.
    const after = await post(sid, "tool_search", { query: "tool 124" });
    expect(first.read - after.read).toBeGreaterThanOrEqual(n);
    // And it ranks with the new words: the vocabulary and the candidates' text were read again.
    const found = await call("POST", `/v1/sessions/${sid}/tool_search`, { query: "refund the payment" });
    expect(found.json.tools.map((t: { name: string }) => t.name)).toEqual(["ns.tool_7"]);
  });

  it("are sent on errors too: 0 for input refused before the session's storage was touched", async () => {
    const sid = newSid();
    const bad = await post(sid, "tool_search", { query: 1 });
    expect(bad.status).toBe(400);
    expect(bad).toMatchObject({ read: 0, written: 0 });
    const unknown = await post(sid, "tool_resolve", { name: "nope.missing" });
    expect(unknown.status).toBe(404);
  });

  it("are sent on answers refused before any operation ran: bad JSON, id, name, method, key, size, MCP origin", async () => {
    const sid = newSid();
    const json = { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" };
    const cases: [string, string, RequestInit, number][] = [
      ["invalid_json", `/v1/sessions/${sid}/tool_search`, { method: "POST", headers: json, body: "{" }, 400],
      [
        "invalid_session_id",
        "/v1/sessions/bad%20id/tool_search",
        { method: "POST", headers: json, body: "{}" },
        400,
      ],
      [
        "unknown_operation",
        `/v1/sessions/${sid}/tool_serach`,
        { method: "POST", headers: json, body: "{}" },
        404,
      ],
      ["method_not_allowed", `/v1/sessions/${sid}/tool_search`, { method: "GET", headers: json }, 405],
      ["unauthorized", `/v1/sessions/${sid}/tool_search`, { method: "POST", body: "{}" }, 401],
      [
        "body_too_large",
        `/v1/sessions/${sid}/catalog_sync`,
        { method: "POST", headers: json, body: "x".repeat(5 * 1024 * 1024 + 1) },
        413,
      ],
      [
        "mcp origin",
        `/v1/sessions/${sid}/mcp`,
        { method: "POST", headers: { ...json, origin: "https://evil.example" }, body: "{}" },
        403,
      ],
      ["mcp GET", `/v1/sessions/${sid}/mcp`, { method: "GET", headers: json }, 405],
    ];
    for (const [what, path, init, status] of cases) {
      const res = await SELF.fetch(`https://trove.test${path}`, init);
      await res.arrayBuffer();
      expect(res.status, what).toBe(status);
      expect(res.headers.get("trove-rows-read"), what).toBe("0");
      expect(res.headers.get("trove-rows-written"), what).toBe("0");
    }
  });

  it("are sent by the MCP endpoint too, summed over the request's operations", async () => {
    const sid = newSid();
    const mcp = (method: string, params: unknown) =>
      SELF.fetch(`https://trove.test/v1/sessions/${sid}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${KEY_A}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
    const sync = await mcp("tools/call", { name: "catalog_sync", arguments: { tools: tools(5) } });
    expect(sync.status).toBe(200);
    expect(((await sync.json()) as { result: { isError?: boolean } }).result.isError).toBeUndefined();
    expect(Number(sync.headers.get("trove-rows-written"))).toBeGreaterThanOrEqual(5);
    const list = await mcp("tools/list", {});
    await list.arrayBuffer();
    expect(list.headers.get("trove-rows-written")).toBe("0");
  });

  it("GET /v1/sessions/{sid} reports the bytes the session stores, growing with its catalog", async () => {
    const sid = newSid();
    await post(sid, "catalog_sync", { tools: tools(1) });
    const small = (await call("GET", `/v1/sessions/${sid}`)).json.storage.bytes;
    await post(sid, "catalog_sync", { tools: tools(400) });
    const large = (await call("GET", `/v1/sessions/${sid}`)).json.storage.bytes;
    expect(small).toBeGreaterThan(0);
    expect(large).toBeGreaterThan(small);
  });
});

/** A bundle of `n` Penguiflow skills in one pack, compiled as build:packs would. */
function skillBundle(n: number) {
  const files = [{ path: "slim/pack.yaml", content: "name: slim\n" }];
  for (let i = 0; i < n; i++) {
    files.push({
      path: `slim/s${i}.skill.json`,
      content: JSON.stringify({
        name: `skill-${i}`,
        title: `Playbook ${i}`,
        trigger: `When the user asks for report ${i}`,
        steps: ["Find the tool", "Call it", "Report"],
      }),
    });
  }
  const { bundle, errors } = compilePacks(files);
  expect(errors).toEqual([]);
  return bundle;
}

describe("slim storage (issue 16, part 2)", () => {
  it("a new session writes at most 3 rows per tool, uploaded or published", async () => {
    const n = 400;
    const uploaded = await post(newSid(), "catalog_sync", { tools: tools(n) });
    expect(uploaded.status).toBe(200);
    expect(uploaded.written).toBeLessThanOrEqual(3 * n);

    const name = `slim-${crypto.randomUUID().slice(0, 8)}`;
    expect((await call("PUT", `/v1/catalogs/${name}`, { tools: tools(n) })).status).toBe(200);
    const base = await put(newSid(), {});
    const attached = await put(newSid(), { catalog: name });
    expect(attached.status).toBe(200);
    expect(attached.written - base.written).toBeLessThanOrEqual(3 * n);
  });

  it("a new session writes at most 2 rows per bundled skill", async () => {
    const n = 60;
    const written = async (bundle: Bundle) => {
      const sid = newSid();
      await runInDurableObject(sessionStub(sid), (obj) => {
        obj.bundle = bundle;
      });
      return (await post(sid, "skill_list", {})).written;
    };
    const none = await written(skillBundle(0));
    const many = await written(skillBundle(n));
    expect(many - none).toBeLessThanOrEqual(2 * n);
  });
});

async function put(sid: string, body: unknown) {
  const res = await SELF.fetch(`https://trove.test/v1/sessions/${sid}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  return { status: res.status, written: Number(res.headers.get("trove-rows-written")) };
}
