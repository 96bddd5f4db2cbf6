// Hostile input to skill_read_file: path traversal in every spelling, paging fields, hidden and
// ambiguous skills.
import { type Expectation, error, type HostileCase, huge, invalid, MB, ok, post, TRAVERSAL } from "./cases";

const ambiguous = (field: string) => error(409, "ambiguous_skill", field);
/** skill_read_file of the visible skill's folder, at `path`. */
const read = (name: string, path: string, expect: Expectation): HostileCase =>
  post("skill_read_file", name, { skill: "docs/pdf-forms", path }, expect);
const invalidPath = error(400, "invalid_path", "path");
const unknownFile = error(404, "unknown_file", "path");
const fields = ok((j) => (j.content?.startsWith("# Field types") ? undefined : "not the file"));

const readFile: HostileCase[] = [
  ...TRAVERSAL.map(([label, path, kind]) =>
    read(`path: ${label}`, path, kind === "invalid" ? invalidPath : unknownFile),
  ),
  read("a 1,001-character path", "a".repeat(1001), invalid("path")),
  read("a 1 MB path", huge(MB, "../"), invalid("path")),
  read("a path with a dot segment is normalized", "references/./fields.md", fields),
  read("a path with a doubled slash is normalized", "references//fields.md", fields),
  read("a leading ./ is dropped", "./references/fields.md", fields),
  post("skill_read_file", "an empty skill", { skill: "", path: "references/fields.md" }, invalid("skill")),
  post(
    "skill_read_file",
    "a 201-character skill",
    { skill: huge(201), path: "references/fields.md" },
    invalid("skill"),
  ),
  post("skill_read_file", "no path", { skill: "docs/pdf-forms" }, invalid("path")),
  post("skill_read_file", "a numeric path", { skill: "docs/pdf-forms", path: 1 }, invalid("path")),
  post(
    "skill_read_file",
    "a negative offset",
    { skill: "docs/pdf-forms", path: "references/fields.md", offset: -1 },
    invalid("offset"),
  ),
  post(
    "skill_read_file",
    "a string offset",
    { skill: "docs/pdf-forms", path: "references/fields.md", offset: "0" },
    invalid("offset"),
  ),
  post(
    "skill_read_file",
    "an offset of 1e300",
    '{"skill":"docs/pdf-forms","path":"references/fields.md","offset":1e300}',
    invalid("offset"),
  ),
  post(
    "skill_read_file",
    "a zero length",
    { skill: "docs/pdf-forms", path: "references/fields.md", length: 0 },
    invalid("length"),
  ),
  post(
    "skill_read_file",
    "a length of 64,001",
    { skill: "docs/pdf-forms", path: "references/fields.md", length: 64_001 },
    invalid("length"),
  ),
  post(
    "skill_read_file",
    "an unknown encoding field",
    { skill: "docs/pdf-forms", path: "references/fields.md", encoding: "base64" },
    invalid("encoding"),
  ),
  post(
    "skill_read_file",
    "an offset past the end",
    { skill: "docs/pdf-forms", path: "references/fields.md", offset: 1_000_000 },
    error(400, "invalid_offset", "offset"),
  ),
  post(
    "skill_read_file",
    "an ambiguous skill name",
    { skill: "pdf-forms", path: "references/fields.md" },
    ambiguous("skill"),
  ),
  post(
    "skill_read_file",
    "the hidden skill's file",
    { skill: "secret-recipe", path: "references/x.md" },
    unknownFile,
  ),
  post(
    "skill_read_file",
    "the hidden skill's file by id",
    { skill: "docs/secret-recipe", path: "references/x.md" },
    unknownFile,
  ),
  post(
    "skill_read_file",
    "the skill's own SKILL.md is not a bundled file",
    { skill: "docs/pdf-forms", path: "SKILL.md" },
    unknownFile,
  ),
  post(
    "skill_read_file",
    "an offset of -0 is zero",
    '{"skill":"docs/pdf-forms","path":"references/fields.md","offset":-0}',
    fields,
  ),
  post(
    "skill_read_file",
    "a one-character page",
    { skill: "docs/pdf-forms", path: "references/fields.md", length: 1 },
    ok((j) =>
      j.content === "#" && j.truncated === true && j.next_offset === 1 ? undefined : "not one character",
    ),
  ),
];

export const SKILL_FILE_CASES: HostileCase[] = readFile;
