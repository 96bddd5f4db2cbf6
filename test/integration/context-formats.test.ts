// context in each provider's format: every rendered tool matches the provider's documented tool
// shape, names map back to Trove names, denied tools never show, and examples follow the config.
import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { useCorePack } from "../support/core-pack";
import { agentTools, call, newSid, op } from "../support/http";

// ---- Provider tool shapes, as documented ----

const ObjectSchema = z.looseObject({ type: z.literal("object") });

/** Anthropic Messages API `tools[]` (custom tools). */
const AnthropicTool = z.strictObject({
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
  description: z.string(),
  input_schema: ObjectSchema,
  input_examples: z.array(z.record(z.string(), z.unknown())).optional(),
});

/** OpenAI Chat Completions `tools[]`. */
const OpenAITool = z.strictObject({
  type: z.literal("function"),
  function: z.strictObject({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
    description: z.string(),
    parameters: ObjectSchema,
  }),
});

/** MCP `Tool` (tools/list), spec 2025-06-18. */
const McpTool = z.strictObject({
  name: z.string().min(1),
  description: z.string(),
  inputSchema: ObjectSchema,
  outputSchema: ObjectSchema.optional(),
});

const SHAPES = { anthropic: AnthropicTool, openai: OpenAITool, mcp: McpTool } as const;
type ProviderFormat = keyof typeof SHAPES;
const FORMATS = ["anthropic", "openai", "mcp"] as const;

/** The name the model sees for a rendered tool. */
function renderedName(format: string, tool: any): string {
  return format === "openai" ? tool.function.name : tool.name;
}

// ---- Catalog ----

const LONG_A = `long.${"a".repeat(122)}x`; // 128 characters
const LONG_B = `long.${"a".repeat(122)}y`; // 128 characters, same 55-character prefix
const ISSUE_SCHEMA = {
  type: "object",
  properties: {
    repo: { type: "string" },
    title: { type: "string" },
    labels: { type: "array", items: { type: "string" } },
  },
  required: ["repo", "title"],
};
const EXAMPLES = [
  { args: { repo: "acme/web", title: "Full", labels: ["bug"] }, tags: ["edge-case"] },
  { args: { repo: "acme/web", title: "Small" }, tags: ["minimal"] },
  { args: { title: "No repo" }, tags: ["minimal"], description: "invalid: repo missing" },
  { args: { repo: "acme/api", title: "Usual" }, tags: ["common"], description: "the usual call" },
  { args: { repo: "acme/web", title: "Untagged" } },
];

const CATALOG = [
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    input_schema: ISSUE_SCHEMA,
    examples: EXAMPLES,
  },
  {
    name: "jira:create-ticket",
    description: "Open a Jira ticket",
    input_schema: { type: "object", properties: { summary: { type: "string" } } },
    output_schema: { type: "object", properties: { key: { type: "string" } } },
  },
  { name: "my-tool", description: "A tool whose name is already provider-safe" },
  { name: "ns:sub.tool-x", description: "Colons, dots and hyphens together" },
  { name: "a.b", description: "Encodes to a_b" },
  { name: "a:b", description: "Also encodes to a_b" },
  { name: LONG_A, description: "A 128-character name" },
  { name: LONG_B, description: "Another 128-character name" },
];
const ALL_ALWAYS = { always_loaded_patterns: ["*"] };

/**
 * A session with the catalog. Skills are off unless the config says otherwise: these tests are
 * about the agent's tools, and skills would add Trove's skill tools to every context.
 */
/** A valid call's arguments for a catalog tool: its first example's, or none. */
function argsFor(name: string): Record<string, unknown> {
  const tool = CATALOG.find((t) => t.name === name) as { examples?: { args: Record<string, unknown> }[] };
  return tool?.examples?.[0]?.args ?? {};
}

async function seeded(
  config: Record<string, unknown> = ALL_ALWAYS,
  tools: unknown[] = CATALOG,
  sid = newSid(),
) {
  const body = { skills: { enabled: false }, ...config };
  expect((await call("PUT", `/v1/sessions/${sid}`, body)).status).toBe(200);
  const sync = await op(sid, "catalog_sync", { tools });
  expect(sync.status).toBe(200);
  return sid;
}

