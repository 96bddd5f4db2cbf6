// Hostile input to the skill operations: search (regex and FTS), get, list, directory, load,
// enable and disable.
import {
  deepObjectPath,
  error,
  type HostileCase,
  huge,
  invalid,
  MB,
  many,
  nestedObject,
  ok,
  okWrites,
  post,
  tooDeep,
  UNICODE,
} from "./cases";

const unknownSkill = (field: string) => error(404, "unknown_skill", field);
const ambiguous = (field: string) => error(409, "ambiguous_skill", field);
const noHiddenSkill = (j: any) =>
  JSON.stringify(j).includes("secret-recipe") ? "named the hidden skill" : undefined;

const search: HostileCase[] = [
  post("skill_search", "a numeric query", { query: 5 }, invalid("query")),
  post("skill_search", "a 1 MB query", { query: huge(MB) }, invalid("query")),
  post(
    "skill_search",
    "an upper-case search type",
    { query: "x", search_type: "REGEX" },
    invalid("search_type"),
  ),
  post("skill_search", "a zero limit", { query: "x", limit: 0 }, invalid("limit")),
  post("skill_search", "a limit of 21", { query: "x", limit: 21 }, invalid("limit")),
  post("skill_search", "a 65-character task type", { query: "x", task_type: huge(65) }, invalid("task_type")),
  post("skill_search", "a numeric task type", { query: "x", task_type: 5 }, invalid("task_type")),
  post("skill_search", "an unknown pack field", { query: "x", pack: "docs" }, invalid("pack")),
  ...["(a", "(?=x)", "\\1", "a{1001}", "[[:nope:]]", "x**"].map((query) =>
    post(
      "skill_search",
      `the invalid regex ${query}`,
      { query, search_type: "regex" },
      error(400, "invalid_pattern", "query"),
    ),
  ),
  post(
    "skill_search",
    "a 201-character pattern",
    { query: huge(201, "a|"), search_type: "regex" },
    error(400, "pattern_too_long", "query"),
  ),
  ...["(a+)+$", "(a|aa)+b", "([a-z]+)*$", "(.*-){20}x", "^(\\w+\\s?)*$"].map((query) =>
    post(
      "skill_search",
      `regex ${query} runs in linear time`,
      { query, search_type: "regex" },
      ok(noHiddenSkill),
    ),
  ),
  ...['"pdf', "NEAR(pdf forms)", "pdf*", "title: pdf", "-pdf AND OR NOT", "{name}: ^pdf"].map((query) =>
    post("skill_search", `FTS syntax ${query}`, { query }, ok(noHiddenSkill)),
  ),
  ...UNICODE.slice(0, 6).map(([label, query]) =>
    post("skill_search", `a query with ${label}`, { query }, ok(noHiddenSkill)),
  ),
  post(
    "skill_search",
    "the hidden skill by exact name",
    { query: "secret-recipe", search_type: "exact" },
    ok((j) => (j.skills.length === 0 ? undefined : "found it")),
  ),
  post(
    "skill_search",
    "the hidden skill by regex",
    { query: "^secret", search_type: "regex" },
    ok((j) => (j.skills.length === 0 ? undefined : "found it")),
  ),
  post(
    "skill_search",
    "a regex \\x escape",
    { query: "\\x70df-forms", search_type: "regex" },
    ok((j) => (j.skills.length === 2 ? undefined : "not both pdf-forms")),
  ),
];

