// skill_search: the tool_search contract (RFC v0.3 §3.7) over the session's skills.
import type { Sql } from "../db/sql";
import type { SkillIndexFields } from "../packs/bundle";
import { type FtsIndex, ftsSearch } from "../search/fts-pipeline";
import { compileUserPattern, patternTests } from "../search/regex";
import { nameScore, REGEX_SCORE, rankComparator } from "../search/scoring";
import type { SkillStore } from "./skill-store";

export type SkillSearchType = "fts" | "regex" | "exact";

export interface SkillSearchRequest {
  query: string;
  search_type: SkillSearchType;
  limit: number;
  task_type?: string;
  /** Results below this relevance are left out (0: none). */
  min_relevance: number;
}

export interface SkillHit {
  name: string;
  id: string;
  title: string;
  trigger: string;
  task_type: string | null;
  /** `learned`: a lesson of the tenant's runs; `pack`: a bundled skill. */
  origin: "pack" | "learned";
  score: number;
  relevance: number;
}

interface Row {
  id: number;
  qid: string;
  name: string;
  pack: string;
  task_type: string | null;
  /** What a hit shows; full-text candidates leave it out (read for the hits alone). */
  title?: string;
  trigger?: string;
  description?: string;
}

type Scored = Row & { score: number; relevance: number };

const COLUMNS = "s.id, s.qid, s.name, s.pack, s.title, s.trigger, s.description, s.task_type";
const FTS_WEIGHTS = [10, 6, 4, 6, 3, 1] as const;
const CANDIDATES = 40;
// Candidates carry what ranks them; what a hit shows is read for the few hits afterwards.
const FTS_CANDIDATES = `
  SELECT s.id, s.qid, s.name, s.pack, s.task_type,
    s.f_name, s.f_title, s.f_tags, s.f_trigger, s.f_description, s.f_body
  FROM (SELECT rowid AS id, bm25(trove_skills_fts, ${FTS_WEIGHTS.join(", ")}) AS raw
        FROM trove_skills_fts WHERE trove_skills_fts MATCH ?1 ORDER BY raw LIMIT ?3) AS m
  CROSS JOIN trove_skills AS s ON s.id = m.id
  WHERE s.allowed = 1 AND (?2 IS NULL OR s.task_type = ?2)`;

const SKILL_INDEX: FtsIndex<Row, Row & SkillIndexFields> = {
  fields: (r) => [r.f_name, r.f_title, r.f_tags, r.f_trigger, r.f_description, r.f_body],
  rescoreFields: [
    { weight: 3, b: 0.3 }, // f_name
    { weight: 2, b: 0.3 }, // f_title
    { weight: 1.5, b: 0.3 }, // f_tags
    { weight: 2, b: 0.5 }, // f_trigger
    { weight: 1, b: 0.75 }, // f_description
    { weight: 0.4, b: 0.75 }, // f_body
  ],
  // Names repeat across packs: the qualified id is the identity, the pack the namespace.
  key: (r) => r.qid,
  rankable: (r) => ({ name: r.name, namespace: r.pack }),
  termOrder: "by-concept",
  exactAbove: "other-candidates",
};

export function searchSkills(sql: Sql, store: SkillStore, request: SkillSearchRequest): SkillHit[] {
  const typeFilter = request.task_type ?? null;
  const scored = candidates(sql, store, request, typeFilter);
  const order = rankComparator([]);
  // A learned skill below its tenant's threshold weighs 0 and is not found at all (FTS weighs the rest).
  const ranked = scored
    .filter((c) => store.weight(c.qid) > 0)
    .map((c) => ({ ...c, namespace: c.pack }))
    .sort(order)
    .filter((c) => c.relevance >= request.min_relevance)
    .slice(0, request.limit);
  const unread = ranked.filter((c) => c.title === undefined).map((c) => c.id);
  const shown = new Map(
    unread.length === 0
      ? []
      : sql
          .all<{ id: number; title: string; trigger: string }>(
            `SELECT id, title, trigger FROM trove_skills WHERE id IN (SELECT value FROM json_each(?))`,
            JSON.stringify(unread),
          )
          .map((r) => [r.id, r] as const),
  );
  return ranked.map((c) => ({
    name: c.name,
    id: c.qid,
    title: c.title ?? shown.get(c.id)?.title ?? "",
    trigger: c.trigger ?? shown.get(c.id)?.trigger ?? "",
    task_type: c.task_type,
    origin: c.pack === "learned" ? ("learned" as const) : ("pack" as const),
    score: c.score,
    relevance: c.relevance,
  }));
}

function candidates(
  sql: Sql,
  store: SkillStore,
  request: SkillSearchRequest,
  taskType: string | null,
): Scored[] {
  // The store finds the ids by name or qualified id in memory; rows are read by id.
  const exact = (query: string) => {
    const ids = store.exactIds(query.trim());
    if (ids.length === 0) return [];
    return sql.all<Row>(
      `SELECT ${COLUMNS} FROM trove_skills AS s
       WHERE s.id IN (SELECT value FROM json_each(?1)) AND (?2 IS NULL OR s.task_type = ?2) ORDER BY s.qid`,
      JSON.stringify(ids),
      taskType,
    );
  };
  switch (request.search_type) {
    case "exact":
      return exact(request.query).map((r) => ({ ...r, score: 1, relevance: 1 }));
    case "regex": {
      const re = compileUserPattern(request.query);
      const rows = sql.all<Required<Row>>(
        `SELECT ${COLUMNS} FROM trove_skills AS s WHERE s.allowed = 1 AND (?1 IS NULL OR s.task_type = ?1)`,
        taskType,
      );
      const tests = patternTests(re);
      return rows.flatMap((r) => {
        const score =
          nameScore(tests, r.name) ??
          (re.test(r.title) || re.test(r.trigger) || re.test(r.description) ? REGEX_SCORE.text : null);
        return score === null ? [] : [{ ...r, score, relevance: score }];
      });
    }
    case "fts":
      return fullText(sql, store, request, taskType, exact(request.query));
  }
}

function fullText(
  sql: Sql,
  store: SkillStore,
  request: SkillSearchRequest,
  taskType: string | null,
  exact: Row[],
): Scored[] {
  // A learned skill's text match counts by its record and age (src/lessons/lesson.ts lessonWeight).
  const index = { ...SKILL_INDEX, weight: (r: Row) => store.weight(r.qid) };
  return ftsSearch(index, {
    query: request.query,
    limit: request.limit,
    exact,
    preferredNamespaces: [],
    sessionNamespaces: new Set(),
    stats: store,
    candidates: (match) => sql.all<Row & SkillIndexFields>(FTS_CANDIDATES, match, taskType, CANDIDATES),
  }).map(({ row, score, relevance }) => ({ ...row, score, relevance }));
}