async function context(sid: string, format: string, runId?: string): Promise<any> {
  const res = await op(sid, "context", runId ? { format, run_id: runId } : { format });
  expect(res.status).toBe(200);
  return res.json;
}

const toolIn = (ctx: any, format: string, name: string) =>
  ctx.tools.find((t: any) => renderedName(format, t) === name);

describe("provider tool shapes", () => {
  for (const format of FORMATS) {
    it(`every tool of a ${format} context matches ${format}'s documented tool shape`, async () => {
      const sid = await seeded();
      const ctx = await context(sid, format);
      expect(ctx.format).toBe(format);
      expect(ctx.tools).toHaveLength(CATALOG.length + 1);
      for (const tool of ctx.tools) {
        const parsed = SHAPES[format as ProviderFormat].safeParse(tool);
        expect(parsed.success, `${JSON.stringify(tool).slice(0, 200)}: ${parsed.error?.message}`).toBe(true);
      }
      const names = ctx.tools.map((t: any) => renderedName(format, t));
      expect(new Set(names).size).toBe(names.length);
      expect(ctx.deferred_count).toBe(0);
    });
  }

  it("provider names replace dots and colons, keep safe names, and hash collisions and long names", async () => {
    const sid = await seeded();
    const ctx = await context(sid, "anthropic");
    const byTrove = Object.fromEntries(Object.entries(ctx.name_map).map(([p, n]) => [n as string, p]));
    expect(byTrove["github.create_issue"]).toBe("github_create_issue");
    expect(byTrove["jira:create-ticket"]).toBe("jira_create-ticket");
    expect(byTrove["my-tool"]).toBe("my-tool");
    expect(byTrove["ns:sub.tool-x"]).toBe("ns_sub_tool-x");
    expect(byTrove["a.b"]).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(byTrove["a:b"]).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(byTrove["a.b"]).not.toBe(byTrove["a:b"]);
    for (const long of [LONG_A, LONG_B]) {
      expect(long).toHaveLength(128);
      expect(byTrove[long]).toHaveLength(64);
      expect(byTrove[long]).toMatch(/^long_a{50}_[0-9a-f]{8}$/);
    }
    expect(byTrove[LONG_A]).not.toBe(byTrove[LONG_B]);
  });

  it("a tool without input_schema renders an empty object schema in every format", async () => {
    const sid = await seeded();
    const empty = { type: "object", properties: {} };
    expect(toolIn(await context(sid, "anthropic"), "anthropic", "my-tool").input_schema).toEqual(empty);
    expect(toolIn(await context(sid, "openai"), "openai", "my-tool").function.parameters).toEqual(empty);
    expect(toolIn(await context(sid, "mcp"), "mcp", "my-tool").inputSchema).toEqual(empty);
  });

  it("MCP keeps the Trove name and carries outputSchema only for tools that have one", async () => {
    const sid = await seeded();
    const ctx = await context(sid, "mcp");
    expect(toolIn(ctx, "mcp", "jira:create-ticket")).toEqual({
      name: "jira:create-ticket",
      description: "Open a Jira ticket",
      inputSchema: { type: "object", properties: { summary: { type: "string" } } },
      outputSchema: { type: "object", properties: { key: { type: "string" } } },
    });
    expect(toolIn(ctx, "mcp", "ns:sub.tool-x")).not.toHaveProperty("outputSchema");
  });

  const NON_OBJECT_SCHEMAS = [
    { name: "no_type", description: "Schema without type", input_schema: { properties: { q: {} } } },
    { name: "string_input", description: "Schema of a string", input_schema: { type: "string" } },
    { name: "array_output", description: "Array output", output_schema: { type: "array" } },
  ];
  for (const tool of NON_OBJECT_SCHEMAS) {
    const schema = JSON.stringify(tool.input_schema ?? tool.output_schema);
    it(`a tool with ${tool.input_schema ? "input_schema" : "output_schema"} ${schema} is refused by catalog_sync or rendered in every provider's shape`, async () => {
      const sid = newSid();
      await call("PUT", `/v1/sessions/${sid}`, ALL_ALWAYS);
      const sync = await op(sid, "catalog_sync", { tools: [tool] });
      if (sync.status !== 200) {
        expect(sync.status).toBe(400);
        expect(sync.json.error.code).toBe("invalid_input");
        return;
      }
      for (const format of FORMATS) {
        const rendered = toolIn(await context(sid, format), format, tool.name);
        const parsed = SHAPES[format].safeParse(rendered);
        expect.soft(parsed.success, `${format} ${JSON.stringify(rendered)}`).toBe(true);
      }
    });
  }
});

