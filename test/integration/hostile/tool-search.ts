// Hostile input to tool_search in its three modes: FTS syntax injection, hostile and invalid RE2
// patterns, exact names, unicode, malformed JSON and odd numbers.
import {
  error,
  foundNothing,
  foundTools,
  type HostileCase,
  huge,
  invalid,
  invalidJson,
  MB,
  ok,
  post,
  searchOk,
  UNICODE,
} from "./cases";

const search = (
  name: string,
  body: unknown,
  expect: HostileCase["expect"],
  more: Partial<HostileCase> = {},
) => post("tool_search", name, body as Record<string, unknown>, expect, more);
const searchRaw = (name: string, body: string, expect: HostileCase["expect"]) =>
  post("tool_search", name, body, expect);
const github = foundTools("github.create_issue", "github.list_repos");
const invalidPattern = error(400, "invalid_pattern", "query");
const B1 =
  "B1: tool_search regex prefilter (requiredLiterals) reads the digits of \\x.. and octal escapes as literal text";

const FTS_INJECTION: [string, string][] = [
  ["a lone double quote", '"'],
  ["an unterminated phrase", '"github issue'],
  ["an empty phrase", '""'],
  ["NEAR with a distance", "NEAR(github issue, 2)"],
  ["an unclosed NEAR", "NEAR("],
  ["a prefix star", "git*"],
  ["a bare star", "*"],
  ["a leading minus", "-github"],
  ["AND OR NOT", "github AND OR NOT issue"],
  ["a bare AND", "AND"],
  ["a bare NOT", "NOT"],
  ["a column filter", "name: github"],
  ["a column set filter", "{name description}: github"],
  ["a caret", "^github"],
  ["a plus between words", "github + issue"],
  ["parentheses", "((github)"],
  ["a SQL comment and quote", "' OR 1=1 --"],
  ["a statement terminator", "github; DROP TABLE trove_tools; --"],
  ["FTS5 function syntax", "bm25(trove_tools_fts) MATCH rank"],
  ["LIKE wildcards", "%_%"],
  ["a backslash", "github\\"],
  ["2,000 operator characters", '*"()^:-+'.repeat(250)],
  ["2,000 characters of one word", "github ".repeat(285).slice(0, 2000)],
  ["a thousand emoji", "🚀".repeat(1000)],
];

const CATASTROPHIC = [
  "(a+)+$",
  "(a|aa)+b",
  "([a-z]+)*$",
  "(.*a){20}",
  "(a*)*b",
  "^(\\w+\\s?)*$",
  "(x+x+)+y",
  "a{1000}",
  "((ab)*|(ba)*)*c",
  "(?i)(A|a)+$",
];
const INVALID_REGEX: [string, string][] = [
  ["a repetition of a million", "a{1000000}"],
  ["a repetition over RE2's limit", "a{1001}"],
  ["nested repetitions over RE2's limit", "(a{1000}){1000}"],
  ["a backreference", "(a)\\1"],
  ["a lookahead", "git(?=hub)"],
  ["a negative lookbehind", "(?<!x)github"],
  ["an atomic group", "(?>a+)b"],
  ["a possessive quantifier", "a++b"],
  ["an unclosed group", "(github"],
  ["an unmatched parenthesis", "github)"],
  ["a reversed range", "[z-a]"],
  ["a dangling star", "*github"],
  ["a trailing backslash", "github\\"],
  ["an unknown Unicode class", "\\p{Klingon}"],
  ["a code point past Unicode", "\\x{110000}"],
  ["an unknown flag", "(?z)github"],
  ["a recursive pattern", "(?R)"],
  ["a conditional", "(?(1)a|b)"],
];

