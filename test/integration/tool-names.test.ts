// Every operation that takes a tool name accepts the name the model sees too (the provider name in
// context's name_map), and tool_resolve checks omitted arguments as {}.
import { describe, expect, it } from "vitest";
import { CREATE_ISSUE, SEND_MESSAGE } from "../support/fixtures";
import { newSid, op } from "../support/http";

/** The operations that take a tool name, and how each is called with one. */
const BY_NAME: Record<string, (name: string) => Record<string, unknown>> = {
  tool_search: (name) => ({ query: name, search_type: "exact" }),
  tool_activate: (name) => ({ names: [name] }),
  tool_deactivate: (name) => ({ names: [name] }),
  tool_resolve: (name) => ({ name, args: { repo: "acme/web", title: "Login fails" } }),
};

describe("tool names", () => {
  it("every operation that takes one accepts the provider name", async () => {
    const sid = newSid();
    expect((await op(sid, "catalog_sync", { tools: [CREATE_ISSUE, SEND_MESSAGE] })).status).toBe(200);
    // The name the model sees and calls, as tool_search's tool_reference blocks give it.
    const found = await op(sid, "tool_search", { query: "create a github issue", format: "anthropic" });
    const providerName = found.json.tool_references[0].tool_name;
    expect(providerName).toBe("github_create_issue");
    for (const [name, body] of Object.entries(BY_NAME)) {
      const res = await op(sid, name, body(providerName));
      expect(res.status, `${name}: ${JSON.stringify(res.json)}`).toBe(200);
      const named = JSON.stringify(res.json);
      expect(named, name).toContain("github.create_issue");
    }
  });

  it("tool_resolve checks omitted arguments as an empty object", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: [CREATE_ISSUE] });
    const res = await op(sid, "tool_resolve", { name: "github.create_issue" });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("invalid_arguments");
    // A tool whose schema requires nothing is allowed without arguments.
    await op(sid, "catalog_sync", {
      tools: [CREATE_ISSUE, { name: "weather.now", description: "Current weather" }],
    });
    const free = await op(sid, "tool_resolve", { name: "weather.now" });
    expect(free.status).toBe(200);
    expect(free.json.decision).toBe("allow");
  });
});
