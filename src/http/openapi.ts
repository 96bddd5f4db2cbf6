// The OpenAPI 3.1 document, generated from the operation registry: every route, its request and
// response schemas (zod → JSON Schema 2020-12, which OpenAPI 3.1 uses as is), auth and errors.
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../errors";
import { COMMON_ERRORS, type Operation } from "../ops/operation";
import { OPERATIONS } from "../ops/registry";
import { ID_PATTERN } from "../schemas";
import { VERSION } from "./info";
import { TENANT_ROUTES } from "./tenant-routes";

type Json = Record<string, unknown>;

/** JSON Schema of a zod schema, without the `$schema` key (the document's dialect applies). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  return rest;
}

const ERROR_BODY: Json = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message", "details"],
      properties: {
        code: { type: "string", description: "Stable machine-readable code, e.g. invalid_input" },
        message: { type: "string" },
        details: {
          type: "object",
          description: "`field` names the offending input path; other keys depend on the code",
          properties: { field: { type: "string" } },
          additionalProperties: true,
        },
      },
    },
  },
};

/**
 * A request body's schema, written in the request body rather than in `components/schemas`: tools
 * such as openapi-typescript read a field with a `default` as always present when its schema is a
 * component (right for a response), and as optional in a request body, which is what the API
 * accepts — a field with a default may be left out.
 */
function requestSchema(schema: z.ZodType): Json {
  return jsonSchema(schema, "input");
}

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/**
 * The error responses of an operation: exactly the codes it declares plus those every operation
 * can answer, grouped by status, each status describing its codes.
 */
function errorResponses(
  codes: readonly ErrorCode[],
  common: readonly ErrorCode[] = COMMON_ERRORS,
): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...common, ...codes]) {
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        errorResponse(list.map((code) => `\`${code}\`: ${ERROR_CODES[code].meaning}`).join("; ")),
      ]),
  );
}

const SID = {
  name: "sid",
  in: "path",
  required: true,
  description: "Session id: one Durable Object per tenant and id",
  schema: { type: "string", pattern: ID_PATTERN.source },
};

function operationObject(op: Operation, operationId: string): Json {
  const takesBody = op.http?.method !== "GET" && op.http?.method !== "DELETE";
  return {
    operationId,
    // The registry's operation behind this route: /docs shows its REST aliases in its one section.
    "x-trove-operation": op.name,
    summary: op.summary,
    tags: [op.tag],
    parameters: [SID],
    ...(takesBody
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: requestSchema(op.input), example: op.example.input },
            },
          },
        }
      : {}),
    responses: {
      "200": {
        description: "OK",
        content: {
          "application/json": {
            schema: { $ref: `#/components/schemas/${op.name}_output` },
            example: op.example.output,
          },
        },
      },
      ...errorResponses(op.errors),
    },
  };
}

let cached: Json | null = null;

