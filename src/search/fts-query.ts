// Builds an FTS5 MATCH expression that no user text can break: quoted terms joined by OR.
import type { Sql } from "../db/sql";

/**
 * `"a" OR "b"` for the given normalized terms, or null when nothing is searchable. Each of `boosts`
 * joins only where one of `terms` matches (`… OR (("c") AND ("a" OR "b"))`): it adds no record to
 * the match, and bm25 counts it in the records that hold it.
 */
export function ftsMatchExpression(terms: readonly string[], boosts: readonly string[] = []): string | null {
  const quoted = (list: readonly string[]) =>
    [...new Set(list)].filter((t) => t.length > 0).map((t) => `"${t.replaceAll('"', '""')}"`);
  const matched = quoted(terms);
  if (matched.length === 0) return null;
  const base = matched.join(" OR ");
  const extra = quoted(boosts.filter((t) => !terms.includes(t)));
  return extra.length === 0 ? base : `${base} OR ((${extra.join(" OR ")}) AND (${base}))`;
}

/** At most this many terms go into one MATCH (direct terms first, then related ones). */
const MAX_MATCH_TERMS = 32;
/**
 * The MATCH stops adding terms once they would cover this many tools: bm25 costs per matching
 * tool, and the most common terms (added last) carry the least weight. Every term still counts
 * in re-scoring.
 */
const MATCH_DOC_BUDGET = 300;
/**
 * A concept of the request that the budget left out still counts in the MATCH, by its rarest term,
 * as a boost (ftsMatchExpression): in a large catalog the words a request is about ("pod logs")
 * are common, the budget goes to rarer incidental ones, and bm25 then ranked the records that hold
 * those alone as high as the ones that also hold the request's object. A boost adds no record,
 * but FTS5 reads its whole list of records (for its IDF, and to test it), so it is taken when
 * that list is at most CONCEPT_DOCS long and all the lists read stay within CONCEPT_BUDGET. With
 * the dev catalog grown to 10,000 tools, the dev sets' R@1 rose 0.022 and 0.048 (R@5 0.030 and
 * 0.055); with the suite's catalogs together (2,065 tools), R@1 by up to 0.022 and R@5 by up to
 * 0.031; the suite's sets alone moved by a few queries either way; rows read are the same
 * (bench/RESULTS.md, larger catalogs).
 */
const CONCEPT_DOCS = 450;
const CONCEPT_BUDGET = 600;

/** What goes into a MATCH: the terms it matches and the terms that only count where those match. */
export interface MatchTerms {
  terms: string[];
  boosts: string[];
}

/**
 * Terms worth matching: present in the index, rarest first, within MATCH_DOC_BUDGET; then, as
 * boosts, the rarest term of each of `concepts` (their direct terms) that none of those hold.
 */
export function candidateTerms(
  terms: readonly string[],
  df: ReadonlyMap<string, number>,
  concepts: readonly (readonly string[])[] = [],
): MatchTerms {
  const docs = (t: string) => df.get(t) ?? 0;
  const byRarity = (list: readonly string[]) => [...list].sort((a, b) => docs(a) - docs(b));
  const present = terms.filter((t) => docs(t) > 0).slice(0, MAX_MATCH_TERMS);
  const chosen: string[] = [];
  let covered = 0;
  for (const term of byRarity(present)) {
    if (chosen.length > 0 && covered + docs(term) > MATCH_DOC_BUDGET) break;
    chosen.push(term);
    covered += docs(term);
  }
  const left = concepts.filter((c) => !c.some((t) => chosen.includes(t)));
  const rarest = left.flatMap((c) => byRarity(c.filter((t) => present.includes(t))).slice(0, 1));
  const boosts: string[] = [];
  for (const term of byRarity(rarest)) {
    if (boosts.includes(term) || docs(term) > CONCEPT_DOCS || covered + docs(term) > CONCEPT_BUDGET) continue;
    boosts.push(term);
    covered += docs(term);
  }
  return { terms: chosen, boosts };
}

/** Document frequency per term of an fts5vocab ('row') table, read in one pass. */
export function readVocabulary(
  sql: Sql,
  vocabTable: "trove_tools_vocab" | "trove_skills_vocab",
): Map<string, number> {
  const query =
    vocabTable === "trove_tools_vocab"
      ? `SELECT term, doc FROM trove_tools_vocab`
      : `SELECT term, doc FROM trove_skills_vocab`;
  return new Map(sql.all<{ term: string; doc: number }>(query).map((r) => [r.term, r.doc]));
}

/** Frequencies of `terms` in a vocabulary (0 for unknown terms). */
export function frequenciesOf(
  vocabulary: ReadonlyMap<string, number>,
  terms: readonly string[],
): Map<string, number> {
  return new Map(terms.map((t) => [t, vocabulary.get(t) ?? 0]));
}
