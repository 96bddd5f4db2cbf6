// An Agent Skill as the MCP Skills extension serves it (SEP-2640, ext-skills
// specification/stable/skills.mdx "Skill Entries"): SKILL.md with its frontmatter as written and
// its body as this session may see it, and the size and SHA-256 of every file as served, so a host
// can check each read against the entry (issue 14).
import { createHash } from "node:crypto";
import { stringify } from "yaml";
import { z } from "zod";
import { lessonAgentName } from "../lessons/lesson";
import type { Bundle, BundledSkill, BundledSkillMd } from "../packs/bundle";
import { mimeOf } from "../packs/file-pages";
import { canonicalJson } from "../search/hash";
import type { TextGuard } from "./text-guard";

const ServedFile = z.object({
  path: z.string().describe("Relative to the skill's folder"),
  bytes: z.number().int().describe("Size of the bytes served"),
  sha256: z.string().describe("SHA-256 of the bytes served, hex"),
});

export const SkillManifestSchema = z
  .object({
    frontmatter: z
      .record(z.string(), z.unknown())
      .describe(
        "SKILL.md's YAML frontmatter as JSON: every field as written, unless this session's policy rewrote one",
      ),
    files: z
      .array(ServedFile)
      .describe("SKILL.md first, then every file the skill bundles, as served to this session"),
    skill_md: z.string().optional().describe("SKILL.md as served (skill_get only)"),
  })
  .describe("The skill as the MCP Skills extension serves it; null for skills that are not Agent Skills");

type SkillManifest = z.infer<typeof SkillManifestSchema>;
type Owner = { skill: BundledSkill };

const utf8 = new TextEncoder();

function digestOf(text: string): { bytes: number; sha256: string } {
  const bytes = utf8.encode(text);
  return { bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** A tool name the guard leaves alone (the test skill_get applies to `allowed_tools`). */
const named = (guard: TextGuard, owner: Owner, name: string) =>
  guard.text(`\`${name}\``, owner) === `\`${name}\``;

function guardedValue(guard: TextGuard, owner: Owner, value: unknown): unknown {
  if (typeof value === "string") return guard.text(value, owner);
  if (Array.isArray(value)) return value.map((v) => guardedValue(guard, owner, v));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, guardedValue(guard, owner, v)]));
  }
  return value;
}

/** `allowed-tools` without the tools this session may not use, in the form it was written. */
function allowedTools(guard: TextGuard, owner: Owner, value: unknown): unknown {
  if (typeof value === "string") {
    const names = value.split(/\s+/).filter((n) => n !== "");
    const kept = names.filter((n) => named(guard, owner, n));
    return kept.length === names.length ? value : kept.join(" ");
  }
  if (Array.isArray(value)) {
    return value.filter((n) => typeof n !== "string" || named(guard, owner, n.trim()));
  }
  return guardedValue(guard, owner, value);
}

/** The frontmatter guarded like the rest of the skill; `name` is the skill's identity. */
function guardedFrontmatter(guard: TextGuard, owner: Owner, frontmatter: Record<string, unknown>) {
  return Object.fromEntries(
    Object.entries(frontmatter).map(([key, value]) => [
      key,
      key === "name"
        ? value
        : key === "allowed-tools"
          ? allowedTools(guard, owner, value)
          : guardedValue(guard, owner, value),
    ]),
  );
}

/** What follows the frontmatter's closing `---` line in `head`: the blank lines before the body. */
function afterFence(head: string): string {
  const lines = head.split("\n");
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  return end < 0 ? "" : lines.slice(end + 1).join("\n");
}

/**
 * SKILL.md as served: the file as written around the body this session may see. When the policy
 * rewrites a frontmatter field, the frontmatter is written out as JSON (which is YAML), so what a
 * host parses from the file is exactly the entry's `frontmatter` (SEP-2640 "Frontmatter Verification").
 */
