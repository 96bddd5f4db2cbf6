// The tenant's learning routes: what the tenant's sessions taught its ranking, per tool, and
// forgetting it (src/learning/). Mounted, documented and typed with the other tenant routes
// (./tenant-routes.ts).
import { z } from "zod";
import type { Env } from "../env";
import { TOOL_NAME } from "../tools/tool-record";
import type { TenantRoute } from "./tenant-route";

const LearningState = z.object({
  rows: z.number().int().describe("Rows held, one per (tool, term, source), after caps and expiry"),
  merged: z.number().int().describe("Uses merged so far (poll it to wait for a session's uses)"),
  tools: z.number().int().describe("Tools with learned terms"),
  sources: z
    .number()
    .int()
    .describe("Distinct sources behind the rows: end users, or sessions that named none"),
  version: z.number().int().describe("Increases with every merge that changed what sessions index"),
  last_merge_at: z.string().nullable().describe("When uses were last merged (ISO 8601)"),
});

const LearnedTool = z.object({
  tool: z.string(),
  terms: z
    .array(
      z.object({
        term: z.string().describe("An ordinary word (or a word of the tenant's catalog); never text"),
        support: z
          .number()
          .describe(
            "Distinct sources that taught it, each weighing at most 1, decayed with a 30-day half-life",
          ),
        sources: z.number().int().describe("Sources behind it"),
        last_at: z.string().describe("When it was last taught (ISO 8601)"),
      }),
    )
    .describe("Everything learning stores for the tool, best supported first (empty when nothing)"),
});

const Forgotten = z.object({ forgotten: z.number().int().describe("Rows deleted") });

const TOOL_PARAM = { description: "A tool name", pattern: TOOL_NAME, what: "a tool name" };

/** The tenant's learning object. */
const learning = (env: Env, tenant: string) => env.LEARNING.get(env.LEARNING.idFromName(tenant));

export const LEARNING_ROUTES: readonly TenantRoute[] = [
  {
    name: "learning_get",
    method: "GET",
    tag: "learning",
    path: "/v1/learning",
    summary: "What the tenant's sessions taught its ranking: rows, tools with learned terms, last merge",
    output: LearningState,
    errors: [],
    handle: ({ env, tenant }) => learning(env, tenant).state(),
  },
  {
    name: "learning_forget",
    method: "DELETE",
    tag: "learning",
    path: "/v1/learning",
    summary: "Forget everything the tenant learned",
    output: Forgotten,
    errors: [],
    handle: async ({ env, tenant }) => ({ forgotten: await learning(env, tenant).forget(null) }),
  },
  {
    name: "learning_tools",
    method: "GET",
    tag: "learning",
    path: "/v1/learning/tools",
    summary: "Every tool with learned terms, and the terms sessions index for it with their support",
    output: z.object({
      tools: z.array(
        z.object({
          tool: z.string(),
          terms: z.array(
            z.object({
              term: z.string(),
              support: z.number().describe("The decayed weights of the sources that taught it"),
              agreement: z
                .number()
                .optional()
                .describe("How many sources taught it, decayed: what the session's thresholds count"),
            }),
          ),
        }),
      ),
    }),
    errors: [],
    // A tool whose terms were all forgotten or expired keeps an empty row in the store: left out.
    handle: async ({ env, tenant }) => ({
      tools: (await learning(env, tenant).changedSince(0)).tools.filter((t) => t.terms.length > 0),
    }),
  },
  {
    name: "learning_tool_get",
    method: "GET",
    tag: "learning",
    path: "/v1/learning/tools/{name}",
    summary: "Everything learning stores for one tool: its terms, their support and sources",
    output: LearnedTool,
    param: TOOL_PARAM,
    errors: ["invalid_input"],
    handle: async ({ env, tenant, name }) =>
      (await learning(env, tenant).tool(name)) ?? { tool: name, terms: [] },
  },
  {
    name: "learning_tool_forget",
    method: "DELETE",
    tag: "learning",
    path: "/v1/learning/tools/{name}",
    summary: "Forget what was learned for one tool",
    output: Forgotten,
    param: TOOL_PARAM,
    errors: ["invalid_input"],
    handle: async ({ env, tenant, name }) => ({ forgotten: await learning(env, tenant).forget(name) }),
  },
];
