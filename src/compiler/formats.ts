// The pack formats: schemas of pack.yaml, entry docs, Nova manifests and Penguiflow skills, what every
// skill reader shares (the draft record, bundled files), and the Penguiflow reader (used by
// compile.ts; Agent Skills folders are read by agent-skill.ts, Nova folders by nova-skill.ts).
import { Buffer } from "node:buffer";
import { z } from "zod";
import type { BundledSkill, BundledSkillMd } from "../packs/bundle";
import { ID_PATTERN, TENANT_PATTERN } from "../schemas";
import type { PackFile } from "./problems";
import {
  bytesOf,
  checkSkill,
  definitionText,
  fileFacts,
  isRecord,
  type Problems,
  parseJson,
  parseYaml,
  type Source,
  sortedRecord,
  splitFrontmatter,
  withoutNulls,
} from "./sources";
import type { ToolsFile } from "./tools-json";

// ── Schemas ──────────────────────────────────────────────────────────────────────────────────────

export const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? "is required" : `must be ${what}`;
export const Str = z.string({ error: required("a string") });
export const NonBlank = Str.trim().min(1, "must be a non-empty string");
export const StrList = z.array(NonBlank, { error: required("a list of strings") });
export const Bool = z.boolean({ error: required("true or false") });

/** Pack names go into skill ids (`<pack>/<name>`) and generated names (`pack.<pack>.<slug>`). */
export const PACK_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const PACK_NAME_RULE = "must be 1–64 letters, digits, _ and - (starting with a letter or digit)";
export const PENGUIFLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** Nova skill names (ADR-014 §1: `employee_onboarding`). */
export const NOVA_SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const NOVA_SKILL_NAME_RULE =
  "1–64 lowercase letters, digits, _ and -, starting with a letter or digit";

/** A path to a file inside the pack: relative, `/`-separated, no `.` or `..` steps. */
const isInsidePath = (path: string) =>
  !path.includes("\\") && path.split("/").every((step) => step !== "" && step !== "." && step !== "..");

export const PackConfigFile = z.object(
  {
    name: Str.regex(PACK_NAME, PACK_NAME_RULE).optional(),
    version: NonBlank.optional(),
    description: Str.optional(),
    scope: z
      .enum(["global", "tenant", "project"], { error: 'must be "global", "tenant" or "project"' })
      .optional(),
    tenant_id: Str.regex(TENANT_PATTERN, `must match ${TENANT_PATTERN.source}`).optional(),
    project_id: Str.regex(ID_PATTERN, `must match ${ID_PATTERN.source}`).optional(),
    pinned: StrList.optional(),
    enabled: Bool.optional(),
    update_existing: Bool.optional(),
    entry: Str.refine(isInsidePath, "must be a path inside the pack, like docs/guide.md").optional(),
  },
  { error: "must be a mapping of fields" },
);

/**
 * An attachable pack's entry doc frontmatter (Capability Packs §4.3); other keys stay in the doc. A
 * name over 64 or a description over 1024 characters warns (readEntryDoc), as for a SKILL.md.
 */
export const EntryFrontmatter = z.looseObject(
  { name: NonBlank, description: NonBlank },
  { error: "must be a mapping of fields" },
);

/**
 * A Nova skill folder's manifest.yaml (ADR-014 §1); unknown keys are kept in `extra`. A name off
 * NOVA_SKILL_NAME or a description over 1024 characters warns (readNovaSkill).
 */
export const NovaManifest = z.looseObject(
  {
    name: NonBlank,
    version: NonBlank.optional(),
    description: NonBlank,
    author: NonBlank.optional(),
    tags: StrList.optional(),
  },
  { error: "must be a mapping of fields" },
);
/** Without these a Nova skill cannot be listed or chosen: it is skipped. */
export const NOVA_ESSENTIAL = new Set(["name", "description"]);

/** A Penguiflow skill object (RFC v0.3 Appendix D); `cluster`, `tools` and unknown keys go to `extra`. */
export const PenguiflowSkill = z.looseObject(
  {
    name: Str.regex(PENGUIFLOW_NAME, "must be 1–128 letters, digits, _ . : and - (no /)").optional(),
    title: NonBlank.optional(),
    description: NonBlank.optional(),
    task_type: NonBlank.optional(),
    tags: StrList.optional(),
    trigger: NonBlank,
    preconditions: StrList.optional(),
    steps: StrList.min(1, "must be a non-empty list of strings"),
    failure_modes: StrList.optional(),
  },
  { error: "must be a mapping of skill fields" },
);
/** A Penguiflow skill is its trigger and steps: without them it is skipped (a bad name is dropped). */
const PENGUIFLOW_ESSENTIAL = new Set(["trigger", "steps"]);
/** Penguiflow skill files: `*.skill.md|yaml|yml|json|jsonl`. */
export const PENGUIFLOW_FILE = /\.skill\.(md|ya?ml|jsonl?)$/;
export const PENGUIFLOW_COLUMNS = new Set(Object.keys(PenguiflowSkill.shape));

export type SkillDraft = Omit<BundledSkill, "content_hash">;
/**
 * A skill before hashing, with its bundled texts (by path in its folder), where it was named, and
 * where its tools were defined (to name both places when two tools' namespaced names collide).
 */
export interface Draft {
  skill: SkillDraft;
  texts: [string, string][];
  /** Bundled files that are not text, as base64, by path in the skill's folder. */
  blobs?: [string, string][];
  /** Agent Skills: SKILL.md beyond its parsed fields (its content hash is added with the skill's). */
  skillMd?: Omit<BundledSkillMd, "content_hash">;
  line?: number;
  tools?: ToolsFile;
}
export const dirOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf("/")));
export const baseOf = (rel: string) => rel.slice(rel.lastIndexOf("/") + 1);

