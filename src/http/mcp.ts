// Trove as an MCP server over Streamable HTTP (MCP 2025-11-25): every operation is a tool of the same
// name and schemas, the session's skills are resources, and Agent Skills are served by the MCP Skills
// extension (mcp-skills.ts). One stateless server per request: the Trove session is in the URL, so
// there is no MCP session to keep.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { z } from "zod";
import type { Env } from "../env";
import { TroveError } from "../errors";
import type { OpResult, SessionAddress, StorageCost } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { OPERATIONS, OPERATIONS_BY_NAME } from "../ops/registry";
import { skillGet, skillList } from "../ops/skill-ops";
import { VERSION } from "./info";
import { invoke } from "./invoke";
import { MAX_JSON_DEPTH, tooDeepPath } from "./json-depth";
import {
  type McpKit,
  pageOf,
  readSkillResource,
  registerSkillsExtension,
  SKILL_FILE_TEMPLATE,
  SKILLS_EXTENSION,
  SKILLS_SETTINGS,
} from "./mcp-skills";

/**
 * A JSON-RPC error as it goes on the wire: the SDK sends `code`, `message` and `data` of whatever a
 * handler throws (its own McpError would prefix the message with "MCP error <code>:").
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

type JsonObject = Record<string, unknown> & { type: "object" };

/**
 * What a zod schema accepts, as JSON Schema 2020-12 without `$schema`; null unless its root is an
 * object.
 */
function objectSchema(schema: z.ZodType): JsonObject | null {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return rest.type === "object" ? (rest as JsonObject) : null;
}

function toolFor(op: Operation): Tool {
  const inputSchema = objectSchema(op.input);
  if (!inputSchema) throw new Error(`operation ${op.name} does not take a JSON object`);
  // Handlers return z.input of their output schema (REST sends it as is), so that side describes
  // the value: io "output" would forbid keys a handler adds beyond the schema and require keys with
  // defaults. MCP wants an object at the root: a union output (skill_load) goes without one.
  const outputSchema = objectSchema(op.output);
  return {
    name: op.name,
    description: op.summary,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    // Recording events and usage counts is bookkeeping, not a change to what the session holds.
    annotations: { readOnlyHint: !op.writes, openWorldHint: false },
  };
}

let tools: Tool[] | null = null;

/** Every operation as an MCP tool, made once per isolate. */
function mcpTools(): Tool[] {
  tools ??= OPERATIONS.map((op) => toolFor(op as Operation));
  return tools;
}

/**
 * Runs an operation for MCP. Trove's own failures (4xx) come back as values for a tool error the
 * model can read; anything else is logged and surfaces as a bare JSON-RPC internal error.
 */
async function runForMcp(env: Env, op: Operation, args: unknown, address: SessionAddress): Promise<OpResult> {
  let result: OpResult;
  try {
    const deep = tooDeepPath(args);
    if (deep !== null) {
      const err = new TroveError("too_deep", 400, `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, {
        field: deep,
        limit: MAX_JSON_DEPTH,
      });
      return { ok: false, status: err.status, error: err.toBody().error };
    }
    result = await invoke(env, op, args, address);
  } catch (err) {
    console.error(
      JSON.stringify({
        msg: "mcp call failed",
        op: op.name,
        error: String(err),
        stack: (err as Error)?.stack,
      }),
    );
    throw new RpcError(ErrorCode.InternalError, "internal error");
  }
  if (!result.ok && result.status >= 500) throw new RpcError(ErrorCode.InternalError, "internal error");
  return result;
}

/**
 * The answer to `tools/call`: the operation's value as structured content (and as JSON text for
 * clients that only read text), or Trove's error body as a tool error. The error carries no
 * structuredContent: the spec requires structured content to match the tool's outputSchema.
 */
function toolResult(result: OpResult): CallToolResult {
  if (!result.ok) {
    return { isError: true, content: [{ type: "text", text: JSON.stringify({ error: result.error }) }] };
  }
  return {
    content: [{ type: "text", text: JSON.stringify(result.value) }],
    structuredContent: result.value as Record<string, unknown>,
  };
}

// ── Skills as resources ──────────────────────────────────────────────────────────────────────────
// trove://skills/<pack>/<name> is Trove's own view of a skill (its text as rendered for a prompt,
// every format); skill:// is the MCP Skills extension's (mcp-skills.ts): Agent Skills file by file.

const SKILL_URI = /^trove:\/\/skills\/([^/]+\/[^/]+)$/;
const SKILL_TEMPLATE = "trove://skills/{pack}/{name}";
const RESOURCES_PER_PAGE = 100;
/** Enough for any skill's injection text; an Agent Skill's body is returned whole regardless. */
const READ_MAX_TOKENS = 6000;

/**
 * resources/list and resources/read over the session's skills, through the same operations as
 * REST: skill_list pages (the MCP cursor is the next page number), skill_get renders the text as
 * this session may see it (hidden tools unnamed, personal data redacted).
 */
function registerSkillResources(server: Server, kit: McpKit): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const cursor = request.params?.cursor;
    const page = pageOf(cursor);
    if (page === null) throw new RpcError(ErrorCode.InvalidParams, "Invalid cursor", { cursor });
    const result = await kit.run(skillList as Operation, { page, page_size: RESOURCES_PER_PAGE });
    if (!result.ok)
      throw new RpcError(ErrorCode.InvalidParams, result.error.message, { error: result.error });
    const { skills, total } = result.value as z.input<typeof skillList.output>;
    return {
      resources: skills.map((s) => ({
        uri: `trove://skills/${s.id}`,
        name: s.name,
        title: s.title,
        description: s.trigger,
        mimeType: "text/markdown",
      })),
      ...(page * RESOURCES_PER_PAGE < total ? { nextCursor: String(page + 1) } : {}),
    };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        uriTemplate: SKILL_TEMPLATE,
        name: "skill",
        title: "A skill by its qualified id",
        mimeType: "text/markdown",
      },
      {
        uriTemplate: SKILL_FILE_TEMPLATE,
        name: "skill-file",
        title: "A file of an Agent Skill, SKILL.md included (MCP Skills extension)",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    // Hidden and absent skills answer alike. -32602 is the code of SEP-2164 and the TypeScript SDK
    // (the 2025-11-25 text suggested -32002).
    const notFound = new RpcError(ErrorCode.InvalidParams, "Resource not found", { uri });
    if (uri.startsWith("skill://")) return readSkillResource(kit, uri, () => notFound);
    const id = SKILL_URI.exec(uri)?.[1];
    if (id === undefined) throw notFound;
    const args = { names: [id], format: "injection", max_tokens: READ_MAX_TOKENS };
    const result = await kit.run(skillGet as Operation, args);
    if (!result.ok) throw notFound;
    const { skills, formatted_context } = result.value as z.input<typeof skillGet.output>;
    // Agent Skills and Nova: the markdown body, whole. Penguiflow skills have no body: their
    // procedure as Trove renders it for a prompt.
    const skill = skills[0];
    const text = skill?.body ?? formatted_context;
    // The Agent Skills spec's optional fields, as skill_get answers them for this session.
    const fields = skill
      ? {
          license: skill.license,
          compatibility: skill.compatibility,
          metadata: skill.metadata,
          allowed_tools: skill.allowed_tools,
        }
      : undefined;
    return {
      contents: [
        { uri, mimeType: "text/markdown", text, ...(fields ? { _meta: { "trove/skill": fields } } : {}) },
      ],
    };
  });
}

