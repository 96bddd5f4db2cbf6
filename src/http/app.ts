// The HTTP surface: an index, health, bearer auth, one route per registered operation, and the MCP
// endpoint. Every miss says what would have worked: the methods a route answers (405 + Allow), the
// operations a misspelled name is close to, the header shape auth expects.
import { type Context, Hono } from "hono";
import { accepts } from "hono/accepts";
import { bodyLimit } from "hono/body-limit";
import type { Env } from "../env";
import { TroveError, validationError } from "../errors";
import type { OpResult, SessionAddress } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { OPERATIONS, OPERATIONS_BY_NAME } from "../ops/registry";
import { ID_PATTERN } from "../schemas";
import { authorize } from "./auth";
import { readInput } from "./body";
import { consolePage } from "./console";
import { docsPage } from "./docs-page";
import { errorResponse, onError } from "./errors";
import { handleGateway } from "./gateway-endpoint";
import { checkHost } from "./host";
import { bundleInfo, VERSION } from "./info";
import { inspectPage } from "./inspect";
import { invoke as runOperation } from "./invoke";
import { handleMcp } from "./mcp";
import { openApiDocument } from "./openapi";
import { checkOrigin } from "./origin";
import { TENANT_ROUTES, tenantRoutes } from "./tenant-routes";

type AppEnv = { Bindings: Env; Variables: { tenant: string } };

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** The public pages and documents, answering GET (and HEAD, which Hono serves from GET). */
const PUBLIC_ROUTES: Record<string, (c: Context<AppEnv>) => Response | Promise<Response>> = {
  "/": index,
  "/v1/health": health,
  "/inspect": inspectPage,
  "/console": consolePage,
  "/v1/openapi.json": (c) => c.json(openApiDocument()),
  "/docs": (c) => c.html(docsPage()),
};

