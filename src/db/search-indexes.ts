// The full-text indexes of a session's tools and skills, as the migrations create them
// (src/db/migrations.ts): each an FTS5 table over a view of the allowed rows, kept in step by triggers.
import type { Sql } from "./sql";

/**
 * A combining mark belongs to its word: a Thai or Hindi word ("สร้าง", "खोज") is one token, not
 * pieces split at its vowel signs, and Latin accents are folded ("créer" is "creer"), as
 * src/search/words.ts reads text. Every migration creates the indexes with it; before version 16
 * they were created with `'unicode61 remove_diacritics 2'`, which split words at their marks, and
 * migration 16 rebuilds a store's indexes made so.
 */
const TOKENIZER = `"unicode61 remove_diacritics 2 categories 'L* N* Co M*'"`;

const cols = (prefix: string, list: string) =>
  list
    .split(", ")
    .map((c) => `${prefix}.${c}`)
    .join(", ");

/**
 * The tools' FTS5 index over the tools the policy allows, and the triggers that keep it in step.
 * The index covers only allowed tools (its content is a view of them), so ranking statistics such
 * as IDF never depend on denied tools: they are indistinguishable from absent ones.
 */
export const toolIndex = (columns: string) => [
  `CREATE VIEW trove_tools_searchable AS
        SELECT id, ${columns} FROM trove_tools WHERE allowed = 1`,
  `CREATE VIRTUAL TABLE trove_tools_fts USING fts5(${columns},
        content='trove_tools_searchable', content_rowid='id', tokenize=${TOKENIZER})`,
  `CREATE VIRTUAL TABLE trove_tools_vocab USING fts5vocab(trove_tools_fts, 'row')`,
  `CREATE TRIGGER trove_tools_fts_insert AFTER INSERT ON trove_tools WHEN new.allowed = 1 BEGIN
        INSERT INTO trove_tools_fts (rowid, ${columns}) VALUES (new.id, ${cols("new", columns)});
      END`,
  `CREATE TRIGGER trove_tools_fts_delete AFTER DELETE ON trove_tools WHEN old.allowed = 1 BEGIN
        INSERT INTO trove_tools_fts (trove_tools_fts, rowid, ${columns})
          VALUES ('delete', old.id, ${cols("old", columns)});
      END`,
  `CREATE TRIGGER trove_tools_fts_update AFTER UPDATE OF allowed, ${columns} ON trove_tools BEGIN
        INSERT INTO trove_tools_fts (trove_tools_fts, rowid, ${columns})
          SELECT 'delete', old.id, ${cols("old", columns)} WHERE old.allowed = 1;
        INSERT INTO trove_tools_fts (rowid, ${columns}) SELECT new.id, ${cols("new", columns)} WHERE new.allowed = 1;
      END`,
];

export const SKILL_FTS_COLUMNS = "f_name, f_title, f_tags, f_trigger, f_description, f_body";

/**
 * The skills' FTS5 index over allowed skills and the triggers that keep it in step. As for tools:
 * the index covers allowed skills only, so a denied skill shapes no score.
 */
export const skillIndex = () => [
  `CREATE VIEW trove_skills_searchable AS SELECT id, ${SKILL_FTS_COLUMNS} FROM trove_skills WHERE allowed = 1`,
  `CREATE VIRTUAL TABLE trove_skills_fts USING fts5(${SKILL_FTS_COLUMNS},
        content='trove_skills_searchable', content_rowid='id', tokenize=${TOKENIZER})`,
  `CREATE VIRTUAL TABLE trove_skills_vocab USING fts5vocab(trove_skills_fts, 'row')`,
  `CREATE TRIGGER trove_skills_fts_insert AFTER INSERT ON trove_skills WHEN new.allowed = 1 BEGIN
        INSERT INTO trove_skills_fts (rowid, ${SKILL_FTS_COLUMNS}) VALUES (new.id, ${cols("new", SKILL_FTS_COLUMNS)});
      END`,
  `CREATE TRIGGER trove_skills_fts_delete AFTER DELETE ON trove_skills WHEN old.allowed = 1 BEGIN
        INSERT INTO trove_skills_fts (trove_skills_fts, rowid, ${SKILL_FTS_COLUMNS})
          VALUES ('delete', old.id, ${cols("old", SKILL_FTS_COLUMNS)});
      END`,
  `CREATE TRIGGER trove_skills_fts_update AFTER UPDATE OF allowed, ${SKILL_FTS_COLUMNS} ON trove_skills BEGIN
        INSERT INTO trove_skills_fts (trove_skills_fts, rowid, ${SKILL_FTS_COLUMNS})
          SELECT 'delete', old.id, ${cols("old", SKILL_FTS_COLUMNS)} WHERE old.allowed = 1;
        INSERT INTO trove_skills_fts (rowid, ${SKILL_FTS_COLUMNS})
          SELECT new.id, ${cols("new", SKILL_FTS_COLUMNS)} WHERE new.allowed = 1;
      END`,
];

/** Whether this store's indexes were created with TOKENIZER (migration 16 rebuilds them otherwise). */
export function indexesKeepMarks(sql: Sql): boolean {
  const index = sql.one<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE name = 'trove_tools_fts'`);
  return index?.sql.includes(TOKENIZER) ?? false;
}
