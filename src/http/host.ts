// DNS rebinding: a page on evil.example whose name resolves to 127.0.0.1 reaches a local Trove with
// `Host: evil.example` and, being its own origin, passes the MCP Origin check (issue 28). So the
// `Host` is checked first, on every route: the loopback names (a developer's `wrangler dev`) and the
// hostnames the operator lists in TROVE_HOSTNAMES (deployed) are served; any other is refused before
// credentials are looked at or anything is read — MCP with a JSON-RPC error, REST with 421.
import type { Context, Next } from "hono";
import { TroveError } from "../errors";
import { errorResponse } from "./errors";

/** Always served: a request routed to a deployed worker never carries them. */
const LOOPBACK = ["localhost", "127.0.0.1", "[::1]"];

/** The hostname of a `Host` header value, lowercased and without its port; null when malformed. */
export function hostnameOf(host: string): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+?)\.?(?::\d{1,5})?$/i.exec(host.trim());
  return m?.[1] ? m[1].toLowerCase() : null;
}

/** Whether `host` names this service: a loopback name, or one of `configured` (comma-separated). */
export function hostAllowed(host: string, configured: string | undefined): boolean {
  const name = hostnameOf(host);
  if (name === null) return false;
  if (LOOPBACK.includes(name)) return true;
  return (configured ?? "")
    .split(",")
    .map((h) => hostnameOf(h))
    .some((h) => h !== null && h === name);
}

/** Middleware: a request whose `Host` is not one of the service's names is refused. */
export async function checkHost(
  c: Context<{ Bindings: { TROVE_HOSTNAMES?: string } }>,
  next: Next,
): Promise<Response | undefined> {
  // The URL's host is the Host header (workerd builds one from the other).
  const host = c.req.header("host") ?? new URL(c.req.url).host;
  if (hostAllowed(host, c.env.TROVE_HOSTNAMES)) {
    await next();
    return undefined;
  }
  const shown = host.slice(0, 200);
  if (/^\/v1\/sessions\/[^/]+\/mcp\/?$/.test(c.req.path)) {
    const error = {
      code: -32000,
      message: `Forbidden: host ${shown} is not one of this service's names`,
      data: { field: "host" },
    };
    return c.json({ jsonrpc: "2.0", error, id: null }, 403);
  }
  // RFC 9110 §15.5.20: 421, the request was directed at a server that does not serve this name.
  const err = new TroveError(
    "unknown_host",
    421,
    `host ${shown} is not one of this service's names (localhost, 127.0.0.1 and TROVE_HOSTNAMES)`,
    { field: "host" },
  );
  return errorResponse(c, 421, err.toBody());
}
