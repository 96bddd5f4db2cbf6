// Small schemas several floors share, written once: the id pattern of sessions, runs and projects,
// the search types and the tool formats.
import { z } from "zod";

/** Tenant ids (the first half of a session object's name, from TROVE_API_KEYS and pack.yaml). */
export const TENANT_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** Session, run and project ids. */
export const ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const Id = z.string().regex(ID_PATTERN, `must match ${ID_PATTERN.source}`);

/** Names of published catalogs (`PUT /v1/catalogs/{name}`, a session's `catalog`). */
export const CATALOG_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;
export const CatalogName = z
  .string()
  .regex(CATALOG_NAME_PATTERN, `must match ${CATALOG_NAME_PATTERN.source}`);

/** How tool_search and skill_search read a query (RFC v0.3 §1.5). */
export const SearchType = z.enum(["fts", "regex", "exact"]);
export type SearchType = z.infer<typeof SearchType>;

/**
 * The shapes tools are rendered in: a provider's tool definitions (Anthropic Messages, OpenAI Chat
 * Completions as `openai`, OpenAI Responses as `openai_responses`), MCP's, or Trove's own JSON.
 */
export const ToolFormat = z.enum(["anthropic", "openai", "openai_responses", "mcp", "json"]);
export type ToolFormat = z.infer<typeof ToolFormat>;

/**
 * A search result's relevance: how well it answers the query, on one scale for every query and
 * catalog (unlike `score`, which is relative to the other results of the same search).
 */
export const Relevance = z
  .number()
  .min(0)
  .max(1)
  .describe(
    "How well this result answers the query, comparable across queries: about the chance that it is what " +
      "was asked for (1 for an exact name)",
  );

/** Leaves out results below a relevance: a caller's way to get nothing rather than a poor match. */
export const MinRelevance = z
  .number()
  .min(0)
  .max(1)
  .default(0)
  .describe("Leave out results whose relevance is below this; an empty answer then means nothing fits");
