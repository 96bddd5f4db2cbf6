// Builds the typed client package (packages/client, `@trove/client`): generates its operation types
// from the registry into packages/client/src/operations.ts, then compiles the package to dist/ (ESM
// and .d.ts). The generated file is committed, so a reader of the repository sees the client's whole
// API; with --check it is not written, and a stale one fails the build (`npm test` runs this).
//
//   npm run build:client                                # regenerate operations.ts, build dist/
//   tsx scripts/build-client.ts --check                 # fail if operations.ts is stale, build dist/
//   tsx scripts/build-client.ts --check --no-build      # only the check (tests, while others read dist/)
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { relative, resolve } from "node:path";
import { compile, type JSONSchema } from "json-schema-to-typescript";
import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../src/errors";
import { TENANT_ROUTES } from "../src/http/tenant-routes";
import { type Operation, retrySafe } from "../src/ops/operation";
import { OPERATIONS } from "../src/ops/registry";

const PACKAGE = resolve("packages/client");
const OUT_FILE = resolve(PACKAGE, "src/operations.ts");
const require = createRequire(import.meta.url);

/**
 * The JSON Schema REST validates against and answers with, as src/http/openapi.ts publishes it: the
 * input side of both schemas (handlers return their output schema's input side, sent as is).
 */
function jsonSchema(schema: z.ZodType): JSONSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest as JSONSchema;
}

/** `tool_search` → `ToolSearch`. */
const pascal = (name: string) => name.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** One named TypeScript declaration of a schema, with its field descriptions as JSDoc. */
async function declaration(schema: z.ZodType, name: string): Promise<string> {
  const json = jsonSchema(schema);
  // An object with no fields: `{}` would accept any object, so a stray field would not be an error.
  if (
    json.type === "object" &&
    Object.keys(json.properties ?? {}).length === 0 &&
    !json.additionalProperties
  ) {
    return `export type ${name} = Record<string, never>;\n`;
  }
  return compile(json, name, {
    bannerComment: "",
    format: false,
    // zod objects that strip unknown keys leave additionalProperties out: what the server answers
    // has exactly the declared fields. Open records (`{}`) still become index signatures.
    additionalProperties: false,
    // A catalog of up to 10,000 tools is an array, not a union of tuples of every length.
    ignoreMinAndMaxItems: true,
    declareExternallyReferenced: true,
    unknownAny: true,
  });
}

/** Whether every field of the operation's input may be left out (the method's argument is optional). */
function inputOptional(op: Operation): boolean {
  const schema = jsonSchema(op.input) as { required?: string[] };
  return (schema.required ?? []).length === 0;
}

/** A JSON value as a reader would write it in TypeScript: `{ query: "open a bug", limit: 3 }`. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const fields = Object.entries(value).map(
    ([key, field]) => `${/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key)}: ${literal(field)}`,
  );
  return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
}

const MAX_EXAMPLE = 120;

/** The method's JSDoc: the registry's summary, its retry behaviour, its errors and a short example. */
function methodDoc(op: Operation): string {
  const errors = op.errors.map((code: ErrorCode) => `\`${code}\` (${ERROR_CODES[code].status})`);
  const example = literal(op.example.input);
  const lines = [
    `${op.summary}.`,
    "",
    `\`POST /v1/sessions/{sid}/${op.name}\`. ` +
      (op.writes ? "Writes to the session" : "Reads the session") +
      (retrySafe(op) ? "; safe to repeat, so a 503 is retried once." : "; a 503 is not retried."),
    ...(errors.length > 0 ? [`Errors besides invalid input and auth: ${errors.join(", ")}.`] : []),
    ...(example.length <= MAX_EXAMPLE && !example.includes("{{")
      ? ["@example", `await session.${op.name}(${example === "{}" ? "" : example});`]
      : []),
  ];
  return ["  /**", ...lines.map((line) => (line === "" ? "   *" : `   * ${line}`)), "   */"].join("\n");
}

/** A tenant method's argument: the path's \`name\` and the body's fields, in one object. */
function tenantArgument(route: (typeof TENANT_ROUTES)[number]): string {
  const parts = [
    ...(route.param ? ["{ name: string }"] : []),
    ...(route.input ? [`${pascal(route.name)}Input`] : []),
    ...(route.query ? [`${pascal(route.name)}Query`] : []),
  ];
  // Query parameters all have defaults: a route with only those takes its argument optionally.
  const optional = route.query && !route.param && !route.input;
  return parts.length === 0 ? "" : `input${optional ? "?" : ""}: ${parts.join(" & ")}`;
}

