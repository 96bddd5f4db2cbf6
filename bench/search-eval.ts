// Retrieval quality of tool_search on the dev evaluation: Recall@1, Recall@5 and MRR per query kind.
// Usage: npm run bench:search [-- --catalog FILE --queries FILE --verbose]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { startBench, table } from "./harness";

interface EvalQuery {
  query: string;
  expected: string[];
  kind: string;
}
interface SearchOutput {
  tools: { name: string; score: number }[];
}

const { values: args } = parseArgs({
  options: {
    catalog: { type: "string", default: "bench/search-eval/catalog.json" },
    queries: { type: "string", default: "bench/search-eval/queries.json" },
    verbose: { type: "boolean", default: false },
  },
});

const catalog = JSON.parse(readFileSync(args.catalog, "utf8")) as unknown[];
const queries = JSON.parse(readFileSync(args.queries, "utf8")) as EvalQuery[];

const bench = await startBench();
try {
  const session = await bench.session("search-eval");
  await bench.op(session, "catalog_sync", { tools: catalog });

  interface Outcome {
    kind: string;
    rank: number | null;
    returned: number;
  }
  const outcomes: Outcome[] = [];
  const misses: string[] = [];
  for (const q of queries) {
    const out = await bench.op<SearchOutput>(session, "tool_search", { query: q.query, limit: 10 });
    const names = out.tools.map((t) => t.name);
    const index = names.findIndex((n) => q.expected.includes(n));
    const rank = q.expected.length === 0 ? null : index === -1 ? Infinity : index + 1;
    outcomes.push({ kind: q.kind, rank, returned: names.length });
    if (rank !== null && rank > 1) {
      misses.push(
        `${rank === Infinity ? "miss" : `@${rank}`}  ${q.query}  → want ${q.expected.join("|")}, got ${names.slice(0, 3).join(", ")}`,
      );
    }
  }

  const summarize = (rows: Outcome[]) => {
    const answerable = rows.filter((r) => r.rank !== null);
    const n = answerable.length;
    const at = (k: number) => answerable.filter((r) => (r.rank ?? Infinity) <= k).length / (n || 1);
    const mrr =
      answerable.reduce((sum, r) => sum + (r.rank && r.rank !== Infinity ? 1 / r.rank : 0), 0) / (n || 1);
    return { n, r1: at(1), r5: at(5), mrr };
  };
  const kinds = [...new Set(outcomes.map((o) => o.kind))].sort();
  const rows = kinds
    .map((kind) => ({ kind, ...summarize(outcomes.filter((o) => o.kind === kind)) }))
    .filter((r) => r.n > 0)
    .map((r) => [r.kind, r.n, r.r1.toFixed(3), r.r5.toFixed(3), r.mrr.toFixed(3)]);
  const all = summarize(outcomes);
  rows.push(["all", all.n, all.r1.toFixed(3), all.r5.toFixed(3), all.mrr.toFixed(3)]);
  console.log(`tool_search (fts) on ${catalog.length} tools, ${queries.length} queries (${args.queries})\n`);
  console.log(table(["kind", "queries", "Recall@1", "Recall@5", "MRR"], rows));
  const noAnswer = outcomes.filter((o) => o.rank === null);
  if (noAnswer.length > 0) {
    const empty = noAnswer.filter((o) => o.returned === 0).length;
    console.log(
      `\nno-answer queries: ${noAnswer.length}, returned nothing: ${empty} (${((100 * empty) / noAnswer.length).toFixed(0)} %)`,
    );
  }
  console.log(
    `\ntargets: Recall@5 >= 0.95, MRR >= 0.85 -> ${all.r5 >= 0.95 && all.mrr >= 0.85 ? "met" : "NOT met"}`,
  );
  if (args.verbose) console.log(`\n${misses.join("\n")}`);
  if (
    args.queries === "bench/search-eval/queries.json" &&
    args.catalog === "bench/search-eval/catalog.json"
  ) {
    const section = `## Retrieval quality (npm run bench:search)

Dev evaluation, ${catalog.length} tools, ${queries.length} queries; run ${new Date().toISOString().slice(0, 16)}Z. Targets: Recall@5 ≥ 0.95, MRR ≥ 0.85.

${table(["kind", "queries", "Recall@1", "Recall@5", "MRR"], rows)}

No-answer queries returning nothing: ${noAnswer.filter((o) => o.returned === 0).length} of ${noAnswer.length}.
`;
    const previous = existsSync("bench/RESULTS.md")
      ? readFileSync("bench/RESULTS.md", "utf8")
      : "# Benchmark results\n\n";
    const kept = previous.replace(/## Retrieval quality[\s\S]*/, "").trimEnd();
    writeFileSync("bench/RESULTS.md", `${kept}\n\n${section}`);
  }
} finally {
  await bench.mf.dispose();
}
