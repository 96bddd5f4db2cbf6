// A skill's Agent Skills spec fields as this session may see them: texts guarded like the rest of
// the skill, and `allowed-tools` without the names of tools the session may not use.
import { z } from "zod";
import type { BundledSkill } from "../packs/bundle";
import { type SpecFields, specFields } from "../skills/spec-fields";
import type { TextGuard } from "./text-guard";

/** The spec fields as operations answer them (skill_get records, skill_load). */
export const SpecFieldsSchema = z.object({
  license: z.string().nullable().describe("License name or a reference to a bundled license file"),
  compatibility: z.string().nullable().describe("What the skill needs of its environment"),
  metadata: z.record(z.string(), z.unknown()).describe("The author's key-value pairs"),
  allowed_tools: z
    .array(z.string())
    .describe(
      "Tools the skill expects to use (allowed-tools) that this session can use; one it may not use and one it does not have are left out alike",
    ),
});

/** License, compatibility, metadata and allowed-tools of `skill`, rendered for this session. */
export function guardedSpecFields(guard: TextGuard, skill: BundledSkill): SpecFields {
  const fields = specFields(skill);
  const owner = { skill };
  const text = (value: string | null) => (value === null ? null : guard.text(value, owner));
  return {
    license: text(fields.license),
    compatibility: text(fields.compatibility),
    metadata: guardedJson(guard, fields.metadata, owner),
    // A tool name in a code span is a tool reference: kept only when the guard leaves it as is.
    allowed_tools: fields.allowed_tools.filter((name) => guard.text(`\`${name}\``, owner) === `\`${name}\``),
  };
}

function guardedJson(
  guard: TextGuard,
  value: Record<string, unknown>,
  owner: { skill: BundledSkill },
): Record<string, unknown> {
  if (Object.keys(value).length === 0) return value;
  try {
    // Replacements and redactions contain no quotes or backslashes, so the JSON stays JSON.
    return JSON.parse(guard.text(JSON.stringify(value), owner)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** One line for listings: a skill's compatibility note, trimmed. */
export function compatibilityNote(fields: SpecFields, max = 120): string | null {
  const note = fields.compatibility?.replace(/\s+/g, " ").trim();
  if (!note) return null;
  return note.length > max ? `${note.slice(0, max - 1)}…` : note;
}
