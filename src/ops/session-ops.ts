// The session resource: read its config and counts, replace its config, erase it.
import { z } from "zod";
import { skillPolicy } from "../skills/skill-store";
import { SessionConfigInput } from "../state/config";
import { visibilityFor } from "../tools/policy";
import { reconcileBroughtTools } from "./brought-tools";
import type { OpContext } from "./operation";
import { defineOp } from "./operation";

export const SessionView = z.object({
  config: SessionConfigInput,
  catalog: z.object({
    fingerprint: z.string(),
    tools: z.number().int().describe("Tools the policy allows"),
    deferred: z.number().int().describe("Allowed tools hidden until found and activated"),
    visible: z.number().int().describe("Allowed tools loaded into every context"),
    published: z
      .object({
        name: z.string(),
        version: z.number().int().describe("The catalog's version the session's copy is at"),
        fingerprint: z.string().describe("The published catalog's fingerprint at that version"),
      })
      .nullable()
      .describe("The published catalog (config `catalog`) whose tools the session holds"),
  }),
  storage: z.object({
    bytes: z
      .number()
      .int()
      .describe("What the session's SQLite database takes, in bytes (what storage is billed on)"),
  }),
});

/** The session's config and catalog counts (what GET answers; `state` extends it). */
export function sessionView(ctx: OpContext): z.input<typeof SessionView> {
  const counts = ctx.catalog.counts();
  return {
    config: ctx.config.get(),
    catalog: {
      fingerprint: ctx.catalog.fingerprint(),
      tools: counts.tools,
      deferred: counts.deferred,
      visible: counts.always,
      published: publishedView(ctx),
    },
    storage: { bytes: ctx.storedBytes() },
  };
}

function publishedView(ctx: OpContext) {
  const held = ctx.published();
  return held && { name: held.name, version: held.version, fingerprint: held.fingerprint };
}

export const sessionGet = defineOp({
  name: "session_get",
  summary: "Read the session's effective config and catalog counts",
  tag: "session",
  writes: false,
  http: { method: "GET", path: "" },
  publishedCatalog: "exempt",
  input: z.strictObject({}),
  output: SessionView,
  errors: [],
  example: {
    input: {},
    output: {
      config: { activation_scope: "session", default_loading_mode: "deferred" },
      catalog: {
        fingerprint: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        tools: 0,
        deferred: 0,
        visible: 0,
        published: null,
      },
      storage: { bytes: 147456 },
    },
  },
  handler: (ctx) => sessionView(ctx),
});

export const sessionConfigure = defineOp({
  name: "session_configure",
  summary: "Replace the session config (omitted fields take their defaults)",
  tag: "session",
  writes: true,
  idempotent: true,
  http: { method: "PUT", path: "" },
  publishedCatalog: "configures",
  input: SessionConfigInput,
  output: SessionView,
  errors: ["invalid_pattern", "unknown_catalog"],
  example: {
    input: { policy: { deny: ["github.delete_*"], approval: ["stripe.*"] } },
    output: {
      config: { policy: { deny: ["github.delete_*"], approval: ["stripe.*"] } },
      catalog: {
        fingerprint: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        tools: 0,
        deferred: 0,
        visible: 0,
        published: null,
      },
      storage: { bytes: 147456 },
    },
  },
  handler(ctx, config) {
    ctx.config.set(config);
    ctx.catalog.applyVisibility(visibilityFor(config));
    ctx.skills.applyPolicy(skillPolicy(config));
    // A skill the new policy hides is disabled; tools brought by packs and skills follow the policy.
    reconcileBroughtTools(ctx);
    return sessionView(ctx);
  },
});

export const sessionDelete = defineOp({
  name: "session_delete",
  summary: "Erase everything the session stored",
  tag: "session",
  writes: true,
  idempotent: true,
  http: { method: "DELETE", path: "" },
  publishedCatalog: "exempt",
  input: z.strictObject({}),
  output: z.object({ deleted: z.literal(true) }),
  errors: [],
  example: { input: {}, output: { deleted: true } },
  handler(ctx) {
    ctx.erase();
    return { deleted: true as const };
  },
});
