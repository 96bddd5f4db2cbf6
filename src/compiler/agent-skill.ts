// Reads an Agent Skills folder (agentskills.io): SKILL.md's frontmatter and body, an optional
// tools.json and the folder's other files, into a draft skill record (used by compile.ts). Lenient as
// the spec's client guide asks: what breaks the spec warns and loads; only a skill that cannot be
// listed or chosen — no name, no description, frontmatter that does not parse — is skipped.

import {
  baseOf,
  bundleFiles,
  type Draft,
  firstHeading,
  type Member,
  type PackContext,
  type SkillDraft,
} from "./formats";
import type { PackFile } from "./problems";
import {
  definitionText,
  fieldName,
  isRecord,
  nearestLine,
  type Path,
  type Problems,
  type Source,
  sortedRecord,
  splitFrontmatter,
  withoutNulls,
} from "./sources";
import { readToolsJson } from "./tools-json";

/**
 * Names as the reference validator reads them (skills-ref validator.py): in NFKC form, 1–64
 * characters, lowercase, letters and digits of any script (`café-notes`, `技能`) and hyphens, with no
 * hyphen at either end or twice in a row.
 *
 * @example
 * isAgentSkillName("café-notes"); // true
 * isAgentSkillName("PDF_Forms"); // false: uppercase and "_"
 */
export function isAgentSkillName(name: string): boolean {
  return (
    [...name].length <= 64 && name === name.toLowerCase() && /^[\p{L}\p{N}]+(-[\p{L}\p{N}]+)*$/u.test(name)
  );
}
const NAME_RULE =
  "1–64 lowercase letters or digits of any script and single hyphens, with no hyphen at either end";

/** The specification's limits, in characters (code points, as the validator counts). */
const MAX_DESCRIPTION = 1024;
const MAX_COMPATIBILITY = 500;

/** The frontmatter fields of the specification; any other is kept in `extra` with a warning. */
const SPEC_FIELDS = new Set(["name", "description", "license", "compatibility", "metadata", "allowed-tools"]);

const characters = (text: string) => [...text].length;

/** A scalar field as text (a number as it was written: `name: 2048`); null when it is not text. */
function textField(source: Source, fields: Record<string, unknown>, key: string): string | undefined | null {
  const value = fields[key];
  if (value === undefined || typeof value === "string") return value;
  return typeof value === "number" ? (source.scalarSource([key]) ?? String(value)) : null;
}

/** The skill's name in NFKC form: written, else its folder's; null (reported) when it has none. */
function nameOf(
  file: string,
  folder: string,
  source: Source,
  fields: Record<string, unknown>,
  problems: Problems,
) {
  const skip = problems.demoted("skill skipped");
  const written = textField(source, fields, "name");
  const line = nearestLine(source, ["name"]);
  const folderName = folder.normalize("NFKC");
  if (written === null) {
    skip.add("error", file, "name", "must be a string", line);
    return null;
  }
  if (written === undefined || written.trim() === "") {
    if (!isAgentSkillName(folderName)) {
      skip.add("error", file, "name", `missing, and the folder name "${folder}" is not ${NAME_RULE}`, line);
      return null;
    }
    problems.add("warning", file, "name", `missing; using the folder name "${folderName}"`, line);
    return folderName;
  }
  const name = written.trim().normalize("NFKC");
  if (!isAgentSkillName(name)) {
    problems.add("warning", file, "name", `"${name}" breaks the spec's rule (${NAME_RULE}); kept`, line);
  }
  if (name !== folderName) {
    problems.add("warning", file, "name", `"${name}" differs from its folder "${folder}"; kept`, line);
  }
  return name;
}

/** The trimmed description, whole even past the spec's limit; null (reported) when it has none. */
function descriptionOf(file: string, source: Source, fields: Record<string, unknown>, problems: Problems) {
  const skip = problems.demoted("skill skipped");
  const written = textField(source, fields, "description");
  const line = nearestLine(source, ["description"]);
  const description = written?.trim();
  if (!description) {
    skip.add("error", file, "description", written === null ? "must be a string" : "missing", line);
    return null;
  }
  const length = characters(description);
  if (length > MAX_DESCRIPTION) {
    const reason = `${length} characters is over the spec's ${MAX_DESCRIPTION}; kept whole`;
    problems.add("warning", file, "description", reason, line);
  }
  return description;
}

