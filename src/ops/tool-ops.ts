// Operations on the tool catalog: sync it, search it.
import { z } from "zod";
import { MinRelevance, Relevance, SearchType, ToolFormat } from "../schemas";
import { visibilityFor } from "../tools/policy";
import { renderTool } from "../tools/render";
import { LoadingMode, MAX_TOOLS, ToolRecord } from "../tools/tool-record";
import { searchTools } from "../tools/tool-search";
import { SYNC_CREATE_ISSUE, SYNCED_CREATE_ISSUE } from "./examples";
import { defineOp, type OpContext } from "./operation";

export const CatalogSyncInput = z
  .strictObject({
    // The limit is checked below, to answer catalog_too_large as a catalog over it does once
    // merged; maxItems still tells the schema's readers.
    tools: z.array(ToolRecord).meta({ maxItems: MAX_TOOLS }),
    mode: z.enum(["replace", "merge"]).default("replace"),
  })
  .superRefine((input, ctx) => {
    if (input.tools.length > MAX_TOOLS) {
      ctx.addIssue({
        code: "custom",
        path: ["tools"],
        message: `a session holds at most ${MAX_TOOLS} tools`,
        params: { code: "catalog_too_large", limit: MAX_TOOLS, total: input.tools.length },
      });
      return;
    }
    const seen = new Set<string>();
    input.tools.forEach((tool, i) => {
      if (seen.has(tool.name)) {
        ctx.addIssue({
          code: "custom",
          path: ["tools", i, "name"],
          message: `duplicate tool name "${tool.name}"`,
        });
      }
      seen.add(tool.name);
    });
  });

export const CatalogSyncOutput = z.object({
  fingerprint: z.string().describe("sha256 over the sorted record hashes"),
  added: z.number().int(),
  updated: z.number().int(),
  removed: z.number().int(),
  unchanged: z.number().int(),
  total: z.number().int(),
});

export const catalogSync = defineOp({
  name: "catalog_sync",
  summary: "Upload the agent's tool catalog; only new or changed records are written",
  tag: "tools",
  writes: true,
  idempotent: true,
  input: CatalogSyncInput,
  output: CatalogSyncOutput,
  errors: ["catalog_too_large"],
  example: {
    input: SYNC_CREATE_ISSUE.input,
    output: SYNCED_CREATE_ISSUE,
  },
  handler(ctx, input) {
    const result = ctx.catalog.sync(input.tools, input.mode, visibilityFor(ctx.config.get()));
    if (result.added > 0) ctx.learning.catalogChanged();
    if (result.added + result.updated + result.removed > 0) {
      ctx.events.record("catalog_synced", { ...result, mode: input.mode }, ctx.now);
    }
    return result;
  },
});

const ToolSearchFields = z.strictObject({
  query: z.string().max(2000),
  search_type: SearchType.default("fts"),
  limit: z.number().int().min(1).max(20).default(8),
  include_always_loaded: z.boolean().default(false),
  min_relevance: MinRelevance,
  format: ToolFormat.default("json").describe(
    '"anthropic" adds tool_reference blocks, "openai_responses" a tool_search_output item, for client-side tool search',
  ),
  call_id: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe(
      "With format openai_responses: the call_id of the model's tool_search_call, echoed in tool_search_output",
    ),
});

export const ToolSearchInput = ToolSearchFields.superRefine((input, issue) => {
  if (input.call_id !== undefined && input.format !== "openai_responses") {
    issue.addIssue({
      code: "custom",
      path: ["call_id"],
      message: "call_id answers an OpenAI tool_search_call: it needs format openai_responses",
    });
  }
});

/**
 * OpenAI Responses' `tool_search_output` input item for a client-executed tool search: the found
 * tools' full definitions, which the API loads into the model's context.
 */
const ToolSearchOutputItem = z.object({
  type: z.literal("tool_search_output"),
  execution: z.literal("client"),
  call_id: z.string().optional(),
  status: z.literal("completed"),
  tools: z.array(z.record(z.string(), z.unknown())).describe("Function tools, as context renders them"),
});

