// `npm run bench:profile`: where an in-object tool_search spends its time at 10,000 tools. Runs the
// bench worker in workerd with its inspector open, warms the session up, records a CPU profile
// (V8's sampling profiler over the DevTools protocol) of the dev queries searched 20 times each,
// and prints the functions by self time and by inclusive time. The profile is also written to
// bench/profile.cpuprofile, which Chrome DevTools (Performance → load) opens.
import { writeFileSync } from "node:fs";
import { benchCatalog, evalQueries } from "./catalogs";
import { freePort, profileTables, profileWhile } from "./cpu-profile";
import { benchMiniflare, percentile } from "./harness";

const TOOLS = 10_000;
const REPEAT = 20;

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

  const { profile, value } = await profileWhile(port, () => session.timeEach("tool_search", inputs, REPEAT));
  const timed = JSON.parse(value) as { perInput: number[] };
  writeFileSync("bench/profile.cpuprofile", JSON.stringify(profile));
  console.log(
    `tool_search (fts) at ${TOOLS.toLocaleString("en")} tools, ${inputs.length} queries × ${REPEAT}, profiled: ` +
      `p50 ${percentile(timed.perInput, 50).toFixed(3)} ms, p95 ${percentile(timed.perInput, 95).toFixed(3)} ms ` +
      "(the sampling profiler slows it)\n",
  );
  console.log(`${profileTables(profile)}\n`);
  console.log("Profile written to bench/profile.cpuprofile (Chrome DevTools → Performance → load).");
} finally {
  await mf.dispose();
}
