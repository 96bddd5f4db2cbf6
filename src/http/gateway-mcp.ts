// The gateway (docs/gateway.md): POST /v1/gateway/mcp is one MCP server in front of the tenant's
// upstream MCP servers. `initialize` opens a Trove session configured by the tenant's gateway
// profile, whose id is the Mcp-Session-Id; tools/list lists what that session shows (Trove's
// model-facing tools, always-loaded and activated tools) plus `call_tool`; a call passes
// tool_resolve's gates and is forwarded to the upstream that owns the tool. Trove runs no tool code.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { z } from "zod";
import type { Env } from "../env";
import { GATEWAY_CATALOG, type GatewayProfile } from "../gateway/profile";
import { openHeaders } from "../gateway/secrets";
import { callUpstreamTool } from "../gateway/upstream-client";
import type { UpstreamTargetRow } from "../gateway/upstream-rpc";
import type { OpResult, SessionAddress } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { OPERATIONS_BY_NAME } from "../ops/registry";
import { VERSION } from "./info";
import { invoke } from "./invoke";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A session id says whether its client declared elicitation, so any isolate can serve it. */
const SESSION_ID = /^gw(e?)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Live servers kept per isolate (the oldest closes first); any other isolate rebuilds one. */
const MAX_LIVE = 500;
/** How long an isolate reuses the tenant's upstream list before asking its object again. */
const TARGETS_TTL_MS = 30_000;
/** The id of an elicitation asking for an approval: this prefix, then the approval's id. */
const ELICIT_ID_PREFIX = "trove-approval:";
/** How long a person has to answer an approval asked by elicitation. */
const ELICIT_TIMEOUT_MS = 10 * 60_000;

const CALL_TOOL: Tool = {
  name: "call_tool",
  description:
    "Call any tool you may use by its name, including one tool_search found that is not listed yet. " +
    "arguments must match the tool's input schema.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "The tool's name, as tool_search returned it" },
      arguments: { type: "object", description: "The tool's arguments" },
      approval_id: {
        type: "string",
        description: "An approval a person gave this call (when an earlier call named one)",
      },
    },
    required: ["name"],
  },
};

interface Live {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

const live = new Map<string, Live>();
/** When an isolate last asked for an upstream's import because it said its list changed. */
const refreshedAt = new Map<string, number>();
/** An upstream saying its list changed at every call gets one import per this long per isolate. */
const REFRESH_GAP_MS = 10_000;

function refreshDue(key: string): boolean {
  const last = refreshedAt.get(key) ?? 0;
  if (Date.now() - last < REFRESH_GAP_MS) return false;
  refreshedAt.set(key, Date.now());
  if (refreshedAt.size > MAX_LIVE) refreshedAt.delete(refreshedAt.keys().next().value as string);
  return true;
}
const targetCache = new Map<string, { at: number; targets: Promise<UpstreamTargetRow[]> }>();

const upstreamObject = (env: Env, tenant: string) => env.UPSTREAMS.get(env.UPSTREAMS.idFromName(tenant));

function targetsOf(env: Env, tenant: string): Promise<UpstreamTargetRow[]> {
  const held = targetCache.get(tenant);
  if (held && Date.now() - held.at < TARGETS_TTL_MS) return held.targets;
  const targets = upstreamObject(env, tenant).targets();
  targetCache.set(tenant, { at: Date.now(), targets });
  targets.catch(() => targetCache.delete(tenant));
  return targets;
}

const text = (message: string): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text: message }],
});

/** Trove's answer as a tool result: its value as JSON, or its error body as a tool error. */
function opResult(result: OpResult): CallToolResult {
  if (!result.ok) return text(JSON.stringify({ error: result.error }));
  return {
    content: [{ type: "text", text: JSON.stringify(result.value) }],
    structuredContent: result.value as Record<string, unknown>,
  };
}

/** The session's config from the profile: its upstreams' catalog, policy and loading. */
function sessionConfig(profile: GatewayProfile, withCatalog: boolean) {
  return {
    ...(withCatalog ? { catalog: GATEWAY_CATALOG } : {}),
    policy: profile.policy,
    always_loaded_patterns: profile.always_loaded_patterns,
    default_loading_mode: profile.default_loading_mode,
  };
}