describe("name_map", () => {
  for (const format of [...FORMATS, "json"] as const) {
    it(`in ${format}, name_map maps every listed name back to its Trove name`, async () => {
      const sid = await seeded();
      const ctx = await context(sid, format);
      const listed = ctx.tools.map((t: any) => renderedName(format, t));
      expect(Object.keys(ctx.name_map).sort()).toEqual([...listed].sort());
      const trove = Object.values(ctx.name_map).sort();
      expect(trove).toEqual(["tool_search", ...CATALOG.map((t) => t.name)].sort());
      if (format === "mcp" || format === "json") {
        for (const [k, v] of Object.entries(ctx.name_map)) expect(k).toBe(v);
      }
    });
  }

  for (const format of ["anthropic", "openai"] as const) {
    it(`every ${format} provider name round-trips through tool_resolve to its Trove name`, async () => {
      const sid = await seeded();
      const ctx = await context(sid, format);
      for (const [provider, name] of Object.entries(ctx.name_map) as [string, string][]) {
        if (name === "tool_search") continue; // answered by Trove's tool_search, not resolved
        // Arguments are checked (omitted ones as {}): send a valid call, the tool's first example.
        const args = argsFor(name);
        const res = await op(sid, "tool_resolve", { name: provider, args });
        expect(res.status, provider).toBe(200);
        expect(res.json).toMatchObject({ decision: "allow", name, provider_name: provider });
        const byTrove = await op(sid, "tool_resolve", { name, args });
        expect(byTrove.json).toMatchObject({ name, provider_name: provider });
      }
    });
  }

  it("provider names follow policy changes and always round-trip through tool_resolve", async () => {
    const tools = [
      { name: "x.y", description: "Dotted" },
      { name: "x:y", description: "Coloned" },
    ];
    const sid = await seeded({ ...ALL_ALWAYS, policy: { deny: ["x:y"] } }, tools);
    const check = async (expected: string[]) => {
      const map = (await context(sid, "anthropic")).name_map;
      delete map.tool_search;
      expect(Object.values(map).sort()).toEqual(expected);
      for (const [provider, name] of Object.entries(map)) {
        expect((await op(sid, "tool_resolve", { name: provider })).json.name).toBe(name);
      }
      return map;
    };
    expect(await check(["x.y"])).toEqual({ x_y: "x.y" });
    await call("PUT", `/v1/sessions/${sid}`, { ...ALL_ALWAYS, skills: { enabled: false } });
    const both = await check(["x.y", "x:y"]);
    expect(Object.keys(both).every((p) => /^x_y_[0-9a-f]{8}$/.test(p))).toBe(true);
    await call("PUT", `/v1/sessions/${sid}`, {
      ...ALL_ALWAYS,
      policy: { deny: ["x:y"] },
      skills: { enabled: false },
    });
    expect(await check(["x.y"])).toEqual({ x_y: "x.y" });
    const hidden = Object.entries(both).find(([, n]) => n === "x:y")?.[0] as string;
    expect((await op(sid, "tool_resolve", { name: hidden })).status).toBe(404);
  });

  it("provider names are the same in anthropic, openai and tool_resolve, and stable across re-syncs", async () => {
    const sid = await seeded();
    const anthropic = (await context(sid, "anthropic")).name_map;
    expect((await context(sid, "openai")).name_map).toEqual(anthropic);
    // Re-sync in another order: the mapping depends on the set, never on input order.
    await op(sid, "catalog_sync", { tools: [...CATALOG].reverse() });
    expect((await context(sid, "anthropic")).name_map).toEqual(anthropic);
    const other = await seeded(ALL_ALWAYS, [...CATALOG].reverse());
    expect((await context(other, "anthropic")).name_map).toEqual(anthropic);
  });
});

