// Skills that bring tools (Nova ADR-014): enabling one returns its instructions and puts its tools
// (`<skill>__<tool>`) in the session's catalog until it is disabled. Both are sticky per session.
import { z } from "zod";
import { skillSource } from "../packs/attachments";
import { visibilityFor } from "../tools/policy";
import { checkedRecords } from "./brought-tools";
import { defineOp } from "./operation";
import { allowedTools, BroughtTools } from "./pack-ops";
import { penguiflowBody } from "./skill-load-ops";
import { TextGuard } from "./text-guard";

const SkillName = z.string().min(1).max(200).describe("Skill name, or qualified id <pack>/<name>");

export const skillEnable = defineOp({
  name: "skill_enable",
  summary: "Enable a skill: its instructions, and its tools in the catalog until skill_disable",
  tag: "skills",
  writes: true,
  idempotent: true,
  input: z.strictObject({ name: SkillName }),
  output: z.object({
    id: z.string(),
    name: z.string(),
    instructions: z.string(),
    tools: BroughtTools,
    changed: z.boolean().describe("False when the skill was enabled already"),
  }),
  errors: ["unknown_skill", "ambiguous_skill", "invalid_pack_tools"],
  model: {
    description:
      "Enable a skill that brings its own tools: returns its instructions, and its tools are listed from " +
      "your next turn on.",
    shown: (has) => has.skillsWithTools,
  },
  example: {
    input: { name: "incident-triage" },
    output: {
      id: "ops/incident-triage",
      name: "incident-triage",
      instructions: "# Incident triage\n…",
      tools: [{ name: "incident-triage__page_oncall", description: "Page the on-call engineer" }],
      changed: true,
    },
  },
  handler(ctx, input) {
    const skill = ctx.skills.resolve(input.name, "name").skill;
    // Checked before anything is written: an invalid tools.json enables nothing.
    const records = checkedRecords(skill.name, skill.tools, "name");
    const changed = ctx.attachments.enableSkill(skill.id, ctx.now);
    const result = ctx.catalog.syncSource(skillSource(skill.id), records, visibilityFor(ctx.config.get()));
    const skipped = new Set(result.skipped);
    const tools = allowedTools(
      ctx,
      records.map((r) => r.name).filter((n) => !skipped.has(n)),
    );
    ctx.skills.markUsed([skill.id], ctx.now);
    if (changed) ctx.events.record("skill_enabled", { id: skill.id, tool_count: tools.length }, ctx.now);
    const shown = new TextGuard(ctx).skill(skill);
    return {
      id: skill.id,
      name: skill.name,
      instructions: shown.body ?? penguiflowBody(shown),
      tools,
      changed,
    };
  },
});

export const skillDisable = defineOp({
  name: "skill_disable",
  summary: "Disable a skill enabled with skill_enable; its tools leave the catalog",
  tag: "skills",
  writes: true,
  idempotent: true,
  input: z.strictObject({ name: SkillName }),
  output: z.object({ id: z.string(), name: z.string(), changed: z.boolean() }),
  errors: ["unknown_skill", "ambiguous_skill"],
  model: {
    description: "Disable a skill enabled with skill_enable; its tools are no longer listed.",
    shown: (has) => has.enabledSkills,
  },
  example: {
    before: [{ op: "skill_enable", input: { name: "incident-triage" } }],
    input: { name: "incident-triage" },
    output: { id: "ops/incident-triage", name: "incident-triage", changed: true },
  },
  handler(ctx, input) {
    const skill = ctx.skills.resolve(input.name, "name").skill;
    const changed = ctx.attachments.disableSkill(skill.id);
    if (changed) {
      ctx.catalog.syncSource(skillSource(skill.id), [], visibilityFor(ctx.config.get()));
      ctx.events.record("skill_disabled", { id: skill.id, reason: "disabled" }, ctx.now);
    }
    return { id: skill.id, name: skill.name, changed };
  },
});
