import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Tests run inside workerd with real Durable Object SQLite. Keys here are test-only tenants.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { TROVE_API_KEYS: "tenant-a:key-a,tenant-b:key-b" },
      },
    }),
  ],
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // Sessions write one JSON log line per event: show them only for tests that fail.
    silent: "passed-only",
  },
});
