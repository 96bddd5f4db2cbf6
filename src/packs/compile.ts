// Compiles a packs directory's files into the bundle: pack.yaml, Agent Skills folders (SKILL.md) and
// Penguiflow skill files (RFC v0.3 §3.5, Appendix D). Pure — no file system — so it also runs in workerd.
import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../search/hash";
import type { Bundle, BundledPack, BundledSkill } from "./bundle";
import {
  byPath,
  bytesOf,
  check,
  definitionText,
  isRecord,
  nearestLine,
  type Path,
  Problems,
  parseJson,
  parseYaml,
  type Source,
  sortedRecord,
  splitFrontmatter,
  textOf,
  withoutNulls,
} from "./sources";

/** One file under the packs directory; `path` is relative to it, `/`-separated, pack folder first. */
export interface PackFile {
  path: string;
  /** Bytes (what the build script passes, so invalid UTF-8 is detected) or already-decoded text. */
  content: string | Uint8Array;
}

export interface PackProblem {
  file: string;
  line?: number;
  field: string;
  reason: string;
}

export interface CompileResult {
  bundle: Bundle;
  errors: PackProblem[];
  warnings: PackProblem[];
}

/** Bundled files larger than this are listed in their skill but their text is not stored. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024;

/** `file:line — field — reason` (no `:line` when it is unknown). */
export function formatProblem(p: PackProblem): string {
  return `${p.file}${p.line === undefined ? "" : `:${p.line}`} — ${p.field} — ${p.reason}`;
}

// ── Schemas ──────────────────────────────────────────────────────────────────────────────────────

const required = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? "is required" : `must be ${what}`;
const Str = z.string({ error: required("a string") });
const NonBlank = Str.trim().min(1, "must be a non-empty string");
const StrList = z.array(NonBlank, { error: required("a list of strings") });
const Bool = z.boolean({ error: required("true or false") });

/** Pack names go into skill ids (`<pack>/<name>`) and generated names (`pack.<pack>.<slug>`). */
const PACK_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const PACK_NAME_RULE = "must be 1–64 letters, digits, _ and - (starting with a letter or digit)";
/** Agent Skills: 1–64 lowercase letters, digits and single hyphens, no hyphen at either end. */
const AGENT_SKILL_NAME = /^(?=.{1,64}$)[a-z0-9]+(-[a-z0-9]+)*$/;
const AGENT_SKILL_NAME_RULE =
  "must be 1–64 lowercase letters, digits and single hyphens, with no hyphen at either end";
const PENGUIFLOW_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

const PackConfigFile = z.object(
  {
    name: Str.regex(PACK_NAME, PACK_NAME_RULE).optional(),
    version: NonBlank.optional(),
    description: Str.optional(),
    scope: z
      .enum(["global", "tenant", "project"], { error: 'must be "global", "tenant" or "project"' })
      .optional(),
    tenant_id: Str.regex(/^[A-Za-z0-9._-]{1,64}$/, "must match ^[A-Za-z0-9._-]{1,64}$").optional(),
    project_id: Str.regex(/^[A-Za-z0-9._:-]{1,128}$/, "must match ^[A-Za-z0-9._:-]{1,128}$").optional(),
    pinned: StrList.optional(),
    enabled: Bool.optional(),
    update_existing: Bool.optional(),
  },
  { error: "must be a mapping of fields" },
);

