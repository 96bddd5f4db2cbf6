// POST /v1/gateway/mcp (docs/gateway.md): Streamable HTTP with MCP sessions. `initialize` opens a
// Trove session configured by the tenant's gateway profile, whose id is the Mcp-Session-Id; each
// isolate keeps the sessions' servers it serves, and rebuilds one for an id it has not seen, so any
// isolate can serve any request of a session. The server itself: gateway-mcp.ts.
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { Env } from "../env";
import { GATEWAY_CATALOG, type GatewayProfile } from "../gateway/profile";
import type { SessionAddress } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { OPERATIONS_BY_NAME } from "../ops/registry";
import { createServer, ELICIT_ID_PREFIX, upstreamObject, type WaitUntil } from "./gateway-mcp";
import { invoke } from "./invoke";

/** A session id says whether its client declared elicitation, so any isolate can serve it. */
const SESSION_ID = /^gw(e?)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Live servers kept per isolate (the oldest closes first); any other isolate rebuilds one. */
const MAX_LIVE = 500;

interface Live {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

const live = new Map<string, Live>();

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
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => address.sid });
  const server = createServer(env, address, elicits, waitUntil, (message, options) =>
    transport.send(message, options),
  );
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