function servedSkillMd(guard: TextGuard, skill: BundledSkill, md: BundledSkillMd) {
  const owner = { skill };
  const guarded = guardedFrontmatter(guard, owner, md.frontmatter);
  const same = canonicalJson(guarded) === canonicalJson(md.frontmatter);
  const head = same ? md.head : `---\n${JSON.stringify(guarded)}\n---\n${afterFence(md.head)}`;
  const body = skill.body === null ? "" : guard.text(skill.body, owner);
  return { text: head + body + md.tail, frontmatter: same ? md.frontmatter : guarded };
}

/** A bundled file's size and digest as skill_read_file serves it: its text guarded, or its bytes. */
function servedFile(
  guard: TextGuard,
  bundle: Bundle,
  skill: BundledSkill,
  file: BundledSkill["files"][number],
) {
  const listed = { path: file.path, bytes: file.bytes, sha256: file.sha256 };
  const text = bundle.files[`${skill.id}/${file.path}`];
  // Binary (served as its bytes) or too large to bundle (listed, not served): as on disk.
  if (text === undefined) return listed;
  const shown = guard.text(text, { skill });
  // Unchanged text whose UTF-8 is as long as the file is the file's bytes: no need to hash again.
  if (shown === text && utf8.encode(text).length === file.bytes) return listed;
  return { path: file.path, ...digestOf(shown) };
}

/**
 * `skill`'s entry for the MCP Skills extension as this session is served it; null when it is not
 * an Agent Skill (the extension serves only those) or the session holds another version than the
 * bundle describes.
 *
 * @example
 * skillManifest(guard, ctx.bundle, skill, false)?.files[0]; // { path: "SKILL.md", bytes: 2314, sha256: "…" }
 */
export function skillManifest(
  guard: TextGuard,
  bundle: Bundle,
  skill: BundledSkill,
  withText: boolean,
): SkillManifest | null {
  if (skill.origin === "learned") return learnedManifest(guard, skill, withText);
  const md = bundle.skillMd?.[skill.id];
  if (skill.origin !== "agent_skills" || !md || md.content_hash !== skill.content_hash) return null;
  const served = servedSkillMd(guard, skill, md);
  return {
    frontmatter: served.frontmatter,
    files: [
      { path: "SKILL.md", ...digestOf(served.text) },
      ...skill.files.map((file) => servedFile(guard, bundle, skill, file)),
    ],
    ...(withText ? { skill_md: served.text } : {}),
  };
}

/**
 * A learned skill (an approved lesson) as an Agent Skill of one file: its name as the Agent Skills
 * specification allows one, its trigger as the description, the lesson's own name and kind in
 * `metadata`, and its text guarded as skill_get serves it (an `avoid` lesson reads as a caution).
 */
function learnedManifest(guard: TextGuard, skill: BundledSkill, withText: boolean): SkillManifest | null {
  const name = lessonAgentName(skill.name);
  if (name === null) return null;
  const owner = { skill };
  const frontmatter = {
    name,
    description: guard.text(skill.trigger, owner),
    metadata: { "trove-name": skill.name, kind: skill.tags.includes("avoid") ? "avoid" : "do" },
  };
  const text = `---\n${stringify(frontmatter)}---\n\n${guard.text(skill.body ?? "", owner)}\n`;
  return {
    frontmatter,
    files: [{ path: "SKILL.md", ...digestOf(text) }],
    ...(withText ? { skill_md: text } : {}),
  };
}

const BINARY_MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  wasm: "application/wasm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
};

/** A bundled file's MIME type by extension; `binary` files of an unknown kind are octet streams. */
export function fileMime(path: string, binary = false): string {
  const dot = path.lastIndexOf(".");
  const known = dot > path.lastIndexOf("/") + 1 ? BINARY_MIME[path.slice(dot + 1).toLowerCase()] : undefined;
  return known ?? (binary ? "application/octet-stream" : mimeOf(path));
}
