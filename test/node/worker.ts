// Starts the real worker (src/index.ts, SessionObject with SQLite) in-process with Miniflare on a
// local HTTP port, for tests that run in Node and talk to Trove over real HTTP (browser, OpenAPI…).
import type { Readable } from "node:stream";
import { Miniflare } from "miniflare";
import { bundleWorker, wranglerCompatibility } from "../../scripts/bundle-worker";

export const TEST_KEYS = "tenant-a:key-a,tenant-b:key-b";

export interface StartWorkerOptions {
  /** `TROVE_API_KEYS`: comma-separated `tenant:key` pairs (default: tenant-a:key-a, tenant-b:key-b). */
  apiKeys?: string;
  /** More bindings, or overrides (plain text vars). */
  bindings?: Record<string, string>;
  /** Print the worker's console (one JSON line per session event) instead of only keeping it. */
  verbose?: boolean;
}

export interface RunningWorker {
  /** The worker's origin, without a trailing slash: `${url}/v1/health`. */
  url: string;
  /** Everything the worker wrote to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Stops workerd and frees the port and the in-memory storage. */
  dispose(): Promise<void>;
}

let bundle: Promise<string> | undefined;

/** The worker bundled the way wrangler does, built once per process. */
function workerScript(): Promise<string> {
  bundle ??= bundleWorker("src/index.ts");
  return bundle;
}

/**
 * Runs the worker on 127.0.0.1 on a free port, with fresh in-memory Durable Object storage.
 * `src/generated/packs.ts` must exist (`npm run build:packs`; `npm test` runs it first).
 *
 * @example
 * const worker = await startWorker();
 * const res = await fetch(`${worker.url}/v1/health`);
 * await worker.dispose();
 */
export async function startWorker(options: StartWorkerOptions = {}): Promise<RunningWorker> {
  const chunks: string[] = [];
  const mf = new Miniflare({
    modules: true,
    script: await workerScript(),
    ...wranglerCompatibility(),
    durableObjects: {
      SESSIONS: { className: "SessionObject", useSQLite: true },
      LEARNING: { className: "LearningObject", useSQLite: true },
      LEARNED_SKILLS: { className: "LearnedSkillsObject", useSQLite: true },
      CATALOGS: { className: "CatalogObject", useSQLite: true },
      CATALOG_LISTS: { className: "CatalogListObject", useSQLite: true },
      ANALYTICS: { className: "AnalyticsObject", useSQLite: true },
      UPSTREAMS: { className: "UpstreamObject", useSQLite: true },
    },
    bindings: { TROVE_API_KEYS: options.apiKeys ?? TEST_KEYS, ...options.bindings },
    host: "127.0.0.1",
    port: 0,
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      for (const stream of [stdout, stderr]) {
        stream.on("data", (chunk: Buffer) => {
          chunks.push(chunk.toString());
          if (options.verbose) process.stdout.write(chunk);
        });
      }
    },
  });
  const ready = await mf.ready;
  return {
    url: ready.origin,
    output: () => chunks.join(""),
    dispose: () => mf.dispose(),
  };
}
