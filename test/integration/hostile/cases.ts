// The shape of a hostile-input case and the helpers the case files are written with. Pure data: the
// report script (scripts/hostile-report.ts) imports the case files in Node, outside workerd.
import { OPERATIONS, type OperationName } from "../../../src/ops/registry";

/** What a case may refer to in its path or body: the seeded session and its approvals. */
export interface CaseContext {
  sid: string;
  /** github.create_issue with args {repo: "acme/web", title: "Login fails"}, pending. */
  approvalId: string;
  /** github.create_issue with args {repo: "acme/web", title: "Denied"}, denied. */
  deniedApprovalId: string;
}

/** A raw body (sent as is), a value (sent as JSON), or either made when the case runs. */
export type BodyValue =
  | string
  | Uint8Array
  | ReadableStream<Uint8Array>
  | Record<string, unknown>
  | unknown[];
export type Body = BodyValue | ((ctx: CaseContext) => BodyValue);

/** A check on a 2xx answer's JSON: a message when it is wrong, undefined when it is right. */
export type Check = (json: any) => string | undefined;

export type Expectation =
  /** A Trove error body `{"error":{code,message,details}}`; `field` is details.field. */
  | { kind: "error"; status: number; code: string; field?: string | RegExp; denial?: boolean }
  /** A 2xx JSON answer; `writes` when the answer may legitimately write (fresh sessions only). */
  | { kind: "ok"; status: number; check?: Check; writes?: boolean }
  /** A JSON-RPC error response from the MCP endpoint, at this HTTP status. */
  | { kind: "rpc"; status: number; code: number }
  /** An MCP tools/call answered with isError and Trove's error body as its text. */
  | { kind: "tool_error"; status: 200; code: string; field?: string | RegExp; denial?: boolean }
  /** An HTML page (/, /docs, /inspect). */
  | { kind: "html"; status: 200 }
  /** No body by the protocol: HEAD, or an MCP POST holding only notifications or responses (202). */
  | { kind: "empty"; status: number };

export interface HostileCase {
  /** The route the case is counted under in bench/HOSTILE.md. */
  route: string;
  name: string;
  method: string;
  /** `{sid}` is replaced by the case's session id. */
  path: string;
  body?: Body;
  /** Header overrides; null removes a default header (authorization, content-type). */
  headers?: Record<string, string | null>;
  /** `seeded` (default): the group's seeded session. `fresh`: a new, empty one (for 2xx that write). */
  session?: "seeded" | "fresh";
  /** Operations run first on a fresh session. */
  setup?: { op: string; body: unknown }[];
  expect: Expectation;
  /** The defect this case found (fixed in src; the case stays as its regression test). */
  regression?: string;
}

export const SESSION = "/v1/sessions/{sid}";
export const OTHER_TENANT_KEY = "key-b";

export const opRoute = (op: string) => `POST /v1/sessions/{sid}/${op}`;
export const ROUTE = {
  index: "GET /",
  health: "GET /v1/health",
  openapi: "GET /v1/openapi.json",
  docs: "GET /docs",
  inspect: "GET /inspect",
  console: "GET /console",
  analytics: "GET /v1/analytics",
  analyticsTools: "GET /v1/analytics/tools",
  analyticsTool: "GET /v1/analytics/tools/{name}",
  analyticsSessions: "GET /v1/analytics/sessions",
  get: "GET /v1/sessions/{sid}",
  put: "PUT /v1/sessions/{sid}",
  delete: "DELETE /v1/sessions/{sid}",
  mcp: "POST /v1/sessions/{sid}/mcp",
  routing: "unknown routes, methods and session ids",
} as const;

/** Every operation of src/ops/registry.ts, in its order. */
export const OPERATION_NAMES: readonly OperationName[] = OPERATIONS.map((op) => op.name);

// ── Expectations ─────────────────────────────────────────────────────────────────────────────────

