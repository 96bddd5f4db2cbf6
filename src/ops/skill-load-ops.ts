// Skills in the prompt and in use: the bounded directory of names (Penguiflow RFC v0.3 §3.6), loading
// one skill's instructions with reload suppression (Codelia §6.3, §7.2), and reading its bundled files.
import { Buffer } from "node:buffer";
import { z } from "zod";
import { TroveError } from "../errors";
import type { Bundle, BundledSkill } from "../packs/bundle";
import {
  PAGE_ERRORS,
  PageInput,
  PageOutput,
  readPage,
  relativeFilePath,
  unsupportedFile,
} from "../packs/file-pages";
import { sha256Hex } from "../search/hash";
import { unknownSkill } from "../skills/skill-store";
import { specFields } from "../skills/spec-fields";
import type { OpContext } from "./operation";
import { defineOp } from "./operation";
import { fileMime } from "./skill-manifest";
import { compatibilityNote, guardedSpecFields, SpecFieldsSchema } from "./skill-view";
import { TextGuard } from "./text-guard";

const dirOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf("/")));
const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

// ── skill_directory ──────────────────────────────────────────────────────────────────────────────

interface DirectoryRow {
  qid: string;
  name: string;
  title: string;
  trigger: string;
}

const PINNED = `SELECT qid, name, title, trigger FROM trove_skills
  WHERE allowed = 1 AND id IN (SELECT value FROM json_each(?))`;
// Never-used skills follow the used ones, by name: a new session still gets a directory.
const BY_RECENT = `SELECT qid, name, title, trigger FROM trove_skills
  WHERE allowed = 1 AND qid NOT IN (SELECT value FROM json_each(?1))
  ORDER BY last_used IS NULL, last_used DESC, name, qid LIMIT ?2`;
const BY_TOP = `SELECT qid, name, title, trigger FROM trove_skills
  WHERE allowed = 1 AND qid NOT IN (SELECT value FROM json_each(?1))
  ORDER BY use_count DESC, name, qid LIMIT ?2`;
// Names are lowercase by the spec; lower() folds the ASCII ones of other formats as NOCASE would.
const SHARED_NAMES = `SELECT lower(name) AS name FROM trove_skills
  WHERE allowed = 1 AND lower(name) IN (SELECT lower(value) FROM json_each(?)) GROUP BY lower(name) HAVING count(*) > 1`;

/** The directory's skills: pins (pack order, then list order), then by the strategy, capped. */
function directoryRows(ctx: OpContext): { rows: DirectoryRow[]; total: number } {
  const { max_entries: max, selection_strategy: strategy } = ctx.config.get().skills.directory;
  // Pins name skills of their own pack; the store holds only the packs this session may see.
  const pinIds = [...new Set(ctx.bundle.packs.flatMap((p) => p.pinned.map((name) => `${p.name}/${name}`)))];
  const pinned = new Map(
    ctx.sql.all<DirectoryRow>(PINNED, JSON.stringify(ctx.skills.idsOf(pinIds))).map((r) => [r.qid, r]),
  );
  const rows = pinIds.flatMap((id) => pinned.get(id) ?? []).slice(0, max);
  if (rows.length < max) {
    const sql = strategy === "pinned_then_top" ? BY_TOP : BY_RECENT;
    rows.push(...ctx.sql.all<DirectoryRow>(sql, JSON.stringify(rows.map((r) => r.qid)), max - rows.length));
  }
  const total = ctx.skills.size();
  return { rows, total };
}

const byId = new WeakMap<Bundle, Map<string, BundledSkill>>();

/** The bundle's skills by qualified id, made once per bundle. */
function skillsById(bundle: Bundle): Map<string, BundledSkill> {
  let map = byId.get(bundle);
  if (!map) {
    map = new Map(bundle.skills.map((s) => [s.id, s]));
    byId.set(bundle, map);
  }
  return map;
}

