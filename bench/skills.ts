// The skills part of `npm run bench`: skill_search speed, cold start with bundled skills, restarts.
import { readFileSync } from "node:fs";
import { compilePacks } from "../src/compiler/compile";
import { skillSearchFields } from "../src/skills/skill-index";
import { percentile, type startBench, table } from "./harness";

type Bench = Awaited<ReturnType<typeof startBench>>;

interface Tool {
  name: string;
  description: string;
  tags?: string[];
  namespace?: string;
}

const tools = JSON.parse(readFileSync("bench/search-eval/catalog.json", "utf8")) as Tool[];

/** A bundle of `n` Penguiflow skills in one pack, written from the dev catalog's tools. */
export function skillBundle(n: number, variant = 0) {
  const files = [{ path: "bench/pack.yaml", content: "name: bench\n" }];
  for (let i = 0; i < n; i++) {
    const tool = tools[i % tools.length] as Tool;
    const copy = Math.floor(i / tools.length);
    const ns = tool.namespace ?? tool.name.split(".")[0] ?? "x";
    const trigger = `${tool.description}${copy > 0 ? ` (variant ${copy})` : ""}${i === 0 && variant ? " v2" : ""}`;
    files.push({
      path: `bench/s${i}.skill.json`,
      content: JSON.stringify({
        name: `skill-${i}`,
        title: `${tool.name.replaceAll(/[._:-]/g, " ")} playbook`,
        task_type: ns.replaceAll(/[^a-z0-9]/gi, "") || "general",
        tags: tool.tags ?? [],
        trigger,
        steps: [
          `Find the ${ns} tool with tool_search if it is not listed`,
          `Call ${tool.name} with the arguments the user gave`,
          "Check the result and report what changed",
        ],
      }),
    });
  }
  const { bundle, errors } = compilePacks(files);
  if (errors.length > 0) throw new Error(`bench bundle: ${errors.length} errors`);
  // As scripts/build-packs.ts does: search text normalized at build time.
  bundle.index = Object.fromEntries(bundle.skills.map((skill) => [skill.id, skillSearchFields(skill)]));
  return bundle;
}

const queries = (JSON.parse(readFileSync("bench/search-eval/queries.json", "utf8")) as { query: string }[])
  .slice(0, 120)
  .map((q) => ({ query: q.query }));

export async function skillsBench(bench: Bench): Promise<{ search: string; load: string }> {
  const searchRows: (string | number)[][] = [];
  const loadRows: (string | number)[][] = [];
  for (const n of [500, 1_000, 5_000]) {
    const bundle = skillBundle(n);
    const first = await bench.session(`skills-${n}`);
    await first.setBundle(bundle);
    const cold = await first.timeOnce("skill_list", { page_size: 1 });
    await first.restart();
    // A stub of an aborted object stays broken: a deploy's requests come through new ones.
    const session = await bench.session(`skills-${n}`);
    await session.setBundle(bundle);
    const restart = await session.timeOnce("skill_list", { page_size: 1 });
    await session.setBundle(skillBundle(n, 1));
    const changed = await session.timeOnce("skill_list", { page_size: 1 });
    loadRows.push([
      n,
      cold.ms.toFixed(1),
      cold.rowsWritten,
      restart.ms.toFixed(1),
      restart.rowsWritten,
      changed.rowsWritten,
    ]);
    if (n !== 1_000) {
      const t = await session.timeEach("skill_search", queries, 10);
      searchRows.push([
        n,
        queries.length,
        percentile(t.perInput, 50).toFixed(3),
        percentile(t.perInput, 95).toFixed(3),
      ]);
    }
  }
  return {
    search: table(["skills", "queries", "p50 ms", "p95 ms"], searchRows),
    load: table(
      [
        "bundled skills",
        "new session ms",
        "rows written",
        "restart ms",
        "rows written",
        "one skill changed: rows written",
      ],
      loadRows,
    ),
  };
}
