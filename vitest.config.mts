import { mkdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { cloudflareTest, getRunnerName } from "@cloudflare/vitest-pool-workers";
import { buildSync } from "esbuild";
import { configDefaults, defineConfig, type Plugin } from "vitest/config";
import type { TestProject } from "vitest/node";

// A passing run prints the runner's summary and little else. What is silenced here, and why:
//
// - The pool's wrangler reads .dev.vars (there is no pool option to stop it) and says so once per
//   test file. Harmless: the only variable Trove reads, TROVE_API_KEYS, is a test binding below,
//   which wins over .dev.vars. WRANGLER_LOG=warn keeps wrangler's warnings and errors.
// - @modelcontextprotocol/sdk ships source maps naming sources it does not ship: Vite warns once
//   per file (quietDependencySourcemaps).
// - workerd logs a few lines when tests do on purpose what it warns about. The pool prints
//   workerd's logs itself, skipping a fixed list of its own ("disconnected: operation canceled"…)
//   that no option extends, and a test cannot catch what the runtime logs, so those lines are
//   dropped where the pool writes them (EXPECTED_RUNTIME_LINES). Anything else still shows.
process.env.WRANGLER_LOG ??= "warn";

/** workerd lines that tests provoke on purpose, each with the tests that do. */
const EXPECTED_RUNTIME_LINES: readonly RegExp[] = [
  // Header values with non-ASCII bytes: the hostile-input corpus (test/integration/hostile/).
  /^A header value for "[^"]*" contains non-ASCII characters/,
  // A body streamed past the 5 MB limit: the worker answers 413 without reading the rest
  // (test/integration/http-surface.test.ts, test/integration/hostile/transport.ts).
  /^exception = kj\/async-io\.c\+\+:\d+: disconnected: read end of pipe was aborted/,
  // Durable Objects restarted with ctx.abort("restart for the test"), as a deploy would: workerd
  // reports the aborted request and any request it cut (activation, lifetime and fault tests).
  /^uncaught exception; exception = \S+ failed: broken\.\w+GateBroken; jsg\.Error: restart for the test/,
  // A service binding without a tenant, and RPC methods Trove does not have: the pool's wrapper
  // around the TroveService entrypoint reports the rejection it passes on, which workerd alone does
  // not (test/integration/service-binding.test.ts).
  /^uncaught exception; source = Uncaught \(in promise\); stack = (Error: trove: this service binding has |TypeError: The RPC receiver does not implement )/,
];

const filtered = Symbol.for("trove.expectedRuntimeLinesDropped");

/** Drops EXPECTED_RUNTIME_LINES from `stream` (the pool writes each workerd log in one call). */
function dropExpectedRuntimeLines(stream: NodeJS.WriteStream & { [filtered]?: true }): void {
  if (stream[filtered]) return;
  stream[filtered] = true;
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && EXPECTED_RUNTIME_LINES.some((line) => line.test(chunk))) {
      const done = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      done?.();
      return true;
    }
    return write(chunk, ...rest);
  }) as typeof stream.write;
}
dropExpectedRuntimeLines(process.stdout);
dropExpectedRuntimeLines(process.stderr);