/** The `<skill_directory>` prompt block (after RFC v0.3 Appendix A); names shared by packs show as ids. */
function directoryText(ctx: OpContext, rows: readonly DirectoryRow[], total: number): string {
  if (rows.length === 0) return "";
  const shared = new Set(
    ctx.sql
      .all<{ name: string }>(SHARED_NAMES, JSON.stringify([...new Set(rows.map((r) => r.name))]))
      .map((r) => r.name),
  );
  const lines = rows.map((r) => {
    const label = shared.has(r.name.toLowerCase()) ? r.qid : r.name;
    // Agent Skills without a heading have their name as title: the trigger says more.
    const about = r.title === r.name ? oneLine(r.trigger, 120) : oneLine(r.title, 120);
    const skill = skillsById(ctx.bundle).get(r.qid);
    const needs = skill ? compatibilityNote(specFields(skill), 80) : null;
    return `- ${label} — ${about}${needs ? ` (needs: ${needs})` : ""}`;
  });
  const more = total - rows.length;
  return [
    "<skill_directory>",
    "Skills you can use. Before following one, call `skill_load` with its name to read its instructions;",
    "`skill_search` finds skills by what they do.",
    ...lines,
    ...(more > 0
      ? [`${more} more skill${more === 1 ? " is" : "s are"} not listed; use \`skill_search\`.`]
      : []),
    "</skill_directory>",
  ].join("\n");
}

/** The directory block and its entries (also part of `context`); empty when disabled. */
export function renderDirectory(ctx: OpContext): {
  text: string;
  entries: { name: string; id: string; title: string }[];
} {
  const { skills } = ctx.config.get();
  if (!skills.enabled || !skills.directory.enabled) return { text: "", entries: [] };
  const { rows, total } = directoryRows(ctx);
  const guard = new TextGuard(ctx);
  const text = guard.text(directoryText(ctx, rows, total));
  // Recorded when what the model is shown changes; the same directory again is only counted.
  if (rows.length > 0)
    ctx.events.deferChange("skill_directory_rendered", sha256Hex(text), { entries: rows.length }, ctx.now);
  return { text, entries: rows.map((r) => ({ name: r.name, id: r.qid, title: guard.text(r.title) })) };
}

export const skillDirectory = defineOp({
  name: "skill_directory",
  summary: "The bounded <skill_directory> prompt block: pinned skills, then recently used or most used",
  tag: "skills",
  writes: false,
  servesSkills: true,
  input: z.strictObject({}),
  output: z.object({
    text: z.string().describe("Prompt block for the system prompt; empty when the directory is off"),
    entries: z.array(
      z.object({
        name: z.string(),
        id: z.string().describe("Qualified id <pack>/<name>, unique"),
        title: z.string(),
      }),
    ),
  }),
  errors: [],
  example: {
    input: {},
    output: {
      text: "<skill_directory>…</skill_directory>",
      entries: [{ name: "find-tools", id: "core/find-tools", title: "Finding tools with tool_search" }],
    },
  },
  handler: (ctx) => renderDirectory(ctx),
});

// ── skill_load ───────────────────────────────────────────────────────────────────────────────────

interface LoadRow {
  record: string;
}

const BY_IDS = `SELECT record FROM trove_skills
  WHERE allowed = 1 AND id IN (SELECT value FROM json_each(?)) ORDER BY qid`;

/**
 * The skill defined at `path` (its source file, or an Agent Skills folder), relative to the packs
 * directory. Several Penguiflow skills can share one `.skill.jsonl` file: that is a 409.
 */
function skillAtPath(ctx: OpContext, raw: string): BundledSkill {
  const path = raw.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
  const matches = (s: BundledSkill) =>
    s.source === path || (s.origin === "agent_skills" && dirOf(s.source) === path);
  // The bundle narrows the search to a few ids; the store decides what this session sees, and which version.
  const ids = ctx.bundle.skills.filter(matches).map((s) => s.id);
  const found =
    ids.length === 0
      ? []
      : ctx.sql
          .all<LoadRow>(BY_IDS, JSON.stringify(ctx.skills.idsOf(ids)))
          // Written by pack-upsert from a compiled, validated bundle.
          .map((r) => JSON.parse(r.record) as BundledSkill)
          .filter(matches);
  if (found.length === 0) throw unknownSkill(raw, "path");
  if (found.length > 1) {
    throw new TroveError("ambiguous_skill", 409, `several skills are defined in "${raw}": load one by id`, {
      field: "path",
      candidates: found.map((s) => s.id),
    });
  }
  return found[0] as BundledSkill;
}

