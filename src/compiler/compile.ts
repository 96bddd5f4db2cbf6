// Compiles a packs directory's files into the bundle: pack.yaml; the entry doc, files and tools.json
// that make a pack attachable (Capability Packs spec §4, §7); Agent Skills folders (SKILL.md), Nova
// skill folders (manifest.yaml, ADR-014) and Penguiflow skill files (RFC v0.3 §3.5, Appendix D).
// Pure — no file system — so it also runs in workerd. A problem in one skill or tool is a warning
// that says what was given up (agentskills.io client guide, "Lenient validation"); errors are left
// for what cannot be bundled: pack.yaml, two packs or two tools claiming one name, bad input paths.

import type { Bundle, BundledPack, BundledSkill, BundledSkillMd } from "../packs/bundle";
import { canonicalJson, sha256Hex } from "../search/hash";
import { readAgentSkill } from "./agent-skill";
import { listPackFiles, readEntry, resolveEntry } from "./capability";
import {
  baseOf,
  type Draft,
  dirOf,
  type Member,
  type PackContext,
  PENGUIFLOW_FILE,
  readPenguiflow,
} from "./formats";
import { readNovaSkill } from "./nova-skill";
import { readPackConfig } from "./pack-config";
import type { PackFile, PackProblem } from "./problems";
import { byPath, Problems } from "./sources";
import { namespacedName, readToolsJson, type ToolsFile } from "./tools-json";

export { formatProblem, type PackFile, type PackProblem } from "./problems";

export interface CompileResult {
  bundle: Bundle;
  errors: PackProblem[];
  warnings: PackProblem[];
}

/** Bundled files larger than this are listed in their skill or pack but their text is not stored. */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024;

// ── Packs ────────────────────────────────────────────────────────────────────────────────────────

/** What one file of a pack is; handled by an exhaustive switch in readSkills. */
type FileRole =
  | { kind: "pack_config" | "pack_tools" | "skill_part" | "pack_file" }
  | { kind: "agent_skill" | "nova_skill"; dir: string }
  | { kind: "penguiflow"; format: "md" | "yaml" | "json" | "jsonl" }
  | { kind: "ignored"; reason?: string };

const QUIET_FILES = /^(readme|license|licence|changelog)(\.[a-z]+)?$/i;

/** Folders (inside the pack, never its root) holding SKILL.md or, failing that, manifest.yaml. */
interface SkillFolders {
  agent: ReadonlySet<string>;
  nova: ReadonlySet<string>;
  all: ReadonlySet<string>;
}

function skillFoldersOf(members: readonly Member[]): SkillFolders {
  const holding = (name: string) =>
    new Set(members.filter((m) => m.rel.endsWith(`/${name}`)).map((m) => dirOf(m.rel)));
  const agent = holding("SKILL.md");
  const nova = new Set([...holding("manifest.yaml")].filter((dir) => !agent.has(dir)));
  return { agent, nova, all: new Set([...agent, ...nova]) };
}

/** The nearest folder above `rel` (inside the pack) that is a skill folder, if any. */
function skillDirOf(rel: string, skillDirs: ReadonlySet<string>): string | undefined {
  for (let dir = dirOf(rel); dir !== ""; dir = dirOf(dir)) if (skillDirs.has(dir)) return dir;
  return undefined;
}

function classify(rel: string, skills: SkillFolders, attachable: boolean): FileRole {
  switch (rel) {
    case "pack.yaml":
      return { kind: "pack_config" };
    case "tools.json":
      return { kind: "pack_tools" };
    case "SKILL.md":
      // The entry doc; when it is not one, readEntry has said why.
      return attachable ? { kind: "pack_file" } : { kind: "ignored" };
    case "manifest.yaml": {
      const reason =
        "manifest.yaml belongs in a Nova skill folder inside the pack (<pack>/<skill>/manifest.yaml); ignored";
      return { kind: "ignored", reason };
    }
  }
  const base = baseOf(rel);
  const dir = dirOf(rel);
  if (base === "SKILL.md") return { kind: "agent_skill", dir };
  if (base === "manifest.yaml" && skills.nova.has(dir)) return { kind: "nova_skill", dir };
  if (base === "manifest.yaml" && skills.agent.has(dir)) {
    const reason =
      "a skill folder holds SKILL.md (Agent Skills) or manifest.yaml (Nova), not both; manifest.yaml ignored";
    return { kind: "ignored", reason };
  }
  // Everything in a skill folder is that skill's, even a file named like a Penguiflow skill.
  if (skillDirOf(rel, skills.all) !== undefined) return { kind: "skill_part" };
  const format = PENGUIFLOW_FILE.exec(base)?.[1];
  if (format) return { kind: "penguiflow", format: format === "yml" ? "yaml" : (format as "md" | "yaml") };
  // Every file of an attachable pack is one the agent may read (spec §4.1 docs/, resources/, scripts/).
  if (attachable) return { kind: "pack_file" };
  if (QUIET_FILES.test(base)) return { kind: "ignored" };
  return {
    kind: "ignored",
    reason:
      "not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md or manifest.yaml); ignored",
  };
}