describe("tool_search as a listed tool", () => {
  it("tool_search is listed first in every format by default", async () => {
    const sid = await seeded({});
    for (const format of [...FORMATS, "json"]) {
      const ctx = await context(sid, format);
      expect(renderedName(format, ctx.tools[0])).toBe("tool_search");
      expect(ctx.name_map.tool_search).toBe("tool_search");
    }
    const anthropic = toolIn(await context(sid, "anthropic"), "anthropic", "tool_search");
    expect(anthropic.input_schema.type).toBe("object");
    expect(anthropic.input_schema.required).toEqual(["query"]);
    expect(Object.keys(anthropic.input_schema.properties).sort()).toEqual(["limit", "query", "search_type"]);
  });

  it("tool_search is not listed when the policy denies it", async () => {
    const sid = await seeded({ ...ALL_ALWAYS, policy: { deny: ["tool_search"] } });
    for (const format of [...FORMATS, "json"]) {
      const ctx = await context(sid, format);
      expect(ctx.tools.map((t: any) => renderedName(format, t))).not.toContain("tool_search");
      expect(ctx.name_map).not.toHaveProperty("tool_search");
      expect(ctx.tools).toHaveLength(CATALOG.length);
    }
    expect((await op(sid, "state", {})).json.visible).not.toContain("tool_search");
  });

  it("an allow list that does not match tool_search hides it, as the policy filters every listed tool", async () => {
    const sid = await seeded({ ...ALL_ALWAYS, policy: { allow: ["github.*"] } });
    const ctx = await context(sid, "json");
    expect(ctx.tools.map((t: any) => t.name)).toEqual(["github.create_issue"]);
    const withSearch = await seeded({ ...ALL_ALWAYS, policy: { allow: ["github.*", "tool_search"] } });
    expect((await context(withSearch, "json")).tools.map((t: any) => t.name)).toEqual([
      "tool_search",
      "github.create_issue",
    ]);
  });

  it("when the policy denies tool_search, the system prompt does not tell the model to call it", async () => {
    // With skills on: the core pack's skills teach tool_search, and their text is guarded too.
    const sid = newSid();
    await useCorePack(sid);
    await seeded({ policy: { deny: ["tool_search"] }, skills: { enabled: true } }, CATALOG, sid);
    const ctx = await context(sid, "anthropic");
    expect(ctx.deferred_count).toBe(CATALOG.length);
    expect(agentTools(ctx.tools.map((t: any) => t.name))).toEqual([]);
    expect(ctx.system).not.toContain("<tool_discovery>");
    expect(ctx.system).toContain("<skill_directory>");
    expect(ctx.system).not.toContain("tool_search");
    const loaded = await op(sid, "skill_load", { name: "find-tools" });
    expect(loaded.status).toBe(200);
    expect(loaded.json.body).not.toContain("tool_search");
  });
});

describe("the <tool_discovery> system block", () => {
  it("starts the system text and states the deferred count", async () => {
    const sid = await seeded({});
    const ctx = await context(sid, "anthropic");
    expect(ctx.deferred_count).toBe(8);
    expect(ctx.system.startsWith("<tool_discovery>\n")).toBe(true);
    expect(ctx.system).toContain("</tool_discovery>");
    expect(ctx.system).toContain("8 more tools are available but not listed.");
    expect(ctx.system).toContain("`tool_search`");
    expect(ctx.token_estimate.total).toBe(ctx.token_estimate.system + ctx.token_estimate.tools);
    expect(ctx.token_estimate.system).toBeGreaterThan(0);
    expect(ctx.token_estimate.tools).toBeGreaterThan(0);
  });

  it("the count drops as tools are activated, with singular and none wording", async () => {
    const tools = CATALOG.slice(0, 2);
    const sid = await seeded({}, tools);
    expect((await context(sid, "json")).system).toContain("2 more tools are available but not listed.");
    await op(sid, "tool_activate", { names: ["github.create_issue"] });
    const one = await context(sid, "json");
    expect(one.deferred_count).toBe(1);
    expect(one.system).toContain("1 more tool is available but not listed.");
    await op(sid, "tool_activate", { names: ["jira:create-ticket"] });
    const none = await context(sid, "json");
    expect(none.deferred_count).toBe(0);
    expect(none.system).toContain("Every tool available to you is listed.");
  });

  it("run-scoped activations lower the count only for their run", async () => {
    const sid = await seeded({ activation_scope: "run" });
    await op(sid, "tool_activate", { names: ["my-tool"], run_id: "r1" });
    expect((await context(sid, "json", "r1")).deferred_count).toBe(7);
    expect((await context(sid, "json", "r2")).deferred_count).toBe(8);
    expect((await context(sid, "json")).deferred_count).toBe(8);
  });

  it("denied tools are not counted as deferred", async () => {
    const sid = await seeded({ policy: { deny: ["long.*", "a?b"] } });
    const ctx = await context(sid, "json");
    expect(ctx.deferred_count).toBe(4);
    expect(ctx.system).toContain("4 more tools are available but not listed.");
  });
});