// ── The server ───────────────────────────────────────────────────────────────────────────────────

function createServer(env: Env, address: SessionAddress, cost: StorageCost): Server {
  /** Runs an operation and adds what it cost the session's storage to the request's total. */
  const run = async (op: Operation, args: unknown) => {
    const result = await runForMcp(env, op, args, address);
    cost.rows_read += result.cost?.rows_read ?? 0;
    cost.rows_written += result.cost?.rows_written ?? 0;
    return result;
  };
  const server = new Server(
    { name: "trove", title: "Trove", version: VERSION },
    {
      capabilities: { tools: {}, resources: {}, extensions: { [SKILLS_EXTENSION]: SKILLS_SETTINGS } },
      // The SDK's default validator (ajv) compiles with new Function, which workerd forbids.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      instructions:
        `Trove session "${address.sid}". Each tool is the Trove operation of the same name, run on this ` +
        "session; skills are resources at trove://skills/<pack>/<name>, and Agent Skills are served file by " +
        "file at skill://<pack>/<name>/SKILL.md (skills/list, skills/get).",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools() }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const op = OPERATIONS_BY_NAME.get(name);
    // An unknown tool is a protocol error (MCP 2025-11-25, server/tools "Error Handling").
    if (!op) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`, { name });
    return toolResult(await run(op, args ?? {}));
  });
  const kit: McpKit = {
    run,
    error: (code, message, data) => new RpcError(code, message, data),
  };
  registerSkillResources(server, kit);
  registerSkillsExtension(server, kit);
  return server;
}

/** Spec'd answer to a GET (no SSE stream offered) or DELETE (no MCP session to end), or any other method. */
function methodNotAllowed(): Response {
  const body = { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: use POST" }, id: null };
  return Response.json(body, { status: 405, headers: { Allow: "POST" } });
}

/**
 * Answers one HTTP request to `/v1/sessions/{sid}/mcp` (already authenticated: `address.tenant` is
 * the key's tenant). Stateless and JSON-only: every POST gets a fresh server and transport.
 *
 * @example app.all("/v1/sessions/:sid/mcp", (c) => handleMcp(c.req.raw, c.env, address, MAX_BODY_BYTES))
 */
/**
 * The SDK parses each request's params with its own schemas before our handlers run, and answers a
 * failed parse as -32603 "internal error" carrying zod's issue dump. Bad params are the caller's
 * error: -32602 with the offending paths. The SDK offers no hook for this, so its handler table
 * (pinned SDK version; the hostile-input tests cover initialize, tools/call and resources/*) is
 * wrapped once the server is set up.
 */
function answerBadParamsAsInvalid(server: Server): void {
  const handlers = (
    server as unknown as { _requestHandlers?: Map<string, (...a: unknown[]) => Promise<unknown>> }
  )._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (...args: unknown[]) => {
      try {
        return await handler(...args);
      } catch (err) {
        const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
        if (!(err instanceof Error) || !err.name.includes("ZodError") || !Array.isArray(issues)) throw err;
        const fields = issues.map((i) => ({ field: i.path.map(String).join("."), message: i.message }));
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for ${method}: ${fields.map((f) => `${f.field || "params"} ${f.message}`).join("; ")}`,
          { issues: fields },
        );
      }
    });
  }
}

export async function handleMcp(
  request: Request,
  env: Env,
  address: SessionAddress,
  maxBodyBytes: number,
): Promise<Response> {
  if (request.method !== "POST") return methodNotAllowed();
  const cost: StorageCost = { rows_read: 0, rows_written: 0 };
  const server = createServer(env, address, cost);
  answerBadParamsAsInvalid(server);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: maxBodyBytes,
  });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(request);
    // What the request's operations cost the session's storage, as on every REST answer.
    const headers = new Headers(response.headers);
    headers.set("trove-rows-read", String(cost.rows_read));
    headers.set("trove-rows-written", String(cost.rows_written));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  } finally {
    // JSON responses are complete strings by now; nothing outlives the request.
    await server.close();
  }
}