// ── Assembly ─────────────────────────────────────────────────────────────────────────────────────

/** Where a tool with a namespaced name was defined, for the bundle-wide uniqueness check. */
interface ToolPlace {
  name: string;
  file: string;
  field: string;
  line?: number;
}

const placesOf = (owner: string, tools: ToolsFile | undefined): ToolPlace[] =>
  tools?.tools.map((tool, i) => {
    const { index, line } = tools.places[i] ?? { index: i };
    const place = { name: namespacedName(owner, tool.name), file: tools.file, field: `tools[${index}].name` };
    return line === undefined ? place : { ...place, line };
  }) ?? [];

/** Reads the pack's skills, file by file; `skillParts` are the files their skill reads or lists. */
function readSkills(ctx: PackContext, members: readonly Member[], attachable: boolean) {
  const folders = skillFoldersOf(members);
  const roles = members.map((member) => ({ member, role: classify(member.rel, folders, attachable) }));
  const partsOf = new Map<string, Member[]>();
  for (const { member, role } of roles) {
    const dir = role.kind === "skill_part" ? skillDirOf(member.rel, folders.all) : undefined;
    if (dir !== undefined) partsOf.set(dir, [...(partsOf.get(dir) ?? []), member]);
  }
  const drafts: Draft[] = [];
  for (const { member, role } of roles) {
    switch (role.kind) {
      case "pack_config":
      case "pack_tools":
      case "skill_part":
      case "pack_file":
        break;
      case "agent_skill": {
        const draft = readAgentSkill(ctx, member.file, role.dir, partsOf.get(role.dir) ?? []);
        if (draft) drafts.push(draft);
        break;
      }
      case "nova_skill": {
        const draft = readNovaSkill(ctx, member, role.dir, partsOf.get(role.dir) ?? []);
        if (draft) drafts.push(draft);
        break;
      }
      case "penguiflow":
        drafts.push(...readPenguiflow(ctx, member, role.format));
        break;
      case "ignored":
        if (role.reason) ctx.problems.add("warning", member.file.path, "file", role.reason);
        break;
      default: {
        const unhandled: never = role;
        throw new Error(`unhandled file role ${JSON.stringify(unhandled)}`);
      }
    }
  }
  const skillParts = new Set([...partsOf.values()].flat().map((m) => m.rel));
  return { drafts, skillParts };
}

/**
 * Hashes the drafts into skills, keeping the first of each id by path (the client guide: pick one,
 * consistently, and warn); a later one is skipped with its tools.
 */
function acceptSkills(drafts: readonly Draft[], problems: Problems) {
  const first = new Map<string, Draft>();
  const skills: BundledSkill[] = [];
  const texts: [string, string][] = [];
  const blobs: [string, string][] = [];
  const skillMd: [string, BundledSkillMd][] = [];
  const tools: ToolPlace[] = [];
  for (const draft of drafts) {
    const { id, source } = draft.skill;
    const earlier = first.get(id);
    if (earlier) {
      const where = `${earlier.skill.source}${earlier.line === undefined ? "" : `:${earlier.line}`}`;
      const reason = `duplicate skill id "${id}" (first defined in ${where}); skill skipped`;
      problems.add("warning", source, "name", reason, draft.line);
      continue;
    }
    first.set(id, draft);
    const content_hash = sha256Hex(canonicalJson(draft.skill));
    skills.push({ ...draft.skill, content_hash });
    for (const [path, text] of draft.texts) texts.push([`${id}/${path}`, text]);
    for (const [path, blob] of draft.blobs ?? []) blobs.push([`${id}/${path}`, blob]);
    if (draft.skillMd) skillMd.push([id, { content_hash, ...draft.skillMd }]);
    tools.push(...placesOf(draft.skill.name, draft.tools));
  }
  return { skills, texts, blobs, skillMd, tools };
}

