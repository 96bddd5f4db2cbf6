// What a session has switched on: its attached packs (the Active Pack Set, Capability Packs spec
// §5.1) and the skills enabled with skill_enable (Nova ADR-014 §6). Both are sticky until undone.
import type { Sql } from "../db/sql";

export interface Attachment {
  pack: string;
  attached_at: number;
  tools_enabled_at: number | null;
}

export interface EnabledSkill {
  qid: string;
  enabled_at: number;
}

/** The catalog source of the tools a pack brings. */
export const packSource = (pack: string) => `pack:${pack}` as const;
/** The catalog source of the tools a skill brings. */
export const skillSource = (qid: string) => `skill:${qid}` as const;

export class AttachmentStore {
  constructor(private readonly sql: Sql) {}

  packs(): Attachment[] {
    return this.sql.all<Attachment>(
      `SELECT pack, attached_at, tools_enabled_at FROM trove_packs ORDER BY attached_at, pack`,
    );
  }

  pack(name: string): Attachment | undefined {
    return this.sql.one<Attachment>(
      `SELECT pack, attached_at, tools_enabled_at FROM trove_packs WHERE pack = ?`,
      name,
    );
  }

  /** Adds a pack to the Active Pack Set; false when it was there already. */
  attach(pack: string, now: number): boolean {
    return (
      this.sql.run(
        `INSERT INTO trove_packs (pack, attached_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
        pack,
        now,
      ).rowsWritten > 0
    );
  }

  /** Removes a pack from the Active Pack Set; false when it was not attached. */
  detach(pack: string): boolean {
    return this.sql.run(`DELETE FROM trove_packs WHERE pack = ?`, pack).rowsWritten > 0;
  }

  markToolsEnabled(pack: string, now: number): void {
    this.sql.run(`UPDATE trove_packs SET tools_enabled_at = ? WHERE pack = ?`, now, pack);
  }

  skills(): EnabledSkill[] {
    return this.sql.all<EnabledSkill>(
      `SELECT qid, enabled_at FROM trove_enabled_skills ORDER BY enabled_at, qid`,
    );
  }

  /** Enables a skill; false when it was enabled already. */
  enableSkill(qid: string, now: number): boolean {
    return (
      this.sql.run(
        `INSERT INTO trove_enabled_skills (qid, enabled_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
        qid,
        now,
      ).rowsWritten > 0
    );
  }

  /** Disables a skill; false when it was not enabled. */
  disableSkill(qid: string): boolean {
    return this.sql.run(`DELETE FROM trove_enabled_skills WHERE qid = ?`, qid).rowsWritten > 0;
  }
}
