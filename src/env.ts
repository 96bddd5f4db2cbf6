// Bindings the worker and the session object receive (see wrangler.toml and .dev.vars.example).
import type { SessionRpc } from "./ops/dispatch";

export interface Env {
  /** One object per `{tenant}/{sid}` (src/session-object.ts). */
  SESSIONS: DurableObjectNamespace<SessionRpc>;
  /** Comma-separated `tenant:key` pairs; a secret in production, `.dev.vars` locally. */
  TROVE_API_KEYS?: string;
}
