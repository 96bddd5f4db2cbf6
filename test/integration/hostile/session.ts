// Hostile input to the session resource: GET, PUT (every config field), DELETE, and the same
// operations through POST /v1/sessions/{sid}/{name}.
import {
  deepObjectPath,
  error,
  type HostileCase,
  huge,
  invalid,
  invalidJson,
  MB,
  nestedObject,
  ok,
  okWrites,
  padded,
  post,
  ROUTE,
  request,
  SESSION,
  tooDeep,
} from "./cases";

const seededConfig = (j: any) =>
  j?.config?.policy?.deny?.includes("secret.*") && j.catalog?.tools > 0
    ? undefined
    : "not the seeded session";

const get: HostileCase[] = [
  request(
    ROUTE.get,
    "GET",
    `${SESSION}?sid=other&tenant=tenant-b`,
    "query parameters cannot redirect the session",
    ok(seededConfig),
  ),
  request(ROUTE.get, "GET", SESSION, "asked for XML, it answers JSON", ok(seededConfig), {
    headers: { accept: "application/xml" },
  }),
  request(ROUTE.get, "GET", SESSION, "conditional and range headers are ignored", ok(seededConfig), {
    headers: { "if-none-match": "*", range: "bytes=0-1", "if-modified-since": "\u00ff" },
  }),
  request(ROUTE.get, "HEAD", SESSION, "HEAD answers without a body", { kind: "empty", status: 200 }),
  request(ROUTE.get, "GET", SESSION, "no key is 401", error(401, "unauthorized", "authorization"), {
    headers: { authorization: null },
  }),
  request(
    ROUTE.get,
    "GET",
    SESSION,
    "a key with trailing garbage is 401",
    error(401, "unauthorized", "authorization"),
    {
      headers: { authorization: "Bearer key-a;" },
    },
  ),
  request(ROUTE.get, "GET", `${SESSION}/`, "a trailing slash is 404", error(404, "not_found")),
];

/** PUT /v1/sessions/{sid} with `body`, refused naming `field`. */
const put = (name: string, body: unknown, field: string | RegExp): HostileCase =>
  request(ROUTE.put, "PUT", SESSION, name, invalid(field), { body: body as Record<string, unknown> });
const putRaw = (name: string, body: string, expect: HostileCase["expect"]): HostileCase =>
  request(ROUTE.put, "PUT", SESSION, name, expect, { body });
const many = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i));

