// The full-text search shared by tools and skills: FTS5 bm25 candidates, BM25F re-scoring, exact
// hits on top, the deterministic order and min-max scores (RFC v0.3 §1.5).
import { type ActionObject, actionObject } from "./action-object";
import { ACTION_CONFLICT, contradictions, pairFactors } from "./action-rules";
import { candidateTerms, ftsMatchExpression } from "./fts-query";
import { type Corpus, type FieldSpec, type Match, matches, queryMass, requestConcepts } from "./rerank";
import {
  boundedRelevance,
  calibratedRelevance,
  minMaxNormalize,
  type Rankable,
  rankComparator,
} from "./scoring";
import { MAX_QUERY_TERMS, queryTermGroups, type TermGroup, wordTerms } from "./text";
import { words } from "./words";

type TermOrder = "direct-first" | "by-concept";

/**
 * How much stronger a match counts in a namespace the session already works in: among comparable
 * matches (within 20 %) the session's namespace ranks first; a match elsewhere that is more than 20 %
 * better keeps its place. Property-tested in test/unit/session-context.test.ts.
 */
export const SESSION_BOOST = 0.2;

/**
 * How much stronger a match counts in a namespace the request names ("mongodb docs search", "get
 * confluence page"): the request says which system it goes to, as a session's own namespaces do.
 * A namespace is named when every term of it is a word of the request, outside its context.
 */
export const NAMED_NAMESPACE = 0.2;

/**
 * How much weaker a match counts for a row that changes something when the query names none of
 * the candidates' actions: "s3 buckets" or "jira ticket details" ask to read, so among comparable
 * matches list_buckets ranks before create_bucket. A query naming any candidate's action ("new
 * bucket", "delete the old bucket"), or any action with a verb that does not read ("look over my
 * PR", however the reviewing tool is named: TermGroup.acts), leaves every row as it is.
 */
export const UNASKED_ACTION = 0.15;

/**
 * How one FTS5 index is read and ranked. `R` is a result row; `C` is a candidate row, an `R` read
 * together with its normalized index fields.
 */
export interface FtsIndex<R, C extends R> {
  /** A candidate's normalized index texts, in `rescoreFields` order. */
  fields(row: C): readonly string[];
  rescoreFields: readonly FieldSpec[];
  /** A row's identity: an exact hit and a candidate with the same key are one result. */
  key(row: R): string;
  /** What breaks score ties: name, namespace and side effects (rankComparator). */
  rankable(row: R): Omit<Rankable, "score">;
  /**
   * The order terms are offered to the MATCH, which decides which survive its term cap and which
   * of two equally rare terms fits its budget: every direct term before any related one, or each
   * concept's related terms right after its own. Tool and skill search grew apart here; each
   * keeps its order so that results stay as they were.
   */
  termOrder: TermOrder;
  /**
   * Whether a concept of the request that the MATCH's budget leaves out counts as a boost
   * (fts-query.ts candidateTerms). Tools: measured on catalogs up to 10,000 tools. Skills keep the
   * MATCH as it was: no retrieval set measures what a boost does to their ranking, and their
   * search is near its 1 ms target at 5,000 skills (a skill's body makes a term's list long).
   */
  conceptBoosts?: boolean;
  /**
   * The action term of a row that changes something (a tool whose side effects are not read or
   * pure: `creat` for create_bucket), null for a row that only reads. See UNASKED_ACTION.
   */
  action?(row: C): string | null;
  /**
   * Whether a row only reads (a tool whose side effects are read or pure). Learned text never lifts
   * a row that does not above a row that reads and matches better with its own fields (issue 27).
   */
  reads?(row: C): boolean;
  /**
   * How much a row's text match counts, 1 when omitted: a learned skill's record and age (issue
   * 31). It scales the match's strength (and so the order), and can only lower relevance.
   */
  weight?(row: R): number;
  /** The terms of the row's namespace (NAMED_NAMESPACE). */
  namespaceTerms?(row: C): readonly string[];
  /** The terms that name the row itself (a tool's name without its namespace): its identity. */
  identity?(row: C): readonly string[];
  /** The terms of the row's whole name, its namespace's included. */
  nameTerms?(row: C): readonly string[];
  /**
   * The actions a row offers besides its name's: a tool that takes its operation as an argument
   * (`issue_write`'s method: create, update). Such a row names the request's action and object
   * when it offers the action and its name holds the object's words.
   */
  offers?(row: C): readonly string[];
  /**
   * Exact hits score one above the best candidate: the best of all candidates, or of those that
   * are not exact hits themselves. The two differ only when an exact hit is also the best
   * candidate, and then only in the other hits' normalized scores (tools: all, skills: others).
   */
  exactAbove: "all-candidates" | "other-candidates";
}

