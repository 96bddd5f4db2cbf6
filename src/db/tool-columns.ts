// The columns of a session's trove_tools table and its full-text index, by who writes them. The
// schema steps that create them are in ./migrations.ts.

// FTS columns hold text already normalized by src/search/text.ts (split identifiers, synonyms,
// stemming), so the FTS tokenizer only needs to split on whitespace and fold case.
export const TOOL_FTS_COLUMNS_V1 = "f_name, f_namespace, f_tags, f_description, f_params, f_examples";
/**
 * The indexed columns of what a tool says of itself, as an SQL list for trove_tools_vocab_col: a
 * word any tool's own text holds is the catalog's, whatever people taught (src/learning/).
 */
export const OWN_TEXT_COLUMNS_SQL = "'f_name', 'f_namespace', 'f_tags', 'f_description', 'f_examples'";
/** Since version 7: what the tenant learned people ask for when they use the tool (src/learning/). */
export const TOOL_FTS_COLUMNS = `${TOOL_FTS_COLUMNS_V1}, f_learned`;

/** trove_tools' columns besides its rowid `id`, in table order, as version 8 rebuilt the table. */
export const TOOL_ROW_COLUMNS_V8 = [
  "name",
  "qualified_name",
  "local_name",
  "namespace",
  "description",
  "tags",
  "side_effects",
  "loading_mode",
  "effective_mode",
  "allowed",
  "record",
  "record_hash",
  "f_name",
  "f_namespace",
  "f_tags",
  "f_description",
  "f_params",
  "f_examples",
  "provider_name",
  "source",
  "f_learned",
] as const;

/** trove_tools' columns besides its rowid `id`, in table order. */
export const TOOL_ROW_COLUMNS = [
  ...TOOL_ROW_COLUMNS_V8,
  "f_offers",
  "f_learned_near",
  "f_returns",
  "f_learned_own",
] as const;

/** The columns learning writes (src/learning/session-learning.ts); a catalog sync never does. */
export const LEARNED_COLUMNS = ["f_learned", "f_learned_near", "f_learned_own"] as const;
export type LearnedColumn = (typeof LEARNED_COLUMNS)[number];

/** trove_tools' columns a catalog sync writes: all but the learned ones. */
export const SYNCED_TOOL_COLUMNS = TOOL_ROW_COLUMNS.filter(
  (c): c is Exclude<(typeof TOOL_ROW_COLUMNS)[number], LearnedColumn> =>
    !(LEARNED_COLUMNS as readonly string[]).includes(c),
);
