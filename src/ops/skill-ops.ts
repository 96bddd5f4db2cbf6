// Skill discovery: search, fetch within a budget, list (Penguiflow RFC v0.3 §3.7).
import { z } from "zod";
import type { BundledSkill } from "../packs/bundle";
import { MinRelevance, Relevance, SearchType } from "../schemas";
import { formatSkills } from "../skills/budget";
import { searchSkills } from "../skills/skill-search";
import { FIND_TOOLS_LISTED } from "./examples";
import { defineOp } from "./operation";
import { SkillManifestSchema, skillManifest } from "./skill-manifest";
import { compatibilityNote, guardedSpecFields, SpecFieldsSchema } from "./skill-view";
import { TextGuard } from "./text-guard";

const SkillSearchInput = z.strictObject({
  query: z
    .string()
    .max(2000)
    .describe("What you are trying to do, a regex (search_type regex) or a name (exact)"),
  search_type: SearchType.default("fts"),
  limit: z.number().int().min(1).max(20).default(8).describe("At most this many results, best first"),
  task_type: z.string().max(64).optional().describe("Only skills of this task type"),
  min_relevance: MinRelevance,
});

export const skillSearch = defineOp({
  name: "skill_search",
  summary: "Find skills by capability (full text), pattern (regex) or exact name",
  tag: "skills",
  writes: false,
  servesSkills: true,
  input: SkillSearchInput,
  output: z.object({
    skills: z.array(
      z.object({
        name: z.string(),
        id: z.string().describe("Qualified id <pack>/<name>, unique"),
        title: z.string(),
        trigger: z.string(),
        task_type: z.string().nullable(),
        origin: z
          .enum(["pack", "learned"])
          .describe(
            "learned: a lesson of the tenant's runs, reviewed (docs/learned-skills.md); pack: bundled",
          ),
        score: z.number().min(0).max(1),
        relevance: Relevance,
      }),
    ),
    query: z.string(),
    search_type: SearchType,
  }),
  errors: ["invalid_pattern", "pattern_too_long"],
  model: {
    description:
      "Find skills (short playbooks for recurring tasks) by what you are trying to do. Returns names to " +
      "read with skill_load.",
    input: SkillSearchInput.pick({ query: true, limit: true }),
    shown: (has) => has.skills,
  },
  example: {
    input: { query: "find a tool I cannot see", limit: 3 },
    output: {
      skills: [
        {
          ...FIND_TOOLS_LISTED,
          task_type: null,
          origin: "pack",
          score: 1,
          relevance: 0.5,
        },
      ],
      query: "find a tool I cannot see",
      search_type: "fts",
    },
  },
  handler(ctx, input) {
    const guard = new TextGuard(ctx);
    const skills = searchSkills(ctx.sql, ctx.skills, input).map((s) => ({
      ...s,
      title: guard.text(s.title),
      trigger: guard.text(s.trigger),
    }));
    ctx.events.defer(
      "skill_search_query",
      { query: input.query, search_type: input.search_type, results_count: skills.length },
      ctx.now,
    );
    return { skills, query: input.query, search_type: input.search_type };
  },
});

const SkillRecord = z.object({
  id: z.string(),
  name: z.string(),
  pack: z.string(),
  title: z.string(),
  description: z.string(),
  trigger: z.string(),
  task_type: z.string().nullable(),
  tags: z.array(z.string()),
  steps: z.array(z.string()),
  body: z.string().nullable(),
  preconditions: z.array(z.string()),
  failure_modes: z.array(z.string()),
  files: z.array(z.object({ path: z.string(), bytes: z.number(), sha256: z.string() })),
  origin: z.string(),
  content_hash: z.string(),
  ...SpecFieldsSchema.shape,
});