/** The index's term statistics (both stores cache them until their next write). */
export interface IndexStats {
  /** Documents in the index. */
  size(): number;
  /** Documents containing each term (0 for unknown terms). */
  docFrequencies(terms: readonly string[]): ReadonlyMap<string, number>;
  /** Indexed terms an unknown term may be a misspelling of (src/search/typos.ts). */
  nearTerms(term: string): readonly string[];
  /**
   * Documents per term of a re-scored field the full-text index does not hold (a tool's learned
   * words short of their threshold that no tool's own text says, CatalogStats.unindexedFrequencies):
   * re-scoring's idf counts them beside the index's own, so such a word learned for many tools
   * weighs as little there as a word many tools say. Absent for an index without such a field
   * (skills).
   */
  unindexedFrequencies?(): ReadonlyMap<string, number>;
}

export interface FtsSearch<R, C extends R> {
  query: string;
  limit: number;
  /** Exact-name hits: they always rank first, with score 1. */
  exact: readonly R[];
  preferredNamespaces: readonly string[];
  /**
   * Namespaces this session already activated or used: their rows' matches count SESSION_BOOST
   * stronger, which decides between comparable matches and never overtakes a clearly better one.
   */
  sessionNamespaces: ReadonlySet<string>;
  stats: IndexStats;
  /**
   * The top FTS5 matches of `match` (bind it; keep the SQL text constant) joined to their rows,
   * best bm25 first.
   */
  candidates(match: string): readonly C[];
  /**
   * Per re-scored field, its mean length over the whole index where the caller knows it (Corpus);
   * the other fields are measured against the candidates' mean.
   */
  meanLengths?: readonly (number | undefined)[];
  /**
   * The actions the index's names lead with (CatalogStats.nameStarts), for ACTION_CONFLICT; without
   * them no row is read as contradicting a request.
   */
  actions?(): ReadonlySet<string>;
  /** What a row says it does (a tool's description's first sentence: src/search/action-object.ts purposeOf). */
  purpose?(row: C): ActionObject | null;
}

export interface Scored<R> {
  row: R;
  /** In [0, 1]: min-max over the returned rows, 1 for exact hits. */
  score: number;
  /** In [0, 1]: how well the row answers the query, comparable across queries (1 for exact hits). */
  relevance: number;
}

/**
 * The best `limit` rows for a query, in rank order.
 *
 * @example
 * ftsSearch(TOOL_INDEX, { query: "open a bug", limit: 8, exact: [], preferredNamespaces: [],
 *   stats: catalog, candidates: (match) => sql.all(CANDIDATE_SQL, match) });
 */
