// Trove's tool listings, read into one shape the adapter binds as AI SDK tools: `context` with
// format json (the visible tools, with their namespace) and with format anthropic + defer_loading
// (every tool the session allows, for tools the model found with tool_search).
import { OPERATION_NAMES, type OperationOutput } from "@trove/client";

/** One tool the model may be shown. */
export interface Definition {
  /** What the model calls: Trove's provider name (`github_create_issue`). */
  providerName: string;
  /** Trove's name (`github.create_issue`): what tool_resolve and the user's `execute` key use. */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  examples: { args: unknown; description?: string }[];
  /** One of Trove's own tools (tool_search, skill_load…): forwarded to the operation of that name. */
  builtin: boolean;
}

type Record_ = Record<string, unknown>;

const OPERATIONS = new Set<string>(OPERATION_NAMES);
const EMPTY_SCHEMA: Record_ = { type: "object", properties: {} };

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const obj = (value: unknown): Record_ | undefined =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record_) : undefined;

/** The visible tools of `context` with format json (Trove's own record per tool). */
export function fromJson(ctx: OperationOutput<"context">): Definition[] {
  return ctx.tools.map((tool) => {
    const name = str(tool.name);
    const examples = Array.isArray(tool.examples) ? (tool.examples as Record_[]) : [];
    return {
      providerName: str(tool.provider_name) || name,
      name,
      description: str(tool.description),
      inputSchema: obj(tool.input_schema) ?? EMPTY_SCHEMA,
      examples: examples.map((e) => ({
        args: e.args,
        ...(typeof e.description === "string" ? { description: e.description } : {}),
      })),
      // Trove's own tools are the operations it lists in namespace "trove"; a catalog tool may not
      // take their names (catalog_sync refuses them).
      builtin: tool.namespace === "trove" && OPERATIONS.has(name),
    };
  });
}

/**
 * Every allowed tool, from `context` with format anthropic and defer_loading. Used only for tools
 * tool_search returned, which are always catalog tools (Trove's own tools are never deferred).
 */
export function fromAnthropic(ctx: OperationOutput<"context">): Definition[] {
  return ctx.tools.map((tool) => {
    const providerName = str(tool.name);
    const examples = Array.isArray(tool.input_examples) ? tool.input_examples : [];
    return {
      providerName,
      name: ctx.name_map[providerName] ?? providerName,
      description: str(tool.description),
      inputSchema: obj(tool.input_schema) ?? EMPTY_SCHEMA,
      examples: examples.map((args) => ({ args })),
      builtin: false,
    };
  });
}

/**
 * The description the model reads: Trove's, then the tool's examples one per line, as Trove renders
 * them for OpenAI (every provider the AI SDK supports reads a description; not all take examples).
 */
export function describe(definition: Definition): string {
  if (definition.examples.length === 0) return definition.description;
  const lines = definition.examples.map((e) =>
    e.description ? `- ${e.description}: ${JSON.stringify(e.args)}` : `- ${JSON.stringify(e.args)}`,
  );
  return `${definition.description}\n\nExamples:\n${lines.join("\n")}`;
}
