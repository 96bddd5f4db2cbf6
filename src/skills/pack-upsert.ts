// Loads the bundled packs this session may see into its skill store, by content hash.
import { jsonChunks, type Sql, type SqlValue } from "../db/sql";
import type { Bundle, BundledPack, BundledSkill, SkillIndexFields } from "../packs/bundle";
import { canonicalJson } from "../search/hash";
import { skillSearchFields } from "./skill-index";

export interface PackLoad {
  pack_name: string;
  skill_count: number;
  updated_count: number;
}

/** Packs visible to a tenant and project: enabled, and global or scoped to exactly them. */
export function visiblePacks(bundle: Bundle, tenant: string, projectId: string | null): BundledPack[] {
  return bundle.packs.filter(
    (p) =>
      p.enabled &&
      (p.scope === "global" ||
        (p.scope === "tenant" && p.tenant_id === tenant) ||
        (p.scope === "project" &&
          p.tenant_id === tenant &&
          p.project_id !== null &&
          p.project_id === projectId)),
  );
}

const COLUMNS = `qid, name, pack, title, description, trigger, task_type, tags, origin, scope, record, content_hash,
  f_name, f_title, f_tags, f_trigger, f_description, f_body, allowed`;
const SEARCH_COLUMNS = "f_name, f_title, f_tags, f_trigger, f_description, f_body";
const INSERT = `INSERT INTO trove_skills (${COLUMNS}) VALUES (${Array(19).fill("?").join(", ")})`;
const UPDATE = `UPDATE trove_skills SET (${COLUMNS}) = (${Array(19).fill("?").join(", ")}) WHERE id = ?20`;

/**
 * Inserts skills and indexes them. One prepared statement per row, then a single FTS insert for
 * all of them: measured ~2× faster for a new session than one `json_each` statement with the
 * index kept by a per-row trigger (the insert trigger was dropped in migration 5 for this).
 */
export function insertSkills(sql: Sql, rows: readonly SqlValue[][]): void {
  if (rows.length === 0) return;
  // Rowids are max + 1: every row inserted now has an id above the current largest.
  const before = sql.one<{ id: number | null }>(`SELECT max(id) AS id FROM trove_skills`)?.id ?? 0;
  for (const row of rows) sql.run(INSERT, ...row);
  sql.run(
    `INSERT INTO trove_skills_fts (rowid, ${SEARCH_COLUMNS})
     SELECT id, ${SEARCH_COLUMNS} FROM trove_skills WHERE id > ? AND allowed = 1`,
    before,
  );
}

/** A skill as a trove_skills row (COLUMNS' order). */
export function skillValues(
  skill: BundledSkill,
  scope: string,
  f: SkillIndexFields,
  allowed: boolean,
): SqlValue[] {
  return [
    skill.id,
    skill.name,
    skill.pack,
    skill.title,
    skill.description,
    skill.trigger,
    skill.task_type,
    JSON.stringify(skill.tags),
    skill.origin,
    scope,
    JSON.stringify(skill),
    skill.content_hash,
    f.f_name,
    f.f_title,
    f.f_tags,
    f.f_trigger,
    f.f_description,
    f.f_body,
    allowed ? 1 : 0,
  ];
}

/** Rewrites stored skills: each row is skillValues and the row id; the update trigger moves them in the index. */
export function updateSkills(sql: Sql, rows: readonly SqlValue[][]): void {
  for (const row of rows) sql.run(UPDATE, ...row);
}

/**
 * Brings the store in line with the bundle for this tenant and project. When the bundle, tenant
 * and project are the ones loaded last, this is one SELECT. Otherwise, in the caller's transaction:
 * new skills are inserted, changed ones updated (when their pack allows), skills no longer bundled
 * or visible removed; nothing else is touched. Returns the packs that changed, except on a
 * session's first load (a new session loading the bundle is not news; a deploy that changes the
 * packs of a live session is).
 */
export function loadPacks(
  sql: Sql,
  bundle: Bundle,
  tenant: string,
  projectId: string | null,
  allowed: (name: string, id: string) => boolean,
): PackLoad[] | null {
  const key = canonicalJson([bundle.hash, tenant, projectId]);
  const loaded = sql.one<{ value: string }>(
    `SELECT value FROM trove_meta WHERE key = 'skills_loaded'`,
  )?.value;
  if (loaded === key) return null;

  const packs = new Map(visiblePacks(bundle, tenant, projectId).map((p) => [p.name, p]));
  const skills = bundle.skills.filter((s) => packs.has(s.pack));
  const stored = new Map(
    sql
      .all<{ id: number; qid: string; content_hash: string }>(
        `SELECT id, qid, content_hash FROM trove_skills WHERE origin != 'learned'`,
      )
      .map((r) => [r.qid, r]),
  );
  const inserts: SqlValue[][] = [];
  const updates: SqlValue[][] = [];
  const counts = new Map<string, PackLoad>();
  const count = (pack: string) => {
    const c = counts.get(pack) ?? { pack_name: pack, skill_count: 0, updated_count: 0 };
    counts.set(pack, c);
    return c;
  };
  for (const skill of skills) {
    const pack = packs.get(skill.pack) as BundledPack;
    count(skill.pack).skill_count++;
    const row = stored.get(skill.id);
    const previous = row?.content_hash;
    if (previous === skill.content_hash) continue;
    if (previous !== undefined && !pack.update_existing) continue;
    if (previous !== undefined) count(skill.pack).updated_count++;
    const f = bundle.index?.[skill.id] ?? skillSearchFields(skill);
    const values = skillValues(skill, pack.scope, f, allowed(skill.name, skill.id));
    if (row === undefined) inserts.push(values);
    else updates.push([...values, row.id]);
  }
  const bundled = new Set(skills.map((s) => s.id));
  const removed = [...stored.values()].filter((r) => !bundled.has(r.qid)).map((r) => r.id);
  for (const chunk of jsonChunks(removed)) {
    sql.run(`DELETE FROM trove_skills WHERE id IN (SELECT value FROM json_each(?))`, chunk);
  }
  updateSkills(sql, updates);
  insertSkills(sql, inserts);
  sql.run(
    `INSERT INTO trove_meta (key, value) VALUES ('skills_loaded', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    key,
  );
  if (loaded === undefined) return [];
  const changedPacks = new Set([...inserts, ...updates].map((r) => r[2] as string));
  return [...counts.values()].filter((c) => changedPacks.has(c.pack_name));
}