export function ftsSearch<R, C extends R>(index: FtsIndex<R, C>, search: FtsSearch<R, C>): Scored<R>[] {
  const read = withCompounds(queryTermGroups(search.query), search.query, search.stats);
  const groups = withCorrections(read, search.stats);
  const terms = orderedTerms(groups, index.termOrder);
  const df = search.stats.docFrequencies(terms);
  // What the request is about: its own words, not its context, stand-ins or arguments (names, ids).
  const about = index.conceptBoosts
    ? groups.filter((g) => !g.context && !g.weak && !g.argument).map((g) => g.terms)
    : [];
  const match = candidateTerms(terms, df, about);
  const expression = ftsMatchExpression(match.terms, match.boosts);
  const rows = expression ? search.candidates(expression) : [];
  const unindexed = search.stats.unindexedFrequencies?.();
  const corpus = {
    size: search.stats.size(),
    docFrequency: (term: string) => (df.get(term) ?? 0) + (unindexed?.get(term) ?? 0),
    meanLengths: search.meanLengths,
  };
  const actions = rows.map((row) => index.action?.(row) ?? null);
  const raw = boundLearning(
    contenders(
      rescoreWithNouns(
        rows.map((row) => index.fields(row)),
        actions,
        groups,
        index.rescoreFields,
        corpus,
      ),
    ),
    rows.map((row) => index.reads?.(row) ?? true),
  );
  const mass = queryMass(groups, corpus);
  const concepts = requestConcepts(groups, corpus);
  const said = new Set(groups.filter((g) => !g.context).flatMap((g) => g.terms));
  const inNamed = rows.map((row) => {
    const terms = index.namespaceTerms?.(row) ?? [];
    return terms.length > 0 && terms.every((t) => said.has(t));
  });
  const boost = (row: R, i: number) =>
    (search.sessionNamespaces.has(index.rankable(row).namespace) ? 1 + SESSION_BOOST : 1) *
    (inNamed[i] ? 1 + NAMED_NAMESPACE : 1);
  // Stand-ins, things and the request's context name no action ("deploy went out; check …").
  const asked = new Set(
    groups.filter((g) => !g.weak && !g.thing && !g.context).flatMap((g) => [...g.terms, ...g.related]),
  );
  const readOnly = !groups.some((g) => g.acts) && !actions.some((a) => a !== null && asked.has(a));
  const unasked = (i: number) => (readOnly && actions[i] !== null ? 1 - UNASKED_ACTION : 1);
  const identities = rows.map((row) => index.identity?.(row) ?? []);
  const named = identityFactors(
    identities,
    new Set(groups.flatMap((g) => [...g.terms, ...g.related])),
    search.stats,
  );
  const rowNames = rows.map((row, i) => ({
    identity: identities[i] ?? [],
    names: index.nameTerms?.(row) ?? [],
    offers: index.offers?.(row) ?? [],
    said: search.purpose?.(row) ?? null,
  }));
  const request = actionObject(search.query);
  const pairs = pairFactors(request, rowNames);
  const contradicted = contradictions(request, search.actions?.(), rowNames);
  const scored = rows.map((row, i) => {
    const weight = index.weight?.(row) ?? 1;
    return {
      row,
      strength: boundedRelevance(
        (raw[i]?.score ?? 0) * boost(row, i) * unasked(i) * (named[i] ?? 1) * (pairs[i] ?? 1) * weight,
      ),
      // What the row itself matches, whatever the session did before: comparable across sessions.
      relevance:
        calibratedRelevance(evidenceOf(raw[i]), mass, concepts) *
        Math.min(1, weight) *
        (contradicted[i] ? 1 - ACTION_CONFLICT : 1),
    };
  });
  return rankWithExact(index, search, scored);
}

/** What relevance reads of a match: its score without rank-only fields (never above its score). */
function evidenceOf(match: Match | undefined): { score: number; unmatched: number } {
  return match
    ? { score: Math.min(match.score, match.evidence), unmatched: match.unmatched }
    : { score: 0, unmatched: 0 };
}

/**
 * `rescore`, except for a row whose action is a word the query does not ask to do: used as a noun
 * ("the build is green" for build_image, "the broken checkout flow" for git.checkout), the row
 * matches it only as a stand-in — the query names the thing; used as a state ("bugs assigned to
 * me" for assign_issue), the row does not match it at all — the query names what to look for.
 */
