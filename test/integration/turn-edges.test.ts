// Edges of a turn found while building it: each case once answered wrongly.
import { describe, expect, it } from "vitest";
import { call, newSid, op } from "../support/http";

const schema = {
  type: "object",
  properties: { repo: { type: "string" } },
  required: ["repo"],
  additionalProperties: false,
};

describe("tool_resolve", () => {
  it("answers for tool_search itself, validating its arguments", async () => {
    const sid = newSid();
    const ok = await op(sid, "tool_resolve", { name: "tool_search", args: { query: "refund" } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ decision: "allow", name: "tool_search", activated: false });
    const bad = await op(sid, "tool_resolve", { name: "tool_search", args: { query: 3 } });
    expect(bad.status).toBe(422);
    await call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["tool_search"] } });
    expect((await op(sid, "tool_resolve", { name: "tool_search" })).json.error.code).toBe("unknown_tool");
  });

  it("names an unexpected argument as additionalProperties", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: [{ name: "gh.issue", description: "d", input_schema: schema }] });
    const res = await op(sid, "tool_resolve", { name: "gh.issue", args: { repo: "a", extra: 1 } });
    expect(res.status).toBe(422);
    expect(res.json.error.details.violations).toEqual([
      expect.objectContaining({ keyword: "additionalProperties", path: "/" }),
    ]);
  });

  it("does not fail on a schema whose $ref cannot be resolved", async () => {
    const sid = newSid();
    const broken = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } };
    await op(sid, "catalog_sync", { tools: [{ name: "gh.odd", description: "d", input_schema: broken }] });
    const res = await op(sid, "tool_resolve", { name: "gh.odd", args: { a: 1 } });
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe("allow");
  });
});

describe("approvals and the policy", () => {
  it("answers approval_decide for a tool denied since the request as for an unknown approval", async () => {
    const sid = newSid();
    await call("PUT", `/v1/sessions/${sid}`, { policy: { approval: ["pay.*"] } });
    await op(sid, "catalog_sync", { tools: [{ name: "pay.send", description: "Send money" }] });
    const ask = await op(sid, "tool_resolve", { name: "pay.send" });
    await call("PUT", `/v1/sessions/${sid}`, { policy: { approval: ["pay.*"], deny: ["pay.*"] } });
    const decided = await op(sid, "approval_decide", {
      approval_id: ask.json.approval_id,
      decision: "approve",
    });
    const unknown = await op(sid, "approval_decide", { approval_id: "apr_nope", decision: "approve" });
    expect(decided.status).toBe(404);
    expect(decided.json).toEqual(unknown.json);
  });
});

describe("events paging", () => {
  it("fills a page past events about denied tools, so an empty page means the end", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", {
      tools: [
        { name: "a.one", description: "d" },
        { name: "b.two", description: "d" },
      ],
    });
    await op(sid, "tool_activate", { names: ["b.two"] });
    await op(sid, "tool_activate", { names: ["a.one"] });
    await call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["b.*"] } });
    // catalog_synced, tool_activated(b.two, hidden), tool_activated(a.one)
    const page = await op(sid, "events", { since: 0, limit: 2 });
    expect(page.json.events.map((e: { type: string }) => e.type)).toEqual([
      "catalog_synced",
      "tool_activated",
    ]);
    expect(page.json.events[1].data.tool_name).toBe("a.one");
    expect(JSON.stringify(page.json)).not.toContain("b.two");
    const rest = await op(sid, "events", { since: page.json.next_cursor, limit: 2 });
    expect(rest.json.events).toEqual([]);
  });
});
