// Parsing pack files with line numbers (YAML, JSON, frontmatter) and reading them as text; problems
// are collected, never thrown. Used by the pack compiler (compile.ts).
import { createHash } from "node:crypto";
import { type Document, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { z } from "zod";
import type { PackFile, PackProblem } from "./problems";

// ── Problems and parsed sources ──────────────────────────────────────────────────────────────────

export type Path = readonly PropertyKey[];

export class Problems {
  constructor(
    readonly errors: PackProblem[] = [],
    readonly warnings: PackProblem[] = [],
    /** Set on a demoted view: what is given up instead of failing the build. */
    private readonly consequence?: string,
  ) {}

  add(level: "error" | "warning", file: string, field: string, reason: string, line?: number): void {
    const demote = level === "error" && this.consequence !== undefined;
    const text = demote ? `${reason}; ${this.consequence}` : reason;
    (level === "error" && !demote ? this.errors : this.warnings).push(
      line === undefined ? { file, field, reason: text } : { file, line, field, reason: text },
    );
  }

  /**
   * The same lists, with what would be an error reported as a warning that ends with what is given
   * up (`; skill skipped`, `; tool left out`): a problem in one skill or tool never fails the build
   * (agentskills.io client guide, "Lenient validation").
   */
  demoted(consequence: string): Problems {
    return new Problems(this.errors, this.warnings, consequence);
  }
}

/** A parsed definition and where its fields were written. */
export interface Source {
  file: string;
  value: unknown;
  lineOf(path: Path): number | undefined;
  /** The text a scalar was written as (`version: 1.10` is the number 1.1 but was written "1.10"). */
  scalarSource(path: Path): string | undefined;
}

export const fieldName = (path: Path) =>
  path.reduce<string>(
    (name, key) =>
      typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key),
    "",
  );

/** The line of `path`, or of the nearest enclosing value when the field is missing. */
export function nearestLine(source: Source, path: Path): number | undefined {
  for (let n = path.length; n >= 0; n--) {
    const line = source.lineOf(path.slice(0, n));
    if (line !== undefined) return line;
  }
  return undefined;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
};

const plural = (n: number | bigint, unit: string) => `${n} ${unit}${n === 1 || n === 1n ? "" : "s"}`;
const UNITS: Record<string, string> = { string: "character", array: "item", set: "item" };

/** Plain words for zod's default messages; a schema's own messages take precedence over these. */
const plainMessages: z.core.$ZodErrorMap = (issue) => {
  const unit = UNITS[String("origin" in issue ? issue.origin : "")];
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined
        ? "is required"
        : `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "invalid_value":
      return `must be ${issue.values.length === 1 ? "" : "one of "}${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_big":
      return unit ? `must have at most ${plural(issue.maximum, unit)}` : `must be at most ${issue.maximum}`;
    case "too_small":
      return unit ? `must have at least ${plural(issue.minimum, unit)}` : `must be at least ${issue.minimum}`;
    case "unrecognized_keys":
      return `unknown field${issue.keys.length === 1 ? "" : "s"} ${issue.keys.join(", ")}`;
    default:
      return undefined;
  }
};

/**
 * Validates, reporting every issue with its field and line; undefined when anything failed. `at` is
 * the field path shown before each issue's own (`tools[1]` for one record of a list).
 */
export function check<T>(
  schema: z.ZodType<T>,
  source: Source,
  problems: Problems,
  root: string,
  at: Path = [],
): T | undefined {
  const result = schema.safeParse(source.value, { error: plainMessages });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    problems.add(
      "error",
      source.file,
      fieldName([...at, ...issue.path]) || root,
      issue.message,
      nearestLine(source, issue.path),
    );
  }
  return undefined;
}

/**
 * Validates a skill definition leniently: a problem with the value as a whole or with one of the
 * `essential` fields skips the skill; a problem with another field drops that field. Every problem
 * is a warning naming what was given up; undefined when the skill is skipped.
 */
