// What a session sends its tenant's analytics object (issue 32): counts per UTC day, never a
// request's text — failing search wording is reduced to ordinary words first (learning's
// vocabulary), and no session id, user or argument is part of a batch.

/** Counters of one day, each a plain sum. */
export const DAY_COUNTERS = [
  "requests",
  "errors",
  "sessions",
  "searches",
  "no_result",
  "searches_used",
  "uses",
  "approvals_asked",
  "approvals_granted",
  "approvals_denied",
  "rows_read",
  "rows_written",
] as const;

export type DayCounter = (typeof DAY_COUNTERS)[number];

/** The first result's relevance of searches that found something, in bins of 1/RELEVANCE_BINS. */
export const RELEVANCE_BINS = 20;

/** Why a search's wording is kept: it found nothing, or nothing above the low-relevance bar. */
export type FailingKind = "no_result" | "low_relevance";

/** Below this first-result relevance a search counts as failing wording when it is recorded. */
export const WORDING_RELEVANCE = 0.5;

export interface DayBatch {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  counts: Record<DayCounter, number>;
  /** Searches by their first result's relevance bin (searches with no result are not in it). */
  relevance: number[];
  /** Per tool: [name, times found in a search's results, times used]. */
  tools: [string, number, number][];
  /** Failing wording: [ordinary words joined by a space, kind, count]. */
  wording: [string, FailingKind, number][];
  /** Names of the session's catalog, sent once a day so the tenant knows tools that are never found. */
  catalog?: string[];
}

/** The UTC day of a time in milliseconds. */
export function dayOf(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The bin of a relevance in [0, 1]. */
export function relevanceBin(relevance: number): number {
  return Math.min(RELEVANCE_BINS - 1, Math.max(0, Math.floor(relevance * RELEVANCE_BINS)));
}

export function emptyDay(day: string): DayBatch {
  return {
    day,
    counts: Object.fromEntries(DAY_COUNTERS.map((c) => [c, 0])) as Record<DayCounter, number>,
    relevance: new Array<number>(RELEVANCE_BINS).fill(0),
    tools: [],
    wording: [],
  };
}

/** Adds `from` into `into` (same day); returns `into`. */
export function mergeDay(into: DayBatch, from: DayBatch): DayBatch {
  for (const c of DAY_COUNTERS) into.counts[c] += from.counts[c] ?? 0;
  from.relevance.forEach((n, i) => {
    into.relevance[i] = (into.relevance[i] ?? 0) + n;
  });
  const tools = new Map(into.tools.map((t) => [t[0], t]));
  for (const [name, found, used] of from.tools) {
    const t = tools.get(name);
    if (t) {
      t[1] += found;
      t[2] += used;
    } else tools.set(name, [name, found, used]);
  }
  into.tools = [...tools.values()];
  const wording = new Map(into.wording.map((w) => [`${w[1]} ${w[0]}`, w]));
  for (const [words, kind, count] of from.wording) {
    const w = wording.get(`${kind} ${words}`);
    if (w) w[2] += count;
    else wording.set(`${kind} ${words}`, [words, kind, count]);
  }
  into.wording = [...wording.values()];
  if (from.catalog) into.catalog = [...new Set([...(into.catalog ?? []), ...from.catalog])];
  return into;
}

/** Batches of the same day merged into one, oldest day first. */
export function combineDays(batches: readonly DayBatch[]): DayBatch[] {
  const days = new Map<string, DayBatch>();
  for (const b of batches) {
    const into = days.get(b.day);
    if (into) mergeDay(into, b);
    else days.set(b.day, mergeDay(emptyDay(b.day), b));
  }
  return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
}
