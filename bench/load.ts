// `npm run bench:load`: a load test of `wrangler dev` on loopback — many sessions doing a realistic
// turn mix, then one hot session at its limit. Prints tables and replaces the load section of
// bench/RESULTS.md (`--quick`: short runs, nothing written).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { Trove } from "../packages/client/src/index";
import { benchCatalog } from "./catalogs";
import { percentile, table } from "./harness";
import { type Agent, APPROVAL_GLOBS, argsFor, type CatalogTool, Recorder, runTurns, setUp } from "./load-mix";
import { withLoadSection } from "./load-section";
import { type DevServer, machineCpuSeconds, startDevServer } from "./load-server";

const PORT = 8798; // bench/http.ts uses 8799
const TENANT = "load";
const KEY = "bench-load-key";
const TIMEOUT_MS = 10_000;

interface Scenario {
  name: string;
  sessions: number;
  /** Requests in flight per session: each is one closed loop of turns. */
  workers: number;
  seconds: number;
  maxRequests: number;
  catalogSize(i: number): number;
  scope(i: number): "session" | "run";
  /** Whether configuring the session and the cold catalog_sync are part of the measured window. */
  setupInWindow: boolean;
}

interface Outcome {
  scenario: Scenario;
  rec: Recorder;
  seconds: number;
  generatorCores: number;
  serverCores: Map<string, number>;
  machineCores: { busy: number; steal: number };
}

const { values: flags } = parseArgs({ options: { quick: { type: "boolean", default: false } } });
const quick = flags.quick ?? false;