function compilePack(folder: string, members: readonly Member[], maxFileBytes: number, problems: Problems) {
  const configFile = members.find((m) => m.rel === "pack.yaml")?.file;
  const { config, entry, lineOf } = readPackConfig(folder, configFile, problems);
  const ctx: PackContext = { pack: config.name, problems, maxFileBytes };
  const toolsFile = members.find((m) => m.rel === "tools.json")?.file;
  const choice = resolveEntry(members, entry);
  const where = { file: configFile?.path ?? `${folder}/pack.yaml`, line: lineOf(["entry"]) };
  const doc = readEntry(ctx, choice, toolsFile !== undefined, where);
  if (toolsFile && choice.kind === "none") {
    const reason =
      "no entry doc: tools need an attachable pack (add SKILL.md or README.md with name and description frontmatter, or set entry in pack.yaml); tools not loaded";
    problems.add("warning", toolsFile.path, "file", reason);
  }
  // Tools need an attachable pack; readEntry said why this one is not.
  const packTools =
    toolsFile && doc ? readToolsJson(toolsFile, { kind: "pack", name: config.name }, problems) : undefined;
  const { drafts, skillParts } = readSkills(ctx, members, doc !== null);
  const accepted = acceptSkills(drafts, problems);
  config.pinned.forEach((name, i) => {
    if (!accepted.skills.some((s) => s.name === name)) {
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
  const listed = doc && listPackFiles(ctx, members, skillParts);
  const unhashed: Omit<BundledPack, "hash"> = {
    ...config,
    capability: doc && listed ? { ...doc, files: listed.files } : null,
    tools: packTools?.tools ?? [],
  };
  // The capability's files carry their sha256, so the hash covers the entry doc and every file.
  const skillHashes = accepted.skills.map((s) => s.content_hash).sort(byPath);
  const pack: BundledPack = {
    ...unhashed,
    hash: sha256Hex(canonicalJson({ pack: unhashed, skills: skillHashes })),
  };
  return {
    pack,
    skills: accepted.skills,
    texts: accepted.texts,
    blobs: accepted.blobs,
    skillMd: accepted.skillMd,
    packTexts: (listed?.texts ?? []).map(([path, text]): [string, string] => [
      `${config.name}/${path}`,
      text,
    ]),
    tools: [...placesOf(config.name, packTools), ...accepted.tools],
  };
}

/** Namespaced tool names are unique in the whole bundle: a session may hold every pack (ADR-014 §7). */
function checkToolNames(places: ToolPlace[], problems: Problems) {
  const first = new Map<string, ToolPlace>();
  const order = (a: ToolPlace, b: ToolPlace) => byPath(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0);
  for (const place of places.sort(order)) {
    const earlier = first.get(place.name);
    if (!earlier) {
      first.set(place.name, place);
      continue;
    }
    const where = `${earlier.file}${earlier.line === undefined ? "" : `:${earlier.line}`}`;
    const reason = `namespaced name "${place.name}" is already used by ${where}`;
    problems.add("error", place.file, place.field, reason, place.line);
  }
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
  const blobs: [string, string][] = [];
  const skillMd: [string, BundledSkillMd][] = [];
  const packTexts: [string, string][] = [];
  const tools: ToolPlace[] = [];
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
    blobs.push(...compiled.blobs);
    skillMd.push(...compiled.skillMd);
    packTexts.push(...compiled.packTexts);
    tools.push(...compiled.tools);
  }
  checkToolNames(tools, problems);
  packs.sort((a, b) => byPath(a.name, b.name));
  skills.sort((a, b) => byPath(a.id, b.id));
  texts.sort(([a], [b]) => byPath(a, b));
  blobs.sort(([a], [b]) => byPath(a, b));
  skillMd.sort(([a], [b]) => byPath(a, b));
  packTexts.sort(([a], [b]) => byPath(a, b));
  const hash = sha256Hex(canonicalJson(packs.map((p) => p.hash).sort(byPath)));
  const order = (a: PackProblem, b: PackProblem) => byPath(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0);
  return {
    bundle: {
      hash,
      packs,
      skills,
      files: Object.fromEntries(texts),
      packFiles: Object.fromEntries(packTexts),
      skillMd: Object.fromEntries(skillMd),
      blobs: Object.fromEntries(blobs),
    },
    errors: problems.errors.sort(order),
    warnings: problems.warnings.sort(order),
  };
}
