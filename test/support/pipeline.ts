// The full-text pipeline (src/search/fts-pipeline.ts) over documents held in memory, for property
// tests of its ranking rules: every document is a candidate, statistics come from the documents.

import type { ActionObject } from "../../src/search/action-object";
import { type FtsIndex, ftsSearch } from "../../src/search/fts-pipeline";
import { type FieldSpec, rescore } from "../../src/search/rerank";
import { indexText, queryTermGroups } from "../../src/search/text";

export interface TextDoc {
  name: string;
  text: string;
}

function docFrequency(docs: readonly TextDoc[]): (term: string) => number {
  return (term) => docs.filter((d) => indexText(d.text).split(" ").includes(term)).length;
}

/** The documents `ftsSearch` ranks for `query`, best first. */
export function pipelineSearch<D extends TextDoc>(
  index: FtsIndex<D, D>,
  docs: D[],
  query: string,
  sessionNamespaces: readonly string[] = [],
  /** What each document says it does (the session reads a tool's first sentence: purposeOf). */
  purpose?: (doc: D) => ActionObject | null,
): D[] {
  const df = docFrequency(docs);
  return ftsSearch(index, {
    query,
    limit: 50,
    exact: [],
    preferredNamespaces: [],
    sessionNamespaces: new Set(sessionNamespaces),
    stats: {
      size: () => docs.length,
      docFrequencies: (terms) => new Map(terms.map((t) => [t, df(t)])),
      nearTerms: () => [],
    },
    candidates: () => docs,
    purpose,
  }).map((s) => s.row);
}

/** Each document's re-scored match for `query` (one field: its text), by name. */
export function rawScores(docs: readonly TextDoc[], query: string, fields: FieldSpec[]): Map<string, number> {
  const scores = rescore(
    docs.map((d) => [indexText(d.text)]),
    queryTermGroups(query),
    fields,
    { size: docs.length, docFrequency: docFrequency(docs) },
  );
  return new Map(docs.map((d, i) => [d.name, scores[i] ?? 0]));
}