// ── Skills ───────────────────────────────────────────────────────────────────────────────────────

/** A file of a pack, with its path inside the pack folder. */
export interface Member {
  rel: string;
  file: PackFile;
}

export interface PackContext {
  pack: string;
  problems: Problems;
  maxFileBytes: number;
}

/**
 * Lists a skill folder's other files; stores the text of those that are UTF-8 and small enough.
 * Binary files (images, fonts, archives in `assets/`) are listed quietly, as in an attachable pack:
 * the spec expects them, and there is nothing to fix. Those within the size limit are stored as
 * base64, so the MCP Skills extension can serve every file it lists (issue 14).
 */
export function bundleFiles(ctx: PackContext, dir: string, members: readonly Member[]) {
  const files: BundledSkill["files"] = [];
  const texts: [string, string][] = [];
  const blobs: [string, string][] = [];
  for (const { rel, file } of members) {
    const path = rel.slice(dir.length + 1);
    const { bytes, sha256, text } = fileFacts(file.content);
    files.push({ path, bytes, sha256 });
    if (text !== null && bytes > ctx.maxFileBytes) {
      const reason = `${bytes} bytes is over the ${ctx.maxFileBytes}-byte limit; listed, not stored`;
      ctx.problems.add("warning", file.path, "file", reason);
    } else if (text !== null) texts.push([path, text]);
    else if (bytes <= ctx.maxFileBytes)
      blobs.push([path, Buffer.from(bytesOf(file.content)).toString("base64")]);
  }
  return { files, texts, blobs };
}

/** The text of the first `# ` heading outside code fences. */
export function firstHeading(markdown: string): string | undefined {
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^ {0,3}# +(.*?)(\s+#+)?\s*$/.exec(line);
    if (heading?.[1]) return heading[1];
  }
  return undefined;
}

/** `api/pagination/cursor_loop.skill.yaml` → `api.pagination.cursor_loop` (RFC v0.3 §3.2 naming). */
export function slugOf(rel: string): string {
  const parts = rel
    .replace(PENGUIFLOW_FILE, "")
    .split("/")
    .map((part) =>
      part
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "_")
        .replace(/^_+|_+$/g, ""),
    )
    .filter(Boolean);
  return parts.length > 0 ? parts.join(".") : "skill";
}

export function penguiflowDraft(
  ctx: PackContext,
  source: Source,
  slug: string,
  notes: string,
  line?: number,
): Draft | null {
  if (isRecord(source.value)) source.value = withoutNulls(source.value);
  const data = checkSkill(PenguiflowSkill, source, ctx.problems, "skill", PENGUIFLOW_ESSENTIAL);
  if (!data) return null;
  const name = data.name ?? `pack.${ctx.pack}.${slug}`;
  const extra = Object.entries(data).filter(([key]) => !PENGUIFLOW_COLUMNS.has(key));
  if (notes) extra.push(["notes", notes]);
  const skill: SkillDraft = {
    id: `${ctx.pack}/${name}`,
    name,
    pack: ctx.pack,
    title: data.title ?? name,
    description: data.description ?? data.trigger,
    trigger: data.trigger,
    task_type: data.task_type ?? null,
    tags: data.tags ?? [],
    steps: data.steps,
    body: null,
    preconditions: data.preconditions ?? [],
    failure_modes: data.failure_modes ?? [],
    files: [],
    origin: "penguiflow",
    // Penguiflow `tools:` are hints to the agent (RFC v0.3 Appendix D), kept in extra, not tools to add.
    tools: [],
    source: source.file,
    extra: sortedRecord(Object.fromEntries(extra)),
  };
  return { skill, texts: [], line: line ?? source.lineOf(["name"]) };
}

/** A Penguiflow skill file: one skill, or one per non-empty line for `.skill.jsonl`. */
export function readPenguiflow(
  ctx: PackContext,
  member: Member,
  format: "md" | "yaml" | "json" | "jsonl",
): Draft[] {
  const { file } = member;
  // A file that cannot be read is no skill; one bad line of a .skill.jsonl skips only that line.
  const skip = ctx.problems.demoted("skill skipped");
  const text = definitionText(file, skip);
  if (text === null) return [];
  const slug = slugOf(member.rel);
  const one = (source: Source | null, notes = "") => {
    const draft = source && penguiflowDraft(ctx, source, slug, notes);
    return draft ? [draft] : [];
  };
  switch (format) {
    case "md": {
      const split = splitFrontmatter(text, file.path, skip);
      if (split === "missing") {
        const reason = "missing: a .skill.md file starts with a --- block holding the skill's fields";
        skip.add("error", file.path, "frontmatter", reason, 1);
        return [];
      }
      return split ? one(split.source, split.body.trim()) : [];
    }
    case "yaml":
      return one(parseYaml(text, file.path, 1, "yaml", skip));
    case "json":
      return one(parseJson(text, file.path, 1, skip));
    case "jsonl":
      return text.split("\n").flatMap((line, i) => {
        if (line.trim() === "") return [];
        const source = parseJson(line, file.path, i + 1, skip);
        const draft = source && penguiflowDraft(ctx, source, `${slug}.${i + 1}`, "", i + 1);
        return draft ? [draft] : [];
      });
    default: {
      const unhandled: never = format;
      throw new Error(`unhandled skill format ${String(unhandled)}`);
    }
  }
}