/** The generated module, formatted by Biome like the rest of the repository. */
async function operationsSource(): Promise<string> {
  const ops = OPERATIONS as readonly Operation[];
  const declarations: string[] = [];
  for (const op of ops) {
    declarations.push(await declaration(op.input, `${pascal(op.name)}Input`));
    declarations.push(await declaration(op.output, `${pascal(op.name)}Output`));
  }
  for (const route of TENANT_ROUTES) {
    if (route.input) declarations.push(await declaration(route.input, `${pascal(route.name)}Input`));
    if (route.query) declarations.push(await declaration(route.query, `${pascal(route.name)}Query`));
    declarations.push(await declaration(route.output, `${pascal(route.name)}Output`));
  }
  const tenantDoc = (route: (typeof TENANT_ROUTES)[number]) =>
    ["  /**", `   * ${route.summary}.`, "   *", `   * \`${route.method} ${route.path}\`.`, "   */"].join(
      "\n",
    );
  const source = `// Generated by scripts/build-client.ts from Trove's operation registry (src/ops/registry.ts): do
// not edit. \`npm run build:client\` rewrites it; \`npm test\` fails while it is stale.

${declarations.join("\n")}

/** Every operation's name, in the registry's order. */
export const OPERATION_NAMES = ${JSON.stringify(ops.map((op) => op.name))} as const;

/** The name of an operation: a method of a session. */
export type OperationName = (typeof OPERATION_NAMES)[number];

/** Every operation's input and output. */
export interface Operations {
${ops.map((op) => `  ${op.name}: { input: ${pascal(op.name)}Input; output: ${pascal(op.name)}Output };`).join("\n")}
}

/** The methods of a session: one per operation, named and typed as in the registry. */
export interface SessionMethods {
${ops
  .map(
    (op) =>
      `${methodDoc(op)}\n  ${op.name}(input${inputOptional(op) ? "?" : ""}: ${pascal(op.name)}Input): Promise<${pascal(op.name)}Output>;`,
  )
  .join("\n")}
}

/**
 * The tenant's routes (no session in the path): method, path, and whether the rest of the
 * method's argument (all but \`name\`, which goes in the path) is the JSON body or the query.
 */
export const TENANT_ROUTES = ${JSON.stringify(Object.fromEntries(TENANT_ROUTES.map((r) => [r.name, { method: r.method, path: r.path, body: r.input !== undefined, query: r.query !== undefined }])))} as const;

/** The tenant's methods: its published catalogs, what its sessions taught the ranking. */
export interface TenantMethods {
${TENANT_ROUTES.map((r) => `${tenantDoc(r)}\n  ${r.name}(${tenantArgument(r)}): Promise<${pascal(r.name)}Output>;`).join("\n")}
}

/** Every error code Trove answers (\`details.field\` names the input at fault, where there is one). */
export type TroveErrorCode = ${Object.keys(ERROR_CODES)
    .map((code) => JSON.stringify(code))
    .join(" | ")};
`;
  return biomeFormat(source);
}

function biomeFormat(source: string): string {
  return execFileSync(
    process.execPath,
    [require.resolve("@biomejs/biome/bin/biome"), "format", `--stdin-file-path=${relative(".", OUT_FILE)}`],
    { input: source, encoding: "utf8" },
  );
}

function buildDist(): void {
  rmSync(resolve(PACKAGE, "dist"), { recursive: true, force: true });
  execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", PACKAGE], {
    stdio: "inherit",
  });
}

const check = process.argv.includes("--check");
const build = !process.argv.includes("--no-build");
const source = await operationsSource();
let previous = "";
try {
  previous = readFileSync(OUT_FILE, "utf8");
} catch {}
const name = relative(process.cwd(), OUT_FILE);
if (previous !== source) {
  if (check) {
    console.error(`build-client: ${name} is stale (the registry changed): run npm run build:client`);
    process.exit(1);
  }
  writeFileSync(OUT_FILE, source);
}
if (build) buildDist();
console.log(
  `build-client: ${OPERATIONS.length} operations, ${name} ${previous === source ? "up to date" : "written"}` +
    (build ? `, ${relative(process.cwd(), resolve(PACKAGE, "dist"))}/ built` : ""),
);
