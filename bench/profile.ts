// `npm run bench:profile`: where an in-object tool_search spends its time at 10,000 tools. Runs the
// bench worker in workerd with its inspector open, warms the session up, records a CPU profile
// (V8's sampling profiler over the DevTools protocol) of the dev queries searched 20 times each,
// and prints the functions by self time and by inclusive time. The profile is also written to
// bench/profile.cpuprofile, which Chrome DevTools (Performance → load) opens.
import { writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { Miniflare } from "miniflare";
import WebSocket from "../node_modules/miniflare/node_modules/ws/index.js";
import { bundleWorker, wranglerCompatibility } from "../scripts/bundle-worker";
import { benchCatalog, evalQueries } from "./catalogs";
import { percentile, table } from "./harness";

const TOOLS = 10_000;
const REPEAT = 20;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Self and inclusive microseconds per function (name and line in the bundle). */
function summarize(profile: Profile): {
  self: Map<string, number>;
  inclusive: Map<string, number>;
  total: number;
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === "(idle)") return;
    total += us;
    self.set(label(node), (self.get(label(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = label(byId.get(at) as ProfileNode);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  });
  return { self, inclusive, total };
}

const port = await freePort();
const mf = new Miniflare({
  modules: true,
  script: await bundleWorker("bench/bench-worker.ts", {}),
  ...wranglerCompatibility(),
  inspectorPort: port,
  durableObjects: {
    SESSIONS: { className: "BenchSession", useSQLite: true },
    CATALOGS: { className: "CatalogObject", useSQLite: true },
    CATALOG_LISTS: { className: "CatalogListObject", useSQLite: true },
    ANALYTICS: { className: "AnalyticsObject", useSQLite: true },
  },
  bindings: { TROVE_API_KEYS: "bench:bench-key" },
  // Session events go to workerd's stdout: not shown here.
  handleRuntimeStdio(stdout, stderr) {
    stdout.resume();
    stderr.resume();
  },
});
try {
  await mf.ready;
  const ns = await mf.getDurableObjectNamespace("SESSIONS");
  const session = ns.get(ns.idFromName("bench/profile")) as unknown as {
    timeOnce(name: string, input: unknown): Promise<string>;
    timeEach(name: string, inputs: unknown[], repeat: number): Promise<string>;
  };
  await session.timeOnce("catalog_sync", { tools: benchCatalog(TOOLS) });
  const inputs = evalQueries.map((query) => ({ query }));
  await session.timeEach("tool_search", inputs, 2);

  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(targets[0]?.webSocketDebuggerUrl as string);
  await new Promise((resolve) => ws.on("open", resolve));
  let next = 0;
  const pending = new Map<number, (value: { result: unknown }) => void>();
  ws.on("message", (message) => {
    const answer = JSON.parse(String(message)) as { id?: number; result: unknown };
    if (answer.id !== undefined) pending.get(answer.id)?.(answer);
  });
  const cdp = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<{ result: unknown }>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  await cdp("Profiler.enable");
  await cdp("Profiler.setSamplingInterval", { interval: 50 });
  await cdp("Profiler.start");
  const timed = JSON.parse(await session.timeEach("tool_search", inputs, REPEAT)) as { perInput: number[] };
  const { profile } = (await cdp("Profiler.stop")).result as { profile: Profile };
  ws.close();
  writeFileSync("bench/profile.cpuprofile", JSON.stringify(profile));

  const { self, inclusive, total } = summarize(profile);
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([name, us]) => [name, ((100 * us) / total).toFixed(1)]);
  console.log(
    `tool_search (fts) at ${TOOLS.toLocaleString("en")} tools, ${inputs.length} queries × ${REPEAT}, profiled: ` +
      `p50 ${percentile(timed.perInput, 50).toFixed(3)} ms, p95 ${percentile(timed.perInput, 95).toFixed(3)} ms ` +
      "(the sampling profiler slows it)\n",
  );
  console.log(
    `By self time (native calls such as SQLite's exec count as their own)\n\n${table(["function:line in the bundle", "% of busy time"], rows(self))}\n`,
  );
  console.log(
    `By inclusive time\n\n${table(["function:line in the bundle", "% of busy time"], rows(inclusive))}\n`,
  );
  console.log("Profile written to bench/profile.cpuprofile (Chrome DevTools → Performance → load).");
} finally {
  await mf.dispose();
}
