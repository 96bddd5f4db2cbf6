// The tenant's upstream MCP servers and its gateway profile (docs/gateway.md): declared once here
// like every tenant route. The tenant's UpstreamObject (src/upstream-object.ts) does the work.
import { z } from "zod";
import type { Env } from "../env";
import { type ErrorCode, TroveError } from "../errors";
import { GatewayProfileInput, UPSTREAM_NAME_PATTERN } from "../gateway/profile";
import { DEFAULT_TIMEOUT_MS } from "../gateway/upstream-client";
import type { UpstreamView } from "../gateway/upstream-rpc";
import type { RpcResult } from "../published/catalog-rpc";
import type { TenantRoute } from "./tenant-route";

const UPSTREAM_PARAM = {
  description: "An upstream's name (also its catalog's, and its tools' namespace unless one is given)",
  pattern: UPSTREAM_NAME_PATTERN,
  what: `an upstream name (${UPSTREAM_NAME_PATTERN.source})`,
};

const HeaderName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, "must be an HTTP header name");

const UpstreamInput = z.strictObject({
  url: z
    .string()
    .max(2000)
    .describe(
      "The server's Streamable HTTP endpoint: https, public (http only to loopback with TROVE_GATEWAY_DEV)",
    ),
  headers: z
    .record(HeaderName, z.string().max(8000))
    .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
    .optional()
    .describe("Sent with every request to the server (a token): encrypted at rest, never returned"),
  namespace: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{1,64}$/)
    .optional()
    .describe("Its tools are named <namespace>.<tool>; defaults to the upstream's name"),
  timeout_ms: z
    .number()
    .int()
    .min(100)
    .max(120_000)
    .default(DEFAULT_TIMEOUT_MS)
    .describe("How long a list or a call may take before it fails"),
  watch: z
    .boolean()
    .default(false)
    .describe(
      "Keep the server's stream open to re-import as soon as it says its tool list changed (keeps the tenant's upstream object awake)",
    ),
});

const Tool = z.record(z.string(), z.unknown()).describe("The tool as the upstream described it");

const UpstreamOutput = z.object({
  name: z.string(),
  url: z.string(),
  namespace: z.string(),
  has_headers: z.boolean().describe("Whether headers are stored (they are never returned)"),
  timeout_ms: z.number().int(),
  status: z.enum(["ok", "error", "pending"]).describe("ok: the last import worked; error: see last_error"),
  tools: z.number().int().describe("Tools it serves now"),
  skipped: z.number().int().describe("Tools listed whose names cannot be catalog names"),
  last_import: z.string().nullable().describe("When an import last worked (ISO 8601)"),
  last_error: z.string().nullable().describe("Why the last import failed, when it did"),
  watch: z.boolean().describe("Whether Trove listens for the server's list_changed between requests"),
  watching: z
    .boolean()
    .describe("Whether that stream is open now (it opens again at the next hourly import when lost)"),
  changes: z
    .array(
      z.object({
        id: z.number().int(),
        tool: z.string(),
        at: z.string(),
        before: Tool,
        after: Tool,
        status: z
          .enum(["pending", "accepted"])
          .describe("pending: held back until accepted (review_changes)"),
      }),
    )
    .describe("Tools whose description, schema or hints changed after import, newest first"),
});

const upstreams = (env: Env, tenant: string) => env.UPSTREAMS.get(env.UPSTREAMS.idFromName(tenant));

function unknownUpstream(name: string): TroveError {
  return new TroveError("unknown_upstream", 404, `no upstream named "${name}"`, { field: "name" });
}

function found(view: UpstreamView | null, name: string): UpstreamView {
  if (!view) throw unknownUpstream(name);
  return view;
}

