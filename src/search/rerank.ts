// BM25F re-scoring of FTS candidates by query concept: each concept scores its best term, and a
// related term counts less than the word itself.
import { conceptCount, type TermGroup } from "./text";

export interface FieldSpec {
  /** How much a match in this field counts. */
  weight: number;
  /** Length normalization, 0 (none) to 1 (full). */
  b: number;
  /**
   * Counts a term only when the fields before it lack it: learned text fills a tool's vocabulary
   * gaps ("stop charging" for cancel_subscription) but never repeats a word the tool already says,
   * which would lift it over a sibling that says the same ("channel" in create and list).
   */
  gapsOnly?: boolean;
  /**
   * The field names the system a record belongs to (a tool's namespace): a product the context
   * mentions ("I have the outlook message id — reply …") says where the request goes, and counts as
   * fully as in the request itself.
   */
  names?: boolean;
  /**
   * The field orders candidates but is no evidence that any fits: a tool's parameter text says
   * what it takes, so a word of the request found only there ("coordinates") ranks the tool above
   * its siblings without making a request the catalog cannot serve look served.
   */
  rankOnly?: boolean;
  /**
   * The field counts up to twice as much in a record whose field `shortOf` (an index into the
   * fields) is shorter than the mean it is measured against (Corpus.meanLengths), in proportion to
   * what it lacks: an endpoint described as "Get Suggestions" says what it does through its
   * parameters.
   */
  shortOf?: number;
  /**
   * The field's weight in a long request: it rises linearly from `weight` at `from` concepts to
   * this `weight` at `to` concepts and more. A request that long spells out its arguments ("from
   * USD to EUR, with USD as the base currency, results in English"), and what a tool takes is
   * what its parameter text names.
   */
  longRequest?: { weight: number; from: number; to: number };
  /**
   * The field counts only for a contender: what it adds goes into `Match.near`, never into
   * `score`, and the caller decides which records may use it (fts-pipeline's contenders).
   */
  contender?: boolean;
  /**
   * The field is kept beside the full-text index, not in it: a term only it holds has no document
   * frequency, and weighs there as a term one record holds (what a tool returns: "calories").
   */
  unindexed?: boolean;
}

/** A related term stands in for a concept at this fraction of a direct match. */
export const RELATED_WEIGHT = 0.6;
const K1 = 2.0;

export interface Corpus {
  /** Documents (records) in the whole index. */
  size: number;
  /** Documents containing each term. */
  docFrequency(term: string): number;
  /**
   * Per field (in FieldSpec order), its mean length in terms over the whole index, where the index
   * knows it; a field without one (or 0) is measured against the candidates' mean instead.
   */
  meanLengths?: readonly (number | undefined)[];
}

/**
 * What a query could score at most: per concept, the idf of its rarest direct term, counting words
 * the index has never seen at the idf of an unseen term. A candidate's score over this mass is the
 * share of the query's information it matches, which reads the same across queries and catalogs:
 * "book a flight to Lisbon" against a catalog without flights or Lisbon leaves most of its mass
 * unmatched, however well "book" matches a calendar tool. Concepts made only of related terms
 * (shape hints) are optional and add nothing.
 */
export function queryMass(groups: readonly TermGroup[], corpus: Corpus): number {
  return groups.reduce((sum, g) => sum + groupMass(g, corpus), 0);
}

/**
 * The concepts relevance counts (RELEVANCE_CURVE): those with terms of their own, less the
 * arguments the index has never seen. Such an argument adds no mass (queryMass), so it dilutes no
 * coverage either; counted, it made a request longer by every piece of an id ("ch_3Nx8Lq2e" is four
 * argument words) and its best match more relevant the more pieces the id had.
 */
export function requestConcepts(groups: readonly TermGroup[], corpus: Corpus): number {
  return conceptCount(groups.filter((g) => !unseenArgument(g, corpus)));
}

