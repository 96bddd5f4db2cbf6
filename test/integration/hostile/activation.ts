// Hostile input to what an agent sends when its model wants a tool: tool_activate, tool_deactivate
// and tool_resolve (names, run ids, arguments against input schemas, approvals).
import {
  BAD_RUN_IDS,
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
  unknownTool,
} from "./cases";

const invalidArgs = error(422, "invalid_arguments", "args");

const activate: HostileCase[] = [
  post("tool_activate", "names as a string", { names: "github.create_issue" }, invalid("names")),
  post("tool_activate", "no names", { names: [] }, invalid("names")),
  post("tool_activate", "101 names", { names: many(101, () => "github.list_repos") }, invalid("names")),
  post("tool_activate", "an empty name", { names: [""] }, invalid("names[0]")),
  post("tool_activate", "a 129-character name", { names: [huge(129)] }, invalid("names[0]")),
  post("tool_activate", "a 1 MB name", { names: [huge(MB)] }, invalid("names[0]")),
  post("tool_activate", "a null name", { names: [null] }, invalid("names[0]")),
  post("tool_activate", "a denied tool", { names: ["secret.wipe_disk"] }, unknownTool),
  post(
    "tool_activate",
    "a known tool then an unknown one activates neither",
    { names: ["math.add", "nope"] },
    unknownTool,
  ),
  ...UNICODE.slice(0, 6).map(([label, text]) =>
    post("tool_activate", `a name with ${label}`, { names: [`github.${text}`] }, unknownTool),
  ),
  ...BAD_RUN_IDS.map(([label, run_id]) =>
    post("tool_activate", `a run_id ${label}`, { names: ["math.add"], run_id }, invalid("run_id")),
  ),
  post(
    "tool_activate",
    "a 501-character reason",
    { names: ["math.add"], reason: huge(501) },
    invalid("reason"),
  ),
  post("tool_activate", "an object reason", { names: ["math.add"], reason: {} }, invalid("reason")),
  post("tool_activate", "an unknown scope field", { names: ["math.add"], scope: "run" }, invalid("scope")),
  post(
    "tool_activate",
    "an already active tool changes nothing",
    { names: ["github.list_repos"] },
    ok((j) =>
      j.already_visible?.[0] === "github.list_repos" && j.activated.length === 0
        ? undefined
        : "activated again",
    ),
  ),
  post(
    "tool_activate",
    "an always-loaded tool by its provider name changes nothing",
    { names: ["slack_send_message"] },
    ok((j) => (j.already_visible?.[0] === "slack.send_message" ? undefined : "not already visible")),
  ),
];

const deactivate: HostileCase[] = [
  post("tool_deactivate", "names as an object", { names: {} }, invalid("names")),
  post("tool_deactivate", "no names", { names: [] }, invalid("names")),
  post(
    "tool_deactivate",
    "a run_id with a slash",
    { names: ["github.list_repos"], run_id: "a/b" },
    invalid("run_id"),
  ),
  post(
    "tool_deactivate",
    "an unknown all field",
    { names: ["github.list_repos"], all: true },
    invalid("all"),
  ),
  post("tool_deactivate", "a denied tool", { names: ["secret.wipe_disk"] }, unknownTool),
  post(
    "tool_deactivate",
    "an active tool then an unknown one rolls both back",
    { names: ["github.list_repos", "nope"] },
    unknownTool,
  ),
  post("tool_deactivate", "a name of 128 zero-width spaces", { names: ["\u200b".repeat(128)] }, unknownTool),
  post(
    "tool_deactivate",
    "a tool that is not active changes nothing",
    { names: ["math.add"] },
    ok((j) => (j.deactivated.length === 0 ? undefined : "deactivated something")),
  ),
];

