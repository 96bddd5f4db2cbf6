import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Sessions write one JSON log line per event: show them only for tests that fail.
    silent: "passed-only",
    projects: [
      {
        // Tests run inside workerd with real Durable Object SQLite. Keys here are test-only tenants.
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { TROVE_API_KEYS: "tenant-a:key-a,tenant-b:key-b" },
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
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: { TROVE_API_KEYS: "tenant-a:key-a,tenant-b:key-b", TROVE_LONG: "1" },
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
        // through headless chromium (installed by the setup when missing).
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
