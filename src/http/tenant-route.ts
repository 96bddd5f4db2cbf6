// The shape of a tenant route (./tenant-routes.ts lists them): declared once, mounted, documented
// in OpenAPI and typed in the client from this declaration.
import type { z } from "zod";
import type { Env } from "../env";
import type { ErrorCode } from "../errors";

/** One route of the tenant, declared once. */
export interface TenantRoute {
  /** The client's method name. */
  name: string;
  method: "GET" | "PUT" | "POST" | "DELETE";
  /** OpenAPI form: `{name}` is the one path parameter. */
  path: string;
  summary: string;
  /** Where OpenAPI and /docs file it. */
  tag: "learning" | "catalogs" | "analytics" | "gateway" | "learned-skills";
  /** What `{name}` names and the shape it must have (else a 400 naming `name`). */
  param?: { description: string; pattern: RegExp; what: string };
  /** The JSON body, for routes that take one. */
  input?: z.ZodType;
  /** Query parameters, for GET routes that take them: a strict object (an unknown one is a 400). */
  query?: z.ZodObject;
  output: z.ZodType;
  /** Beyond a bad key (and, with a body, bad JSON and a body too large). */
  errors: readonly ErrorCode[];
  /** Answers with the output's value; throws a TroveError for an expected failure. */
  handle(call: { env: Env; tenant: string; name: string; input: unknown; query: unknown }): Promise<unknown>;
}
