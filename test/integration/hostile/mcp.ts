// Hostile JSON-RPC to the MCP endpoint: transport headers, malformed and invalid messages, batches,
// unknown methods, hostile params, tools/call of every operation with bad arguments, resources.
import {
  type CaseContext,
  type Check,
  type Expectation,
  error,
  type HostileCase,
  huge,
  MB,
  nestedArray,
  OPERATION_NAMES,
  OTHER_TENANT_KEY,
  ok,
  okWrites,
  ROUTE,
  request,
  rpc,
  SESSION,
  toolError,
  UNICODE,
} from "./cases";
import { VALID_BODY } from "./operations";

const ACCEPT = "application/json, text/event-stream";
const mcp = (
  name: string,
  body: unknown,
  expect: Expectation,
  more: Partial<HostileCase> = {},
): HostileCase =>
  request(ROUTE.mcp, "POST", `${SESSION}/mcp`, name, expect, {
    body:
      typeof body === "string" || typeof body === "function"
        ? (body as HostileCase["body"])
        : JSON.stringify(body),
    ...more,
    headers: { accept: ACCEPT, ...more.headers },
  });
const call = (id: number, name: unknown, args: unknown, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args, ...extra },
});
/** A JSON-RPC success whose result passes `check`. */
const result = (check?: Check): Expectation =>
  ok((j) =>
    j?.jsonrpc === "2.0" && j.result && !j.result.isError
      ? check?.(j.result)
      : `not a result: ${JSON.stringify(j).slice(0, 200)}`,
  );
const empty: Expectation = { kind: "empty", status: 202 };
const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
const B4 =
  "B4: a request whose params fail the SDK's schema is answered -32603 (internal error) with zod's issue dump, not -32602";

const transport: HostileCase[] = [
  mcp("no Accept header", ping, rpc(406, -32000), { headers: { accept: null } }),
  mcp("an Accept of JSON only", ping, rpc(406, -32000), { headers: { accept: "application/json" } }),
  mcp("an Accept of event streams only", ping, rpc(406, -32000), {
    headers: { accept: "text/event-stream" },
  }),
  mcp("a text/plain body", ping, rpc(415, -32000), { headers: { "content-type": "text/plain" } }),
  mcp("no content type", ping, rpc(415, -32000), { headers: { "content-type": null } }),
  mcp("a JSON-patch content type", ping, rpc(415, -32000), {
    headers: { "content-type": "application/json-patch+json" },
  }),
  mcp("an unsupported protocol version header", ping, rpc(400, -32000), {
    headers: { "mcp-protocol-version": "1999-01-01" },
  }),
  mcp("a garbage MCP session id on a stateless server", ping, result(), {
    headers: { "mcp-session-id": "garbage\u00ff" },
  }),
  mcp("no key", ping, error(401, "unauthorized", "authorization"), { headers: { authorization: null } }),
  mcp("a Basic key", ping, error(401, "unauthorized", "authorization"), {
    headers: { authorization: "Basic a2V5LWE=" },
  }),
  request(ROUTE.mcp, "GET", `${SESSION}/mcp`, "GET (no SSE stream is offered)", rpc(405, -32000), {
    headers: { accept: ACCEPT },
  }),
  request(ROUTE.mcp, "DELETE", `${SESSION}/mcp`, "DELETE (no MCP session to end)", rpc(405, -32000)),
  request(ROUTE.mcp, "PUT", `${SESSION}/mcp`, "PUT", rpc(405, -32000), { body: "{}" }),
];