/** The document (built once per isolate). */
export function openApiDocument(): Json {
  if (cached) return cached;
  const paths: Record<string, Json> = {
    "/v1/health": {
      get: {
        operationId: "health",
        summary:
          "Version, bundle hash, and the packs and skills a session sees (the key's tenant's, when a key is sent)",
        tags: ["service"],
        security: [],
        responses: {
          "200": {
            description: "OK",
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: {
                    ok: { type: "boolean" },
                    version: { type: "string" },
                    bundle_hash: { type: "string" },
                    packs: {
                      type: "integer",
                      description: "Enabled packs a new session sees: global ones, and the key's tenant's",
                    },
                    skills: { type: "integer", description: "Skills of those packs" },
                    bundled: {
                      type: "object",
                      description: "Everything bundled, enabled or not and whatever its scope",
                      properties: { packs: { type: "integer" }, skills: { type: "integer" } },
                      required: ["packs", "skills"],
                    },
                  },
                  required: ["ok", "version", "bundle_hash", "packs", "skills", "bundled"],
                },
              },
            },
          },
        },
      },
    },
  };
  const schemas: Record<string, Json> = { Error: ERROR_BODY };
  for (const op of OPERATIONS as readonly Operation[]) {
    // Handlers return their output schema's input side, sent as is: that is what a response holds.
    schemas[`${op.name}_output`] = jsonSchema(op.output, "input");
    // Every operation answers POST /v1/sessions/{sid}/{name}; a few also have a REST route.
    paths[`/v1/sessions/{sid}/${op.name}`] = {
      post: operationObject({ ...op, http: undefined }, op.name),
    };
    if (op.http) {
      const path = `/v1/sessions/{sid}${op.http.path}`;
      paths[path] = {
        ...(paths[path] ?? {}),
        [op.http.method.toLowerCase()]: operationObject(op, `${op.name}_rest`),
      };
    }
  }
  // The tenant's routes: no session in the path, the key's tenant.
  for (const route of TENANT_ROUTES) {
    schemas[`${route.name}_output`] = jsonSchema(route.output, "input");
    const param = route.param
      ? [
          {
            name: "name",
            in: "path",
            required: true,
            description: route.param.description,
            schema: { type: "string", pattern: route.param.pattern.source },
          },
        ]
      : [];
    // Query parameters from the route's strict object, one per field.
    const query = route.query
      ? (jsonSchema(route.query, "input") as { properties?: Record<string, Json> })
      : {};
    const queryParams = Object.entries(query.properties ?? {}).map(([name, schema]) => {
      const { description, ...rest } = schema as { description?: string };
      return { name, in: "query", required: false, ...(description ? { description } : {}), schema: rest };
    });
    paths[route.path] = {
      ...(paths[route.path] ?? {}),
      [route.method.toLowerCase()]: {
        operationId: route.name,
        summary: route.summary,
        tags: [route.tag],
        parameters: [...param, ...queryParams],
        ...(route.input
          ? {
              requestBody: {
                required: true,
                content: { "application/json": { schema: requestSchema(route.input) } },
              },
            }
          : {}),
        responses: {
          "200": {
            description: "OK",
            content: {
              "application/json": { schema: { $ref: `#/components/schemas/${route.name}_output` } },
            },
          },
          // No session id: a bad key, and what the route declares.
          ...errorResponses(route.errors, ["unauthorized"]),
        },
      },
    };
  }
  paths["/v1/sessions/{sid}/mcp"] = {
    post: {
      operationId: "mcp",
      summary:
        "Model Context Protocol (streamable HTTP): Trove's operations as MCP tools, skills as resources",
      tags: ["mcp"],
      parameters: [SID],
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: { type: "object", description: "A JSON-RPC 2.0 message" } },
        },
      },
      responses: {
        "200": {
          description: "JSON-RPC response",
          content: { "application/json": { schema: { type: "object" } } },
        },
        ...errorResponses([]),
      },
    },
  };
  cached = {
    openapi: "3.1.0",
    info: {
      title: "Trove",
      version: VERSION,
      description:
        "Context discovery for AI agents: which tools and skills go into the model's context, per session.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    tags: [
      { name: "session", description: "The session resource" },
      { name: "tools", description: "Catalog, search, visibility, activation, approvals, context" },
      { name: "skills", description: "Skills from the bundled packs and the tenant's learned skills" },
      { name: "packs", description: "Capability packs" },
      { name: "learning", description: "What the tenant's sessions taught its ranking" },
      {
        name: "analytics",
        description: "What the tenant's sessions did, day by day, and what it cost (kept 90 days)",
      },
      {
        name: "catalogs",
        description:
          "Tool catalogs the tenant publishes once for all its sessions (a session's config `catalog`)",
      },
      {
        name: "gateway",
        description:
          "The tenant's upstream MCP servers and the gateway profile of sessions at /v1/gateway/mcp (docs/gateway.md)",
      },
      {
        name: "learned-skills",
        description: "Lessons the tenant's runs submitted: review, delete, policy (docs/learned-skills.md)",
      },
      { name: "mcp", description: "Model Context Protocol endpoint" },
      { name: "service", description: "Health" },
    ],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A tenant's key from TROVE_API_KEYS" },
      },
      schemas,
    },
  };
  return cached;
}
