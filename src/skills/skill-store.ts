// The session's skills: lookup by name or qualified id, search, listing and use counts.
import type { Sql } from "../db/sql";
import { TroveError } from "../errors";
import type { BundledSkill } from "../packs/bundle";
import { globMatcher } from "../search/glob";
import { IndexVocabulary } from "../search/index-vocabulary";
import type { SessionConfig } from "../state/config";

export interface StoredSkill {
  skill: BundledSkill;
  scope: string;
  use_count: number;
  last_used: number | null;
}

interface SkillRow {
  record: string;
  scope: string;
  use_count: number;
  last_used: number | null;
}

const toStored = (r: SkillRow): StoredSkill => ({
  // Written by pack-upsert from a compiled, validated bundle.
  skill: JSON.parse(r.record) as BundledSkill,
  scope: r.scope,
  use_count: r.use_count,
  last_used: r.last_used,
});

/** The one answer for a skill that does not exist (or that this session may not see). */
export function unknownSkill(name: string, field = "name"): TroveError {
  return new TroveError("unknown_skill", 404, `no skill named "${name}" is available`, { field });
}

/** The session's skill permissions as a predicate over (name, qualified id); deny wins. */
export function skillPolicy(config: SessionConfig): (name: string, id: string) => boolean {
  const allow = globMatcher(config.policy.skills.allow);
  const deny = globMatcher(config.policy.skills.deny);
  return (name, id) => allow(name, id) && !deny(name, id);
}

/** A stored skill's keys: trove_skills has no index but its rowid, so names are found here. */
interface SkillKey {
  id: number;
  qid: string;
  name: string;
  allowed: boolean;
}

export class SkillStore extends IndexVocabulary {
  #size: number | null = null;
  #keys: { byQid: Map<string, SkillKey>; byName: Map<string, SkillKey[]> } | null = null;
  #weigh: (qid: string) => number = () => 1;

  constructor(sql: Sql) {
    super(sql, "trove_skills");
  }

  /** How learned skills weigh (src/lessons/session-lessons.ts); pack skills weigh 1. */
  weighWith(weigh: (qid: string) => number): void {
    this.#weigh = weigh;
  }

  /** How much a skill's text match counts in search; 0: it is not served (a lesson sunk below its tenant's threshold). */
  weight(qid: string): number {
    return this.#weigh(qid);
  }

  /** Forgets cached statistics and keys; call after the skills change. */
  override invalidate(): void {
    super.invalidate();
    this.#size = null;
    this.#keys = null;
  }