export function checkSkill<T>(
  schema: z.ZodType<T>,
  source: Source,
  problems: Problems,
  root: string,
  essential: ReadonlySet<string>,
): T | undefined {
  const first = schema.safeParse(source.value, { error: plainMessages });
  if (first.success) return first.data;
  const fatal = (issue: z.core.$ZodIssue) => issue.path.length === 0 || essential.has(String(issue.path[0]));
  const skip = problems.demoted("skill skipped");
  const ignore = problems.demoted("ignored");
  for (const issue of first.error.issues) {
    const field = fieldName(issue.path) || root;
    (fatal(issue) ? skip : ignore).add(
      "error",
      source.file,
      field,
      issue.message,
      nearestLine(source, issue.path),
    );
  }
  if (first.error.issues.some(fatal) || !isRecord(source.value)) return undefined;
  const dropped = new Set(first.error.issues.map((issue) => String(issue.path[0])));
  const rest = Object.fromEntries(Object.entries(source.value).filter(([key]) => !dropped.has(key)));
  return check(schema, { ...source, value: rest }, skip, root);
}

/** The part of a source at `path`, with lines still looked up in the whole file. */
export function within(source: Source, path: Path, value: unknown): Source {
  return {
    file: source.file,
    value,
    lineOf: (rest) => source.lineOf([...path, ...rest]),
    scalarSource: () => undefined,
  };
}

export function offsetOf(doc: Document, path: Path): number | undefined {
  let node: unknown = doc.contents;
  let offset = isNode(node) ? node.range?.[0] : undefined;
  for (const key of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
      if (!pair) return undefined;
      offset = isNode(pair.key) ? pair.key.range?.[0] : undefined;
      node = pair.value;
    } else if (isSeq(node) && typeof key === "number") {
      node = node.items[key];
      offset = isNode(node) ? node.range?.[0] : undefined;
    } else return undefined;
  }
  return offset;
}

/** Parses YAML that starts on line `firstLine` of `file`; null (errors reported) when it does not parse. */
export function parseYaml(
  text: string,
  file: string,
  firstLine: number,
  field: string,
  problems: Problems,
): Source | null {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false });
  const lineAt = (offset: number) => counter.linePos(offset).line + firstLine - 1;
  for (const e of doc.errors) problems.add("error", file, field, e.message, lineAt(e.pos[0]));
  if (doc.errors.length > 0) return null;
  for (const w of doc.warnings) problems.add("warning", file, field, w.message, lineAt(w.pos[0]));
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    problems.add("error", file, field, (e as Error).message, firstLine);
    return null;
  }
  return {
    file,
    value,
    lineOf: (path) => {
      const offset = offsetOf(doc, path);
      return offset === undefined ? undefined : lineAt(offset);
    },
    scalarSource: (path) => {
      const node = doc.getIn(path, true);
      return isScalar(node) && typeof node.source === "string" ? node.source : undefined;
    },
  };
}

/** Parses JSON starting on line `firstLine`; field lines come from reading the same text as YAML. */
export function parseJson(text: string, file: string, firstLine: number, problems: Problems): Source | null {
  let located: Source | null | undefined;
  const asYaml = () => {
    located ??= parseYaml(text, file, firstLine, "json", new Problems());
    return located;
  };
  try {
    const value: unknown = JSON.parse(text);
    return {
      file,
      value,
      // Undefined for a missing field, so nearestLine can fall back to the value around it.
      lineOf: (path) => {
        const yaml = asYaml();
        return yaml ? yaml.lineOf(path) : firstLine;
      },
      scalarSource: () => undefined,
    };
  } catch (e) {
    const message = (e as Error).message;
    const position = /at position (\d+)/.exec(message)?.[1];
    const yamlErrors = new Problems();
    if (position === undefined) parseYaml(text, file, firstLine, "json", yamlErrors);
    const line =
      position !== undefined
        ? firstLine + (text.slice(0, Number(position)).match(/\n/g)?.length ?? 0)
        : (yamlErrors.errors[0]?.line ?? firstLine);
    const reason = message
      .replace(/, ".*" is not valid JSON$/s, "")
      .replace(/ in JSON at position \d+.*$/s, "");
    problems.add("error", file, "json", `invalid JSON: ${reason}`, line);
    return null;
  }
}

