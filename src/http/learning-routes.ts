// The tenant's learning routes: what the tenant's sessions taught its ranking, per tool, and
// forgetting it (src/learning/). Mounted, documented and typed with the other tenant routes
// (./tenant-routes.ts).
import { z } from "zod";
import type { Env } from "../env";
import { TOOL_NAME } from "../tools/tool-record";
import type { TenantRoute } from "./tenant-route";

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

const TOOL_PARAM = { description: "A tool name", pattern: TOOL_NAME, what: "a tool name" };

/** The tenant's learning object. */
const learning = (env: Env, tenant: string) => env.LEARNING.get(env.LEARNING.idFromName(tenant));

export const LEARNING_ROUTES: readonly TenantRoute[] = [
  {
    name: "learning_get",
    method: "GET",
    tag: "learning",
    path: "/v1/learning",
    summary: "What the tenant's sessions taught its ranking: pairs, tools with learned text, last merge",
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
    handle: async ({ env, tenant }) => ({ forgotten_pairs: await learning(env, tenant).forget(null) }),
  },
  {
    name: "learning_tool_get",
    method: "GET",
    tag: "learning",
    path: "/v1/learning/tools/{name}",
    summary: "What was learned for one tool: its learned text and the queries behind it",
    output: LearnedTool,
    param: TOOL_PARAM,
    errors: ["invalid_input"],
    handle: async ({ env, tenant, name }) =>
      (await learning(env, tenant).tool(name)) ?? { tool: name, text: "", queries: [] },
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
    handle: async ({ env, tenant, name }) => ({ forgotten_pairs: await learning(env, tenant).forget(name) }),
  },
];