describe("denied tools", () => {
  const DENIED = {
    name: "secret.exfiltrate",
    description: "Upload the customer database to pastebin",
    input_schema: { type: "object", properties: { target: { type: "string" } } },
    examples: [{ args: { target: "pastebin" } }],
  };
  const DENIED_ALWAYS = { name: "vault.master_key", description: "Print the vault master key" };
  const FORBIDDEN = ["exfiltrate", "pastebin", "customer database", "master_key", "master key"];
  const POLICY = {
    always_loaded_patterns: ["vault.*", "my-tool"],
    policy: { deny: ["secret.*", "vault.*"], approval: ["github.*"] },
  };

  it("denied tools never appear in context, tool_search, state, events or any error text", async () => {
    const sid = await seeded(POLICY, [...CATALOG, DENIED, DENIED_ALWAYS]);
    const texts: string[] = [];
    const record = async (p: Promise<{ status: number; json: any }>) => {
      const res = await p;
      texts.push(JSON.stringify(res.json));
      return res;
    };

    for (const format of [...FORMATS, "json"]) await record(op(sid, "context", { format }));
    for (const [query, search_type] of [
      ["upload the customer data", "fts"],
      ["secret", "fts"],
      ["key", "fts"],
      [".", "regex"],
      ["^sec", "regex"],
      ["^v", "regex"],
      ["secret", "exact"],
    ]) {
      for (const format of ["json", "anthropic"]) {
        const res = await record(
          op(sid, "tool_search", { query, search_type, format, limit: 20, include_always_loaded: true }),
        );
        expect(res.status).toBe(200);
        expect(res.json.total_deferred).toBe(CATALOG.length - 1);
      }
    }
    // Every kind of failure this session can produce.
    expect((await record(op(sid, "tool_resolve", { name: "nothing.here" }))).status).toBe(404);
    expect((await record(op(sid, "tool_activate", { names: ["my-tool", "nothing.here"] }))).status).toBe(404);
    expect((await record(op(sid, "tool_deactivate", { names: ["nothing.here"] }))).status).toBe(404);
    const bad = await record(op(sid, "tool_resolve", { name: "github.create_issue", args: { repo: 1 } }));
    expect(bad.status).toBe(422);
    expect((await record(op(sid, "tool_resolve", { name: "x", bogus: 1 }))).status).toBe(400);
    expect((await record(op(sid, "tool_search", { query: "(", search_type: "regex" }))).status).toBe(400);
    expect(
      (await record(op(sid, "approval_decide", { approval_id: "nope", decision: "approve" }))).status,
    ).toBe(404);
    const ask = await record(
      op(sid, "tool_resolve", { name: "github.create_issue", args: { repo: "a/b", title: "t" } }),
    );
    await record(op(sid, "approval_decide", { approval_id: ask.json.approval_id, decision: "approve" }));
    await record(op(sid, "tool_activate", { names: ["my-tool", "a.b"] }));
    await record(op(sid, "state", {}));
    await record(call("GET", `/v1/sessions/${sid}`));
    await record(op(sid, "events", { since: 0, limit: 500 }));

    const all = texts.join("\n");
    for (const word of FORBIDDEN) expect(all).not.toContain(word);
    // The session does count them nowhere: 8 allowed tools, 7 deferred, 1 always (my-tool).
    const view = (await call("GET", `/v1/sessions/${sid}`)).json;
    expect(view.catalog).toMatchObject({ tools: 8, deferred: 7, visible: 1 });
  });

  it("a tool denied after it was activated and requested disappears from context, tool_search, state and events", async () => {
    const sid = await seeded({ policy: { approval: ["secret.*"] } }, [...CATALOG, DENIED]);
    await op(sid, "tool_activate", { names: ["secret.exfiltrate"], reason: "testing" });
    const ask = await op(sid, "tool_resolve", { name: "secret.exfiltrate", args: { target: "x" } });
    expect(ask.json.decision).toBe("needs_approval");
    expect((await call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["secret.*"] } })).status).toBe(200);

    const texts: string[] = [];
    for (const format of [...FORMATS, "json"]) texts.push(JSON.stringify(await context(sid, format)));
    texts.push(JSON.stringify((await op(sid, "tool_search", { query: ".", search_type: "regex" })).json));
    texts.push(JSON.stringify((await call("GET", `/v1/sessions/${sid}`)).json));
    const st = (await op(sid, "state", {})).json;
    texts.push(JSON.stringify({ visible: st.visible, catalog: st.catalog }));
    expect(texts.join("\n")).not.toContain("exfiltrate");
    // state lists activations and pending approvals too: a denied tool must not show there either.
    expect.soft(st.activations).toEqual([]);
    expect.soft(st.pending_approvals).toEqual([]);
    const events = (await op(sid, "events", { since: 0, limit: 500 })).json;
    expect.soft(JSON.stringify(events)).not.toContain("exfiltrate");
    // Deciding the orphaned approval must not name the tool either.
    const decide = await op(sid, "approval_decide", {
      approval_id: ask.json.approval_id,
      decision: "approve",
    });
    expect.soft(JSON.stringify(decide.json)).not.toContain("exfiltrate");
  });

  it("an allowed tool's provider name does not depend on whether a denied tool exists", async () => {
    const withDenied = await seeded({ ...ALL_ALWAYS, policy: { deny: ["x:y"] } }, [
      { name: "x.y", description: "Allowed" },
      { name: "x:y", description: "Denied" },
    ]);
    const alone = await seeded(ALL_ALWAYS, [{ name: "x.y", description: "Allowed" }]);
    const a = await context(withDenied, "anthropic");
    const b = await context(alone, "anthropic");
    expect(a.name_map).toEqual(b.name_map);
    expect(a.tools).toEqual(b.tools);
  });
});

