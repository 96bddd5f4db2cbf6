// Retrieval quality of tool_search on the dev suite: Recall@1, Recall@5 and MRR per query kind for
// each query set — the dev catalog's two sets, the real MCP servers' catalog and the public MetaTool
// sample (bench/suites.ts) — each alone and as a macro average, with per-query rank changes against
// the previous head; how well the top result's relevance tells answerable queries from those nothing
// answers (AUROC); learning from use, and its safety (bench/learning-safety.ts).
// Usage: npm run bench:search [-- --catalog FILE --queries FILE[,FILE…] --verbose --calibrate
//   --thresholds r,w,c[,n[,o]] --history FILE --protocol direct --anonymous --repeat N --lexicon FILE --figures FILE]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { requestConcepts } from "../src/search/rerank";
import { CONCEPT_CAP, RELEVANCE_CURVE } from "../src/search/scoring";
import { queryTermGroups } from "../src/search/text";
import { toolSearchFields } from "../src/tools/tool-index";
import { normalizeTool, ToolRecord } from "../src/tools/tool-record";
import { type BaselineTool, bm25Baselines } from "./bm25-baseline";
import { startBench, table } from "./harness";
import { largerCatalogs } from "./larger-catalogs";
import { startReplay } from "./learning-replay";
import {
  attackEvaluation,
  concurrencyEvaluation,
  devaluingEvaluation,
  privacyEvaluation,
  smallCatalog,
} from "./learning-safety";
import { argsFor, type CatalogTool } from "./load-mix";
import {
  type History,
  type HistoryEntry,
  historyFiles,
  kept,
  otherSuites,
  queryKey,
  rankDiffs,
  type SetFigures,
  type SetRanks,
  suiteTable,
  writeRanks,
} from "./suites";

interface EvalQuery {
  query: string;
  expected: string[];
  kind: string;
}
interface SearchOutput {
  tools: { name: string; score: number; relevance: number }[];
}

const HISTORY = "bench/search-eval/history.json";
const DEFAULT_SETS = "bench/search-eval/queries.json,bench/search-eval/queries-everyday.json";
const { values: args } = parseArgs({
  options: {
    catalog: { type: "string", default: "bench/search-eval/catalog.json" },
    queries: { type: "string", default: DEFAULT_SETS },
    verbose: { type: "boolean", default: false },
    calibrate: { type: "boolean", default: false },
    /** Retrieval only: no learning or safety evaluation, nothing written (to try a ranking change). */
    "suite-only": { type: "boolean", default: false },
    /** Learned sessions' thresholds, `read,write,contested[,near[,own]]` (SessionConfig.learning), to explore them. */
    thresholds: { type: "string" },
    /** Another history to replay (entries without a `user` go round-robin to four sessions). */
    history: { type: "string", default: HISTORY },
    /** Each history user stands for this many users who word things alike (an optimistic tenant). */
    repeat: { type: "string", default: "1" },
    /** Another lexicon.json to run the worker with (bench/lexicon-ablation.ts); nothing is written. */
    lexicon: { type: "string" },
    /** Replays the history in sessions that name no end user (each session is a source of its own). */
    anonymous: { type: "boolean", default: false },
    /** `direct`: replay each history request as a search of the user's own words, even where it has the model's `search`. */
    protocol: { type: "string", default: "agent" },
    /** Writes the suite's figures (SetFigures[]) as JSON to this file. */
    figures: { type: "string" },
  },
});

const catalog = JSON.parse(readFileSync(args.catalog, "utf8")) as unknown[];
const sets = args.queries
  .split(",")
  .filter((file) => existsSync(file))
  .map((file) => ({ file, queries: JSON.parse(readFileSync(file, "utf8")) as EvalQuery[] }));

/** A dev set's name in the suite: `dev:queries`, `dev:everyday`. */
function devSetName(file: string): string {
  return `dev:${file.replace(/^.*\/(queries-)?|\.json$/g, "") || "queries"}`;
}