function rescoreWithNouns(
  fields: readonly (readonly string[])[],
  actions: readonly (string | null)[],
  groups: readonly TermGroup[],
  specs: readonly FieldSpec[],
  corpus: Corpus,
): Match[] {
  const raw = matches(fields, groups, specs, corpus);
  const notAsked = new Set(groups.filter((g) => g.noun || g.state).flatMap((g) => g.terms));
  const named = (i: number) => actions[i] != null && notAsked.has(actions[i] as string);
  if (!actions.some((_, i) => named(i))) return raw;
  const asThings = matches(
    fields,
    groups.map((g) => (g.state ? { ...g, terms: [] } : g.noun ? { ...g, weak: true } : g)),
    specs,
    corpus,
  );
  return raw.map((match, i) => (named(i) ? (asThings[i] ?? match) : match));
}

/**
 * How much of its identity a row's name leaves unasked: a name is what a tool is, so a name word the
 * query does not hold ("comment" of add_issue_comment for "create a github issue") says the tool does
 * something narrower or other than what was asked. Weighed by idf, so an unasked generic word
 * ("get", "list") costs little and a specific one much.
 */
export const NAME_IDENTITY = 0.08;

export function identityFactors(
  names: readonly (readonly string[])[],
  asked: ReadonlySet<string>,
  stats: IndexStats,
): number[] {
  const all = [...new Set(names.flat())];
  const df = stats.docFrequencies(all);
  const size = stats.size();
  const idf = (t: string) => {
    const d = df.get(t) ?? 0;
    return Math.log(1 + (size - d + 0.5) / (d + 0.5));
  };
  return names.map((terms) => {
    const unique = [...new Set(terms)];
    const total = unique.reduce((sum, t) => sum + idf(t), 0);
    if (total === 0) return 1;
    const unasked = unique.filter((t) => !asked.has(t)).reduce((sum, t) => sum + idf(t), 0);
    return 1 - NAME_IDENTITY * (unasked / total);
  });
}

/**
 * How well a row must match the request by its own fields, as a fraction of the best candidate's
 * own match, to use contender fields: learned words with less support than they need to count
 * anywhere (min_support_near's, src/learning/session-learning.ts). Close contenders only (0.6):
 * there learned words decide strongly (tool-search's f_learned_near weight); at 0.5 they also
 * passed tools that fit clearly better, and the dev catalog's learned everyday set fell.
 */
export const CONTENDER = 0.6;

/**
 * Rows that match the request about as well as the best by their own words (CONTENDER) are scored
 * with their contender fields: a tenant's use decides among the tools that already fit, where its
 * everyday words meet the catalog's own ("post the numbers" among the tools that post). A row the
 * request does not already fit gains nothing from them, however many sessions taught them.
 */
export function contenders(raw: readonly Match[]): Match[] {
  const best = Math.max(0, ...raw.map((m) => m.direct));
  if (best === 0) return [...raw];
  return raw.map((m) => (m.near > m.score && m.direct >= CONTENDER * best ? { ...m, score: m.near } : m));
}

/**
 * What learned text may add to a row that changes something: never enough to pass a row that only
 * reads and matches better by its own fields. Such a row's score is capped at the best score of
 * those read rows; a tie then goes to the read row (rankComparator puts safer side effects first).
 */
export function boundLearning(raw: readonly Match[], reads: readonly boolean[]): Match[] {
  return raw.map((match, i) => {
    if (reads[i] || match.score <= match.direct) return match;
    let cap = Number.POSITIVE_INFINITY;
    for (const [j, other] of raw.entries())
      if (reads[j] && other.direct > match.direct) cap = Math.min(cap, Math.max(other.score, match.direct));
    // Capped at the weakest better read row's score: it must not pass any of them.
    return match.score > cap ? { ...match, score: cap } : match;
  });
}

/**
 * Two adjacent words of the request that the catalog writes as one word ("data sources" for
 * check_datasources_health, "on call" for oncall): the joined word is a term of each of their
 * concepts, as a word of its own would be. Only words the index holds are joined.
 */