export const ToolSearchOutput = z.object({
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      score: z.number().min(0).max(1),
      relevance: Relevance,
      match_type: SearchType,
      loading_mode: LoadingMode,
    }),
  ),
  query: z.string(),
  search_type: SearchType.describe("The search type actually used"),
  total_deferred: z.number().int().describe("Deferred tools this session may activate"),
  tool_references: z
    .array(z.object({ type: z.literal("tool_reference"), tool_name: z.string() }))
    .optional()
    .describe(
      "With format anthropic: the results as Anthropic tool_reference blocks (provider names), each naming " +
        "a tool that context with format anthropic and defer_loading lists",
    ),
  tool_search_output: ToolSearchOutputItem.optional().describe(
    "With format openai_responses: the item to append to the next request's input after the model's " +
      "tool_search_call; its tools are the results' definitions (provider names, as context lists them)",
  ),
});

export const toolSearch = defineOp({
  name: "tool_search",
  summary: "Find deferred tools by capability (full text), pattern (regex) or exact name",
  tag: "tools",
  writes: false,
  input: ToolSearchInput,
  output: ToolSearchOutput,
  errors: ["invalid_pattern", "pattern_too_long"],
  ranksTools: true,
  model: {
    description:
      "Find tools that are available but not listed yet. Describe the capability you need in a few words " +
      '(e.g. "refund a payment"); use search_type "regex" to match tool names by pattern or "exact" for a ' +
      "known name. Returns tool names to call, best match first.",
    input: ToolSearchFields.pick({ query: true, search_type: true, limit: true }),
    shown: () => true,
  },
  example: {
    before: [
      {
        op: "catalog_sync",
        input: {
          tools: [
            { name: "github.create_issue", description: "Create an issue in a GitHub repository" },
            { name: "slack.post_message", description: "Post a message to a Slack channel" },
          ],
        },
      },
    ],
    input: { query: "open a bug on github", limit: 3 },
    output: {
      tools: [
        {
          name: "github.create_issue",
          description: "Create an issue in a GitHub repository",
          score: 1,
          match_type: "fts",
          relevance: 0.277083,
          loading_mode: "deferred",
        },
      ],
      query: "open a bug on github",
      search_type: "fts",
      total_deferred: 2,
    },
  },
  handler(ctx, input) {
    const result = searchTools(
      {
        sql: ctx.sql,
        catalog: ctx.catalog,
        preferredNamespaces: ctx.config.get().preferred_namespaces,
        sessionNamespaces: ctx.activations.namespacesUsed(),
      },
      input,
    );
    ctx.events.defer(
      "tool_search_query",
      {
        query: input.query,
        requested_search_type: input.search_type,
        effective_search_type: result.search_type,
        results_count: result.tools.length,
        // What came back, so that a later tool_resolve of one of them teaches the tenant's ranking.
        results: result.tools.map((t) => t.name),
      },
      ctx.now,
    );
    if (input.format === "openai_responses") {
      return { ...result, tool_search_output: toolSearchOutput(ctx, result.tools, input.call_id) };
    }
    if (input.format !== "anthropic") return result;
    const providers = ctx.catalog.providerNamesOf(result.tools.map((t) => t.name));
    return {
      ...result,
      tool_references: result.tools.map((t) => ({
        type: "tool_reference" as const,
        tool_name: providers.get(t.name) ?? t.name,
      })),
    };
  },
});

/**
 * The `tool_search_output` item answering OpenAI's client-executed tool search: each found tool as
 * context renders it for `openai_responses` (same provider name, description, parameters, strict),
 * in result order. Only allowed tools are ever found, so each is one context listed.
 */
function toolSearchOutput(
  ctx: OpContext,
  found: readonly { name: string }[],
  callId: string | undefined,
): z.infer<typeof ToolSearchOutputItem> {
  const names = found.map((t) => t.name);
  const stored = new Map(ctx.catalog.visible(new Set(names)).map((t) => [t.name, t]));
  const examples = ctx.config.get().examples;
  const tools = names.flatMap((name) => {
    const t = stored.get(name);
    if (!t) return [];
    const tool = { ...t.record, providerName: t.provider_name, loading_mode: t.effective_mode };
    return [renderTool(tool, "openai_responses", examples)];
  });
  return {
    type: "tool_search_output",
    execution: "client",
    ...(callId !== undefined ? { call_id: callId } : {}),
    status: "completed",
    tools,
  };
}