describe("tool use examples", () => {
  const issueIn = async (sid: string, format: string) => {
    const ctx = await context(sid, format);
    return toolIn(
      ctx,
      format,
      format === "json" || format === "mcp" ? "github.create_issue" : "github_create_issue",
    );
  };

  it("anthropic input_examples are at most max_per_tool, valid against the schema, minimal first", async () => {
    const sid = await seeded();
    const tool = await issueIn(sid, "anthropic");
    // Valid ones only (the "No repo" example is dropped), ranked minimal, common, edge-case, untagged.
    expect(tool.input_examples).toEqual([
      { repo: "acme/web", title: "Small" },
      { repo: "acme/api", title: "Usual" },
      { repo: "acme/web", title: "Full", labels: ["bug"] },
    ]);
    const validator = new Validator(ISSUE_SCHEMA as Schema, "2020-12", false);
    for (const example of tool.input_examples) expect(validator.validate(example).valid).toBe(true);
  });

  // Five examples, one of them invalid against the schema: every format shows only the four valid.
  for (const max of [0, 1, 2, 4, 10]) {
    it(`with max_per_tool ${max}, no format renders more than ${max} examples per tool`, async () => {
      const sid = await seeded({ ...ALL_ALWAYS, examples: { enabled: true, max_per_tool: max } });
      const anthropic = await issueIn(sid, "anthropic");
      expect(anthropic.input_examples ?? []).toHaveLength(Math.min(max, 4));
      const json = await issueIn(sid, "json");
      expect(json.examples ?? []).toHaveLength(Math.min(max, 4));
      const openai = await issueIn(sid, "openai");
      const mcp = await issueIn(sid, "mcp");
      for (const description of [openai.function.description, mcp.description]) {
        const lines = description.split("\nExamples:\n")[1]?.split("\n") ?? [];
        expect(lines).toHaveLength(Math.min(max, 4));
        if (max === 0) expect(description).toBe("Create an issue in a GitHub repository");
      }
    });
  }

  it("openai and mcp append valid examples to the description, one line each", async () => {
    const sid = await seeded({ ...ALL_ALWAYS, examples: { enabled: true, max_per_tool: 2 } });
    const openai = await issueIn(sid, "openai");
    expect(openai.function.description).toBe(
      'Create an issue in a GitHub repository\n\nExamples:\n- {"repo":"acme/web","title":"Small"}\n' +
        '- the usual call: {"repo":"acme/api","title":"Usual"}',
    );
    expect(openai.function.description).not.toContain("No repo");
    expect((await issueIn(sid, "mcp")).description).toBe(openai.function.description);
  });

  it("examples.enabled false removes examples from every format", async () => {
    const sid = await seeded({ ...ALL_ALWAYS, examples: { enabled: false, max_per_tool: 3 } });
    const anthropic = await issueIn(sid, "anthropic");
    expect(anthropic).not.toHaveProperty("input_examples");
    expect((await issueIn(sid, "json")).examples).toBeUndefined();
    expect((await issueIn(sid, "openai")).function.description).toBe(
      "Create an issue in a GitHub repository",
    );
    expect((await issueIn(sid, "mcp")).description).toBe("Create an issue in a GitHub repository");
    const resolved = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: argsFor("github.create_issue"),
    });
    expect(resolved.status).toBe(200);
    expect(resolved.json.tool.examples).toBeUndefined();
    for (const format of FORMATS) {
      expect(JSON.stringify((await context(sid, format)).tools)).not.toContain("Untagged");
    }
  });

  it("a tool whose examples are all invalid gets no input_examples field", async () => {
    const sid = await seeded(ALL_ALWAYS, [
      {
        name: "strict.tool",
        description: "Needs a number",
        input_schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
        examples: [{ args: { n: "one" } }, { args: {} }],
      },
    ]);
    const tool = toolIn(await context(sid, "anthropic"), "anthropic", "strict_tool");
    expect(tool).toEqual({
      name: "strict_tool",
      description: "Needs a number",
      input_schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    });
  });
});

