// Index text written under another normalization no longer matches what queries become: a deploy
// that changes stopwords, synonyms or the stemmer would leave "news" indexed as it used to read.
// A session re-normalizes its tools and skills from their stored records once, on its first start
// under the new version (`indexTextVersion`); a published catalog does the same for its rows.

import type { Sql } from "../db/sql";
import { SYNCED_TOOL_COLUMNS } from "../db/tool-columns";
import type { BundledSkill } from "../packs/bundle";
import { indexTextVersion } from "../search/text";
import { skillSearchFields } from "../skills/skill-index";
import { toolSearchFields } from "../tools/tool-index";
import type { NormalizedTool } from "../tools/tool-record";

/** A tool row's search fields: every `f_` column but learned text, which a refresh re-applies. */
const TOOL_FIELDS = SYNCED_TOOL_COLUMNS.filter(
  (c): c is Extract<(typeof SYNCED_TOOL_COLUMNS)[number], `f_${string}`> => c.startsWith("f_"),
);
const SKILL_FIELDS = ["f_name", "f_title", "f_tags", "f_trigger", "f_description", "f_body"] as const;

/** Rows whose index text changed, by table; null when the index was already current. */
export interface Renormalized {
  tools: number;
  skills: number;
}

/**
 * Brings a session's index text to the running normalization: rows written under another version
 * (or before versions were kept) get their search fields recomputed from their records, and only
 * rows whose text differs are written (the FTS triggers move them in the index). Learned text needs
 * nothing here: the session's first refresh after a start re-applies it under the new version.
 */
export function renormalizeSession(sql: Sql): Renormalized | null {
  const current = indexTextVersion();
  const stored = sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'index_text'`)?.value;
  if (stored === current) return null;
  const tools = rewrite(sql, "trove_tools", TOOL_FIELDS, (record) =>
    toolSearchFields(JSON.parse(record) as NormalizedTool),
  );
  const skills = rewrite(sql, "trove_skills", SKILL_FIELDS, (record) =>
    skillSearchFields(JSON.parse(record) as BundledSkill),
  );
  sql.run(
    `INSERT INTO trove_meta (key, value) VALUES ('index_text', ?)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    current,
  );
  return { tools, skills };
}

function rewrite<F extends string>(
  sql: Sql,
  table: string,
  fields: readonly F[],
  compute: (record: string) => Record<F, string>,
): number {
  const rows = sql.all<Record<F, string> & { id: number; record: string }>(
    `SELECT id, record, ${fields.join(", ")} FROM ${table}`,
  );
  const update = `UPDATE ${table} SET (${fields.join(", ")}) = (${fields.map(() => "?").join(", ")}) WHERE id = ?`;
  let changed = 0;
  for (const row of rows) {
    const next = compute(row.record);
    if (fields.every((f) => next[f] === row[f])) continue;
    sql.run(update, ...fields.map((f) => next[f]), row.id);
    changed++;
  }
  return changed;
}