const MANY: Scenario = {
  name: "A",
  sessions: quick ? 16 : 64,
  workers: 1,
  seconds: quick ? 10 : 60,
  maxRequests: 300_000,
  catalogSize: (i) => 200 + ((i * 47) % 301),
  scope: (i) => (i % 2 === 0 ? "session" : "run"),
  setupInWindow: true,
};
const HOT: Scenario = {
  name: "B",
  sessions: 1,
  workers: 24,
  seconds: quick ? 5 : 20,
  maxRequests: 150_000,
  catalogSize: () => 500,
  scope: () => "run",
  setupInWindow: false,
};

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function run(server: DevServer, trove: Trove, scenario: Scenario): Promise<Outcome> {
  const agents: Agent[] = range(scenario.sessions).map((i) => {
    const catalog = benchCatalog(scenario.catalogSize(i)) as unknown as CatalogTool[];
    for (const tool of catalog) argsFor(tool); // fail now on a tool the mix cannot call
    return {
      session: trove.session(`load-${scenario.name}-${i}`),
      catalog,
      byName: new Map(catalog.map((t) => [t.name, t])),
      scope: scenario.scope(i),
    };
  });
  if (!scenario.setupInWindow) {
    const setup = new Recorder(Date.now() + 120_000, Number.POSITIVE_INFINITY);
    await Promise.all(agents.map((agent) => setUp(setup, agent)));
    if (setup.errorCount > 0) throw new Error(`set-up failed:\n${setup.samples.join("\n")}`);
  }

  const rec = new Recorder(Date.now() + scenario.seconds * 1000, scenario.maxRequests);
  const cpu0 = process.cpuUsage();
  const server0 = server.cpuSeconds();
  const machine0 = machineCpuSeconds();
  const t0 = performance.now();
  await Promise.all(
    agents.flatMap((agent, i) => {
      const ready = scenario.setupInWindow ? setUp(rec, agent) : Promise.resolve(true);
      return range(scenario.workers).map(async (w) => {
        if (await ready) await runTurns(rec, agent, 1_000 * i + w + 1, `run-${i}-${w}`);
      });
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const machine1 = machineCpuSeconds();
  const serverCores = new Map<string, number>();
  for (const [name, s] of server.cpuSeconds()) {
    serverCores.set(name, (s - (server0.get(name) ?? 0)) / seconds);
  }
  return {
    scenario,
    rec,
    seconds,
    generatorCores: (cpu.user + cpu.system) / 1e6 / seconds,
    serverCores,
    machineCores: {
      busy: (machine1.busy - machine0.busy) / seconds,
      steal: (machine1.steal - machine0.steal) / seconds,
    },
  };
}

// ---- tables ----

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "—");
const ORDER = [
  "session_configure",
  "catalog_sync (cold)",
  "context",
  "context (query)",
  "tool_search fts",
  "tool_search regex",
  "tool_search exact",
  "tool_resolve",
  "approval_decide",
  "tool_resolve (approved)",
  "catalog_sync (identical)",
  "skill_search",
  "skill_load",
  "state",
];

function errorsOf(rec: Recorder, label?: string): number {
  let n = 0;
  for (const [key, count] of rec.errors) if (!label || key.startsWith(`${label}: `)) n += count;
  return n;
}

/** The largest value (NaN for none); tens of thousands of values are too many to spread. */
const largest = (values: readonly number[]) =>
  values.length ? values.reduce((a, b) => (b > a ? b : a)) : Number.NaN;

const allLatencies = (rec: Recorder) => [...rec.latencies.values()].flat();

function summaryTable(outcomes: Outcome[]): string {
  return table(
    [
      "scenario",
      "sessions × in flight",
      "seconds",
      "requests",
      "turns",
      "req/s",
      "p50 ms",
      "p95 ms",
      "p99 ms",
      "max ms",
      "errors",
      "tools in context (mean / max)",
    ],
    outcomes.map(({ scenario, rec, seconds }) => {
      const all = allLatencies(rec);
      const tools = rec.contextTools;
      const meanTools = tools.reduce((a, b) => a + b, 0) / Math.max(1, tools.length);
      return [
        scenario.name,
        `${scenario.sessions} × ${scenario.workers}`,
        seconds.toFixed(1),
        rec.started,
        rec.turns,
        (rec.started / seconds).toFixed(0),
        ms(percentile(all, 50)),
        ms(percentile(all, 95)),
        ms(percentile(all, 99)),
        ms(largest(all)),
        rec.errorCount,
        `${meanTools.toFixed(1)} / ${largest(tools)}`,
      ];
    }),
  );
}

const SERVER_ROLES = ["Trove workerd", "proxy workerd", "wrangler (Node)"];

function cpuTable(outcomes: Outcome[]): string {
  return table(
    [
      "scenario",
      "load generator (Node)",
      ...SERVER_ROLES,
      "everything else",
      `machine busy (of ${cpus().length})`,
      "stolen",
      "Trove workerd CPU per request, ms",
    ],
    outcomes.map(({ scenario, rec, seconds, generatorCores, serverCores, machineCores }) => {
      const server = SERVER_ROLES.map((role) => serverCores.get(role) ?? 0);
      const ours = generatorCores + server.reduce((a, b) => a + b, 0);
      return [
        scenario.name,
        generatorCores.toFixed(2),
        ...server.map((c) => c.toFixed(2)),
        Math.max(0, machineCores.busy - ours).toFixed(2),
        machineCores.busy.toFixed(2),
        machineCores.steal.toFixed(2),
        // What one request costs Trove itself, whoever else had the cores: its capacity per core.
        (((serverCores.get("Trove workerd") ?? 0) * seconds * 1000) / rec.started).toFixed(2),
      ];
    }),
  );
}

function operationTable({ rec }: Outcome): string {
  const labels = [...new Set([...ORDER, ...rec.latencies.keys()])].filter(
    (l) => rec.latencies.has(l) || errorsOf(rec, l) > 0,
  );
  const total = rec.started;
  return table(
    ["operation", "requests", "share", "p50 ms", "p95 ms", "p99 ms", "max ms", "errors"],
    labels.map((label) => {
      const values = rec.latencies.get(label) ?? [];
      const n = values.length + errorsOf(rec, label);
      return [
        label,
        n,
        `${((100 * n) / total).toFixed(1)} %`,
        ms(percentile(values, 50)),
        ms(percentile(values, 95)),
        ms(percentile(values, 99)),
        ms(largest(values)),
        errorsOf(rec, label),
      ];
    }),
  );
}

function errorReport(outcomes: Outcome[]): string {
  const lines = outcomes.flatMap(({ scenario, rec }) => [
    ...[...rec.errors].map(([key, n]) => `- ${scenario.name}: ${n} × ${key}`),
    ...rec.samples.map((s) => `  - ${scenario.name} sample: ${s}`),
  ]);
  return lines.length ? `Errors:\n\n${lines.join("\n")}\n` : "";
}

// ---- run ----

const load1 = loadavg()[0] ?? 0;
const server = await startDevServer(PORT, TENANT, KEY);
const outcomes: Outcome[] = [];
try {
  const trove = new Trove({
    baseUrl: server.baseUrl,
    apiKey: KEY,
    fetch: (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) }),
  });
  for (const scenario of [MANY, HOT]) {
    console.log(
      `scenario ${scenario.name}: ${scenario.sessions} × ${scenario.workers} in flight for ${scenario.seconds} s…`,
    );
    outcomes.push(await run(server, trove, scenario));
  }
} finally {
  server.stop();
}