export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  // Every answer under /v1/sessions says what it cost the session's storage, errors included: one
  // refused before reaching the session (bad Host, key, id, JSON, size, method, name) cost 0.
  app.use("/v1/sessions/*", reportStorageCost);
  // DNS rebinding: only the service's own names are served (http/host.ts).
  app.use("*", checkHost);
  app.notFound((c) => {
    const route = `${c.req.method} ${c.req.path.slice(0, 200)}`;
    const message = `no route ${route}; GET / lists where to start, GET /docs every operation`;
    return errorResponse(c, 404, new TroveError("not_found", 404, message).toBody());
  });

  for (const [path, handler] of Object.entries(PUBLIC_ROUTES)) {
    app.get(path, handler);
    app.all(path, (c) => methodNotAllowed(c, ["GET", "HEAD"], `${path} answers GET`));
  }

  // MCP: a browser page on a foreign origin is turned away before its credentials are looked at.
  app.use("/v1/sessions/:sid/mcp", checkOrigin);
  app.use("/v1/gateway/mcp", checkOrigin);
  const authenticate = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    const auth = await authorize(c.req.header("authorization"), c.env.TROVE_API_KEYS ?? "");
    if (auth.tenant === null) {
      // RFC 6750 §3: a 401 names the scheme the caller should use.
      // With the reason, so an MCP client asks for a key instead of starting an OAuth flow.
      const description = auth.message.replaceAll('"', "'");
      c.header("www-authenticate", `Bearer realm="trove", error_description="${description}"`);
      const err = new TroveError("unauthorized", 401, auth.message, {
        field: "authorization",
        reason: auth.reason,
      });
      return errorResponse(c, 401, err.toBody());
    }
    c.set("tenant", auth.tenant);
    await next();
  };
  app.use("/v1/sessions/*", authenticate);
  // Every tenant route's base (`/v1/learning`, `/v1/analytics`…) needs a key: taken from the
  // routes themselves, so a new one cannot be mounted without it.
  for (const base of new Set(TENANT_ROUTES.map((r) => r.path.split("/").slice(0, 3).join("/")))) {
    app.use(base, authenticate);
    app.use(`${base}/*`, authenticate);
  }
  app.use(
    "/v1/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new TroveError("body_too_large", 413, `request bodies are limited to ${MAX_BODY_BYTES} bytes`, {
          field: "body",
          limit: MAX_BODY_BYTES,
        });
      },
    }),
  );

  app.route("/", tenantRoutes());
  for (const path of new Set(TENANT_ROUTES.map((r) => r.path))) {
    const allow = TENANT_ROUTES.filter((r) => r.path === path).map((r) => r.method);
    app.all(path.replace("{name}", ":name"), (c) =>
      methodNotAllowed(c, allow, `${path} answers ${allow.join(", ")}`),
    );
  }
  // MCP over Streamable HTTP, bound to the session in the URL (docs/mcp.md).
  app.all("/v1/sessions/:sid/mcp", (c) =>
    handleMcp(
      c.req.raw,
      c.env,
      { tenant: c.get("tenant"), sid: sessionId(c.req.param("sid")) },
      MAX_BODY_BYTES,
    ),
  );
  // The gateway in front of the tenant's upstream MCP servers (docs/gateway.md).
  app.all("/v1/gateway/mcp", (c) =>
    handleGateway(c.req.raw, c.env, c.get("tenant"), (promise) => c.executionCtx.waitUntil(promise)),
  );
  // Every operation answers POST /v1/sessions/{sid}/{name} (what the client and MCP use); the
  // session resource also answers GET, PUT and DELETE on its own path.
  const resource: { method: string; op: Operation }[] = [];
  for (const op of OPERATIONS as readonly Operation[]) {
    const bindings = [{ method: "POST" as const, path: `/${op.name}` }, ...(op.http ? [op.http] : [])];
    for (const { method, path } of bindings) {
      if (path === "") resource.push({ method, op });
      app.on(method, `/v1/sessions/:sid${path}`, async (c) => {
        const input = await readInput(c.req.raw);
        const address = { tenant: c.get("tenant"), sid: sessionId(c.req.param("sid")) };
        const result = await invoke(c.env, op, input, address);
        // What the request cost the session's storage (0 when it never reached it).
        c.header("trove-rows-read", String(result.cost?.rows_read ?? 0));
        c.header("trove-rows-written", String(result.cost?.rows_written ?? 0));
        if (!result.ok) return errorResponse(c, result.status, { error: result.error });
        return c.json(result.value);
      });
    }
  }
  app.all("/v1/sessions/:sid", (c) => {
    sessionId(c.req.param("sid"));
    const allow = [...resource.map((r) => r.method), "HEAD"];
    const each = resource.map((r) => `${r.method} for ${r.op.name}`).join(", ");
    return methodNotAllowed(c, allow, `/v1/sessions/{sid} answers ${each}`);
  });
  app.all("/v1/sessions/:sid/:operation", (c) => {
    sessionId(c.req.param("sid"));
    const name = c.req.param("operation");
    const op = OPERATIONS_BY_NAME.get(name);
    if (op) {
      // Only POST reaches the operation's own route; anything else lands here.
      const also = op.http ? ` (or ${op.http.method} /v1/sessions/{sid})` : "";
      return methodNotAllowed(c, ["POST"], `${name} answers POST with a JSON body${also}`);
    }
    const near = closestOperations(name);
    const hint =
      near.length > 0
        ? `; did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
        : "; GET /docs lists every operation";
    throw new TroveError("unknown_operation", 404, `no operation named "${name.slice(0, 200)}"${hint}`, {
      field: "operation",
      did_you_mean: near,
    });
  });
  return app;
}

/**
 * `GET /v1/health`, public: with a valid key it counts the skills that key's sessions see; a
 * missing or wrong key is ignored and it counts those every tenant's sessions see.
 */
async function health(c: Context<AppEnv>): Promise<Response> {
  const header = c.req.header("authorization");
  const tenant = header ? (await authorize(header, c.env.TROVE_API_KEYS ?? "")).tenant : null;
  return c.json({ ok: true, version: VERSION, ...bundleInfo(tenant) });
}

/** `GET /`: where to start. JSON unless the client prefers HTML (a browser). */
function index(c: Context<AppEnv>): Response {
  c.header("vary", "accept");
  const links = {
    docs: "/docs",
    inspect: "/inspect",
    console: "/console",
    openapi: "/v1/openapi.json",
    health: "/v1/health",
  };
  const type = accepts(c, {
    header: "Accept",
    supports: ["application/json", "text/html"],
    default: "application/json",
    // Highest weight first, ties in the client's order; a weight of 0 means "not this".
    match: (list, { supports, default: fallback }) =>
      list.filter((a) => a.q > 0 && supports.includes(a.type)).sort((a, b) => b.q - a.q)[0]?.type ?? fallback,
  });
  if (type !== "text/html") {
    return c.json({
      name: "trove",
      version: VERSION,
      description: "Context discovery for AI agents: which tools and skills go into the model's context.",
      links,
      usage:
        "POST /v1/sessions/{sid}/{operation} with `Authorization: Bearer <key>` and a JSON body; /docs lists the operations",
    });
  }
  const item = (href: string, text: string) =>
    `<li><a href="${href}"><code>${href}</code></a> — ${text}</li>`;
  return c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trove</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:1rem 2rem;color:#1d1d1f}
code{font:13px ui-monospace,monospace;background:#f3f3f5;padding:0 .2em;border-radius:3px}pre{background:#f6f6f8;padding:.5rem;overflow:auto}</style>
</head><body>
<h1>Trove <small>v${VERSION}</small></h1>
<p>Context discovery for AI agents: which tools and skills go into the model's context, per session.</p>
<ul>
${item(links.docs, "the API reference: every operation, its fields, an example and its errors")}
${item(links.inspect, "the session inspector")}
${item(links.console, "the tenant's console: searches, failures, learning, catalogs and cost over time")}
${item(links.openapi, "the OpenAPI 3.1 document")}
${item(links.health, "version and bundle")}
</ul>
<p>Every operation is <code>POST /v1/sessions/{sid}/{operation}</code> with a JSON body:</p>
<pre><code>curl -X POST $TROVE/v1/sessions/my-session/tool_search \\
  -H 'authorization: Bearer &lt;key&gt;' -H 'content-type: application/json' \\
  -d '{"query": "open a bug"}'</code></pre>
</body></html>`);
}