function withCompounds(groups: TermGroup[], query: string, stats: IndexStats): TermGroup[] {
  // The request's reading keeps at most MAX_QUERY_TERMS terms; words far past them make no concept.
  const all = words(query).slice(0, 3 * MAX_QUERY_TERMS);
  const terms = all.map(wordTerms);
  const read = new Set(groups.flatMap((g) => [...g.terms, ...g.related]));
  const joins: { joined: string; parts: string[] }[] = [];
  for (let i = 0; i + 1 < all.length; i++) {
    const parts = [...(terms[i] ?? []), ...(terms[i + 1] ?? [])];
    if (!parts.some((t) => read.has(t))) continue;
    const joined = wordTerms(`${all[i]}${all[i + 1]}`);
    if (joined.length === 1) joins.push({ joined: joined[0] as string, parts });
  }
  if (joins.length === 0) return groups;
  const df = stats.docFrequencies(joins.map((j) => j.joined));
  const known = joins.filter((j) => (df.get(j.joined) ?? 0) > 0 && !j.parts.includes(j.joined));
  if (known.length === 0) return groups;
  return groups.map((g) => {
    const own = (t: string) => g.terms.includes(t) || g.related.includes(t);
    const add = known.filter((j) => j.parts.some(own)).map((j) => j.joined);
    if (add.length === 0) return g;
    // A phrase's terms share its weight, and a stand-in stays one: there it is a related term.
    return !g.phrase && g.terms.length > 0
      ? { ...g, terms: [...new Set([...g.terms, ...add])] }
      : { ...g, related: [...new Set([...g.related, ...add])] };
  });
}

/**
 * A concept none of whose words the index knows gets the indexed terms they may be misspellings
 * of, as related terms: "calender" finds "calendar", at a related term's weight.
 */
function withCorrections(groups: TermGroup[], stats: IndexStats): TermGroup[] {
  const all = groups.flatMap((g) => g.terms);
  const df = stats.docFrequencies(all);
  return groups.map((g) => {
    // A word the index lacks but the query vocabulary gives a meaning to is a word, not a typo.
    if (g.terms.length === 0 || g.related.length > 0 || g.terms.some((t) => (df.get(t) ?? 0) > 0)) return g;
    const near = g.terms.flatMap((t) => stats.nearTerms(t));
    return near.length === 0
      ? g
      : { terms: g.terms, related: [...new Set([...g.related, ...near])], corrected: true };
  });
}

function orderedTerms(groups: readonly TermGroup[], order: TermOrder): string[] {
  switch (order) {
    case "direct-first":
      return [...new Set([...groups.flatMap((g) => g.terms), ...groups.flatMap((g) => g.related)])];
    case "by-concept":
      return [...new Set(groups.flatMap((g) => [...g.terms, ...g.related]))];
  }
}

/** Exact hits on top (the rule), then the order and the normalized scores. */
function rankWithExact<R, C extends R>(
  index: FtsIndex<R, C>,
  search: FtsSearch<R, C>,
  scored: readonly { row: R; strength: number; relevance: number }[],
): Scored<R>[] {
  const exactKeys = new Set(search.exact.map((row) => index.key(row)));
  const others = scored.filter((c) => !exactKeys.has(index.key(c.row)));
  const above = index.exactAbove === "all-candidates" ? scored : others;
  const top = Math.max(0, ...above.map((c) => c.strength));
  const ranked = [...search.exact.map((row) => ({ row, strength: top + 1, relevance: 1 })), ...others]
    .map((c) => ({ ...index.rankable(c.row), row: c.row, score: c.strength, relevance: c.relevance }))
    .sort(rankComparator(search.preferredNamespaces))
    .slice(0, search.limit);
  const scores = minMaxNormalize(ranked.map((c) => c.score));
  return ranked.map((c, i) => ({
    row: c.row,
    score: exactKeys.has(index.key(c.row)) ? 1 : (scores[i] ?? 0),
    relevance: c.relevance,
  }));
}
