// The score contract shared by tool and skill search (Penguiflow RFC v0.3 §1.5).
import type { Match } from "./rerank";

/** Regex scores by match strength. */
export const REGEX_SCORE = { full: 0.95, prefix: 0.9, substring: 0.85, text: 0.75 } as const;

/** How a pattern meets an item's name; each test runs only if the one before it passed. */
export interface NameTests<T> {
  /** Matches somewhere in the name. */
  found(item: T): boolean;
  /** Matches the whole name. */
  whole(item: T): boolean;
  /** Matches from the name's start. */
  prefix(item: T): boolean;
}

/** The regex score of an item's name (full, prefix or substring match), or null for no match. */
export function nameScore<T>(tests: NameTests<T>, item: T): number | null {
  if (!tests.found(item)) return null;
  if (tests.whole(item)) return REGEX_SCORE.full;
  return tests.prefix(item) ? REGEX_SCORE.prefix : REGEX_SCORE.substring;
}

/**
 * Bounded relevance from an FTS5 bm25 value. SQLite's bm25 is ≤ 0 and more negative is better, so
 * the RFC's `1/(1+max(raw,0))` would give every hit 1.0; we apply its intent to the magnitude:
 * `r/(1+r)` with `r = max(-raw, 0)`, in [0, 1) and increasing with relevance.
 */
export function boundedRelevance(relevance: number): number {
  const r = Math.max(relevance, 0);
  return r / (1 + r);
}

/**
 * Relevance from coverage, the share of the query's information a result matches, and the number
 * of concepts the query has: a logistic curve fitted on every set of the search suite, each set
 * weighing the same (`npm run bench:search -- --calibrate`: the dev sets, public MCP servers and
 * MetaTool, no-answer queries included), so that a value reads as the chance that the result is one
 * the query asks for, whatever the query or catalog. The same coverage is stronger evidence in a longer request, whose
 * context words dilute it (counted up to CONCEPT_CAP concepts, as rerank.ts requestConcepts counts them).
 */
export const RELEVANCE_CURVE = { coverage: 3.34, concepts: 0.31, offset: -2.69 } as const;
export const CONCEPT_CAP = 10;
/**
 * How much a concept the result leaves wholly unmatched takes off its coverage, per unit of the
 * concept's information: a result that matches most words of "cancel my netflix subscription" but
 * nothing for "netflix" is weaker evidence than its matched share alone says. Fitted once by
 * logistic regression of answerable against no-answer queries on the dev evaluation (10-fold cross
 * validated); `--calibrate` refits the curve around it.
 */
export const UNMATCHED_WEIGHT = 0.75;

/**
 * The calibrated relevance of a match (rerank.ts `matches`) for a query of `mass` (queryMass) and
 * `concepts` concepts.
 */
export function calibratedRelevance(
  match: Pick<Match, "score" | "unmatched">,
  mass: number,
  concepts: number,
): number {
  return curve(coverage(match, mass), concepts);
}

/** The evidence the curve reads: matched share, less the weighted wholly unmatched share. */
function coverage(match: Pick<Match, "score" | "unmatched">, mass: number): number {
  return mass > 0 ? (match.score - UNMATCHED_WEIGHT * match.unmatched) / mass : 0;
}

function curve(coverage: number, concepts: number): number {
  const { coverage: a, concepts: b, offset } = RELEVANCE_CURVE;
  return round(1 / (1 + Math.exp(-(a * coverage + b * Math.min(concepts, CONCEPT_CAP) + offset))));
}

/** Min-max over the returned candidates, 0.5 when all are equal, clamped and rounded. */
export function minMaxNormalize(values: readonly number[]): number[] {
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (!(max > min)) return values.map(() => 0.5);
  return values.map((v) => round(Math.min(1, Math.max(0, (v - min) / (max - min)))));
}

export function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}

export interface Rankable {
  name: string;
  namespace: string;
  /** Absent for records without side effects (skills): ranks after every class. */
  side_effects?: string;
  score: number;
}

/** Side-effect classes, safest first: the order ties are broken in. */
export const SIDE_EFFECTS = ["pure", "read", "write", "external", "stateful"] as const;

const SIDE_EFFECT_RANK = new Map<string, number>(SIDE_EFFECTS.map((s, i) => [s, i]));

const sideEffectRank = (r: Rankable) => SIDE_EFFECT_RANK.get(r.side_effects ?? "") ?? SIDE_EFFECTS.length;

/**
 * The deterministic order: score desc, preferred namespace, side effects (pure first), shorter
 * name, then name.
 */
export function rankComparator(preferredNamespaces: readonly string[]): (a: Rankable, b: Rankable) => number {
  const nsRank = (ns: string) => {
    const i = preferredNamespaces.indexOf(ns);
    return i === -1 ? preferredNamespaces.length : i;
  };
  return (a, b) =>
    b.score - a.score ||
    nsRank(a.namespace) - nsRank(b.namespace) ||
    sideEffectRank(a) - sideEffectRank(b) ||
    a.name.length - b.name.length ||
    (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}
