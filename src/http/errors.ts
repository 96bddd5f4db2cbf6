// Maps every failure to the JSON error body; unknown errors become a logged 500 without internals.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { type ErrorBody, formatPath, TroveError } from "../errors";

export function errorResponse(c: Context, status: number, body: ErrorBody): Response {
  return c.json(body, status as ContentfulStatusCode);
}

export function onError(err: Error, c: Context): Response {
  if (err instanceof TroveError) return errorResponse(c, err.status, err.toBody());
  if (err instanceof HTTPException && err.status < 500) {
    return errorResponse(
      c,
      err.status,
      new TroveError("bad_request", err.status, err.message || "bad request").toBody(),
    );
  }
  console.error(
    JSON.stringify({ msg: "unhandled error", path: c.req.path, error: String(err), stack: err.stack }),
  );
  return errorResponse(c, 500, new TroveError("internal", 500, "internal error").toBody());
}

const MAX_ISSUES = 20;

/** A 400 naming each offending field path, first one in `details.field`. */
export function validationError(error: z.ZodError): TroveError {
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