describe("tool_search with format anthropic", () => {
  it("returns tool_references with provider names, in result order", async () => {
    const sid = await seeded({});
    const res = await op(sid, "tool_search", {
      query: ".",
      search_type: "regex",
      limit: 20,
      format: "anthropic",
    });
    expect(res.status).toBe(200);
    expect(res.json.tools).toHaveLength(CATALOG.length);
    expect(res.json.tool_references).toHaveLength(res.json.tools.length);
    for (const [i, ref] of res.json.tool_references.entries()) {
      expect(Object.keys(ref).sort()).toEqual(["tool_name", "type"]);
      expect(ref.type).toBe("tool_reference");
      expect(ref.tool_name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      // The reference's name is the provider name: exact search by it finds the same tool.
      const back = await op(sid, "tool_search", { query: ref.tool_name, search_type: "exact" });
      expect(back.json.tools.map((t: { name: string }) => t.name)).toEqual([res.json.tools[i].name]);
    }
    const names = res.json.tool_references.map((r: any) => r.tool_name);
    expect(names).toContain("github_create_issue");
    expect(names).toContain("jira_create-ticket");
    expect(names).toContain("my-tool");
  });

  it("the references name exactly the tools the next anthropic context lists after activation", async () => {
    const sid = await seeded({});
    const res = await op(sid, "tool_search", { query: "a[.:]b", search_type: "regex", format: "anthropic" });
    const refs = res.json.tool_references.map((r: any) => r.tool_name);
    expect(refs).toHaveLength(2);
    await op(sid, "tool_activate", { names: refs });
    const listed = (await context(sid, "anthropic")).tools.map((t: any) => t.name);
    expect(listed.filter((n: string) => n !== "tool_search").sort()).toEqual([...refs].sort());
  });

  it("other formats return no tool_references", async () => {
    const sid = await seeded({});
    for (const format of [undefined, "json", "openai", "mcp"]) {
      const body = { query: "issue", ...(format ? { format } : {}) };
      const res = await op(sid, "tool_search", body);
      expect(res.status).toBe(200);
      expect(res.json).not.toHaveProperty("tool_references");
    }
  });
});
