// Tools that packs and skills bring (tools.json): namespaced `<owner>__<tool>` (Nova ADR-014 §7),
// checked again at run time, and kept in the catalog while their pack's tools or their skill are
// enabled — so policy, search, activation and approval treat them like the agent's own tools.
import { TroveError } from "../errors";
import { packSource, skillSource } from "../packs/attachments";
import type { BundledPack, BundledSkill, BundledTool } from "../packs/bundle";
import { visiblePacks } from "../skills/pack-upsert";
import type { SkillStore } from "../skills/skill-store";
import { visibilityFor } from "../tools/policy";
import { ToolRecord, type ToolRecordInput } from "../tools/tool-record";
import type { OpContext } from "./operation";

/** The catalog name of a tool `tool` brought by `owner` (a pack name or a skill name). */
export const broughtName = (owner: string, tool: string) => `${owner}__${tool}`;

/**
 * The catalog records of an owner's tools. Enabling is what lists them (Capability Packs spec §7.2),
 * so they are always loaded unless their tools.json says `deferred`.
 */
export function broughtRecords(owner: string, tools: readonly BundledTool[]): ToolRecordInput[] {
  return tools.map((t) => ({
    ...t,
    name: broughtName(owner, t.name),
    namespace: owner,
    loading_mode: t.loading_mode ?? "always",
  }));
}

/**
 * The records, validated as catalog_sync validates the agent's: the build checked them, but a
 * bundle built by another version may not have been. 422 invalid_pack_tools lists every problem.
 */
export function checkedRecords(
  owner: string,
  tools: readonly BundledTool[],
  field: string,
): ToolRecordInput[] {
  const records = broughtRecords(owner, tools);
  const problems = records.flatMap((record, i) => {
    const parsed = ToolRecord.safeParse(record);
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => ({
          tool: tools[i]?.name ?? String(i),
          field: ["tools", i, ...issue.path].join("."),
          message: issue.message,
        }));
  });
  if (problems.length > 0) {
    throw new TroveError(
      "invalid_pack_tools",
      422,
      `the tools of "${owner}" are invalid: nothing was enabled`,
      {
        field,
        problems,
      },
    );
  }
  return records;
}

/** Capability packs this session may attach: visible to its tenant and project, with an entry doc. */
export function attachablePacks(ctx: Pick<OpContext, "bundle" | "tenant" | "config">): BundledPack[] {
  return visiblePacks(ctx.bundle, ctx.tenant, ctx.config.get().project_id).filter((p) => p.capability);
}

/** A skill by qualified id when this session can see it; undefined otherwise. */
export function visibleSkill(skills: SkillStore, qid: string): BundledSkill | undefined {
  try {
    return skills.resolve(qid, "name").skill;
  } catch (err) {
    if (err instanceof TroveError) return undefined;
    throw err;
  }
}

/**
 * Brings the tools of attached packs and enabled skills in line with the bundle and the session:
 * a pack no longer attachable is detached, a skill no longer visible is disabled (their tools go),
 * and enabled tools are re-synced (a deploy may have changed them). Runs when the bundle, tenant,
 * project or policy changes; writes nothing when all is current.
 */
export function reconcileBroughtTools(ctx: OpContext): void {
  const visibility = visibilityFor(ctx.config.get());
  const packs = new Map(attachablePacks(ctx).map((p) => [p.name, p]));
  for (const attached of ctx.attachments.packs()) {
    const pack = packs.get(attached.pack);
    if (!pack) {
      ctx.attachments.detach(attached.pack);
      ctx.catalog.syncSource(packSource(attached.pack), [], visibility);
      ctx.events.record("pack_detached", { pack_id: attached.pack, reason: "unavailable" }, ctx.now);
      continue;
    }
    if (attached.tools_enabled_at === null) continue;
    ctx.catalog.syncSource(packSource(pack.name), recordsOrNone(pack.name, pack.tools), visibility);
  }
  for (const enabled of ctx.attachments.skills()) {
    const skill = visibleSkill(ctx.skills, enabled.qid);
    if (!skill) {
      ctx.attachments.disableSkill(enabled.qid);
      ctx.catalog.syncSource(skillSource(enabled.qid), [], visibility);
      ctx.events.record("skill_disabled", { id: enabled.qid, reason: "unavailable" }, ctx.now);
      continue;
    }
    ctx.catalog.syncSource(skillSource(skill.id), recordsOrNone(skill.name, skill.tools), visibility);
  }
}

/** On reconcile an invalid tools.json removes the owner's tools instead of failing the request. */
function recordsOrNone(owner: string, tools: readonly BundledTool[]): ToolRecordInput[] {
  try {
    return checkedRecords(owner, tools, "tools");
  } catch (err) {
    if (err instanceof TroveError) return [];
    throw err;
  }
}