/** Sets `trove-rows-read` / `trove-rows-written` to 0 on an answer that did not reach storage. */
async function reportStorageCost(c: Context<AppEnv>, next: () => Promise<void>): Promise<void> {
  await next();
  if (c.res.headers.has("trove-rows-read")) return;
  // A Response built elsewhere (the MCP transport's) may have immutable headers: copy it.
  const res = new Response(c.res.body, c.res);
  res.headers.set("trove-rows-read", "0");
  res.headers.set("trove-rows-written", "0");
  c.res = res;
}

/** 405 with the methods the route answers, in the Allow header and in the error body. */
function methodNotAllowed(c: Context<AppEnv>, allow: readonly string[], what: string): Response {
  const methods = [...new Set(allow)];
  c.header("allow", methods.join(", "));
  const err = new TroveError("method_not_allowed", 405, `${what}, not ${c.req.method}`, {
    field: "method",
    allow: methods,
  });
  return errorResponse(c, 405, err.toBody());
}

/** Names this long or longer are not typos of an operation's name: no distance is computed. */
const MAX_TYPO_LENGTH = 64;

/**
 * The operation names closest to `name`: those at the smallest case-insensitive optimal string
 * alignment distance (a typo or a swap costs 1), if it is within a third of the name's length;
 * else, for a name of 4 or more characters, the names containing it or contained in it.
 */
function closestOperations(name: string): string[] {
  const wanted = name.toLowerCase();
  if (wanted.length === 0 || wanted.length > MAX_TYPO_LENGTH) return [];
  const names = OPERATIONS.map((op) => op.name as string).sort();
  const scored = names.map((n) => ({ name: n, d: editDistance(wanted, n) }));
  const best = Math.min(...scored.map((s) => s.d));
  if (best <= Math.max(2, Math.floor(wanted.length / 3))) {
    return scored.filter((s) => s.d === best).map((s) => s.name);
  }
  if (wanted.length < 4) return [];
  return names.filter((n) => n.includes(wanted) || wanted.includes(n));
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      row[j] = best;
    }
  }
  return at(a.length, b.length);
}

function sessionId(sid: string): string {
  if (!ID_PATTERN.test(sid)) {
    throw new TroveError("invalid_session_id", 400, `session ids match ${ID_PATTERN.source}`, {
      field: "sid",
    });
  }
  return sid;
}

/**
 * Runs `op` with the request's input. An empty body is `{}`: an operation whose fields all have
 * defaults runs; one that needs a field answers 400 naming the first one it is missing.
 */
async function invoke(env: Env, op: Operation, raw: unknown, address: SessionAddress): Promise<OpResult> {
  if (raw !== undefined) return runOperation(env, op, raw, address);
  const empty = op.input.safeParse({});
  if (!empty.success) {
    const err = validationError(empty.error);
    const first = empty.error.issues[0];
    const missing = first?.code === "invalid_type" && first.path.length > 0;
    const message = missing
      ? `the body is empty, and ${String(err.details.field)} is required`
      : `the body is empty: ${err.message}`;
    throw new TroveError("invalid_input", 400, message, err.details);
  }
  return runOperation(env, op, {}, address);
}
