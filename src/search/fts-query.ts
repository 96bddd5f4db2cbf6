// Builds an FTS5 MATCH expression that no user text can break: quoted terms joined by OR.
import type { Sql } from "../db/sql";

/** `"a" OR "b"` for the given normalized terms, or null when nothing is searchable. */
export function ftsMatchExpression(terms: readonly string[]): string | null {
  const quoted = [...new Set(terms)].filter((t) => t.length > 0).map((t) => `"${t.replaceAll('"', '""')}"`);
  return quoted.length > 0 ? quoted.join(" OR ") : null;
}

/** At most this many terms go into one MATCH (direct terms first, then related ones). */
const MAX_MATCH_TERMS = 32;
/**
 * The MATCH stops adding terms once they would cover this many tools: bm25 costs per matching
 * tool, and the most common terms (added last) carry the least weight. Every term still counts
 * in re-scoring.
 */
const MATCH_DOC_BUDGET = 300;

/** Terms worth matching: present in the index, rarest first, within MATCH_DOC_BUDGET. */
export function candidateTerms(terms: readonly string[], df: ReadonlyMap<string, number>): string[] {
  const present = terms.filter((t) => (df.get(t) ?? 0) > 0).slice(0, MAX_MATCH_TERMS);
  const byRarity = [...present].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0));
  const chosen: string[] = [];
  let covered = 0;
  for (const term of byRarity) {
    const docs = df.get(term) ?? 0;
    if (chosen.length > 0 && covered + docs > MATCH_DOC_BUDGET) break;
    chosen.push(term);
    covered += docs;
  }
  return chosen;
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
