// What makes a pack attachable (Capability Packs spec §4): its entry doc — resolved, then read for its
// name and description — and the list of the pack's files, whose text the bundle keeps for reading.
import type { BundledPackFile } from "../packs/bundle";
import { EntryFrontmatter, type Member, type PackContext, PENGUIFLOW_FILE } from "./formats";
import {
  byPath,
  check,
  definitionText,
  fileFacts,
  isRecord,
  type Problems,
  splitFrontmatter,
  withoutNulls,
} from "./sources";

/** Where a pack's entry doc came from, in the order of spec §4.2; handled by an exhaustive switch. */
export type EntryChoice =
  | { kind: "configured" | "skill_md" | "readme" | "first_md"; member: Member }
  | { kind: "not_found"; path: string }
  | { kind: "none" };

/** Files that describe the pack to the compiler rather than to the agent. */
const COMPILER_FILES = new Set(["pack.yaml", "tools.json"]);

/**
 * `entry` from pack.yaml, else the root SKILL.md, else the root README.md, else the first root
 * `*.md` by name that is not a Penguiflow `*.skill.md`.
 */
export function resolveEntry(members: readonly Member[], configured: string | undefined): EntryChoice {
  if (configured !== undefined) {
    const member = members.find((m) => m.rel === configured && !COMPILER_FILES.has(m.rel));
    return member ? { kind: "configured", member } : { kind: "not_found", path: configured };
  }
  const root = members.filter((m) => !m.rel.includes("/")).sort((a, b) => byPath(a.rel, b.rel));
  const skill = root.find((m) => m.rel === "SKILL.md");
  if (skill) return { kind: "skill_md", member: skill };
  const readme = root.find((m) => m.rel === "README.md");
  if (readme) return { kind: "readme", member: readme };
  const first = root.find((m) => /\.md$/i.test(m.rel) && !PENGUIFLOW_FILE.test(m.rel));
  return first ? { kind: "first_md", member: first } : { kind: "none" };
}

export interface EntryDoc {
  entry: string;
  name: string;
  description: string;
}

/**
 * Reads the entry doc's frontmatter. A README.md or other plain .md with no frontmatter just means
 * the pack is not attachable; any other problem with the doc warns that it is not (and that its
 * tools.json is not loaded). Only `entry:` naming no file fails: pack.yaml is Trove's own file.
 */
export function readEntry(
  ctx: PackContext,
  choice: EntryChoice,
  hasTools: boolean,
  config: { file: string; line?: number },
): EntryDoc | null {
  switch (choice.kind) {
    case "none":
      return null;
    case "not_found": {
      const reason = `"${choice.path}" is not a doc of this pack`;
      ctx.problems.add("error", config.file, "entry", reason, config.line);
      return null;
    }
    case "configured":
    case "skill_md":
    case "readme":
    case "first_md": {
      const why =
        choice.kind === "configured"
          ? "the entry doc named in pack.yaml"
          : choice.kind === "skill_md"
            ? "a pack's root SKILL.md is its entry doc and"
            : hasTools
              ? "a pack with tools.json needs an entry doc that"
              : null;
      const consequence = hasTools
        ? "the pack is not attachable and its tools are not loaded"
        : "the pack is not attachable";
      return readEntryDoc(ctx, choice.member, why, ctx.problems.demoted(consequence));
    }
    default: {
      const unhandled: never = choice;
      throw new Error(`unhandled entry choice ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The entry doc's name and description; null when it has none, with `problems` saying why. */
function readEntryDoc(
  ctx: PackContext,
  member: Member,
  why: string | null,
  problems: Problems,
): EntryDoc | null {
  const { file } = member;
  const text = definitionText(file, problems);
  const split = text === null ? null : splitFrontmatter(text, file.path, problems);
  if (split === "missing" && why !== null) {
    const reason = `missing: ${why} starts with a --- block holding name and description`;
    problems.add("error", file.path, "frontmatter", reason, 1);
  }
  if (split === null || split === "missing") return null;
  const { bytes } = fileFacts(file.content);
  if (bytes > ctx.maxFileBytes) {
    // The agent reads the entry doc first: one it cannot read makes a pack it cannot use.
    const reason = `${bytes} bytes is over the ${ctx.maxFileBytes}-byte limit for an entry doc`;
    problems.add("error", file.path, "file", reason);
    return null;
  }
  const { source } = split;
  if (isRecord(source.value)) source.value = withoutNulls(source.value);
  const data = check(EntryFrontmatter, source, problems, "frontmatter");
  if (!data) return null;
  // Limits of SKILL.md frontmatter (agentskills.io): past them, a warning, and the text kept whole.
  for (const [key, max] of [
    ["name", 64],
    ["description", 1024],
  ] as const) {
    const length = [...data[key]].length;
    const reason = `${length} characters is over the spec's ${max}; kept whole`;
    if (length > max) ctx.problems.add("warning", file.path, key, reason, source.lineOf([key]));
  }
  return { entry: member.rel, name: data.name, description: data.description };
}

/**
 * Every file of an attachable pack but pack.yaml and tools.json, with the text of the UTF-8 ones
 * within the size limit (binary files are listed quietly: packs may carry images and archives).
 * `quiet` holds files whose skill already reported them.
 */
export function listPackFiles(ctx: PackContext, members: readonly Member[], quiet: ReadonlySet<string>) {
  const files: BundledPackFile[] = [];
  const texts: [string, string][] = [];
  for (const { rel, file } of members) {
    if (COMPILER_FILES.has(rel)) continue;
    const { bytes, sha256, text } = fileFacts(file.content);
    const readable = text !== null && bytes <= ctx.maxFileBytes;
    files.push({ path: rel, bytes, sha256, text: readable });
    if (readable) texts.push([rel, text]);
    else if (text !== null && !quiet.has(rel)) {
      const reason = `${bytes} bytes is over the ${ctx.maxFileBytes}-byte limit; listed, not readable`;
      ctx.problems.add("warning", file.path, "file", reason);
    }
  }
  return { files, texts };
}
