// The pack formats: schemas of pack.yaml, entry docs, SKILL.md frontmatter, Nova manifests and
// Penguiflow skills, and the Agent Skills and Penguiflow readers that turn a skill's files into a
// draft record (used by compile.ts; Nova folders are read by nova-skill.ts).
import { z } from "zod";
import type { BundledSkill } from "../packs/bundle";
import { ID_PATTERN, TENANT_PATTERN } from "../schemas";
import type { PackFile } from "./problems";
import {
  check,
  definitionText,
  fileFacts,
  isRecord,
  nearestLine,
  type Problems,
  parseJson,
  parseYaml,
  type Source,
  sortedRecord,
  splitFrontmatter,
  withoutNulls,
} from "./sources";
import { readToolsJson, type ToolsFile } from "./tools-json";

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
/** Agent Skills: 1–64 lowercase letters, digits and single hyphens, no hyphen at either end. */
export const AGENT_SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(-[a-z0-9]+)*$/;
export const AGENT_SKILL_NAME_RULE =
  "must be 1–64 lowercase letters, digits and single hyphens, with no hyphen at either end";
export const PENGUIFLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** Nova skill names (ADR-014 §1: `employee_onboarding`). */
export const NOVA_SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

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

/** An attachable pack's entry doc frontmatter (Capability Packs §4.3); other keys stay in the doc. */
export const EntryFrontmatter = z.looseObject(
  {
    name: NonBlank.max(64, "must be at most 64 characters"),
    description: NonBlank.max(1024, "must be at most 1024 characters"),
  },
  { error: "must be a mapping of fields" },
);

/** A Nova skill folder's manifest.yaml (ADR-014 §1); unknown keys are kept in `extra`. */
export const NovaManifest = z.looseObject(
  {
    name: Str.regex(
      NOVA_SKILL_NAME,
      "must be 1–64 lowercase letters, digits, _ and - (starting with a letter or digit)",
    ),
    version: NonBlank.optional(),
    description: NonBlank.max(1024, "must be at most 1024 characters"),
    author: NonBlank.optional(),
    tags: StrList.optional(),
  },
  { error: "must be a mapping of fields" },
);

/** SKILL.md frontmatter (agentskills.io specification); other keys are kept in `extra`. */
export const AgentSkillFrontmatter = z.looseObject(
  {
    name: Str.refine((n) => AGENT_SKILL_NAME.test(n), AGENT_SKILL_NAME_RULE).optional(),
    description: Str.max(1024, "must be at most 1024 characters").optional(),
    license: Str.optional(),
    compatibility: Str.max(500, "must be at most 500 characters").optional(),
    metadata: z.record(z.string(), z.unknown(), { error: "must be a mapping of strings" }).optional(),
    "allowed-tools": z
      .union([Str, StrList], { error: "must be a string of space-separated tool names or a list of them" })
      .optional(),
  },
  { error: "must be a mapping of fields" },
);

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

