// The Agent Skills spec's optional fields (license, compatibility, metadata, allowed-tools), read
// from where the compiler keeps them (a skill's `extra`) into one shape for every surface.
import type { BundledSkill } from "../packs/bundle";

export interface SpecFields {
  /** A license name, or a reference to a bundled license file. */
  license: string | null;
  /** What the skill needs of its environment (a product, packages, network access). */
  compatibility: string | null;
  /** The author's key-value pairs, as written. */
  metadata: Record<string, unknown>;
  /** Tools the skill expects to use; the spec writes them space-separated, some repositories as a list. */
  allowed_tools: string[];
}

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value : null;

/** The spec fields a skill declares (empty ones for Penguiflow and Nova skills, which have none). */
export function specFields(skill: BundledSkill): SpecFields {
  const { license, compatibility, metadata } = skill.extra;
  const tools = skill.extra["allowed-tools"];
  const allowed =
    typeof tools === "string"
      ? tools.split(/\s+/)
      : Array.isArray(tools)
        ? tools.filter((t): t is string => typeof t === "string")
        : [];
  return {
    license: text(license),
    compatibility: text(compatibility),
    metadata:
      metadata && typeof metadata === "object" && !Array.isArray(metadata)
        ? (metadata as Record<string, unknown>)
        : {},
    allowed_tools: allowed.map((t) => t.trim()).filter((t) => t !== ""),
  };
}