const [many, hot] = outcomes as [Outcome, Outcome];
const summary = summaryTable(outcomes);
const cpu = cpuTable(outcomes);
const errors = errorReport(outcomes);
console.log(`\n${summary}\n\n${cpu}\n`);
console.log(`A: ${many.scenario.sessions} sessions, per operation\n\n${operationTable(many)}\n`);
console.log(`B: one hot session, per operation\n\n${operationTable(hot)}\n`);
if (errors) {
  console.log(errors);
  process.exitCode = 1;
}

if (quick) {
  console.log("--quick: bench/RESULTS.md left as it is");
} else {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const wrangler = (
    JSON.parse(readFileSync("node_modules/wrangler/package.json", "utf8")) as { version: string }
  ).version;
  const previous = existsSync("bench/RESULTS.md") ? readFileSync("bench/RESULTS.md", "utf8") : "";
  writeFileSync("bench/RESULTS.md", withLoadSection(previous, section(machine, wrangler)));
  console.log("wrote the load section of bench/RESULTS.md");
}

/** A warning when other processes took a noticeable share of the cores during the windows. */
function contention(): string {
  const others = outcomes.map((o) => {
    const ours = o.generatorCores + [...o.serverCores.values()].reduce((x, y) => x + y, 0);
    return o.machineCores.busy - ours;
  });
  const worst = Math.max(...others);
  if (!(worst > 0.2)) return "";
  return `\nOther processes on the machine took up to ${worst.toFixed(1)} cores during these windows: the figures
are lower than this machine gives when it is quiet.\n`;
}

function section(machine: string, wrangler: string): string {
  return `## Load (wrangler dev)

Written by \`npm run bench:load\` (bench/load.ts; the mix in bench/load-mix.ts). Machine: ${machine};
wrangler ${wrangler}; run ${new Date().toISOString().slice(0, 16)}Z; load average ${load1.toFixed(2)} just before.
\`wrangler dev\` on loopback runs Trove (the worker and every session object) in one workerd, behind a
proxy workerd and a Node process of its own (request logging, console output), and the load
generator shares the same ${cpus().length} cores: the CPU table says who used them during each window
("everything else" is other processes on the machine), and its last column what one request
costs Trove's own workerd, which depends least on who else ran. The figures are what this machine
sustains with all of that on it, not production capacity or latency.

Every virtual agent is a closed loop (no think time, no model) with a ${TIMEOUT_MS / 1000} s timeout per request. An
error is any non-2xx answer, a timeout, a network failure, or a 2xx answer the mix did not expect
(an identical re-sync that writes, an approved call that is not allowed); the mix sends no request
meant to fail. One turn: \`context\` (anthropic format; in 30 % of turns with the user's message
as \`query\`, so pre-flight skills run) → \`tool_search\` (80 % fts with a dev-evaluation query, 10 %
regex, 10 % exact name; half with \`format: "anthropic"\`) → in 80 % of turns with hits,
\`tool_resolve\` of one of the first three (by provider name when \`tool_references\` came back;
arguments from the tool's example or its required fields; the first use activates it); a call
matching the approval globs \`${APPROVAL_GLOBS.join(" ")}\` → \`approval_decide\` (approve) →
\`tool_resolve\` with the approval; then the model's next \`context\` → 10 % an identical
\`catalog_sync\` (digest fast path) → 10 % \`skill_search\` (half followed by \`skill_load\` of the
top hit) → 3 % \`state\`. A run (\`run_id\`) lasts five turns.

- **A** — ${many.scenario.sessions} sessions, one agent each, for ${many.scenario.seconds} s. Each agent configures its session and
  syncs its own catalog of 200–500 tools (bench/catalogs.ts) inside the window, then loops turns.
  Even sessions activate for the session (activations pile up, so their context grows turn after
  turn), odd ones per run.
- **B** — one hot session (500 tools, run-scoped, synced before the window) with ${hot.scenario.workers} requests in
  flight for ${hot.scenario.seconds} s: a Durable Object handles its requests one at a time, so compare its
  req/s with A's to see whether one session is the limit here.

${summary}

${cpu}
${contention()}
A, per operation:

${operationTable(many)}

B, per operation:

${operationTable(hot)}
${errors ? `\n${errors}` : ""}`;
}
