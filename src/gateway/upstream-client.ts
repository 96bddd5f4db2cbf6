// Talking to an upstream MCP server with the official SDK's client over Streamable HTTP: list its
// tools (bounded pages and bytes) and forward one call. Every failure comes back as a sentence
// naming what went wrong, never as a thrown error the caller must guess at.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type CallToolResult,
  CallToolResultSchema,
  type JSONRPCMessage,
  LATEST_PROTOCOL_VERSION,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import pkg from "../../package.json";

/** At most this many tools/list pages are read from one upstream. */
export const MAX_LIST_PAGES = 50;
/** At most this many tools are taken from one upstream (a session holds 10,000 in all). */
export const MAX_UPSTREAM_TOOLS = 2_000;
/** A response body (a tools/list page, a call's result) larger than this is refused. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** How long one request to an upstream may take. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface UpstreamTarget {
  url: URL;
  headers: Record<string, string>;
  timeoutMs: number;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

class TooLarge extends Error {}

/**
 * fetch, with every response body cut off past `limit` bytes (declared or streamed): an upstream
 * cannot make Trove buffer without bound.
 */
function boundedFetch(limit: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > limit) {
      await response.body?.cancel();
      throw new TooLarge(`response of ${declared} bytes is over the ${limit}-byte limit`);
    }
    if (!response.body) return response;
    let seen = 0;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new TooLarge(`response is over the ${limit}-byte limit`));
        else controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(counter), response);
  };
}

/** A sentence for what went wrong, without the upstream's internals beyond its message. */
function reasonOf(err: unknown, timeoutMs: number): string {
  if (err instanceof TooLarge) return `too large: ${err.message}`;
  const e = err as { name?: string; code?: number; message?: string };
  const message = String(e?.message ?? err).slice(0, 300);
  if (e?.code === -32001 || /timed? ?out/i.test(message)) return `timed out after ${timeoutMs} ms`;
  if (/over the \d+-byte limit/.test(message)) return `too large: ${message}`;
  if (/fetch failed|network|connect|ECONNREFUSED|Error POSTing/i.test(message))
    return `unreachable: ${message}`;
  return `failed: ${message}`;
}

/** A connected client (initialize done), for one upstream; `prepare` runs before it connects. */
async function open(
  target: UpstreamTarget,
  limit: number,
  prepare?: (client: Client) => void,
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(target.url, {
    fetch: boundedFetch(limit),
    requestInit: { headers: target.headers },
    // A request that fails is reported, not retried in the background.
    reconnectionOptions: {
      maxReconnectionDelay: 0,
      initialReconnectionDelay: 0,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 0,
    },
  });
  const client = new Client(
    { name: "trove-gateway", version: pkg.version },
    { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  prepare?.(client);
  try {
    await client.connect(transport, { timeout: target.timeoutMs, maxTotalTimeout: target.timeoutMs });
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
  return client;
}

/** Opens a client, runs `work` and closes it, whatever happens. */
async function withClient<T>(
  target: UpstreamTarget,
  limit: number,
  work: (client: Client) => Promise<T>,
): Promise<Outcome<T>> {
  let client: Client | undefined;
  try {
    client = await open(target, limit);
    return { ok: true, value: await work(client) };
  } catch (err) {
    return { ok: false, reason: reasonOf(err, target.timeoutMs) };
  } finally {
    await client?.close().catch(() => {});
  }
}

/** How long an isolate reuses an upstream's handshake for its calls. */
const HANDSHAKE_TTL_MS = 5 * 60_000;
const MAX_HANDSHAKES = 500;

/** What an initialize settled: the protocol version, and the session when the server keeps one. */
interface Handshake {
  protocolVersion: string;
  sessionId: string | undefined;
}

/**
 * Handshakes by caller key, so that a call costs the upstream one request, not three (initialize,
 * initialized, call). Only these plain values are kept: a Worker cannot reuse a client's I/O
 * across requests, so each call makes a new transport with them.
 */
const handshakes = new Map<string, { at: number; handshake: Promise<Handshake> }>();

function handshakeFor(key: string, target: UpstreamTarget): Promise<Handshake> {
  const held = handshakes.get(key);
  if (held && Date.now() - held.at < HANDSHAKE_TTL_MS) return held.handshake;
  const handshake = (async () => {
    const client = await open(target, MAX_RESPONSE_BYTES);
    const transport = client.transport as StreamableHTTPClientTransport;
    const done = {
      protocolVersion: transport.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      sessionId: transport.sessionId,
    };
    // Closing the client drops its connection; the upstream's session (if any) stays for the calls.
    await client.close().catch(() => {});
    return done;
  })();
  handshakes.set(key, { at: Date.now(), handshake });
  handshake.catch(() => handshakes.delete(key));
  if (handshakes.size > MAX_HANDSHAKES) {
    const [oldest] = handshakes.keys();
    if (oldest !== undefined) handshakes.delete(oldest);
  }
  return handshake;
}

/** A forwarded call's result, and whether the upstream said meanwhile that its tool list changed. */
export interface Forwarded {
  result: CallToolResult;
  listChanged: boolean;
}

/** One tools/call over a new transport in an established session; the JSON-RPC answer's result. */
async function callOnce(
  target: UpstreamTarget,
  handshake: Handshake,
  name: string,
  args: Record<string, unknown>,
): Promise<Forwarded> {
  const transport = new StreamableHTTPClientTransport(target.url, {
    fetch: boundedFetch(MAX_RESPONSE_BYTES),
    requestInit: { headers: target.headers },
    ...(handshake.sessionId ? { sessionId: handshake.sessionId } : {}),
    reconnectionOptions: {
      maxReconnectionDelay: 0,
      initialReconnectionDelay: 0,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 0,
    },
  });
  transport.setProtocolVersion(handshake.protocolVersion);
  const id = `trove-${crypto.randomUUID()}`;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let listChanged = false;
  const answer = new Promise<JSONRPCMessage>((resolve, reject) => {
    transport.onmessage = (message) => {
      if ("method" in message && message.method === "notifications/tools/list_changed") listChanged = true;
      if ("id" in message && message.id === id && !("method" in message)) resolve(message);
    };
    transport.onerror = reject;
    timer = setTimeout(() => reject(new Error(`timed out after ${target.timeoutMs} ms`)), target.timeoutMs);
  });
  try {
    await transport.start();
    await Promise.race([
      transport.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }),
      answer,
    ]);
    const message = (await answer) as { result?: unknown; error?: { code: number; message: string } };
    if (message.error) throw Object.assign(new Error(message.error.message), { code: message.error.code });
    const parsed = CallToolResultSchema.safeParse(message.result);
    if (!parsed.success) throw new Error("malformed: its result is not an MCP tool result");
    // The result as the upstream sent it, not as the schema re-shaped it.
    return { result: message.result as CallToolResult, listChanged };
  } finally {
    clearTimeout(timer);
    await transport.close().catch(() => {});
  }
}

/**
 * One tools/call, its result as the upstream gave it. `key` names the upstream as configured (its
 * URL and sealed headers included): calls with the same key share a handshake. A 404 means the
 * upstream forgot that session (MCP 2025-11-25, "Session Management"): the call did not run, so
 * it is made again once in a new session.
 */
export async function callUpstreamTool(
  key: string,
  target: UpstreamTarget,
  name: string,
  args: Record<string, unknown>,
): Promise<Outcome<Forwarded>> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { ok: true, value: await callOnce(target, await handshakeFor(key, target), name, args) };
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code === 404 || code === -1) handshakes.delete(key);
      if (attempt === 0 && code === 404) continue;
      return { ok: false, reason: reasonOf(err, target.timeoutMs) };
    }
  }
}