  /** Skills in the index: those the policy allows. */
  size(): number {
    this.#size ??=
      this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_skills WHERE allowed = 1`)?.n ?? 0;
    return this.#size;
  }

  /** Every stored skill's id, qualified id, name and policy flag, read once per change. */
  private keys() {
    if (this.#keys) return this.#keys;
    const byQid = new Map<string, SkillKey>();
    const byName = new Map<string, SkillKey[]>();
    for (const row of this.sql.all<{ id: number; qid: string; name: string; allowed: number }>(
      `SELECT id, qid, name, allowed FROM trove_skills ORDER BY qid`,
    )) {
      const key = { id: row.id, qid: row.qid, name: row.name, allowed: row.allowed === 1 };
      byQid.set(key.qid, key);
      const folded = key.name.toLowerCase();
      byName.set(folded, [...(byName.get(folded) ?? []), key]);
    }
    this.#keys = { byQid, byName };
    return this.#keys;
  }

  /** Row ids of the allowed skills with these qualified ids. */
  idsOf(qids: readonly string[]): number[] {
    const { byQid } = this.keys();
    return qids.flatMap((qid) => {
      const key = byQid.get(qid);
      return key?.allowed ? [key.id] : [];
    });
  }

  /**
   * Row ids of the allowed skills named `query` (case-insensitively) or whose qualified id is
   * `query`, in qualified-id order.
   */
  exactIds(query: string): number[] {
    const { byQid, byName } = this.keys();
    const keys = new Set(byName.get(query.toLowerCase()) ?? []);
    const byId = byQid.get(query);
    if (byId) keys.add(byId);
    return [...keys]
      .filter((k) => k.allowed)
      .sort((a, b) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0))
      .map((k) => k.id);
  }

  /**
   * A skill by qualified id (`pack/name`) or by plain name when that is unambiguous; an ambiguous
   * name is a 409 listing the candidates' ids.
   */
  resolve(nameOrId: string, field = "name"): StoredSkill {
    const { byName } = this.keys();
    const ids = nameOrId.includes("/")
      ? this.idsOf([nameOrId].filter((qid) => this.weight(qid) > 0))
      : (byName.get(nameOrId.toLowerCase()) ?? [])
          .filter((k) => k.allowed && this.weight(k.qid) > 0)
          .map((k) => k.id);
    const rows =
      ids.length === 0
        ? []
        : this.sql.all<SkillRow>(
            `SELECT record, scope, use_count, last_used FROM trove_skills
             WHERE id IN (SELECT value FROM json_each(?)) ORDER BY qid`,
            JSON.stringify(ids),
          );
    if (rows.length === 0) throw unknownSkill(nameOrId, field);
    if (rows.length > 1) {
      const candidates = rows.map((r) => (JSON.parse(r.record) as BundledSkill).id);
      throw new TroveError(
        "ambiguous_skill",
        409,
        `several skills are named "${nameOrId}": use a qualified id`,
        {
          field,
          candidates,
        },
      );
    }
    return toStored(rows[0] as SkillRow);
  }

  /**
   * Re-evaluates the skill policy for every stored skill (after a config change); writes only the
   * skills whose flag changes. A denied skill is hidden everywhere, as if it did not exist.
   */
  applyPolicy(allowed: (name: string, id: string) => boolean): number {
    const rows = this.sql.all<{ id: number; qid: string; name: string; allowed: number }>(
      `SELECT id, qid, name, allowed FROM trove_skills`,
    );
    const changes = rows.flatMap((r) => {
      const next = allowed(r.name, r.qid) ? 1 : 0;
      return next === r.allowed ? [] : [[r.id, next]];
    });
    if (changes.length === 0) return 0;
    this.invalidate();
    this.sql.run(
      `UPDATE trove_skills SET allowed = j.value->>1 FROM json_each(?) AS j WHERE trove_skills.id = j.value->>0`,
      JSON.stringify(changes),
    );
    return changes.length;
  }

  /** Records that skills were used (get, load, pre-flight): the directory ranks by it. */
  markUsed(qids: readonly string[], now: number): void {
    const ids = this.idsOf(qids);
    if (ids.length === 0) return;
    this.sql.run(
      `UPDATE trove_skills SET use_count = use_count + 1, last_used = ? WHERE id IN (SELECT value FROM json_each(?))`,
      now,
      JSON.stringify(ids),
    );
  }

  /** A page of skills, filtered (`name` exactly), ordered by pack then name. */
  list(
    filter: { task_type?: string; origin?: string; pack?: string; scope?: string; name?: string },
    page: number,
    pageSize: number,
  ) {
    const where = `allowed = 1 AND (?1 IS NULL OR task_type = ?1) AND (?2 IS NULL OR origin = ?2) AND (?3 IS NULL OR pack = ?3)
      AND (?4 IS NULL OR scope = ?4) AND (?5 IS NULL OR name = ?5)`;
    const args = [
      filter.task_type ?? null,
      filter.origin ?? null,
      filter.pack ?? null,
      filter.scope ?? null,
      filter.name ?? null,
    ];
    const total =
      this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_skills WHERE ${where}`, ...args)?.n ?? 0;
    const rows = this.sql.all<SkillRow>(
      `SELECT record, scope, use_count, last_used FROM trove_skills WHERE ${where} ORDER BY pack, name LIMIT ?6 OFFSET ?7`,
      ...args,
      pageSize,
      (page - 1) * pageSize,
    );
    return { total, skills: rows.map(toStored) };
  }
}