interface Outcome {
  query: string;
  kind: string;
  /** Rank of the first expected tool (Infinity: not in the top 10); null for no-answer queries. */
  rank: number | null;
  returned: number;
  /** The first result's relevance (0 when nothing came back). */
  top: number;
  /** The first result's name ("" when nothing came back). */
  first: string;
  /** The query's concepts (terms of its own, as relevance counts them, up to CONCEPT_CAP). */
  concepts: number;
  /** The top 5 results: relevance, and whether the query asked for that tool. */
  results: { relevance: number; wanted: boolean }[];
}

type Search = (query: string) => Promise<SearchOutput>;

/** A catalog's indexed terms (its tools' search fields), to count a query's concepts as search does. */
const indexedTerms = new WeakMap<readonly unknown[], Set<string>>();

function termsOf(tools: readonly unknown[]): Set<string> {
  const cached = indexedTerms.get(tools);
  if (cached) return cached;
  const terms = new Set<string>();
  for (const tool of tools) {
    const { f_offers: _, ...fields } = toolSearchFields(normalizeTool(ToolRecord.parse(tool)));
    for (const text of Object.values(fields)) for (const t of text.split(" ")) if (t) terms.add(t);
  }
  indexedTerms.set(tools, terms);
  return terms;
}

/** The query's concepts as relevance counts them against `tools` (requestConcepts), up to CONCEPT_CAP. */
function conceptsIn(tools: readonly unknown[], query: string): number {
  const terms = termsOf(tools);
  const corpus = { size: tools.length, docFrequency: (t: string) => (terms.has(t) ? 1 : 0) };
  return Math.min(CONCEPT_CAP, requestConcepts(queryTermGroups(query), corpus));
}

async function run(
  search: Search,
  queries: readonly EvalQuery[],
  tools: readonly unknown[],
): Promise<{ outcomes: Outcome[]; misses: string[] }> {
  const outcomes: Outcome[] = [];
  const misses: string[] = [];
  for (const q of queries) {
    const out = await search(q.query);
    const names = out.tools.map((t) => t.name);
    const index = names.findIndex((n) => q.expected.includes(n));
    const rank = q.expected.length === 0 ? null : index === -1 ? Infinity : index + 1;
    outcomes.push({
      query: q.query,
      kind: q.kind,
      rank,
      returned: names.length,
      top: out.tools[0]?.relevance ?? 0,
      first: out.tools[0]?.name ?? "",
      concepts: conceptsIn(tools, q.query),
      results: out.tools
        .slice(0, 5)
        .map((t) => ({ relevance: t.relevance, wanted: q.expected.includes(t.name) })),
    });
    if (rank !== 1) {
      const where = rank === null ? "none" : rank === Infinity ? "miss" : `@${rank}`;
      misses.push(
        `${where}  ${q.query}  → want ${q.expected.join("|") || "nothing"}, got ${out.tools
          .slice(0, 3)
          .map((t) => `${t.name} (${t.relevance.toFixed(2)})`)
          .join(", ")}`,
      );
    }
  }
  return { outcomes, misses };
}

function summarize(rows: readonly Outcome[]) {
  const answerable = rows.filter((r) => r.rank !== null);
  const n = answerable.length;
  const at = (k: number) => answerable.filter((r) => (r.rank ?? Infinity) <= k).length / (n || 1);
  const mrr =
    answerable.reduce((sum, r) => sum + (r.rank && r.rank !== Infinity ? 1 / r.rank : 0), 0) / (n || 1);
  return { n, r1: at(1), r5: at(5), mrr };
}

