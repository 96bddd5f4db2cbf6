// Reads a Nova skill folder (ADR-014 §1): manifest.yaml, instructions.md, and optionally tools.json,
// config.yaml and other files, into a draft skill record (used by compile.ts).
import {
  baseOf,
  bundleFiles,
  type Draft,
  type Member,
  NOVA_ESSENTIAL,
  NOVA_SKILL_NAME,
  NOVA_SKILL_NAME_RULE,
  NovaManifest,
  type PackContext,
  type SkillDraft,
} from "./formats";
import {
  checkSkill,
  definitionText,
  isRecord,
  nearestLine,
  type Problems,
  parseYaml,
  type Source,
  sortedRecord,
  withoutNulls,
} from "./sources";
import { readToolsJson } from "./tools-json";

/** The files of a Nova folder that make up the skill itself rather than being bundled with it. */
const PARTS = ["manifest.yaml", "instructions.md", "tools.json", "config.yaml"];

/** config.yaml: skill-specific defaults (ADR-014 §9), kept as `extra.config`; ignored when unreadable. */
function readConfig(ctx: PackContext, member: Member | undefined): Record<string, unknown> | undefined {
  const ignore = ctx.problems.demoted("config.yaml ignored");
  const text = member && definitionText(member.file, ignore);
  const source = member && text != null ? parseYaml(text, member.file.path, 1, "yaml", ignore) : null;
  if (!source || source.value === null) return undefined;
  if (isRecord(source.value)) return source.value;
  ignore.add("error", source.file, "config", "must be a mapping of settings", source.lineOf([]));
  return undefined;
}

/**
 * What breaks ADR-014's rules but leaves the skill usable — a name off the pattern or other than the
 * folder's, a description over 1024 characters — warns; the text is kept as written. Reported even
 * when the skill is skipped for another reason, so one build lists every problem.
 */
function warnOnNameAndDescription(source: Source, folder: string, problems: Problems) {
  const fields = isRecord(source.value) ? source.value : {};
  const text = (key: string) => (typeof fields[key] === "string" ? fields[key].trim() : "");
  const [name, description] = [text("name"), text("description")];
  const warn = (field: string, reason: string) =>
    problems.add("warning", source.file, field, reason, source.lineOf([field]));
  if (name && !NOVA_SKILL_NAME.test(name))
    warn("name", `"${name}" breaks ADR-014's rule (${NOVA_SKILL_NAME_RULE}); kept`);
  if (name && name !== folder) warn("name", `"${name}" differs from its folder "${folder}"; kept`);
  const length = [...description].length;
  if (length > 1024) warn("description", `${length} characters is over 1024; kept whole`);
}

/**
 * A folder with manifest.yaml: the manifest names and advertises the skill, instructions.md is its
 * body, tools.json its tools (namespaced `<skill name>__<tool>`), config.yaml goes to `extra.config`.
 *
 * @example
 * // packs/hr/employee_onboarding/{manifest.yaml, instructions.md, tools.json}
 * readNovaSkill(ctx, manifest, "employee_onboarding", members)?.skill.id; // "hr/employee_onboarding"
 */
export function readNovaSkill(
  ctx: PackContext,
  manifest: Member,
  dir: string,
  members: readonly Member[],
): Draft | null {
  const { problems } = ctx;
  const skip = problems.demoted("skill skipped");
  const part = (name: string) => members.find((m) => m.rel === `${dir}/${name}`);
  const text = definitionText(manifest.file, skip);
  const source = text === null ? null : parseYaml(text, manifest.file.path, 1, "yaml", skip);
  const instructions = part("instructions.md");
  if (!instructions) {
    const reason = "missing: a Nova skill folder holds instructions.md beside manifest.yaml";
    skip.add("error", manifest.file.path, "instructions.md", reason);
  }
  const config = readConfig(ctx, part("config.yaml"));
  if (!source) return null;
  if (source.value === null) source.value = {};
  if (isRecord(source.value)) {
    const fields = withoutNulls(source.value);
    // `version: 1.10` must stay "1.10", as in pack.yaml.
    if (typeof fields.version === "number") fields.version = source.scalarSource(["version"]);
    source.value = fields;
  }
  const data = checkSkill(NovaManifest, source, problems, "manifest", NOVA_ESSENTIAL);
  warnOnNameAndDescription(source, baseOf(dir), problems);
  const body = instructions && definitionText(instructions.file, skip);
  if (!data || !instructions || body == null) return null;
  const { name, description, version, author, tags, ...unknown } = data;
  if ("config" in unknown && config !== undefined) {
    const reason = "replaced by config.yaml";
    problems.add("warning", manifest.file.path, "config", reason, nearestLine(source, ["config"]));
  }
  const instructionsText = body.replace(/^\s*\n/, "").trimEnd();
  if (instructionsText === "") {
    const reason = "empty: enabling the skill gives the agent no instructions";
    problems.add("warning", instructions.file.path, "file", reason);
  }
  const toolsFile = part("tools.json");
  const tools = toolsFile && readToolsJson(toolsFile.file, { kind: "skill", name }, problems);
  const others = members.filter((m) => !PARTS.some((p) => m.rel === `${dir}/${p}`));
  const script = others.find((m) => m.rel === `${dir}/tools.py`);
  if (script && !toolsFile) {
    const reason = "Trove does not load tools.py; declare the skill's tools in tools.json (kept as a file)";
    problems.add("warning", script.file.path, "file", reason);
  }
  const { files, texts, blobs } = bundleFiles(ctx, dir, others);
  const extra = { ...unknown, version, author, config };
  const skill: SkillDraft = {
    id: `${ctx.pack}/${name}`,
    name,
    pack: ctx.pack,
    title: name,
    description,
    trigger: description,
    task_type: null,
    tags: tags ?? [],
    steps: [],
    body: instructionsText,
    preconditions: [],
    failure_modes: [],
    files,
    origin: "nova",
    tools: tools?.tools ?? [],
    source: manifest.file.path,
    extra: sortedRecord(Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== undefined))),
  };
  return { skill, texts, blobs, line: source.lineOf(["name"]), tools };
}
