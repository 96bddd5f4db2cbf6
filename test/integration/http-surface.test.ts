// The HTTP contract: health, auth, session ids, routing, body parsing, validation errors and the
// session resource (PUT/GET/DELETE). Every response is JSON and none is a 5xx.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import pkg from "../../package.json";
import { BUNDLE } from "../../src/generated/packs";
import { EMPTY_FINGERPRINT } from "../support/fixtures";
import { call, KEY_A, newSid, op } from "../support/http";

const DEFAULT_CONFIG = {
  catalog: null,
  project_id: null,
  activation_scope: "session",
  default_loading_mode: "deferred",
  always_loaded_patterns: [],
  preferred_namespaces: [],
  policy: { allow: ["*"], deny: [], approval: [], skills: { allow: ["*"], deny: [] } },
  examples: { enabled: true, max_per_tool: 3 },
  skills: {
    enabled: true,
    max_tokens: 2000,
    top_k: 3,
    redact_pii: true,
    learning_tools: false,
    directory: { enabled: true, max_entries: 30, selection_strategy: "pinned_then_recent" },
  },
  context: { max_tokens: null },
  user: null,
  learning: {
    enabled: true,
    min_support: 3,
    min_support_write: 5,
    min_support_contested: 50,
    min_support_near: 2,
    min_support_own: 5,
  },
  ttl_seconds: 604_800,
  run_activation_ttl_seconds: 3_600,
};

/** A raw request, for headers and bodies the `call` helper cannot express. */
async function raw(
  method: string,
  path: string,
  init: { headers?: Record<string, string>; body?: BodyInit } = {},
): Promise<{ status: number; contentType: string | null; json: any }> {
  const res = await SELF.fetch(`https://trove.test${path}`, { method, ...init });
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get("content-type"),
    json: text ? JSON.parse(text) : null,
  };
}

function expectError(res: { status: number; json: any }, status: number, code: string, field?: string) {
  expect(res.status).toBe(status);
  expect(res.json).toEqual({
    error: { code, message: expect.any(String), details: expect.any(Object) },
  });
  expect(res.json.error.message.length).toBeGreaterThan(0);
  if (field !== undefined) expect(res.json.error.details.field).toBe(field);
}

