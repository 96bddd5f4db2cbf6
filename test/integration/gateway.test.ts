// The gateway (docs/gateway.md): the official SDK client connects to /v1/gateway/mcp, lists a few
// tools instead of every upstream tool, searches, calls through call_tool and gets the upstream's
// result unchanged; activation sends list_changed; approval goes through elicitation when the
// client declared it; upstream failures are tool errors naming the upstream. The upstreams are
// real MCP servers built with the official SDK (test/fixtures/mcp-upstream/).

import { SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { beforeAll, describe, expect, it } from "vitest";
import { call, KEY_A, KEY_B, op } from "../support/http";

const GATEWAY = new URL("https://trove.test/v1/gateway/mcp");

interface Connected {
  client: Client;
  sid: string;
  /** How many notifications/tools/list_changed arrived. */
  listChanged: () => number;
}

/** An SDK client connected to the gateway; `elicit` declares elicitation and answers with it. */
async function connect(key = KEY_A, elicit?: "accept" | "decline"): Promise<Connected> {
  const transport = new StreamableHTTPClientTransport(GATEWAY, {
    fetch: (url, init) => SELF.fetch(url, init),
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  const client = new Client(
    { name: "gateway-test", version: "1.0.0" },
    {
      capabilities: elicit ? { elicitation: { form: {} } } : {},
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  let changed = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changed++;
  });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, () => ({ action: elicit, content: {} }));
  await client.connect(transport);
  return { client, sid: transport.sessionId as string, listChanged: () => changed };
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

/** The gateway profile every test starts from. */
const PROFILE = {
  upstreams: ["tools", "hasty", "lively"],
  policy: { approval: ["tools.delete_*"], deny: ["tools.update_user"] },
  always_loaded_patterns: ["tools.echo"],
};

beforeAll(async () => {
  const put = await call("PUT", "/v1/upstreams/tools", { url: "https://tools.upstream.test/mcp" });
  expect(put.json.status).toBe("ok");
  // The slow tool's upstream, with a short timeout so that it fails fast.
  const slow = await call("PUT", "/v1/upstreams/hasty", {
    url: "https://tools.upstream.test/mcp",
    timeout_ms: 300,
  });
  expect(slow.json.status).toBe("ok");
  // An upstream that adds a tool while it runs, and says so.
  expect(
    (await call("PUT", "/v1/upstreams/lively", { url: "https://sse.upstream.test/mcp" })).json.tools,
  ).toBe(56);
  const profile = await call("PUT", "/v1/gateway/profile", PROFILE);
  expect(profile.status).toBe(200);
});

describe("the gateway", () => {
  it("lists Trove's tools, always-loaded tools and call_tool, not every upstream tool", async () => {
    const { client, sid } = await connect();
    expect(sid).toMatch(/^gw-/);
    const listed = await names(client);
    expect(listed).toContain("tool_search");
    expect(listed).toContain("call_tool");
    expect(listed).toContain("tools.echo");
    expect(listed).not.toContain("tools.delete_invoice");
    // 166 upstream tools in the catalog, a handful listed.
    expect(listed.filter((n) => /^(tools|hasty|lively)\./.test(n))).toEqual(["tools.echo"]);
    // The gateway's session is a Trove session like any other.
    const state = await op(sid, "session_get", {});
    expect(state.json.catalog.published.name).toBe("_gateway");
    expect(state.json.catalog.tools).toBe(165); // 166 less the denied tools.update_user
  });

  it("search → list_changed → call_tool → the upstream's result, unchanged", async () => {
    const { client, listChanged } = await connect();
    const found = await callTool(client, "tool_search", { query: "permanently delete an invoice", limit: 3 });
    expect(found.isError ?? false).toBe(false);
    const results = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(results).toContain("tools.delete_invoice");
    expect(listChanged()).toBe(1);
    expect(await names(client)).toContain("tools.delete_invoice");
    const echoed = await callTool(client, "call_tool", { name: "tools.echo", arguments: { text: "hello" } });
    expect(echoed).toEqual({
      content: [{ type: "text", text: "hello" }],
      structuredContent: { echoed: "hello" },
    });
    // A found tool called by its own name, as a host that re-listed would.
    const got = await callTool(client, "tools.get_invoice", { id: "in_1" });
    expect(got.structuredContent).toEqual({ tool: "get_invoice", args: { id: "in_1" } });
  });

  it("orders imported tools that share the request's words by what each returns", async () => {
    // Two upstream tools that say the same and take the same input; only west's outputSchema
    // holds calories. Without it east, first by name, would come first.
    const upstream = await call("PUT", "/v1/upstreams/food", { url: "https://food.upstream.test/mcp" });
    expect(upstream.json).toMatchObject({ status: "ok", tools: 2 });
    await call("PUT", "/v1/gateway/profile", { ...PROFILE, upstreams: [...PROFILE.upstreams, "food"] });
    try {
      const { client } = await connect();
      const found = await callTool(client, "tool_search", { query: "look up the calories in a banana" });
      expect(found.isError ?? false).toBe(false);
      const results = (found.structuredContent as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect(results.slice(0, 2)).toEqual(["food.query_west", "food.query_east"]);
      // Found tools are listed, with the outputSchema the upstream declared.
      const listed = (await client.listTools()).tools;
      expect(listed.find((t) => t.name === "food.query_west")?.outputSchema).toEqual({
        type: "object",
        properties: {
          calories: { type: "number", description: "Energy per serving" },
          protein: { type: "number", description: "Grams per serving" },
        },
      });
    } finally {
      await call("PUT", "/v1/gateway/profile", PROFILE);
      await call("DELETE", "/v1/upstreams/food");
    }
  });

  it("activates a tool on its first call and says the list changed", async () => {
    const { client, listChanged } = await connect();
    expect(await names(client)).not.toContain("tools.list_ticket");
    const listed = await callTool(client, "call_tool", {
      name: "tools.list_ticket",
      arguments: { limit: 2 },
    });
    expect(listed.structuredContent).toEqual({ tool: "list_ticket", args: { limit: 2 } });
    expect(listChanged()).toBe(1);
    expect(await names(client)).toContain("tools.list_ticket");
  });

  it("validates arguments before forwarding, and answers denied and absent tools alike", async () => {
    const { client } = await connect();
    const invalid = await callTool(client, "call_tool", { name: "tools.get_invoice", arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(JSON.parse(textOf(invalid)).error.code).toBe("invalid_arguments");
    const denied = await callTool(client, "call_tool", { name: "tools.update_user", arguments: { id: "u" } });
    const absent = await callTool(client, "call_tool", {
      name: "tools.update_userx",
      arguments: { id: "u" },
    });
    expect(denied.isError).toBe(true);
    expect(textOf(denied).replace("update_user", "X")).toBe(textOf(absent).replace("update_userx", "X"));
  });

  it("turns upstream failures into tool errors naming the upstream and why", async () => {
    const { client } = await connect();
    const failed = await callTool(client, "call_tool", { name: "tools.fail", arguments: {} });
    // The upstream's own tool error comes back as it gave it.
    expect(failed).toEqual({
      isError: true,
      content: [{ type: "text", text: "the fixture's fail tool failed, as asked" }],
    });
    const slow = await callTool(client, "call_tool", { name: "hasty.slow", arguments: {} });
    expect(slow.isError).toBe(true);
    expect(textOf(slow)).toMatch(/^upstream "hasty" timed out after 300 ms/);
    const huge = await callTool(client, "call_tool", { name: "tools.huge", arguments: {} });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toMatch(/^upstream "tools" .*too large|limit/);
  });

  it("asks a person by elicitation and forwards the call they accept", async () => {
    const { client, sid } = await connect(KEY_A, "accept");
    expect(sid).toMatch(/^gwe-/);
    const deleted = await callTool(client, "call_tool", {
      name: "tools.delete_file",
      arguments: { id: "f1" },
    });
    expect(deleted.structuredContent).toEqual({ tool: "delete_file", args: { id: "f1" } });
    const events = await op(sid, "events", {});
    const decided = events.json.events.find((e: { type: string }) => e.type === "approval_decided");
    expect(decided.data).toMatchObject({
      decision: "approve",
      by: "elicitation",
      tool_name: "tools.delete_file",
    });
  });

  it("does not forward a call the person declines", async () => {
    const { client } = await connect(KEY_A, "decline");
    const declined = await callTool(client, "call_tool", {
      name: "tools.delete_file",
      arguments: { id: "f2" },
    });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/declined/);
  });

  it("names the pending approval to a client without elicitation, and forwards once approved", async () => {
    const { client, sid } = await connect();
    const pending = await callTool(client, "call_tool", {
      name: "tools.delete_user",
      arguments: { id: "u1" },
    });
    expect(pending.isError).toBe(true);
    const approvalId = /approval (\S+) is pending/.exec(textOf(pending))?.[1] as string;
    expect(approvalId).toBeTruthy();
    const approved = await op(sid, "approval_decide", { approval_id: approvalId, decision: "approve" });
    expect(approved.status).toBe(200);
    const done = await callTool(client, "call_tool", {
      name: "tools.delete_user",
      arguments: { id: "u1" },
      approval_id: approvalId,
    });
    expect(done.structuredContent).toEqual({ tool: "delete_user", args: { id: "u1" } });
  });

  it("teaches learning with a successful call, as a resolve does", async () => {
    const tool = "tools.update_calendar_event";
    const { client } = await connect();
    await callTool(client, "tool_search", { query: "reschedule the standup meeting" });
    const done = await callTool(client, "call_tool", { name: tool, arguments: { id: "e1" } });
    expect(done.isError ?? false).toBe(false);
    // Sessions send what they learned after answering: wait until the tenant holds it.
    let terms: { term: string }[] = [];
    for (let i = 0; i < 200 && terms.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      terms = (await call("GET", `/v1/learning/tools/${tool}`)).json.terms;
    }
    expect(terms.map((t) => t.term)).toEqual(expect.arrayContaining(["reschedule", "meeting"]));
  });

  it("imports an upstream again when it says during a call that its tools changed", async () => {
    const { client } = await connect();
    const grown = await callTool(client, "call_tool", { name: "lively.grow", arguments: {} });
    expect(grown).toEqual({ content: [{ type: "text", text: "grown" }] });
    // The import runs after the answer: wait until the upstream serves the new tool.
    let tools = 0;
    for (let i = 0; i < 200 && tools !== 57; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      tools = (await call("GET", "/v1/upstreams/lively")).json.tools;
    }
    expect(tools).toBe(57);
  });

  it("gives another tenant none of this tenant's upstreams", async () => {
    const { client } = await connect(KEY_B);
    expect((await names(client)).some((n) => n.startsWith("tools."))).toBe(false);
    const result = await callTool(client, "call_tool", { name: "tools.echo", arguments: { text: "x" } });
    expect(result.isError).toBe(true);
    expect(JSON.parse(textOf(result)).error.code).toBe("unknown_tool");
  });

  it("refuses requests without a session or a key", async () => {
    const noKey = await SELF.fetch(GATEWAY, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noKey.status).toBe(401);
    const noSession = await SELF.fetch(GATEWAY, {
      method: "POST",
      headers: {
        authorization: `Bearer ${KEY_A}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(noSession.status).toBe(400);
    // No standalone stream: GET is refused even with a session.
    const { sid } = await connect();
    const get = await SELF.fetch(GATEWAY, {
      headers: { authorization: `Bearer ${KEY_A}`, accept: "text/event-stream", "mcp-session-id": sid },
    });
    expect(get.status).toBe(405);
    await get.body?.cancel();
    expect((await noSession.json()) as object).toMatchObject({
      error: { message: expect.stringMatching(/initialize/) },
    });
  });
});
