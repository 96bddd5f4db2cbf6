// Reads a tools.json — a pack's tools (Capability Packs spec §7) or a skill's (Nova ADR-014 §1) —
// checking each record with the catalog's own schema, so what the build accepts a session accepts.

import type { BundledTool } from "../packs/bundle";
import { TOOL_NAME, ToolRecord } from "../tools/tool-record";
import type { PackFile } from "./problems";
import {
  check,
  definitionText,
  isRecord,
  type Path,
  type Problems,
  parseJson,
  type Source,
  sortedRecord,
  within,
} from "./sources";

const RECORD_FIELDS = new Set(Object.keys(ToolRecord.shape));

/** The valid tools of one tools.json, with where each was written (for problems found later). */
export interface ToolsFile {
  file: string;
  tools: BundledTool[];
  /** Per tool: its index in the file's list and the line of its name. */
  places: { index: number; line?: number }[];
}

/** Who brings the tools: a pack (its root tools.json) or a skill (the one in its folder). */
export interface ToolOwner {
  kind: "pack" | "skill";
  name: string;
}

/** `<owner>__<name>`: the name a pack's or skill's tool has in a session (ADR-014 §7). */
export const namespacedName = (owner: string, name: string) => `${owner}__${name}`;

/** The list of records: the file itself, or its `tools` member. */
function recordsOf(source: Source, problems: Problems): { list: unknown[]; at: Path } | null {
  if (Array.isArray(source.value)) return { list: source.value, at: [] };
  if (isRecord(source.value) && "tools" in source.value) {
    for (const key of Object.keys(source.value).filter((k) => k !== "tools"))
      problems.add("warning", source.file, key, "unknown field; ignored", source.lineOf([key]));
    if (Array.isArray(source.value.tools)) return { list: source.value.tools, at: ["tools"] };
  }
  const reason = 'must be a list of tool records, or { "tools": [ … ] }';
  problems.add("error", source.file, "tools", reason, source.lineOf(["tools"]) ?? source.lineOf([]));
  return null;
}

/**
 * The record as the catalog takes it: `namespace` is dropped (the owner namespaces pack tools) and
 * other unknown keys — the spec's local execution fields `command`, `args`, `timeout_ms`… — move
 * into `extra`, so nothing an author wrote is lost. Null when a key is written both inside and
 * outside `extra`: which one the tool runs with cannot be guessed.
 */
function asRecord(
  item: Record<string, unknown>,
  source: Source,
  i: number,
  owner: ToolOwner,
  problems: Problems,
) {
  const field = (key: string) => `tools[${i}].${key}`;
  const record: Record<string, unknown> = {};
  const moved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    const line = source.lineOf([key]);
    if (key === "namespace") {
      const reason = `ignored: ${owner.kind} tools are namespaced by their ${owner.kind}`;
      problems.add("warning", source.file, field(key), reason, line);
    } else if (RECORD_FIELDS.has(key)) record[key] = value;
    else {
      problems.add("warning", source.file, field(key), "not a tool record field; kept in extra", line);
      moved[key] = value;
    }
  }
  if (Object.keys(moved).length > 0 && (record.extra === undefined || isRecord(record.extra))) {
    const extra = (record.extra ?? {}) as Record<string, unknown>;
    const twice = Object.keys(moved).filter((k) => k in extra);
    for (const key of twice) {
      const reason = `also set in extra.${key}: keep one`;
      problems.add("error", source.file, field(key), reason, source.lineOf([key]));
    }
    if (twice.length > 0) return null;
    record.extra = sortedRecord({ ...moved, ...extra });
  }
  return record;
}

/**
 * Validates a tools.json: `[{…}, …]` or `{ "tools": [{…}, …] }`, each a tool record. The owner's
 * name checks the namespaced names. Problems are warnings: a tool with one is left out, and a file
 * that is not a list of records brings no tools; the pack or skill still loads.
 *
 * @example
 * const content = '[{"name": "restart", "description": "Restart it."}]';
 * readToolsJson({ path: "ops/tools.json", content }, { kind: "pack", name: "ops" }, new Problems())
 *   .tools; // [{ name: "restart", description: "Restart it." }]
 */
export function readToolsJson(file: PackFile, owner: ToolOwner, all: Problems): ToolsFile {
  const out: ToolsFile = { file: file.path, tools: [], places: [] };
  const none = all.demoted("no tools loaded from this file");
  const problems = all.demoted("tool left out");
  const text = definitionText(file, none);
  const source = text === null ? null : parseJson(text, file.path, 1, none);
  const records = source && recordsOf(source, none);
  if (!source || !records) return out;
  const firstLine = new Map<string, number | undefined>();
  records.list.forEach((item, i) => {
    const path = [...records.at, i];
    const line = source.lineOf(path);
    if (!isRecord(item)) {
      const reason = "must be a tool record (an object with name and description)";
      problems.add("error", file.path, `tools[${i}]`, reason, line);
      return;
    }
    const located = within(source, path, item);
    located.value = asRecord(item, located, i, owner, problems);
    if (located.value === null) return;
    const parsed = check(ToolRecord, located, problems, `tools[${i}]`, ["tools", i]);
    if (!parsed) return;
    const nameLine = located.lineOf(["name"]);
    if (firstLine.has(parsed.name)) {
      const first = firstLine.get(parsed.name);
      const reason = `duplicate tool "${parsed.name}"${first === undefined ? "" : ` (first at line ${first})`}`;
      problems.add("error", file.path, `tools[${i}].name`, reason, nameLine);
      return;
    }
    firstLine.set(parsed.name, nameLine);
    const namespaced = namespacedName(owner.name, parsed.name);
    if (!TOOL_NAME.test(namespaced)) {
      const reason = `namespaced as "${namespaced}", which must match ${TOOL_NAME.source} (at most 128 characters)`;
      problems.add("error", file.path, `tools[${i}].name`, reason, nameLine);
      return;
    }
    out.tools.push(parsed);
    out.places.push(nameLine === undefined ? { index: i } : { index: i, line: nameLine });
  });
  return out;
}
