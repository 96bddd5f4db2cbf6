// MCP over Streamable HTTP, driven by the official SDK client through the worker: every operation is a
// tool with its own schemas, bound to the session in the URL; skills are resources; errors map to MCP.
import { SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, LATEST_PROTOCOL_VERSION, McpError } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import pkg from "../../package.json";
import { OPERATIONS } from "../../src/ops/registry";
import { useCorePack } from "../support/core-pack";
import { KEY_A, KEY_B, newSid, op } from "../support/http";

const CATALOG = [
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    side_effects: "write",
    input_schema: {
      type: "object",
      properties: { repo: { type: "string" }, title: { type: "string" } },
      required: ["repo", "title"],
    },
  },
  { name: "github.list_repos", description: "List the repositories of a GitHub owner" },
  { name: "slack.send_message", description: "Post a message to a Slack channel", side_effects: "external" },
  { name: "secret.wipe_disk", description: "Erase every disk in the fleet", side_effects: "stateful" },
];

const mcpUrl = (sid: string) => new URL(`https://trove.test/v1/sessions/${sid}/mcp`);

/** An SDK client connected to a session's MCP endpoint, through the worker. */
async function connect(sid: string, key: string | null = KEY_A): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(mcpUrl(sid), {
    fetch: (url, init) => SELF.fetch(url, init),
    requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} },
  });
  // The default validator (ajv) compiles with new Function, which workerd forbids.
  const client = new Client(
    { name: "trove-test", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  await client.connect(transport);
  return client;
}

async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful call's structured content. */
async function ok(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const res = await callTool(client, name, args);
  expect(res.isError ?? false, JSON.stringify(res.content)).toBe(false);
  expect(JSON.parse((res.content[0] as { text: string }).text)).toEqual(res.structuredContent);
  return res.structuredContent;
}

/** A tool error's text, which is Trove's error body. */
async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const res = await callTool(client, name, args);
  expect(res.isError).toBe(true);
  expect(res.structuredContent).toBeUndefined();
  const [content] = res.content;
  expect(content?.type).toBe("text");
  return (content as { text: string }).text;
}

/** The JSON-RPC error a request fails with. */
async function rpcError(request: Promise<unknown>): Promise<McpError> {
  const err = await request.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

async function post(sid: string, body: unknown, key: string | null = KEY_A): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
  };
  if (key) headers.authorization = `Bearer ${key}`;
  return SELF.fetch(mcpUrl(sid), { method: "POST", headers, body: JSON.stringify(body) });
}

