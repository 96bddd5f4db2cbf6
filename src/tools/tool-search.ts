// tool_search: exact, regex and FTS5 search over the tools this session may see (RFC v0.3 §1.5–1.6).
import type { Sql } from "../db/sql";
import { type FtsIndex, ftsSearch } from "../search/fts-pipeline";
import { compileUserPattern } from "../search/regex";
import { requiredLiterals } from "../search/regex-literals";
import { type NameTests, nameScore, REGEX_SCORE, rankComparator } from "../search/scoring";
import type { CatalogEntry, CatalogStore, IndexedFields } from "./catalog-store";
import { localTerms } from "./tool-index";
import { type LoadingMode, type SideEffects, TOOL_NAME } from "./tool-record";

export type SearchType = "fts" | "regex" | "exact";

export interface ToolSearchRequest {
  query: string;
  search_type: SearchType;
  limit: number;
  include_always_loaded: boolean;
  /** Results below this relevance are left out (0: none). */
  min_relevance: number;
}

export interface ToolHit {
  name: string;
  description: string;
  score: number;
  relevance: number;
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
 * How many FTS candidates are re-scored, whatever the limit: twice the largest page. One pool for
 * every limit is what keeps the first k results of `limit: k` the first k of any larger limit
 * (re-scoring reads the pool's field lengths, so a pool that grew with the limit could reorder it).
 */
const CANDIDATE_POOL = 40;
/** bm25 column weights: name, namespace, tags, description, parameters, examples, learned. */
const FTS_WEIGHTS = [10, 3, 4, 2, 1, 1.5, 3] as const;

interface Candidate {
  name: string;
  namespace: string;
  description: string;
  side_effects: SideEffects;
  effective_mode: LoadingMode;
  score: number;
  relevance: number;
}

/** A tool as the exact and full-text queries read it. */
type ToolRow = Omit<Candidate, "score" | "relevance">;

export interface SearchScope {
  sql: Sql;
  catalog: CatalogStore;
  preferredNamespaces: readonly string[];
  /** Namespaces this session activated or used (see SESSION_BOOST). */
  sessionNamespaces: ReadonlySet<string>;
}

export function searchTools(scope: SearchScope, request: ToolSearchRequest): ToolSearchResult {
  const candidates = findCandidates(scope, request);
  const sorted = candidates
    .sort(rankComparator(scope.preferredNamespaces))
    .filter((c) => c.relevance >= request.min_relevance)
    .slice(0, request.limit);
  return {
    tools: sorted.map((c) => ({
      name: c.name,
      description: c.description,
      score: c.score,
      relevance: c.relevance,
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
      return exactMatches(scope.catalog, request.query.trim(), request.include_always_loaded).map((c) => ({
        ...c,
        score: 1,
        relevance: 1,
      }));
    case "regex":
      return regexMatches(scope.catalog.entries(), request);
    case "fts":
      return ftsMatches(scope, request);
  }
}

/**
 * Case-insensitive match on the name, the namespace-qualified name or the name without namespace;
 * exact match on the provider name the model sees (`github_create_issue`).
 */
function exactMatches(catalog: CatalogStore, name: string, includeAlways: boolean): ToolRow[] {
  if (!TOOL_NAME.test(name)) return [];
  return catalog
    .exact(name, includeAlways)
    .map(({ name, namespace, description, side_effects, effective_mode }) => ({
      name,
      namespace,
      description,
      side_effects,
      effective_mode,
    }));
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
  // A literal pattern meets an ASCII name (its lowercased copy is kept) by plain string search.
  const nameTests: NameTests<CatalogEntry> = {
    found: (e) => test(e.name, e.ascii?.name),
    whole: (e) => (literals && e.ascii ? literals.includes(e.ascii.name) : re.matches(e.name)),
    prefix: (e) => {
      const lower = e.ascii?.name;
      if (!literals || lower === undefined) return re.matcher(e.name).lookingAt();
      return literals.some((l) => lower.startsWith(l));
    },
  };
  const byName: Candidate[] = [];
  const rest: CatalogEntry[] = [];
  for (const entry of eligible) {
    const score = nameScore(nameTests, entry);
    if (score === null) rest.push(entry);
    else byName.push({ ...entry, score, relevance: score });
  }
  // Name matches outscore every description-only match, so when they fill the page the (much
  // longer) descriptions need not be scanned: the answer is the same.
  if (byName.length >= request.limit) return byName;
  const byText = rest.filter(
    (e) => test(e.description, e.ascii?.description) || (e.tags !== "" && test(e.tags, e.ascii?.tags)),
  );
  return [...byName, ...byText.map((e) => ({ ...e, score: REGEX_SCORE.text, relevance: REGEX_SCORE.text }))];
}

/**
 * A candidate as re-scoring reads it. f_learned_near holds learned words short of their threshold,
 * f_learned_own learned words the tool says itself; both for a contender only (fts-pipeline's
 * contenders).
 */
type FtsRow = ToolRow &
  Omit<IndexedFields, "f_offers"> & {
    /** The operations the tool offers through a parameter, when the catalog names them (offered). */
    offered: readonly string[];
    /** Its description's first sentence, when the description says more (CatalogStats.purpose). */
    purpose: string;
  };

/**
 * The best-ranked ids by bm25. Their text comes from the catalog's memory (withIndexedFields), so
 * the statement reads the index alone.
 */
const FTS_CANDIDATES = `
  SELECT rowid AS id FROM trove_tools_fts WHERE trove_tools_fts MATCH ?1
  ORDER BY bm25(trove_tools_fts, ${FTS_WEIGHTS.join(", ")}) LIMIT ?2`;

const TOOL_INDEX: FtsIndex<ToolRow, FtsRow> = {
  // The operations a tool offers through a parameter are words of its name: label_write with a
  // method of create, update or delete is create_label as much as it is label_write.
  fields: (r) => [
    r.offered.length === 0 ? r.f_name : `${r.f_name} ${r.offered.join(" ")}`,
    r.f_namespace,
    r.f_tags,
    r.f_description,
    r.f_examples,
    r.f_learned,
    r.f_params,
    r.f_returns,
    r.purpose,
    r.f_learned_near,
    r.f_learned_own,
  ],
  rescoreFields: [
    { weight: 3, b: 0.3 }, // f_name
    { weight: 1.5, b: 0, names: true }, // f_namespace
    { weight: 1.5, b: 0.3 }, // f_tags
    { weight: 1, b: 0.75 }, // f_description
    { weight: 0.6, b: 0.5 }, // f_examples
    // What people of this tenant asked for when they went on to use the tool (src/learning/),
    // for the words the tool's own fields lack.
    { weight: 1, b: 0.5, gapsOnly: true }, // f_learned
    // What the tool takes, weakly: requests name their arguments ("for the coordinates 52.5,
    // 13.4", "with the IATA code"), and parameter text tells apart tools that share an object.
    // It orders, but is no evidence that anything fits (rankOnly): parameter names repeat across
    // tools ("id", "page"). 0.3 was best on the suite's macro average (0.2 to 0.5 within 0.004);
    // up to twice that for a tool whose description is shorter than its peers' (shortOf). A
    // request of more than 8 concepts names its arguments (ToolLens's median is 12, the dev sets'
    // 4): from there to 15 the weight rises to three times the name's (longRequest). ToolLens R@1
    // by that top weight: 4.5 0.415, 6 0.423, 9 0.433, 12 0.432; no other set moved but one query
    // of the dev everyday set (of its 4 long requests).
    {
      weight: 0.3,
      b: 0.75,
      rankOnly: true,
      shortOf: 3,
      longRequest: { weight: 9, from: 8, to: 15 },
    }, // f_params
    // What the tool returns, as weakly and for the same reason: a request may name the answer it
    // wants ("the calories of a banana"). Unlike arguments, a long request does not spell it out.
    { weight: 0.3, b: 0.75, rankOnly: true, unindexed: true }, // f_returns
    // What the description's first sentence says the tool does, as a title field: a long
    // description (a docstring, a prompt for the model) no longer dilutes the sentence that
    // matches the request. Half a description's weight, its length normalization.
    { weight: 0.5, b: 0.75 }, // purpose
    // Learned words short of their threshold, for a tool the request already fits closely
    // (fts-pipeline's contenders): there the tenant's use decides, so they weigh more than any
    // field of the tool's own (10; 8 to 20 lifted the MCP catalog's 60-person past within 0.012).
    { weight: 10, b: 0.5, gapsOnly: true, contender: true }, // f_learned_near
    // Learned words the tool says itself, for a contender: its siblings say them too, so this
    // field tells them apart by what the tenant's people chose, and by nothing the request says.
    // It weighs as the tool's name does (3). 10 measured the same on the dev catalog and on the
    // MCP catalog's 60-person past, and 8 of ToolLens's 1,877 queries more with its 60-person past.
    { weight: 3, b: 0.5, contender: true }, // f_learned_own
  ],
  key: (r) => r.name,
  rankable: (r) => r,
  termOrder: "direct-first",
  conceptBoosts: true,
  exactAbove: "all-candidates",
  action: (r) => (reads(r) ? null : actionTerm(r)),
  reads,
  identity: (r) => localTerms(r.f_name, r.f_namespace),
  namespaceTerms: (r) => termsOf(r.f_namespace),
  offers: (r) => r.offered,
  nameTerms: (r) => termsOf(`${r.f_name} ${r.f_namespace}`),
};

/** The terms of an indexed field's text. */
function termsOf(text: string): string[] {
  return text.split(" ").filter((t) => t !== "");
}

/** A tool that only reads: learning never lifts another above it (fts-pipeline's boundLearning). */
function reads(row: FtsRow): boolean {
  return row.side_effects === "read" || row.side_effects === "pure";
}

/**
 * The first term of a tool's name after its namespace's terms, read from the indexed fields:
 * `creat` for s3.create_bucket ("s3 creat bucket" after "s3").
 */
function actionTerm(row: FtsRow): string | null {
  return localTerms(row.f_name, row.f_namespace)[0] || null;
}

/**
 * A candidate as re-scoring reads it: with its first sentence's terms (the purpose field) and the
 * operations it offers through a parameter, when this catalog names them:
 * every offered term starts or ends a tool name here (`creat`, `delet` of create_issue,
 * delete_file). A choice among kinds of things or states (`open`, `closed`) is not one of
 * operations and offers nothing.
 */
function candidate(row: ToolRow & IndexedFields, catalog: CatalogStore): FtsRow {
  const offers = row.f_offers === "" ? [] : row.f_offers.split(" ");
  // The catalog's name ends are read only when a candidate offers something.
  const offered = offers.every((t) => catalog.stats.nameEnds().has(t)) ? offers : [];
  return {
    name: row.name,
    namespace: row.namespace,
    description: row.description,
    side_effects: row.side_effects,
    effective_mode: row.effective_mode,
    f_name: row.f_name,
    f_namespace: row.f_namespace,
    f_tags: row.f_tags,
    f_description: row.f_description,
    f_params: row.f_params,
    f_returns: row.f_returns,
    f_examples: row.f_examples,
    f_learned: row.f_learned,
    f_learned_near: row.f_learned_near,
    f_learned_own: row.f_learned_own,
    offered,
    purpose: catalog.stats.purpose(row.name, row.description).terms,
  };
}

/**
 * Re-scoring's mean field lengths: a description is measured against the catalog's descriptions, as
 * BM25 measures a document against its collection. Against the candidates' alone, a long
 * description among long ones counted as average and one among short ones as long, so the same
 * tool's match changed with its competitors. The other fields keep the candidates' mean: a
 * parameter list or a name is compared with those it competes with. Measured on the suite: macro
 * R@1 0.648 → 0.649, no-answer AUROC on the second MCP catalog (mcp2) 0.769 → 0.787
 * (bench/RESULTS.md).
 */
function descriptionMean(length: number): (number | undefined)[] {
  return TOOL_INDEX.rescoreFields.map((_, i) => (i === DESCRIPTION_FIELD ? length : undefined));
}

/** f_description's place in TOOL_INDEX's fields and rescoreFields. */
const DESCRIPTION_FIELD = 3;

function ftsMatches(scope: SearchScope, request: ToolSearchRequest): Candidate[] {
  const exact = exactMatches(scope.catalog, request.query.trim(), request.include_always_loaded);
  return ftsSearch(TOOL_INDEX, {
    query: request.query,
    limit: request.limit,
    exact,
    preferredNamespaces: scope.preferredNamespaces,
    sessionNamespaces: scope.sessionNamespaces,
    stats: scope.catalog.stats,
    candidates: (match) => {
      const ids = scope.sql.all<{ id: number }>(FTS_CANDIDATES, match, CANDIDATE_POOL).map((r) => r.id);
      return scope.catalog
        .withIndexedFields(ids, request.include_always_loaded)
        .map((row) => candidate(row, scope.catalog));
    },
    purpose: (row) => scope.catalog.stats.purpose(row.name, row.description).said,
    meanLengths: descriptionMean(scope.catalog.stats.descriptionLength()),
    actions: () => scope.catalog.stats.nameStarts(),
  }).map(({ row, score, relevance }) => ({ ...row, score, relevance }));
}
