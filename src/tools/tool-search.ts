// tool_search: exact, regex and FTS5 search over the tools this session may see (RFC v0.3 §1.5–1.6).
import type { Sql } from "../db/sql";
import { candidateTerms, ftsMatchExpression } from "../search/fts-query";
import { compileUserPattern } from "../search/regex";
import { requiredLiterals } from "../search/regex-literals";
import { type FieldSpec, rescore } from "../search/rerank";
import { boundedRelevance, minMaxNormalize, REGEX_SCORE, rankComparator } from "../search/scoring";
import { queryTermGroups } from "../search/text";
import type { CatalogEntry, CatalogStore } from "./catalog-store";
import { type LoadingMode, type SideEffects, TOOL_NAME } from "./tool-record";

export type SearchType = "fts" | "regex" | "exact";

export interface ToolSearchRequest {
  query: string;
  search_type: SearchType;
  limit: number;
  include_always_loaded: boolean;
}

export interface ToolHit {
  name: string;
  description: string;
  score: number;
  match_type: SearchType;
  loading_mode: LoadingMode;
}

export interface ToolSearchResult {
  tools: ToolHit[];
  query: string;
  search_type: SearchType;
  total_deferred: number;
}

/**
 * How many FTS candidates are re-scored before the top `limit` are returned: re-scoring is the
 * costliest step per candidate, and beyond ~3× the default page it measured no better.
 */
const candidateCount = (limit: number) => Math.max(24, 2 * limit);
/** bm25 column weights: name, namespace, tags, description, parameters, examples. */
const FTS_WEIGHTS = [10, 3, 4, 2, 1, 1.5] as const;

interface Candidate {
  name: string;
  namespace: string;
  description: string;
  side_effects: SideEffects;
  effective_mode: LoadingMode;
  score: number;
}

export interface SearchScope {
  sql: Sql;
  catalog: CatalogStore;
  preferredNamespaces: readonly string[];
}

export function searchTools(scope: SearchScope, request: ToolSearchRequest): ToolSearchResult {
  const candidates = findCandidates(scope, request);
  const sorted = candidates.sort(rankComparator(scope.preferredNamespaces)).slice(0, request.limit);
  return {
    tools: sorted.map((c) => ({
      name: c.name,
      description: c.description,
      score: c.score,
      match_type: request.search_type,
      loading_mode: c.effective_mode,
    })),
    query: request.query,
    search_type: request.search_type,
    total_deferred: scope.catalog.counts().deferred,
  };
}

function findCandidates(scope: SearchScope, request: ToolSearchRequest): Candidate[] {
  switch (request.search_type) {
    case "exact":
      return exactMatches(scope.sql, request.query.trim(), request.include_always_loaded).map((c) => ({
        ...c,
        score: 1,
      }));
    case "regex":
      return regexMatches(scope.catalog.entries(), request);
    case "fts":
      return ftsMatches(scope, request);
  }
}

/** Case-insensitive match on the name, the namespace-qualified name or the name without namespace. */
function exactMatches(sql: Sql, name: string, includeAlways: boolean): Omit<Candidate, "score">[] {
  if (!TOOL_NAME.test(name)) return [];
  return sql.all(
    // A UNION, not an OR, so each arm uses its own NOCASE index; CROSS JOIN keeps SQLite from
    // starting at the visibility index and scanning every allowed tool.
    `SELECT t.name, t.namespace, t.description, t.side_effects, t.effective_mode
     FROM (SELECT id FROM trove_tools WHERE name = ?1 COLLATE NOCASE
           UNION SELECT id FROM trove_tools WHERE qualified_name = ?1 COLLATE NOCASE
           UNION SELECT id FROM trove_tools WHERE local_name = ?1 COLLATE NOCASE) AS m
     CROSS JOIN trove_tools AS t ON t.id = m.id
     WHERE t.allowed = 1 AND (?2 = 1 OR t.effective_mode = 'deferred')`,
    name,
    includeAlways ? 1 : 0,
  );
}

/**
 * The alternatives of a pattern made only of literal text (`webhook`, `refund|charge`,
 * `s3\.get_object`), lowercased; null for anything with regex syntax. Such patterns are matched
 * with plain string search on ASCII text, where it gives exactly RE2's case-insensitive answer.
 */
export function literalAlternatives(pattern: string): string[] | null {
  const alternatives = pattern.split("|");
  const out: string[] = [];
  for (const alt of alternatives) {
    if (!/^(?:[A-Za-z0-9_ :-]|\\[.\-:/_ ])+$/.test(alt)) return null;
    out.push(alt.replaceAll("\\", "").toLowerCase());
  }
  return out;
}