/** An argument the index has never seen (a name, an id, a time): what the request acts on, not what it asks for. */
function unseenArgument(g: TermGroup, corpus: Corpus): boolean {
  return g.argument === true && g.terms.every((t) => corpus.docFrequency(t) === 0);
}

/** One concept's share of queryMass. */
function groupMass(g: TermGroup, corpus: Corpus): number {
  const idf = (term: string) => {
    const df = corpus.docFrequency(term);
    return Math.log(1 + (corpus.size - df + 0.5) / (df + 0.5));
  };
  // An argument the index has never seen adds nothing.
  if (unseenArgument(g, corpus)) return 0;
  // A misspelled word weighs what the word it stands for does ("calender" as "calendar").
  return Math.max(0, ...(g.corrected ? g.related : g.terms).map(idf));
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
  return matches(candidates, groups, fields, corpus).map((m) => m.score);
}

/** A candidate's re-scored match, and the part of the query's mass it leaves wholly unmatched. */
export interface Match {
  score: number;
  /** The score from the record's own fields alone, without the gap-filling (learned) ones. */
  direct: number;
  /**
   * The mass (queryMass) of the concepts none of whose terms, direct or related, the candidate
   * holds outside rank-only fields: "cancel my netflix subscription" leaves netflix unmatched in
   * cancel_subscription.
   */
  unmatched: number;
  /** The score without rank-only fields: what relevance reads. */
  evidence: number;
  /** The score with the contender fields too (equal to `score` when they add nothing). */
  near: number;
}

/** `rescore`, with what each candidate leaves unmatched. */
/**
 * A field's length in tokens and how often each of `wanted` occurs in it as a whole token. Fields
 * are normalized text, tokens joined by single spaces; searching for the few wanted terms is much
 * cheaper than splitting a long field (a skill's body) into all of its tokens.
 */
export function fieldStats(
  text: string,
  wanted: readonly string[],
): { length: number; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  if (text === "") return { length: 0, counts };
  let length = 1;
  for (let at = text.indexOf(" "); at >= 0; at = text.indexOf(" ", at + 1)) length++;
  for (const term of wanted) {
    if (term === "") continue;
    let n = 0;
    for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) {
      const end = at + term.length;
      if (
        (at === 0 || text.charCodeAt(at - 1) === 32) &&
        (end === text.length || text.charCodeAt(end) === 32)
      )
        n++;
    }
    if (n > 0) counts.set(term, n);
  }
  return { length, counts };
}

/** A field's weight for a request of `concepts` concepts (FieldSpec.longRequest). */
export function fieldWeight(spec: FieldSpec, concepts: number): number {
  const long = spec.longRequest;
  if (!long || concepts <= long.from) return spec.weight;
  const reach = Math.min(1, (concepts - long.from) / (long.to - long.from));
  return spec.weight + (long.weight - spec.weight) * reach;
}

/** How much more a field counts for a record whose `shortOf` field says less than its peers' (1 to 2). */
function leaning(doc: readonly { length: number }[], spec: FieldSpec, avgLength: readonly number[]): number {
  if (spec.shortOf === undefined) return 1;
  const length = doc[spec.shortOf]?.length ?? 0;
  return 1 + Math.max(0, 1 - length / (avgLength[spec.shortOf] ?? 1));
}

