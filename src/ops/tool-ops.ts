// Operations on the tool catalog: sync it, search it.
import { z } from "zod";
import { visibilityFor } from "../tools/policy";
import { LoadingMode, MAX_TOOLS, ToolRecord } from "../tools/tool-record";
import { searchTools } from "../tools/tool-search";
import { defineOp } from "./operation";

export const CatalogSyncInput = z
  .strictObject({
    tools: z.array(ToolRecord).max(MAX_TOOLS, `a session holds at most ${MAX_TOOLS} tools`),
    mode: z.enum(["replace", "merge"]).default("replace"),
  })
  .superRefine((input, ctx) => {
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
  input: CatalogSyncInput,
  output: CatalogSyncOutput,
  handler: (ctx, input) => ctx.catalog.sync(input.tools, input.mode, visibilityFor(ctx.config.get())),
});

const SearchType = z.enum(["fts", "regex", "exact"]);

export const ToolSearchInput = z.strictObject({
  query: z.string().max(2000),
  search_type: SearchType.default("fts"),
  limit: z.number().int().min(1).max(20).default(8),
  include_always_loaded: z.boolean().default(false),
});

export const ToolSearchOutput = z.object({
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      score: z.number().min(0).max(1),
      match_type: SearchType,
      loading_mode: LoadingMode,
    }),
  ),
  query: z.string(),
  search_type: SearchType.describe("The search type actually used"),
  total_deferred: z.number().int().describe("Deferred tools this session may activate"),
});

export const toolSearch = defineOp({
  name: "tool_search",
  summary: "Find deferred tools by capability (full text), pattern (regex) or exact name",
  input: ToolSearchInput,
  output: ToolSearchOutput,
  handler: (ctx, input) =>
    searchTools(
      { sql: ctx.sql, catalog: ctx.catalog, preferredNamespaces: ctx.config.get().preferred_namespaces },
      input,
    ),
});
