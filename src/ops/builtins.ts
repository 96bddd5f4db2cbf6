// Trove's own discovery tools as the model sees them: rendered beside the agent's visible tools.
import { z } from "zod";
import type { RenderableTool } from "../tools/render";
import { ToolSearchModelInput } from "./tool-ops";

const schemaOf = (schema: z.ZodType) => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  return json;
};

export const BUILTIN_TOOLS: readonly RenderableTool[] = [
  {
    name: "tool_search",
    providerName: "tool_search",
    namespace: "trove",
    side_effects: "read",
    loading_mode: "always",
    description:
      "Find tools that are available but not listed yet. Describe the capability you need in a few words " +
      '(e.g. "refund a payment"); use search_type "regex" to match tool names by pattern or "exact" for a ' +
      "known name. Returns tool names to call, best match first.",
    input_schema: schemaOf(ToolSearchModelInput),
  },
];