export function matches(
  candidates: readonly (readonly string[])[],
  groups: readonly TermGroup[],
  fields: readonly FieldSpec[],
  corpus: Corpus,
): Match[] {
  const idfOf = (df: number) => Math.log(1 + (corpus.size - df + 0.5) / (df + 0.5));
  // A term no indexed field holds scores only in a field kept beside the index (a contender or an
  // unindexed field), and there weighs as a term one record holds (a learned word no tool's own
  // text says, a word only a tool's output names).
  const term = (t: string, weight: number) => {
    const df = corpus.docFrequency(t);
    return { term: t, indexed: df > 0, idf: idfOf(Math.max(1, df)), weight };
  };
  const weighted = groups.map((g) => ({
    mass: groupMass(g, corpus),
    // A phrase's words match together: each direct term counts for its share of the concept.
    share: g.phrase ? 1 / g.terms.length : 0,
    direct: new Set(g.phrase ? g.terms : []),
    terms: [
      ...g.terms.map((t) => term(t, g.weak ? RELATED_WEIGHT : 1)),
      ...g.related.map((t) => term(t, RELATED_WEIGHT)),
    ],
    context: g.context === true,
  }));

  // Per field: its length in tokens and how often each query term occurs (other tokens are only
  // counted, never stored).
  const wanted = [...new Set(weighted.flatMap((g) => g.terms.map((t) => t.term)))];
  const stats = candidates.map((doc) => fields.map((_, i) => fieldStats(doc[i] ?? "", wanted)));
  const avgLength = fields.map(
    (_, i) =>
      corpus.meanLengths?.[i] ||
      stats.reduce((sum, doc) => sum + (doc[i]?.length ?? 0), 0) / Math.max(1, stats.length) ||
      1,
  );

  const concepts = conceptCount(groups);
  const base = fields.map((spec) => fieldWeight(spec, concepts));
  return stats.map((doc) => {
    // Each field's weight for this record: the same for every term.
    const weights = fields.map((spec, i) => (base[i] ?? 0) * leaning(doc, spec, avgLength));
    let score = 0;
    let direct = 0;
    let unmatched = 0;
    let evidence = 0;
    let near = 0;
    for (const group of weighted) {
      let best = 0;
      let phrase = 0;
      let bestOwn = 0;
      let phraseOwn = 0;
      let bestShown = 0;
      let phraseShown = 0;
      let bestNear = 0;
      let phraseNear = 0;
      for (const { term, indexed, idf, weight } of group.terms) {
        let pseudoTf = 0;
        let own = 0;
        let shown = 0;
        let gap = 0;
        for (let fi = 0; fi < fields.length; fi++) {
          const field = doc[fi];
          const tf = field?.counts.get(term) ?? 0;
          if (tf === 0 || !field) continue;
          const spec = fields[fi] as FieldSpec;
          if (!indexed && !spec.unindexed && !spec.contender) continue;
          if (spec.gapsOnly && pseudoTf > 0) continue;
          const norm = 1 - spec.b + spec.b * (field.length / (avgLength[fi] ?? 1));
          const add = ((weights[fi] ?? 0) * tf) / norm;
          if (spec.contender) {
            gap += add;
            continue;
          }
          pseudoTf += add;
          if (!spec.rankOnly) shown += add;
          if (!spec.gapsOnly) own += add;
        }
        const named =
          group.context && fields.some((spec, fi) => spec.names && (doc[fi]?.counts.get(term) ?? 0) > 0);
        const factor = (named ? 1 : weight) * idf;
        const termScore = factor * (pseudoTf / (K1 + pseudoTf));
        const ownScore = factor * (own / (K1 + own));
        const shownScore = factor * (shown / (K1 + shown));
        const nearScore = gap === 0 ? termScore : factor * ((pseudoTf + gap) / (K1 + pseudoTf + gap));
        if (group.direct.has(term)) {
          phrase += group.share * termScore;
          phraseOwn += group.share * ownScore;
          phraseShown += group.share * shownScore;
          phraseNear += group.share * nearScore;
        } else {
          if (termScore > best) best = termScore;
          if (ownScore > bestOwn) bestOwn = ownScore;
          if (shownScore > bestShown) bestShown = shownScore;
          if (nearScore > bestNear) bestNear = nearScore;
        }
      }
      best = Math.max(best, phrase);
      score += best;
      near += Math.max(bestNear, phraseNear);
      direct += Math.max(bestOwn, phraseOwn);
      const shownBest = Math.max(bestShown, phraseShown);
      evidence += shownBest;
      if (shownBest === 0) unmatched += group.mass;
    }
    return { score, direct, unmatched, evidence, near };
  });
}
