// The one error type Trove raises on purpose, its codes, and its wire shape.
import type { z } from "zod";

/** The JSON body of every error response: `{ "error": { code, message, details } }`. */
export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

/**
 * Every error code Trove answers, with its status and what it means. Operations declare which of
 * these they can answer (ops/operation.ts); OpenAPI and /docs list exactly those, and a
 * TroveError's status must be its code's (the type checks it).
 */
export const ERROR_CODES = {
  invalid_input: { status: 400, meaning: "A field fails the operation's input schema" },
  invalid_json: { status: 400, meaning: "The body is not JSON" },
  too_deep: { status: 400, meaning: "The JSON nests too deeply" },
  invalid_session_id: { status: 400, meaning: "The session id in the path has a bad shape" },
  unauthorized: { status: 401, meaning: "Missing or unknown API key" },
  body_too_large: { status: 413, meaning: "The body is over 5 MB" },
  not_found: { status: 404, meaning: "No such route" },
  unknown_host: {
    status: 421,
    meaning: "The Host header is not one of this service's names (localhost, 127.0.0.1, TROVE_HOSTNAMES)",
  },
  unknown_operation: { status: 404, meaning: "No operation of that name" },
  method_not_allowed: {
    status: 405,
    meaning: "The route exists but not for this method; the Allow header lists the methods it answers",
  },
  internal: { status: 500, meaning: "A fault on Trove's side; nothing was written" },
  unavailable: {
    status: 503,
    meaning:
      "The session's object restarted mid-request; nothing was half-applied. Retry after Retry-After seconds",
  },
  catalog_too_large: { status: 400, meaning: "The catalog would hold more tools than a session may" },
  pattern_too_long: { status: 400, meaning: "A regex query is over the length limit" },
  invalid_pattern: { status: 400, meaning: "A regex query does not compile" },
  run_id_required: { status: 400, meaning: "The session activates per run and no run_id was sent" },
  invalid_path: { status: 400, meaning: "A file path escapes its skill or pack, or names nothing" },
  invalid_offset: { status: 400, meaning: "A page offset past the end of the file" },
  approval_denied: { status: 403, meaning: "A person denied this call" },
  unknown_tool: {
    status: 404,
    meaning: "No tool of that name this session may use (denied and absent alike)",
  },
  unknown_skill: {
    status: 404,
    meaning: "No skill of that name this session may see (hidden and absent alike)",
  },
  unknown_pack: { status: 404, meaning: "No capability pack of that id this session may attach" },
  unknown_file: { status: 404, meaning: "No such file in the skill or pack" },
  unknown_approval: { status: 404, meaning: "No pending approval of that id for this call" },
  ambiguous_skill: { status: 409, meaning: "Several skills share the name: use the qualified id" },
  approval_already_decided: { status: 409, meaning: "The approval was already approved or denied" },
  approval_used: { status: 409, meaning: "The approval was already used for a call" },
  pack_not_attached: { status: 409, meaning: "The pack must be attached first" },
  unknown_catalog: { status: 404, meaning: "No published catalog of that name (the tenant's)" },
  catalog_deleted: {
    status: 409,
    meaning:
      "The published catalog this session uses was deleted: publish it again, or configure the session without it",
  },
  unsupported_file: { status: 415, meaning: "The file is binary or too large, so its text was not bundled" },
  unknown_upstream: { status: 404, meaning: "No upstream MCP server of that name (the tenant's)" },
  secrets_unconfigured: {
    status: 409,
    meaning: "Upstream headers need the TROVE_SECRETS_KEY secret, which this deployment does not set",
  },
  invalid_arguments: { status: 422, meaning: "The call's arguments fail the tool's input_schema" },
  too_many_lessons: {
    status: 429,
    meaning: "The session submitted as many lessons as one session may (docs/learned-skills.md)",
  },
  invalid_pack_tools: { status: 422, meaning: "A pack's or skill's tools fail the catalog's record schema" },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export type StatusOf<C extends ErrorCode> = (typeof ERROR_CODES)[C]["status"];

/**
 * An expected failure with an HTTP status. Anything else that escapes becomes a logged 500 with no
 * internals on the wire.
 *
 * @example throw new TroveError("invalid_pattern", 400, "regex does not compile", { field: "query" })
 */
export class TroveError<C extends ErrorCode = ErrorCode> extends Error {
  constructor(
    readonly code: C,
    readonly status: StatusOf<C>,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "TroveError";
  }

  /** An event to record even though the operation's writes roll back (e.g. a denied activation). */
  event?: { type: string; data: Record<string, unknown> };

  withEvent(type: string, data: Record<string, unknown>): this {
    this.event = { type, data };
    return this;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

/** Formats a zod/JSON path the way users write it: `tools[12].name`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

const MAX_ISSUES = 20;

/** Codes a schema's refinement may answer instead of `invalid_input` (a 400 with a meaning of its own). */
type RefinedCode = { [C in ErrorCode]: StatusOf<C> extends 400 ? C : never }[ErrorCode];

/**
 * The error a refinement named: a custom issue whose `params.code` is a 400 code (e.g. a catalog
 * over the tool limit is `catalog_too_large`, as the limits table documents), its other params as
 * details.
 */
function refinedError(error: z.ZodError): TroveError | null {
  for (const issue of error.issues) {
    if (issue.code !== "custom") continue;
    const { code, ...details } = (issue.params ?? {}) as { code?: unknown } & Record<string, unknown>;
    if (typeof code !== "string" || !(code in ERROR_CODES)) continue;
    if (ERROR_CODES[code as ErrorCode].status !== 400) continue;
    return new TroveError(code as RefinedCode, 400, issue.message, {
      field: formatPath(issue.path),
      ...details,
    });
  }
  return null;
}

/**
 * A 400 naming each offending field path, first one in `details.field`; or the more specific
 * error a refinement named (`refinedError`).
 */
export function validationError(error: z.ZodError): TroveError {
  const refined = refinedError(error);
  if (refined) return refined;
  const issues = error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    // An unknown key is named by its own path, not its parent's.
    field: formatPath(issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0] ?? ""] : issue.path),
    code: issue.code,
    message: issue.message,
  }));
  const first = issues[0];
  const message = first ? `${first.field || "body"}: ${first.message}` : "invalid input";
  return new TroveError("invalid_input", 400, message, {
    field: first?.field ?? "",
    issues,
    ...(error.issues.length > MAX_ISSUES ? { more_issues: error.issues.length - MAX_ISSUES } : {}),
  });
}
