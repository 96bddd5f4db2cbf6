// GET /docs: a readable API reference rendered from the OpenAPI document (no scripts, no CDN).
import { openApiDocument } from "./openapi";

type Json = Record<string, unknown>;

const html = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/** A one-line type: `string`, `integer 1..20`, `"fts" | "regex"`, `array of object`, … */
function typeOf(schema: Json): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  for (const key of ["anyOf", "oneOf"]) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map((o) => typeOf(o as Json)).join(" | ");
  }
  const type = Array.isArray(schema.type) ? schema.type.join(" | ") : String(schema.type ?? "any");
  if (type === "array" && schema.items) return `array of ${typeOf(schema.items as Json)}`;
  const range =
    schema.minimum !== undefined || schema.maximum !== undefined
      ? ` ${schema.minimum ?? ""}..${schema.maximum ?? ""}`
      : "";
  return `${type}${range}`;
}

function fieldsTable(schema: Json | undefined): string {
  const properties = (schema?.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema?.required as string[] | undefined) ?? []);
  const rows = Object.entries(properties).map(([name, field]) => {
    const def = "default" in field ? `<code>${html(JSON.stringify(field.default))}</code>` : "";
    return `<tr><td><code>${html(name)}</code>${required.has(name) ? " <small>required</small>" : ""}</td><td>${html(typeOf(field))}</td><td>${def}</td><td>${html(String(field.description ?? ""))}</td></tr>`;
  });
  if (rows.length === 0) return "<p><em>No fields.</em></p>";
  return `<table><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Default</th><th scope="col">Description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

/** The error statuses an operation answers, each with its codes and what they mean. */
function errorsList(responses: Record<string, Json>): string {
  const items = Object.entries(responses)
    .filter(([status]) => status !== "200")
    .map(([status, r]) => `<li><code>${html(status)}</code> ${html(String(r.description ?? ""))}</li>`);
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

let page: string | null = null;

export function docsPage(): string {
  if (page) return page;
  const doc = openApiDocument();
  const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
  const ref = (r: unknown) =>
    schemas[
      String((r as Json | undefined)?.$ref ?? "")
        .split("/")
        .pop() ?? ""
    ];
  const sections: string[] = [];
  const toc: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const id = String(op.operationId);
      const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.[
        "application/json"
      ] as Json | undefined;
      const ok = ((op.responses as Json)["200"] as Json).content as Json | undefined;
      const okSchema = (ok?.["application/json"] as Json | undefined)?.schema;
      const okExample = (ok?.["application/json"] as Json | undefined)?.example;
      toc.push(`<li><a href="#${html(id)}"><code>${html(id)}</code></a></li>`);
      sections.push(
        `<section id="${html(id)}"><h3><code>${method.toUpperCase()} ${html(path)}</code></h3><p>${html(String(op.summary ?? ""))}</p>` +
          (body ? `<h4>Request</h4>${fieldsTable(ref(body.schema) ?? (body.schema as Json))}` : "") +
          `<h4>Response</h4>${fieldsTable(ref(okSchema) ?? (okSchema as Json | undefined))}` +
          errorsList(op.responses as Record<string, Json>) +
          exampleBlock(body?.example, okExample) +
          "</section>",
      );
    }
  }
  page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trove API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem 2rem;color:#1d1d1f}
code{font:13px ui-monospace,monospace;background:#f3f3f5;padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}th,td{border-bottom:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
section{border-top:2px solid #eee;padding-top:.5rem}pre{background:#f6f6f8;padding:.5rem;overflow:auto}nav ul{columns:3}small{color:#a33}
</style></head><body>
<h1>Trove API reference <small style="color:#666">v${html(String((doc.info as Json).version))}</small></h1>
<p>Every request to <code>/v1/sessions/…</code> carries <code>Authorization: Bearer &lt;key&gt;</code>. Errors are
<code>{"error": {"code", "message", "details"}}</code> with a 4xx status; <code>details.field</code> names the offending input.
The machine-readable document is <a href="/v1/openapi.json"><code>/v1/openapi.json</code></a> (OpenAPI 3.1).</p>
<nav aria-label="Operations"><ul>${toc.join("")}</ul></nav>
${sections.join("\n")}
</body></html>`;
  return page;
}