const configure: HostileCase[] = [
  put("a numeric project_id", { project_id: 5 }, "project_id"),
  put("an empty project_id", { project_id: "" }, "project_id"),
  put("a project_id with a slash", { project_id: "a/b" }, "project_id"),
  put("a 1 MB project_id", { project_id: huge(MB) }, "project_id"),
  put("a project_id with an RTL override", { project_id: "proj\u202e1" }, "project_id"),
  put("an object project_id", { project_id: {} }, "project_id"),
  put("an upper-case activation_scope", { activation_scope: "SESSION" }, "activation_scope"),
  put("a null activation_scope", { activation_scope: null }, "activation_scope"),
  put("an array activation_scope", { activation_scope: ["run"] }, "activation_scope"),
  put("a boolean default_loading_mode", { default_loading_mode: true }, "default_loading_mode"),
  put("always_loaded_patterns as a string", { always_loaded_patterns: "slack.*" }, "always_loaded_patterns"),
  put("a null pattern", { always_loaded_patterns: [null] }, "always_loaded_patterns[0]"),
  put(
    "201 always-loaded patterns",
    { always_loaded_patterns: many(201, (i) => `p${i}.*`) },
    "always_loaded_patterns",
  ),
  put(
    "a regex as an always-loaded glob",
    { always_loaded_patterns: ["(a+)+$"] },
    "always_loaded_patterns[0]",
  ),
  put("a 201-character glob", { always_loaded_patterns: [huge(201)] }, "always_loaded_patterns[0]"),
  put("a numeric preferred namespace", { preferred_namespaces: [1] }, "preferred_namespaces[0]"),
  put(
    "101 preferred namespaces",
    { preferred_namespaces: many(101, (i) => `n${i}`) },
    "preferred_namespaces",
  ),
  put("a 65-character preferred namespace", { preferred_namespaces: [huge(65)] }, "preferred_namespaces[0]"),
  put("an array policy", { policy: [] }, "policy"),
  put("a string policy", { policy: "allow all" }, "policy"),
  put("an object in policy.allow", { policy: { allow: [{}] } }, "policy.allow[0]"),
  put("201 deny globs", { policy: { deny: many(201, (i) => `d${i}.*`) } }, "policy.deny"),
  put("an approval glob with a space", { policy: { approval: ["github issue"] } }, "policy.approval[0]"),
  put("a 1 MB deny glob", { policy: { deny: [huge(MB, "*")] } }, "policy.deny[0]"),
  put("a deny glob with a NUL", { policy: { deny: ["secret.\u0000"] } }, "policy.deny[0]"),
  put("a deny glob with regex syntax", { policy: { deny: ["[a-z]+"] } }, "policy.deny[0]"),
  put("an array skill policy", { policy: { skills: [] } }, "policy.skills"),
  put("a string skill allow list", { policy: { skills: { allow: "*" } } }, "policy.skills.allow"),
  put(
    "a number among skill deny globs",
    { policy: { skills: { deny: ["secret-*", 7] } } },
    "policy.skills.deny[1]",
  ),
  put("an unknown field in the skill policy", { policy: { skills: { hide: ["x"] } } }, "policy.skills.hide"),
  put("examples as a boolean", { examples: true }, "examples"),
  put("examples.enabled as a string", { examples: { enabled: "yes" } }, "examples.enabled"),
  put("11 examples per tool", { examples: { max_per_tool: 11 } }, "examples.max_per_tool"),
  put("a negative examples count", { examples: { max_per_tool: -1 } }, "examples.max_per_tool"),
  put("an unknown field in examples", { examples: { max: 1 } }, "examples.max"),
  put("null skills", { skills: null }, "skills"),
  put("skills.enabled as a number", { skills: { enabled: 1 } }, "skills.enabled"),
  put("skills.max_tokens below 200", { skills: { max_tokens: 199 } }, "skills.max_tokens"),
  putRaw("skills.max_tokens of 1e400", '{"skills":{"max_tokens":1e400}}', invalid("skills.max_tokens")),
  put("a zero top_k", { skills: { top_k: 0 } }, "skills.top_k"),
  put("a fractional top_k", { skills: { top_k: 3.5 } }, "skills.top_k"),
  put("redact_pii as a string", { skills: { redact_pii: "false" } }, "skills.redact_pii"),
  put("an array directory", { skills: { directory: [] } }, "skills.directory"),
  put(
    "201 directory entries",
    { skills: { directory: { max_entries: 201 } } },
    "skills.directory.max_entries",
  ),
  put(
    "an unknown selection strategy",
    { skills: { directory: { selection_strategy: "random" } } },
    "skills.directory.selection_strategy",
  ),
  put(
    "an unknown field in the directory",
    { skills: { directory: { pinned: ["x"] } } },
    "skills.directory.pinned",
  ),
  put("a context budget under 100", { context: { max_tokens: 99 } }, "context.max_tokens"),
  put("a context budget as a string", { context: { max_tokens: "1000" } }, "context.max_tokens"),
  put("an unknown field in context", { context: { budget: 1 } }, "context.budget"),
  put("a TTL under a minute", { ttl_seconds: 59 }, "ttl_seconds"),
  put("a TTL over a year", { ttl_seconds: 365 * 86_400 + 1 }, "ttl_seconds"),
  putRaw("a TTL of -0", '{"ttl_seconds":-0}', invalid("ttl_seconds")),
  putRaw("a TTL of 1e400", '{"ttl_seconds":1e400}', invalid("ttl_seconds")),
  putRaw("a TTL of 2^64", '{"ttl_seconds":18446744073709551616}', invalid("ttl_seconds")),
  put("a zero run activation TTL", { run_activation_ttl_seconds: 0 }, "run_activation_ttl_seconds"),
  put(
    "a run activation TTL as a string",
    { run_activation_ttl_seconds: "3600" },
    "run_activation_ttl_seconds",
  ),
  put("an unknown top-level field", { policies: {} }, "policies"),
  putRaw("an own __proto__ key", '{"__proto__":{"ttl_seconds":60}}', invalid("__proto__")),
  putRaw(
    "duplicate keys, the last one wrong",
    '{"ttl_seconds":60,"ttl_seconds":"60"}',
    invalid("ttl_seconds"),
  ),
  putRaw(
    "a policy nested 70 levels deep",
    `{"policy":{"x":${nestedObject(70)}}}`,
    tooDeep(deepObjectPath("policy.x")),
  ),
  putRaw("true as the body", "true", invalid("")),
  putRaw("a config followed by garbage", "{} trailing", invalidJson),
  putRaw("a truncated config", '{"policy":{"deny":["x"', invalidJson),
  putRaw("a config with a comment", '{/* all */"ttl_seconds":60}', invalidJson),
  request(
    ROUTE.put,
    "PUT",
    SESSION,
    "no key, with a hostile body, is 401",
    error(401, "unauthorized", "authorization"),
    {
      body: '{"policy":{"allow":["*"]}}',
      headers: { authorization: null },
    },
  ),
  // Odd but valid configs, on a fresh session.
  request(ROUTE.put, "PUT", SESSION, "200 deny globs of 200 wildcards compile and are answered", okWrites(), {
    session: "fresh",
    body: { policy: { deny: many(200, (i) => `${"?*".repeat(97)}x${String(i).padStart(3, "0")}`) } },
    setup: [{ op: "catalog_sync", body: { tools: [{ name: "a".repeat(128), description: "long name" }] } }],
  }),
  request(
    ROUTE.put,
    "PUT",
    SESSION,
    "unicode preferred namespaces are stored as given",
    okWrites((j) =>
      JSON.stringify(j.config.preferred_namespaces) === JSON.stringify(["🚀", "\u202egithub", "\ud800"])
        ? undefined
        : `stored ${JSON.stringify(j.config.preferred_namespaces)}`,
    ),
    { session: "fresh", body: { preferred_namespaces: ["🚀", "\u202egithub", "\ud800"] } },
  ),
  request(
    ROUTE.put,
    "PUT",
    SESSION,
    "-0 examples per tool is zero",
    okWrites((j) => (j.config.examples.max_per_tool === 0 ? undefined : "not zero")),
    { session: "fresh", body: '{"examples":{"max_per_tool":-0}}' },
  ),
  request(ROUTE.put, "PUT", SESSION, "an explicit null budget and project", okWrites(), {
    session: "fresh",
    body: { context: { max_tokens: null }, project_id: null },
  }),
];

