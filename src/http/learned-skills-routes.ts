// The tenant's learned-skills routes (issue 31): review lessons its runs submitted, delete them, and
// set the policy — review mode, half-lives, threshold. Mounted, documented and typed with the other
// tenant routes (./tenant-routes.ts). Only approved lessons ever reach a session.
import { z } from "zod";
import type { Env } from "../env";
import { TroveError } from "../errors";
import { LESSON_NAME, TASK_TYPE } from "../lessons/lesson";
import type { TenantRoute } from "./tenant-route";

const Lesson = z.object({
  name: z.string().describe("learned.<task_type>.<hash>"),
  status: z.enum(["pending", "approved", "rejected"]).describe("Only approved lessons reach a model"),
  task_type: z.string(),
  kind: z.enum(["do", "avoid"]).describe("avoid: served as a caution"),
  scope: z.enum(["tenant", "project"]),
  project: z
    .string()
    .nullable()
    .describe("The project whose sessions see it (null: every session of the tenant)"),
  trigger: z.string().describe("Depersonalized, as stored"),
  body: z.string().describe("Depersonalized markdown, as stored"),
  tools: z.array(z.string()),
  submissions: z.number().int().describe("Runs that submitted it or a near-duplicate merged into it"),
  successes: z.number().int(),
  failures: z.number().int(),
  helpful: z.number().int().describe("skill_feedback helpful verdicts (a run counts once)"),
  harmful: z.number().int().describe("skill_feedback harmful verdicts (a run counts once)"),
  contradicts: z.string().nullable().describe("For an avoid lesson: the do lesson it contradicts"),
  created_at: z.string(),
  updated_at: z.string(),
  confirmed_at: z.string().describe("Last submitted again or found helpful: its age is counted from here"),
  lineage: z.object({
    merged_from: z.array(z.string()).describe("Names of near-duplicates merged into it"),
    run_ids: z.array(z.string()).describe("Runs it came from, as the first 16 hex of each run id's SHA-256"),
    contradicted_by: z
      .array(z.string())
      .describe("avoid lessons that contradict it (or the do it contradicts)"),
  }),
});

const Policy = z.strictObject({
  mode: z
    .enum(["off", "review", "auto"])
    .describe(
      "off: lessons are dropped and none served; review: each waits for approval; auto: approved at once",
    ),
  half_life_days: z
    .record(z.string().regex(TASK_TYPE, "a task type"), z.number().min(0.001).max(3650))
    .refine((r) => Object.keys(r).length <= 64, "at most 64 task types")
    .describe("How fast lessons age, by task type; `default` for the others"),
  min_weight: z.number().min(0).max(1).describe("Lessons weighing less (record × decay) are not served"),
});

const LessonList = z.object({
  lessons: z.array(Lesson).describe("Pending first, then the most recently changed; at most 200"),
  counts: z.object({ pending: z.number().int(), approved: z.number().int(), rejected: z.number().int() }),
  dropped: z.number().int().describe("Lessons not taken: learning off, or a source over its daily cap"),
  policy: Policy,
});

const LESSON_PARAM = {
  description: "A learned skill's name, learned.<task_type>.<hash>",
  pattern: LESSON_NAME,
  what: "a learned skill's name",
};

/** The tenant's learned-skills object. */
const lessons = (env: Env, tenant: string) => env.LEARNED_SKILLS.get(env.LEARNED_SKILLS.idFromName(tenant));

const unknownLesson = (name: string) =>
  new TroveError("unknown_skill", 404, `no learned skill named "${name}"`, { field: "name" });

const reviewRoute = (verdict: "approve" | "reject"): TenantRoute => ({
  name: `learned_skill_${verdict}`,
  method: "POST",
  tag: "learned-skills",
  path: `/v1/learned-skills/{name}/${verdict}`,
  summary:
    verdict === "approve"
      ? "Approve a lesson: sessions of its scope find it within a minute"
      : "Reject a lesson: no session serves it (a session that held it drops it within a minute)",
  output: Lesson,
  param: LESSON_PARAM,
  errors: ["invalid_input", "unknown_skill"],
  handle: async ({ env, tenant, name }) =>
    (await lessons(env, tenant).review(name, verdict === "approve" ? "approved" : "rejected")) ??
    Promise.reject(unknownLesson(name)),
});

// The policy routes come first: `policy` is no lesson name, and is matched before `{name}`.
export const LEARNED_SKILLS_ROUTES: readonly TenantRoute[] = [
  {
    name: "learned_skills_policy_get",
    method: "GET",
    tag: "learned-skills",
    path: "/v1/learned-skills/policy",
    summary: "The tenant's policy for learned skills: review mode, half-lives by task type, threshold",
    output: Policy,
    errors: [],
    handle: ({ env, tenant }) => lessons(env, tenant).policy(),
  },
  {
    name: "learned_skills_policy_set",
    method: "PUT",
    tag: "learned-skills",
    path: "/v1/learned-skills/policy",
    summary: "Replace the tenant's policy for learned skills (sessions follow within a minute)",
    input: Policy,
    output: Policy,
    errors: ["invalid_input"],
    handle: ({ env, tenant, input }) => lessons(env, tenant).setPolicy(input as z.output<typeof Policy>),
  },
  {
    name: "learned_skills_list",
    method: "GET",
    tag: "learned-skills",
    path: "/v1/learned-skills",
    summary: "Lessons the tenant's runs submitted, pending first, with their counters and lineage",
    output: LessonList,
    errors: [],
    handle: ({ env, tenant }) => lessons(env, tenant).list(null, 200),
  },
  {
    name: "learned_skill_get",
    method: "GET",
    tag: "learned-skills",
    path: "/v1/learned-skills/{name}",
    summary: "One lesson: its text as stored, counters and lineage",
    output: Lesson,
    param: LESSON_PARAM,
    errors: ["invalid_input", "unknown_skill"],
    handle: async ({ env, tenant, name }) =>
      (await lessons(env, tenant).get(name)) ?? Promise.reject(unknownLesson(name)),
  },
  {
    name: "learned_skill_delete",
    method: "DELETE",
    tag: "learned-skills",
    path: "/v1/learned-skills/{name}",
    summary: "Delete a lesson and its lineage (sessions drop it within a minute)",
    output: z.object({ deleted: z.boolean() }),
    param: LESSON_PARAM,
    errors: ["invalid_input", "unknown_skill"],
    handle: async ({ env, tenant, name }) =>
      (await lessons(env, tenant).remove(name)) ? { deleted: true } : Promise.reject(unknownLesson(name)),
  },
  reviewRoute("approve"),
  reviewRoute("reject"),
];