const resolve: HostileCase[] = [
  post("tool_resolve", "a numeric name", { name: 5 }, invalid("name")),
  post("tool_resolve", "no name", { args: {} }, invalid("name")),
  post("tool_resolve", "an empty name", { name: "" }, invalid("name")),
  post("tool_resolve", "a 1 MB name", { name: huge(MB) }, invalid("name")),
  post("tool_resolve", "array args", { name: "github.list_repos", args: [] }, invalid("args")),
  post("tool_resolve", "string args", { name: "github.list_repos", args: "{}" }, invalid("args")),
  post("tool_resolve", "null args", { name: "github.list_repos", args: null }, invalid("args")),
  post(
    "tool_resolve",
    "a 101-character approval id",
    { name: "github.create_issue", approval_id: huge(101) },
    invalid("approval_id"),
  ),
  post(
    "tool_resolve",
    "a numeric approval id",
    { name: "github.create_issue", approval_id: 5 },
    invalid("approval_id"),
  ),
  post(
    "tool_resolve",
    "a run_id with a newline",
    { name: "github.list_repos", run_id: "run\n1" },
    invalid("run_id"),
  ),
  post(
    "tool_resolve",
    "OpenAI's arguments field",
    { name: "github.list_repos", arguments: "{}" },
    invalid("arguments"),
  ),
  post(
    "tool_resolve",
    "args nested 70 levels deep",
    `{"name":"math.add","args":${nestedObject(70)}}`,
    tooDeep(deepObjectPath("args")),
  ),
  post("tool_resolve", "a denied tool", { name: "secret.wipe_disk", args: {} }, unknownTool),
  post("tool_resolve", "a denied tool by its provider name", { name: "secret_wipe_disk" }, unknownTool),
  ...UNICODE.slice(0, 5).map(([label, text]) =>
    post("tool_resolve", `a name with ${label}`, { name: `math.${text}` }, unknownTool),
  ),
  post(
    "tool_resolve",
    "a 1 MB argument against a number schema activates nothing",
    { name: "math.add", args: { a: huge(MB), b: 1 } },
    invalidArgs,
  ),
  post(
    "tool_resolve",
    "a missing required argument",
    { name: "github.create_issue", args: { repo: "acme/web" } },
    invalidArgs,
  ),
  post(
    "tool_resolve",
    "an argument over maxLength",
    { name: "github.create_issue", args: { repo: "a", title: huge(201) } },
    invalidArgs,
  ),
  post(
    "tool_resolve",
    "an argument the schema forbids",
    { name: "github.create_issue", args: { repo: "a", title: "b", admin: true } },
    invalidArgs,
  ),
  post(
    "tool_resolve",
    "hostile arguments to Trove's own tool_search",
    { name: "tool_search", args: { query: 5, limit: "all" } },
    invalidArgs,
  ),
  post(
    "tool_resolve",
    "the denied approval for its own call",
    (c) => ({
      name: "github.create_issue",
      args: { repo: "acme/web", title: "Denied" },
      approval_id: c.deniedApprovalId,
    }),
    error(403, "approval_denied", "approval_id"),
  ),
  post(
    "tool_resolve",
    "the pending approval with other arguments",
    (c) => ({
      name: "github.create_issue",
      args: { repo: "acme/web", title: "Other" },
      approval_id: c.approvalId,
    }),
    error(404, "unknown_approval", "approval_id"),
  ),
  post(
    "tool_resolve",
    "the pending approval in another run",
    (c) => ({
      name: "github.create_issue",
      args: { repo: "acme/web", title: "Login fails" },
      approval_id: c.approvalId,
      run_id: "other-run",
    }),
    error(404, "unknown_approval", "approval_id"),
  ),
  post(
    "tool_resolve",
    "a path-traversal approval id",
    { name: "github.create_issue", args: { repo: "a", title: "b" }, approval_id: "../../apr_" },
    error(404, "unknown_approval", "approval_id"),
  ),
  post(
    "tool_resolve",
    "the pending approval, still pending, writes nothing",
    (c) => ({
      name: "github.create_issue",
      args: { repo: "acme/web", title: "Login fails" },
      approval_id: c.approvalId,
    }),
    ok((j) => (j.decision === "needs_approval" ? undefined : `decision ${j.decision}`)),
  ),
  post(
    "tool_resolve",
    "hostile unicode arguments to a schemaless active tool",
    {
      name: "github.list_repos",
      args: Object.fromEntries(UNICODE.map(([label, text]) => [text, label])),
    },
    ok((j) => (j.decision === "allow" ? undefined : "not allowed")),
  ),
  post(
    "tool_resolve",
    "a 4 MB argument to a schemaless active tool",
    () => ({ name: "github.list_repos", args: { blob: huge(4 * MB) } }),
    ok((j) => (j.decision === "allow" ? undefined : "not allowed")),
  ),
  post(
    "tool_resolve",
    "own __proto__ and constructor keys in args",
    '{"name":"slack.send_message","args":{"__proto__":{"admin":true},"constructor":1}}',
    // A use: the session notes the tool's namespace (trove_namespaces_used), once.
    okWrites((j) => (j.decision === "allow" ? undefined : "not allowed")),
  ),
  // Arguments a model controls, against schema keywords whose checks can blow up (fresh sessions).
  post(
    "tool_resolve",
    "a catastrophic-backtracking pattern in the tool's schema is checked with RE2 and answered",
    { name: "re.dos", args: { s: `${"a".repeat(25)}!` } },
    { kind: "error", status: 422, code: "invalid_arguments", field: "args" },
    {
      session: "fresh",
      setup: [
        {
          op: "catalog_sync",
          body: {
            tools: [
              {
                name: "re.dos",
                description: "x",
                input_schema: { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } },
              },
            ],
          },
        },
      ],
      regression:
        "B2: input_schema patterns run on a backtracking RegExp: model-controlled args take exponential time",
    },
  ),
  post(
    "tool_resolve",
    "3,000 array items against uniqueItems are refused (at most 500 are compared)",
    () => ({ name: "re.uniq", args: { s: many(3000, (i) => ({ i })) } }),
    error(422, "invalid_arguments", "args"),
    {
      session: "fresh",
      setup: [
        {
          op: "catalog_sync",
          body: {
            tools: [
              {
                name: "re.uniq",
                description: "x",
                input_schema: { type: "object", properties: { s: { type: "array", uniqueItems: true } } },
              },
            ],
          },
        },
      ],
      regression: "B3: uniqueItems compares every pair of items: model-controlled args take quadratic time",
    },
  ),
  post(
    "tool_resolve",
    "a schema whose pattern does not compile constrains nothing",
    { name: "re.bad", args: { s: "x" } },
    okWrites((j) => (j.decision === "allow" ? undefined : "not allowed")),
    {
      session: "fresh",
      setup: [
        {
          op: "catalog_sync",
          body: {
            tools: [
              {
                name: "re.bad",
                description: "x",
                input_schema: { type: "object", properties: { s: { type: "string", pattern: "(" } } },
              },
            ],
          },
        },
      ],
    },
  ),
];

export const ACTIVATION_CASES: HostileCase[] = [...activate, ...deactivate, ...resolve];
