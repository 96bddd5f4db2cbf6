// Trove as OpenAI Responses' client-executed tool search: context with format openai_responses and
// defer_loading lists the tool_search tool (execution "client") and every allowed tool, deferred
// ones marked defer_loading; tool_search answers a ready tool_search_output item holding the found
// tools' definitions, each the one context lists for that name.
import { describe, expect, it } from "vitest";
import { closed } from "../support/fixtures";
import { call, newSid, op } from "../support/http";

const CATALOG = [
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    input_schema: closed({ repo: { type: "string" }, title: { type: "string" } }),
    examples: [{ args: { repo: "acme/web", title: "Login fails" }, tags: ["minimal"] }],
  },
  {
    name: "stripe:refund_payment",
    description: "Refund a Stripe payment",
    input_schema: closed({ payment_id: { type: "string" }, amount: { type: ["integer", "null"] } }),
  },
  {
    name: "slack.post_message",
    description: "Post a message to a Slack channel",
    input_schema: { type: "object", properties: { channel: { type: "string" } }, required: ["channel"] },
  },
  { name: "stripe:delete_customer", description: "Delete a Stripe customer and their payment methods" },
];
const CONFIG = {
  skills: { enabled: false },
  always_loaded_patterns: ["github.create_issue"],
  policy: { deny: ["stripe:delete_customer"] },
};

async function seeded(config: Record<string, unknown> = CONFIG): Promise<string> {
  const sid = newSid();
  expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
  expect((await op(sid, "catalog_sync", { tools: CATALOG })).status).toBe(200);
  return sid;
}

async function ok(sid: string, name: string, body: Record<string, unknown>): Promise<any> {
  const res = await op(sid, name, body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

describe("context with format openai_responses and defer_loading", () => {
  it("lists tool_search as the client-executed tool search tool, then the loaded tools, then every other allowed tool deferred", async () => {
    const sid = await seeded();
    const ctx = await ok(sid, "context", { format: "openai_responses", defer_loading: true });
    const plain = await ok(sid, "context", { format: "openai_responses" });
    const search = plain.tools.find((t: any) => t.name === "tool_search");

    expect(ctx.tools[0]).toEqual({
      type: "tool_search",
      execution: "client",
      description: search.description,
      parameters: search.parameters,
    });
    expect(ctx.tools.slice(1).map((t: any) => [t.type, t.name, t.defer_loading])).toEqual([
      ["function", "github_create_issue", undefined],
      ["function", "slack_post_message", true],
      ["function", "stripe_refund_payment", true],
    ]);
    // A loaded tool is exactly what the plain format lists; a deferred one the same definition.
    expect(ctx.tools[1]).toEqual(plain.tools.find((t: any) => t.name === "github_create_issue"));
    // The name map stays reversible, tool_search included (a tool_search_call carries no name).
    expect(ctx.name_map).toEqual({
      tool_search: "tool_search",
      github_create_issue: "github.create_issue",
      slack_post_message: "slack.post_message",
      stripe_refund_payment: "stripe:refund_payment",
    });
    expect(JSON.stringify(ctx)).not.toContain("delete_customer");
    expect(ctx.deferred_count).toBe(2);
    expect(ctx.system).toBe(plain.system);
  });

  it("token_estimate counts the deferred tools' names and descriptions, which OpenAI shows up front, not their parameters", async () => {
    const sid = await seeded();
    const plain = await ok(sid, "context", { format: "openai_responses" });
    const deferred = await ok(sid, "context", { format: "openai_responses", defer_loading: true });
    expect(deferred.token_estimate.tools).toBeGreaterThan(plain.token_estimate.tools);
    const everything = await ok(await seeded({ ...CONFIG, always_loaded_patterns: ["*"] }), "context", {
      format: "openai_responses",
    });
    expect(deferred.token_estimate.tools).toBeLessThan(everything.token_estimate.tools);
  });

  it("without tool_search (denied by policy) it lists nothing deferred: nothing could load those tools", async () => {
    const sid = await seeded({ ...CONFIG, policy: { deny: ["tool_search"] } });
    const ctx = await ok(sid, "context", { format: "openai_responses", defer_loading: true });
    expect(ctx.tools.map((t: any) => [t.type, t.name, t.defer_loading])).toEqual([
      ["function", "github_create_issue", undefined],
    ]);
  });
});

describe("tool_search with format openai_responses", () => {
  it("answers a ready tool_search_output item whose tools are the found tools' definitions from context", async () => {
    const sid = await seeded();
    const ctx = await ok(sid, "context", { format: "openai_responses", defer_loading: true });
    const found = await ok(sid, "tool_search", {
      query: "refund a payment",
      format: "openai_responses",
      call_id: "call_abc123",
    });
    expect(found.tools[0].name).toBe("stripe:refund_payment");
    const item = found.tool_search_output;
    expect(item).toMatchObject({ type: "tool_search_output", execution: "client", call_id: "call_abc123" });
    expect(item.status).toBe("completed");
    expect(item.tools.map((t: any) => ctx.name_map[t.name])).toEqual(found.tools.map((t: any) => t.name));
    // Each is the definition context declared, loaded: defer_loading is context's mark, not the item's.
    for (const tool of item.tools) {
      const { defer_loading, ...declared } = ctx.tools.find((t: any) => t.name === tool.name);
      expect(defer_loading).toBe(true);
      expect(tool).toEqual(declared);
    }
    expect(found).not.toHaveProperty("tool_references");
  });

  it("without call_id the item has none; a search that finds nothing answers an item with no tools", async () => {
    const sid = await seeded();
    const found = await ok(sid, "tool_search", { query: "zzzz qqqq", format: "openai_responses" });
    expect(found.tools).toEqual([]);
    expect(found.tool_search_output).toEqual({
      type: "tool_search_output",
      execution: "client",
      status: "completed",
      tools: [],
    });
  });

  it("never returns a denied tool, even by its exact name", async () => {
    const sid = await seeded();
    const found = await ok(sid, "tool_search", {
      query: "stripe:delete_customer",
      search_type: "exact",
      format: "openai_responses",
    });
    expect(found.tool_search_output.tools).toEqual([]);
  });

  it("call_id with another format is a 400 naming the field, and writes nothing", async () => {
    const sid = await seeded();
    for (const format of ["json", "anthropic", "openai", "mcp"]) {
      const res = await op(sid, "tool_search", { query: "refund", format, call_id: "call_1" });
      expect(res.status, format).toBe(400);
      expect(res.json.error).toMatchObject({ code: "invalid_input", details: { field: "call_id" } });
    }
    const bad = await op(sid, "tool_search", { query: "refund", format: "openai_responses", call_id: "" });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe("call_id");
    const events = await ok(sid, "events", {});
    expect(events.events.filter((e: any) => e.type === "tool_search_query")).toEqual([]);
  });
});
