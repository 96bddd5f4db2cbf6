// The gateway's MCP server (docs/gateway.md), one per gateway session: tools/list lists what the
// session shows (Trove's model-facing tools, always-loaded and activated tools) plus `call_tool`;
// a call passes tool_resolve's gates and is forwarded to the upstream that owns the tool, whose
// answer comes back unchanged. Trove runs no tool code. The HTTP side: gateway-endpoint.ts.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  type RequestId,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { z } from "zod";
import type { Env } from "../env";
import { openHeaders } from "../gateway/secrets";
import { callUpstreamTool } from "../gateway/upstream-client";
import type { UpstreamTargetRow } from "../gateway/upstream-rpc";
import type { ToolResolveOutput } from "../ops/activation-ops";
import type { OpResult, SessionAddress } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { OPERATIONS_BY_NAME } from "../ops/registry";
import { VERSION } from "./info";
import { invoke } from "./invoke";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How long an isolate reuses the tenant's upstream list before asking its object again. */
const TARGETS_TTL_MS = 30_000;
/** The id of an elicitation asking for an approval: this prefix, then the approval's id. */
export const ELICIT_ID_PREFIX = "trove-approval:";
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

/** When an isolate last asked for an upstream's import because it said its list changed. */
const refreshedAt = new Map<string, number>();
/** An upstream saying its list changed at every call gets one import per this long per isolate. */
const REFRESH_GAP_MS = 10_000;

function refreshDue(key: string): boolean {
  const last = refreshedAt.get(key) ?? 0;
  if (Date.now() - last < REFRESH_GAP_MS) return false;
  refreshedAt.set(key, Date.now());
  if (refreshedAt.size > 1_000) refreshedAt.delete(refreshedAt.keys().next().value as string);
  return true;
}
const targetCache = new Map<string, { at: number; targets: Promise<UpstreamTargetRow[]> }>();

export const upstreamObject = (env: Env, tenant: string) =>
  env.UPSTREAMS.get(env.UPSTREAMS.idFromName(tenant));

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

/** Work that outlives the request (the worker's ExecutionContext.waitUntil). */
export type WaitUntil = (promise: Promise<unknown>) => void;

/** Sends a message to the client on the stream of the request `relatedRequestId`. */
export type SendToClient = (
  message: JSONRPCMessage,
  options: { relatedRequestId: RequestId },
) => Promise<void>;

/**
 * The MCP server of one gateway session. `elicits`: the client declared elicitation; `send`
 * reaches the session's transport (for approval elicitations, whose answers come back as POSTs of
 * their own: see ELICIT_ID_PREFIX).
 */
export function createServer(
  env: Env,
  address: SessionAddress,
  elicits: boolean,
  waitUntil: WaitUntil,
  send: SendToClient,
): Server {
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
    const decision = resolved.value as z.input<typeof ToolResolveOutput>;
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
    await send(
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
