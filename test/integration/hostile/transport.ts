// Hostile requests before any operation runs: routing, methods, session ids, auth (and the other
// tenant's key), content types and body sizes. Sent through SELF.fetch, as a client's would arrive.
import {
  BODY_LIMIT,
  error,
  foundNothing,
  foundTools,
  type HostileCase,
  invalidJson,
  MB,
  OPERATION_NAMES,
  OTHER_TENANT_KEY,
  ok,
  okWrites,
  padded,
  post,
  ROUTE,
  request,
  SESSION,
  streamed,
  unknownToolElsewhere,
} from "./cases";

const notFound = error(404, "not_found");
const unknownOperation = error(404, "unknown_operation", "operation");
/** A known route with the wrong method: 405 with the methods it answers (Allow). */
const wrongMethod = error(405, "method_not_allowed", "method");
const badSid = error(400, "invalid_session_id", "sid");
const unauthorized = error(401, "unauthorized", "authorization");
const json = (check?: (json: any) => string | undefined) => ({ kind: "ok" as const, status: 200, check });

const routing: HostileCase[] = [
  request(ROUTE.routing, "GET", `${SESSION}/tool_search`, "GET on an operation route is 405", wrongMethod),
  request(ROUTE.routing, "PUT", `${SESSION}/tool_search`, "PUT on an operation route is 405", wrongMethod, {
    body: { query: "x" },
  }),
  request(ROUTE.routing, "DELETE", `${SESSION}/catalog_sync`, "DELETE on catalog_sync is 405", wrongMethod),
  request(ROUTE.routing, "PATCH", SESSION, "PATCH on the session resource is 405", wrongMethod, { body: {} }),
  request(ROUTE.routing, "POST", SESSION, "POST on the session resource is 405", wrongMethod, { body: {} }),
  request(
    ROUTE.routing,
    "OPTIONS",
    `${SESSION}/tool_search`,
    "OPTIONS (no CORS preflight) is 405",
    wrongMethod,
  ),
  request(ROUTE.routing, "GET", `${SESSION}/tool_serach`, "GET on a misspelled operation", unknownOperation),
  request(ROUTE.routing, "POST", `${SESSION}/TOOL_SEARCH`, "an upper-case operation name", unknownOperation, {
    body: { query: "x" },
  }),
  request(
    ROUTE.routing,
    "POST",
    `${SESSION}/tool_search%00`,
    "an operation name with a NUL",
    unknownOperation,
    {
      body: { query: "x" },
    },
  ),
  request(ROUTE.routing, "POST", `${SESSION}/__proto__`, "the operation __proto__", unknownOperation, {
    body: {},
  }),
  request(ROUTE.routing, "POST", `${SESSION}/constructor`, "the operation constructor", unknownOperation, {
    body: {},
  }),
  request(
    ROUTE.routing,
    "POST",
    `${SESSION}/hasOwnProperty`,
    "the operation hasOwnProperty",
    unknownOperation,
    {
      body: {},
    },
  ),
  request(ROUTE.routing, "POST", `${SESSION}/tool_search/`, "an operation with a trailing slash", notFound, {
    body: { query: "x" },
  }),
  request(
    ROUTE.routing,
    "POST",
    `${SESSION}//tool_search`,
    "a doubled slash before the operation",
    notFound,
    {
      body: { query: "x" },
    },
  ),
  request(ROUTE.routing, "POST", `${SESSION}/tool_search/more`, "a path below an operation", notFound, {
    body: { query: "x" },
  }),
  request(ROUTE.routing, "POST", `${SESSION}/mcp/extra`, "a path below the MCP endpoint", notFound, {
    body: {},
  }),
  request(ROUTE.routing, "POST", "/v1/sessions//tool_search", "an empty session id", notFound, {
    body: { query: "x" },
  }),
  request(ROUTE.routing, "GET", "/v1/sessions", "the session collection", notFound),
  request(ROUTE.routing, "GET", "/v1/HEALTH", "an upper-case health path", notFound),
  request(ROUTE.routing, "GET", `/v1/${"a/".repeat(4000)}`, "an 8 KB path", notFound),
  request(ROUTE.routing, "GET", "/v1/sessions/%00", "a NUL session id", badSid),
  request(ROUTE.routing, "POST", "/v1/sessions/a%0Ab/tool_search", "a session id with a newline", badSid, {
    body: { query: "x" },
  }),
  request(ROUTE.routing, "GET", `/v1/sessions/${"s".repeat(16_384)}`, "a 16 KB session id", badSid),
  request(ROUTE.routing, "GET", "/v1/sessions/a%E2%80%AEb", "a session id with an RTL override", badSid),
  request(ROUTE.routing, "GET", "/v1/sessions/a%E2%80%8Bb", "a session id with a zero-width space", badSid),
  request(ROUTE.routing, "DELETE", "/v1/sessions/a%5Cb", "a session id with a backslash", badSid),
  request(ROUTE.routing, "PUT", "/v1/sessions/a*b", "a session id with a glob star", badSid, { body: {} }),
  request(ROUTE.routing, "GET", "/v1/sessions/%25", "a session id that is a percent sign", badSid),
  request(ROUTE.routing, "GET", "/v1/sessions/%C0%AE%C0%AE", "an overlong UTF-8 dot-dot session id", badSid),
  request(ROUTE.routing, "GET", "/v1/sessions/%F0%9F%9A%80", "an emoji session id", badSid),
  request(ROUTE.routing, "POST", "/v1/sessions/a%20b/mcp", "a bad session id on the MCP endpoint", badSid, {
    body: { jsonrpc: "2.0", id: 1, method: "ping" },
    headers: { accept: "application/json, text/event-stream" },
  }),
  request(
    ROUTE.routing,
    "POST",
    "/v1/sessions/x%00/no_such_op",
    "a bad session id and an unknown op",
    badSid,
    {
      body: {},
    },
  ),
  request(ROUTE.routing, "GET", "/v1/sessions/%2e%2e", "a dot-dot session id (normalized away)", notFound),
  // Normalized to POST /v1/sessions/tool_search: the session resource, which does not answer POST.
  request(
    ROUTE.routing,
    "POST",
    `${SESSION}/%2e%2e/tool_search`,
    "a dot-dot segment before the operation",
    wrongMethod,
    {
      body: { query: "x" },
    },
  ),
];

