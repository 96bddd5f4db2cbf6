// Talking to an upstream MCP server with the official SDK's client over Streamable HTTP: list its
// tools (bounded pages and bytes) and forward one call. Every failure comes back as a sentence
// naming what went wrong, never as a thrown error the caller must guess at.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
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

/** Opens a client, runs `work` and closes it, whatever happens. */
async function withClient<T>(
  target: UpstreamTarget,
  limit: number,
  work: (client: Client) => Promise<T>,
): Promise<Outcome<T>> {
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
  const options = { timeout: target.timeoutMs, maxTotalTimeout: target.timeoutMs };
  try {
    await client.connect(transport, options);
    return { ok: true, value: await work(client) };
  } catch (err) {
    return { ok: false, reason: reasonOf(err, target.timeoutMs) };
  } finally {
    await client.close().catch(() => {});
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

/** One tools/call, its result as the upstream gave it. */
export function callUpstreamTool(
  target: UpstreamTarget,
  name: string,
  args: Record<string, unknown>,
): Promise<Outcome<CallToolResult>> {
  return withClient(target, MAX_RESPONSE_BYTES, async (client) => {
    const options = { timeout: target.timeoutMs, maxTotalTimeout: target.timeoutMs };
    return (await client.callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
  });
}
