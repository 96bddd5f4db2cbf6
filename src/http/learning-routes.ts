// The tenant's learning routes, beside the sessions': what the tenant's sessions taught its
// ranking, per tool, and forgetting it (src/learning/). The tenant is the key's, as for sessions:
// no route names another tenant. Declared once here; the app's routes, the OpenAPI document and the
// typed client's `tenant` methods are derived from this list.
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { Env } from "../env";
import { type ErrorCode, TroveError } from "../errors";
import type { LearningRpc } from "../learning/learning-rpc";
import { TOOL_NAME } from "../tools/tool-record";

type AppEnv = { Bindings: Env; Variables: { tenant: string } };

const LearningState = z.object({
  pairs: z.number().int().describe("(query → tool) pairs held, after caps, redaction and expiry"),
  merged: z.number().int().describe("Pairs merged so far (poll it to wait for a session's pairs)"),
  tools: z.number().int().describe("Tools with learned text"),
  sessions: z.number().int().describe("Sessions that contributed"),
  version: z.number().int().describe("Increases with every merge that changed a tool's text"),
  last_merge_at: z.string().nullable().describe("When pairs were last merged (ISO 8601)"),
});

const LearnedTool = z.object({
  tool: z.string(),
  text: z.string().describe("What sessions index for the tool (empty when nothing was learned)"),
  queries: z.array(
    z.object({
      query: z.string().describe("As stored: personal data redacted"),
      weight: z.number().describe("Evidence, decayed with a 30-day half-life"),
      sessions: z.number().int(),
      last_at: z.string(),
    }),
  ),
});

const Forgotten = z.object({ forgotten_pairs: z.number().int() });

/** One route of the tenant, declared once. */
export interface TenantRoute {
  /** The client's method name. */
  name: string;
  method: "GET" | "DELETE";
  /** OpenAPI form: `{name}` is a tool name. */
  path: string;
  summary: string;
  output: z.ZodType;
  /** Beyond a bad key. */
  errors: readonly ErrorCode[];
  /** Answers with the output's value. */
  handle(stub: DurableObjectStub<LearningRpc>, params: { name: string }): Promise<unknown>;
}

export const TENANT_ROUTES: readonly TenantRoute[] = [
  {
    name: "learning_get",
    method: "GET",
    path: "/v1/learning",
    summary: "What the tenant's sessions taught its ranking: pairs, tools with learned text, last merge",
    output: LearningState,
    errors: [],
    handle: (stub) => stub.state(),
  },
  {
    name: "learning_forget",
    method: "DELETE",
    path: "/v1/learning",
    summary: "Forget everything the tenant learned",
    output: Forgotten,
    errors: [],
    handle: async (stub) => ({ forgotten_pairs: await stub.forget(null) }),
  },
  {
    name: "learning_tool_get",
    method: "GET",
    path: "/v1/learning/tools/{name}",
    summary: "What was learned for one tool: its learned text and the queries behind it",
    output: LearnedTool,
    errors: ["invalid_input"],
    handle: async (stub, { name }) => (await stub.tool(name)) ?? { tool: name, text: "", queries: [] },
  },
  {
    name: "learning_tool_forget",
    method: "DELETE",
    path: "/v1/learning/tools/{name}",
    summary: "Forget what was learned for one tool",
    output: Forgotten,
    errors: ["invalid_input"],
    handle: async (stub, { name }) => ({ forgotten_pairs: await stub.forget(name) }),
  },
];

/** The tool name in the path, checked like a catalog tool's. */
function toolName(c: Context<AppEnv>): string {
  const name = c.req.param("name") ?? "";
  if (!TOOL_NAME.test(name)) {
    throw new TroveError("invalid_input", 400, "name is not a tool name", { field: "name" });
  }
  return name;
}

/** The tenant routes, mounted by the app after authentication. */
export function tenantRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const route of TENANT_ROUTES) {
    const hasName = route.path.includes("{name}");
    app.on(route.method, route.path.replace("{name}", ":name"), async (c) => {
      const ns = c.env.LEARNING;
      const stub = ns.get(ns.idFromName(c.get("tenant")));
      return c.json(await route.handle(stub, { name: hasName ? toolName(c) : "" }));
    });
  }
  return app;
}
