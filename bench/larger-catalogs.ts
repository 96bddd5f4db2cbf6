// Part of `npm run bench:search`: how search holds up in catalogs larger than any one set's. Every
// suite catalog's tools in one session, searched with each set's queries; and the dev catalog grown
// to 10,000 tools (bench/catalogs.ts), searched with the dev sets.
import { benchCatalog, originalsOf } from "./catalogs";
import type { startBench } from "./harness";
import { table } from "./harness";
import type { Suite } from "./suites";

type Bench = Awaited<ReturnType<typeof startBench>>;

interface QuerySet {
  name: string;
  queries: readonly { query: string; expected: readonly string[] }[];
}

const GROWN = 10_000;

/** The section's text: two tables, each query searched once with limit 10. */
export async function largerCatalogs(
  bench: Bench,
  dev: { catalog: readonly { name: string }[]; sets: readonly QuerySet[] },
  suites: readonly Suite[],
): Promise<string> {
  // Tools named alike in two catalogs (a server both drew) are one tool: the first one's.
  const byName = new Map<string, unknown>();
  for (const tool of [...dev.catalog, ...suites.flatMap((s) => s.catalog as { name: string }[])]) {
    if (!byName.has(tool.name)) byName.set(tool.name, tool);
  }
  const together = await searchAll(
    bench,
    "larger-together",
    [...byName.values()],
    [...dev.sets, ...suites.flatMap((s) => s.sets)],
  );

  // A copy stands for another product of the same kind: finding any copy of the expected tool
  // counts too ("kind"), besides the expected tool itself.
  const original = originalsOf(GROWN);
  const kinds = await searchAll(
    bench,
    "larger-grown",
    benchCatalog(GROWN),
    dev.sets,
    (name) => original.get(name) ?? name,
  );

  return [
    `All ${byName.size.toLocaleString("en")} tools of the suite's catalogs in one session, each set's answerable queries (a tool of another catalog that also serves a query counts as a miss, so these understate):`,
    "",
    table(
      ["set", "queries", "Recall@1", "Recall@5"],
      together.map((r) => [r.set, r.n, r.r1, r.r5]),
    ),
    "",
    `The dev catalog grown to ${GROWN.toLocaleString("en")} tools (bench/catalogs.ts: copies that stand for other products of the same kind). Exact: the expected tool; kind: it or a copy of it:`,
    "",
    table(
      ["set", "queries", "R@1 exact", "R@5 exact", "R@1 kind", "R@5 kind"],
      kinds.map((r) => [r.set, r.n, r.r1, r.r5, r.kind1, r.kind5]),
    ),
  ].join("\n");
}

/** Each set's answerable queries against `tools` in a new session; `kind` maps a tool to what it stands for. */
async function searchAll(
  bench: Bench,
  name: string,
  tools: readonly unknown[],
  sets: readonly QuerySet[],
  kind: (tool: string) => string = (tool) => tool,
) {
  const session = await bench.session(name);
  await bench.op(session, "catalog_sync", { tools });
  const rows = [];
  for (const set of sets) {
    const answerable = set.queries.filter((q) => q.expected.length > 0);
    const at = { r1: 0, r5: 0, kind1: 0, kind5: 0 };
    for (const q of answerable) {
      const found = await bench.op<{ tools: { name: string }[] }>(session, "tool_search", {
        query: q.query,
        limit: 10,
      });
      const names = found.tools.map((t) => t.name);
      const exact = names.findIndex((n) => q.expected.includes(n));
      const same = names.findIndex((n) => q.expected.includes(kind(n)));
      if (exact === 0) at.r1++;
      if (exact >= 0 && exact < 5) at.r5++;
      if (same === 0) at.kind1++;
      if (same >= 0 && same < 5) at.kind5++;
    }
    const share = (k: number) => (k / Math.max(1, answerable.length)).toFixed(3);
    rows.push({
      set: set.name,
      n: answerable.length,
      r1: share(at.r1),
      r5: share(at.r5),
      kind1: share(at.kind1),
      kind5: share(at.kind5),
    });
  }
  return rows;
}
