// Hostile input to the capability-pack operations: list, attach, detach, open_docs, read_file
// (path traversal in every spelling, binary and compiler files) and enable_tools.
import { error, type HostileCase, huge, invalid, MB, ok, post, TRAVERSAL, UNICODE } from "./cases";

const unknownPack = error(404, "unknown_pack", "pack_id");
const notAttached = error(409, "pack_not_attached", "pack_id");
const BAD_IDS: [string, unknown][] = [
  ["an empty pack id", ""],
  ["a 65-character pack id", huge(65)],
  ["a 1 MB pack id", huge(MB)],
  ["a numeric pack id", 7],
  ["a null pack id", null],
  ["an array pack id", ["incident"]],
];
const HOSTILE_IDS: [string, string][] = [
  ["an upper-case id", "INCIDENT"],
  ["a path-traversal id", "../incident"],
  ["an id with a slash", "incident/docs"],
  ["the __proto__ id", "__proto__"],
  ["a glob", "*"],
  ["an id with a NUL", "incident\u0000"],
  ...UNICODE.slice(0, 3).map(([label, text]): [string, string] => [`an id with ${label}`, `incident${text}`]),
];
/** The checks every pack operation shares: bad ids, unknown ids, an unknown field. */
const shared = (op: string, extra: Record<string, unknown> = {}): HostileCase[] => [
  ...BAD_IDS.slice(0, op === "pack_attach" || op === "pack_read_file" ? 6 : 3).map(([label, pack_id]) =>
    post(op, label, { pack_id, ...extra }, invalid("pack_id")),
  ),
  ...HOSTILE_IDS.slice(0, op === "pack_attach" || op === "pack_read_file" ? HOSTILE_IDS.length : 4).map(
    ([label, pack_id]) => post(op, label, { pack_id, ...extra }, unknownPack),
  ),
  post(op, "no pack id", { ...extra }, invalid("pack_id")),
  post(op, "an unknown field", { pack_id: "incident", ...extra, version: "2" }, invalid("version")),
];

const list: HostileCase[] = [
  post("pack_list", "an unknown filter field", { attached: true }, invalid("attached")),
  post("pack_list", "an array body", "[]", invalid("")),
  post("pack_list", "a string body", '"incident"', invalid("")),
  post("pack_list", "an own __proto__ key", '{"__proto__":{"admin":true}}', invalid("__proto__")),
  post(
    "pack_list",
    "an empty object lists only what this session may see",
    {},
    ok((j) =>
      JSON.stringify(j.packs.map((p: { pack_id: string }) => p.pack_id).sort()) === '["incident","spare"]'
        ? undefined
        : `listed ${JSON.stringify(j.packs)}`,
    ),
  ),
];

const attach: HostileCase[] = [
  ...shared("pack_attach"),
  post("pack_attach", "a pack of skills only (not attachable)", { pack_id: "docs" }, unknownPack),
  post(
    "pack_attach",
    "an attached pack again changes nothing",
    { pack_id: "incident" },
    ok((j) => (j.changed === false ? undefined : "changed")),
  ),
];

const detach: HostileCase[] = [
  ...shared("pack_detach"),
  post("pack_detach", "a pack of skills only", { pack_id: "hr" }, unknownPack),
  post(
    "pack_detach",
    "a pack that is not attached changes nothing",
    { pack_id: "spare" },
    ok((j) => (j.changed === false ? undefined : "changed")),
  ),
];

const openDocs: HostileCase[] = [
  ...shared("pack_open_docs"),
  post("pack_open_docs", "a pack that is not attached", { pack_id: "spare" }, notAttached),
  post("pack_open_docs", "an extra path field", { pack_id: "incident", path: "../../etc" }, invalid("path")),
  post(
    "pack_open_docs",
    "the attached pack lists no compiler file",
    { pack_id: "incident" },
    ok((j) => {
      const paths = j.files.map((f: { path: string }) => f.path);
      return paths.includes("tools.json") || paths.includes("pack.yaml")
        ? "listed a compiler file"
        : undefined;
    }),
  ),
];

/** pack_read_file of the attached pack at `path`. */
const read = (name: string, path: string, expect: HostileCase["expect"]): HostileCase =>
  post("pack_read_file", name, { pack_id: "incident", path }, expect);
const runbook = ok((j) => (j.content?.startsWith("# Runbook") ? undefined : "not the runbook"));

const readFile: HostileCase[] = [
  ...shared("pack_read_file", { path: "docs/runbook.md" }),
  ...TRAVERSAL.map(([label, path, kind]) =>
    read(
      `path: ${label}`,
      path,
      kind === "invalid" ? error(400, "invalid_path", "path") : error(404, "unknown_file", "path"),
    ),
  ),
  read("the pack's tools.json is not a file of the pack", "tools.json", error(404, "unknown_file", "path")),
  read("the pack's pack.yaml is not a file of the pack", "pack.yaml", error(404, "unknown_file", "path")),
  read("another pack's file through dot-dot", "../spare/SKILL.md", error(400, "invalid_path", "path")),
  read("a binary file", "resources/logo.bin", error(415, "unsupported_file", "path")),
  read("a 1,001-character path", huge(1001), invalid("path")),
  read("a 1 MB path", huge(MB, "%2e%2e/"), invalid("path")),
  post("pack_read_file", "a pack that is not attached", { pack_id: "spare", path: "SKILL.md" }, notAttached),
  post(
    "pack_read_file",
    "an offset past the end",
    { pack_id: "incident", path: "docs/runbook.md", offset: 1_000_000 },
    error(400, "invalid_offset", "offset"),
  ),
  post(
    "pack_read_file",
    "a fractional offset",
    { pack_id: "incident", path: "docs/runbook.md", offset: 0.5 },
    invalid("offset"),
  ),
  post(
    "pack_read_file",
    "a length of 1e400",
    '{"pack_id":"incident","path":"docs/runbook.md","length":1e400}',
    invalid("length"),
  ),
  post(
    "pack_read_file",
    "a negative length",
    { pack_id: "incident", path: "docs/runbook.md", length: -1 },
    invalid("length"),
  ),
  read(
    "the entry doc",
    "SKILL.md",
    ok((j) => (j.content?.includes("Incident triage") ? undefined : "not the entry doc")),
  ),
  read("a dot segment is normalized", "./docs/./runbook.md", runbook),
  read("doubled slashes are normalized", "docs//runbook.md", runbook),
  post(
    "pack_read_file",
    "an offset at the very end is an empty page",
    { pack_id: "incident", path: "docs/runbook.md", offset: 26 },
    ok((j) => (j.content === "" && j.next_offset === null ? undefined : `page ${JSON.stringify(j)}`)),
  ),
];

const enableTools: HostileCase[] = [
  ...shared("pack_enable_tools"),
  post("pack_enable_tools", "a pack that is not attached", { pack_id: "spare" }, notAttached),
  post(
    "pack_enable_tools",
    "a tools filter field",
    { pack_id: "incident", tools: ["page_oncall"] },
    invalid("tools"),
  ),
];

export const PACK_CASES: HostileCase[] = [
  ...list,
  ...attach,
  ...detach,
  ...openDocs,
  ...readFile,
  ...enableTools,
];