describe("connecting", () => {
  it("initializes with Trove's name and version at the current protocol version", async () => {
    const client = await connect(newSid());
    const transport = client.transport as StreamableHTTPClientTransport;
    expect(client.getServerVersion()).toMatchObject({ name: "trove", version: pkg.version });
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(transport.sessionId).toBeUndefined();
    await client.close();
  });

  it("refuses a missing or unknown bearer key with 401 before any MCP is spoken", async () => {
    const sid = newSid();
    for (const key of [null, "not-a-key"]) {
      const err = await connect(sid, key).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 401 });
      const res = await post(sid, { jsonrpc: "2.0", id: 1, method: "tools/list" }, key);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({
        error: { code: "unauthorized", details: { field: "authorization" } },
      });
    }
  });

  it("answers a plain JSON-RPC POST without initialize, as a stateless server", async () => {
    const sid = newSid();
    const call = { name: "tool_search", arguments: { query: "anything" } };
    const res = await post(sid, { jsonrpc: "2.0", id: 7, method: "tools/call", params: call });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body: any = await res.json();
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 7, result: { structuredContent: { tools: [] } } });
  });

  it("answers GET and DELETE with 405 and a JSON-RPC error, since the server is stateless", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await SELF.fetch(mcpUrl(newSid()), {
        method,
        headers: { authorization: `Bearer ${KEY_A}`, accept: "text/event-stream" },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    }
  });

  it("answers a bad session id with Trove's 400 and a body that is not JSON with a JSON-RPC parse error", async () => {
    const bad = await post("bad sid!", { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: "invalid_session_id" } });
    const res = await SELF.fetch(mcpUrl(newSid()), {
      method: "POST",
      headers: {
        authorization: `Bearer ${KEY_A}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 } });
  });
});

describe("transport security", () => {
  const withOrigin = (sid: string, origin: string | null) =>
    SELF.fetch(`https://trove.test/v1/sessions/${sid}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${KEY_A}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(origin ? { origin } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });

  it("turns away a foreign Origin with 403 and a JSON-RPC error, before looking at the key", async () => {
    const res = await withOrigin(newSid(), "https://evil.example");
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    const noKey = await SELF.fetch(`https://trove.test/v1/sessions/${newSid()}/mcp`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "application/json" },
      body: "{}",
    });
    expect(noKey.status).toBe(403);
  });

  it("serves its own origin, an allow-listed one (TROVE_ALLOWED_ORIGINS), and clients that send none", async () => {
    for (const origin of ["https://trove.test", "https://console.example", null]) {
      const res = await withOrigin(newSid(), origin);
      expect(res.status, String(origin)).toBe(200);
      expect(((await res.json()) as { result: { tools: unknown[] } }).result.tools.length).toBeGreaterThan(0);
    }
  });

  it("answers 401 with WWW-Authenticate: Bearer and the reason, so clients ask for a key", async () => {
    const res = await withOrigin(newSid(), null).then(() =>
      SELF.fetch(`https://trove.test/v1/sessions/${newSid()}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="trove", error_description="[^"]+"$/);
  });
});

describe("tools", () => {
  it("lists every operation as a tool, with its input schema and annotations", async () => {
    const client = await connect(newSid());
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((t) => t.name)).toEqual(OPERATIONS.map((o) => o.name));
    const search = tools.find((t) => t.name === "tool_search");
    expect(search?.description).toBe(OPERATIONS.find((o) => o.name === "tool_search")?.summary);
    expect(search?.inputSchema).toEqual({
      type: "object",
      properties: {
        query: { type: "string", maxLength: 2000 },
        search_type: { default: "fts", type: "string", enum: ["fts", "regex", "exact"] },
        limit: { default: 8, type: "integer", minimum: 1, maximum: 20 },
        include_always_loaded: { default: false, type: "boolean" },
        min_relevance: expect.objectContaining({ default: 0, type: "number", minimum: 0, maximum: 1 }),
        format: {
          default: "json",
          description:
            '"anthropic" adds tool_reference blocks, "openai_responses" a tool_search_output item, for client-side tool search',
          type: "string",
          enum: expect.arrayContaining(["json", "anthropic", "openai_responses"]),
        },
        call_id: expect.objectContaining({ type: "string", minLength: 1, maxLength: 256 }),
      },
      required: ["query"],
      additionalProperties: false,
    });
    expect(search?.outputSchema).toMatchObject({
      type: "object",
      required: expect.arrayContaining(["tools", "query", "search_type", "total_deferred"]),
    });
    expect(search?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(tools.find((t) => t.name === "catalog_sync")?.annotations?.readOnlyHint).toBe(false);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema).not.toHaveProperty("$schema");
      if (tool.outputSchema) expect(tool.outputSchema.type).toBe("object");
    }
    // skill_load answers one of two shapes, which has no object root: it goes without outputSchema.
    expect(tools.find((t) => t.name === "skill_load")?.outputSchema).toBeUndefined();
  });

  it("syncs a catalog and finds its tools with tool_search, as structured content and JSON text", async () => {
    const client = await connect(newSid());
    const synced = await ok(client, "catalog_sync", { tools: CATALOG });
    expect(synced).toMatchObject({ added: 4, total: 4 });
    const found = await ok(client, "tool_search", { query: "open an issue on github" });
    expect(found.tools[0]).toMatchObject({ name: "github.create_issue", match_type: "fts" });
    expect(found.total_deferred).toBe(4);
  });

  it("resolves calls: allow, and needs_approval under a policy set with session_configure", async () => {
    const client = await connect(newSid());
    await ok(client, "session_configure", { policy: { approval: ["github.create_*"] } });
    await ok(client, "catalog_sync", { tools: CATALOG });
    const allowed = await ok(client, "tool_resolve", { name: "github.list_repos", args: {} });
    expect(allowed).toMatchObject({ decision: "allow", name: "github.list_repos", activated: true });
    const args = { repo: "acme/web", title: "Login fails" };
    const gated = await ok(client, "tool_resolve", { name: "github.create_issue", args });
    expect(gated).toMatchObject({ decision: "needs_approval", name: "github.create_issue" });
    await ok(client, "approval_decide", { approval_id: gated.approval_id, decision: "approve" });
    const resolved = await ok(client, "tool_resolve", {
      name: "github.create_issue",
      args,
      approval_id: gated.approval_id,
    });
    expect(resolved.decision).toBe("allow");
  });

  it("searches and fetches the bundled core pack's skills", async () => {
    const sid = newSid();
    await useCorePack(sid);
    const client = await connect(sid);
    const listed = await ok(client, "skill_list", {});
    expect(listed.total).toBe(6);
    const found = await ok(client, "skill_search", { query: "find tools that are not listed" });
    expect(found.skills.map((s: { id: string }) => s.id)).toContain("core/find-tools");
    const got = await ok(client, "skill_get", { names: ["core/find-tools"] });
    expect(got.skills[0]).toMatchObject({ id: "core/find-tools", origin: "agent_skills" });
    expect(got.formatted_context).toContain('<skill name="find-tools" id="core/find-tools">');
  });

  it("answers invalid arguments with a tool error carrying the REST error body, naming the field", async () => {
    const sid = newSid();
    const client = await connect(sid);
    const bad = {
      tools: [
        { name: "ok.tool", description: "fine" },
        { name: "bad name!", description: "x" },
      ],
    };
    const text = await toolError(client, "catalog_sync", bad);
    const body = JSON.parse(text);
    expect(body.error).toMatchObject({ code: "invalid_input", details: { field: "tools[1].name" } });
    expect(body).toEqual((await op(sid, "catalog_sync", bad)).json);
    // Omitted arguments are an empty object: the same answer as REST gives for {}.
    const omitted = (await client.callTool({ name: "tool_search" })) as CallToolResult;
    expect(omitted.isError).toBe(true);
    const missing = JSON.parse((omitted.content[0] as { text: string }).text);
    expect(missing).toEqual((await op(sid, "tool_search", {})).json);
    expect(missing.error.details.field).toBe("query");
    // Nesting is bounded as on REST, before anything recurses over the arguments.
    let deep: unknown = "x";
    for (let i = 0; i < 70; i++) deep = [deep];
    const tooDeep = JSON.parse(await toolError(client, "tool_resolve", { name: "a.b", args: { deep } }));
    expect(tooDeep.error).toMatchObject({ code: "too_deep", details: { limit: 64 } });
    expect(tooDeep.error.details.field).toMatch(/^args\.deep\[0\]/);
  });

  it("answers a denied tool exactly as a tool that does not exist", async () => {
    const sid = newSid();
    const client = await connect(sid);
    await ok(client, "session_configure", { policy: { deny: ["secret.*"] } });
    await ok(client, "catalog_sync", { tools: CATALOG });
    const masked = (text: string, name: string) => text.replaceAll(name, "<NAME>");
    const denied = await toolError(client, "tool_resolve", { name: "secret.wipe_disk" });
    const absent = await toolError(client, "tool_resolve", { name: "nothing.ever_here" });
    expect(masked(denied, "secret.wipe_disk")).toBe(masked(absent, "nothing.ever_here"));
    expect(JSON.parse(absent)).toEqual({
      error: {
        code: "unknown_tool",
        message: 'no tool named "nothing.ever_here" is available',
        details: { field: "name" },
      },
    });
  });

  it("answers a tool name that is not an operation with a JSON-RPC invalid-params error", async () => {
    const client = await connect(newSid());
    const err = await rpcError(client.callTool({ name: "github.create_issue", arguments: {} }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain("Unknown tool: github.create_issue");
  });

  it("gives every operation's structured content the shape its outputSchema declares", async () => {
    // The client validates structuredContent against each tool's outputSchema: a mismatch throws.
    const sid = newSid();
    await useCorePack(sid);
    const client = await connect(sid);
    await client.listTools();
    await ok(client, "session_get", {});
    await ok(client, "session_configure", { policy: { approval: ["slack.*"] } });
    await ok(client, "catalog_sync", { tools: CATALOG });
    await ok(client, "tool_search", { query: "slack", format: "anthropic" });
    await ok(client, "tool_activate", { names: ["github.list_repos"] });
    await ok(client, "tool_deactivate", { names: ["github.list_repos"] });
    const gated = await ok(client, "tool_resolve", { name: "slack.send_message", args: {} });
    await ok(client, "approval_decide", { approval_id: gated.approval_id, decision: "deny" });
    for (const format of ["json", "anthropic", "openai", "mcp"]) await ok(client, "context", { format });
    await ok(client, "state", {});
    await ok(client, "events", {});
    await ok(client, "skill_search", { query: "pagination" });
    await ok(client, "skill_get", { names: ["core/find-tools"], format: "raw" });
    await ok(client, "skill_list", { page_size: 2 });
    await ok(client, "skill_directory", {});
    expect(await ok(client, "skill_load", { name: "core/find-tools" })).toMatchObject({ reloaded: false });
    expect(await ok(client, "skill_load", { name: "core/find-tools" })).toMatchObject({ reloaded: true });
    await ok(client, "skill_read_file", { skill: "core/find-tools", path: "references/search-types.md" });
    await ok(client, "pack_list", {});
    await ok(client, "session_delete", {});
  });
});

describe("skills as resources", () => {
  it("lists the session's skills with their qualified ids as URIs", async () => {
    const sid = newSid();
    await useCorePack(sid);
    const client = await connect(sid);
    const { resources, nextCursor } = await client.listResources();
    expect(nextCursor).toBeUndefined();
    expect(resources).toHaveLength(6);
    expect(resources.map((r) => r.uri)).toContain("trove://skills/core/find-tools");
    const find = resources.find((r) => r.uri === "trove://skills/core/find-tools");
    expect(find).toMatchObject({ name: "find-tools", mimeType: "text/markdown" });
    expect(find?.description).toBeTruthy();
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: "trove://skills/{pack}/{name}" }),
      // The MCP Skills extension's files (test/integration/mcp-skills.test.ts).
      expect.objectContaining({ uriTemplate: "skill://{pack}/{name}/{+path}" }),
    ]);
    const err = await rpcError(client.listResources({ cursor: "not-a-page" }));
    expect(err.code).toBe(-32602);
  });

  it("reads a skill's full text every time, unlike skill_load", async () => {
    const sid = newSid();
    await useCorePack(sid);
    const client = await connect(sid);
    const uri = "trove://skills/core/find-tools";
    const raw = await op(sid, "skill_get", { names: ["core/find-tools"], format: "raw" });
    for (let i = 0; i < 2; i++) {
      const { contents } = await client.readResource({ uri });
      const skill = raw.json.skills[0];
      expect(contents).toEqual([
        {
          uri,
          mimeType: "text/markdown",
          text: skill.body,
          // The Agent Skills spec's optional fields, as skill_get answers them.
          _meta: {
            "trove/skill": {
              license: skill.license,
              compatibility: skill.compatibility,
              metadata: skill.metadata,
              allowed_tools: skill.allowed_tools,
            },
          },
        },
      ]);
    }
    expect(raw.json.skills[0].body).toMatch(/^# Finding tools/);
    expect(raw.json.skills[0].compatibility).toBe("Needs a Trove session whose policy allows tool_search.");
    expect(raw.json.skills[0].metadata).toEqual({ area: "tool-discovery", operations: "tool_search" });
    // A Penguiflow skill has no body: its procedure as rendered for a prompt.
    const penguin = "trove://skills/core/pack.core.trove.catalog_sync_each_turn";
    const [content] = (await client.readResource({ uri: penguin })).contents;
    expect(content).toMatchObject({ uri: penguin, mimeType: "text/markdown" });
    expect((content as { text: string }).text).toContain("Steps:\n1. At the start of every turn");
  });

  it("answers a hidden skill exactly as one that does not exist", async () => {
    const sid = newSid();
    const client = await connect(sid);
    await ok(client, "session_configure", { policy: { skills: { deny: ["find-tools"] } } });
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).not.toContain("trove://skills/core/find-tools");
    const errors = [];
    for (const uri of [
      "trove://skills/core/find-tools",
      "trove://skills/core/never-was",
      "trove://skills/x",
    ]) {
      const err = await rpcError(client.readResource({ uri }));
      expect(err).toMatchObject({ code: -32602, data: { uri } });
      errors.push(err.message.replaceAll(uri, "<URI>"));
    }
    expect(new Set(errors).size).toBe(1);
  });
});

describe("sessions", () => {
  it("keeps two sids apart: a catalog synced in one is not searchable from the other", async () => {
    const one = await connect(newSid());
    const other = await connect(newSid());
    await ok(one, "catalog_sync", { tools: CATALOG });
    expect((await ok(one, "tool_search", { query: "slack message" })).tools).not.toHaveLength(0);
    const found = await ok(other, "tool_search", { query: "slack message" });
    expect(found).toMatchObject({ tools: [], total_deferred: 0 });
  });

  it("keeps tenants apart on the same sid", async () => {
    const sid = newSid();
    await ok(await connect(sid, KEY_A), "catalog_sync", { tools: CATALOG });
    const found = await ok(await connect(sid, KEY_B), "tool_search", { query: "github" });
    expect(found.total_deferred).toBe(0);
  });

  it("shares the session with REST: what MCP writes, REST reads", async () => {
    const sid = newSid();
    await ok(await connect(sid), "catalog_sync", { tools: CATALOG });
    expect((await op(sid, "tool_search", { query: "github issue" })).json.tools[0].name).toBe(
      "github.create_issue",
    );
  });
});
