// Which deferred tools are activated, for the whole session or for one run (RFC v0.3 §1.7–1.8).
import type { Sql } from "../db/sql";
import { TroveError } from "../errors";

export type ActivationScope = "session" | "run";
export type ActivationSource = "explicit" | "first_use";

export interface Activation {
  name: string;
  scope: ActivationScope;
  run_id: string | null;
  source: ActivationSource;
  reason: string | null;
  at: string;
  expires_at: string | null;
}

interface ActivationRow {
  tool_name: string;
  run_id: string;
  scope: ActivationScope;
  source: ActivationSource;
  reason: string | null;
  at: number;
  expires_at: number | null;
}

/** Where an activation applies: `run_id` '' stands for the whole session. */
export interface ActivationTarget {
  scope: ActivationScope;
  runId: string;
  expiresAt: number | null;
}

/**
 * Where an activation made now applies. A session configured for run scope refuses to activate
 * without a run_id (fail closed, RFC v0.3 §1.8).
 */
export function activationTarget(
  scope: ActivationScope,
  runId: string | undefined,
  runTtlSeconds: number,
  now: number,
): ActivationTarget {
  if (scope === "session") return { scope, runId: "", expiresAt: null };
  if (!runId) {
    throw new TroveError("run_id_required", 400, "this session activates tools per run: send run_id", {
      field: "run_id",
    }).withEvent("tool_activation_denied", { reason: "run_id_required" });
  }
  return { scope, runId, expiresAt: now + runTtlSeconds * 1000 };
}

export class ActivationStore {
  /** namespacesUsed, kept until a failed or erased request may have undone a write (invalidate). */
  #namespaces: Set<string> | null = null;

  constructor(private readonly sql: Sql) {}

  /** Storage changed under the store (a rolled-back transaction, an erase): read it again. */
  invalidate(): void {
    this.#namespaces = null;
  }

  /** Activates `name` for the target; false when it already was (nothing written). */
  activate(
    name: string,
    target: ActivationTarget,
    source: ActivationSource,
    reason: string | null,
    now: number,
  ): boolean {
    const existing = this.sql.one<{ expires_at: number | null }>(
      `SELECT expires_at FROM trove_activations WHERE tool_name = ? AND run_id = ?`,
      name,
      target.runId,
    );
    if (existing && (existing.expires_at === null || existing.expires_at > now)) return false;
    this.sql.run(
      `INSERT INTO trove_activations (tool_name, run_id, scope, source, reason, at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tool_name, run_id) DO UPDATE SET scope = excluded.scope, source = excluded.source,
         reason = excluded.reason, at = excluded.at, expires_at = excluded.expires_at`,
      name,
      target.runId,
      target.scope,
      source,
      reason,
      now,
      target.expiresAt,
    );
    return true;
  }

  /** Removes the activation for the target; false when there was none. */
  deactivate(name: string, runId: string): boolean {
    return (
      this.sql.run(`DELETE FROM trove_activations WHERE tool_name = ? AND run_id = ?`, name, runId)
        .rowsWritten > 0
    );
  }

  /** Tool names active for a request: session-wide ones plus those of its run, unexpired. */
  activeNames(runId: string | null, now: number): Set<string> {
    const rows = this.sql.all<{ tool_name: string }>(
      `SELECT tool_name FROM trove_activations
       WHERE (run_id = '' OR run_id = ?) AND (expires_at IS NULL OR expires_at > ?)`,
      runId ?? "",
      now,
    );
    return new Set(rows.map((r) => r.tool_name));
  }

  /** Every unexpired activation of a tool the policy allows (`allows`), for `state`. */
  list(now: number, allows: (name: string) => boolean): Activation[] {
    return this.sql
      .all<ActivationRow>(
        `SELECT tool_name, run_id, scope, source, reason, at, expires_at FROM trove_activations
         WHERE expires_at IS NULL OR expires_at > ? ORDER BY at, tool_name`,
        now,
      )
      .filter((r) => allows(r.tool_name))
      .map((r) => ({
        name: r.tool_name,
        scope: r.scope,
        run_id: r.run_id === "" ? null : r.run_id,
        source: r.source,
        reason: r.reason,
        at: new Date(r.at).toISOString(),
        expires_at: r.expires_at === null ? null : new Date(r.expires_at).toISOString(),
      }));
  }

  /**
   * Notes that the session activated or used a tool of `namespace` (one row the first time, nothing
   * after): such namespaces win among comparable search matches (SESSION_BOOST).
   */
  noteNamespace(namespace: string, now: number): void {
    if (namespace === "" || this.namespacesUsed().has(namespace)) return;
    this.sql.run(
      `INSERT INTO trove_namespaces_used (namespace, at) VALUES (?, ?) ON CONFLICT (namespace) DO NOTHING`,
      namespace,
      now,
    );
    this.#namespaces?.add(namespace);
  }

  /**
   * The namespaces this session activated or used tools of. Every search reads them, so they are
   * read from SQLite once and then kept in step with noteNamespace.
   */
  namespacesUsed(): ReadonlySet<string> {
    this.#namespaces ??= new Set(
      this.sql
        .all<{ namespace: string }>(`SELECT namespace FROM trove_namespaces_used`)
        .map((r) => r.namespace),
    );
    return this.#namespaces;
  }

  /** Deletes expired run activations; returns the earliest expiry still ahead, if any. */
  pruneExpired(now: number): number | null {
    this.sql.run(`DELETE FROM trove_activations WHERE expires_at IS NOT NULL AND expires_at <= ?`, now);
    return (
      this.sql.one<{ next: number | null }>(`SELECT min(expires_at) AS next FROM trove_activations`)?.next ??
      null
    );
  }
}
