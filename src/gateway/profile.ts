// The tenant's gateway profile: what every session opened at /v1/gateway/mcp starts with.
import { z } from "zod";
import { Glob, Policy } from "../state/config";
import { LoadingMode } from "../tools/tool-record";

/** Upstream names become namespaces: no dots, and a leading letter or digit (`_gateway` is Trove's). */
export const UPSTREAM_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The published catalog that holds the profile's upstreams' tools, for gateway sessions. */
export const GATEWAY_CATALOG = "_gateway";

export const GatewayProfileInput = z.strictObject({
  upstreams: z
    .array(z.string().regex(UPSTREAM_NAME_PATTERN))
    .max(50)
    .nullable()
    .default(null)
    .describe("The upstreams whose tools gateway sessions get; null: every upstream of the tenant"),
  policy: Policy.default({
    allow: ["*"],
    deny: [],
    approval: [],
    skills: { allow: ["*"], deny: [] },
  }).describe("The sessions' policy: allow, deny and approval globs over `<namespace>.<tool>` names"),
  always_loaded_patterns: z
    .array(Glob)
    .max(200)
    .default([])
    .describe("Tools listed in tools/list from the start, not only once found"),
  default_loading_mode: LoadingMode.default("deferred").describe(
    "deferred: upstream tools are found with tool_search first; always: every tool is listed",
  ),
  review_changes: z
    .boolean()
    .default(false)
    .describe(
      "Hold back an upstream tool whose description or schema changed after import until an operator accepts it",
    ),
});
export type GatewayProfile = z.output<typeof GatewayProfileInput>;
