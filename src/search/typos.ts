// Typo tolerance: a query word the index has never seen ("calender", "webiste", "pipline") may be
// a misspelling of one it has. Such a word stands in with its nearest indexed terms, as a related
// term (it counts less than a word the index knows, and leaves relevance to the words it knows).

/** Terms shorter than this are never corrected: short words have too many neighbours. */
const MIN_LENGTH = 5;
/** At most this many corrections per unknown term. */
const MAX_CORRECTIONS = 2;

/**
 * Whether `a` and `b` are one edit apart: one letter inserted, deleted or changed, or two adjacent
 * letters swapped (optimal string alignment distance 1).
 */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return false;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    // A change at i, or a swap of i and i + 1.
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // An insertion or a deletion at i.
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** An index's vocabulary grouped by first letter, built once per vocabulary. */
const buckets = new WeakMap<ReadonlyMap<string, number>, Map<string, string[]>>();

function bucketsOf(vocabulary: ReadonlyMap<string, number>): Map<string, string[]> {
  let byInitial = buckets.get(vocabulary);
  if (!byInitial) {
    byInitial = new Map();
    for (const term of vocabulary.keys()) {
      const list = byInitial.get(term[0] ?? "") ?? [];
      list.push(term);
      byInitial.set(term[0] ?? "", list);
    }
    buckets.set(vocabulary, byInitial);
  }
  return byInitial;
}

/**
 * The indexed terms an unknown `term` is most likely a misspelling of: same first letter (people
 * rarely mistype it), one edit apart, or the term cut short by up to two letters (a stem of a
 * misspelled word: "calend" for "calendar"); the most frequent first. None for known terms, short
 * terms, or terms with digits.
 */
export function nearTerms(vocabulary: ReadonlyMap<string, number>, term: string): string[] {
  if (term.length < MIN_LENGTH || vocabulary.has(term) || !/^\p{L}+$/u.test(term)) return [];
  const candidates = bucketsOf(vocabulary).get(term[0] ?? "") ?? [];
  return candidates
    .filter(
      (v) =>
        oneEditApart(term, v) ||
        (v.length > term.length && v.length - term.length <= 2 && v.startsWith(term)),
    )
    .sort((a, b) => (vocabulary.get(b) ?? 0) - (vocabulary.get(a) ?? 0) || (a < b ? -1 : 1))
    .slice(0, MAX_CORRECTIONS);
}
