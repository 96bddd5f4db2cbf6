// Bindings the worker and the session object receive (see wrangler.toml and .dev.vars.example).
import type { SessionObject } from "./session-object";

export interface Env {
  SESSIONS: DurableObjectNamespace<SessionObject>;
  /** Comma-separated `tenant:key` pairs; a secret in production, `.dev.vars` locally. */
  TROVE_API_KEYS?: string;
}
