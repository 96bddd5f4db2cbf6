// Compiles a packs directory's files into the bundle: pack.yaml, Agent Skills folders (SKILL.md) and
// Penguiflow skill files (RFC v0.3 §3.5, Appendix D). Pure — no file system — so it also runs in workerd.
import { canonicalJson, sha256Hex } from "../search/hash";
import type { Bundle, BundledPack, BundledSkill } from "./bundle";
import {
  byPath,
  check,
  definitionText,
  isRecord,
  type Path,
  Problems,
  parseYaml,
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

import {
  baseOf,
  type Draft,
  dirOf,
  type Member,
  PACK_NAME,
  PACK_NAME_RULE,
  PackConfigFile,
  type PackContext,
  PENGUIFLOW_FILE,
  readAgentSkill,
  readPenguiflow,
} from "./formats";

// ── Packs ────────────────────────────────────────────────────────────────────────────────────────

type PackConfig = Omit<BundledPack, "hash">;

/** What one file of a pack is; handled by an exhaustive switch in compilePack. */
type FileRole =
  | { kind: "pack_config" }
  | { kind: "agent_skill"; dir: string }
  | { kind: "bundled" }
  | { kind: "penguiflow"; format: "md" | "yaml" | "json" | "jsonl" }
  | { kind: "ignored"; level?: "error" | "warning"; reason?: string };

const QUIET_FILES = /^(readme|license|licence|changelog)(\.[a-z]+)?$/i;

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