/** Configures the new session; without any upstream published yet, it starts with no catalog. */
async function openSession(env: Env, address: SessionAddress): Promise<void> {
  const profile = await upstreamObject(env, address.tenant).profile();
  const configure = OPERATIONS_BY_NAME.get("session_configure") as Operation;
  const result = await invoke(env, configure, sessionConfig(profile, true), address);
  if (!result.ok && result.error.code === "unknown_catalog") {
    await invoke(env, configure, sessionConfig(profile, false), address);
  }
}

/** Work that outlives the request (the worker's ExecutionContext.waitUntil). */
type WaitUntil = (promise: Promise<unknown>) => void;

function createServer(env: Env, address: SessionAddress, elicits: boolean, waitUntil: WaitUntil): Server {
  const run = (name: string, args: unknown) =>
    invoke(env, OPERATIONS_BY_NAME.get(name) as Operation, args, address);
  const server = new Server(
    { name: "trove-gateway", title: "Trove gateway", version: VERSION },
    {
      capabilities: { tools: { listChanged: true } },
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
      instructions:
        `Trove gateway session "${address.sid}". Only some tools are listed: use tool_search to find the ` +
        "others (found tools are listed from then on), and call_tool to call any tool by name.",
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const result = await run("context", { format: "mcp" });
    if (!result.ok) return { tools: [CALL_TOOL] };
    const tools = (result.value as { tools: Tool[] }).tools;
    return { tools: [...tools, CALL_TOOL] };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    if (name === CALL_TOOL.name) {
      const target = args.name;
      if (typeof target !== "string" || target === CALL_TOOL.name) {
        return text('call_tool needs "name": the name of the tool to call');
      }
      const inner = args.arguments ?? {};
      if (typeof inner !== "object" || inner === null || Array.isArray(inner)) {
        return text('call_tool\'s "arguments" must be an object');
      }
      const approval = typeof args.approval_id === "string" ? args.approval_id : undefined;
      return callTool(target, inner as Record<string, unknown>, approval, extra);
    }
    return callTool(name, args, undefined, extra);
  });

  /** Sends list_changed on the call's own stream, so a host that re-lists sees the new tools. */
  const listChanged = (extra: Extra) =>
    extra.sendNotification({ method: "notifications/tools/list_changed" }).catch(() => {});

  async function callTool(
    name: string,
    args: Record<string, unknown>,
    approvalId: string | undefined,
    extra: Extra,
  ): Promise<CallToolResult> {
    const resolved = await run("tool_resolve", {
      name,
      args,
      ...(approvalId ? { approval_id: approvalId } : {}),
    });
    if (!resolved.ok) return opResult(resolved);
    const decision = resolved.value as z.input<typeof import("../ops/activation-ops").ToolResolveOutput>;
    const op = OPERATIONS_BY_NAME.get(decision.name);
    if (op?.model) return builtin(op, args, extra);
    if (decision.activated) await listChanged(extra);
    if (decision.decision === "needs_approval") {
      const approved = await approve(decision.name, decision.approval_id ?? "", args, extra);
      if (approved !== true) return approved;
    }
    return forward(decision.name, String(decision.tool.namespace ?? ""), args);
  }

  /** Trove's own model-facing tools run here; tool_search also activates what it found. */
  async function builtin(
    op: Operation,
    args: Record<string, unknown>,
    extra: Extra,
  ): Promise<CallToolResult> {
    const result = await run(op.name, args);
    if (op.name === "tool_search" && result.ok) {
      const names = ((result.value as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
      if (names.length > 0) {
        const activated = await run("tool_activate", {
          names,
          reason: "found by tool_search at the gateway",
        });
        if (activated.ok && (activated.value as { activated: string[] }).activated.length > 0) {
          await listChanged(extra);
        }
      }
    }
    return opResult(result);
  }

  /**
   * A person's approval: asked in the host by elicitation when the client declared it, otherwise
   * a tool error naming the pending approval. The elicitation request's id names the approval, so
   * the client's answer — a POST of its own, maybe to another isolate — is recorded with
   * approval_decide where it lands (answerElicitation); this call waits for the decision in the
   * session rather than for that POST, which keeps each request's I/O in its own request.
   */
  async function approve(
    tool: string,
    approvalId: string,
    args: Record<string, unknown>,
    extra: Extra,
  ): Promise<true | CallToolResult> {
    const pending = text(
      `"${tool}" needs a person's approval: approval ${approvalId} is pending. Approve it in /inspect ` +
        `(or with approval_decide), then call call_tool again with approval_id "${approvalId}".`,
    );
    if (!elicits) return pending;
    await live.get(`${address.tenant}/${address.sid}`)?.transport.send(
      {
        jsonrpc: "2.0",
        id: `${ELICIT_ID_PREFIX}${approvalId}`,
        method: "elicitation/create",
        params: {
          mode: "form",
          message: `Allow the call of ${tool} with ${JSON.stringify(args).slice(0, 1000)}?`,
          requestedSchema: { type: "object", properties: {} },
        },
      },
      { relatedRequestId: extra.requestId },
    );
    const deadline = Date.now() + ELICIT_TIMEOUT_MS;
    for (let wait = 50; Date.now() < deadline && !extra.signal.aborted; wait = Math.min(wait * 2, 2_000)) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      const again = await run("tool_resolve", { name: tool, args, approval_id: approvalId });
      if (!again.ok) {
        return again.error.code === "approval_denied"
          ? text(`The call of "${tool}" was declined by the user (approval ${approvalId}).`)
          : opResult(again);
      }
      if ((again.value as { decision: string }).decision === "allow") return true;
    }
    return pending;
  }

  /** The call, forwarded to the upstream that owns the tool; its result comes back unchanged. */
  async function forward(
    name: string,
    namespace: string,
    args: Record<string, unknown>,
  ): Promise<CallToolResult> {
    const owner = (targets: UpstreamTargetRow[]) =>
      targets.find((t) => t.namespace === namespace && name.startsWith(`${namespace}.`));
    // An upstream added since this isolate last asked is not in its list yet: ask again once.
    let target = owner(await targetsOf(env, address.tenant));
    if (!target) {
      targetCache.delete(address.tenant);
      target = owner(await targetsOf(env, address.tenant));
    }
    if (!target) return text(`no upstream serves "${name}" any more`);
    let headers: Record<string, string> = {};
    if (target.headers !== null) {
      const unreadable = text(
        `upstream "${target.name}" failed: its headers cannot be opened (TROVE_SECRETS_KEY)`,
      );
      if (!env.TROVE_SECRETS_KEY) return unreadable;
      try {
        headers = await openHeaders(env.TROVE_SECRETS_KEY, address.tenant, target.name, target.headers);
      } catch {
        // Sealed under another key (the secret changed): PUT the upstream again.
        return unreadable;
      }
    }
    const key = `${address.tenant}/${target.name}\n${target.url}\n${target.headers ?? ""}\n${target.timeout_ms}`;
    const result = await callUpstreamTool(
      key,
      { url: new URL(target.url), headers, timeoutMs: target.timeout_ms },
      name.slice(namespace.length + 1),
      args,
    );
    if (!result.ok) return text(`upstream "${target.name}" ${result.reason}`);
    // The upstream said its tools changed: import them again, after this answer.
    if (result.value.listChanged && refreshDue(`${address.tenant}/${target.name}`)) {
      waitUntil(upstreamObject(env, address.tenant).refresh(address.tenant, target.name));
    }
    return result.value.result;
  }

  return server;
}

/** Starts a server for a session, marking it initialized when its initialize went elsewhere. */
async function liveFor(
  env: Env,
  address: SessionAddress,
  elicits: boolean,
  resumed: boolean,
  waitUntil: WaitUntil,
): Promise<Live> {
  const key = `${address.tenant}/${address.sid}`;
  const held = live.get(key);
  if (held) return held;
  const server = createServer(env, address, elicits, waitUntil);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => address.sid });
  await server.connect(transport);
  if (resumed) {
    // This isolate did not see the session's initialize: take it as done, as the id says.
    const state = transport as unknown as { sessionId?: string; _initialized: boolean };
    state.sessionId = address.sid;
    state._initialized = true;
    (server as unknown as { _clientCapabilities: object })._clientCapabilities = elicits
      ? { elicitation: {} }
      : {};
  }
  live.set(key, { server, transport });
  if (live.size > MAX_LIVE) {
    const [oldest, entry] = live.entries().next().value as [string, Live];
    live.delete(oldest);
    void entry.server.close();
  }
  return { server, transport };
}