/** A `---` YAML block at the top of a markdown file, and the markdown after it. */
export function splitFrontmatter(
  text: string,
  file: string,
  problems: Problems,
): { source: Source; body: string; repaired: boolean } | "missing" | null {
  const lines = text.split("\n");
  if (lines[0]?.trimEnd() !== "---") return "missing";
  const end = lines.findIndex((line, i) => i > 0 && line.trimEnd() === "---");
  if (end < 0) {
    problems.add("error", file, "frontmatter", "not closed: add a line with --- after the fields", 1);
    return null;
  }
  const yaml = lines.slice(1, end).join("\n");
  const first = new Problems();
  const parsed = parseYaml(yaml, file, 2, "frontmatter", first);
  const source = parsed ?? unquotedColons(yaml, file, problems);
  // The first reading's warnings when it parsed; its errors too when nothing did.
  for (const e of source ? [] : first.errors) problems.add("error", e.file, e.field, e.reason, e.line);
  for (const w of parsed || !source ? first.warnings : [])
    problems.add("warning", w.file, w.field, w.reason, w.line);
  if (!source) return null;
  if (source.value === null || source.value === undefined) source.value = {};
  return { source, body: lines.slice(end + 1).join("\n"), repaired: parsed === null };
}

/** `key: value` at the top level, with a plain value (not quoted, a block, a flow or a tag). */
const TOP_LEVEL_PLAIN = /^([A-Za-z0-9_-]+):[ \t]+([^\s"'|>[{&*!#%@`].*)$/;

/**
 * Frontmatter written for lenient parsers often holds `description: Use when: …`, which YAML
 * refuses ("Nested mappings are not allowed in compact mappings"). As the agentskills.io client guide
 * suggests, such values are read again as quoted text, with a warning. Null when there is no such
 * value or the text still does not parse (the caller then reports the first reading's problems).
 */
function unquotedColons(yaml: string, file: string, problems: Problems): Source | null {
  const quoted: { key: string; line: number }[] = [];
  const repaired = yaml.split("\n").map((line, i) => {
    const [match, key = "", value = ""] = TOP_LEVEL_PLAIN.exec(line.trimEnd()) ?? [];
    if (match === undefined || !/:(\s|$)/.test(value)) return line;
    quoted.push({ key, line: i + 2 });
    return `${key}: ${JSON.stringify(value)}`;
  });
  const retry = new Problems();
  const source = quoted.length > 0 ? parseYaml(repaired.join("\n"), file, 2, "frontmatter", retry) : null;
  if (!source) return null;
  for (const { key, line } of quoted) {
    const reason = 'a plain value may not hold ": " in YAML; read as quoted text';
    problems.add("warning", file, key, reason, line);
  }
  for (const w of retry.warnings) problems.add("warning", w.file, w.field, w.reason, w.line);
  return source;
}

// ── Text and bytes ───────────────────────────────────────────────────────────────────────────────

export const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The file's text, or null when it is not UTF-8 text (invalid bytes, or NUL as binaries have). */
export function textOf(content: string | Uint8Array): string | null {
  let text: string;
  if (typeof content === "string") {
    if (LONE_SURROGATE.test(content)) return null;
    text = content;
  } else {
    try {
      text = utf8.decode(content);
    } catch {
      return null;
    }
  }
  return text.includes("\0") ? null : text;
}

export const bytesOf = (content: string | Uint8Array) =>
  typeof content === "string" ? new TextEncoder().encode(content) : content;

/** What a bundle records of a file: its size, the sha256 of its bytes, and its text when it has one. */
export function fileFacts(content: string | Uint8Array) {
  const bytes = bytesOf(content);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  return { bytes: bytes.length, sha256, text: textOf(content) };
}

/** A definition file's text with a leading BOM dropped and CRLF line ends made LF (stable hashes). */
export function definitionText(file: PackFile, problems: Problems): string | null {
  const text = textOf(file.content);
  if (text === null) problems.add("error", file.path, "file", "not UTF-8 text");
  return text?.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n") ?? null;
}

export const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const withoutNulls = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
export const sortedRecord = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).sort(([a], [b]) => byPath(a, b)));