describe("health", () => {
  it("answers without auth with ok, the package version, the bundle hash and its size", async () => {
    const res = await call("GET", "/v1/health", undefined, null);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      ok: true,
      version: pkg.version,
      bundle_hash: BUNDLE.hash,
      packs: expect.any(Number),
      skills: expect.any(Number),
      bundled: { packs: BUNDLE.packs.length, skills: BUNDLE.skills.length },
    });
    expect(res.json.bundled.skills).toBeGreaterThan(0);
    expect(res.json.bundle_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("counts the skills a session sees, not what is bundled: packs shipped off or scoped to another tenant are not", async () => {
    const global = BUNDLE.packs.filter((p) => p.enabled && p.scope === "global");
    const anonymous = await call("GET", "/v1/health", undefined, null);
    expect(anonymous.json.packs).toBe(global.length);
    // The bundled core pack ships off, and the examples pack is the dev tenant's.
    expect(BUNDLE.packs.some((p) => !p.enabled)).toBe(true);
    expect(anonymous.json.skills).toBeLessThan(BUNDLE.skills.length);
    // With a key: what that tenant's new session lists.
    const withKey = await call("GET", "/v1/health");
    const sid = newSid();
    const listed = await op(sid, "skill_list", { page_size: 100 });
    expect(listed.status).toBe(200);
    expect(withKey.json.skills).toBe(listed.json.total);
  });

  it("ignores a wrong key because health is public", async () => {
    const res = await call("GET", "/v1/health", undefined, "not-a-key");
    expect(res.status).toBe(200);
    expect(res.json.ok).toBe(true);
  });
});

describe("auth", () => {
  it("rejects a request without an Authorization header with 401 unauthorized", async () => {
    const res = await call("GET", `/v1/sessions/${newSid()}`, undefined, null);
    expectError(res, 401, "unauthorized", "authorization");
  });

  it("rejects an unknown bearer key with 401 unauthorized", async () => {
    const res = await call("GET", `/v1/sessions/${newSid()}`, undefined, "key-c");
    expectError(res, 401, "unauthorized", "authorization");
  });

  it("rejects a key that is a prefix or extension of a real key", async () => {
    for (const key of ["key-", "key-aa", "KEY-A", "tenant-a:key-a"]) {
      const res = await call("GET", `/v1/sessions/${newSid()}`, undefined, key);
      expectError(res, 401, "unauthorized", "authorization");
    }
  });

  it.each([
    ["a Basic scheme", `Basic ${KEY_A}`],
    ["the key without a scheme", KEY_A],
    ["the scheme without a key", "Bearer"],
    ["the scheme and a blank key", "Bearer   "],
    ["two tokens after the scheme", `Bearer ${KEY_A} extra`],
    ["the scheme glued to the key", `Bearer${KEY_A}`],
    ["an empty header", ""],
  ])("rejects a malformed header (%s) with 401 JSON", async (_label, header) => {
    const res = await raw("GET", `/v1/sessions/${newSid()}`, { headers: { authorization: header } });
    expectError(res, 401, "unauthorized", "authorization");
    expect(res.contentType).toMatch(/application\/json/);
  });

  it("accepts the scheme in any case and surrounding whitespace", async () => {
    for (const header of [`bearer ${KEY_A}`, `BEARER ${KEY_A}`, `Bearer   ${KEY_A}  `]) {
      const res = await raw("GET", `/v1/sessions/${newSid()}`, { headers: { authorization: header } });
      expect(res.status).toBe(200);
    }
  });

  it("checks auth before validating the session id or the body", async () => {
    expectError(await call("GET", "/v1/sessions/bad%20sid", undefined, null), 401, "unauthorized");
    expectError(await op(newSid(), "catalog_sync", "{not json", null), 401, "unauthorized");
    expectError(await op(newSid(), "no_such_op", {}, null), 401, "unauthorized");
  });
});

describe("session ids", () => {
  it.each([
    ["a space", "a%20b"],
    ["a slash (encoded)", "a%2Fb"],
    ["an exclamation mark", "a!b"],
    ["a dollar sign", "a$b"],
    ["an at sign", "a@b"],
    ["a plus", "a+b"],
    ["a non-ASCII letter", "caf%C3%A9"],
    ["an emoji", "%F0%9F%98%80"],
    ["a tilde", "a~b"],
  ])("rejects a sid containing %s with 400 invalid_session_id on every route", async (_label, sid) => {
    expectError(await call("GET", `/v1/sessions/${sid}`), 400, "invalid_session_id", "sid");
    expectError(await call("PUT", `/v1/sessions/${sid}`, {}), 400, "invalid_session_id", "sid");
    expectError(await call("DELETE", `/v1/sessions/${sid}`), 400, "invalid_session_id", "sid");
    expectError(await op(sid, "catalog_sync", { tools: [] }), 400, "invalid_session_id", "sid");
    expectError(await op(sid, "tool_search", { query: "x" }), 400, "invalid_session_id", "sid");
    expectError(await op(sid, "no_such_op", {}), 400, "invalid_session_id", "sid");
  });

  it("rejects a 129-character sid and accepts a 128-character one", async () => {
    const long = "s".repeat(129);
    expectError(await call("GET", `/v1/sessions/${long}`), 400, "invalid_session_id", "sid");
    expectError(await op(long, "tool_search", { query: "x" }), 400, "invalid_session_id", "sid");

    const max = `${newSid()}${"s".repeat(128)}`.slice(0, 128);
    const res = await call("GET", `/v1/sessions/${max}`);
    expect(res.status).toBe(200);
    expect(res.json.catalog.tools).toBe(0);
  });

  it("accepts every character the sid pattern allows", async () => {
    const sid = `Az09._:-${crypto.randomUUID()}`;
    const res = await op(sid, "catalog_sync", { tools: [{ name: "x.y", description: "d" }] });
    expect(res.status).toBe(200);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(1);
  });
});

describe("routing", () => {
  it("answers an unknown operation with 404 unknown_operation naming the operation field", async () => {
    const res = await op(newSid(), "tool_delete_everything", {});
    expectError(res, 404, "unknown_operation", "operation");
    expect(res.json.error.message).toContain("tool_delete_everything");
  });

  it("answers an unknown path with a 404 JSON error", async () => {
    expectError(await call("GET", "/v1/nothing"), 404, "not_found");
    expectError(await call("GET", "/index.html"), 404, "not_found");
    expectError(await call("GET", `/v1/sessions/${newSid()}/tool_search/more`), 404, "not_found");
  });

  it("answers a known route with another method with 405 method_not_allowed (first-hour.test.ts)", async () => {
    expectError(
      await call("GET", `/v1/sessions/${newSid()}/tool_search`),
      405,
      "method_not_allowed",
      "method",
    );
    expectError(await call("PATCH", `/v1/sessions/${newSid()}`, {}), 405, "method_not_allowed", "method");
    expectError(await call("POST", `/v1/sessions/${newSid()}`, {}), 405, "method_not_allowed", "method");
  });

  it("does not route an operation name with a different case", async () => {
    expectError(await op(newSid(), "Tool_Search", { query: "x" }), 404, "unknown_operation", "operation");
  });
});

describe("request bodies", () => {
  it.each([
    ["an unterminated object", "{"],
    ["a bare word", "tools"],
    ["a trailing comma", '{"tools": [],}'],
    ["single quotes", "{'tools': []}"],
    ["two documents", "{} {}"],
  ])("rejects %s with 400 invalid_json", async (_label, body) => {
    const res = await op(newSid(), "catalog_sync", body);
    expectError(res, 400, "invalid_json", "body");
    expect(typeof res.json.error.details.reason).toBe("string");
  });

  it("reads a missing body as {}: an operation that needs a field answers 400 naming it", async () => {
    expectError(await call("POST", `/v1/sessions/${newSid()}/tool_search`), 400, "invalid_input", "query");
    expectError(await op(newSid(), "tool_search", "   \n"), 400, "invalid_input", "query");
  });

  it("reads a missing body on PUT as {}: the default config", async () => {
    const res = await call("PUT", `/v1/sessions/${newSid()}`);
    expect(res.status).toBe(200);
    expect(res.json.config).toEqual(DEFAULT_CONFIG);
  });

  it.each([
    ["null", "null"],
    ["an array", "[]"],
    ["a string", '"tools"'],
    ["a number", "42"],
  ])("rejects a JSON body that is %s with 400 invalid_input", async (_label, body) => {
    expectError(await op(newSid(), "catalog_sync", body), 400, "invalid_input", "");
    expectError(await call("PUT", `/v1/sessions/${newSid()}`, body), 400, "invalid_input", "");
  });

  it("rejects a body over 5 MB with 413 body_too_large before touching the session", async () => {
    const sid = newSid();
    const base = '{"tools":[]}';
    const body = base + " ".repeat(5 * 1024 * 1024 + 1 - base.length);
    const res = await op(sid, "catalog_sync", body);
    expectError(res, 413, "body_too_large", "body");
    expect(res.json.error.details.limit).toBe(5 * 1024 * 1024);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(0);
  });

  it("accepts a body of exactly 5 MB", async () => {
    const base = JSON.stringify({ tools: [{ name: "big.one", description: "fits" }] });
    const body = base + " ".repeat(5 * 1024 * 1024 - base.length);
    const res = await op(newSid(), "catalog_sync", body);
    expect(res.status).toBe(200);
    expect(res.json.added).toBe(1);
  });

  it("rejects a streamed body over 5 MB sent without a Content-Length", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(1024 * 1024));
    const { readable, writable } = new IdentityTransformStream();
    const writer = writable.getWriter();
    // The outcome is taken at once, so the failure the test expects is never an unhandled one.
    const writing = (async () => {
      await writer.write(new TextEncoder().encode('{"tools":[]}'));
      for (let i = 0; i < 6; i++) await writer.write(chunk);
      await writer.close();
    })().then(
      () => null,
      (err: unknown) => err,
    );
    writer.closed.catch(() => undefined);
    const res = await raw("POST", `/v1/sessions/${newSid()}/catalog_sync`, {
      headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
      body: readable,
    });
    expectError(res, 413, "body_too_large", "body");
    // The server stopped reading at the limit: the rest of the body was never taken.
    expect(String(await writing)).toContain("Network connection lost");
  });

  it.each([
    ["extra", (n: string) => `{"name":"deep.tool","description":"d","extra":{"a":${n}}}`],
    ["input_schema", (n: string) => `{"name":"deep.tool","description":"d","input_schema":{"a":${n}}}`],
  ])(
    "answers a tool whose %s is nested 3,000 levels deep with 400 too_deep naming the path",
    async (field, record) => {
      const depth = 3_000;
      const nested = `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
      const res = await op(newSid(), "catalog_sync", `{"tools":[${record(nested)}]}`);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("too_deep");
      expect(res.json.error.details.field).toMatch(new RegExp(`^tools\\[0\\]\\.${field}(\\.a)+$`));
    },
  );

  it("answers a body nested 100,000 levels deep with a 4xx, not a 5xx", async () => {
    const depth = 100_000;
    const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const res = await op(
      newSid(),
      "catalog_sync",
      `{"tools":[{"name":"a","description":"d","extra":{"a":${nested}}}]}`,
    );
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it("accepts nesting up to 64 levels and refuses the 65th, writing nothing", async () => {
    const sid = newSid();
    // The body itself is one level, tools two more, the record a third: 61 + 3 = 64.
    const body = (depth: number) =>
      `{"tools":[{"name":"a","description":"d","extra":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}]}`;
    const ok = await op(sid, "catalog_sync", body(61));
    expect(ok.status).toBe(200);
    expect(ok.json.added).toBe(1);
    const deep = await op(sid, "catalog_sync", body(62).replace('"name":"a"', '"name":"b"'));
    expect(deep.status).toBe(400);
    expect(deep.json.error.code).toBe("too_deep");
    const state = await call("GET", `/v1/sessions/${sid}`);
    expect(state.json.catalog.tools).toBe(1);
  });
});

describe("validation errors", () => {
  it("names the path of a wrong type inside an array item", async () => {
    const res = await op(newSid(), "catalog_sync", {
      tools: [
        { name: "a.one", description: "d" },
        { name: 7, description: "d" },
      ],
    });
    expectError(res, 400, "invalid_input", "tools[1].name");
    expect(res.json.error.message).toMatch(/^tools\[1\]\.name: /);
    expect(res.json.error.details.issues[0]).toMatchObject({ field: "tools[1].name", code: "invalid_type" });
  });

  it.each([
    ["a string", "5"],
    ["zero", 0],
    ["above 20", 21],
    ["a fraction", 2.5],
    ["negative", -1],
    ["null", null],
  ])("rejects a limit that is %s naming the limit field", async (_label, limit) => {
    const res = await op(newSid(), "tool_search", { query: "x", limit });
    expectError(res, 400, "invalid_input", "limit");
  });

  it("names each offending field", async () => {
    expectError(await op(newSid(), "tool_search", {}), 400, "invalid_input", "query");
    expectError(await op(newSid(), "tool_search", { query: 1 }), 400, "invalid_input", "query");
    expectError(
      await op(newSid(), "tool_search", { query: "x", search_type: "fuzzy" }),
      400,
      "invalid_input",
      "search_type",
    );
    expectError(
      await op(newSid(), "tool_search", { query: "x", include_always_loaded: "true" }),
      400,
      "invalid_input",
      "include_always_loaded",
    );
    expectError(
      await op(newSid(), "tool_search", { query: "q".repeat(2001) }),
      400,
      "invalid_input",
      "query",
    );
    expectError(await op(newSid(), "catalog_sync", { tools: {} }), 400, "invalid_input", "tools");
    expectError(await op(newSid(), "catalog_sync", {}), 400, "invalid_input", "tools");
    expectError(
      await op(newSid(), "catalog_sync", { tools: [], mode: "upsert" }),
      400,
      "invalid_input",
      "mode",
    );
    expectError(
      await op(newSid(), "catalog_sync", { tools: [{ name: "a", description: "d", tags: ["ok", 3] }] }),
      400,
      "invalid_input",
      "tools[0].tags[1]",
    );
    expectError(
      await op(newSid(), "catalog_sync", {
        tools: [{ name: "a", description: "d", examples: [{ args: {}, description: 9 }] }],
      }),
      400,
      "invalid_input",
      "tools[0].examples[0].description",
    );
  });

  it("rejects tool names outside the name pattern", async () => {
    for (const name of ["", "has space", "slash/name", "n".repeat(129), "é"]) {
      const res = await op(newSid(), "catalog_sync", { tools: [{ name, description: "d" }] });
      expectError(res, 400, "invalid_input", "tools[0].name");
    }
  });

  it("names the unknown key's own path, not its parent's", async () => {
    expectError(
      await op(newSid(), "catalog_sync", { tools: [{ name: "a", description: "d", inputSchema: {} }] }),
      400,
      "invalid_input",
      "tools[0].inputSchema",
    );
    expectError(
      await op(newSid(), "tool_search", { query: "x", searchType: "fts" }),
      400,
      "invalid_input",
      "searchType",
    );
    expectError(
      await call("PUT", `/v1/sessions/${newSid()}`, { policy: { deny: [], block: ["x"] } }),
      400,
      "invalid_input",
      "policy.block",
    );
    expectError(
      await op(newSid(), "catalog_sync", {
        tools: [{ name: "a", description: "d", examples: [{ args: {}, output: 1 }] }],
      }),
      400,
      "invalid_input",
      "tools[0].examples[0].output",
    );
  });

  it("lists every issue with its field, code and message", async () => {
    const res = await op(newSid(), "catalog_sync", {
      tools: [
        { name: "a b", description: "d" },
        { name: "ok", description: 5, side_effects: "nuclear" },
      ],
    });
    expectError(res, 400, "invalid_input", "tools[0].name");
    const fields = res.json.error.details.issues.map((i: any) => i.field);
    expect(fields).toEqual(["tools[0].name", "tools[1].description", "tools[1].side_effects"]);
    for (const issue of res.json.error.details.issues) {
      expect(issue).toEqual({
        field: expect.any(String),
        code: expect.any(String),
        message: expect.any(String),
      });
    }
  });

  it("caps the issue list at 20 and reports how many more there were", async () => {
    const tools = Array.from({ length: 25 }, (_, i) => ({ name: `bad name ${i}`, description: "d" }));
    const res = await op(newSid(), "catalog_sync", { tools });
    expectError(res, 400, "invalid_input", "tools[0].name");
    expect(res.json.error.details.issues).toHaveLength(20);
    expect(res.json.error.details.more_issues).toBe(5);
  });

  it("rejects a DELETE body with unknown fields", async () => {
    expectError(
      await call("DELETE", `/v1/sessions/${newSid()}`, { force: true }),
      400,
      "invalid_input",
      "force",
    );
  });
});

describe("the session resource", () => {
  it("PUT with an empty object returns the default config and empty counts", async () => {
    const res = await call("PUT", `/v1/sessions/${newSid()}`, {});
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      config: DEFAULT_CONFIG,
      catalog: { fingerprint: EMPTY_FINGERPRINT, tools: 0, deferred: 0, visible: 0, published: null },
      storage: { bytes: expect.any(Number) },
    });
  });

  it("PUT fills the defaults of omitted fields, including inside the policy", async () => {
    const res = await call("PUT", `/v1/sessions/${newSid()}`, {
      project_id: "proj:1",
      preferred_namespaces: ["github"],
      policy: { deny: ["shell.*"] },
    });
    expect(res.status).toBe(200);
    expect(res.json.config).toEqual({
      ...DEFAULT_CONFIG,
      project_id: "proj:1",
      preferred_namespaces: ["github"],
      policy: { allow: ["*"], deny: ["shell.*"], approval: [], skills: { allow: ["*"], deny: [] } },
    });
  });

  it("GET returns the stored config and catalog counts", async () => {
    const sid = newSid();
    const config = {
      catalog: null,
      project_id: "p",
      activation_scope: "run",
      default_loading_mode: "deferred",
      always_loaded_patterns: ["core.*"],
      preferred_namespaces: ["core"],
      policy: {
        allow: ["*"],
        deny: ["danger.*"],
        approval: ["core.write"],
        skills: { allow: ["*"], deny: ["secret-*"] },
      },
      examples: { enabled: false, max_per_tool: 1 },
      skills: {
        enabled: true,
        max_tokens: 800,
        top_k: 5,
        redact_pii: false,
        learning_tools: false,
        directory: { enabled: false, max_entries: 10, selection_strategy: "pinned_then_top" },
      },
      context: { max_tokens: 9000 },
      user: "u-5f2c9a",
      learning: {
        enabled: false,
        min_support: 4,
        min_support_write: 6,
        min_support_contested: 80,
        min_support_near: 3,
        min_support_own: 7,
      },
      ttl_seconds: 3_600,
      run_activation_ttl_seconds: 600,
    };
    expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
    const sync = await op(sid, "catalog_sync", {
      tools: [
        { name: "core.read", description: "reads" },
        { name: "core.write", description: "writes", side_effects: "write" },
        { name: "extra.search", description: "searches" },
        { name: "extra.fetch", description: "fetches", loading_mode: "always" },
        { name: "danger.rm", description: "removes", side_effects: "stateful" },
      ],
    });
    expect(sync.status).toBe(200);
    const res = await call("GET", `/v1/sessions/${sid}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      config,
      catalog: { fingerprint: sync.json.fingerprint, tools: 4, deferred: 1, visible: 3, published: null },
      storage: { bytes: expect.any(Number) },
    });
  });

  it("GET on a session that was never written returns the default config and an empty catalog", async () => {
    const res = await call("GET", `/v1/sessions/${newSid()}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      config: DEFAULT_CONFIG,
      catalog: { fingerprint: EMPTY_FINGERPRINT, tools: 0, deferred: 0, visible: 0, published: null },
      storage: { bytes: expect.any(Number) },
    });
  });

  it("PUT replaces the whole config rather than merging into it", async () => {
    const sid = newSid();
    await call("PUT", `/v1/sessions/${sid}`, { project_id: "p", preferred_namespaces: ["a"] });
    const res = await call("PUT", `/v1/sessions/${sid}`, { activation_scope: "run" });
    expect(res.json.config).toEqual({ ...DEFAULT_CONFIG, activation_scope: "run" });
    expect((await call("GET", `/v1/sessions/${sid}`)).json.config).toEqual(res.json.config);
  });

  it("PUT rejects invalid config values naming the field", async () => {
    const sid = newSid();
    const cases: [unknown, string][] = [
      [{ project_id: "has space" }, "project_id"],
      [{ project_id: "p".repeat(129) }, "project_id"],
      [{ activation_scope: "forever" }, "activation_scope"],
      [{ default_loading_mode: "lazy" }, "default_loading_mode"],
      [{ always_loaded_patterns: ["ok", ""] }, "always_loaded_patterns[1]"],
      [{ preferred_namespaces: [""] }, "preferred_namespaces[0]"],
      [{ policy: { deny: ["bad glob"] } }, "policy.deny[0]"],
      [{ policy: { allow: "*" } }, "policy.allow"],
      [{ policy: null }, "policy"],
    ];
    for (const [body, field] of cases) {
      expectError(await call("PUT", `/v1/sessions/${sid}`, body), 400, "invalid_input", field);
    }
    // Nothing was stored by the rejected requests.
    expect((await call("GET", `/v1/sessions/${sid}`)).json.config).toEqual(DEFAULT_CONFIG);
  });

  it("DELETE erases the catalog and the config", async () => {
    const sid = newSid();
    await call("PUT", `/v1/sessions/${sid}`, { project_id: "p", policy: { deny: ["x.*"] } });
    await op(sid, "catalog_sync", {
      tools: [
        { name: "a.one", description: "first" },
        { name: "a.two", description: "second" },
      ],
    });
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(2);

    const del = await call("DELETE", `/v1/sessions/${sid}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: true });

    const after = await call("GET", `/v1/sessions/${sid}`);
    expect(after.status).toBe(200);
    expect(after.json).toEqual({
      config: DEFAULT_CONFIG,
      catalog: { fingerprint: EMPTY_FINGERPRINT, tools: 0, deferred: 0, visible: 0, published: null },
      storage: { bytes: expect.any(Number) },
    });
    const search = await op(sid, "tool_search", { query: "first" });
    expect(search.json).toMatchObject({ tools: [], total_deferred: 0 });
  });

  it("a deleted session can be written again", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: [{ name: "a.one", description: "first" }] });
    expect((await call("DELETE", `/v1/sessions/${sid}`)).status).toBe(200);
    expect((await call("DELETE", `/v1/sessions/${sid}`)).status).toBe(200);
    const sync = await op(sid, "catalog_sync", { tools: [{ name: "b.two", description: "second" }] });
    expect(sync.status).toBe(200);
    expect(sync.json).toMatchObject({ added: 1, updated: 0, removed: 0, unchanged: 0, total: 1 });
    const search = await op(sid, "tool_search", { query: "second" });
    expect(search.json.tools.map((t: any) => t.name)).toEqual(["b.two"]);
  });

  it("DELETE of a session that never existed succeeds", async () => {
    const res = await call("DELETE", `/v1/sessions/${newSid()}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ deleted: true });
  });
});

describe("no 5xx", () => {
  it("answers a battery of odd requests with 2xx or 4xx JSON", async () => {
    const sid = newSid();
    const requests: [string, string, unknown?][] = [
      ["GET", `/v1/sessions/${sid}`],
      [
        "PUT",
        `/v1/sessions/${sid}`,
        { preferred_namespaces: Array.from({ length: 100 }, (_, i) => `n${i}`) },
      ],
      [
        "PUT",
        `/v1/sessions/${sid}`,
        { preferred_namespaces: Array.from({ length: 101 }, (_, i) => `n${i}`) },
      ],
      ["POST", `/v1/sessions/${sid}/catalog_sync`, { tools: [{ name: "a", description: "" }] }],
      ["POST", `/v1/sessions/${sid}/catalog_sync`, { tools: [{ name: "a", description: "\u0000\uffff" }] }],
      ["POST", `/v1/sessions/${sid}/catalog_sync`, { tools: [{ name: "a", description: "\ud800 lone" }] }],
      [
        "POST",
        `/v1/sessions/${sid}/catalog_sync`,
        { tools: [{ name: "a", description: "d", input_schema: [] }] },
      ],
      ["POST", `/v1/sessions/${sid}/catalog_sync`, { tools: null }],
      ["POST", `/v1/sessions/${sid}/tool_search`, { query: "\ud800" }],
      ["POST", `/v1/sessions/${sid}/tool_search`, { query: "\ud800", search_type: "regex" }],
      ["POST", `/v1/sessions/${sid}/tool_search`, { query: "\ud800", search_type: "exact" }],
      ["POST", `/v1/sessions/${sid}/tool_search`, { query: "__proto__" }],
      ["POST", `/v1/sessions/${sid}/tool_search`, '{"query":"x","__proto__":{"limit":1}}'],
      [
        "POST",
        `/v1/sessions/${sid}/catalog_sync`,
        '{"tools":[{"name":"a","description":"d","extra":{"__proto__":1}}]}',
      ],
      ["DELETE", `/v1/sessions/${sid}`],
      ["GET", "/v1/sessions/"],
      ["GET", "/v1/sessions"],
      ["POST", "/v1/sessions//tool_search", { query: "x" }],
    ];
    for (const [method, path, body] of requests) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).toBeLessThan(500);
      expect(res.json).not.toBeNull();
    }
  });
});
