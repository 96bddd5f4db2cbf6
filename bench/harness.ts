// Starts the worker in-process with Miniflare (real workerd, real SQLite) for benchmarks.
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Miniflare } from "miniflare";
import { bundleWorker, wranglerCompatibility } from "../scripts/bundle-worker";
import type { CatalogRpc } from "../src/published/catalog-rpc";
import type { OpResult } from "../src/session-object";
import type { ToolRecordInput } from "../src/tools/tool-record";

interface RawStub {
  callJson(name: string, input: unknown): Promise<string>;
  learn(json: string): Promise<number>;
  stats(): Promise<string>;
  catalogCalls(): Promise<number>;
  setBundle(json: string): Promise<void>;
  restart(): Promise<void>;
  timeEach(name: string, inputs: unknown[], repeat: number): Promise<string>;
  timeOnce(name: string, input: unknown): Promise<string>;
}

export interface BenchSessionStub {
  call(name: string, input: unknown): Promise<OpResult>;
  /** Gives tools learned text (what a tenant's learning would put in the index); rows changed. */
  learn(tools: { tool: string; text: string }[]): Promise<number>;
  /** Rows read and written through the object's SQL since it started, deferred writes included. */
  stats(): Promise<{ rowsRead: number; rowsWritten: number }>;
  /** Calls the session made to published catalogs' objects since it started. */
  catalogCalls(): Promise<number>;
  setBundle(bundle: unknown): Promise<void>;
  restart(): Promise<void>;
  timeEach(
    name: string,
    inputs: unknown[],
    repeat: number,
  ): Promise<{ perInput: number[]; failures: number; rowsRead: number; rowsWritten: number }>;
  timeOnce(
    name: string,
    input: unknown,
  ): Promise<{ ms: number; result: OpResult; rowsRead: number; rowsWritten: number }>;
}

/**
 * Miniflare running `script` (bundled, with `replace`'s files swapped in) in real workerd, with
 * SQLite Durable Objects by binding → class, the bench tenant's key, and workerd's inspector on
 * `inspectorPort` when given (bench/cpu-profile.ts).
 */
export async function benchMiniflare({
  script,
  replace = {},
  durableObjects,
  inspectorPort,
  port,
}: {
  script: string;
  replace?: Record<string, string>;
  durableObjects: Record<string, string>;
  inspectorPort?: number;
  /** Serves HTTP on 127.0.0.1 at this port (requests then reach workerd straight, as a client's would). */
  port?: number;
}): Promise<Miniflare> {
  const mf = new Miniflare({
    modules: true,
    script: await bundleWorker(script, replace),
    ...wranglerCompatibility(),
    ...(inspectorPort ? { inspectorPort } : {}),
    ...(port ? { host: "127.0.0.1", port } : {}),
    durableObjects: Object.fromEntries(
      Object.entries(durableObjects).map(([binding, className]) => [binding, { className, useSQLite: true }]),
    ),
    bindings: { TROVE_API_KEYS: "bench:bench-key" },
    // Session objects log one JSON line per event with console.log (workerd's stdout): a bench
    // prints its tables, not those. What the worker writes to stderr still shows, except workerd's
    // notice that a stub held by Miniflare's Node-side proxy was never disposed (they all go with
    // mf.dispose()).
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.resume();
      createInterface({ input: stderr, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
        if (!line.startsWith("An RPC stub was not disposed properly.")) process.stderr.write(`${line}\n`);
      });
    },
  });
  await mf.ready;
  return mf;
}

/**
 * `analytics: false` runs sessions without the tenant's analytics object bound (to measure what it
 * adds); `lexicon` bundles the worker with another src/search/lexicon.json (bench/lexicon-ablation.ts).
 */
export async function startBench({
  analytics = true,
  lexicon,
}: {
  analytics?: boolean;
  lexicon?: string;
} = {}): Promise<{
  mf: Miniflare;
  session(name: string): Promise<BenchSessionStub>;
  /** Publishes a catalog for the bench tenant (what `PUT /v1/catalogs/{name}` does). */
  publish(name: string, tools: unknown[]): Promise<void>;
  /** Runs an operation and returns its value, throwing on an error result. */
  op<T>(stub: BenchSessionStub, name: string, input: unknown): Promise<T>;
}> {
  const mf = await benchMiniflare({
    script: "bench/bench-worker.ts",
    replace: lexicon === undefined ? {} : { "src/search/lexicon.json": lexicon },
    durableObjects: {
      SESSIONS: "BenchSession",
      CATALOGS: "CatalogObject",
      CATALOG_LISTS: "CatalogListObject",
      ...(analytics ? { ANALYTICS: "AnalyticsObject" } : {}),
    },
  });
  const ns = await mf.getDurableObjectNamespace("SESSIONS");
  return {
    mf,
    async session(name) {
      const raw = ns.get(ns.idFromName(`bench/${name}`)) as unknown as RawStub;
      // Each property read of a proxied stub or result is a synchronous round trip to the runtime,
      // whose reply Miniflare sometimes misses on a busy machine (BenchSession.callJson): the method
      // called per operation is read once, and its result comes back as JSON.
      const callJson = raw.callJson;
      return {
        call: async (op, input) => JSON.parse(await callJson(op, input)) as OpResult,
        learn: (tools) => raw.learn(JSON.stringify(tools)),
        stats: async () => JSON.parse(await raw.stats()),
        catalogCalls: () => raw.catalogCalls(),
        setBundle: (bundle) => raw.setBundle(JSON.stringify(bundle)),
        restart: () => raw.restart().catch(() => undefined),
        timeEach: async (op, inputs, repeat) => JSON.parse(await raw.timeEach(op, inputs, repeat)),
        timeOnce: async (op, input) => JSON.parse(await raw.timeOnce(op, input)),
      };
    },
    async publish(name, tools) {
      const catalogs = await mf.getDurableObjectNamespace("CATALOGS");
      const stub = catalogs.get(catalogs.idFromName(`bench/${name}`)) as unknown as CatalogRpc;
      const result = await stub.publish(name, tools as ToolRecordInput[], "replace", []);
      if (!result.ok) throw new Error(`publish failed: ${JSON.stringify(result)}`);
    },
    async op<T>(stub: BenchSessionStub, name: string, input: unknown): Promise<T> {
      const result = await stub.call(name, input);
      if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
      return result.value as T;
    },
  };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [
    line(cells[0] ?? []),
    `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`,
    ...cells.slice(1).map(line),
  ].join("\n");
}