/** Lists a skill folder's other files; stores the text of those that are UTF-8 and small enough. */
export function bundleFiles(ctx: PackContext, dir: string, members: readonly Member[]) {
  const files: BundledSkill["files"] = [];
  const texts: [string, string][] = [];
  for (const { rel, file } of members) {
    const path = rel.slice(dir.length + 1);
    const { bytes, sha256, text: decoded } = fileFacts(file.content);
    files.push({ path, bytes, sha256 });
    const text = bytes > ctx.maxFileBytes ? undefined : decoded;
    if (text === undefined) {
      ctx.problems.add(
        "warning",
        file.path,
        "file",
        `${bytes} bytes is over the ${ctx.maxFileBytes}-byte limit; listed, not stored`,
      );
    } else if (text === null) {
      ctx.problems.add("warning", file.path, "file", "not UTF-8 text; listed, not stored");
    } else texts.push([path, text]);
  }
  return { files, texts };
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

/**
 * An Agent Skills folder: SKILL.md (frontmatter + instructions), an optional tools.json beside it, and
 * the files beside and below it.
 */
export function readAgentSkill(
  ctx: PackContext,
  file: PackFile,
  dir: string,
  members: readonly Member[],
): Draft | null {
  const { problems } = ctx;
  const text = definitionText(file, problems);
  const split = text === null ? null : splitFrontmatter(text, file.path, problems);
  if (split === "missing") {
    const reason = "missing: SKILL.md starts with a --- block holding name and description";
    problems.add("error", file.path, "frontmatter", reason, 1);
  }
  if (split === null || split === "missing") return null;
  const { source, body } = split;
  if (isRecord(source.value)) source.value = withoutNulls(source.value);
  const data = check(AgentSkillFrontmatter, source, problems, "frontmatter");
  if (!data) return null;
  // Lenient like the agentskills.io client guide: cosmetic problems warn, the skill still loads.
  const folder = baseOf(dir);
  let name = data.name;
  if (name === undefined && !AGENT_SKILL_NAME.test(folder)) {
    problems.add(
      "error",
      file.path,
      "name",
      `missing, and the folder name "${folder}" ${AGENT_SKILL_NAME_RULE}`,
    );
    return null;
  }
  if (name === undefined) {
    problems.add(
      "warning",
      file.path,
      "name",
      `missing; using the folder name "${folder}"`,
      nearestLine(source, ["name"]),
    );
    name = folder;
  } else if (name !== folder) {
    const reason = `"${name}" differs from its folder "${folder}"; kept`;
    problems.add("warning", file.path, "name", reason, source.lineOf(["name"]));
  }
  for (const [key, value] of Object.entries(data.metadata ?? {})) {
    if (typeof value !== "string") {
      const reason = "should be a string; kept as written";
      problems.add("warning", file.path, `metadata.${key}`, reason, source.lineOf(["metadata", key]));
    }
  }
  const description = data.description?.trim();
  if (!description) {
    problems.add(
      "warning",
      file.path,
      "description",
      "missing; skill skipped",
      nearestLine(source, ["description"]),
    );
    return null;
  }
  const markdown = body.replace(/^\s*\n/, "").trimEnd();
  const toolsFile = members.find((m) => m.rel === `${dir}/tools.json`);
  const tools = toolsFile && readToolsJson(toolsFile.file, { kind: "skill", name }, problems);
  const { files, texts } = bundleFiles(
    ctx,
    dir,
    members.filter((m) => m !== toolsFile),
  );
  const extra = Object.entries(data).filter(([key]) => key !== "name" && key !== "description");
  const skill: SkillDraft = {
    id: `${ctx.pack}/${name}`,
    name,
    pack: ctx.pack,
    title: firstHeading(markdown) ?? name,
    description,
    trigger: description,
    task_type: null,
    tags: [],
    steps: [],
    body: markdown,
    preconditions: [],
    failure_modes: [],
    files,
    origin: "agent_skills",
    tools: tools?.tools ?? [],
    source: file.path,
    extra: sortedRecord(Object.fromEntries(extra)),
  };
  return { skill, texts, line: source.lineOf(["name"]), tools };
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
  const data = check(PenguiflowSkill, source, ctx.problems, "skill");
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
  const text = definitionText(file, ctx.problems);
  if (text === null) return [];
  const slug = slugOf(member.rel);
  const one = (source: Source | null, notes = "") => {
    const draft = source && penguiflowDraft(ctx, source, slug, notes);
    return draft ? [draft] : [];
  };
  switch (format) {
    case "md": {
      const split = splitFrontmatter(text, file.path, ctx.problems);
      if (split === "missing") {
        const reason = "missing: a .skill.md file starts with a --- block holding the skill's fields";
        ctx.problems.add("error", file.path, "frontmatter", reason, 1);
        return [];
      }
      return split ? one(split.source, split.body.trim()) : [];
    }
    case "yaml":
      return one(parseYaml(text, file.path, 1, "yaml", ctx.problems));
    case "json":
      return one(parseJson(text, file.path, 1, ctx.problems));
    case "jsonl":
      return text.split("\n").flatMap((line, i) => {
        if (line.trim() === "") return [];
        const source = parseJson(line, file.path, i + 1, ctx.problems);
        const draft = source && penguiflowDraft(ctx, source, `${slug}.${i + 1}`, "", i + 1);
        return draft ? [draft] : [];
      });
    default: {
      const unhandled: never = format;
      throw new Error(`unhandled skill format ${String(unhandled)}`);
    }
  }
}
