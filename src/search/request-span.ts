// Which part of a query is the request: not the context before it ("now that the PR is merged,
// …"), not what the answer is for ("… need it for the ticket"), not the content it spells out after
// a colon ("add a note: rolled back the deploy"). The words outside it only stand in (text.ts).
import { pattern, patterns } from "./lexicon";
import { bareToken, isName, words } from "./words";

/** Where the request starts and ends in `query`: [start, end) holds the ask. */
export function requestSpan(query: string): { start: number; end: number } {
  const start = requestStart(query);
  return { start, end: requestEnd(query, start) };
}

/** What ends the context of a mid-task request: a dash or semicolon, or a clause of circumstance. */
const CONTEXT_END = patterns("context_end").map((p) => p.pattern);

/**
 * Where the request starts in a query that first gives context (0: the whole query is the
 * request): after the last context ending, if at least two words follow it.
 */
function requestStart(query: string): number {
  let cut = 0;
  for (const pattern of CONTEXT_END) {
    for (const m of query.matchAll(pattern)) {
      const end = (m.index ?? 0) + m[0].length;
      if (end > cut && words(query.slice(end)).length >= 2) cut = end;
    }
  }
  return cut;
}

/** Where a request that ends by saying what its answer is for stops: "…? need it for the new ticket". */
const PURPOSE_AFTER = pattern("purpose_after");

function requestEnd(query: string, start: number): number {
  const m = PURPOSE_AFTER.exec(query);
  const purpose = m && words(query.slice(0, m.index)).length >= 2 ? m.index + 1 : query.length;
  return Math.min(purpose, payloadStart(query, start));
}

/**
 * Where a request that spells out its content after a colon stops ("add a note: rolled back the
 * deploy"; the query's length when it does not): at the first colon after `start` (where the
 * request starts) with two words of it before, unless the word before it is a name ("Magic: The
 * Gathering"). What follows is the content, not the ask: it only stands in.
 */
function payloadStart(query: string, start: number): number {
  let said = 0;
  let previous: string | undefined;
  // One pass over the request's tokens: a query of many colons costs no more than one of words.
  for (const m of query.slice(start).matchAll(/\S+/gu)) {
    const token = m[0];
    said += words(token).length;
    const colon = start + m.index + token.length - 1;
    if (token.endsWith(":") && /\s/u.test(query[colon + 1] ?? "") && said >= 2)
      if (!isName(bareToken(token), previous)) return colon;
    previous = token;
  }
  return query.length;
}