const get: HostileCase[] = [
  post("skill_get", "names as a string", { names: "pdf-forms" }, invalid("names")),
  post("skill_get", "no names", { names: [] }, invalid("names")),
  post("skill_get", "11 names", { names: many(11, () => "docs/pdf-forms") }, invalid("names")),
  post("skill_get", "an empty name", { names: [""] }, invalid("names[0]")),
  post("skill_get", "a 201-character name", { names: [huge(201)] }, invalid("names[0]")),
  post("skill_get", "a 1 MB name", { names: [huge(MB)] }, invalid("names[0]")),
  post(
    "skill_get",
    "a markdown format",
    { names: ["docs/pdf-forms"], format: "markdown" },
    invalid("format"),
  ),
  post(
    "skill_get",
    "max_tokens of 199",
    { names: ["docs/pdf-forms"], max_tokens: 199 },
    invalid("max_tokens"),
  ),
  post(
    "skill_get",
    "max_tokens of 6,001",
    { names: ["docs/pdf-forms"], max_tokens: 6001 },
    invalid("max_tokens"),
  ),
  post(
    "skill_get",
    "max_tokens of 1e400",
    '{"names":["docs/pdf-forms"],"max_tokens":1e400}',
    invalid("max_tokens"),
  ),
  post(
    "skill_get",
    "an unknown fields field",
    { names: ["docs/pdf-forms"], fields: ["body"] },
    invalid("fields"),
  ),
  post("skill_get", "an ambiguous name", { names: ["pdf-forms"] }, ambiguous("names[0]")),
  post("skill_get", "the hidden skill by name", { names: ["secret-recipe"] }, unknownSkill("names[0]")),
  post("skill_get", "the hidden skill by id", { names: ["docs/secret-recipe"] }, unknownSkill("names[0]")),
  post(
    "skill_get",
    "a known skill then an unknown one",
    { names: ["docs/pdf-forms", "nope"] },
    unknownSkill("names[1]"),
  ),
  post("skill_get", "a path-traversal id", { names: ["../docs/pdf-forms"] }, unknownSkill("names[0]")),
  post(
    "skill_get",
    "an id with a dot-dot segment",
    { names: ["docs/pdf-forms/../secret-recipe"] },
    unknownSkill("names[0]"),
  ),
  post("skill_get", "an id in upper case", { names: ["DOCS/PDF-FORMS"] }, unknownSkill("names[0]")),
  ...UNICODE.slice(0, 4).map(([label, text]) =>
    post("skill_get", `a name with ${label}`, { names: [`pdf${text}`] }, unknownSkill("names[0]")),
  ),
  post(
    "skill_get",
    "a unique name in upper case is found",
    { names: ["ONBOARDING"] },
    okWrites((j) => (j.skills[0]?.id === "hr/onboarding" ? undefined : "not found")),
  ),
];

const list: HostileCase[] = [
  post("skill_list", "page 0", { page: 0 }, invalid("page")),
  post("skill_list", "a string page", { page: "1" }, invalid("page")),
  post("skill_list", "a fractional page", { page: 1.5 }, invalid("page")),
  post("skill_list", "page 1e300", '{"page":1e300}', invalid("page")),
  post("skill_list", "a page size of 0", { page_size: 0 }, invalid("page_size")),
  post("skill_list", "a page size of 101", { page_size: 101 }, invalid("page_size")),
  post("skill_list", "a 65-character task type", { task_type: huge(65) }, invalid("task_type")),
  post("skill_list", "an unknown origin", { origin: "github" }, invalid("origin")),
  post("skill_list", "a 65-character pack", { pack: huge(65) }, invalid("pack")),
  post("skill_list", "an unknown scope", { scope: "world" }, invalid("scope")),
  post("skill_list", "an unknown sort field", { sort: "name" }, invalid("sort")),
  post(
    "skill_list",
    "the largest safe page is empty",
    { page: Number.MAX_SAFE_INTEGER, page_size: 100 },
    ok((j) => (j.skills.length === 0 ? undefined : "not empty")),
  ),
  post(
    "skill_list",
    "a path-traversal pack filter",
    { pack: "../docs" },
    ok((j) => (j.total === 0 ? undefined : "matched")),
  ),
  post(
    "skill_list",
    "a SQL-shaped task type",
    { task_type: "x' OR '1'='1" },
    ok((j) => (j.total === 0 ? undefined : "matched")),
  ),
  post(
    "skill_list",
    "every filter at once",
    { pack: "docs", origin: "agent_skills", scope: "global", page_size: 100 },
    ok(noHiddenSkill),
  ),
];

const directory: HostileCase[] = [
  post("skill_directory", "an unknown max_entries field", { max_entries: 1000 }, invalid("max_entries")),
  post("skill_directory", "an array body", "[]", invalid("")),
  post("skill_directory", "null as the body", "null", invalid("")),
  post(
    "skill_directory",
    "a body nested 80 levels deep",
    `{"x":${nestedObject(80)}}`,
    tooDeep(deepObjectPath("x")),
  ),
  post("skill_directory", "an empty object lists no hidden skill", {}, ok(noHiddenSkill)),
];