export const error = (status: number, code: string, field?: string | RegExp): Expectation => ({
  kind: "error",
  status,
  code,
  field,
});
/** 400 invalid_input naming `field`. */
export const invalid = (field: string | RegExp): Expectation => error(400, "invalid_input", field);
export const invalidJson: Expectation = error(400, "invalid_json", "body");
export const tooDeep = (field: string | RegExp): Expectation => error(400, "too_deep", field);
/** A refused activation: 404 unknown_tool, and the one event Trove records for it by design. */
export const unknownTool: Expectation = {
  kind: "error",
  status: 404,
  code: "unknown_tool",
  field: "name",
  denial: true,
};
/** The same refusal in another tenant's session: nothing is recorded in the seeded one. */
export const unknownToolElsewhere: Expectation = error(404, "unknown_tool", "name");
export const ok = (check?: Check): Expectation => ({ kind: "ok", status: 200, check });
export const okWrites = (check?: Check): Expectation => ({ kind: "ok", status: 200, check, writes: true });
export const rpc = (status: number, code: number): Expectation => ({ kind: "rpc", status, code });
export const toolError = (code: string, field?: string | RegExp, denial = false): Expectation => ({
  kind: "tool_error",
  status: 200,
  code,
  field,
  denial,
});

// ── Cases ────────────────────────────────────────────────────────────────────────────────────────

/** `POST /v1/sessions/{sid}/{op}` with `body`. */
export function post(
  op: string,
  name: string,
  body: Body | undefined,
  expect: Expectation,
  more: Partial<HostileCase> = {},
): HostileCase {
  return { route: opRoute(op), name, method: "POST", path: `${SESSION}/${op}`, body, expect, ...more };
}

/** Any request, counted under `route`. */
export function request(
  route: string,
  method: string,
  path: string,
  name: string,
  expect: Expectation,
  more: Partial<HostileCase> = {},
): HostileCase {
  return { route, method, path, name, expect, ...more };
}

// ── Hostile values ───────────────────────────────────────────────────────────────────────────────

export const MB = 1024 * 1024;
export const BODY_LIMIT = 5 * MB;
export const huge = (n = MB, unit = "a") => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** `{"a":{"a":…1…}}` nested `depth` objects deep, as JSON text. */
export const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
/** `[[…]]` nested `depth` arrays deep, as JSON text. */
export const nestedArray = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
/** Paths of a too-deep value under `root`. */
export const deepObjectPath = (root: string) => new RegExp(`^${root.replace(/[.[\]]/g, "\\$&")}(\\.a)+$`);
export const deepArrayPath = (root: string) => new RegExp(`^${root.replace(/[.[\]]/g, "\\$&")}(\\[0\\])+$`);

/** A JSON text of exactly `bytes` bytes: `json` padded with spaces. */
export const padded = (json: string, bytes: number) => json + " ".repeat(Math.max(0, bytes - json.length));

/** A body streamed in 1 MB chunks without a Content-Length. */
export function streamed(head: string, megabytes: number): () => ReadableStream<Uint8Array> {
  return () => {
    const encoder = new TextEncoder();
    const chunk = encoder.encode(" ".repeat(MB));
    // Written by hand, so that the write the server refuses to read (413) fails here, caught,
    // instead of as an uncaught error in the runtime's own pump.
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    writer.closed.catch(() => undefined);
    void (async () => {
      try {
        await writer.write(encoder.encode(head));
        for (let i = 0; i < megabytes; i++) await writer.write(chunk);
        await writer.close();
      } catch {
        // The server stopped reading: expected for bodies over the limit.
      }
    })();
    return readable;
  };
}

/** Strange but valid text: none of it is an error anywhere text is free. */
export const UNICODE: [string, string][] = [
  ["a right-to-left override", "\u202Egithub\u202C"],
  ["zero-width characters", "git\u200Bhub\u200D\uFEFF"],
  ["a NUL character", "github\u0000issue"],
  ["combining marks", "gi\u0301thu\u0308b\u0338"],
  ["emoji with joiners and flags", "🚀👩‍💻🏳️‍🌈🇺🇸"],
  ["a lone high surrogate", "\uD800github"],
  ["a lone low surrogate", "\uDC00issue"],
  ["control characters and ANSI escapes", "\u0001\u0007\u001b[31missue\u001b[0m\u007f"],
  ["noncharacters", "\uFFFE\uFFFF\uFDD0"],
  ["Cyrillic homoglyphs", "gіthub"],
  ["full-width letters", "ｇｉｔｈｕｂ"],
  ["line and paragraph separators", "a\u2028b\u2029c"],
];

