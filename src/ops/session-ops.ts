// The session resource: read its config and counts, replace its config, erase it.
import { z } from "zod";
import { reconcileBroughtTools } from "./brought-tools";
import { skillPolicy } from "../skills/skill-store";
import { SessionConfigInput, SessionConfigSchema } from "../state/config";
import { visibilityFor } from "../tools/policy";
import type { OpContext } from "./context";
import { defineOp } from "./operation";

export const SessionView = z.object({
  config: SessionConfigSchema,
  catalog: z.object({
    fingerprint: z.string(),
    tools: z.number().int().describe("Tools the policy allows"),
    deferred: z.number().int().describe("Allowed tools hidden until found and activated"),
    visible: z.number().int().describe("Allowed tools loaded into every context"),
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
    },
  };
}

export const sessionGet = defineOp({
  name: "session_get",
  summary: "Read the session's effective config and catalog counts",
  http: { method: "GET", path: "" },
  input: z.strictObject({}),
  output: SessionView,
  handler: (ctx) => sessionView(ctx),
});

export const sessionConfigure = defineOp({
  name: "session_configure",
  summary: "Replace the session config (omitted fields take their defaults)",
  http: { method: "PUT", path: "" },
  input: SessionConfigInput,
  output: SessionView,
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
  http: { method: "DELETE", path: "" },
  input: z.strictObject({}),
  output: z.object({ deleted: z.literal(true) }),
  handler(ctx) {
    ctx.erase();
    return { deleted: true as const };
  },
});
