// `npm run bench:profile`: where an in-object tool_search spends its time at 10,000 tools. Runs the
// bench worker in workerd with its inspector open, warms the session up, records a CPU profile
// (V8's sampling profiler over the DevTools protocol) of the dev queries searched 20 times each,
// and prints the functions by self time and by inclusive time. The profile is also written to
// bench/profile.cpuprofile, which Chrome DevTools (Performance → load) opens. `-- --per-call`
// searches each query alone in its own call to the object, the queries in turn, as requests come
// (a loop keeps warm what each request pays again: bench/RESULTS.md). `-- --http` profiles the
// worker as deployed over HTTP instead (bench/profile-http.ts).
import { writeFileSync } from "node:fs";
import { benchCatalog, evalQueries } from "./catalogs";
import { freePort, profileTables, profileWhile } from "./cpu-profile";
import { benchMiniflare, percentile } from "./harness";
import { profileHttp } from "./profile-http";

const TOOLS = 10_000;
const REPEAT = 20;
const PER_CALL = process.argv.includes("--per-call");

if (process.argv.includes("--http")) {
  await profileHttp();
  process.exit(0);
}

const port = await freePort();
const mf = await benchMiniflare({
  script: "bench/bench-worker.ts",
  durableObjects: {
    SESSIONS: "BenchSession",
    CATALOGS: "CatalogObject",
    CATALOG_LISTS: "CatalogListObject",
    ANALYTICS: "AnalyticsObject",
  },
  inspectorPort: port,
});
try {
  const ns = await mf.getDurableObjectNamespace("SESSIONS");
  const session = ns.get(ns.idFromName("bench/profile")) as unknown as {
    timeOnce(name: string, input: unknown): Promise<string>;
    timeEach(name: string, inputs: unknown[], repeat: number): Promise<string>;
  };
  await session.timeOnce("catalog_sync", { tools: benchCatalog(TOOLS) });
  const inputs = evalQueries.map((query) => ({ query }));
  await session.timeEach("tool_search", inputs, 2);

  const { profile, value } = await profileWhile(port, async () => {
    if (!PER_CALL) return session.timeEach("tool_search", inputs, REPEAT);
    const perInput = inputs.map(() => 0);
    for (let round = 0; round < REPEAT; round++) {
      for (const [i, input] of inputs.entries()) {
        const { ms } = JSON.parse(await session.timeOnce("tool_search", input)) as { ms: number };
        perInput[i] = (perInput[i] ?? 0) + ms / REPEAT;
      }
    }
    return JSON.stringify({ perInput });
  });
  const timed = JSON.parse(value) as { perInput: number[] };
  writeFileSync("bench/profile.cpuprofile", JSON.stringify(profile));
  console.log(
    `tool_search (fts) at ${TOOLS.toLocaleString("en")} tools, ${inputs.length} queries × ${REPEAT}` +
      `${PER_CALL ? ", one search per call" : ", each query's runs back to back"}, profiled: ` +
      `p50 ${percentile(timed.perInput, 50).toFixed(3)} ms, p95 ${percentile(timed.perInput, 95).toFixed(3)} ms ` +
      "(the sampling profiler slows it)\n",
  );
  console.log(`${profileTables(profile)}\n`);
  console.log("Profile written to bench/profile.cpuprofile (Chrome DevTools → Performance → load).");
} finally {
  await mf.dispose();
}
