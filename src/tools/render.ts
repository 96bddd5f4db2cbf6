// Renders visible tools in each provider's native tool-definition shape, examples included.

import type { ToolFormat } from "../schemas";
import { isStrictCompatible } from "./strict-schema";
import { validateSafely } from "./validate-args";

export type { ToolFormat };

export interface RenderableExample {
  args: Record<string, unknown>;
  description?: string;
  tags?: string[];
}

export interface RenderableTool {
  name: string;
  /** The name from `providerNames`: what OpenAI and Anthropic see and call back with. */
  providerName: string;
  description: string;
  namespace: string;
  side_effects: string;
  loading_mode: "always" | "deferred";
  input_schema?: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
  examples?: RenderableExample[];
}

export interface ExamplesConfig {
  enabled: boolean;
  max_per_tool: number;
}

// Every provider requires an object schema; a tool without one takes no arguments.
const EMPTY_INPUT_SCHEMA: Record<string, unknown> = { type: "object", properties: {} };

// The smallest example teaches the call shape; edge cases only pay off once that is known.
const TAG_RANK: Record<string, number> = { minimal: 0, common: 1, "edge-case": 2 };
const UNRANKED = 3;

function rank(example: { tags?: string[] }): number {
  return Math.min(UNRANKED, ...(example.tags ?? []).map((tag) => TAG_RANK[tag] ?? UNRANKED));
}

/**
 * At most `max` examples: `minimal` first, then `common`, then `edge-case`, then the rest,
 * keeping the author's order within each group.
 *
 * @example
 * selectExamples([{ args: {}, tags: ["common"] }, { args: {}, tags: ["minimal"] }], 1); // the minimal one
 */
export function selectExamples<T extends { tags?: string[] }>(examples: readonly T[], max: number): T[] {
  const limit = Math.max(0, Math.floor(max));
  // Array.prototype.sort is stable (ES2019), which keeps the author's order within a rank.
  return [...examples].sort((a, b) => rank(a) - rank(b)).slice(0, limit);
}

/** Renders one tool; `examples.enabled === false` renders no examples in any format. */
export function renderTool(
  tool: RenderableTool,
  format: ToolFormat,
  examples: ExamplesConfig,
): Record<string, unknown> {
  const inputSchema = tool.input_schema ?? EMPTY_INPUT_SCHEMA;
  // Only examples that match the schema are shown, in every format: Anthropic rejects the others,
  // and any model would be misled by them. Filtering first keeps invalid ones from using up slots.
  const available = examples.enabled ? validExamples(tool.examples ?? [], inputSchema) : [];
  switch (format) {
    case "anthropic": {
      const inputExamples = selectExamples(available, examples.max_per_tool).map((e) => e.args);
      return {
        name: tool.providerName,
        description: tool.description,
        input_schema: inputSchema,
        ...(inputExamples.length > 0 ? { input_examples: inputExamples } : {}),
      };
    }
    case "openai":
      // Chat Completions has no examples field, so they travel in the description (Responses too).
      return {
        type: "function",
        function: {
          name: tool.providerName,
          description: withExamples(tool.description, selectExamples(available, examples.max_per_tool)),
          parameters: inputSchema,
        },
      };
    case "openai_responses":
      // The Responses API takes flat function tools, whose `strict` is a required field: true only
      // when OpenAI accepts the schema as it is (tools/strict-schema.ts), never by rewriting it.
      return {
        type: "function",
        name: tool.providerName,
        description: withExamples(tool.description, selectExamples(available, examples.max_per_tool)),
        parameters: inputSchema,
        strict: isStrictCompatible(inputSchema),
      };
    case "mcp":
      // MCP allows dots in tool names (spec 2025-11-25, "Tool names"), so the catalog name is kept;
      // `:` is outside that SHOULD list but keeping it means tools/call needs no mapping back.
      return {
        name: tool.name,
        description: withExamples(tool.description, selectExamples(available, examples.max_per_tool)),
        inputSchema,
        ...(tool.output_schema ? { outputSchema: tool.output_schema } : {}),
      };
    case "json": {
      const selected = selectExamples(available, examples.max_per_tool);
      return {
        name: tool.name,
        provider_name: tool.providerName,
        description: tool.description,
        namespace: tool.namespace,
        side_effects: tool.side_effects,
        loading_mode: tool.loading_mode,
        input_schema: inputSchema,
        ...(tool.output_schema ? { output_schema: tool.output_schema } : {}),
        ...(selected.length > 0 ? { examples: selected } : {}),
      };
    }
    default: {
      const unknown: never = format;
      throw new Error(`unknown tool format ${String(unknown)}`);
    }
  }
}

/**
 * A search tool as OpenAI Responses' client-executed `tool_search` (`execution: "client"`): the model
 * calls it with these parameters, the agent runs the search (Trove's `tool_search`) and answers a
 * `tool_search_output` item holding the found tools' definitions. Deferred function tools of the
 * same request carry `defer_loading: true`.
 *
 * @example renderClientToolSearch(toolSearch) // { type: "tool_search", execution: "client", description, parameters }
 */
export function renderClientToolSearch(tool: RenderableTool): Record<string, unknown> {
  return {
    type: "tool_search",
    execution: "client",
    description: tool.description,
    parameters: tool.input_schema ?? EMPTY_INPUT_SCHEMA,
  };
}

/** One compact line per example, appended after a blank line; the description is otherwise untouched. */
function withExamples(description: string, examples: readonly RenderableExample[]): string {
  if (examples.length === 0) return description;
  const lines = examples.map((e) =>
    e.description ? `- ${e.description}: ${JSON.stringify(e.args)}` : `- ${JSON.stringify(e.args)}`,
  );
  return `${description}\n\nExamples:\n${lines.join("\n")}`;
}

/**
 * Anthropic requires every `input_examples` entry to match `input_schema` (a mismatch fails the
 * whole request), so only examples that validate are sent; a schema we cannot compile sends none.
 */
function validExamples<T extends RenderableExample>(
  examples: readonly T[],
  schema: Record<string, unknown>,
): T[] {
  return examples.filter((e) => validateSafely(schema, e.args)?.valid === true);
}
