// The shape of the generated pack bundle (src/generated/packs.ts), written by scripts/build-packs.ts.
import type { ToolRecordInput } from "../tools/tool-record";

/**
 * A tool a pack or skill brings (its tools.json), validated at build time. `name` is the bare name
 * from tools.json; in a session it becomes `<owner>__<name>` with namespace `<owner>` (Nova ADR-014 §7).
 */
export type BundledTool = ToolRecordInput;

/** A file of a capability pack, relative to the pack folder; its text is in `Bundle.packFiles`. */
export interface BundledPackFile {
  path: string;
  bytes: number;
  sha256: string;
  /** False for binary (not UTF-8) files and files over the size limit: listed, not readable. */
  text: boolean;
}

/** What makes a pack attachable (Capability Packs spec §4): its entry doc and files. */
export interface CapabilityPack {
  /** Path of the entry doc inside the pack folder. */
  entry: string;
  /** `name` and `description` from the entry doc's frontmatter. */
  name: string;
  description: string;
  files: BundledPackFile[];
}

/** Who may see a pack: every tenant, one tenant, or one project of one tenant. */
export type PackScope = "global" | "tenant" | "project";

export interface BundledPack {
  name: string;
  version: string | null;
  description: string | null;
  scope: PackScope;
  tenant_id: string | null;
  project_id: string | null;
  /** Skill names listed first in the skill directory. */
  pinned: string[];
  enabled: boolean;
  /** Whether a changed skill replaces the stored one (RFC v0.3 §3.5 update_existing_pack_skills). */
  update_existing: boolean;
  /** The pack's folder, relative to the packs directory. */
  folder: string;
  /** Set when the pack has an entry doc and can be attached; null for a pack of skills only. */
  capability: CapabilityPack | null;
  /** The pack's tools.json (empty without one). */
  tools: BundledTool[];
  /** sha256 over the pack's config, its skills' content hashes, its entry doc, files and tools. */
  hash: string;
}

export interface BundledSkill {
  /** `<pack>/<name>`: always unique. */
  id: string;
  name: string;
  pack: string;
  title: string;
  description: string;
  trigger: string;
  task_type: string | null;
  tags: string[];
  /** Penguiflow skills: the procedure. Agent Skills: empty (the body holds it). */
  steps: string[];
  /** Agent Skills: the SKILL.md markdown body; Nova: instructions.md. Penguiflow: null. */
  body: string | null;
  preconditions: string[];
  failure_modes: string[];
  /**
   * Files bundled with the skill (Agent Skills folders), relative to the skill's folder. `sha256` (of
   * the bytes) puts an edit that keeps the size — or of a file too large to store — into content_hash.
   */
  files: { path: string; bytes: number; sha256: string }[];
  /** `learned`: a lesson of the tenant's runs (src/lessons/), never bundled. */
  origin: "agent_skills" | "penguiflow" | "nova" | "learned";
  /** Tools the skill brings (tools.json in its folder), visible while it is enabled (skill_enable). */
  tools: BundledTool[];
  /** Path of the defining file, relative to the packs directory. */
  source: string;
  /** Fields the formats define that have no column (license, metadata, cluster, tools, …). */
  extra: Record<string, unknown>;
  /** sha256 of the canonical JSON of every field above. */
  content_hash: string;
}

/**
 * An Agent Skill's SKILL.md beyond its parsed fields, for the MCP Skills extension (SEP-2640), which
 * serves the file itself and its frontmatter verbatim: `head + body + tail` is the file as compiled
 * (byte-order mark dropped, LF line ends), `frontmatter` its YAML as parsed, nothing normalized.
 */
export interface BundledSkillMd {
  /** The version of the skill this describes (a session may keep an older one). */
  content_hash: string;
  /** The frontmatter block as written, and any blank lines before the body. */
  head: string;
  /** Whitespace after the body. */
  tail: string;
  frontmatter: Record<string, unknown>;
}

/** A skill's search text, normalized at build time (src/skills/skill-index.ts) so loading is cheap. */
export interface SkillIndexFields {
  f_name: string;
  f_title: string;
  f_tags: string;
  f_trigger: string;
  f_description: string;
  f_body: string;
}

export interface Bundle {
  /** sha256 over the packs' hashes: equal bundles load identically. */
  hash: string;
  packs: BundledPack[];
  skills: BundledSkill[];
  /** Text of bundled files, keyed `<skill id>/<path>` (files over the size limit are listed, not stored). */
  files: Record<string, string>;
  /** Text of capability packs' files, keyed `<pack name>/<path>` (text files within the size limit). */
  packFiles: Record<string, string>;
  /** Agent Skills' SKILL.md beyond their parsed fields, by skill id. */
  skillMd?: Record<string, BundledSkillMd>;
  /** Bytes of bundled files that are not UTF-8 text, as base64, keyed `<skill id>/<path>` (within the size limit). */
  blobs?: Record<string, string>;
  /** Search fields by skill id, added by scripts/build-packs.ts; computed at load time when absent. */
  index?: Record<string, SkillIndexFields>;
}