/** A Penguiflow skill as markdown: what the procedure is for, then its steps. */
export function penguiflowBody(s: BundledSkill): string {
  const lines = [`# ${s.title}`, "", `Use when: ${s.trigger}`];
  if (s.description !== s.trigger) lines.push("", s.description);
  if (s.preconditions.length > 0) lines.push("", "Preconditions:", ...s.preconditions.map((x) => `- ${x}`));
  lines.push("", "Steps:", ...s.steps.map((x, i) => `${i + 1}. ${x}`));
  if (s.failure_modes.length > 0) lines.push("", "Failure modes:", ...s.failure_modes.map((x) => `- ${x}`));
  const notes = s.extra.notes;
  if (typeof notes === "string" && notes.trim() !== "") lines.push("", notes.trim());
  return lines.join("\n");
}

const LOADED = `SELECT content_hash FROM trove_skill_loads WHERE qid = ?`;
const REMEMBER = `INSERT INTO trove_skill_loads (qid, content_hash, at) VALUES (?, ?, ?)
  ON CONFLICT (qid) DO UPDATE SET content_hash = excluded.content_hash, at = excluded.at`;

export const skillLoad = defineOp({
  name: "skill_load",
  summary: "Load one skill's instructions by path or name; a version already loaded returns a reminder",
  tag: "skills",
  writes: true,
  input: z
    .strictObject({
      name: z.string().min(1).max(200).optional().describe("Skill name, or qualified id <pack>/<name>"),
      path: z
        .string()
        .min(1)
        .max(1000)
        .optional()
        .describe(
          "Source path in the packs (e.g. core/find-tools/SKILL.md) or a skill folder; wins over name",
        ),
    })
    .refine((i) => i.name !== undefined || i.path !== undefined, {
      message: "give the skill's name or its path",
      path: ["name"],
    }),
  output: z.discriminatedUnion("reloaded", [
    z.object({
      id: z.string(),
      name: z.string(),
      body: z.string().describe("The instructions: SKILL.md's markdown, or a Penguiflow skill's steps"),
      base_path: z.string().describe("The skill's folder in the packs; its files are relative to it"),
      files: z.array(z.string()).describe("Files bundled with the skill, for skill_read_file"),
      ...SpecFieldsSchema.shape,
      reloaded: z.literal(false),
    }),
    z.object({ id: z.string(), name: z.string(), reminder: z.string(), reloaded: z.literal(true) }),
  ]),
  errors: ["unknown_skill", "ambiguous_skill", "invalid_path"],
  model: {
    description: "Read one skill's full instructions by name (with the files it bundles, if any).",
    // The model names skills; loading by path is for hosts.
    input: z.strictObject({
      name: z.string().min(1).max(200).describe("Skill name from the directory or search"),
    }),
    shown: (has) => has.skills,
    // It only remembers what was loaded (a second load answers a reminder): nothing in the world changes.
    side_effects: "read",
  },
  example: {
    input: { name: "find-tools" },
    output: {
      id: "core/find-tools",
      name: "find-tools",
      body: "# Finding tools with tool_search\n…",
      base_path: "core/find-tools",
      files: ["references/search-types.md"],
      license: null,
      compatibility: null,
      metadata: {},
      allowed_tools: [],
      reloaded: false,
    },
  },
  handler(ctx, input) {
    const skill =
      input.path !== undefined
        ? skillAtPath(ctx, input.path)
        : ctx.skills.resolve(input.name ?? "", "name").skill;
    ctx.skills.markUsed([skill.id], ctx.now);
    const loaded = ctx.sql.one<{ content_hash: string }>(LOADED, skill.id)?.content_hash;
    const reloaded = loaded === skill.content_hash;
    ctx.events.record("skill_loaded", { id: skill.id, reloaded }, ctx.now);
    const base_path = dirOf(skill.source);
    if (reloaded) {
      const files =
        skill.files.length > 0 ? ` Its files (${base_path}/) can be read with skill_read_file.` : "";
      return {
        id: skill.id,
        name: skill.name,
        reminder: `Skill "${skill.id}" is already loaded in this session, unchanged: follow the instructions it returned earlier.${files}`,
        reloaded: true as const,
      };
    }
    ctx.sql.run(REMEMBER, skill.id, skill.content_hash, ctx.now);
    const guard = new TextGuard(ctx);
    const shown = guard.skill(skill);
    return {
      id: skill.id,
      name: skill.name,
      body: shown.body ?? penguiflowBody(shown),
      base_path,
      files: skill.files.map((f) => f.path),
      ...guardedSpecFields(guard, skill),
      reloaded: false as const,
    };
  },
});

