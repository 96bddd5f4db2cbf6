// The searchable fields of a tool: what an agent's words may match, normalized for FTS5.
import { indexText } from "../search/text";
import { localName, type NormalizedTool } from "./tool-record";

export interface ToolSearchFields {
  f_name: string;
  f_namespace: string;
  f_tags: string;
  f_description: string;
  f_params: string;
  f_examples: string;
  /**
   * Operations the tool may offer through a parameter (offeredTerms), normalized; not indexed.
   * Search decides per catalog whether they are operations (src/tools/tool-search.ts).
   */
  f_offers: string;
  /** The names and descriptions of what the tool returns (its output schema); not indexed. */
  f_returns: string;
}

const MAX_PARAM_TEXT = 4000;

/** Property names and descriptions of a JSON Schema, walked a few levels deep. */
function schemaText(schema: unknown, depth = 0, out: string[] = []): string[] {
  if (depth > 3 || !schema || typeof schema !== "object") return out;
  const node = schema as Record<string, unknown>;
  const props = node.properties;
  if (props && typeof props === "object") {
    for (const [key, value] of Object.entries(props as Record<string, unknown>)) {
      out.push(key);
      if (value && typeof value === "object") {
        const description = (value as Record<string, unknown>).description;
        if (typeof description === "string") out.push(description);
        schemaText(value, depth + 1, out);
      }
    }
  }
  if (node.items) schemaText(node.items, depth + 1, out);
  return out;
}

/**
 * The first term of each value of a required parameter that enumerates two or more strings, when
 * every value has one: `issue_write`'s `method` ("create", "update") gives "creat updat". Such a
 * parameter may choose an operation, or a kind of thing ("issue", "pull_request"), or a state
 * ("open", "closed"); which of them is an operation depends on the catalog's names, so the terms
 * are kept as they are and read at search time. The first such parameter counts.
 */
export function offeredTerms(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "";
  const { properties, required } = schema as Record<string, unknown>;
  if (!properties || typeof properties !== "object" || !Array.isArray(required)) return "";
  for (const key of required) {
    const values = (properties as Record<string, unknown>)[key as string];
    const choices =
      values && typeof values === "object" ? (values as Record<string, unknown>).enum : undefined;
    if (!Array.isArray(choices) || choices.length < 2) continue;
    if (!choices.every((c): c is string => typeof c === "string")) continue;
    const firsts = choices.map((c) => indexText(c).split(" ")[0] ?? "");
    if (firsts.some((t) => t === "")) continue;
    return [...new Set(firsts)].join(" ");
  }
  return "";
}

/**
 * The terms of a tool's normalized name after its namespace's: `creat bucket` of s3.create_bucket
 * (`s3 creat bucket` after `s3`).
 */
export function localTerms(name: string, namespace: string): string[] {
  const terms = name === "" ? [] : name.split(" ");
  const prefix = namespace === "" ? [] : namespace.split(" ");
  return prefix.every((term, i) => terms[i] === term) ? terms.slice(prefix.length) : terms;
}

export function toolSearchFields(tool: NormalizedTool): ToolSearchFields {
  const params = schemaText(tool.input_schema).join(" ").slice(0, MAX_PARAM_TEXT);
  const examples = (tool.examples ?? []).map((e) => e.description ?? "").join(" ");
  return {
    f_name: indexText(localName(tool)),
    f_namespace: indexText(tool.namespace),
    f_tags: indexText((tool.tags ?? []).join(" ")),
    f_description: indexText(tool.description),
    f_params: indexText(params),
    f_examples: indexText(examples),
    f_offers: offeredTerms(tool.input_schema),
    f_returns: indexText(schemaText(tool.output_schema).join(" ").slice(0, MAX_PARAM_TEXT)),
  };
}