// ── Auth: every operation with a garbled or missing key, and the other tenant's key ───────────────

const GARBLED: [string, string | null][] = [
  ["no Authorization header", null],
  ["the scheme without a key", "Bearer"],
  ["a Basic scheme", "Basic a2V5LWE6"],
  ["a Token scheme", "Token key-a"],
  ["two tokens after the scheme", "Bearer key-a key-b"],
  ["a key list", "Bearer key-a,key-b"],
  ["an upper-case key", "Bearer KEY-A"],
  ["a 64 KB key", `Bearer ${"k".repeat(65_536)}`],
  ["a Latin-1 key", "Bearer k\u00e9y-a"],
  ["the key quoted", 'Bearer "key-a"'],
  ["the tenant and key", "Bearer tenant-a:key-a"],
  ["a key with a NUL escape", "Bearer key-a%00"],
  ["a JSON Web Token shape", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."],
];

const auth: HostileCase[] = OPERATION_NAMES.map((name, i) => {
  const [label, header] = GARBLED[i % GARBLED.length] as [string, string | null];
  return post(name, `${label}, even with a malformed body, is 401`, "{not json", unauthorized, {
    headers: { authorization: header },
  });
});

const B = { headers: { authorization: `Bearer ${OTHER_TENANT_KEY}` } };
const emptySession = (j: any) => (j?.catalog?.tools === 0 ? undefined : "saw another tenant's catalog");
const otherTenant: HostileCase[] = [
  request(
    ROUTE.get,
    "GET",
    SESSION,
    "the other tenant's key reads its own, empty session",
    json(emptySession),
    B,
  ),
  request(ROUTE.put, "PUT", SESSION, "the other tenant's key configures only its own session", okWrites(), {
    ...B,
    body: { policy: { deny: ["*"] } },
  }),
  request(
    ROUTE.delete,
    "DELETE",
    SESSION,
    "the other tenant's key deletes only its own session",
    okWrites(),
    B,
  ),
  post(
    "catalog_sync",
    "a replace sync with the other tenant's key empties only its session",
    { tools: [] },
    okWrites(),
    B,
  ),
  post(
    "tool_search",
    "the other tenant's key finds none of this tenant's tools",
    { query: "github issue" },
    ok(foundNothing),
    B,
  ),
  post(
    "tool_search",
    "the other tenant's key finds no tool by exact name",
    { query: "github.create_issue", search_type: "exact" },
    ok(foundNothing),
    B,
  ),
  post(
    "state",
    "the other tenant's key sees no approvals or packs",
    {},
    ok((j) =>
      j.pending_approvals.length === 0 && j.packs.length === 0 && j.catalog.tools === 0
        ? undefined
        : "leaked state",
    ),
    B,
  ),
  post(
    "events",
    "the other tenant's key reads none of this session's events",
    {},
    ok((j) => {
      const mine = [
        "catalog_synced",
        "tool_activated",
        "approval_requested",
        "approval_decided",
        "pack_attached",
        "skill_enabled",
        "skill_loaded",
      ];
      const leaked = j.events.filter((e: { type: string }) => mine.includes(e.type));
      return leaked.length > 0 ? `leaked ${JSON.stringify(leaked).slice(0, 200)}` : undefined;
    }),
    B,
  ),
  post(
    "approval_decide",
    "the other tenant's key cannot decide this session's approval",
    (c) => ({ approval_id: c.approvalId, decision: "approve" }),
    error(404, "unknown_approval", "approval_id"),
    B,
  ),
  post(
    "tool_resolve",
    "the other tenant's key cannot use this session's approval",
    (c) => ({
      name: "github.create_issue",
      args: { repo: "acme/web", title: "Login fails" },
      approval_id: c.approvalId,
    }),
    // The refusal is recorded in the other tenant's session, not in this one.
    unknownToolElsewhere,
    B,
  ),
  post(
    "pack_read_file",
    "the other tenant's key cannot read this session's attached pack",
    { pack_id: "incident", path: "docs/runbook.md" },
    error(404, "unknown_pack", "pack_id"),
    B,
  ),
  post(
    "skill_read_file",
    "the other tenant's key cannot read a skill only this session sees",
    { skill: "docs/pdf-forms", path: "references/fields.md" },
    error(404, "unknown_file", "path"),
    B,
  ),
  post(
    "session_delete",
    "POST session_delete with the other tenant's key deletes only its session",
    {},
    okWrites(),
    B,
  ),
];

// ── Content types ────────────────────────────────────────────────────────────────────────────────

const utf16 = (text: string) => {
  const out = new Uint8Array(2 + text.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) out[2 + i * 2] = text.charCodeAt(i);
  return out;
};
const github = foundTools("github.create_issue", "github.list_repos");
const contentTypes: HostileCase[] = [
  post("tool_search", "JSON labelled text/plain is read as JSON", { query: "github" }, ok(github), {
    headers: { "content-type": "text/plain" },
  }),
  post("tool_search", "JSON without a content type is read as JSON", { query: "github" }, ok(github), {
    headers: { "content-type": null },
  }),
  post(
    "tool_search",
    "JSON labelled application/octet-stream is read as JSON",
    { query: "github" },
    ok(github),
    {
      headers: { "content-type": "application/octet-stream" },
    },
  ),
  post("tool_search", "a form-encoded body", "query=github&limit=3", invalidJson, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
  }),
  post(
    "tool_search",
    "a multipart body",
    '--xx\r\nContent-Disposition: form-data; name="query"\r\n\r\ngithub\r\n--xx--\r\n',
    invalidJson,
    { headers: { "content-type": "multipart/form-data; boundary=xx" } },
  ),
  post("tool_search", "an XML body", "<query>github</query>", invalidJson, {
    headers: { "content-type": "application/xml" },
  }),
  post("tool_search", "a UTF-16 body labelled as such", utf16('{"query":"github"}'), invalidJson, {
    headers: { "content-type": "application/json; charset=utf-16" },
  }),
  post(
    "tool_search",
    "a gzip-encoded body Trove does not inflate",
    new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xab, 0xae, 0x05, 0x00]),
    invalidJson,
    { headers: { "content-encoding": "gzip" } },
  ),
  post("context", "a content type with hostile parameters", { format: "json" }, ok(), {
    headers: { "content-type": 'application/json; charset="\u00ff"; boundary=;;;' },
  }),
];

