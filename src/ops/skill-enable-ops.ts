// Skills that bring tools (Nova ADR-014): enabling one returns its instructions and puts its tools
// (`<skill>__<tool>`) in the session's catalog until it is disabled. Both are sticky per session.
import { z } from "zod";
import { skillSource } from "../packs/attachments";
import { checkedRecords } from "./brought-tools";
import { TextGuard } from "./text-guard";
import { visibilityFor } from "../tools/policy";
import { defineOp } from "./operation";
import { allowedTools, BroughtTools } from "./pack-ops";
import { penguiflowBody } from "./skill-load-ops";

const SkillName = z.string().min(1).max(200).describe("Skill name, or qualified id <pack>/<name>");

export const skillEnable = defineOp({
  name: "skill_enable",
  summary: "Enable a skill: its instructions, and its tools in the catalog until skill_disable",
  input: z.strictObject({ name: SkillName }),
  output: z.object({
    id: z.string(),
    name: z.string(),
    instructions: z.string(),
    tools: BroughtTools,
    changed: z.boolean().describe("False when the skill was enabled already"),
  }),
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
  input: z.strictObject({ name: SkillName }),
  output: z.object({ id: z.string(), name: z.string(), changed: z.boolean() }),
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
