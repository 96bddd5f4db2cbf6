// The type of `env` from cloudflare:test: the worker's own bindings (src/env.ts), so tests write
// `env.X` without a cast. Pool 0.14 types that `env` as `Cloudflare.Env`, which a project extends
// by redeclaring it (@cloudflare/workers-types); tsconfig.json includes test/. To reach inside a
// session's object, use sessionStub (test/support/session.ts).
import type { Env as TroveEnv } from "../../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends TroveEnv {
      /** Set by the `long` project only (vitest.config.mts): raises the long suites' run counts. */
      TROVE_LONG?: string;
      /**
       * Set by the `workers` project only (vitest.config.mts): a worker that calls Trove over service
       * bindings (test/fixtures/rpc-caller/), for test/integration/service-binding.test.ts.
       */
      RPC_CALLER?: Fetcher;
    }
  }
}