/** Checks that a search answered without naming a tool this session may not see. */
export const noHiddenTools: Check = (json) => {
  const names: string[] = (json?.tools ?? []).map((t: { name: string }) => t.name);
  const leaked = names.filter((n) => /secret|slack/.test(n));
  return leaked.length > 0 ? `named tools it must not: ${leaked.join(", ")}` : undefined;
};
/** A search that found exactly these tools, in any order. */
export const foundTools =
  (...expected: string[]): Check =>
  (json) => {
    const names = ((json?.tools ?? []) as { name: string }[]).map((t) => t.name).sort();
    const want = [...expected].sort();
    return JSON.stringify(names) === JSON.stringify(want)
      ? undefined
      : `found ${JSON.stringify(names)}, expected ${JSON.stringify(want)}`;
  };
/** A search with no results. */
export const foundNothing: Check = foundTools();
/** A search answer whose results are all allowed, deferred tools. */
export const searchOk: Check = (json) =>
  !Array.isArray(json?.tools) ? "no tools array" : noHiddenTools(json);

/** `n` values made by `make`. */
export const many = <T>(n: number, make: (i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) => make(i));

/** Run ids that break the run-id pattern. */
export const BAD_RUN_IDS: [string, unknown][] = [
  ["with a space", "run 1"],
  ["empty", ""],
  ["of 1 MB", huge(MB)],
  ["numeric", 42],
  ["with a NUL", "run\u0000"],
  ["with an RTL override", "run\u202e1"],
];
/** Every spelling of a path out of a folder: shared by skill_read_file and pack_read_file. */
export const TRAVERSAL: [string, string, "invalid" | "unknown"][] = [
  ["dot-dot", "..", "invalid"],
  ["dot-dot then a file", "../SKILL.md", "invalid"],
  ["dot-dot after a folder", "references/../../secret-recipe/references/x.md", "invalid"],
  ["percent-encoded dot-dot", "%2e%2e/SKILL.md", "invalid"],
  ["percent-encoded dot-dot and slash", "%2E%2E%2Fsecret", "invalid"],
  ["dot-dot and an encoded slash", "..%2fsecret", "invalid"],
  ["encoded dot-dots after a folder", "references/%2e%2e/%2e%2e/x", "invalid"],
  ["double-encoded dot-dot", "%252e%252e/SKILL.md", "unknown"],
  ["an absolute path", "/etc/passwd", "invalid"],
  ["an encoded absolute path", "%2Fetc%2Fpasswd", "invalid"],
  ["two leading slashes", "//server/share", "invalid"],
  ["a Windows drive path", "C:\\Windows\\win.ini", "invalid"],
  ["a drive letter with a slash", "C:/Windows/win.ini", "invalid"],
  ["a drive-relative path", "c:secret", "invalid"],
  ["a UNC path", "\\\\server\\share", "invalid"],
  ["a backslash separator", "references\\fields.md", "invalid"],
  ["an encoded backslash", "references%5Cfields.md", "invalid"],
  ["a NUL before an extension", "references/fields.md\u0000.txt", "invalid"],
  ["an encoded NUL", "references/fields.md%00", "invalid"],
  ["a trailing dot-dot", "references/fields.md/..", "invalid"],
  ["dot-dot and a NUL", "..\u0000", "invalid"],
  ["only a dot", ".", "invalid"],
  ["a dot and a slash", "./", "invalid"],
  ["four dots", "....//SKILL.md", "unknown"],
  ["one-dot leaders", "\u2024\u2024/SKILL.md", "unknown"],
  ["full-width dots", "\uff0e\uff0e/SKILL.md", "unknown"],
  ["a home directory", "~/.ssh/id_rsa", "unknown"],
  ["a file URL", "file:///etc/passwd", "unknown"],
  ["a bare percent sign", "%", "unknown"],
  ["a %u escape", "%u002e%u002e/x", "unknown"],
  ["1,000 characters of folders", "a/".repeat(500), "unknown"],
  ["__proto__", "__proto__", "unknown"],
];
