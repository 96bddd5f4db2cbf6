// The tenant's learning routes, beside the sessions': what the tenant's sessions taught its
// ranking, per tool, and forgetting it (src/learning/). The tenant is the key's, as for sessions:
// no route names another tenant.
import { type Context, Hono } from "hono";
import type { Env } from "../env";
import { TroveError } from "../errors";
import type { LearningRpc } from "../learning/learning-rpc";
import { TOOL_NAME } from "../tools/tool-record";

type AppEnv = { Bindings: Env; Variables: { tenant: string } };

export interface LearningRoute {
  method: "GET" | "DELETE";
  path: string;
  summary: string;
  /** Answers with a JSON value (errors thrown as TroveError). */
  handle(stub: DurableObjectStub<LearningRpc>, c: Context<AppEnv>): Promise<unknown>;
}

function toolName(c: Context<AppEnv>): string {
  const name = c.req.param("name") ?? "";
  if (!TOOL_NAME.test(name)) {
    throw new TroveError("invalid_input", 400, "name is not a tool name", { field: "name" });
  }
  return name;
}

/** Every learning route, for the app and the OpenAPI document. */
export const LEARNING_ROUTES: readonly LearningRoute[] = [
  {
    method: "GET",
    path: "/v1/learning",
    summary: "What the tenant's sessions taught its ranking: pairs, tools with learned text, last merge",
    handle: (stub) => stub.state(),
  },
  {
    method: "DELETE",
    path: "/v1/learning",
    summary: "Forget everything the tenant learned",
    handle: async (stub) => ({ forgotten_pairs: await stub.forget(null) }),
  },
  {
    method: "GET",
    path: "/v1/learning/tools/:name",
    summary: "What was learned for one tool: its learned text and the queries behind it",
    async handle(stub, c) {
      const name = toolName(c);
      const learned = await stub.tool(name);
      return learned ?? { tool: name, text: "", queries: [] };
    },
  },
  {
    method: "DELETE",
    path: "/v1/learning/tools/:name",
    summary: "Forget what was learned for one tool",
    handle: async (stub, c) => ({ forgotten_pairs: await stub.forget(toolName(c)) }),
  },
];

/** The learning routes, mounted by the app after authentication. */
export function learningRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const route of LEARNING_ROUTES) {
    app.on(route.method, route.path, async (c) => {
      const ns = c.env.LEARNING;
      const stub = ns.get(ns.idFromName(c.get("tenant")));
      return c.json(await route.handle(stub, c));
    });
  }
  return app;
}
