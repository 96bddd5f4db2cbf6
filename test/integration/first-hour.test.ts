// The first hour with the API: a reference that is complete, errors that say what would have worked.
// /docs with every field, nested ones included; the index at GET /; 405 with Allow for a known route
// and another method; the closest operations for a misspelled one; what is wrong with an
// Authorization header; an empty body read as {}.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { formatPath } from "../../src/errors";
import { fieldsTable } from "../../src/http/docs-page";
import { OPERATIONS } from "../../src/ops/registry";
import { call, KEY_A, newSid, op } from "../support/http";

async function get(path: string, headers: Record<string, string> = {}, method = "GET") {
  const res = await SELF.fetch(`https://trove.test${path}`, { method, headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** The text of one operation's section of /docs, tags removed, one line per table row. */
function sectionText(page: string, name: string): string {
  const start = page.indexOf(`<section id="${name}">`);
  expect(start, name).toBeGreaterThanOrEqual(0);
  const html = page.slice(start, page.indexOf("</section>", start));
  return html
    .replace(/<\/tr>/g, "\n")
    .replace(/<\/t[dh]>/g, " | ")
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

describe("GET /docs", () => {
  let page = "";
  const docs = async () => {
    page ||= await (await SELF.fetch("https://trove.test/docs")).text();
    return page;
  };

  it("shows every field of a catalog tool, nested in catalog_sync's request", async () => {
    const text = sectionText(await docs(), "catalog_sync");
    for (const field of [
      "name",
      "description",
      "namespace",
      "tags",
      "side_effects",
      "loading_mode",
      "input_schema",
      "output_schema",
      "examples",
      "extra",
    ]) {
      expect(text).toContain(`tools[].${field}`);
    }
    expect(text).toContain("tools[].examples[].args required | object (any keys)");
    expect(text).toContain("tools[].name required | string |  | matches ^[A-Za-z0-9_.:-]{1,128}$");
    expect(text).toContain("tools[].tags | array of string |  | at most 32 items; each: 1–64 characters");
    expect(text).toContain('mode | "replace" | "merge" | "replace" |');
    expect(text).toContain("tools required | array of object |  | at most 10000 items");
  });

  it("shows types, defaults, ranges and descriptions, and no ±2^53 bounds", async () => {
    const page = await docs();
    expect(page).not.toContain("9007199254740991");
    const search = sectionText(page, "tool_search");
    expect(search).toContain("query required | string |  | at most 2000 characters");
    expect(search).toContain("limit | integer | 8 | 1 to 20 |");
    expect(search).toContain("total_deferred | integer |  |  | Deferred tools this session may activate");
    expect(sectionText(page, "events")).toContain("since | integer | 0 | ≥ 0 | Oldest first");
    expect(sectionText(page, "catalog_sync")).toContain("added | integer |  |  |");
    expect(sectionText(page, "context")).toContain("name_map | object (key → string) |");
    expect(sectionText(page, "skill_read_file")).toContain("next_offset | integer | null |");
  });

  it("shows each shape of a union, named by its constant field", async () => {
    const text = sectionText(await docs(), "skill_load");
    expect(text).toContain("Shape 1 — when reloaded is false");
    expect(text).toContain("Shape 2 — when reloaded is true");
    expect(text).toContain("reminder | string |");
    expect(text).toContain("base_path | string |");
  });

  it("lists each operation once, its REST route inside its section", async () => {
    const page = await docs();
    expect(page).not.toContain("_rest");
    const nav = page.slice(page.indexOf("<nav"), page.indexOf("</nav>"));
    for (const operation of OPERATIONS) {
      expect(nav.split(`href="#${operation.name}"`).length - 1, operation.name).toBe(1);
    }
    expect(sectionText(page, "session_get")).toContain("also: GET /v1/sessions/{sid}");
    expect(sectionText(page, "session_configure")).toContain("also: PUT /v1/sessions/{sid}");
    expect(sectionText(page, "session_delete")).toContain("also: DELETE /v1/sessions/{sid}");
  });

  it("shows the declared request and response example and the errors of every operation", async () => {
    const page = await docs();
    for (const operation of OPERATIONS) {
      const text = sectionText(page, operation.name);
      expect(text, operation.name).toContain(
        `Request body${JSON.stringify(operation.example.input, null, 2)}`,
      );
      expect(text, operation.name).toContain(`Response${JSON.stringify(operation.example.output, null, 2)}`);
      expect(text, operation.name).toContain("Errors");
      for (const code of operation.errors) expect(text, operation.name).toContain(code);
    }
    expect(page).not.toMatch(/<script|https?:\/\/(?!trove)/);
  });

  it("follows $ref and $defs, records, arrays of objects and unions, and stops at recursion", () => {
    const doc = {
      components: {
        schemas: {
          Tool: {
            type: "object",
            properties: { name: { type: "string", minLength: 1, maxLength: 64, description: "Its name" } },
            required: ["name"],
          },
        },
      },
    };
    const schema = {
      type: "object",
      $defs: {
        Step: {
          type: "object",
          properties: { n: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
        },
        Node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } },
        },
      },
      properties: {
        tool: { $ref: "#/components/schemas/Tool", description: "The tool beside the ref" },
        steps: { type: "array", maxItems: 5, items: { $ref: "#/$defs/Step" } },
        by_name: { type: "object", additionalProperties: { $ref: "#/components/schemas/Tool" } },
        shape: {
          oneOf: [
            { type: "object", properties: { kind: { const: "a" }, a: { type: "string" } } },
            { type: "object", properties: { kind: { const: "b" }, b: { type: ["number", "null"] } } },
          ],
        },
        node: { $ref: "#/$defs/Node" },
      },
      required: ["tool"],
      additionalProperties: false,
    };
    const text = sectionText(`<section id="x">${fieldsTable(doc, schema, "request")}</section>`, "x");
    expect(text).toContain("tool required | object |  |  | The tool beside the ref");
    expect(text).toContain("tool.name required | string |  | 1–64 characters | Its name");
    expect(text).toContain("steps | array of object |  | at most 5 items");
    expect(text).toContain("steps[].n | integer |  | ≥ 0 |");
    expect(text).toContain("by_name | object (key → object) |");
    expect(text).toContain("by_name.<key>.name required | string");
    expect(text).toContain('Shape 1 of shape — when kind is "a"');
    expect(text).toContain("shape.b | number | null |");
    expect(text).toContain("node.children | array of object |");
    expect(text).not.toContain("node.children[].children");
    expect(text).toContain("Unknown fields are refused");
  });
});

describe("GET /", () => {
  it("answers a JSON index linking the docs, the inspector, the console, OpenAPI and health by default", async () => {
    for (const accept of [
      undefined,
      "*/*",
      "application/json",
      "text/html;q=0.5, application/json",
      "text/html;q=0",
    ]) {
      const res = await get("/", accept ? { accept } : {});
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type"), accept).toMatch(/^application\/json/);
      expect(res.headers.get("vary")?.toLowerCase()).toContain("accept");
      const json = JSON.parse(res.text);
      expect(json.links).toEqual({
        docs: "/docs",
        inspect: "/inspect",
        console: "/console",
        openapi: "/v1/openapi.json",
        health: "/v1/health",
      });
      expect(json.usage).toContain("POST /v1/sessions/{sid}/{operation}");
    }
  });

  it("answers an HTML page with the same links when the client prefers HTML", async () => {
    for (const accept of [BROWSER_ACCEPT, "text/html", "application/json;q=0.2, text/html"]) {
      const res = await get("/", { accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get("content-type"), accept).toMatch(/^text\/html/);
      expect(res.text).toMatch(/^<!doctype html>/);
      for (const href of ["/docs", "/inspect", "/console", "/v1/openapi.json", "/v1/health"]) {
        expect(res.text).toContain(`href="${href}"`);
      }
      expect(res.text).not.toContain("<script");
    }
  });

  it("needs no key and ignores a wrong one", async () => {
    expect((await get("/", { authorization: "Bearer wrong" })).status).toBe(200);
  });
});

describe("a known route with another method", () => {
  it("answers 405 method_not_allowed with Allow: POST on an operation's route", async () => {
    const sid = newSid();
    for (const method of ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const res = await get(`/v1/sessions/${sid}/tool_search`, { authorization: `Bearer ${KEY_A}` }, method);
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow"), method).toBe("POST");
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(JSON.parse(res.text)).toEqual({
        error: {
          code: "method_not_allowed",
          message: `tool_search answers POST with a JSON body, not ${method}`,
          details: { field: "method", allow: ["POST"] },
        },
      });
    }
  });

  it("names the session resource's route for the operations that have one", async () => {
    const res = await call("GET", `/v1/sessions/${newSid()}/session_get`);
    expect(res.status).toBe(405);
    expect(res.json.error.message).toBe(
      "session_get answers POST with a JSON body (or GET /v1/sessions/{sid}), not GET",
    );
  });

  it("lists the session resource's methods and what each one does", async () => {
    const res = await get(`/v1/sessions/${newSid()}`, { authorization: `Bearer ${KEY_A}` }, "POST");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PUT, DELETE, HEAD");
    const { error } = JSON.parse(res.text);
    expect(error.details.allow).toEqual(["GET", "PUT", "DELETE", "HEAD"]);
    expect(error.message).toContain(
      "GET for session_get, PUT for session_configure, DELETE for session_delete",
    );
  });

  it("answers 405 with Allow: GET, HEAD on the public routes", async () => {
    for (const path of ["/", "/v1/health", "/v1/openapi.json", "/docs", "/inspect"]) {
      const res = await get(path, {}, "POST");
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow"), path).toBe("GET, HEAD");
      expect(JSON.parse(res.text).error.code, path).toBe("method_not_allowed");
    }
  });

  it("checks the key and the session id first", async () => {
    const anonymous = await call("GET", `/v1/sessions/${newSid()}/tool_search`, undefined, null);
    expect(anonymous.status).toBe(401);
    const badSid = await call("GET", "/v1/sessions/a%20b/tool_search");
    expect(badSid.status).toBe(400);
    expect(badSid.json.error.code).toBe("invalid_session_id");
  });
});

describe("an unknown operation", () => {
  it("answers 404 unknown_operation naming the closest operation", async () => {
    const res = await op(newSid(), "tool_serach", { query: "x" });
    expect(res.status).toBe(404);
    expect(res.json.error).toEqual({
      code: "unknown_operation",
      message: 'no operation named "tool_serach"; did you mean "tool_search"?',
      details: { field: "operation", did_you_mean: ["tool_search"] },
    });
  });

  it.each([
    ["a swapped pair of letters", "tool_serach", ["tool_search"]],
    ["another case", "Tool_Search", ["tool_search"]],
    ["a missing letter", "skil_load", ["skill_load"]],
    ["a plural", "tools_search", ["tool_search"]],
    ["a hyphen for an underscore", "pack-list", ["pack_list"]],
    ["a part of several names", "search", ["skill_search", "tool_search"]],
    ["a longer name holding one", "tool_search_v2", ["tool_search"]],
  ])("suggests for %s (%s)", async (_label, name, expected) => {
    const res = await op(newSid(), name, {});
    expect(res.status).toBe(404);
    expect(res.json.error.details.did_you_mean).toEqual(expected);
    for (const suggestion of expected) expect(res.json.error.message).toContain(`"${suggestion}"`);
  });

  it("suggests nothing for a name close to none, and points at /docs", async () => {
    for (const name of ["zzz", "delete_everything_now", "x".repeat(5000)]) {
      const res = await op(newSid(), name, {});
      expect(res.status).toBe(404);
      expect(res.json.error.details.did_you_mean).toEqual([]);
      expect(res.json.error.message).toContain("GET /docs lists every operation");
      expect(res.json.error.message.length).toBeLessThan(400);
    }
  });

  it("answers 404 with suggestions whatever the method", async () => {
    const res = await call("GET", `/v1/sessions/${newSid()}/tool_serach`);
    expect(res.status).toBe(404);
    expect(res.json.error.details.did_you_mean).toEqual(["tool_search"]);
  });
});

describe("an Authorization header that is not `Bearer <key>`", () => {
  const withHeader = async (authorization?: string) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const res = await get(`/v1/sessions/${newSid()}`, headers);
    return { status: res.status, headers: res.headers, json: JSON.parse(res.text) };
  };

  it("answers 401 saying the scheme is missing, for a bare key", async () => {
    const res = await withHeader("dev-key");
    expect(res.status).toBe(401);
    expect(res.json.error).toEqual({
      code: "unauthorized",
      message: "the Authorization header has no scheme: send `Authorization: Bearer <key>`",
      details: { field: "authorization", reason: "no_scheme" },
    });
    expect(res.headers.get("www-authenticate")).toBe(
      'Bearer realm="trove", error_description="the Authorization header has no scheme: send `Authorization: Bearer <key>`"',
    );
  });

  it("answers a real key without the scheme exactly like any other bare value", async () => {
    const real = await withHeader(KEY_A);
    const made_up = await withHeader("not-a-key");
    expect(real.status).toBe(401);
    expect(real.json).toEqual(made_up.json);
  });

  it("tells an unknown key apart from a header of the wrong shape, and says nothing about the key", async () => {
    const cases: [string | undefined, string][] = [
      [undefined, "missing"],
      ["", "missing"],
      ["Bearer", "no_key"],
      ["Basic a2V5LWE6", "wrong_scheme"],
      ["Token key-a", "wrong_scheme"],
      [`Bearer ${KEY_A} extra`, "malformed"],
      ["Bearer key-c", "unknown_key"],
      ["Bearer key-", "unknown_key"],
      ["Bearer KEY-A", "unknown_key"],
    ];
    for (const [header, reason] of cases) {
      const res = await withHeader(header);
      expect(res.status, header).toBe(401);
      expect(res.json.error.details, header).toEqual({ field: "authorization", reason });
      expect(res.json.error.message, header).not.toContain("key-a");
    }
    expect((await withHeader("Bearer key-c")).json.error.message).toBe("missing or unknown API key");
  });
});

describe("an empty body", () => {
  const acceptsEmpty = OPERATIONS.filter((o) => o.input.safeParse({}).success);
  const needsFields = OPERATIONS.filter((o) => !o.input.safeParse({}).success);

  it("is accepted by the operations whose fields all have defaults", () => {
    const names = acceptsEmpty.map((o) => o.name);
    for (const name of [
      "state",
      "session_get",
      "pack_list",
      "events",
      "skill_directory",
      "context",
      "skill_list",
    ]) {
      expect(names).toContain(name);
    }
  });

  for (const operation of acceptsEmpty) {
    it(`${operation.name}: no body and whitespace answer as {} does`, async () => {
      const want = await op(newSid(), operation.name, {});
      for (const body of [undefined, " \r\n\t "]) {
        const res =
          body === undefined
            ? await call("POST", `/v1/sessions/${newSid()}/${operation.name}`)
            : await op(newSid(), operation.name, body);
        expect(res.status, JSON.stringify(res.json)).toBe(want.status);
        if (operation.name !== "events") expect(res.json).toEqual(want.json);
        else expect(res.json.events).toEqual(want.json.events);
      }
    });
  }

  for (const operation of needsFields) {
    it(`${operation.name}: no body answers 400 naming the first field it needs`, async () => {
      const issue = operation.input.safeParse({}).error?.issues[0];
      const field = formatPath(issue?.path ?? []);
      const res = await call("POST", `/v1/sessions/${newSid()}/${operation.name}`);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("invalid_input");
      expect(res.json.error.details.field).toBe(field);
      expect(res.json.error.message).toMatch(/^the body is empty/);
      expect(res.json.error.message).toContain(field);
    });
  }

  it("says which field a search needs", async () => {
    const res = await call("POST", `/v1/sessions/${newSid()}/tool_search`);
    expect(res.json.error.message).toBe("the body is empty, and query is required");
  });

  it("still refuses a body that is not JSON", async () => {
    const res = await op(newSid(), "state", "{");
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("invalid_json");
  });
});
