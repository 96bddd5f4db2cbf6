// Trove's own tools as the model sees them, rendered beside the agent's visible tools. Each is an
// operation of the same name: the agent forwards the model's call to it. A tool is listed only
// when it has something to act on (skill tools when the session has skills, pack tools when a
// pack is attached) and the session policy allows its name.
import { z } from "zod";
import { visiblePacks } from "../skills/pack-upsert";
import { skillPolicy } from "../skills/skill-store";
import { visibilityFor } from "../tools/policy";
import type { RenderableTool } from "../tools/render";
import { BUILTIN_NAMES, type BuiltinName } from "./builtin-names";
import type { OpContext } from "./context";
import { packEnableTools, packOpenDocs, packReadFile } from "./pack-ops";
import { skillDisable, skillEnable } from "./skill-enable-ops";
import { skillReadFile } from "./skill-load-ops";
import { skillSearch } from "./skill-ops";
import { ToolSearchModelInput } from "./tool-ops";

/** What the session has, which decides the builtins worth listing. */
interface Present {
  skills: boolean;
  skillsWithFiles: boolean;
  skillsWithTools: boolean;
  enabledSkills: boolean;
  packs: boolean;
  packsWithTools: boolean;
}

interface Spec {
  description: string;
  input: z.ZodType;
  side_effects: "read" | "stateful";
  shown(p: Present): boolean;
}

const SPECS: Record<BuiltinName, Spec> = {
  tool_search: {
    description:
      "Find tools that are available but not listed yet. Describe the capability you need in a few words " +
      '(e.g. "refund a payment"); use search_type "regex" to match tool names by pattern or "exact" for a ' +
      "known name. Returns tool names to call, best match first.",
    input: ToolSearchModelInput,
    side_effects: "read",
    shown: () => true,
  },
  skill_search: {
    description:
      "Find skills (short playbooks for recurring tasks) by what you are trying to do. Returns names to " +
      "read with skill_load.",
    input: skillSearch.input.pick({ query: true, limit: true }),
    side_effects: "read",
    shown: (p) => p.skills,
  },
  skill_load: {
    description: "Read one skill's full instructions by name (with the files it bundles, if any).",
    // The model names skills; loading by path is for hosts.
    input: z.strictObject({
      name: z.string().min(1).max(200).describe("Skill name from the directory or search"),
    }),
    side_effects: "read",
    shown: (p) => p.skills,
  },
  skill_read_file: {
    description: "Read a file a skill bundles (as skill_load lists it), a page at a time.",
    input: skillReadFile.input.pick({ skill: true, path: true, offset: true }),
    side_effects: "read",
    shown: (p) => p.skillsWithFiles,
  },
  skill_enable: {
    description:
      "Enable a skill that brings its own tools: returns its instructions, and its tools are listed from " +
      "your next turn on.",
    input: skillEnable.input,
    side_effects: "stateful",
    shown: (p) => p.skillsWithTools,
  },
  skill_disable: {
    description: "Disable a skill enabled with skill_enable; its tools are no longer listed.",
    input: skillDisable.input,
    side_effects: "stateful",
    shown: (p) => p.enabledSkills,
  },
  pack_open_docs: {
    description: "Open an attached capability pack's entry doc. Do this before relying on a pack.",
    input: packOpenDocs.input,
    side_effects: "read",
    shown: (p) => p.packs,
  },
  pack_read_file: {
    description: "Read a file of an attached capability pack (docs, resources), a page at a time.",
    input: packReadFile.input.pick({ pack_id: true, path: true, offset: true }),
    side_effects: "read",
    shown: (p) => p.packs,
  },
  pack_enable_tools: {
    description:
      "Enable an attached pack's tools (packs marked has_tools); they are listed from your next turn on.",
    input: packEnableTools.input,
    side_effects: "stateful",
    shown: (p) => p.packsWithTools,
  },
};

const rendered = new Map<BuiltinName, RenderableTool>();

/** The model-facing definition (its JSON Schema made once per isolate). */
function definition(name: BuiltinName): RenderableTool {
  let tool = rendered.get(name);
  if (!tool) {
    const spec = SPECS[name];
    const { $schema: _, ...schema } = z.toJSONSchema(spec.input, { io: "input" }) as Record<string, unknown>;
    tool = {
      name,
      providerName: name,
      namespace: "trove",
      side_effects: spec.side_effects,
      loading_mode: "always",
      description: spec.description,
      input_schema: schema,
    };
    rendered.set(name, tool);
  }
  return tool;
}

function present(ctx: OpContext): Present {
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
  };
}

/** Trove's tools to list for this session now, in BUILTIN_NAMES order. */
export function builtinTools(ctx: OpContext): RenderableTool[] {
  const p = present(ctx);
  const visibility = visibilityFor(ctx.config.get());
  return BUILTIN_NAMES.filter((name) => SPECS[name].shown(p) && visibility.allowed(name, name)).map(
    definition,
  );
}
