// The HTTP surface: health, bearer auth, one route per registered operation, and the MCP endpoint.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Env } from "../env";
import { TroveError } from "../errors";
import type { OpResult, SessionAddress } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { OPERATIONS } from "../ops/registry";
import { ID_PATTERN } from "../schemas";
import { tenantForAuthorization } from "./auth";
import { docsPage } from "./docs-page";
import { errorResponse, onError } from "./errors";
import { bundleInfo, VERSION } from "./info";
import { inspectPage } from "./inspect";
import { invoke as runOperation } from "./invoke";
import { MAX_JSON_DEPTH, tooDeepPath } from "./json-depth";
import { handleMcp } from "./mcp";
import { openApiDocument } from "./openapi";

type AppEnv = { Bindings: Env; Variables: { tenant: string } };

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.onError(onError);
  app.notFound((c) => errorResponse(c, 404, new TroveError("not_found", 404, "no such route").toBody()));

  app.get("/v1/health", (c) => c.json({ ok: true, version: VERSION, ...bundleInfo() }));
  app.get("/inspect", inspectPage);
  app.get("/v1/openapi.json", (c) => c.json(openApiDocument()));
  app.get("/docs", (c) => c.html(docsPage()));

  app.use("/v1/sessions/*", async (c, next) => {
    const tenant = await tenantForAuthorization(c.req.header("authorization"), c.env.TROVE_API_KEYS ?? "");
    if (!tenant) {
      throw new TroveError("unauthorized", 401, "missing or unknown API key", { field: "authorization" });
    }
    c.set("tenant", tenant);
    await next();
  });
  app.use(
    "/v1/sessions/*",
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

  // MCP over Streamable HTTP, bound to the session in the URL (docs/mcp.md).
  app.all("/v1/sessions/:sid/mcp", (c) =>
    handleMcp(
      c.req.raw,
      c.env,
      { tenant: c.get("tenant"), sid: sessionId(c.req.param("sid")) },
      MAX_BODY_BYTES,
    ),
  );
  // Every operation answers POST /v1/sessions/{sid}/{name} (what the client and MCP use); the
  // session resource also answers GET, PUT and DELETE on its own path.
  for (const op of OPERATIONS as readonly Operation[]) {
    const bindings = [{ method: "POST" as const, path: `/${op.name}` }, ...(op.http ? [op.http] : [])];
    for (const { method, path } of bindings) {
      app.on(method, `/v1/sessions/:sid${path}`, async (c) => {
        const input = await readInput(c.req.raw, method);
        const address = { tenant: c.get("tenant"), sid: sessionId(c.req.param("sid")) };
        const result = await invoke(c.env, op, input, address);
        if (!result.ok) return errorResponse(c, result.status, { error: result.error });
        return c.json(result.value);
      });
    }
  }
  app.post("/v1/sessions/:sid/:operation", (c) => {
    sessionId(c.req.param("sid"));
    const name = c.req.param("operation");
    throw new TroveError("unknown_operation", 404, `no operation named "${name}"`, { field: "operation" });
  });
  return app;
}

function sessionId(sid: string): string {
  if (!ID_PATTERN.test(sid)) {
    throw new TroveError("invalid_session_id", 400, `session ids match ${ID_PATTERN.source}`, {
      field: "sid",
    });
  }
  return sid;
}

async function readInput(request: Request, method: string): Promise<unknown> {
  // Decoded by hand: .text() warns about bodies not labelled as text, which clients often send.
  const text = new TextDecoder().decode(await request.arrayBuffer());
  if (text.trim() === "") return method === "GET" || method === "DELETE" ? {} : undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new TroveError("invalid_json", 400, "request body is not valid JSON", {
      field: "body",
      reason: err instanceof Error ? err.message : String(err),
    });
  }
  const deep = tooDeepPath(body);
  if (deep !== null) {
    throw new TroveError("too_deep", 400, `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, {
      field: deep,
      limit: MAX_JSON_DEPTH,
    });
  }
  return body;
}

async function invoke(env: Env, op: Operation, raw: unknown, address: SessionAddress): Promise<OpResult> {
  if (raw === undefined)
    throw new TroveError("invalid_json", 400, "request body is required", { field: "body" });
  return runOperation(env, op, raw, address);
}
