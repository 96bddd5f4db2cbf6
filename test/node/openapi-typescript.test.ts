// openapi-typescript, with its default options, on the document the worker serves (issue 28): the
// request types it generates accept what the API accepts — a field with a default may be left out —
// while response fields with defaults stay present. Every operation's example, and every body an
// operation takes empty, compiles under strict options as that operation's request type.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/ops/registry";
import { STRICT_OPTIONS } from "./strict-typescript";
import { type RunningWorker, startWorker } from "./worker";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

let worker: RunningWorker;
let dir: string;
beforeAll(async () => {
  worker = await startWorker();
  const cache = join(REPO, "node_modules", ".cache");
  await mkdir(cache, { recursive: true });
  dir = await mkdtemp(join(cache, "trove-openapi-typescript-"));
});
afterAll(async () => {
  await worker?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The generated types, from the CLI with no options: `openapi-typescript openapi.json -o api.d.ts`. */
async function generate(): Promise<string> {
  const doc = await (await fetch(`${worker.url}/v1/openapi.json`)).text();
  await writeFile(join(dir, "openapi.json"), doc);
  await promisify(execFile)(
    join(REPO, "node_modules/.bin/openapi-typescript"),
    ["openapi.json", "-o", "api.d.ts"],
    { cwd: dir },
  );
  return join(dir, "api.d.ts");
}

/** Diagnostics of each file (written beside api.d.ts), compiled together under strict options. */
async function typeCheck(files: Record<string, string>): Promise<Record<string, string[]>> {
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const paths = Object.keys(files).map((name) => join(dir, name));
  const program = ts.createProgram(paths, { ...STRICT_OPTIONS, types: [] });
  return Object.fromEntries(
    Object.keys(files).map((name) => [
      name,
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(join(dir, name)))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    ]),
  );
}

const body = (path: string, method = "post") =>
  `paths[${JSON.stringify(path)}][${JSON.stringify(method)}]["requestBody"]["content"]["application/json"]`;

describe("openapi-typescript with its default options", () => {
  it("generates request types that take what the API takes, defaults left out", async () => {
    await generate();
    const lines = ['import type { paths, components } from "./api";'];
    OPERATIONS.forEach((op, i) => {
      const type = body(`/v1/sessions/{sid}/${op.name}`);
      lines.push(`export const example${i}: ${type} = ${JSON.stringify(op.example.input)};`);
      // An operation whose fields all have defaults runs with an empty body.
      if (op.input.safeParse({}).success) lines.push(`export const empty${i}: ${type} = {};`);
    });
    lines.push(
      `export const search: ${body("/v1/sessions/{sid}/tool_search")} = { query: "refund a payment" };`,
      `export const context: ${body("/v1/sessions/{sid}/context")} = { format: "openai_responses", defer_loading: true };`,
      `export const configure: ${body("/v1/sessions/{sid}", "put")} = { ttl_seconds: 3600 };`,
      `export const sync: ${body("/v1/sessions/{sid}/catalog_sync")} = { tools: [{ name: "a.b", description: "x" }] };`,
      `export const publish: ${body("/v1/catalogs/{name}", "put")} = { tools: [{ name: "a.b", description: "x" }] };`,
      // Responses: a field with a default is always there.
      `export const limit: components["schemas"]["tool_search_output"]["search_type"] = "fts";`,
    );
    const controls = [
      'import type { paths } from "./api";',
      // What the API refuses does not compile either: query is required, limit is a number.
      `export const noQuery: ${body("/v1/sessions/{sid}/tool_search")} = {};`,
      `export const badLimit: ${body("/v1/sessions/{sid}/tool_search")} = { query: "x", limit: "8" };`,
    ];
    const result = await typeCheck({ "usage.ts": lines.join("\n"), "controls.ts": controls.join("\n") });
    expect(result["usage.ts"]).toEqual([]);
    expect(result["controls.ts"]?.join("\n")).toMatch(/Property 'query' is missing/);
    expect(result["controls.ts"]?.join("\n")).toMatch(/'string' is not assignable to type 'number'/);
    expect(lines.filter((l) => l.includes("empty")).length).toBeGreaterThan(5);
  }, 120_000);
});
