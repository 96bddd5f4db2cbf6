// Pending tool invocations that need a person's decision, and what was decided.
import type { Sql } from "../db/sql";
import { TroveError } from "../errors";
import { canonicalJson } from "../search/hash";

export type ApprovalStatus = "pending" | "approved" | "denied" | "used";

export interface Approval {
  approval_id: string;
  name: string;
  args: Record<string, unknown> | null;
  run_id: string | null;
  status: ApprovalStatus;
  requested_at: string;
  decided_at: string | null;
  decided_by: string | null;
  note: string | null;
}

interface ApprovalRow {
  id: string;
  tool_name: string;
  args: string | null;
  run_id: string | null;
  status: ApprovalStatus;
  requested_at: number;
  decided_at: number | null;
  decided_by: string | null;
  note: string | null;
}

const COLUMNS = "id, tool_name, args, run_id, status, requested_at, decided_at, decided_by, note";

const unknownApproval = () =>
  new TroveError("unknown_approval", 404, "no such approval", { field: "approval_id" });

export class ApprovalStore {
  constructor(private readonly sql: Sql) {}

  request(name: string, args: Record<string, unknown> | null, runId: string | null, now: number): Approval {
    const id = `apr_${crypto.randomUUID().replaceAll("-", "")}`;
    this.sql.run(
      `INSERT INTO trove_approvals (id, tool_name, args, run_id, status, requested_at) VALUES (?, ?, ?, ?, 'pending', ?)`,
      id,
      name,
      args === null ? null : canonicalJson(args),
      runId,
      now,
    );
    return this.get(id) as Approval;
  }

  get(id: string): Approval | undefined {
    const row = this.sql.one<ApprovalRow>(`SELECT ${COLUMNS} FROM trove_approvals WHERE id = ?`, id);
    return row ? toApproval(row) : undefined;
  }

  decide(
    id: string,
    decision: "approve" | "deny",
    by: string | null,
    note: string | null,
    now: number,
    allows: (name: string) => boolean,
  ): Approval {
    const current = this.get(id);
    // An approval for a tool the policy no longer allows answers like one that never existed.
    if (!current || !allows(current.name)) throw unknownApproval();
    if (current.status !== "pending") {
      throw new TroveError("approval_already_decided", 409, `this approval is already ${current.status}`, {
        field: "approval_id",
        status: current.status,
      });
    }
    this.sql.run(
      `UPDATE trove_approvals SET status = ?, decided_at = ?, decided_by = ?, note = ? WHERE id = ?`,
      decision === "approve" ? "approved" : "denied",
      now,
      by,
      note,
      id,
    );
    return this.get(id) as Approval;
  }

  /**
   * Spends an approval on a call: it must be for this tool, these exact args and this run, and
   * approved. An approval allows one call.
   */
  consume(id: string, name: string, args: Record<string, unknown> | null, runId: string | null): Approval {
    const current = this.get(id);
    const sameCall =
      current &&
      current.name === name &&
      (current.run_id ?? null) === (runId ?? null) &&
      canonicalJson(current.args) === canonicalJson(args);
    if (!current || !sameCall) throw unknownApproval();
    if (current.status === "denied") {
      throw new TroveError("approval_denied", 403, "this call was denied", { field: "approval_id" });
    }
    if (current.status === "used") {
      throw new TroveError("approval_used", 409, "this approval was already used for a call", {
        field: "approval_id",
      });
    }
    if (current.status === "approved")
      this.sql.run(`UPDATE trove_approvals SET status = 'used' WHERE id = ?`, id);
    return current;
  }

  /** Pending approvals of tools the policy still allows (`allows`). */
  pending(allows: (name: string) => boolean): Approval[] {
    return this.sql
      .all<ApprovalRow>(
        `SELECT ${COLUMNS} FROM trove_approvals WHERE status = 'pending' ORDER BY requested_at, id`,
      )
      .filter((row) => allows(row.tool_name))
      .map(toApproval);
  }
}

function toApproval(row: ApprovalRow): Approval {
  return {
    approval_id: row.id,
    name: row.tool_name,
    args: row.args === null ? null : (JSON.parse(row.args) as Record<string, unknown>),
    run_id: row.run_id,
    status: row.status,
    requested_at: new Date(row.requested_at).toISOString(),
    decided_at: row.decided_at === null ? null : new Date(row.decided_at).toISOString(),
    decided_by: row.decided_by,
    note: row.note,
  };
}