/** Warns about the optional fields the spec defines and any it does not; all are kept as written. */
function checkOtherFields(file: string, source: Source, fields: Record<string, unknown>, problems: Problems) {
  const warn = (path: Path, reason: string) =>
    problems.add("warning", file, fieldName(path), reason, source.lineOf(path));
  for (const key of Object.keys(fields).filter((k) => !SPEC_FIELDS.has(k))) {
    warn([key], "not an Agent Skills field; kept in extra");
  }
  const { license, compatibility, metadata } = fields;
  if (license !== undefined && typeof license !== "string")
    warn(["license"], "should be a string; kept as written");
  if (compatibility !== undefined && typeof compatibility !== "string") {
    warn(["compatibility"], "should be a string; kept as written");
  } else if (typeof compatibility === "string" && characters(compatibility) > MAX_COMPATIBILITY) {
    const reason = `${characters(compatibility)} characters is over the spec's ${MAX_COMPATIBILITY}; kept`;
    warn(["compatibility"], reason);
  }
  if (metadata !== undefined && !isRecord(metadata))
    warn(["metadata"], "should be a mapping of strings; kept as written");
  // The spec writes a space-separated string; many skills write a YAML list. Both are read.
  const tools = fields["allowed-tools"];
  const isName = (t: unknown) => typeof t === "string" && t.trim() !== "";
  if (tools !== undefined && typeof tools !== "string" && !(Array.isArray(tools) && tools.every(isName))) {
    warn(
      ["allowed-tools"],
      "should be a space-separated string of tool names or a list of them; kept as written",
    );
  }
}

/**
 * `metadata` as the spec reads it, a map of strings: a number or true/false as it was written
 * (`version: 1.0` is the number 1 to YAML, "1.0" to the reference parser); other values as they are.
 */
function metadataOf(file: string, source: Source, metadata: Record<string, unknown>, problems: Problems) {
  return Object.fromEntries(
    Object.entries(metadata).map(([key, value]) => {
      const path = ["metadata", key];
      const scalar = typeof value === "number" || typeof value === "boolean";
      const text = scalar ? source.scalarSource(path) : undefined;
      const reason =
        text === undefined ? "should be a string; kept as written" : `should be a string; read as "${text}"`;
      if (typeof value !== "string")
        problems.add("warning", file, fieldName(path), reason, source.lineOf(path));
      return [key, text ?? value];
    }),
  );
}

/**
 * An Agent Skills folder: SKILL.md (frontmatter + instructions), an optional tools.json beside it,
 * and the files beside and below it. Null when the skill is skipped (the reason is reported).
 *
 * @example
 * // packs/docs/pdf-forms/{SKILL.md, references/fields.md}
 * readAgentSkill(ctx, skillMd, "pdf-forms", members)?.skill.id; // "docs/pdf-forms"
 */
export function readAgentSkill(
  ctx: PackContext,
  file: PackFile,
  dir: string,
  members: readonly Member[],
): Draft | null {
  const { problems } = ctx;
  const skip = problems.demoted("skill skipped");
  const text = definitionText(file, skip);
  const split = text === null ? null : splitFrontmatter(text, file.path, skip);
  if (split === "missing") {
    const reason = "missing: SKILL.md starts with a --- block holding name and description";
    skip.add("error", file.path, "frontmatter", reason, 1);
  }
  if (split === null || split === "missing") return null;
  const { source, body, repaired } = split;
  if (!isRecord(source.value)) {
    skip.add("error", file.path, "frontmatter", "must be a mapping of fields", source.lineOf([]));
    return null;
  }
  const fields = withoutNulls(source.value);
  const name = nameOf(file.path, baseOf(dir), source, fields, problems);
  const description = descriptionOf(file.path, source, fields, problems);
  if (name === null || description === null) return null;
  checkOtherFields(file.path, source, fields, problems);
  if (isRecord(fields.metadata)) fields.metadata = metadataOf(file.path, source, fields.metadata, problems);
  const markdown = body.replace(/^\s*\n/, "").trimEnd();
  const toolsFile = members.find((m) => m.rel === `${dir}/tools.json`);
  const tools = toolsFile && readToolsJson(toolsFile.file, { kind: "skill", name }, problems);
  const { files, texts, blobs } = bundleFiles(
    ctx,
    dir,
    members.filter((m) => m !== toolsFile),
  );
  const extra = Object.entries(fields).filter(([key]) => key !== "name" && key !== "description");
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
  const skillMd = skillMdOf(text as string, body, markdown, source.value, repaired);
  return { skill, texts, blobs, skillMd, line: source.lineOf(["name"]), tools };
}

/**
 * SKILL.md around its body, so the file can be served as written with its frontmatter verbatim
 * (MCP Skills extension, SEP-2640 "Frontmatter"). Frontmatter that YAML refused and Trove read after
 * quoting (unquotedColons) is written out as JSON, which is YAML too: a host parsing the served file
 * then reads the fields Trove read.
 */
function skillMdOf(
  text: string,
  body: string,
  markdown: string,
  frontmatter: Record<string, unknown>,
  repaired: boolean,
): NonNullable<Draft["skillMd"]> {
  const lead = body.slice(0, body.length - body.replace(/^\s*\n/, "").length);
  const fence = text.slice(0, text.length - body.length);
  const fields = JSON.parse(JSON.stringify(frontmatter)) as Record<string, unknown>;
  const head = repaired ? `---\n${JSON.stringify(fields)}\n---\n${lead}` : fence + lead;
  return { head, tail: body.slice(lead.length + markdown.length), frontmatter: fields };
}