/** Every tool the upstream lists, page by page, within MAX_LIST_PAGES and MAX_UPSTREAM_TOOLS. */
export function listUpstreamTools(target: UpstreamTarget): Promise<Outcome<Tool[]>> {
  return withClient(target, MAX_RESPONSE_BYTES, async (client) => {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : {}, { timeout: target.timeoutMs });
      tools.push(...result.tools);
      if (tools.length > MAX_UPSTREAM_TOOLS) {
        throw new Error(`it lists more than ${MAX_UPSTREAM_TOOLS} tools`);
      }
      cursor = result.nextCursor;
      if (!cursor) return tools;
    }
    throw new Error(`its tool list runs past ${MAX_LIST_PAGES} pages`);
  });
}

/** An open watch of an upstream (watchUpstream). */
export interface UpstreamWatch {
  /** Whether it closed already (its stream ended or failed). */
  readonly closed: boolean;
  close(): Promise<void>;
}

/**
 * A client kept connected to hear what the upstream says between requests. After initialize the
 * SDK's transport opens the standalone stream (a GET, MCP "Listening for Messages from the
 * Server"); `onListChanged` runs on each notifications/tools/list_changed that comes on it. The
 * stream is not re-opened when it ends or fails (nor past MAX_RESPONSE_BYTES): the watch closes
 * and `onClosed` runs, and its owner watches again later. A server without such a stream (its GET
 * answers 405) sends nothing on it.
 */
export async function watchUpstream(
  target: UpstreamTarget,
  onListChanged: () => void,
  onClosed: () => void,
): Promise<Outcome<UpstreamWatch>> {
  let closed = false;
  let client: Client | undefined;
  const close = async () => {
    if (closed) return;
    closed = true;
    await client?.close().catch(() => {});
    onClosed();
  };
  try {
    client = await open(target, MAX_RESPONSE_BYTES, (c) => {
      c.setNotificationHandler(ToolListChangedNotificationSchema, async () => onListChanged());
      c.onerror = () => void close();
      c.onclose = () => void close();
    });
    return {
      ok: true,
      value: {
        get closed() {
          return closed;
        },
        close,
      },
    };
  } catch (err) {
    closed = true;
    return { ok: false, reason: reasonOf(err, target.timeoutMs) };
  }
}
