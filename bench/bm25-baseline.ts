// The baseline every public tool-retrieval benchmark reports (issue 29: "ahead of the best BM25
// variant by ≥ 3 points R@1"): BM25 over each tool's name and description, or over all of its text
// (namespace, tags, parameters' names and descriptions and the keys of what it returns too, as
// ToolLens's corpus holds them), in the
// three variants of Python's rank_bm25 (Okapi, L, Plus, with its defaults), on plain or
// Porter2-stemmed words, with or without the `stopword` package's English list. The best variant's Recall@1 on a set is the
// figure Trove must beat there.
//
// Written out rather than taken from a package: a baseline must be exactly the textbook formulas
// the papers ran (rank_bm25's, IDF floor included); the JavaScript packages each bring their own
// tokenizer and IDF, which would move the bar.
import { stem } from "porter2";
import { eng } from "stopword";

export interface BaselineQuery {
  query: string;
  expected: readonly string[];
}

export interface BaselineTool {
  name: string;
  description: string;
  namespace?: string;
  tags?: readonly string[];
  input_schema?: { properties?: Record<string, { description?: string }> };
  output_schema?: Record<string, unknown>;
}

/** Property names and descriptions of a JSON Schema, nested ones included. */
function schemaWords(schema: unknown): string[] {
  if (!schema || typeof schema !== "object") return [];
  const node = schema as { properties?: Record<string, { description?: string }>; items?: unknown };
  return [
    ...Object.entries(node.properties ?? {}).flatMap(([name, p]) => [
      name,
      p.description ?? "",
      ...schemaWords(p),
    ]),
    ...schemaWords(node.items),
  ];
}

/** What a tool's document holds in each variant. */
const DOCUMENTS = {
  "name and description": (t: BaselineTool) => `${t.name} ${t.description}`,
  "all text": (t: BaselineTool) =>
    [
      t.name,
      t.namespace ?? "",
      t.description,
      ...(t.tags ?? []),
      ...Object.entries(t.input_schema?.properties ?? {}).flatMap(([name, p]) => [name, p.description ?? ""]),
      ...schemaWords(t.output_schema),
    ].join(" "),
};

export interface Baseline {
  variant: string;
  r1: number;
}

const K1 = 1.5;
const B = 0.75;
/** rank_bm25's floor for a negative Okapi IDF: this share of the mean IDF. */
const EPSILON = 0.25;

/**
 * Scripts written without spaces (Chinese, Japanese, Thai…): a run of them is split into words by
 * ICU's dictionary segmenter, as a search engine's ICU tokenizer splits it (Lucene, Elasticsearch);
 * whole runs as tokens would make BM25 a straw man on the suite's catalog in those languages.
 */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const segmenter = new Intl.Segmenter("und", { granularity: "word" });

const plain = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .filter(Boolean)
    .flatMap((token) =>
      UNSPACED.test(token)
        ? [...segmenter.segment(token)].filter((s) => s.isWordLike).map((s) => s.segment)
        : [token],
    );
const STOPWORDS = new Set(eng);
const TOKENIZERS = {
  plain,
  stemmed: (text: string) => plain(text).map((w) => stem(w)),
  "plain, no stopwords": (text: string) => plain(text).filter((w) => !STOPWORDS.has(w)),
  "stemmed, no stopwords": (text: string) =>
    plain(text)
      .filter((w) => !STOPWORDS.has(w))
      .map((w) => stem(w)),
};

type Variant = "okapi" | "l" | "plus";

class Bm25 {
  readonly #docs: Map<string, number>[];
  readonly #lengths: number[];
  readonly #avg: number;
  readonly #idf = new Map<string, number>();

  constructor(
    docs: readonly string[][],
    private readonly variant: Variant,
  ) {
    this.#docs = docs.map((tokens) => {
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      return tf;
    });
    this.#lengths = docs.map((d) => d.length);
    this.#avg = this.#lengths.reduce((a, b) => a + b, 0) / Math.max(1, docs.length);
    const df = new Map<string, number>();
    for (const tf of this.#docs) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    const n = docs.length;
    for (const [t, f] of df) {
      const idf =
        variant === "okapi"
          ? Math.log((n - f + 0.5) / (f + 0.5))
          : variant === "l"
            ? Math.log((n + 1) / (f + 0.5))
            : Math.log((n + 1) / f);
      this.#idf.set(t, idf);
    }
    if (variant === "okapi") {
      const mean = [...this.#idf.values()].reduce((a, b) => a + b, 0) / Math.max(1, this.#idf.size);
      for (const [t, idf] of this.#idf) if (idf < 0) this.#idf.set(t, EPSILON * mean);
    }
  }

  scores(query: readonly string[]): number[] {
    return this.#docs.map((tf, i) => {
      const norm = 1 - B + (B * (this.#lengths[i] ?? 0)) / this.#avg;
      let score = 0;
      for (const t of query) {
        const idf = this.#idf.get(t) ?? 0;
        const f = tf.get(t) ?? 0;
        if (this.variant === "okapi") score += (idf * (f * (K1 + 1))) / (f + K1 * norm);
        else if (this.variant === "l") {
          const c = f / norm;
          score += (idf * (K1 + 1) * (c + 0.5)) / (K1 + c + 0.5);
        } else score += idf * (1 + (f * (K1 + 1)) / (K1 * norm + f));
      }
      return score;
    });
  }
}

/** Recall@1 of every variant on a set's answerable queries, best first. */
export function bm25Baselines(tools: readonly BaselineTool[], queries: readonly BaselineQuery[]): Baseline[] {
  const answerable = queries.filter((q) => q.expected.length > 0);
  const out: Baseline[] = [];
  for (const [words, tokenize] of Object.entries(TOKENIZERS))
    for (const [fields, document] of Object.entries(DOCUMENTS)) {
      const docs = tools.map((t) => tokenize(document(t)));
      for (const variant of ["okapi", "l", "plus"] as const) {
        const index = new Bm25(docs, variant);
        let hits = 0;
        for (const q of answerable) {
          const scores = index.scores(tokenize(q.query));
          // Ties go to the earlier tool, as a stable sort of the catalog would.
          let best = 0;
          for (let i = 1; i < scores.length; i++) if ((scores[i] ?? 0) > (scores[best] ?? 0)) best = i;
          if ((scores[best] ?? 0) > 0 && q.expected.includes(tools[best]?.name ?? "")) hits++;
        }
        out.push({
          variant: `BM25${variant === "okapi" ? "Okapi" : variant === "l" ? "L" : "Plus"}, ${words}, ${fields}`,
          r1: hits / Math.max(1, answerable.length),
        });
      }
    }
  return out.sort((a, b) => b.r1 - a.r1);
}