/** Vite's warning about a dependency's packaging, not about our code. */
const DEPENDENCY_SOURCEMAP = /^Sourcemap for "[^"]*\/node_modules\/[^"]*" points to missing source files$/;

/** Drops DEPENDENCY_SOURCEMAP warnings (the logger is set per project, so each project adds this). */
function quietDependencySourcemaps(): Plugin {
  return {
    name: "trove:quiet-dependency-sourcemaps",
    configResolved(config) {
      const warnOnce = config.logger.warnOnce.bind(config.logger);
      config.logger.warnOnce = (message, options) => {
        if (!DEPENDENCY_SOURCEMAP.test(message)) warnOnce(message, options);
      };
    },
  };
}

/**
 * An auxiliary worker calling Trove over service bindings (test/fixtures/rpc-caller/, driven by
 * test/integration/service-binding.test.ts): it binds to the worker under test — which the pool
 * names after the project (getRunnerName reads only the project's name) — at its `TroveService`
 * entrypoint, once per tenant configuration a caller can have.
 */
function rpcCaller(project: string) {
  const trove = (props?: Record<string, unknown>) => ({
    name: getRunnerName({ name: project } as TestProject),
    entrypoint: "TroveService",
    ...(props ? { props } : {}),
  });
  return {
    name: "rpc-caller",
    modules: true,
    scriptPath: "./test/fixtures/rpc-caller/index.mjs",
    compatibilityDate: "2026-04-01",
    serviceBindings: {
      TROVE: trove({ tenant: "tenant-a" }),
      TROVE_B: trove({ tenant: "tenant-b" }),
      TROVE_NO_TENANT: trove(),
      TROVE_BAD_TENANT: trove({ tenant: "tenant-a/../tenant-b" }),
    },
  };
}

/**
 * Upstream MCP servers for the gateway's tests (test/fixtures/mcp-upstream/server.ts), built with
 * the official SDK: bundled here (the pool runs an auxiliary worker's script as it is), and the
 * worker under test's outbound fetches go to it, so the gateway reaches them by their https URLs.
 */
function mcpUpstream() {
  const outfile = "node_modules/.cache/trove/mcp-upstream.mjs";
  mkdirSync("node_modules/.cache/trove", { recursive: true });
  buildSync({
    entryPoints: ["test/fixtures/mcp-upstream/server.ts"],
    bundle: true,
    format: "esm",
    platform: "browser",
    conditions: ["workerd", "worker", "browser"],
    outfile,
    logLevel: "error",
  });
  return { name: "mcp-upstream", modules: true, scriptPath: outfile, compatibilityDate: "2026-04-01" };
}

export default defineConfig({
  plugins: [quietDependencySourcemaps()],
  test: {
    // Sessions write one JSON log line per event: show them only for tests that fail.
    silent: "passed-only",
    // Vitest's default, one test file per core but one, runs a 2-core machine's files one at a time,
    // while most of a file's time is spent in workerd or Chromium, other processes: two files at
    // once keep both cores busy (the suite on 2 cores: 12.5 → 9 minutes, every test passing).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        // Tests run inside workerd with real Durable Object SQLite. Keys here are test-only tenants.
        plugins: [
          quietDependencySourcemaps(),
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TROVE_API_KEYS: "tenant-a:key-a,tenant-b:key-b",
                TROVE_ALLOWED_ORIGINS: "https://console.example",
                // The tests' own hostname (https://trove.test/…), as an operator lists a deployed one.
                TROVE_HOSTNAMES: "trove.test",
                // Seals upstream headers in the gateway's tests (docs/gateway.md, "Secrets").
                TROVE_SECRETS_KEY: "test-only-secrets-key-0123456789abcdef",
              },
              serviceBindings: { RPC_CALLER: "rpc-caller", MCP_UPSTREAM: "mcp-upstream" },
              outboundService: "mcp-upstream",
              workers: [rpcCaller("workers"), mcpUpstream()],
            },
          }),
        ],
        test: {
          name: "workers",
          // test/long/** runs here too, with small run counts (no TROVE_LONG binding).
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/node/**"],
          testTimeout: 30_000,
        },
      },
      {
        // `npm run test:long`: the suites of test/long/ with TROVE_LONG set, which raises their run
        // counts (10,000 runs per property, hundreds of concurrent writers, many fault sequences).
        plugins: [
          quietDependencySourcemaps(),
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TROVE_API_KEYS: "tenant-a:key-a,tenant-b:key-b",
                TROVE_HOSTNAMES: "trove.test",
                TROVE_LONG: "1",
              },
            },
          }),
        ],
        test: {
          name: "long",
          include: ["test/long/**/*.test.ts"],
          testTimeout: 1_800_000,
          hookTimeout: 600_000,
        },
      },
      {
        // Tests run in Node against the worker started with Miniflare (test/node/worker.ts), some
        // through headless Chromium: found on this machine, else skipped with one line (required
        // when CI is set; test/node/browser.ts). Nothing here installs anything.
        plugins: [quietDependencySourcemaps()],
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/node/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
