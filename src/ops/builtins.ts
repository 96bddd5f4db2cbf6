// Trove's own tools as the model sees them, rendered beside the agent's visible tools: every
// operation that declares `model`. The agent forwards the model's call to the operation of the
// same name. A tool is listed only when it has something to act on (skill tools when the session
// has skills, pack tools when a pack is attached) and the session policy allows its name.
import { z } from "zod";
import { visiblePacks } from "../skills/pack-upsert";
import { skillPolicy } from "../skills/skill-store";
import { visibilityFor } from "../tools/policy";
import type { RenderableTool } from "../tools/render";
import type { OpContext, Operation, SessionHas } from "./operation";

/** Names of the operations the model may call, in registry order: the agent's catalog may not use them. */
export function modelToolNames(operations: readonly Operation[]): string[] {
  return operations.filter((op) => op.model).map((op) => op.name);
}

const rendered = new WeakMap<Operation, RenderableTool>();

/** The model-facing definition (its JSON Schema made once per isolate). */
function definition(op: Operation): RenderableTool {
  let tool = rendered.get(op);
  if (!tool) {
    const model = op.model;
    if (!model) throw new Error(`${op.name} is not offered to the model`);
    const { $schema: _, ...schema } = z.toJSONSchema(model.input ?? op.input, { io: "input" }) as Record<
      string,
      unknown
    >;
    tool = {
      name: op.name,
      providerName: op.name,
      namespace: "trove",
      side_effects: model.side_effects ?? (op.writes ? "stateful" : "read"),
      loading_mode: "always",
      description: model.description,
      input_schema: schema,
    };
    rendered.set(op, tool);
  }
  return tool;
}

function sessionHas(ctx: OpContext): SessionHas {
  const config = ctx.config.get();
  const skills = config.skills.enabled && ctx.skills.size() > 0;
  // Skills with files or tools are read from the bundle (in memory), filtered as the store is.
  const candidates = skills ? ctx.bundle.skills.filter((s) => s.files.length > 0 || s.tools.length > 0) : [];
  let visible = candidates;
  if (candidates.length > 0) {
    const packs = new Set(visiblePacks(ctx.bundle, ctx.tenant, config.project_id).map((p) => p.name));
    const allowed = skillPolicy(config);
    visible = candidates.filter((s) => packs.has(s.pack) && allowed(s.name, s.id));
  }
  const attached = ctx.attachments.packs().map((a) => a.pack);
  return {
    skills,
    skillsWithFiles: visible.some((s) => s.files.length > 0),
    skillsWithTools: visible.some((s) => s.tools.length > 0),
    enabledSkills: ctx.attachments.skills().length > 0,
    packs: attached.length > 0,
    packsWithTools: ctx.bundle.packs.some((p) => attached.includes(p.name) && p.tools.length > 0),
    learningTools: config.skills.learning_tools,
  };
}

/** Trove's tools to list for this session now, in registry order. */
export function builtinTools(ctx: OpContext): RenderableTool[] {
  const has = sessionHas(ctx);
  const visibility = visibilityFor(ctx.config.get());
  return ctx.operations
    .filter((op) => op.model?.shown(has) && visibility.allowed(op.name, op.name))
    .map(definition);
}
