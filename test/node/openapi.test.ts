// The OpenAPI document and the /docs page, fetched from the running worker and checked with a real
// OpenAPI 3.1 validator; every operation of the registry is in it and answers where it says.
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TENANT_ROUTES } from "../../src/http/tenant-routes";
import { OPERATIONS } from "../../src/ops/registry";
import { type RunningWorker, startWorker } from "./worker";

let worker: RunningWorker;
beforeAll(async () => {
  worker = await startWorker();
});
afterAll(() => worker?.dispose());

async function document(): Promise<any> {
  const res = await fetch(`${worker.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  return res.json();
}

describe("GET /v1/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const doc = await document();
    expect(doc.openapi).toBe("3.1.0");
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("covers every operation, with bearer auth and the error body", async () => {
    const doc = await document();
    for (const op of OPERATIONS) {
      const post = doc.paths[`/v1/sessions/{sid}/${op.name}`]?.post;
      expect(post?.operationId, op.name).toBe(op.name);
      expect(post.requestBody.content["application/json"].schema, op.name).toBeTypeOf("object");
      expect(post.responses["400"].content["application/json"].schema.$ref).toBe(
        "#/components/schemas/Error",
      );
    }
    expect(Object.keys(doc.paths["/v1/sessions/{sid}"]).sort()).toEqual(["delete", "get", "put"]);
    expect(doc.paths["/v1/sessions/{sid}/mcp"].post).toBeDefined();
    expect(doc.components.securitySchemes.bearer).toEqual(expect.objectContaining({ scheme: "bearer" }));
    expect(doc.paths["/v1/health"].get.security).toEqual([]);
    // The schemas are the registry's: tool_search's input has its limits and defaults.
    const search =
      doc.paths["/v1/sessions/{sid}/tool_search"].post.requestBody.content["application/json"].schema;
    expect(search.required).toEqual(["query"]);
    expect(search.properties.limit).toMatchObject({ minimum: 1, maximum: 20, default: 8 });
  });

  it("covers the tenant's routes (learning, catalogs), and they answer what it says", async () => {
    const doc = await document();
    for (const route of TENANT_ROUTES) {
      const entry = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(entry?.operationId, route.name).toBe(route.name);
      expect(entry.tags).toEqual([route.tag]);
      expect(entry.responses["401"]).toBeDefined();
    }
    const res = await fetch(`${worker.url}/v1/learning`, { headers: { authorization: "Bearer key-a" } });
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()) as object).sort()).toEqual(
      Object.keys(doc.components.schemas.learning_get_output.properties).sort(),
    );
  });

  it("describes what the routes really answer", async () => {
    const doc = await document();
    const headers = { authorization: "Bearer key-a", "content-type": "application/json" };
    const res = await fetch(`${worker.url}/v1/sessions/oa-1/tool_search`, {
      method: "POST",
      headers,
      body: JSON.stringify({ query: "x", limit: 99 }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: Record<string, unknown> };
    // The error body has exactly the documented keys.
    expect(Object.keys(body.error).sort()).toEqual(
      doc.components.schemas.Error.properties.error.required.sort(),
    );
    const ok = await fetch(`${worker.url}/v1/sessions/oa-1/session_get`, {
      method: "POST",
      headers,
      body: "{}",
    });
    const value = (await ok.json()) as Record<string, unknown>;
    expect(Object.keys(value).sort()).toEqual(
      Object.keys(doc.components.schemas.session_get_output.properties).sort(),
    );
  });
});

describe("GET /docs", () => {
  it("is an HTML reference listing every operation with its fields", async () => {
    const res = await fetch(`${worker.url}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    for (const op of OPERATIONS) expect(html, op.name).toContain(`id="${op.name}"`);
    expect(html).toContain("<code>query</code> <small>required</small>");
    expect(html).not.toContain("<script");
  });
});