const messages: HostileCase[] = [
  mcp("a truncated message", '{"jsonrpc":"2.0","id":1,"meth', rpc(400, -32700)),
  mcp("null", "null", rpc(400, -32700)),
  mcp("a string", '"ping"', rpc(400, -32700)),
  mcp("an empty object", "{}", rpc(400, -32700)),
  mcp("JSON-RPC 1.0", { ...ping, jsonrpc: "1.0" }, rpc(400, -32700)),
  mcp("a null id", { ...ping, id: null }, rpc(400, -32700)),
  mcp("an object id", { ...ping, id: {} }, rpc(400, -32700)),
  mcp("a fractional id", { ...ping, id: 1.5 }, rpc(400, -32700)),
  mcp("an id of 1e400", '{"jsonrpc":"2.0","id":1e400,"method":"ping"}', rpc(400, -32700)),
  mcp("a numeric method", { ...ping, method: 5 }, rpc(400, -32700)),
  mcp("array params", { ...ping, params: [] }, rpc(400, -32700)),
  mcp(
    "tools/call with array params",
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: ["state", {}] },
    rpc(400, -32700),
  ),
  mcp(
    "a batch of 101 messages",
    Array.from({ length: 101 }, (_, i) => ({ ...ping, id: i })),
    rpc(400, -32600),
  ),
  mcp(
    "two initialize requests in one batch",
    [1, 2].map((id) => ({
      jsonrpc: "2.0",
      id,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    })),
    rpc(400, -32600),
  ),
  mcp("an empty batch (nothing to answer)", "[]", empty),
  mcp("a notification only", { jsonrpc: "2.0", method: "notifications/initialized" }, empty),
  mcp("a response only", { jsonrpc: "2.0", id: 7, result: {} }, empty),
  mcp(
    "an unknown notification",
    { jsonrpc: "2.0", method: "notifications/\u202eevil", params: { x: huge(10_000) } },
    empty,
  ),
  mcp(
    "an unknown method",
    { ...ping, method: "tools/delete" },
    ok((j) => (j?.error?.code === -32601 ? undefined : "not method-not-found")),
  ),
  mcp(
    "a method named __proto__",
    { ...ping, method: "__proto__" },
    ok((j) => (j?.error?.code === -32601 ? undefined : "not method-not-found")),
  ),
  mcp(
    "logging/setLevel, not offered",
    { ...ping, method: "logging/setLevel", params: { level: "debug" } },
    ok((j) => (j?.error?.code === -32601 ? undefined : "not method-not-found")),
  ),
  mcp(
    "a batch of 100 pings",
    Array.from({ length: 100 }, (_, i) => ({ ...ping, id: i })),
    ok((j) => (Array.isArray(j) && j.length === 100 ? undefined : "not 100 answers")),
  ),
  mcp(
    "a 100 KB string id is echoed",
    { ...ping, id: huge(100_000) },
    ok((j) => (j?.id?.length === 100_000 ? undefined : "id not echoed")),
  ),
  mcp(
    "an unknown top-level member (JSON-RPC allows none)",
    { ...ping, extra: { nested: [1] } },
    rpc(400, -32700),
  ),
  mcp(
    "initialize with a protocol version from the future",
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2999-12-31",
        capabilities: { x: 1 },
        clientInfo: { name: "\u202e", version: "" },
      },
    },
    result((r) => (r.protocolVersion === "2025-11-25" ? undefined : `negotiated ${r.protocolVersion}`)),
  ),
  mcp(
    "tools/list with a hostile cursor",
    { jsonrpc: "2.0", id: 1, method: "tools/list", params: { cursor: "../../" } },
    result((r) => (r.tools?.length === OPERATION_NAMES.length ? undefined : "not every operation")),
  ),
];

const invalidParams = (j: any) =>
  j?.error?.code === -32602 ? undefined : `error ${JSON.stringify(j?.error ?? j).slice(0, 200)}`;
const params: HostileCase[] = [
  mcp("initialize without params", { jsonrpc: "2.0", id: 1, method: "initialize" }, ok(invalidParams), {
    regression: B4,
  }),
  mcp("tools/call without params", { jsonrpc: "2.0", id: 1, method: "tools/call" }, ok(invalidParams), {
    regression: B4,
  }),
  mcp(
    "tools/call without a name",
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { arguments: {} } },
    ok(invalidParams),
    { regression: B4 },
  ),
  mcp("tools/call with null arguments", call(1, "state", null), ok(invalidParams), { regression: B4 }),
  mcp("tools/call with array arguments", call(1, "state", []), ok(invalidParams), { regression: B4 }),
  mcp("tools/call with string arguments", call(1, "tool_search", '{"query":"x"}'), ok(invalidParams), {
    regression: B4,
  }),
  mcp(
    "resources/read with a numeric uri",
    { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: 5 } },
    ok(invalidParams),
    { regression: B4 },
  ),
  mcp(
    "resources/list with a numeric cursor",
    { jsonrpc: "2.0", id: 1, method: "resources/list", params: { cursor: 5 } },
    ok(invalidParams),
    { regression: B4 },
  ),
  mcp("tools/call of an unknown tool", call(1, "tool_delete", {}), ok(invalidParams)),
  mcp("tools/call of __proto__", call(1, "__proto__", {}), ok(invalidParams)),
  mcp("tools/call of constructor", call(1, "constructor", {}), ok(invalidParams)),
  mcp("tools/call of a 1 MB name", call(1, huge(MB), {}), ok(invalidParams)),
  mcp(
    "tools/call of a name with an RTL override",
    call(1, "tool_search\u202e", { query: "x" }),
    ok(invalidParams),
  ),
];