// ── skill_read_file ──────────────────────────────────────────────────────────────────────────────

const SkillReadFileInput = z.strictObject({
  skill: z.string().min(1).max(200).describe("Skill name or qualified id <pack>/<name>"),
  path: z.string().min(1).max(1000).describe("Path relative to the skill's folder, as skill_load lists it"),
  ...PageInput,
  base64: z
    .boolean()
    .default(false)
    .describe(
      "The bytes as served, base64-encoded (binary files too); offset and length count base64 characters",
    ),
});

export const skillReadFile = defineOp({
  name: "skill_read_file",
  summary: "Read a file bundled with a skill, a page at a time",
  tag: "skills",
  writes: false,
  servesSkills: true,
  input: SkillReadFileInput,
  output: z.object({
    skill: z.string().describe("The skill's qualified id"),
    ...PageOutput,
    base64: z.literal(true).optional().describe("Present when content is base64"),
  }),
  errors: ["unknown_skill", "ambiguous_skill", ...PAGE_ERRORS],
  model: {
    description: "Read a file a skill bundles (as skill_load lists it), a page at a time.",
    input: SkillReadFileInput.pick({ skill: true, path: true, offset: true }),
    shown: (has) => has.skillsWithFiles,
  },
  example: {
    input: { skill: "core/find-tools", path: "references/search-types.md" },
    output: {
      skill: "core/find-tools",
      path: "references/search-types.md",
      content: "# Search types\n…",
      offset: 0,
      length: 24,
      total: 24,
      truncated: false,
      next_offset: null,
      mime: "text/markdown",
    },
  },
  handler(ctx, input) {
    const path = relativeFilePath(input.path, "the skill's folder");
    // A skill this session cannot see answers exactly like a file that does not exist.
    const unknownFile = () =>
      new TroveError("unknown_file", 404, `no file "${input.path}" in skill "${input.skill}"`, {
        field: "path",
      });
    let skill: BundledSkill;
    try {
      skill = ctx.skills.resolve(input.skill, "skill").skill;
    } catch (err) {
      if (err instanceof TroveError && err.code === "unknown_skill") throw unknownFile();
      throw err;
    }
    const listed = skill.files.find((f) => f.path === path);
    if (!listed) throw unknownFile();
    const key = `${skill.id}/${path}`;
    const text = ctx.bundle.files[key];
    // Offsets count characters of the text as shown (after redaction), so pages join up.
    const shown = text === undefined ? undefined : new TextGuard(ctx).text(text, { skill });
    if (input.base64) {
      // The bytes the MCP Skills extension serves and digests (skill-manifest.ts).
      const bytes =
        shown === undefined ? ctx.bundle.blobs?.[key] : Buffer.from(shown, "utf8").toString("base64");
      if (bytes === undefined) throw unsupportedFile(path, listed.bytes);
      const page = readPage(path, bytes, input.offset, input.length);
      const mime = shown === undefined ? fileMime(path, true) : page.mime;
      return { skill: skill.id, ...page, mime, base64: true as const };
    }
    if (shown === undefined) {
      if (ctx.bundle.blobs?.[key] === undefined) throw unsupportedFile(path, listed.bytes);
      const reason = `"${path}" is not UTF-8 text: read it with base64: true`;
      throw new TroveError("unsupported_file", 415, reason, { field: "path", bytes: listed.bytes });
    }
    return { skill: skill.id, ...readPage(path, shown, input.offset, input.length) };
  },
});