const load: HostileCase[] = [
  post("skill_load", "neither a name nor a path", {}, invalid("name")),
  post("skill_load", "an empty name", { name: "" }, invalid("name")),
  post("skill_load", "a 201-character name", { name: huge(201) }, invalid("name")),
  post("skill_load", "an empty path", { path: "" }, invalid("path")),
  post("skill_load", "a 1,001-character path", { path: huge(1001) }, invalid("path")),
  post("skill_load", "a numeric name", { name: 5 }, invalid("name")),
  post("skill_load", "an array path", { path: ["docs"] }, invalid("path")),
  post("skill_load", "an unknown id field", { id: "docs/pdf-forms" }, invalid("id")),
  post("skill_load", "an ambiguous name", { name: "pdf-forms" }, ambiguous("name")),
  post("skill_load", "the hidden skill by name", { name: "secret-recipe" }, unknownSkill("name")),
  post("skill_load", "the hidden skill by path", { path: "docs/secret-recipe" }, unknownSkill("path")),
  post(
    "skill_load",
    "the hidden skill's file by path",
    { path: "docs/secret-recipe/SKILL.md" },
    unknownSkill("path"),
  ),
  post("skill_load", "a path-traversal path", { path: "../docs/pdf-forms" }, unknownSkill("path")),
  post("skill_load", "an absolute path", { path: "/etc/passwd" }, unknownSkill("path")),
  post("skill_load", "a path with a NUL", { path: "docs/pdf-forms/SKILL.md\u0000" }, unknownSkill("path")),
  post(
    "skill_load",
    "a path escaping through dot-dot",
    { path: "docs/pdf-forms/../../secret" },
    unknownSkill("path"),
  ),
  post(
    "skill_load",
    "a path wins over a bad name",
    { name: "nope", path: "./docs/pdf-forms/" },
    okWrites((j) => (j.id === "docs/pdf-forms" ? undefined : `loaded ${j.id}`)),
  ),
];

const enable: HostileCase[] = [
  post("skill_enable", "no name", {}, invalid("name")),
  post("skill_enable", "an empty name", { name: "" }, invalid("name")),
  post("skill_enable", "a 1 MB name", { name: huge(MB) }, invalid("name")),
  post(
    "skill_enable",
    "an unknown tools field",
    { name: "hr/onboarding", tools: ["create_accounts"] },
    invalid("tools"),
  ),
  post("skill_enable", "an ambiguous name", { name: "pdf-forms" }, ambiguous("name")),
  post("skill_enable", "the hidden skill", { name: "secret-recipe" }, unknownSkill("name")),
  post("skill_enable", "a dot-dot id", { name: "hr/onboarding/../x" }, unknownSkill("name")),
  ...UNICODE.slice(0, 3).map(([label, text]) =>
    post("skill_enable", `a name with ${label}`, { name: `onboarding${text}` }, unknownSkill("name")),
  ),
  post(
    "skill_enable",
    "an enabled skill again changes nothing but its use count",
    { name: "hr/onboarding" },
    okWrites((j) => (j.changed === false ? undefined : "changed")),
  ),
];

const disable: HostileCase[] = [
  post("skill_disable", "a numeric name", { name: 5 }, invalid("name")),
  post("skill_disable", "a null name", { name: null }, invalid("name")),
  post("skill_disable", "an unknown reason field", { name: "hr/onboarding", reason: "x" }, invalid("reason")),
  post("skill_disable", "the hidden skill", { name: "secret-recipe" }, unknownSkill("name")),
  post("skill_disable", "an ambiguous name", { name: "pdf-forms" }, ambiguous("name")),
  post(
    "skill_disable",
    "a skill that is not enabled changes nothing",
    { name: "docs/pdf-forms" },
    ok((j) => (j.changed === false ? undefined : "changed")),
  ),
];

export const SKILL_CASES: HostileCase[] = [
  ...search,
  ...get,
  ...list,
  ...directory,
  ...load,
  ...enable,
  ...disable,
];