const resources: HostileCase[] = [
  ...[
    ["a dot-dot path", "trove://skills/../../etc/passwd"],
    ["a file URL", "file:///etc/passwd"],
    ["the hidden skill", "trove://skills/docs/secret-recipe"],
    ["an encoded slash", "trove://skills/docs%2Fpdf-forms"],
    ["a third segment", "trove://skills/docs/pdf-forms/references/fields.md"],
    ["an ambiguous plain name", "trove://skills/pdf-forms"],
    ["a 1 MB uri", `trove://skills/docs/${huge(MB)}`],
    ["an empty uri", ""],
  ].map(([label, uri]) =>
    mcp(
      `resources/read of ${label}`,
      { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri } },
      ok(invalidParams),
    ),
  ),
  mcp(
    "resources/read of a visible skill",
    { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "trove://skills/docs/pdf-forms" } },
    okWrites((j) =>
      j?.result?.contents?.[0]?.text?.includes("Filling PDF forms") ? undefined : "not the skill",
    ),
  ),
  ...["abc", "0", "-1", "1.0", "1e3", " 1", "0x1"].map((cursor) =>
    mcp(
      `resources/list with the cursor ${JSON.stringify(cursor)}`,
      { jsonrpc: "2.0", id: 1, method: "resources/list", params: { cursor } },
      ok(invalidParams),
    ),
  ),
  mcp(
    "resources/list past the last page",
    { jsonrpc: "2.0", id: 1, method: "resources/list", params: { cursor: "99999999" } },
    result((r) => (r.resources?.length === 0 ? undefined : "not empty")),
  ),
  mcp(
    "resources/list never lists the hidden skill",
    { jsonrpc: "2.0", id: 1, method: "resources/list" },
    result((r) => (JSON.stringify(r).includes("secret-recipe") ? "listed the hidden skill" : undefined)),
  ),
];

const tools: HostileCase[] = [
  // Every operation as a tool, with an argument it does not take.
  ...OPERATION_NAMES.map((name) =>
    mcp(
      `tools/call ${name} with an unknown argument`,
      call(1, name, { ...VALID_BODY.get(name), x_hostile: 1 }),
      toolError("invalid_input", "x_hostile"),
    ),
  ),
  mcp(
    "tools/call with arguments nested 100 arrays deep",
    call(1, "tool_search", { query: "x", deep: JSON.parse(nestedArray(100)) }),
    toolError("too_deep", /^deep(\[0\])+$/),
  ),
  mcp(
    "tools/call with a 1 MB query",
    call(1, "tool_search", { query: huge(MB) }),
    toolError("invalid_input", "query"),
  ),
  mcp(
    "tools/call tool_search with an invalid regex",
    call(1, "tool_search", { query: "(?=x)", search_type: "regex" }),
    toolError("invalid_pattern", "query"),
  ),
  mcp(
    "tools/call tool_resolve of the denied tool",
    call(1, "tool_resolve", { name: "secret.wipe_disk" }),
    toolError("unknown_tool", "name", true),
  ),
  mcp(
    "tools/call skill_read_file with an encoded dot-dot",
    call(1, "skill_read_file", { skill: "docs/pdf-forms", path: "%2e%2e/%2e%2e/x" }),
    toolError("invalid_path", "path"),
  ),
  mcp(
    "tools/call pack_read_file of a binary file",
    call(1, "pack_read_file", { pack_id: "incident", path: "resources/logo.bin" }),
    toolError("unsupported_file", "path"),
  ),
  mcp(
    "tools/call approval_decide of the denied approval",
    (c: CaseContext) =>
      JSON.stringify(call(1, "approval_decide", { approval_id: c.deniedApprovalId, decision: "approve" })),
    toolError("approval_already_decided", "approval_id"),
  ),
  mcp(
    "tools/call with a progress token and hostile _meta",
    call(1, "tool_search", { query: "github" }, { _meta: { progressToken: huge(1000), "\u0000": 1 } }),
    result((r) => (r.structuredContent?.tools?.length === 2 ? undefined : "not the github tools")),
  ),
  ...UNICODE.slice(0, 6).map(([label, query]) =>
    mcp(
      `tools/call tool_search with ${label}`,
      call(1, "tool_search", { query }),
      result((r) => (JSON.stringify(r).includes("secret.wipe") ? "named the denied tool" : undefined)),
    ),
  ),
  mcp(
    "tools/call state with the other tenant's key sees nothing of this session",
    call(1, "state", {}),
    result((r) => (r.structuredContent?.pending_approvals?.length === 0 ? undefined : "saw approvals")),
    { headers: { authorization: `Bearer ${OTHER_TENANT_KEY}` } },
  ),
  mcp(
    "tools/call session_delete with the other tenant's key deletes only its session",
    call(1, "session_delete", {}),
    {
      ...result(),
      writes: true,
    } as Expectation,
    { headers: { authorization: `Bearer ${OTHER_TENANT_KEY}` } },
  ),
];

export const MCP_CASES: HostileCase[] = [...transport, ...messages, ...params, ...resources, ...tools];
