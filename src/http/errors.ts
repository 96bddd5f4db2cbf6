// Maps every failure to the JSON error body; unknown errors become a logged 500 without internals.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorBody, TroveError } from "../errors";

export function errorResponse(c: Context, status: number, body: ErrorBody): Response {
  // A 503 says when to come back (`details.retry_after`, seconds).
  const retryAfter = body.error.details.retry_after;
  if (status === 503 && typeof retryAfter === "number") c.header("retry-after", String(retryAfter));
  return c.json(body, status as ContentfulStatusCode);
}

export function onError(err: Error, c: Context): Response {
  if (err instanceof TroveError) return errorResponse(c, err.status, err.toBody());
  if (err instanceof HTTPException && err.status < 500) {
    const body = { error: { code: "bad_request", message: err.message || "bad request", details: {} } };
    return errorResponse(c, err.status, body);
  }
  console.error(
    JSON.stringify({ msg: "unhandled error", path: c.req.path, error: String(err), stack: err.stack }),
  );
  return errorResponse(c, 500, new TroveError("internal", 500, "internal error").toBody());
}