export const skillGet = defineOp({
  name: "skill_get",
  summary: "Fetch skills by name or id: the records and a prompt-ready text within max_tokens",
  tag: "skills",
  writes: false,
  servesSkills: true,
  input: z.strictObject({
    names: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(10)
      .describe("Skill names or qualified ids <pack>/<name>"),
    format: z
      .enum(["raw", "injection"])
      .default("injection")
      .describe("injection adds formatted_context, a prompt-ready text within max_tokens"),
    max_tokens: z.number().int().min(200).max(6000).default(1500).describe("Budget of formatted_context"),
    manifest: z
      .boolean()
      .default(false)
      .describe(
        "Add each record's manifest: the skill as the MCP Skills extension serves it, SKILL.md included",
      ),
  }),
  output: z.object({
    skills: z.array(SkillRecord.extend({ manifest: SkillManifestSchema.nullable().optional() })),
    formatted_context: z.string(),
  }),
  errors: ["unknown_skill", "ambiguous_skill"],
  example: {
    input: { names: ["core/find-tools"], format: "raw" },
    output: {
      skills: [
        {
          id: "core/find-tools",
          name: "find-tools",
          pack: "core",
          title: "Finding tools with tool_search",
          description: "Find a tool that is not in your tool list yet with tool_search. Use it when …",
          trigger: "Find a tool that is not in your tool list yet with tool_search. Use it when …",
          task_type: null,
          tags: [],
          steps: [],
          body: "# Finding tools with tool_search\n…",
          preconditions: [],
          failure_modes: [],
          files: [],
          origin: "agent_skills",
          content_hash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
          license: "Apache-2.0",
          compatibility: null,
          metadata: { author: "trove" },
          allowed_tools: ["tool_search"],
        },
      ],
      formatted_context: "",
    },
  },
  handler(ctx, input) {
    const found = input.names.map((name, i) => ctx.skills.resolve(name, `names[${i}]`).skill);
    const unique = [...new Map(found.map((s) => [s.id, s])).values()];
    ctx.skills.markUsed(
      unique.map((s) => s.id),
      ctx.now,
    );
    ctx.events.record("skill_get", { names: unique.map((s) => s.id), format: input.format }, ctx.now);
    // Rendered as this session may see them: no hidden tool named, personal data redacted.
    const guard = new TextGuard(ctx);
    const shown = unique.map((s) => guard.skill(s));
    const skills = shown.map(({ extra: _, source: __, tools: ___, ...s }, i) => ({
      ...s,
      ...guardedSpecFields(guard, unique[i] as BundledSkill),
      ...(input.manifest
        ? { manifest: skillManifest(guard, ctx.bundle, unique[i] as BundledSkill, true) }
        : {}),
    }));
    return {
      skills,
      formatted_context: input.format === "injection" ? formatSkills(shown, input.max_tokens) : "",
    };
  },
});

export const skillList = defineOp({
  name: "skill_list",
  summary: "List skills by name with short triggers, a page at a time",
  tag: "skills",
  writes: false,
  servesSkills: true,
  input: z.strictObject({
    page: z.number().int().min(1).default(1),
    page_size: z.number().int().min(1).max(100).default(20),
    task_type: z.string().max(64).optional(),
    origin: z.enum(["agent_skills", "penguiflow", "nova", "learned"]).optional(),
    pack: z.string().max(64).optional(),
    scope: z.enum(["global", "tenant", "project"]).optional(),
    name: z.string().max(200).optional().describe("Only skills of exactly this name"),
    manifest: z
      .boolean()
      .default(false)
      .describe(
        "Add each skill's manifest: its frontmatter and files as the MCP Skills extension serves them",
      ),
  }),
  output: z.object({
    skills: z.array(
      z.object({
        name: z.string(),
        id: z.string(),
        title: z.string(),
        trigger: z.string(),
        compatibility: z
          .string()
          .optional()
          .describe("What the skill needs of its environment, when it says"),
        manifest: SkillManifestSchema.nullable().optional(),
      }),
    ),
    page: z.number().int(),
    page_size: z.number().int(),
    total: z.number().int(),
  }),
  errors: [],
  example: {
    input: { page: 1, page_size: 2 },
    output: {
      skills: [FIND_TOOLS_LISTED],
      page: 1,
      page_size: 2,
      total: 1,
    },
  },
  handler(ctx, input) {
    const { total, skills } = ctx.skills.list(input, input.page, input.page_size);
    ctx.events.defer("skill_list", { page: input.page, total }, ctx.now);
    const guard = new TextGuard(ctx);
    return {
      skills: skills.map(({ skill }) => {
        const trigger = guard.text(skill.trigger, { skill });
        const compatibility = compatibilityNote(guardedSpecFields(guard, skill));
        return {
          name: skill.name,
          id: skill.id,
          title: guard.text(skill.title, { skill }),
          trigger: trigger.length > 160 ? `${trigger.slice(0, 157)}…` : trigger,
          ...(compatibility ? { compatibility } : {}),
          ...(input.manifest ? { manifest: skillManifest(guard, ctx.bundle, skill, false) } : {}),
        };
      }),
      page: input.page,
      page_size: input.page_size,
      total,
    };
  },
});
