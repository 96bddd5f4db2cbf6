// BM25F re-scoring of FTS candidates by query concept: each concept scores its best term, and a
// related term counts less than the word itself.
import type { TermGroup } from "./text";

export interface FieldSpec {
  /** How much a match in this field counts. */
  weight: number;
  /** Length normalization, 0 (none) to 1 (full). */
  b: number;
}

/** A related term stands in for a concept at this fraction of a direct match. */
export const RELATED_WEIGHT = 0.6;
const K1 = 2.0;

export interface Corpus {
  /** Documents (records) in the whole index. */
  size: number;
  /** Documents containing each term. */
  docFrequency(term: string): number;
}

/**
 * Relevance of each candidate (higher is better), from its normalized field texts — one
 * space-separated string per field, in `fields` order.
 *
 * @example rescore([["creat issu", "github"]], [{terms:["issu"], related:[]}], fields, corpus)
 */
export function rescore(
  candidates: readonly (readonly string[])[],
  groups: readonly TermGroup[],
  fields: readonly FieldSpec[],
  corpus: Corpus,
): number[] {
  const idf = (term: string) => {
    const df = corpus.docFrequency(term);
    return df === 0 ? 0 : Math.log(1 + (corpus.size - df + 0.5) / (df + 0.5));
  };
  const weighted = groups.map((g) => ({
    terms: [
      ...g.terms.map((t) => ({ term: t, idf: idf(t), weight: 1 })),
      ...g.related.map((t) => ({ term: t, idf: idf(t), weight: RELATED_WEIGHT })),
    ].filter((t) => t.idf > 0),
  }));

  const tokenized = candidates.map((doc) => fields.map((_, i) => (doc[i] ? doc[i].split(" ") : [])));
  const avgLength = fields.map(
    (_, i) =>
      tokenized.reduce((sum, doc) => sum + (doc[i]?.length ?? 0), 0) / Math.max(1, tokenized.length) || 1,
  );

  return tokenized.map((doc) => {
    const counts = doc.map((tokens) => {
      const m = new Map<string, number>();
      for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
      return m;
    });
    let score = 0;
    weighted.forEach((group) => {
      let best = 0;
      for (const { term, idf: termIdf, weight } of group.terms) {
        let pseudoTf = 0;
        fields.forEach((spec, fi) => {
          const tf = counts[fi]?.get(term) ?? 0;
          if (tf === 0) return;
          const norm = 1 - spec.b + spec.b * ((doc[fi]?.length ?? 0) / (avgLength[fi] ?? 1));
          pseudoTf += (spec.weight * tf) / norm;
        });
        const termScore = weight * termIdf * (pseudoTf / (K1 + pseudoTf));
        if (termScore > best) best = termScore;
      }
      score += best;
    });
    return score;
  });
}