const toolSearch: HostileCase[] = [
  search("a numeric query", { query: 7 }, invalid("query")),
  search("a null query", { query: null }, invalid("query")),
  search("an array query", { query: ["github"] }, invalid("query")),
  search("an object query", { query: { $regex: ".*" } }, invalid("query")),
  search("a 1 MB query", { query: huge(MB) }, invalid("query")),
  search("an upper-case search type", { query: "x", search_type: "FTS" }, invalid("search_type")),
  search("a null search type", { query: "x", search_type: null }, invalid("search_type")),
  search("a semantic search type", { query: "x", search_type: "semantic" }, invalid("search_type")),
  searchRaw("a limit of 1e400", '{"query":"x","limit":1e400}', invalid("limit")),
  searchRaw("a limit of -0", '{"query":"x","limit":-0}', invalid("limit")),
  searchRaw("a limit a hair above 8", '{"query":"x","limit":8.000000000000001}', invalid("limit")),
  searchRaw("a limit of 2^53 + 1", '{"query":"x","limit":9007199254740993}', invalid("limit")),
  search("a boolean limit", { query: "x", limit: true }, invalid("limit")),
  search("an array limit", { query: "x", limit: [8] }, invalid("limit")),
  search(
    "include_always_loaded as 1",
    { query: "x", include_always_loaded: 1 },
    invalid("include_always_loaded"),
  ),
  search(
    "include_always_loaded as null",
    { query: "x", include_always_loaded: null },
    invalid("include_always_loaded"),
  ),
  search("an upper-case format", { query: "x", format: "ANTHROPIC" }, invalid("format")),
  search("an xml format", { query: "x", format: "xml" }, invalid("format")),
  search("an unknown filters field", { query: "x", filters: { namespace: "github" } }, invalid("filters")),
  searchRaw("an own __proto__ key", '{"query":"x","__proto__":{"limit":1}}', invalid("__proto__")),
  searchRaw("a query with a raw tab", '{"query":"a\tb"}', invalidJson),
  searchRaw("a query with an invalid escape", '{"query":"\\x67ithub"}', invalidJson),
  searchRaw("a truncated unicode escape", '{"query":"\\u12"}', invalidJson),
  searchRaw("a query followed by garbage", '{"query":"github"}garbage', invalidJson),
  searchRaw("Infinity as the limit", '{"query":"x","limit":Infinity}', invalidJson),
  searchRaw("a hex limit", '{"query":"x","limit":0x8}', invalidJson),
  searchRaw("a limit with a leading zero", '{"query":"x","limit":08}', invalidJson),
  searchRaw("single-quoted strings", "{'query':'github'}", invalidJson),
  searchRaw("unquoted keys", '{query:"github"}', invalidJson),
  // Odd but valid requests.
  searchRaw("a UTF-8 byte order mark before the JSON", '\uFEFF{"query":"github"}', ok(github)),
  searchRaw("duplicate keys, the last one right", '{"query":1,"query":"github"}', ok(github)),
  searchRaw("a limit of 2.0 is 2", '{"query":"github","limit":2.0}', ok(github)),
  searchRaw(
    "a limit of 1e0 is 1",
    '{"query":"github","limit":1e0}',
    ok((j) => (j.tools.length === 1 ? undefined : "not one result")),
  ),
  searchRaw(
    "a limit one ulp-rounding away from 8 is 8",
    '{"query":"github","limit":8.0000000000000001}',
    ok(github),
  ),
  post(
    "tool_search",
    "invalid UTF-8 inside a string is replaced, not an error",
    new Uint8Array([
      ...new TextEncoder().encode('{"query":"github'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}'),
    ]),
    ok(searchOk),
  ),
  post(
    "tool_search",
    "invalid UTF-8 outside a string",
    new Uint8Array([0xff, ...new TextEncoder().encode('{"query":"x"}')]),
    invalidJson,
  ),
  search("an empty fts query finds nothing", { query: "" }, ok(foundNothing)),
  search("a query of stopwords finds nothing", { query: "the a of and or not" }, ok(foundNothing)),
  search("the denied tool is not found by its words", { query: "erase every disk fleet" }, ok(foundNothing)),
  search("an always-loaded tool is left out", { query: "slack send message" }, ok(searchOk)),
  search(
    "an always-loaded tool is found when asked",
    { query: "slack.send_message", include_always_loaded: true },
    ok((j) => (j.tools[0]?.name === "slack.send_message" ? undefined : "slack not first")),
  ),
  search(
    "the anthropic format of an odd query",
    { query: "🚀 github \u202e", format: "anthropic" },
    ok((j) =>
      j.tool_references?.length === j.tools.length ? searchOk(j) : "tool_references do not match tools",
    ),
  ),
  ...FTS_INJECTION.map(([label, query]) => search(`FTS syntax: ${label}`, { query }, ok(searchOk))),
  search(
    "FTS syntax around a real word still finds it",
    { query: 'NEAR("github" -issue*) name: ^' },
    ok(github),
  ),
  ...UNICODE.map(([label, query]) => search(`fts: ${label}`, { query }, ok(searchOk))),
  // An ANSI escape holds an unclosed character class: as a pattern it does not compile.
  ...UNICODE.map(([label, query]) =>
    search(
      `regex: ${label}`,
      { query, search_type: "regex" },
      query.includes("[") ? invalidPattern : ok(foundNothing),
    ),
  ),
  ...UNICODE.map(([label, query]) =>
    search(`exact: ${label}`, { query, search_type: "exact" }, ok(foundNothing)),
  ),
  ...CATASTROPHIC.map((query) =>
    search(`regex ${query} runs in linear time`, { query, search_type: "regex" }, ok(searchOk), {}),
  ),
  ...INVALID_REGEX.map(([label, query]) =>
    search(`regex: ${label}`, { query, search_type: "regex" }, invalidPattern),
  ),
  search(
    "a 201-character pattern",
    { query: `${"(a|b)".repeat(40)}c`, search_type: "regex" },
    error(400, "pattern_too_long", "query"),
  ),
  search(
    "a 200-character pattern",
    { query: `${"(a|b)".repeat(39)}${"c".repeat(5)}`, search_type: "regex" },
    ok(searchOk),
  ),
  search(
    "an empty pattern matches every deferred tool",
    { query: "", search_type: "regex" },
    ok(foundTools("github.create_issue", "github.list_repos", "math.add")),
  ),
  search(
    "a pattern for the denied tool finds nothing",
    { query: "^secret", search_type: "regex" },
    ok(foundNothing),
  ),
  search(
    "a POSIX class",
    { query: "^[[:alpha:]]+\\.", search_type: "regex" },
    ok(foundTools("github.create_issue", "github.list_repos", "math.add")),
  ),
  search("a named group", { query: "(?P<org>git)hub", search_type: "regex" }, ok(github)),
  search("a \\Q…\\E quoted literal", { query: "\\Qgithub.\\E", search_type: "regex" }, ok(github)),
  search("an \\x escape in a literal", { query: "git\\x68ub", search_type: "regex" }, ok(github), {
    regression: B1,
  }),
  search("an \\x escape at the start", { query: "\\x67ithub", search_type: "regex" }, ok(github), {
    regression: B1,
  }),
  search("an octal escape", { query: "gi\\164hub", search_type: "regex" }, ok(github), {
    regression: B1,
  }),
  search(
    "exact: the name in upper case",
    { query: "GITHUB.CREATE_ISSUE", search_type: "exact" },
    ok(foundTools("github.create_issue")),
  ),
  search(
    "exact: the name without its namespace",
    { query: "  create_issue  ", search_type: "exact" },
    ok(foundTools("github.create_issue")),
  ),
  search("exact: the denied tool", { query: "secret.wipe_disk", search_type: "exact" }, ok(foundNothing)),
  search("exact: a glob", { query: "github.*", search_type: "exact" }, ok(foundNothing)),
  search("exact: LIKE wildcards", { query: "github%", search_type: "exact" }, ok(foundNothing)),
  search("exact: a 2,000-character name", { query: huge(2000), search_type: "exact" }, ok(foundNothing)),
];

export const TOOL_SEARCH_CASES: HostileCase[] = toolSearch;
