// The one error type Trove raises on purpose, and its wire shape.

/** The JSON body of every error response: `{ "error": { code, message, details } }`. */
export interface ErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> };
}

/**
 * An expected failure with an HTTP status. Anything else that escapes becomes a logged 500 with no
 * internals on the wire.
 *
 * @example throw new TroveError("invalid_pattern", 400, "regex does not compile", { field: "query" })
 */
export class TroveError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
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