export const GATEWAY_ROUTES: readonly TenantRoute[] = [
  {
    name: "upstream_list",
    method: "GET",
    tag: "gateway",
    path: "/v1/upstreams",
    summary: "The tenant's upstream MCP servers: status, tool count, last import and last error of each",
    output: z.object({ upstreams: z.array(UpstreamOutput) }),
    errors: [],
    handle: async ({ env, tenant }) => ({ upstreams: await upstreams(env, tenant).list() }),
  },
  {
    name: "upstream_put",
    method: "PUT",
    tag: "gateway",
    path: "/v1/upstreams/{name}",
    summary:
      "Add or replace an upstream MCP server: Trove lists its tools and publishes them as the catalog of that name",
    param: UPSTREAM_PARAM,
    input: UpstreamInput,
    output: UpstreamOutput,
    errors: ["invalid_input", "invalid_json", "too_deep", "body_too_large", "secrets_unconfigured"],
    async handle({ env, tenant, name, input }) {
      const { url, headers, namespace, timeout_ms, watch } = input as z.output<typeof UpstreamInput>;
      const result = (await upstreams(env, tenant).put(tenant, name, {
        url,
        headers: headers ?? null,
        namespace: namespace ?? name,
        timeout_ms,
        watch,
      })) as RpcResult<UpstreamView>;
      if (!result.ok) {
        const { code, message, details } = result.error;
        throw new TroveError(code as ErrorCode, result.status as never, message, details);
      }
      return result.value;
    },
  },
  {
    name: "upstream_get",
    method: "GET",
    tag: "gateway",
    path: "/v1/upstreams/{name}",
    summary: "One upstream: status, tool count, last import, last error and changes seen (never its headers)",
    param: UPSTREAM_PARAM,
    output: UpstreamOutput,
    errors: ["invalid_input", "unknown_upstream"],
    handle: async ({ env, tenant, name }) => found(await upstreams(env, tenant).get(name), name),
  },
  {
    name: "upstream_delete",
    method: "DELETE",
    tag: "gateway",
    path: "/v1/upstreams/{name}",
    summary: "Remove an upstream, its sealed headers and its catalog",
    param: UPSTREAM_PARAM,
    output: z.object({ deleted: z.literal(true) }),
    errors: ["invalid_input", "unknown_upstream"],
    async handle({ env, tenant, name }) {
      if (!(await upstreams(env, tenant).remove(tenant, name))) throw unknownUpstream(name);
      return { deleted: true as const };
    },
  },
  {
    name: "upstream_refresh",
    method: "POST",
    tag: "gateway",
    path: "/v1/upstreams/{name}/refresh",
    summary: "Import the upstream's tools again now (an alarm also does, every hour)",
    param: UPSTREAM_PARAM,
    output: UpstreamOutput,
    errors: ["invalid_input", "unknown_upstream"],
    handle: async ({ env, tenant, name }) => found(await upstreams(env, tenant).refresh(tenant, name), name),
  },
  {
    name: "upstream_accept",
    method: "POST",
    tag: "gateway",
    path: "/v1/upstreams/{name}/accept",
    summary: "Accept changed tools held back for review (review_changes), so that sessions get them again",
    param: UPSTREAM_PARAM,
    input: z.strictObject({
      tools: z
        .array(z.string().min(1).max(128))
        .max(2000)
        .optional()
        .describe("The upstream's tool names to accept; omitted: every pending change"),
    }),
    output: UpstreamOutput,
    errors: ["invalid_input", "invalid_json", "unknown_upstream"],
    async handle({ env, tenant, name, input }) {
      const { tools } = input as { tools?: string[] };
      return found(await upstreams(env, tenant).accept(tenant, name, tools ?? null), name);
    },
  },
  {
    name: "gateway_profile_get",
    method: "GET",
    tag: "gateway",
    path: "/v1/gateway/profile",
    summary:
      "The gateway profile: which upstreams, the policy, always-loaded tools and loading mode of gateway sessions",
    output: GatewayProfileInput,
    errors: [],
    handle: async ({ env, tenant }) => upstreams(env, tenant).profile(),
  },
  {
    name: "gateway_profile_put",
    method: "PUT",
    tag: "gateway",
    path: "/v1/gateway/profile",
    summary: "Replace the gateway profile (omitted fields take their defaults); new gateway sessions use it",
    input: GatewayProfileInput,
    output: GatewayProfileInput,
    errors: ["invalid_input", "invalid_json"],
    handle: async ({ env, tenant, input }) =>
      upstreams(env, tenant).setProfile(tenant, input as z.output<typeof GatewayProfileInput>),
  },
];
