// Every surface is derived from the operation registry: REST routes, MCP tools and annotations,
// OpenAPI (tags, errors, examples), /docs, the model-facing tool list, the catalog's reserved names.
// Each test here fails when a surface and the declarations disagree.
import { runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ERROR_CODES } from "../../src/errors";
import { modelToolNames } from "../../src/ops/builtins";
import { COMMON_ERRORS } from "../../src/ops/operation";
import { OPERATIONS } from "../../src/ops/registry";
import { call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const mcp = async (sid: string, method: string, params: unknown = {}) => {
  const res = await SELF.fetch(`https://trove.test/v1/sessions/${sid}/mcp`, {
    method: "POST",
    headers: {
      authorization: "Bearer key-a",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await res.json()) as any;
};

describe("each declaration", () => {
  for (const operation of OPERATIONS) {
    it(`${operation.name}: its example's request and response fit its schemas`, () => {
      const input = operation.input.safeParse(operation.example.input);
      expect(input.success, JSON.stringify(input.error?.issues)).toBe(true);
      const output = operation.output.safeParse(operation.example.output);
      expect(output.success, JSON.stringify(output.error?.issues)).toBe(true);
      for (const step of operation.example.before ?? []) {
        const before = OPERATIONS.find((o) => o.name === step.op);
        expect(before?.input.safeParse(step.input).success, `${operation.name} before ${step.op}`).toBe(true);
      }
    });
  }

  it("declares errors that exist, once each, and never the ones every operation answers", () => {
    for (const operation of OPERATIONS) {
      expect(new Set(operation.errors).size, operation.name).toBe(operation.errors.length);
      for (const code of operation.errors) {
        expect(ERROR_CODES[code], `${operation.name}: ${code}`).toBeDefined();
        expect(COMMON_ERRORS as readonly string[], `${operation.name}: ${code}`).not.toContain(code);
      }
    }
  });

  it("has a unique name made of lowercase words", () => {
    const names = OPERATIONS.map((o) => o.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });
});

const ENTRY_POINTS = import.meta.glob<string>(
  ["../../src/session-object.ts", "../../src/catalog-object.ts"],
  {
    query: "?raw",
    import: "default",
    eager: true,
  },
);

describe("the session object", () => {
  it("names no operation: what it treats differently is a fact of the declaration (publishedCatalog, ranksTools)", () => {
    expect(Object.keys(ENTRY_POINTS)).toHaveLength(2);
    for (const [path, source] of Object.entries(ENTRY_POINTS)) {
      const named = OPERATIONS.filter((o) => source.includes(`"${o.name}"`)).map((o) => o.name);
      expect(named, path).toEqual([]);
    }
  });

  it("answers with a deleted published catalog exactly the operations that declare publishedCatalog", async () => {
    const name = `cat-${crypto.randomUUID().slice(0, 8)}`;
    expect(
      (await call("PUT", `/v1/catalogs/${name}`, { tools: [{ name: "a.b", description: "x" }] })).status,
    ).toBe(200);
    const sid = newSid();
    expect((await call("PUT", `/v1/sessions/${sid}`, { catalog: name })).status).toBe(200);
    expect((await call("DELETE", `/v1/catalogs/${name}`)).status).toBe(200);
    await runInDurableObject(sessionStub(sid), (obj) => obj.published.reset());
    const exempt = OPERATIONS.filter((o) => o.publishedCatalog).map((o) => o.name);
    expect(exempt.sort()).toEqual(["session_configure", "session_delete", "session_get"]);
    for (const operation of OPERATIONS) {
      if (operation.name === "session_delete" || operation.name === "session_configure") continue;
      const res = await op(sid, operation.name, operation.example.input);
      if (operation.publishedCatalog) expect(res.status, operation.name).toBe(200);
      else expect(res.json.error?.code, operation.name).toBe("catalog_deleted");
    }
  });
});

describe("REST", () => {
  it("answers POST /v1/sessions/{sid}/{name} for every operation, and nothing else", async () => {
    const sid = newSid();
    for (const operation of OPERATIONS) {
      // A body no operation accepts: the route exists when the answer is the operation's own 400.
      const res = await op(sid, operation.name, { not_a_field: 1 });
      expect(res.status, operation.name).toBe(400);
      expect(res.json.error.code, operation.name).toBe("invalid_input");
    }
    const miss = await op(sid, "no_such_operation", {});
    expect(miss.status).toBe(404);
    expect(miss.json.error.code).toBe("unknown_operation");
  });

  it("binds the session resource's methods to the operations that declare them", async () => {
    const bound = OPERATIONS.filter((o) => o.http);
    expect(bound.map((o) => `${o.http?.method} ${o.name}`).sort()).toEqual([
      "DELETE session_delete",
      "GET session_get",
      "PUT session_configure",
    ]);
    const sid = newSid();
    const put = await call("PUT", `/v1/sessions/${sid}`, { ttl_seconds: 120 });
    expect(put.json.config.ttl_seconds).toBe(120);
    const get = await call("GET", `/v1/sessions/${sid}`);
    expect(get.json.config.ttl_seconds).toBe(120);
  });
});

describe("MCP", () => {
  it("lists exactly the registry's operations, with their schemas and read-only hints", async () => {
    const { result } = await mcp(newSid(), "tools/list");
    const tools = result.tools as any[];
    expect(tools.map((t) => t.name)).toEqual(OPERATIONS.map((o) => o.name));
    for (const operation of OPERATIONS) {
      const tool = tools.find((t) => t.name === operation.name);
      expect(tool.description, operation.name).toBe(operation.summary);
      expect(tool.annotations.readOnlyHint, operation.name).toBe(!operation.writes);
      const { $schema: _, ...schema } = z.toJSONSchema(operation.input, { io: "input" }) as any;
      expect(tool.inputSchema, operation.name).toEqual(schema);
    }
  });
});

describe("OpenAPI and /docs", () => {
  it("files every operation under its tag, with its example and exactly its errors", async () => {
    const { json: doc } = await call("GET", "/v1/openapi.json", undefined, null);
    for (const operation of OPERATIONS) {
      const post = doc.paths[`/v1/sessions/{sid}/${operation.name}`]?.post;
      expect(post, operation.name).toBeDefined();
      expect(post.tags).toEqual([operation.tag]);
      expect(post.summary).toBe(operation.summary);
      expect(post.requestBody.content["application/json"].example).toEqual(operation.example.input);
      expect(post.responses["200"].content["application/json"].example).toEqual(operation.example.output);
      const statuses = new Set([...COMMON_ERRORS, ...operation.errors].map((c) => ERROR_CODES[c].status));
      const listed = Object.keys(post.responses).filter((s) => s !== "200");
      expect(listed.sort(), operation.name).toEqual([...statuses].map(String).sort());
      const described = listed.map((s) => String(post.responses[s].description)).join(" ");
      for (const code of operation.errors) expect(described, operation.name).toContain(`\`${code}\``);
    }
    // The approval refusal the code answers is documented where it can happen.
    expect(doc.paths["/v1/sessions/{sid}/tool_resolve"].post.responses["403"].description).toContain(
      "approval_denied",
    );
  });

  it("/docs has a section for every operation", async () => {
    const res = await SELF.fetch("https://trove.test/docs");
    const html = await res.text();
    for (const operation of OPERATIONS) expect(html, operation.name).toContain(`id="${operation.name}"`);
  });
});

describe("the model's tools", () => {
  it("are the operations that declare `model`, and a catalog tool may not take their names", async () => {
    const names = modelToolNames(OPERATIONS);
    expect(names).toEqual(OPERATIONS.filter((o) => o.model).map((o) => o.name));
    expect(names).toContain("tool_search");
    const sid = newSid();
    for (const name of names) {
      const res = await op(sid, "catalog_sync", { tools: [{ name, description: "mine" }] });
      expect(res.status, name).toBe(400);
      expect(res.json.error.details.field).toBe("tools[0].name");
    }
    // Operations the model is not offered are ordinary names for the agent's tools.
    const other = OPERATIONS.find((o) => !o.model)?.name ?? "";
    const res = await op(sid, "catalog_sync", { tools: [{ name: other, description: "mine" }] });
    expect(res.status).toBe(200);
  });

  it("context lists the model-facing operations with the description and input they declare", async () => {
    const sid = newSid();
    const { json } = await op(sid, "context", { format: "json" });
    const toolSearch = OPERATIONS.find((o) => o.name === "tool_search");
    const listed = (json.tools as any[]).find((t) => t.name === "tool_search");
    expect(listed.description).toBe(toolSearch?.model?.description);
    const { $schema: _, ...schema } = z.toJSONSchema(toolSearch?.model?.input ?? z.never(), {
      io: "input",
    }) as any;
    expect(listed.input_schema).toEqual(schema);
    for (const tool of json.tools as any[]) {
      const declared = OPERATIONS.find((o) => o.name === tool.name);
      if (declared) expect(declared.model?.description, tool.name).toBe(tool.description);
    }
  });
});