/**
 * The client's answer to an approval's elicitation, recorded in the session with approval_decide
 * (accept approves; decline and cancel deny); null for any other request.
 */
async function answerElicitation(
  request: Request,
  env: Env,
  address: SessionAddress,
): Promise<Response | null> {
  if (request.method !== "POST") return null;
  let body: unknown;
  try {
    body = await request.clone().json();
  } catch {
    return null;
  }
  const message = body as { id?: unknown; method?: unknown; result?: { action?: unknown }; error?: unknown };
  if (
    typeof message?.id !== "string" ||
    !message.id.startsWith(ELICIT_ID_PREFIX) ||
    message.method !== undefined
  ) {
    return null;
  }
  const action = message.result?.action;
  await invoke(
    env,
    OPERATIONS_BY_NAME.get("approval_decide") as Operation,
    {
      approval_id: message.id.slice(ELICIT_ID_PREFIX.length),
      decision: action === "accept" ? "approve" : "deny",
      by: "elicitation",
      ...(action === "accept" ? {} : { note: `the user answered ${String(action ?? "with an error")}` }),
    },
    address,
  );
  return new Response(null, { status: 202 });
}

function jsonRpcError(status: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status });
}

/**
 * Answers one HTTP request to `/v1/gateway/mcp` (already authenticated: the tenant is the key's).
 *
 * @example app.all("/v1/gateway/mcp", (c) => handleGateway(c.req.raw, c.env, c.get("tenant"), (p) => c.executionCtx.waitUntil(p)))
 */
