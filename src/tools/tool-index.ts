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
  };
}
