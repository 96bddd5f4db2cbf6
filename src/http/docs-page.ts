// GET /docs: a readable API reference rendered from the OpenAPI document (no scripts, no CDN): every
// field of every operation, nested ones included, with its type, default, limits and description.
import { openApiDocument } from "./openapi";

type Json = Record<string, unknown>;

const html = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** Escaped text where `backticked` words become code, as the error descriptions write them. */
const prose = (s: string) => html(s).replace(/`([^`]+)`/g, "<code>$1</code>");

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** zod's bounds for any integer, ±(2^53 − 1): not a limit a person needs to read. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** One line of a fields table: a field at some depth, or the heading of one shape of a union. */
type Row =
  | { kind: "field"; path: string; depth: number; required: boolean; schema: Json }
  | { kind: "shape"; depth: number; label: string };

/**
 * Reads one operation's schemas: follows `$ref` into the document's components and the schema's
 * own `$defs`, and flattens nested objects, arrays of objects, records and unions into rows.
 */
class SchemaReader {
  constructor(
    private readonly doc: Json,
    private readonly root: Json,
  ) {}

  /** The schema a `$ref` points at, merged with the keys written beside it (description, default). */
  resolve(schema: unknown, seen: ReadonlySet<string> = new Set()): { schema: Json; ref?: string } {
    let current = isObject(schema) ? schema : {};
    let ref: string | undefined;
    for (let hops = 0; typeof current.$ref === "string" && hops < 16; hops++) {
      ref = current.$ref;
      if (seen.has(ref)) return { schema: current, ref };
      const { $ref: _, ...beside } = current;
      const target = this.pointer(ref);
      current = { ...target, ...beside };
    }
    return { schema: current, ref };
  }

  private pointer(ref: string): Json {
    const parts = ref.replace(/^#\/?/, "").split("/").filter(Boolean);
    let node: unknown = parts[0] === "components" ? this.doc : this.root;
    for (const part of parts) {
      if (!isObject(node)) return {};
      node = node[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    }
    return isObject(node) ? node : {};
  }

  /** Rows for a schema's fields: its properties, or one block per shape when it is a union. */
  rows(schema: Json, prefix: string, depth: number, seen: ReadonlySet<string> = new Set()): Row[] {
    const shapes = this.shapes(schema);
    if (shapes.length > 1) {
      return shapes.flatMap((shape, i) => [
        { kind: "shape" as const, depth, label: shapeLabel(shape, i, prefix) },
        ...this.rows(shape, prefix, depth, seen),
      ]);
    }
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    return Object.entries(properties).flatMap(([name, raw]) => {
      const path = prefix ? `${prefix}.${name}` : name;
      const { schema: field, ref } = this.resolve(raw, seen);
      const row: Row = { kind: "field", path, depth, required: required.has(name), schema: field };
      if (ref && seen.has(ref)) return [row];
      const below = ref ? new Set([...seen, ref]) : seen;
      return [row, ...this.nested(withoutNull(field).schema, path, depth + 1, below)];
    });
  }

  /** The fields inside a field: an object's, an array's items', a record's values', a union's. */
  private nested(schema: Json, path: string, depth: number, seen: ReadonlySet<string>): Row[] {
    if (this.shapes(schema).length > 1 || isObject(schema.properties))
      return this.rows(schema, path, depth, seen);
    if (schema.items !== undefined) {
      const { schema: items, ref } = this.resolve(schema.items, seen);
      if (ref && seen.has(ref)) return [];
      const below = ref ? new Set([...seen, ref]) : seen;
      return this.nested(withoutNull(items).schema, `${path}[]`, depth, below);
    }
    if (isObject(schema.additionalProperties)) {
      const { schema: values } = this.resolve(schema.additionalProperties, seen);
      return this.nested(withoutNull(values).schema, `${path}.<key>`, depth, seen);
    }
    return [];
  }

  /** The alternatives of a union that are objects with fields (resolved); [] otherwise. */
  shapes(schema: Json): Json[] {
    const options = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
    if (!Array.isArray(options)) return [];
    const resolved = options.map((o) => this.resolve(o).schema).filter((o) => o.type !== "null");
    return resolved.filter((o) => isObject(o.properties)).length > 1 ? resolved : [];
  }

  /** A one-line type: `string`, `integer`, `"fts" | "regex"`, `array of object`, `string | null`… */
  typeOf(schema: Json): string {
    const inner = withoutNull(schema);
    const s = inner.schema;
    const orNull = inner.nullable ? " | null" : "";
    if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ") + orNull;
    if ("const" in s) return JSON.stringify(s.const) + orNull;
    const options = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
    if (Array.isArray(options)) {
      return options.map((o) => this.typeOf(this.resolve(o).schema)).join(" | ") + orNull;
    }
    const type = Array.isArray(s.type)
      ? s.type.join(" | ")
      : typeof s.type === "string"
        ? s.type
        : isObject(s.properties) || s.additionalProperties !== undefined
          ? "object"
          : s.items !== undefined
            ? "array"
            : "any JSON value";
    if (type === "array" && s.items !== undefined) {
      return `array of ${this.typeOf(this.resolve(s.items).schema)}${orNull}`;
    }
    if (type === "object" && !isObject(s.properties)) {
      const values = s.additionalProperties;
      if (values === false) return `object (no fields)${orNull}`;
      if (!isObject(values) || Object.keys(values).length === 0) return `object (any keys)${orNull}`;
      return `object (key → ${this.typeOf(this.resolve(values).schema)})${orNull}`;
    }
    return `${type}${typeof s.format === "string" ? ` (${s.format})` : ""}${orNull}`;
  }
}

/** A schema without its `null` alternative, and whether it had one. */
function withoutNull(schema: Json): { schema: Json; nullable: boolean } {
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const rest = schema.type.filter((t) => t !== "null");
    return { schema: { ...schema, type: rest.length === 1 ? rest[0] : rest }, nullable: true };
  }
  const key = Array.isArray(schema.anyOf) ? "anyOf" : Array.isArray(schema.oneOf) ? "oneOf" : null;
  if (!key) return { schema, nullable: false };
  const options = schema[key] as Json[];
  const rest = options.filter((o) => !(isObject(o) && o.type === "null"));
  if (rest.length === options.length) return { schema, nullable: false };
  const { [key]: _, ...outer } = schema;
  if (rest.length === 1) return { schema: { ...rest[0], ...outer }, nullable: true };
  return { schema: { ...outer, [key]: rest }, nullable: true };
}

/** "Shape 2 — when `reloaded` is true": a union's alternative named by its constant fields. */
function shapeLabel(shape: Json, i: number, prefix: string): string {
  const properties = isObject(shape.properties) ? shape.properties : {};
  const consts = Object.entries(properties)
    .filter(([, p]) => isObject(p) && "const" in p)
    .map(([k, p]) => `<code>${html(k)}</code> is <code>${html(JSON.stringify((p as Json).const))}</code>`);
  const where = prefix ? ` of <code>${html(prefix)}</code>` : "";
  return `Shape ${i + 1}${where}${consts.length > 0 ? ` — when ${consts.join(" and ")}` : ""}`;
}

const count = (min: unknown, max: unknown, unit: string) => {
  const lo = typeof min === "number" ? min : undefined;
  const hi = typeof max === "number" ? max : undefined;
  if (lo !== undefined && hi !== undefined)
    return lo === hi ? `exactly ${lo} ${unit}` : `${lo}–${hi} ${unit}`;
  if (lo !== undefined) return lo > 0 ? `at least ${lo} ${unit}` : undefined;
  if (hi !== undefined) return `at most ${hi} ${unit}`;
  return undefined;
};

/** Limits a person needs, as HTML: ranges, lengths, item counts, patterns, key rules. */
function limitsOf(schema: Json): string[] {
  const s = withoutNull(schema).schema;
  const out: string[] = [];
  const min = typeof s.minimum === "number" && s.minimum > -SAFE ? s.minimum : undefined;
  const max = typeof s.maximum === "number" && s.maximum < SAFE ? s.maximum : undefined;
  if (min !== undefined && max !== undefined) out.push(`${min} to ${max}`);
  else if (min !== undefined) out.push(`≥ ${min}`);
  else if (max !== undefined) out.push(`≤ ${max}`);
  if (typeof s.exclusiveMinimum === "number") out.push(`&gt; ${s.exclusiveMinimum}`);
  if (typeof s.exclusiveMaximum === "number") out.push(`&lt; ${s.exclusiveMaximum}`);
  const length = count(s.minLength, s.maxLength, "characters");
  if (length) out.push(length);
  if (typeof s.pattern === "string") out.push(`matches <code>${html(s.pattern)}</code>`);
  const items = count(s.minItems, s.maxItems, "items");
  if (items) out.push(items);
  if (s.uniqueItems === true) out.push("no duplicates");
  const keys = count(s.minProperties, s.maxProperties, "keys");
  if (keys) out.push(keys);
  const names = s.propertyNames;
  if (isObject(names) && typeof names.pattern === "string")
    out.push(`keys match <code>${html(names.pattern)}</code>`);
  if (isObject(s.items) && !isObject(s.items.properties)) {
    const inner = limitsOf(s.items);
    if (inner.length > 0) out.push(`each: ${inner.join(", ")}`);
  }
  return out;
}

/**
 * The fields table of a request or response schema: every field, nested ones included, with its
 * type, default, limits and description; `$ref`s resolve in `doc` and in the schema's `$defs`.
 *
 * @example fieldsTable(openApiDocument(), { $ref: "#/components/schemas/tool_search_output" }, "response")
 */
export function fieldsTable(doc: Json, schema: Json | undefined, side: "request" | "response"): string {
  if (!schema) return "<p><em>No body.</em></p>";
  // The schema a route names (a component) is the root its own `$defs` references resolve in.
  const root = new SchemaReader(doc, {}).resolve(schema).schema;
  const reader = new SchemaReader(doc, root);
  const rows = reader.rows(root, "", 0);
  if (rows.length === 0) {
    const type = reader.typeOf(root);
    return type === "object" || type === "object (no fields)"
      ? "<p><em>No fields: send <code>{}</code> or no body.</em></p>"
      : `<p>${html(type)}</p>`;
  }
  const lines = rows.map((row) => {
    if (row.kind === "shape") return `<tr class="shape"><td colspan="5">${row.label}</td></tr>`;
    const { schema: s, required, path, depth } = row;
    const inner = withoutNull(s).schema;
    const declared = "default" in s ? s.default : "default" in inner ? inner.default : undefined;
    // An object's default repeats its fields' own defaults, shown on their rows.
    const def = isObject(declared) && isObject(inner.properties) ? undefined : declared;
    // In a request, what must be sent; in a response, what may be missing (a default fills it).
    const mark =
      side === "request"
        ? required
          ? " <small>required</small>"
          : ""
        : required || declared !== undefined
          ? ""
          : ' <small class="opt">may be absent</small>';
    const description = String(s.description ?? inner.description ?? "");
    const indent = depth > 0 ? ` style="padding-left:${0.5 + depth * 1.25}rem"` : "";
    return (
      `<tr><td${indent}><code>${html(path)}</code>${mark}</td>` +
      `<td>${html(reader.typeOf(s))}</td>` +
      `<td>${def === undefined ? "" : `<code>${html(JSON.stringify(def))}</code>`}</td>` +
      `<td>${limitsOf(s).join("; ")}</td><td>${prose(description)}</td></tr>`
    );
  });
  const strict = side === "request" && root.additionalProperties === false;
  return (
    `<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Default</th><th scope="col">Limits</th><th scope="col">Description</th></tr></thead><tbody>${lines.join("")}</tbody></table>` +
    (strict
      ? '<p><small class="muted">Unknown fields are refused: <code>400 invalid_input</code> names them.</small></p>'
      : "")
  );
}

/** The error statuses an operation answers, each with its codes and what they mean. */
function errorsList(responses: Record<string, Json>): string {
  const items = Object.entries(responses)
    .filter(([status]) => status !== "200")
    .map(([status, r]) => `<li><code>${html(status)}</code> ${prose(String(r.description ?? ""))}</li>`);
  return items.length > 0 ? `<h4>Errors</h4><ul>${items.join("")}</ul>` : "";
}

function exampleBlock(request: unknown, response: unknown): string {
  if (request === undefined && response === undefined) return "";
  const pre = (label: string, value: unknown) =>
    value === undefined
      ? ""
      : `<p>${label}</p><pre><code>${html(JSON.stringify(value, null, 2))}</code></pre>`;
  return `<h4>Example</h4>${pre("Request body", request)}${pre("Response", response)}`;
}

interface Route {
  method: string;
  path: string;
  op: Json;
}

/** Routes grouped by the operation they reach: its POST route first, then its REST aliases. */
function operations(doc: Json): Map<string, Route[]> {
  const byOperation = new Map<string, Route[]>();
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const name = String(op["x-trove-operation"] ?? op.operationId);
      const route = { method: method.toUpperCase(), path, op };
      const list = byOperation.get(name) ?? [];
      if (method === "post") list.unshift(route);
      else list.push(route);
      byOperation.set(name, list);
    }
  }
  return byOperation;
}

function section(doc: Json, name: string, routes: Route[]): string {
  const [main, ...aliases] = routes as [Route, ...Route[]];
  const op = main.op;
  const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as
    | Json
    | undefined;
  const ok = (((op.responses as Json)["200"] as Json).content as Json | undefined)?.["application/json"] as
    | Json
    | undefined;
  // A tenant route's query parameters, read as the fields of one object.
  const params = ((op.parameters as Json[] | undefined) ?? []).filter((p) => p.in === "query");
  const query: Json | null =
    params.length === 0
      ? null
      : {
          type: "object",
          properties: Object.fromEntries(
            params.map((p) => [String(p.name), { ...(p.schema as Json), description: p.description }]),
          ),
        };
  const also =
    aliases.length > 0
      ? `<p>also: ${aliases.map((a) => `<code>${a.method} ${html(a.path)}</code>`).join(", ")}</p>`
      : "";
  return (
    `<section id="${html(name)}"><h3><code>${html(name)}</code></h3>` +
    `<p><code>${main.method} ${html(main.path)}</code> — ${html(String(op.summary ?? ""))}</p>${also}` +
    (query ? `<h4>Query</h4>${fieldsTable(doc, query, "request")}` : "") +
    (body ? `<h4>Request</h4>${fieldsTable(doc, body.schema as Json, "request")}` : "") +
    `<h4>Response</h4>${fieldsTable(doc, ok?.schema as Json | undefined, "response")}` +
    errorsList(op.responses as Record<string, Json>) +
    exampleBlock(body?.example, ok?.example) +
    "</section>"
  );
}

let page: string | null = null;

export function docsPage(): string {
  if (page) return page;
  const doc = openApiDocument();
  const byOperation = operations(doc);
  const tags = (doc.tags as { name: string; description?: string }[]) ?? [];
  const tagOf = (routes: Route[]) => String((routes[0]?.op.tags as string[] | undefined)?.[0] ?? "");
  const nav: string[] = [];
  const sections: string[] = [];
  for (const tag of tags) {
    const members = [...byOperation].filter(([, routes]) => tagOf(routes) === tag.name);
    if (members.length === 0) continue;
    nav.push(
      `<li><strong>${html(tag.name)}</strong> <small class="muted">${html(tag.description ?? "")}</small><ul>` +
        members
          .map(
            ([name, routes]) =>
              `<li><a href="#${html(name)}"><code>${html(name)}</code></a> ${html(String(routes[0]?.op.summary ?? ""))}</li>`,
          )
          .join("") +
        "</ul></li>",
    );
    sections.push(
      `<h2 id="tag-${html(tag.name)}">${html(tag.name)}</h2>`,
      ...members.map(([name, routes]) => section(doc, name, routes)),
    );
  }
  page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trove API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:76rem;padding:1rem 2rem;color:#1d1d1f}
code{font:13px ui-monospace,monospace;background:#f3f3f5;padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{white-space:nowrap}td:first-child code{white-space:nowrap}td code{overflow-wrap:anywhere}
h3 code{font-size:1.05rem}
tr.shape td{background:#f6f6f8;font-weight:600}
section{border-top:2px solid #eee;padding-top:.5rem}pre{background:#f6f6f8;padding:.5rem;overflow:auto}
nav ul ul{columns:2;margin-bottom:.5rem}small{color:#a33}small.opt,small.muted{color:#666}
</style></head><body>
<h1>Trove API reference <small class="muted">v${html(String((doc.info as Json).version))}</small></h1>
<p>Every operation answers <code>POST /v1/sessions/{sid}/{name}</code> with its request as the JSON body; an empty body
is read as <code>{}</code>. Every request to <code>/v1/sessions/…</code> carries <code>Authorization: Bearer &lt;key&gt;</code>.
Errors are <code>{"error": {"code", "message", "details"}}</code> with a 4xx status; <code>details.field</code> names the
offending input. The machine-readable document is <a href="/v1/openapi.json"><code>/v1/openapi.json</code></a> (OpenAPI 3.1);
the index of the service is <a href="/"><code>/</code></a>.</p>
<nav aria-label="Operations"><ul>${nav.join("")}</ul></nav>
${sections.join("\n")}
</body></html>`;
  return page;
}