// ── Sizes ────────────────────────────────────────────────────────────────────────────────────────

const tooLarge = error(413, "body_too_large", "body");
const sizes: HostileCase[] = [
  post("tool_search", "a body one byte over 5 MB", () => padded('{"query":"x"}', BODY_LIMIT + 1), tooLarge),
  request(ROUTE.put, "PUT", SESSION, "a 6 MB config", tooLarge, { body: () => padded("{}", 6 * MB) }),
  request(ROUTE.put, "PUT", SESSION, "a config streamed past 5 MB without a length", tooLarge, {
    body: streamed("{}", 6),
  }),
  post(
    "tool_resolve",
    "a body of five million open brackets",
    () => `{"x":${"[".repeat(BODY_LIMIT)}`,
    tooLarge,
  ),
  post("skill_get", "a body streamed to 8 MB", streamed('{"names":["x"]}', 8), tooLarge),
  request(ROUTE.mcp, "POST", `${SESSION}/mcp`, "a 6 MB JSON-RPC message", tooLarge, {
    body: () => padded('{"jsonrpc":"2.0","id":1,"method":"ping"}', 6 * MB),
    headers: { accept: "application/json, text/event-stream" },
  }),
  request(ROUTE.mcp, "POST", `${SESSION}/mcp`, "a JSON-RPC message streamed past 5 MB", tooLarge, {
    body: streamed('{"jsonrpc":"2.0","id":1,"method":"ping"}', 6),
    headers: { accept: "application/json, text/event-stream" },
  }),
];

export const TRANSPORT_CASES: HostileCase[] = [
  ...routing,
  ...auth,
  ...otherTenant,
  ...contentTypes,
  ...sizes,
  // The same session through a route Trove does not offer for it, with valid bodies.
  post("tool_search", "a query string on an operation route is ignored", { query: "github" }, ok(github), {
    path: `${SESSION}/tool_search?search_type=regex&limit=0`,
  }),
  post(
    "tool_search",
    "the other tenant's key with a query for this session's approval tool",
    { query: "create_issue", search_type: "exact" },
    ok(foundNothing),
    B,
  ),
  {
    ...post(
      "tool_activate",
      "the other tenant's key cannot activate this session's tools",
      { names: ["github.create_issue"] },
      unknownToolElsewhere,
      B,
    ),
  },
];