const del: HostileCase[] = [
  request(ROUTE.delete, "DELETE", SESSION, "an unknown field in the body", invalid("cascade"), {
    body: { cascade: 1 },
  }),
  request(ROUTE.delete, "DELETE", SESSION, "null as the body", invalid(""), { body: "null" }),
  request(ROUTE.delete, "DELETE", SESSION, "an array as the body", invalid(""), { body: "[]" }),
  request(ROUTE.delete, "DELETE", SESSION, "a string as the body", invalid(""), { body: '"yes"' }),
  request(ROUTE.delete, "DELETE", SESSION, "a truncated body", invalidJson, { body: "{" }),
  request(ROUTE.delete, "DELETE", SESSION, "an own __proto__ key", invalid("__proto__"), {
    body: '{"__proto__":{}}',
  }),
  request(ROUTE.delete, "DELETE", SESSION, "a body nested 100 levels deep", tooDeep(deepObjectPath("x")), {
    body: `{"x":${nestedObject(100)}}`,
  }),
  request(ROUTE.delete, "DELETE", SESSION, "a 6 MB body", error(413, "body_too_large", "body"), {
    body: () => padded("{}", 6 * MB),
  }),
  request(
    ROUTE.delete,
    "DELETE",
    SESSION,
    "a wrong key is 401",
    error(401, "unauthorized", "authorization"),
    {
      headers: { authorization: "Bearer key-c" },
    },
  ),
];

const defaults = (j: any) => (j?.config?.ttl_seconds === 604_800 ? undefined : "not the default config");
const deleted = (j: any) => (j?.deleted === true ? undefined : "not deleted");

const posted: HostileCase[] = [
  post("session_get", "an unknown field", { include: "everything" }, invalid("include")),
  // An empty body is `{}` (docs/api.md): operations whose fields all have defaults run.
  post("session_get", "no body reads the session", undefined, ok(seededConfig)),
  post("session_get", "whitespace only reads the session", " \t\r\n ", ok(seededConfig)),
  post("session_get", "null as the body", "null", invalid("")),
  post("session_get", "a number as the body", "1e400", invalid("")),
  post("session_get", "an empty object reads the session", {}, ok(seededConfig)),
  post("session_configure", "a string deny list", { policy: { deny: "secret.*" } }, invalid("policy.deny")),
  post("session_configure", "no body resets a session to the defaults", undefined, okWrites(defaults), {
    session: "fresh",
    setup: [{ op: "session_configure", body: { ttl_seconds: 120 } }],
  }),
  post(
    "session_configure",
    "whitespace only resets a session to the defaults",
    " \t\r\n ",
    okWrites(defaults),
    {
      session: "fresh",
      setup: [{ op: "session_configure", body: { ttl_seconds: 120 } }],
    },
  ),
  post("session_configure", "an array of configs", [{}, {}], invalid("")),
  post("session_configure", "an empty object resets a fresh session to the defaults", {}, okWrites(), {
    session: "fresh",
  }),
  post("session_delete", "an unknown field", { now: true }, invalid("now")),
  post("session_delete", "no body erases a session", undefined, okWrites(deleted), {
    session: "fresh",
    setup: [{ op: "catalog_sync", body: { tools: [{ name: "a.b", description: "d" }] } }],
  }),
  post("session_delete", "null as the body", "null", invalid("")),
  post("session_delete", "a body nested 65 levels deep", nestedObject(65), tooDeep(/^(a\.)+a$/)),
];

export const SESSION_CASES: HostileCase[] = [...get, ...configure, ...del, ...posted];
