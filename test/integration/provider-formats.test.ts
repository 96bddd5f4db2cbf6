// The provider formats an agent sends as they are: OpenAI Responses' flat function tools with
// `strict` exactly when OpenAI accepts the schema unchanged, and Anthropic's deferred tools, where
// every tool_reference tool_search returns names a tool of the same request.
import { describe, expect, it } from "vitest";
import { closed } from "../support/fixtures";
import { call, newSid, op } from "../support/http";

const ProviderName = /^[a-zA-Z0-9_-]{1,64}$/;

/** A session holding `tools` (skills off: these tests are about the agent's tools). */
async function seeded(tools: unknown[], config: Record<string, unknown> = {}, sid = newSid()) {
  const put = await call("PUT", `/v1/sessions/${sid}`, { skills: { enabled: false }, ...config });
  expect(put.status).toBe(200);
  const sync = await op(sid, "catalog_sync", { tools });
  expect(sync.status, JSON.stringify(sync.json)).toBe(200);
  return sid;
}

async function context(sid: string, body: Record<string, unknown>): Promise<any> {
  const res = await op(sid, "context", body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json;
}

// ---- OpenAI strict mode: schemas OpenAI accepts as they are, and schemas it would refuse ----

const nest = (depth: number): Record<string, unknown> =>
  depth === 1 ? { type: "string" } : closed({ inner: nest(depth - 1) });

const STRICT: Record<string, Record<string, unknown>> = {
  "flat.closed": closed({ repo: { type: "string", description: "owner/name" }, count: { type: "integer" } }),
  "no.arguments": closed({}),
  "nested.objects": closed({
    issue: closed({ title: { type: "string" }, labels: { type: "array", items: { type: "string" } } }),
  }),
  "optional.via_null": closed({ unit: { type: ["string", "null"], enum: ["C", "F", null] } }),
  "any.of": closed({
    target: {
      anyOf: [closed({ user: { type: "string" } }), closed({ team: { type: "string" } }), { type: "null" }],
    },
  }),
  "defs.and_refs": closed(
    { steps: { type: "array", items: { $ref: "#/$defs/step" } } },
    { $defs: { step: closed({ explanation: { type: "string" }, output: { type: "string" } }) } },
  ),
  "root.recursion": closed({ label: { type: "string" }, children: { type: "array", items: { $ref: "#" } } }),
  "supported.keywords": closed({
    email: { type: "string", format: "email" },
    handle: { type: "string", pattern: "^@[a-z]+$" },
    score: { type: "number", minimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
    tags: { type: "array", items: { type: "string", const: "x" }, minItems: 1, maxItems: 3 },
  }),
  "ten.levels": nest(10),
};

const NOT_STRICT: Record<string, Record<string, unknown> | undefined> = {
  "open.object": { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  "optional.property": {
    type: "object",
    properties: { q: { type: "string" }, page: { type: "integer" } },
    required: ["q"],
    additionalProperties: false,
  },
  "nested.open": closed({
    filter: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
  }),
  "extra.properties_schema": {
    type: "object",
    properties: {},
    required: [],
    additionalProperties: { type: "string" },
  },
  "min.length": closed({ q: { type: "string", minLength: 1 } }),
  "default.value": closed({ q: { type: "string", default: "all" } }),
  "one.of": closed({ v: { oneOf: [{ type: "string" }, { type: "number" }] } }),
  "all.of": closed({ v: { allOf: [{ type: "string" }] } }),
  "dollar.schema": { $schema: "https://json-schema.org/draft/2020-12/schema", ...closed({}) },
  "unknown.format": closed({ site: { type: "string", format: "uri" } }),
  "dangling.ref": closed({ v: { $ref: "#/$defs/missing" } }),
  "array.without_items": closed({ v: { type: "array" } }),
  "untyped.property": closed({ v: { description: "anything" } }),
  "eleven.levels": nest(11),
  "too.many_enum_values": closed({ v: { type: "integer", enum: Array.from({ length: 1001 }, (_, i) => i) } }),
  "no.schema": undefined,
};

const STRICT_CATALOG = [...Object.entries(STRICT), ...Object.entries(NOT_STRICT)].map(([name, schema]) => ({
  name,
  description: `Tool ${name}`,
  ...(schema ? { input_schema: schema } : {}),
}));

describe("format openai_responses", () => {
  it("renders flat function tools with the provider name, the description and the schema unchanged", async () => {
    const sid = await seeded(
      [
        {
          name: "github.create_issue",
          description: "Create an issue in a GitHub repository",
          input_schema: closed({ repo: { type: "string" }, title: { type: "string" } }),
          examples: [{ args: { repo: "acme/web", title: "Bug" }, tags: ["minimal"] }],
        },
      ],
      { always_loaded_patterns: ["*"] },
    );
    const ctx = await context(sid, { format: "openai_responses" });
    expect(ctx.format).toBe("openai_responses");
    expect(ctx.tools[0]).toMatchObject({ type: "function", name: "tool_search", strict: false });
    expect(ctx.tools[1]).toEqual({
      type: "function",
      name: "github_create_issue",
      description: 'Create an issue in a GitHub repository\n\nExamples:\n- {"repo":"acme/web","title":"Bug"}',
      parameters: closed({ repo: { type: "string" }, title: { type: "string" } }),
      strict: true,
    });
    expect(ctx.name_map).toEqual({ tool_search: "tool_search", github_create_issue: "github.create_issue" });
    // The Chat Completions shape is unchanged: the same function, nested, without strict.
    const chat = await context(sid, { format: "openai" });
    expect(chat.tools[1]).toEqual({
      type: "function",
      function: {
        name: "github_create_issue",
        description: ctx.tools[1].description,
        parameters: ctx.tools[1].parameters,
      },
    });
  });

  it("sets strict true exactly for the schemas OpenAI's strict mode accepts, and never rewrites one", async () => {
    const sid = await seeded(STRICT_CATALOG, { always_loaded_patterns: ["*"] });
    const ctx = await context(sid, { format: "openai_responses" });
    const byTrove = new Map(ctx.tools.map((t: any) => [ctx.name_map[t.name], t]));
    for (const [name, schema] of Object.entries(STRICT)) {
      const tool: any = byTrove.get(name);
      expect.soft(tool?.strict, name).toBe(true);
      expect.soft(tool?.parameters, name).toEqual(schema);
    }
    for (const [name, schema] of Object.entries(NOT_STRICT)) {
      const tool: any = byTrove.get(name);
      expect.soft(tool?.strict, name).toBe(false);
      expect.soft(tool?.parameters, name).toEqual(schema ?? { type: "object", properties: {} });
    }
  });

  it("uses the same provider names as openai and anthropic, all of them valid OpenAI function names", async () => {
    const tools = [
      { name: "a.b", description: "Dotted" },
      { name: "a:b", description: "Coloned, encodes to the same name" },
      { name: `long.${"x".repeat(120)}`, description: "Too long for OpenAI" },
      { name: "safe-name", description: "Already safe" },
    ];
    const sid = await seeded(tools, { always_loaded_patterns: ["*"] });
    const responses = await context(sid, { format: "openai_responses" });
    expect(responses.name_map).toEqual((await context(sid, { format: "openai" })).name_map);
    expect(responses.name_map).toEqual((await context(sid, { format: "anthropic" })).name_map);
    const names = responses.tools.map((t: any) => t.name);
    expect(Object.keys(responses.name_map).sort()).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(ProviderName);
  });

  it("warns past OpenAI's 128 functions, as the Chat Completions format does", async () => {
    const tools = Array.from({ length: 130 }, (_, i) => ({
      name: `svc.tool_${i}`,
      description: `Tool ${i}`,
    }));
    const sid = await seeded(tools, { always_loaded_patterns: ["*"] });
    for (const format of ["openai", "openai_responses"]) {
      const ctx = await context(sid, { format });
      const warning = ctx.warnings.find((w: any) => w.code === "too_many_tools");
      expect(warning, format).toMatchObject({ limit: 128, actual: 131 });
      expect(warning.message).toContain("OpenAI accepts at most 128");
    }
    expect((await context(sid, { format: "anthropic" })).warnings).toEqual([]);
  });

  it("tool_search with format openai_responses answers without tool_references", async () => {
    const sid = await seeded(STRICT_CATALOG);
    const res = await op(sid, "tool_search", {
      query: ".",
      search_type: "regex",
      format: "openai_responses",
    });
    expect(res.status).toBe(200);
    expect(res.json.tools.length).toBeGreaterThan(0);
    expect(res.json).not.toHaveProperty("tool_references");
  });
});

// ---- Anthropic's deferred tools: a 400-tool catalog ----

const SERVICES = [
  "github",
  "gitlab",
  "jira",
  "linear",
  "slack",
  "discord",
  "notion",
  "confluence",
  "stripe",
  "shopify",
  "salesforce",
  "hubspot",
  "zendesk",
  "intercom",
  "pagerduty",
  "datadog",
  "sentry",
  "grafana",
  "aws:s3",
  "gcp:storage",
];
const ACTIONS: [string, string][] = [
  ["create_issue", "Create an issue"],
  ["close_issue", "Close an issue"],
  ["list_issues", "List open issues"],
  ["comment", "Comment on an issue or thread"],
  ["create_pull_request", "Open a pull request"],
  ["merge-pull-request", "Merge a pull request"],
  ["post_message", "Post a message to a channel"],
  ["search_messages", "Search messages"],
  ["create_page", "Create a documentation page"],
  ["update_page", "Update a documentation page"],
  ["refund_payment", "Refund a payment"],
  ["create_invoice", "Create an invoice"],
  ["list_customers", "List customers"],
  ["create_ticket", "Create a support ticket"],
  ["assign_ticket", "Assign a support ticket"],
  ["trigger_incident", "Trigger an incident"],
  ["acknowledge_alert", "Acknowledge an alert"],
  ["query_metrics", "Query metrics"],
  ["upload_file", "Upload a file"],
  ["delete_file", "Delete a file"],
];
const CATALOG_400 = SERVICES.flatMap((service, s) =>
  ACTIONS.map(([action, text], a) => ({
    name: `${service}.${action}`,
    description: `${text} in ${service.replace(":", " ")}`,
    input_schema:
      (s + a) % 2 === 0
        ? closed({ target: { type: "string" }, note: { type: ["string", "null"] } })
        : { type: "object", properties: { target: { type: "string" }, limit: { type: "integer" } } },
    ...(a === 0 ? { examples: [{ args: { target: "x", note: null }, tags: ["minimal"] }] } : {}),
  })),
);
const QUERIES: { query: string; search_type?: string; include_always_loaded?: boolean }[] = [
  { query: "create an issue" },
  { query: "refund a payment" },
  { query: "post a message to slack" },
  { query: "upload a file to s3" },
  { query: "trigger an incident", include_always_loaded: true },
  { query: "merge pull request" },
  { query: "list customers in salesforce" },
  { query: "acknowledge alert" },
  { query: ".", search_type: "regex" },
  { query: "^slack", search_type: "regex", include_always_loaded: true },
  { query: "aws:s3.upload_file", search_type: "exact" },
  { query: "gcp_storage_delete_file", search_type: "exact" },
];
const DEFER_CONFIG = {
  always_loaded_patterns: ["github.*"],
  policy: { deny: ["stripe.refund_payment", "discord.*"] },
};

/** Every tool_reference tool_search returns for QUERIES, with format anthropic. */
async function references(sid: string): Promise<string[]> {
  const names: string[] = [];
  for (const q of QUERIES) {
    const res = await op(sid, "tool_search", { ...q, limit: 20, format: "anthropic" });
    expect(res.status, JSON.stringify(q)).toBe(200);
    expect(res.json.tool_references).toHaveLength(res.json.tools.length);
    names.push(...res.json.tool_references.map((r: any) => r.tool_name));
  }
  return names;
}

describe("format anthropic with defer_loading", () => {
  it("without defer_loading, tool_search names tools the request does not hold (the problem)", async () => {
    const sid = await seeded(CATALOG_400, DEFER_CONFIG);
    const listed = new Set((await context(sid, { format: "anthropic" })).tools.map((t: any) => t.name));
    const refs = await references(sid);
    expect(refs.filter((name) => !listed.has(name)).length).toBeGreaterThan(refs.length / 2);
  });

  it("lists every allowed tool, so every tool_reference tool_search returns names a tool of the request", async () => {
    const sid = await seeded(CATALOG_400, DEFER_CONFIG);
    await op(sid, "tool_activate", { names: ["slack.post_message", "jira.create_ticket"] });
    const ctx = await context(sid, { format: "anthropic", defer_loading: true });
    const allowed = CATALOG_400.filter(
      (t) => t.name !== "stripe.refund_payment" && !t.name.startsWith("discord."),
    );
    expect(ctx.tools).toHaveLength(1 + allowed.length);
    const names = ctx.tools.map((t: any) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(ctx.name_map).sort()).toEqual([...names].sort());
    expect(Object.values(ctx.name_map).sort()).toEqual(["tool_search", ...allowed.map((t) => t.name)].sort());

    // Loaded up front: tool_search first, the always-loaded and activated tools; the rest deferred.
    const loaded = ctx.tools.filter((t: any) => !t.defer_loading);
    const deferred = ctx.tools.filter((t: any) => t.defer_loading);
    expect(loaded[0].name).toBe("tool_search");
    expect(loaded.map((t: any) => ctx.name_map[t.name]).sort()).toEqual(
      [
        "tool_search",
        "jira.create_ticket",
        "slack.post_message",
        ...ACTIONS.map(([a]) => `github.${a}`),
      ].sort(),
    );
    expect(ctx.tools.indexOf(deferred[0])).toBe(loaded.length); // deferred ones come after
    for (const tool of ctx.tools) {
      expect(
        Object.keys(tool).every((k) =>
          ["name", "description", "input_schema", "input_examples", "defer_loading"].includes(k),
        ),
      ).toBe(true);
      if ("defer_loading" in tool) expect(tool.defer_loading).toBe(true);
      expect(tool.name).toMatch(ProviderName);
    }
    expect(deferred).toHaveLength(allowed.length - ACTIONS.length - 2);
    expect(ctx.deferred_count).toBe(deferred.length);

    const refs = await references(sid);
    expect(refs.length).toBeGreaterThan(100);
    const listed = new Set(names);
    expect(refs.filter((name) => !listed.has(name))).toEqual([]);
  });

  it("a deferred tool is the same definition as when it is loaded, examples included", async () => {
    const sid = await seeded(CATALOG_400, DEFER_CONFIG);
    const deferred = await context(sid, { format: "anthropic", defer_loading: true });
    const { defer_loading, ...definition } = deferred.tools.find((t: any) => t.name === "slack_create_issue");
    expect(defer_loading).toBe(true);
    expect(definition.input_examples).toEqual([{ target: "x", note: null }]);
    await op(sid, "tool_activate", { names: ["slack.create_issue"] });
    const loaded = await context(sid, { format: "anthropic" });
    expect(loaded.tools.find((t: any) => t.name === "slack_create_issue")).toEqual(definition);
  });

  it("token_estimate counts what Anthropic loads up front: deferred tools add nothing", async () => {
    const sid = await seeded(CATALOG_400, DEFER_CONFIG);
    const plain = await context(sid, { format: "anthropic" });
    const deferred = await context(sid, { format: "anthropic", defer_loading: true });
    expect(deferred.tools.length).toBeGreaterThan(plain.tools.length * 10);
    expect(deferred.system).toBe(plain.system);
    expect(deferred.token_estimate).toEqual(plain.token_estimate);
    expect(deferred.token_estimate.total).toBe(
      deferred.token_estimate.system + deferred.token_estimate.tools,
    );
    expect(deferred.deferred_count).toBe(plain.deferred_count);

    // A budget the loaded tools fit in: the deferred definitions, many times larger, do not warn.
    const budget = plain.token_estimate.total;
    await call("PUT", `/v1/sessions/${sid}`, {
      ...DEFER_CONFIG,
      skills: { enabled: false },
      context: { max_tokens: budget },
    });
    expect((await context(sid, { format: "anthropic", defer_loading: true })).warnings).toEqual([]);
    // Below it, the warning offers only what is loaded (the activation), never a deferred tool.
    await op(sid, "tool_activate", { names: ["slack.post_message"] });
    const over = await context(sid, { format: "anthropic", defer_loading: true });
    const warning = over.warnings.find((w: any) => w.code === "over_token_budget");
    expect(warning).toMatchObject({ limit: budget, actual: over.token_estimate.total });
    expect(warning.drop).toEqual([expect.objectContaining({ kind: "activation", id: "slack.post_message" })]);
  });

  it("denied tools are never listed, deferred or not, nor named in name_map", async () => {
    const sid = await seeded(CATALOG_400, DEFER_CONFIG);
    const ctx = await context(sid, { format: "anthropic", defer_loading: true });
    const text = JSON.stringify(ctx);
    expect(text).not.toContain("Refund a payment in stripe");
    expect(text).not.toContain("discord");
    expect(ctx.tools.map((t: any) => t.name)).not.toContain("stripe_refund_payment");
  });

  it("run-scoped activations load a tool for their run only; other runs get it deferred", async () => {
    const sid = await seeded(CATALOG_400, { ...DEFER_CONFIG, activation_scope: "run" });
    await op(sid, "tool_activate", { names: ["linear.create_issue"], run_id: "r1" });
    const mode = async (run_id: string) =>
      (await context(sid, { format: "anthropic", defer_loading: true, run_id })).tools.find(
        (t: any) => t.name === "linear_create_issue",
      ).defer_loading;
    expect(await mode("r1")).toBeUndefined();
    expect(await mode("r2")).toBe(true);
  });

  it("with nothing to load up front it lists nothing deferred: Anthropic refuses an all-deferred request", async () => {
    const sid = await seeded(CATALOG_400.slice(0, 5), { policy: { deny: ["tool_search"] } });
    const ctx = await context(sid, { format: "anthropic", defer_loading: true });
    expect(ctx.tools).toEqual([]);
    expect(ctx.name_map).toEqual({});
    expect(ctx.deferred_count).toBe(5);
    // One always-loaded tool is enough for the others to be listed deferred.
    const other = await seeded(CATALOG_400.slice(0, 5), {
      policy: { deny: ["tool_search"] },
      always_loaded_patterns: ["github.create_issue"],
    });
    const listed = await context(other, { format: "anthropic", defer_loading: true });
    expect(listed.tools.map((t: any) => Boolean(t.defer_loading))).toEqual([false, true, true, true, true]);
  });

  it("tool_search itself is never deferred", async () => {
    const sid = await seeded(CATALOG_400.slice(0, 3));
    const ctx = await context(sid, { format: "anthropic", defer_loading: true });
    expect(ctx.tools[0]).not.toHaveProperty("defer_loading");
    expect(ctx.tools[0].name).toBe("tool_search");
    expect(ctx.tools.slice(1).every((t: any) => t.defer_loading === true)).toBe(true);
  });

  // openai_responses takes it too (test/integration/openai-tool-search.test.ts).
  for (const format of ["openai", "mcp", "json"]) {
    it(`defer_loading with format ${format} is a 400 naming the field`, async () => {
      const sid = await seeded(CATALOG_400.slice(0, 3));
      const res = await op(sid, "context", { format, defer_loading: true });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: "invalid_input", details: { field: "defer_loading" } });
      expect((await op(sid, "context", { format, defer_loading: false })).status).toBe(200);
    });
  }
});
