// The tenant's routes, beside the sessions': no session in the path, and the tenant is the key's,
// so no route names another tenant. Each route is declared once; the app's routes, the OpenAPI
// document and the typed client's `tenant` methods are derived from TENANT_ROUTES.
import { type Context, Hono } from "hono";
import type { Env } from "../env";
import { TroveError, validationError } from "../errors";
import { ANALYTICS_ROUTES } from "./analytics-routes";
import { readInput } from "./body";
import { CATALOG_ROUTES } from "./catalog-routes";
import { GATEWAY_ROUTES } from "./gateway-routes";
import { LEARNED_SKILLS_ROUTES } from "./learned-skills-routes";
import { LEARNING_ROUTES } from "./learning-routes";
import type { TenantRoute } from "./tenant-route";

export type { TenantRoute };

type AppEnv = { Bindings: Env; Variables: { tenant: string } };

export const TENANT_ROUTES: readonly TenantRoute[] = [
  ...LEARNING_ROUTES,
  ...CATALOG_ROUTES,
  ...ANALYTICS_ROUTES,
  ...GATEWAY_ROUTES,
  ...LEARNED_SKILLS_ROUTES,
];

/** The path parameter, checked against the route's pattern. */
function pathName(c: Context<AppEnv>, route: TenantRoute): string {
  if (!route.param) return "";
  const name = c.req.param("name") ?? "";
  if (!route.param.pattern.test(name)) {
    throw new TroveError("invalid_input", 400, `name is not ${route.param.what}`, { field: "name" });
  }
  return name;
}

/** The body, validated by the route's input schema (an empty body is `{}`). */
async function body(c: Context<AppEnv>, route: TenantRoute): Promise<unknown> {
  if (!route.input) return undefined;
  const parsed = route.input.safeParse((await readInput(c.req.raw)) ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** The query parameters, validated by the route's query schema (an empty value counts as absent). */
function query(c: Context<AppEnv>, route: TenantRoute): unknown {
  if (!route.query) return undefined;
  const given = Object.fromEntries(Object.entries(c.req.query()).filter(([, v]) => v !== ""));
  const parsed = route.query.safeParse(given);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** The tenant routes, mounted by the app after authentication. */
export function tenantRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  for (const route of TENANT_ROUTES) {
    app.on(route.method, route.path.replace("{name}", ":name"), async (c) => {
      const name = pathName(c, route);
      const input = await body(c, route);
      const params = query(c, route);
      return c.json(await route.handle({ env: c.env, tenant: c.get("tenant"), name, input, query: params }));
    });
  }
  return app;
}