/** SKILL.md frontmatter (agentskills.io specification); other keys are kept in `extra`. */
const AgentSkillFrontmatter = z.looseObject(
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
const PenguiflowSkill = z.looseObject(
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
const PENGUIFLOW_COLUMNS = new Set(Object.keys(PenguiflowSkill.shape));

// ── Packs ────────────────────────────────────────────────────────────────────────────────────────

type PackConfig = Omit<BundledPack, "hash">;
type SkillDraft = Omit<BundledSkill, "content_hash">;
/** A skill before hashing, with its bundled texts (by path in its folder) and where it was named. */
interface Draft {
  skill: SkillDraft;
  texts: [string, string][];
  line?: number;
}

/** What one file of a pack is; handled by an exhaustive switch in compilePack. */
type FileRole =
  | { kind: "pack_config" }
  | { kind: "agent_skill"; dir: string }
  | { kind: "bundled" }
  | { kind: "penguiflow"; format: "md" | "yaml" | "json" | "jsonl" }
  | { kind: "ignored"; level?: "error" | "warning"; reason?: string };

const PENGUIFLOW_FILE = /\.skill\.(md|ya?ml|jsonl?)$/;
const QUIET_FILES = /^(readme|license|licence|changelog)(\.[a-z]+)?$/i;

const dirOf = (rel: string) => rel.slice(0, Math.max(0, rel.lastIndexOf("/")));
const baseOf = (rel: string) => rel.slice(rel.lastIndexOf("/") + 1);

/** The nearest folder above `rel` (inside the pack) that holds a SKILL.md, if any. */
function skillDirOf(rel: string, skillDirs: ReadonlySet<string>): string | undefined {
  for (let dir = dirOf(rel); dir !== ""; dir = dirOf(dir)) if (skillDirs.has(dir)) return dir;
  return undefined;
}

function classify(rel: string, skillDirs: ReadonlySet<string>): FileRole {
  const base = baseOf(rel);
  if (base === "SKILL.md") {
    return rel === "SKILL.md"
      ? { kind: "ignored", level: "error", reason: "SKILL.md belongs in a skill folder inside the pack" }
      : { kind: "agent_skill", dir: dirOf(rel) };
  }
  // Everything in an Agent Skills folder is that skill's, even a file named like a Penguiflow skill.
  if (skillDirOf(rel, skillDirs) !== undefined) return { kind: "bundled" };
  if (rel === "pack.yaml") return { kind: "pack_config" };
  const format = PENGUIFLOW_FILE.exec(base)?.[1];
  if (format) return { kind: "penguiflow", format: format === "yml" ? "yaml" : (format as "md" | "yaml") };
  if (QUIET_FILES.test(base)) return { kind: "ignored" };
  return {
    kind: "ignored",
    level: "warning",
    reason: "not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md); ignored",
  };
}

interface ReadConfig {
  config: PackConfig;
  lineOf(path: Path): number | undefined;
}

function readPackConfig(folder: string, file: PackFile | undefined, problems: Problems): ReadConfig {
  const defaults: PackConfig = {
    name: folder,
    version: null,
    description: null,
    scope: "global",
    tenant_id: null,
    project_id: null,
    pinned: [],
    enabled: true,
    update_existing: true,
  };
  const text = file && definitionText(file, problems);
  const source = file && text != null ? parseYaml(text, file.path, 1, "yaml", problems) : null;
  const where = file?.path ?? folder;
  if (!source || source.value === null) {
    if (!PACK_NAME.test(folder))
      problems.add(
        "error",
        where,
        "name",
        `folder name "${folder}" ${PACK_NAME_RULE}; set name in pack.yaml`,
      );
    return { config: defaults, lineOf: () => undefined };
  }
  if (isRecord(source.value)) {
    const fields = withoutNulls(source.value);
    // `version: 1.10` must stay "1.10", not become the number 1.1.
    if (typeof fields.version === "number") fields.version = source.scalarSource("version");
    for (const key of Object.keys(fields).filter((k) => !(k in PackConfigFile.shape)))
      problems.add("warning", source.file, key, "unknown field; ignored", source.lineOf([key]));
    source.value = fields;
  }
  const data = check(PackConfigFile, source, problems, "pack");
  if (!data) {
    const name = isRecord(source.value) ? PACK_NAME.exec(String(source.value.name))?.[0] : undefined;
    return { config: { ...defaults, name: name ?? folder }, lineOf: source.lineOf };
  }
  const config: PackConfig = {
    ...defaults,
    name: data.name ?? folder,
    version: data.version ?? null,
    description: data.description ?? null,
    scope: data.scope ?? "global",
    tenant_id: data.tenant_id ?? null,
    project_id: data.project_id ?? null,
    pinned: [...new Set(data.pinned ?? [])],
    enabled: data.enabled ?? true,
    update_existing: data.update_existing ?? true,
  };
  if (data.name === undefined && !PACK_NAME.test(folder))
    problems.add("error", source.file, "name", `folder name "${folder}" ${PACK_NAME_RULE}; set name`);
  // Scope decides which ids matter: a tenant pack needs its tenant, a project pack both.
  const scopeLine = source.lineOf(["scope"]);
  if (config.scope !== "global" && config.tenant_id === null)
    problems.add("error", source.file, "tenant_id", `required when scope is ${config.scope}`, scopeLine);
  if (config.scope === "project" && config.project_id === null)
    problems.add("error", source.file, "project_id", "required when scope is project", scopeLine);
  for (const key of ["tenant_id", "project_id"] as const) {
    if (
      config[key] !== null &&
      (config.scope === "global" || (config.scope === "tenant" && key === "project_id"))
    ) {
      problems.add("warning", source.file, key, `ignored: scope is ${config.scope}`, source.lineOf([key]));
      config[key] = null;
    }
  }
  return { config, lineOf: source.lineOf };
}

// ── Skills ───────────────────────────────────────────────────────────────────────────────────────

/** A file of a pack, with its path inside the pack folder. */
interface Member {
  rel: string;
  file: PackFile;
}

interface PackContext {
  pack: string;
  problems: Problems;
  maxFileBytes: number;
}

/** Lists a skill folder's other files; stores the text of those that are UTF-8 and small enough. */
function bundleFiles(ctx: PackContext, dir: string, members: readonly Member[]) {
  const files: BundledSkill["files"] = [];
  const texts: [string, string][] = [];
  for (const { rel, file } of members) {
    const path = rel.slice(dir.length + 1);
    const bytes = bytesOf(file.content);
    files.push({ path, bytes: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") });
    const text = bytes.length > ctx.maxFileBytes ? undefined : textOf(file.content);
    if (text === undefined) {
      ctx.problems.add(
        "warning",
        file.path,
        "file",
        `${bytes.length} bytes is over the ${ctx.maxFileBytes}-byte limit; listed, not stored`,
      );
    } else if (text === null) {
      ctx.problems.add("warning", file.path, "file", "not UTF-8 text; listed, not stored");
    } else texts.push([path, text]);
  }
  return { files, texts };
}

/** The text of the first `# ` heading outside code fences. */
function firstHeading(markdown: string): string | undefined {
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s{0,3}(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^ {0,3}# +(.*?)(\s+#+)?\s*$/.exec(line);
    if (heading?.[1]) return heading[1];
  }
  return undefined;
}

/** An Agent Skills folder: SKILL.md (frontmatter + instructions) and the files beside and below it. */
function readAgentSkill(
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
  const { files, texts } = bundleFiles(ctx, dir, members);
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
    source: file.path,
    extra: sortedRecord(Object.fromEntries(extra)),
  };
  return { skill, texts, line: source.lineOf(["name"]) };
}

/** `api/pagination/cursor_loop.skill.yaml` → `api.pagination.cursor_loop` (RFC v0.3 §3.2 naming). */
function slugOf(rel: string): string {
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

function penguiflowDraft(
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
    source: source.file,
    extra: sortedRecord(Object.fromEntries(extra)),
  };
  return { skill, texts: [], line: line ?? source.lineOf(["name"]) };
}

/** A Penguiflow skill file: one skill, or one per non-empty line for `.skill.jsonl`. */
function readPenguiflow(ctx: PackContext, member: Member, format: "md" | "yaml" | "json" | "jsonl"): Draft[] {
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

// ── Assembly ─────────────────────────────────────────────────────────────────────────────────────

function compilePack(folder: string, members: readonly Member[], maxFileBytes: number, problems: Problems) {
  const configFile = members.find((m) => m.rel === "pack.yaml")?.file;
  const { config, lineOf } = readPackConfig(folder, configFile, problems);
  const ctx: PackContext = { pack: config.name, problems, maxFileBytes };
  const skillDirs = new Set(
    members.filter((m) => baseOf(m.rel) === "SKILL.md" && m.rel !== "SKILL.md").map((m) => dirOf(m.rel)),
  );
  const roles = members.map((member) => ({ member, role: classify(member.rel, skillDirs) }));
  const bundledIn = new Map<string, Member[]>();
  for (const { member, role } of roles) {
    const dir = role.kind === "bundled" ? skillDirOf(member.rel, skillDirs) : undefined;
    if (dir !== undefined) bundledIn.set(dir, [...(bundledIn.get(dir) ?? []), member]);
  }
  const drafts: Draft[] = [];
  for (const { member, role } of roles) {
    switch (role.kind) {
      case "pack_config":
      case "bundled":
        break;
      case "agent_skill": {
        const draft = readAgentSkill(ctx, member.file, role.dir, bundledIn.get(role.dir) ?? []);
        if (draft) drafts.push(draft);
        break;
      }
      case "penguiflow":
        drafts.push(...readPenguiflow(ctx, member, role.format));
        break;
      case "ignored":
        if (role.level && role.reason) problems.add(role.level, member.file.path, "file", role.reason);
        break;
      default: {
        const unhandled: never = role;
        throw new Error(`unhandled file role ${JSON.stringify(unhandled)}`);
      }
    }
  }
  const first = new Map<string, Draft>();
  const skills: BundledSkill[] = [];
  const texts: [string, string][] = [];
  for (const draft of drafts) {
    const { id, source } = draft.skill;
    const earlier = first.get(id);
    if (earlier) {
      const where = `${earlier.skill.source}${earlier.line === undefined ? "" : `:${earlier.line}`}`;
      problems.add(
        "error",
        source,
        "name",
        `duplicate skill id "${id}" (first defined in ${where})`,
        draft.line,
      );
      continue;
    }
    first.set(id, draft);
    skills.push({ ...draft.skill, content_hash: sha256Hex(canonicalJson(draft.skill)) });
    for (const [path, text] of draft.texts) texts.push([`${id}/${path}`, text]);
  }
  config.pinned.forEach((name, i) => {
    if (!skills.some((s) => s.name === name)) {
      const file = configFile?.path ?? folder;
      problems.add(
        "warning",
        file,
        `pinned[${i}]`,
        `no skill named "${name}" in this pack`,
        lineOf(["pinned", i]),
      );
    }
  });
  const hashes = skills.map((s) => s.content_hash).sort(byPath);
  const pack: BundledPack = { ...config, hash: sha256Hex(canonicalJson({ config, skills: hashes })) };
  return { pack, skills, texts };
}

/**
 * Compiles every file of a packs directory into the bundle, collecting every error and warning
 * (it never stops at the first). The output does not depend on the order of `files`.
 *
 * @example
 * const { bundle, errors } = compilePacks([
 *   { path: "core/pagination.skill.yaml", content: "trigger: Page through a list\nsteps: [Call, Repeat]" },
 * ]);
 * errors.map(formatProblem); // []
 * bundle.skills[0]?.id; // "core/pack.core.pagination"
 */
export function compilePacks(
  files: readonly PackFile[],
  options: { maxFileBytes?: number } = {},
): CompileResult {
  const problems = new Problems();
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const folders = new Map<string, Member[]>();
  const seen = new Set<string>();
  for (const file of [...files].sort((a, b) => byPath(a.path, b.path))) {
    const segments = file.path.split("/");
    if (segments.some((s) => s.startsWith("."))) continue; // dot-files and dot-folders are never packed
    if (segments.includes("") || seen.has(file.path)) {
      const reason = seen.has(file.path) ? "listed twice" : "must be a relative path with / separators";
      problems.add("error", file.path, "file", reason);
      continue;
    }
    seen.add(file.path);
    const [folder = "", ...rest] = segments;
    if (rest.length === 0) {
      if (!QUIET_FILES.test(folder))
        problems.add("warning", file.path, "file", "not inside a pack folder; ignored");
      continue;
    }
    folders.set(folder, [...(folders.get(folder) ?? []), { rel: rest.join("/"), file }]);
  }
  const packs: BundledPack[] = [];
  const skills: BundledSkill[] = [];
  const texts: [string, string][] = [];
  const folderOf = new Map<string, string>();
  for (const [folder, members] of folders) {
    const compiled = compilePack(folder, members, maxFileBytes, problems);
    const owner = folderOf.get(compiled.pack.name);
    if (owner !== undefined) {
      const reason = `pack "${compiled.pack.name}" is already the pack in folder ${owner}`;
      problems.add("error", `${folder}/pack.yaml`, "name", reason);
      continue;
    }
    folderOf.set(compiled.pack.name, folder);
    packs.push(compiled.pack);
    skills.push(...compiled.skills);
    texts.push(...compiled.texts);
  }
  packs.sort((a, b) => byPath(a.name, b.name));
  skills.sort((a, b) => byPath(a.id, b.id));
  texts.sort(([a], [b]) => byPath(a, b));
  const hash = sha256Hex(canonicalJson(packs.map((p) => p.hash).sort(byPath)));
  const order = (a: PackProblem, b: PackProblem) => byPath(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0);
  return {
    bundle: { hash, packs, skills, files: Object.fromEntries(texts) },
    errors: problems.errors.sort(order),
    warnings: problems.warnings.sort(order),
  };
}
