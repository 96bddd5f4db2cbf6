// MCP's Streamable HTTP transport asks servers to validate `Origin` (MCP 2025-11-25, "Security
// Warning"): a browser page on another origin must not drive the endpoint (DNS rebinding).
// Requests without `Origin` (every non-browser client) are not affected.
import type { Context, Next } from "hono";

/** Whether `origin` may call the endpoint at `url`: its own origin, or one the operator listed. */
export function originAllowed(origin: string, url: string, allowList: string | undefined): boolean {
  if (origin === new URL(url).origin) return true;
  const allowed = (allowList ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "");
  return allowed.includes(origin);
}

/** Middleware: a present, foreign `Origin` gets 403 with a JSON-RPC error, before anything else. */
export async function checkOrigin(
  c: Context<{ Bindings: { TROVE_ALLOWED_ORIGINS?: string } }>,
  next: Next,
): Promise<Response | undefined> {
  const origin = c.req.header("origin");
  if (origin !== undefined && !originAllowed(origin, c.req.url, c.env.TROVE_ALLOWED_ORIGINS)) {
    const error = { code: -32000, message: `Forbidden: origin ${origin} may not use this endpoint` };
    return c.json({ jsonrpc: "2.0", error, id: null }, 403);
  }
  await next();
  return undefined;
}
