// Bindings the worker and the session object receive (see wrangler.toml and .dev.vars.example).
import type { DataPointSink } from "./analytics/analytics-engine";
import type { AnalyticsRpc } from "./analytics/analytics-rpc";
import type { UpstreamRpc } from "./gateway/upstream-rpc";
import type { LearningRpc } from "./learning/learning-rpc";
import type { LearnedSkillsRpc } from "./lessons/lessons-rpc";
import type { SessionRpc } from "./ops/dispatch";
import type { CatalogListRpc, CatalogRpc } from "./published/catalog-rpc";

export interface Env {
  /** One object per `{tenant}/{sid}` (src/session-object.ts). */
  SESSIONS: DurableObjectNamespace<SessionRpc>;
  /** One object per tenant: what its sessions taught the ranking (src/learning-object.ts). */
  LEARNING: DurableObjectNamespace<LearningRpc>;
  /** One object per tenant: lessons its runs submitted, reviewed and served (src/learned-skills-object.ts). */
  LEARNED_SKILLS: DurableObjectNamespace<LearnedSkillsRpc>;
  /** One object per `{tenant}/{name}`: a catalog the tenant published (src/catalog-object.ts). */
  CATALOGS: DurableObjectNamespace<CatalogRpc>;
  /** One object per tenant: the list of its published catalogs. */
  CATALOG_LISTS: DurableObjectNamespace<CatalogListRpc>;
  /** One object per tenant: daily counts of what its sessions did (src/analytics-object.ts). */
  ANALYTICS: DurableObjectNamespace<AnalyticsRpc>;
  /** Optional Workers Analytics Engine dataset: each analytics batch is also written there (docs/console.md). */
  ANALYTICS_ENGINE?: DataPointSink;
  /** One object per tenant: its upstream MCP servers and gateway profile (src/upstream-object.ts). */
  UPSTREAMS: DurableObjectNamespace<UpstreamRpc>;
  /**
   * A secret (any long random string) from which the keys sealing upstream headers are derived
   * (src/gateway/secrets.ts). Without it, upstreams that need headers are refused.
   */
  TROVE_SECRETS_KEY?: string;
  /** "1" lets upstream URLs be plain http to loopback (local development only, docs/gateway.md). */
  TROVE_GATEWAY_DEV?: string;
  /** Comma-separated `tenant:key` pairs; a secret in production, `.dev.vars` locally. */
  TROVE_API_KEYS?: string;
  /**
   * Comma-separated hostnames the deployed service answers to (`trove.example.com,trove.acme.workers.dev`);
   * localhost, 127.0.0.1 and [::1] are always served. Any other `Host` is refused (DNS rebinding).
   */
  TROVE_HOSTNAMES?: string;
  /** Comma-separated origins (besides the worker's own) whose pages may call the MCP endpoint. */
  TROVE_ALLOWED_ORIGINS?: string;
}