function regexMatches(entries: readonly CatalogEntry[], request: ToolSearchRequest): Candidate[] {
  const re = compileUserPattern(request.query);
  const literals = literalAlternatives(request.query);
  const required = requiredLiterals(request.query);
  const test = (text: string, lower: string | undefined) => {
    if (lower === undefined) return re.test(text);
    if (literals) return literals.some((l) => lower.includes(l));
    return required.every((r) => lower.includes(r)) && re.test(text);
  };
  const eligible = entries.filter(
    (e) => e.allowed && (request.include_always_loaded || e.effective_mode === "deferred"),
  );
  const byName: Candidate[] = [];
  const rest: CatalogEntry[] = [];
  for (const entry of eligible) {
    const lower = entry.ascii?.name;
    if (!test(entry.name, lower)) rest.push(entry);
    else if (literals && lower !== undefined ? literals.includes(lower) : re.matches(entry.name))
      byName.push({ ...entry, score: REGEX_SCORE.full });
    else if (
      literals && lower !== undefined
        ? literals.some((l) => lower.startsWith(l))
        : re.matcher(entry.name).lookingAt()
    )
      byName.push({ ...entry, score: REGEX_SCORE.prefix });
    else byName.push({ ...entry, score: REGEX_SCORE.substring });
  }
  // Name matches outscore every description-only match, so when they fill the page the (much
  // longer) descriptions need not be scanned: the answer is the same.
  if (byName.length >= request.limit) return byName;
  const byText = rest.filter(
    (e) => test(e.description, e.ascii?.description) || (e.tags !== "" && test(e.tags, e.ascii?.tags)),
  );
  return [...byName, ...byText.map((e) => ({ ...e, score: REGEX_SCORE.text }))];
}

type FtsRow = Omit<Candidate, "score"> & {
  f_name: string;
  f_namespace: string;
  f_tags: string;
  f_description: string;
  f_examples: string;
};

/**
 * Re-scoring fields. Parameter text helps find candidates (it is in the MATCH) but not order them:
 * parameter names repeat across tools ("id", "page"), and leaving them out measured no worse.
 */
const RESCORE_FIELDS: readonly FieldSpec[] = [
  { weight: 3, b: 0.3 }, // f_name
  { weight: 1.5, b: 0 }, // f_namespace
  { weight: 1.5, b: 0.3 }, // f_tags
  { weight: 1, b: 0.75 }, // f_description
  { weight: 0.6, b: 0.5 }, // f_examples
];
function ftsMatches(scope: SearchScope, request: ToolSearchRequest): Candidate[] {
  const include = request.include_always_loaded ? 1 : 0;
  const exact = exactMatches(scope.sql, request.query.trim(), request.include_always_loaded);
  const groups = queryTermGroups(request.query);
  const direct = groups.flatMap((g) => g.terms);
  const related = groups.flatMap((g) => g.related).filter((t) => !direct.includes(t));
  const df = scope.catalog.docFrequencies([...direct, ...related]);
  const matchTerms = candidateTerms([...new Set([...direct, ...related])], df);
  const expression = ftsMatchExpression(matchTerms);
  const rows = expression
    ? scope.sql.all<FtsRow>(
        // Rank inside FTS5 first and join only the top candidates: joining before the LIMIT would
        // read every matching row's text.
        `SELECT t.name, t.namespace, t.description, t.side_effects, t.effective_mode,
           t.f_name, t.f_namespace, t.f_tags, t.f_description, t.f_examples
         FROM (SELECT rowid AS id, bm25(trove_tools_fts, ${FTS_WEIGHTS.join(", ")}) AS raw
               FROM trove_tools_fts WHERE trove_tools_fts MATCH ?1 ORDER BY raw LIMIT ?3) AS m
         CROSS JOIN trove_tools AS t ON t.id = m.id
         WHERE t.allowed = 1 AND (?2 = 1 OR t.effective_mode = 'deferred')
         ORDER BY m.raw`,
        expression,
        include,
        candidateCount(request.limit),
      )
    : [];
  const relevance = rescore(
    rows.map((r) => [r.f_name, r.f_namespace, r.f_tags, r.f_description, r.f_examples]),
    groups,
    RESCORE_FIELDS,
    { size: scope.catalog.size(), docFrequency: (term) => df.get(term) ?? 0 },
  );
  const scored = rows.map((r, i) => ({
    name: r.name,
    namespace: r.namespace,
    description: r.description,
    side_effects: r.side_effects,
    effective_mode: r.effective_mode,
    relevance: boundedRelevance(relevance[i] ?? 0),
  }));
  // An exact name typed as a query always ranks first (the rule), with the top score.
  const exactNames = new Set(exact.map((e) => e.name));
  const top = Math.max(0, ...scored.map((c) => c.relevance));
  const merged = [
    ...exact.map((e) => ({ ...e, relevance: top + 1 })),
    ...scored.filter((c) => !exactNames.has(c.name)),
  ];
  const ranked = merged
    .map((c) => ({ ...c, score: c.relevance }))
    .sort(rankComparator(scope.preferredNamespaces))
    .slice(0, request.limit);
  const scores = minMaxNormalize(ranked.map((c) => c.score));
  return ranked.map(({ relevance: _, ...c }, i) => ({
    ...c,
    score: exactNames.has(c.name) ? 1 : (scores[i] ?? 0),
  }));
}