export async function handleGateway(
  request: Request,
  env: Env,
  tenant: string,
  waitUntil: WaitUntil,
): Promise<Response> {
  const sid = request.headers.get("mcp-session-id");
  if (sid === null) {
    if (request.method !== "POST")
      return jsonRpcError(400, "Bad Request: no Mcp-Session-Id; initialize first");
    let body: unknown;
    try {
      body = await request.clone().json();
    } catch {
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null },
        { status: 400 },
      );
    }
    const message = body as { method?: string; params?: { capabilities?: { elicitation?: unknown } } };
    if (message?.method !== "initialize") {
      return jsonRpcError(400, "Bad Request: no Mcp-Session-Id; initialize first");
    }
    const elicits = message.params?.capabilities?.elicitation !== undefined;
    const address = { tenant, sid: `gw${elicits ? "e" : ""}-${crypto.randomUUID()}` };
    await openSession(env, address);
    const { transport } = await liveFor(env, address, elicits, false, waitUntil);
    return transport.handleRequest(request, { parsedBody: body });
  }
  // No standalone SSE stream: everything the gateway sends goes on the stream of the request it
  // concerns, so no stream outlives its request (MCP 2025-11-25 allows 405 here).
  if (request.method === "GET") {
    return Response.json(
      { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: use POST" }, id: null },
      { status: 405, headers: { allow: "POST, DELETE" } },
    );
  }
  const match = SESSION_ID.exec(sid);
  if (!match) return jsonRpcError(404, "Session not found");
  const address = { tenant, sid };
  const answered = await answerElicitation(request, env, address);
  if (answered) return answered;
  const { transport } = await liveFor(env, address, match[1] === "e", true, waitUntil);
  const response = await transport.handleRequest(request);
  if (request.method === "DELETE") live.delete(`${tenant}/${sid}`);
  return response;
}