/** The chance that an answerable query's top relevance is above a no-answer query's (ties count half). */
function auroc(outcomes: readonly Outcome[]): number | null {
  const pos = outcomes.filter((o) => o.rank !== null).map((o) => o.top);
  const neg = outcomes.filter((o) => o.rank === null).map((o) => o.top);
  if (pos.length === 0 || neg.length === 0) return null;
  let wins = 0;
  for (const p of pos) for (const q of neg) wins += p > q ? 1 : p === q ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

function figuresOf(
  set: string,
  tools: readonly unknown[],
  queries: readonly EvalQuery[],
  outcomes: readonly Outcome[],
): SetFigures {
  const { n, r1, r5, mrr } = summarize(outcomes);
  const bm25 = bm25Baselines(tools as BaselineTool[], queries)[0] ?? null;
  return {
    set,
    tools: tools.length,
    answerable: n,
    none: outcomes.length - n,
    r1,
    r5,
    mrr,
    auroc: auroc(outcomes),
    bm25,
  };
}

function kindTable(outcomes: readonly Outcome[]): string {
  const kinds = [...new Set(outcomes.map((o) => o.kind))].sort();
  const rows = kinds
    .map((kind) => ({ kind, ...summarize(outcomes.filter((o) => o.kind === kind)) }))
    .filter((r) => r.n > 0)
    .map((r) => [r.kind, r.n, r.r1.toFixed(3), r.r5.toFixed(3), r.mrr.toFixed(3)]);
  const all = summarize(outcomes);
  rows.push(["all", all.n, all.r1.toFixed(3), all.r5.toFixed(3), all.mrr.toFixed(3)]);
  return table(["kind", "queries", "Recall@1", "Recall@5", "MRR"], rows);
}

function noAnswerLine(outcomes: readonly Outcome[]): string {
  const none = outcomes.filter((o) => o.rank === null);
  const area = auroc(outcomes);
  return (
    `no-answer queries: ${none.length}, returned nothing: ${none.filter((o) => o.returned === 0).length}; ` +
    `top relevance separates them from answerable ones with AUROC ${area === null ? "n/a" : area.toFixed(3)}`
  );
}

/**
 * The relevance curve's constants, fitted by logistic regression (Newton's method) of "the query
 * asked for this result" on coverage and the query's concepts, over the top 5 results of every
 * query. Coverage is read back from each relevance through the curve in use.
 */
function fitCurve(sets: readonly (readonly Outcome[])[]): {
  coverage: number;
  concepts: number;
  offset: number;
  n: number;
} {
  const { coverage: a0, concepts: b0, offset: c0 } = RELEVANCE_CURVE;
  // Each set weighs the same, however many results it has: the curve must read alike on every catalog.
  const points = sets.flatMap((outcomes) => {
    const mine = outcomes.flatMap((o) =>
      o.results
        .filter((r) => r.relevance > 0 && r.relevance < 1)
        .map((r) => {
          const logit = Math.log(r.relevance / (1 - r.relevance));
          return { x: [(logit - b0 * o.concepts - c0) / a0, o.concepts, 1], y: r.wanted ? 1 : 0 };
        }),
    );
    return mine.map((p) => ({ ...p, weight: 1000 / mine.length }));
  });
  let w = [1, 0, 0];
  for (let i = 0; i < 50; i++) {
    const g = [0, 0, 0];
    const h = [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ];
    for (const { x, y, weight } of points) {
      const p = 1 / (1 + Math.exp(-x.reduce((sum, v, j) => sum + v * (w[j] ?? 0), 0)));
      for (let j = 0; j < 3; j++) {
        g[j] = (g[j] ?? 0) + weight * (y - p) * (x[j] ?? 0);
        for (let k = 0; k < 3; k++)
          (h[j] as number[])[k] = (h[j]?.[k] ?? 0) + weight * p * (1 - p) * (x[j] ?? 0) * (x[k] ?? 0);
      }
    }
    const step = solve3(h, g);
    if (!step) break;
    w = w.map((v, j) => v + (step[j] ?? 0));
  }
  return { coverage: w[0] ?? 0, concepts: w[1] ?? 0, offset: w[2] ?? 0, n: points.length };
}

/** x with m·x = v for a 3×3 m (Cramer's rule), or null when m is singular. */
function solve3(m: number[][], v: number[]): number[] | null {
  const det = (a: number[][]) =>
    (a[0]?.[0] ?? 0) * ((a[1]?.[1] ?? 0) * (a[2]?.[2] ?? 0) - (a[1]?.[2] ?? 0) * (a[2]?.[1] ?? 0)) -
    (a[0]?.[1] ?? 0) * ((a[1]?.[0] ?? 0) * (a[2]?.[2] ?? 0) - (a[1]?.[2] ?? 0) * (a[2]?.[0] ?? 0)) +
    (a[0]?.[2] ?? 0) * ((a[1]?.[0] ?? 0) * (a[2]?.[1] ?? 0) - (a[1]?.[1] ?? 0) * (a[2]?.[0] ?? 0));
  const d = det(m);
  if (!(Math.abs(d) > 1e-12)) return null;
  return [0, 1, 2].map((col) => det(m.map((row, r) => row.map((x, c) => (c === col ? (v[r] ?? 0) : x)))) / d);
}

/** A request of a tenant's past, with the end user who asked it. */
type HistoryQuery = HistoryEntry & { user: string };

/** A tenant's past: each end user's requests, in sessions of this many (a working session's worth). */
const REQUESTS_PER_SESSION = 8;

/** A test set of the learning evaluation, with its cold outcomes (which the control must equal). */
interface LearningTest {
  file: string;
  queries: readonly EvalQuery[];
  cold: readonly Outcome[];
  /** The queries worded as people word them, whose lift the target is about. */
  everyday: (q: EvalQuery) => boolean;
}

/**
 * History: requests by end users worded independently of the test sets, replayed through the
 * public API in sessions of one tenant that name their end user (search, then resolve the expected
 * tool when the search returned it, as an agent whose model picked it would). Test: each test set
 * searched in a new session of that tenant (learned) and of another tenant (control, which must
 * equal cold). Each catalog gets a worker of its own: tools of two catalogs may share a name.
 */
async function learningEvaluation(
  tools: readonly unknown[],
  history: readonly HistoryQuery[],
  tests: readonly LearningTest[],
  source: string,
) {
  const replay = await startReplay();
  try {
    const byName = new Map((tools as CatalogTool[]).map((t) => [t.name, t]));
    const writers = [...new Set(history.map((h) => h.user))].sort();
    const copies = Math.max(1, Number(args.repeat));
    const users = writers.flatMap((u) =>
      Array.from({ length: copies }, (_, i) => (i === 0 ? u : `${u}.${i}`)),
    );
    let taught = 0;
    let sessions = 0;
    for (const user of users) {
      const writer = user.split(".")[0];
      const mine = history.filter((h) => h.user === writer && h.expected.length > 0);
      for (let start = 0; start < mine.length; start += REQUESTS_PER_SESSION) {
        const sid = `history-${user}-${start}`;
        sessions++;
        if (!args.anonymous)
          await replay.op("learned", sid, "session_configure", { user: `hash-of-${user}` });
        await replay.op("learned", sid, "catalog_sync", { tools });
        const found = async (query: string, expected: readonly string[]) => {
          const out = await replay.op<SearchOutput>("learned", sid, "tool_search", { query, limit: 10 });
          return out.tools.find((t) => expected.includes(t.name))?.name;
        };
        for (const { search: model, ...q } of mine.slice(start, start + REQUESTS_PER_SESSION)) {
          const search = args.protocol === "direct" ? undefined : model;
          if (search !== undefined) await replay.op("learned", sid, "context", { query: q.query });
          const used =
            (search !== undefined && (await found(search, q.expected))) || (await found(q.query, q.expected));
          if (!used) continue;
          const tool = byName.get(used);
          await replay.op("learned", sid, "tool_resolve", { name: used, args: tool ? argsFor(tool) : {} });
          taught++;
        }
      }
    }
    // Sessions send what they learned after their responses: wait until the tenant has merged it.
    let merged = -1;
    for (let tries = 0; tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const state = await replay.get<{ merged: number }>("learned", "/v1/learning");
      if (state.merged === merged && merged > 0) break;
      merged = state.merged;
    }
    const sections: { file: string; table: string; targets: string }[] = [];
    for (const [n, set] of tests.entries()) {
      const figures = async (tenant: "learned" | "control") => {
        const sid = `test-${n}`;
        if (args.thresholds) {
          const [min_support, min_support_write, min_support_contested, min_support_near, min_support_own] =
            args.thresholds.split(",").map(Number);
          await replay.op(tenant, sid, "session_configure", {
            learning: {
              enabled: true,
              min_support,
              min_support_write,
              min_support_contested,
              ...(min_support_near === undefined ? {} : { min_support_near }),
              ...(min_support_own === undefined ? {} : { min_support_own }),
            },
          });
        }
        await replay.op(tenant, sid, "catalog_sync", { tools });
        const search = (query: string) =>
          replay.op<SearchOutput>(tenant, sid, "tool_search", { query, limit: 10 });
        return (await run(search, set.queries, tools)).outcomes;
      };
      const learned = await figures("learned");
      const control = await figures("control");
      if (args.verbose) {
        const rank = (o: Outcome | undefined) => (o?.rank === Infinity ? "miss" : String(o?.rank));
        for (const [i, q] of set.queries.entries()) {
          if (learned[i]?.rank !== control[i]?.rank) {
            const first = `first ${learned[i]?.first} (control ${control[i]?.first})`;
            console.log(`learned ${rank(learned[i])} (control ${rank(control[i])})  ${q.query}  → ${first}`);
          }
        }
      }
      const kinds = [...new Set(learned.filter((o) => o.rank !== null).map((o) => o.kind))].sort();
      const rows = [...kinds, "all"].map((kind) => {
        const pick = (o: Outcome[]) => summarize(kind === "all" ? o : o.filter((x) => x.kind === kind));
        const [l, c] = [pick(learned), pick(control)];
        return [
          kind,
          l.n,
          c.r1.toFixed(3),
          l.r1.toFixed(3),
          c.r5.toFixed(3),
          l.r5.toFixed(3),
          c.mrr.toFixed(3),
          l.mrr.toFixed(3),
        ];
      });
      const [c, cold] = [summarize(control), summarize(set.cold)];
      const same = c.r1 === cold.r1 && c.r5 === cold.r5 && c.mrr === cold.mrr;
      const everyday = (o: readonly Outcome[]) =>
        o.filter((_, i) => set.everyday(set.queries[i] as EvalQuery));
      const [l, base] = [summarize(everyday(learned)), summarize(everyday(set.cold))];
      const lift = l.r1 - base.r1;
      const which = l.n === summarize(learned).n ? "" : ` (its ${l.n} everyday queries)`;
      sections.push({
        file: set.file,
        table: table(
          [
            "kind",
            "queries",
            "R@1 control",
            "R@1 learned",
            "R@5 control",
            "R@5 learned",
            "MRR control",
            "MRR learned",
          ],
          rows,
        ),
        targets:
          l.n === 0
            ? `targets (learning, ${set.file}): learned Recall@1 ${summarize(learned).r1.toFixed(4)} vs cold ${cold.r1.toFixed(4)}; control equal to cold (${same ? "equal" : "differs"}) -> ${same ? "met" : "NOT met"}`
            : `targets (learning, ${set.file}${which}): learned Recall@1 at least 0.12 above cold (${l.r1.toFixed(4)} - ${base.r1.toFixed(4)} = ${lift.toFixed(4)}); ` +
              `control equal to cold (${same ? "equal" : "differs"}) -> ${lift >= 0.12 && same ? "met" : "NOT met"}`,
      });
    }
    return {
      heading: `Learning: ${history.length} history requests by ${users.length} end users (${source}) replayed in ${sessions} sessions of one tenant (${taught} uses, ${merged} merged); each test set searched in a new session of that tenant (learned) and of another tenant (control)`,
      sections,
    };
  } finally {
    await replay.dispose();
  }
}

/** Poisoning, devaluing, personal data and concurrent merges (bench/learning-safety.ts), with their targets. */
async function safetyEvaluation(): Promise<string> {
  const replay = await startReplay();
  try {
    const attack = await attackEvaluation(replay, catalog);
    const small = await attackEvaluation(replay, smallCatalog(catalog), 4);
    const devalued = await devaluingEvaluation(replay, smallCatalog(catalog));
    const privacy = await privacyEvaluation(replay, catalog);
    const concurrent = await concurrencyEvaluation(replay, catalog);
    const fewest = Math.min(
      ...[...attack.outcomes, ...small.outcomes].map((o) => o.top3 ?? Number.POSITIVE_INFINITY),
    );
    const attackMet = fewest >= 50;
    const fewestDevaluing = Math.min(...devalued.outcomes.map((o) => o.taken ?? Number.POSITIVE_INFINITY));
    const devaluingMet = fewestDevaluing >= 50;
    return [
      "### Learning safety (bench/learning-safety.ts)",
      "",
      "Poisoning: colluding sessions of one tenant, each with three search → use pairs whose searches hold the request and the target's own words, a reformulation and a user message (all that an end user steering an agent can cause); the target's rank for each request in a new session after 1, 2, 3 … 64 of them (top 20 read; a rank counts as moved when it first improves).",
      "",
      `The dev catalog (${catalog.length} tools):`,
      "",
      attack.table,
      "",
      `A small agent's catalog (${smallCatalog(catalog).length} tools of the dev catalog: payments, code hosting, web search, weather, chat, a cluster), where every tool is a search candidate. Before issue 27 (87734c2, whole queries stored, no consensus), this same script put every target at rank 1 for the refund request after 5 sessions and in the top 3 after 2–3:`,
      "",
      small.table,
      "",
      `targets (poisoning): no attack with fewer than 50 colluding sessions puts the target in the top 3 (fewest: ${Number.isFinite(fewest) ? fewest : "> 64"}) -> ${attackMet ? "met" : "NOT met"}`,
      "",
      "Devaluing, in the small agent's catalog: colluding sessions teach each request's words to every tool that serves neither request (a search of the request and the tool's own words, then a use of the tool, for each such tool and request), so that the words the right tools share with a request would count for less; the sessions after which a tool that does not serve the request first ranks first. Learned words count among the tools a request already fits from two people on (min_support_near), and against a word the catalog's own text says only from min_support_contested (50 people). At 07ea0e5, whose learned words counted against every word alike, two sessions put stripe:retrieve_customer first for the refund request.",
      "",
      devalued.table,
      "",
      `targets (devaluing): no attack with fewer than 50 colluding sessions puts a tool that does not serve the request at rank 1 (fewest: ${Number.isFinite(fewestDevaluing) ? fewestDevaluing : "> 64"}) -> ${devaluingMet ? "met" : "NOT met"}`,
      "",
      `Personal data: ${privacy.requests} requests full of it (cards spaced and dashed, an SSN, IBANs, a passport, phones, passwords, a secret in a URL path, names in lower case, an email, a token, an address, a date of birth, an account number), each searched and used in 5 sessions (${privacy.uses} sessions). Stored words for the tool: ${privacy.terms.join(", ")}.`,
      "",
      `targets (personal data): 0 secrets retrievable (${privacy.leaked.length}${privacy.leaked.length > 0 ? `: ${privacy.leaked.join(", ")}` : ""}) -> ${privacy.leaked.length === 0 ? "met" : "NOT met"}`,
      "",
      `targets (concurrency): ${concurrent.sessions} sessions teaching at once, ${concurrent.taught} uses taught, ${concurrent.merged} merged -> ${concurrent.merged === concurrent.taught ? "met" : "NOT met"}`,
    ].join("\n");
  } finally {
    await replay.dispose();
  }
}

const bench = await startBench(args.lexicon ? { lexicon: readFileSync(args.lexicon, "utf8") } : {});
try {
  const session = await bench.session("search-eval");
  await bench.op(session, "catalog_sync", { tools: catalog });
  const sections: string[] = [];
  const everything: Outcome[] = [];
  // Every set's outcomes apart, the suite's included: the relevance curve is fitted on them all.
  const bySet: Outcome[][] = [];
  const figures: SetFigures[] = [];
  const ranks: Record<string, SetRanks> = {};
  /** Each query's text by its key in the ranks file. */
  const texts = new Map<string, string>();
  const keyedRanks = (outcomes: readonly Outcome[]): SetRanks =>
    Object.fromEntries(
      outcomes.map((o) => {
        texts.set(queryKey(o.query), o.query);
        return [queryKey(o.query), kept(o.rank)];
      }),
    );
  // Each set's cold outcomes, which the learning evaluation's control must equal.
  const colds: LearningTest[] = [];
  /** The other catalogs' learning evaluations: each with a history of its own. */
  const learnings: { tools: unknown[]; history: History; tests: LearningTest[] }[] = [];
  for (const [i, set] of sets.entries()) {
    const search = (query: string) => bench.op<SearchOutput>(session, "tool_search", { query, limit: 10 });
    const { outcomes, misses } = await run(search, set.queries, catalog);
    everything.push(...outcomes);
    bySet.push(outcomes);
    const all = summarize(outcomes);
    const heading = `tool_search (fts) on ${catalog.length} tools, ${set.queries.length} queries (${set.file})`;
    // The first set is the learning evaluation's history, the second its test (cold here).
    const everyday = set.file.includes("everyday");
    colds.push({ file: set.file, queries: set.queries, cold: outcomes, everyday: () => everyday });
    const targets =
      i === 0
        ? `targets (first set): Recall@5 >= 0.95, MRR >= 0.85 (${all.r5.toFixed(4)}, ${all.mrr.toFixed(4)}) -> ${all.r5 >= 0.95 && all.mrr >= 0.85 ? "met" : "NOT met"}`
        : `targets (second set, cold): Recall@1 >= 0.75, Recall@5 >= 0.93 (${all.r1.toFixed(4)}, ${all.r5.toFixed(4)}) -> ${all.r1 >= 0.75 && all.r5 >= 0.93 ? "met" : "NOT met"}`;
    const body = `${kindTable(outcomes)}\n\n${noAnswerLine(outcomes)}${i < 2 ? `\n\n${targets}` : ""}`;
    console.log(`${heading}\n\n${body}\n`);
    if (args.verbose) console.log(`${misses.join("\n")}\n`);
    sections.push(`### ${set.file}: ${set.queries.length} queries\n\n${body}\n`);
    const name = devSetName(set.file);
    figures.push(figuresOf(name, catalog, set.queries, outcomes));
    ranks[name] = keyedRanks(outcomes);
  }
  console.log(`${noAnswerLine(everything)} (dev sets)`);
  const canonical = args.queries === DEFAULT_SETS && args.catalog === "bench/search-eval/catalog.json";
  if (canonical) {
    // Every other catalog of the suite, each in a session of its own (issue 29).
    const suites = otherSuites();
    for (const suite of suites) {
      const other = await bench.session(`suite-${suite.name}`);
      await bench.op(other, "catalog_sync", { tools: suite.catalog });
      const search = (query: string) => bench.op<SearchOutput>(other, "tool_search", { query, limit: 10 });
      for (const set of suite.sets) {
        const { outcomes, misses } = await run(search, set.queries, suite.catalog);
        const body = `${kindTable(outcomes)}\n\n${noAnswerLine(outcomes)}`;
        const heading = `tool_search (fts) on ${suite.catalog.length} tools, ${set.queries.length} queries (${suite.source})`;
        console.log(`${heading}\n\n${body}\n`);
        if (args.verbose) console.log(`${misses.join("\n")}\n`);
        sections.push(`### ${set.name}: ${suite.source}\n\n${body}\n`);
        figures.push(figuresOf(set.name, suite.catalog, set.queries, outcomes));
        bySet.push(outcomes);
        ranks[set.name] = keyedRanks(outcomes);
        if (suite.histories.length > 0) {
          // A set with everyday queries among others is scored on those; one of people's requests alone, on all.
          const mixed = set.queries.some((q) => q.kind === "everyday");
          const test = { file: set.name, queries: set.queries, cold: outcomes };
          const everyday = (q: EvalQuery) => !mixed || q.kind === "everyday";
          for (const history of suite.histories)
            learnings.push({ tools: suite.catalog, history, tests: [{ ...test, everyday }] });
        }
      }
    }
    const diffs = rankDiffs(ranks, texts);
    const baselines = figures
      .map((f) => (f.bm25 ? `${f.set} ${f.bm25.variant} (${f.bm25.r1.toFixed(3)})` : null))
      .filter((b) => b !== null)
      .join("; ");
    const summary = `Every set alone and their macro average (each set weighs the same), beside the best of 24 BM25 variants over each tool's name and description or all of its text (bench/bm25-baseline.ts):\n\n${suiteTable(figures)}\n\nThe best BM25 variant of each set: ${baselines}.\n\nPer-query ranks against the previous head's (bench/search-eval/ranks.json):\n\n${diffs.table}`;
    console.log(`\n${summary}\n${diffs.queries ? `\n${diffs.queries}\n` : ""}`);
    sections.unshift(`### The suite\n\n${summary}\n`);
    if (args.figures) writeFileSync(args.figures, JSON.stringify(figures));
    const devSets = sets.map((set) => ({ name: devSetName(set.file), queries: set.queries }));
    const larger = await largerCatalogs(
      bench,
      { catalog: catalog as { name: string }[], sets: devSets },
      suites,
    );
    console.log(`\nLarger catalogs\n\n${larger}\n`);
    sections.splice(1, 0, `### Larger catalogs\n\n${larger}\n`);
  }
  if (args.verbose) {
    // Where the two kinds overlap: answerable queries whose top relevance is as low as a no-answer one's.
    const highestNone = Math.max(...everything.filter((o) => o.rank === null).map((o) => o.top));
    const low = everything
      .filter((o) => o.rank !== null && o.top <= highestNone)
      .sort((a, b) => a.top - b.top);
    console.log(
      `\nanswerable queries at or below the highest no-answer relevance (${highestNone.toFixed(2)}): ${low.length}`,
    );
    for (const o of low) console.log(`  ${o.top.toFixed(2)}  ${o.query}`);
  }
  const readHistory = (history: History): HistoryQuery[] =>
    history.entries().map((h, i) => ({ ...h, user: h.user ?? `session-${i % 4}` }));
  const evaluations =
    args["suite-only"] || colds.length === 0 || !existsSync(args.history)
      ? []
      : [
          {
            tools: catalog,
            history: {
              ...historyFiles([args.history]),
              source:
                args.history === HISTORY ? `${HISTORY}, worded independently of the test sets` : args.history,
            },
            tests: colds,
          },
          // Another history is an experiment on the dev catalog alone.
          ...(args.history === HISTORY ? learnings : []),
        ];
  for (const evaluation of evaluations) {
    const { tools, history, tests } = evaluation;
    const learned = await learningEvaluation(tools, readHistory(history), tests, history.source);
    const body = learned.sections.map((s) => `${s.file}\n\n${s.table}\n\n${s.targets}`).join("\n\n");
    console.log(`\n${learned.heading}\n\n${body}\n`);
    sections.push(`### ${learned.heading}\n\n${body}\n`);
  }
  const exploring =
    args["suite-only"] ||
    args.thresholds !== undefined ||
    args.repeat !== "1" ||
    args.history !== HISTORY ||
    args.protocol !== "agent" ||
    args.anonymous ||
    args.lexicon !== undefined;
  if (!exploring && args.catalog === "bench/search-eval/catalog.json") {
    const safety = await safetyEvaluation();
    console.log(`\n${safety}\n`);
    sections.push(`${safety}\n`);
  }
  if (args.calibrate) {
    const fit = fitCurve(bySet);
    console.log(
      `\nrelevance curve fitted on ${fit.n} results: { coverage: ${fit.coverage.toFixed(2)}, concepts: ${fit.concepts.toFixed(2)}, offset: ${fit.offset.toFixed(2)} } ` +
        `(in use: ${JSON.stringify(RELEVANCE_CURVE)})`,
    );
  }
  if (!exploring && canonical) {
    const section = `## Retrieval quality (npm run bench:search)

Dev evaluation, ${catalog.length} tools; run ${new Date().toISOString().slice(0, 16)}Z. Targets, first set: Recall@5 ≥ 0.95, MRR ≥ 0.85; second (everyday) set, cold: Recall@1 ≥ 0.75, Recall@5 ≥ 0.93; with learning: Recall@1 ≥ 0.85, Recall@5 ≥ 0.97, control equal to cold. AUROC: how well the first result's relevance separates no-answer queries from answerable ones (target ≥ 0.9; all sets: ${auroc(everything)?.toFixed(3) ?? "n/a"}).

${sections.join("\n")}`;
    const previous = existsSync("bench/RESULTS.md")
      ? readFileSync("bench/RESULTS.md", "utf8")
      : "# Benchmark results\n\n";
    const head = previous.replace(/## Retrieval quality[\s\S]*/, "").trimEnd();
    writeFileSync("bench/RESULTS.md", `${head}\n\n${section}`);
    writeRanks(ranks);
  }
} finally {
  await bench.mf.dispose();
}
