// The tenant's learned skills (issue 31), in its LearnedSkillsObject: lessons with their counters,
// lineage and review status, an FTS5 index over their normalized terms to find near-duplicates,
// per-source caps, and the versioned changes sessions copy. Every stored text was depersonalized by
// the session that sent it (src/learning/vocabulary.ts `depersonalize`); sources are salted hashes.
import type { Sql } from "../db/sql";
import { ftsMatchExpression } from "../search/fts-query";
import { sha256Hex } from "../search/hash";
import {
  DEFAULT_RANK,
  type FeedbackSubmission,
  type LessonSubmission,
  lessonTerms,
  type RankSettings,
  SIMILARITY,
  similarity,
  textQuality,
} from "./lesson";
import {
  type ItemRow,
  type LessonStatus,
  type LessonView,
  lessonView,
  SCHEMA,
  type ServedLesson,
  servedLesson,
  tombstone,
} from "./lesson-rows";

export type { LessonStatus, LessonView, ServedLesson };

export type LearnedMode = "off" | "review" | "auto";

/** The tenant's policy for learned skills (GET/PUT /v1/learned-skills/policy). */
export interface LearnedPolicy extends RankSettings {
  mode: LearnedMode;
}

export const DEFAULT_POLICY: LearnedPolicy = { mode: "review", ...DEFAULT_RANK };

/** Lessons one source (an end user, else a session) may submit per day; beyond it they are dropped. */
export const LESSONS_PER_SOURCE_PER_DAY = 50;
/** Lessons compared with a new one: the best FTS matches of its terms, same task type and place. */
const CANDIDATES = 30;
/** Terms a new lesson looks for near-duplicates by: its rarest among stored lessons. */
const RARE_TERMS = 6;
/** Terms of a new lesson whose frequency is looked up, trigger first (each lookup ≈ 40 µs at 10,000 lessons). */
const MAX_LOOKUPS = 24;
/** Lessons changedSince answers at once; a session asks again for the rest. */
const CHANGES_PAGE = 2_000;
const DAY_MS = 86_400_000;

/** What a batch from a session did. */
export interface IngestResult {
  added: number;
  merged: number;
  dropped: number;
  feedback: number;
}

export class LessonStore {
  constructor(private readonly sql: Sql) {}

  exists(): boolean {
    return this.sql.one(`SELECT 1 AS x FROM sqlite_master WHERE name = 'lesson_meta'`) !== undefined;
  }

  migrate(): void {
    for (const statement of SCHEMA) this.sql.run(statement);
    if (this.meta("salt") === null) this.setMeta("salt", crypto.randomUUID());
  }

  policy(): LearnedPolicy {
    const stored = this.meta("policy");
    return stored === null ? DEFAULT_POLICY : { ...DEFAULT_POLICY, ...(JSON.parse(stored) as LearnedPolicy) };
  }

  /** Sets the policy; a change of mode or ranking re-sends every lesson to sessions. */
  setPolicy(policy: LearnedPolicy): LearnedPolicy {
    this.setMeta("policy", JSON.stringify(policy));
    this.bump();
    return policy;
  }

  /** Takes a session's lessons and feedback, in order. */
  ingest(
    lessons: readonly LessonSubmission[],
    feedback: readonly FeedbackSubmission[],
    now: number,
  ): IngestResult {
    const result: IngestResult = { added: 0, merged: 0, dropped: 0, feedback: 0 };
    const mode = this.policy().mode;
    for (const lesson of lessons) {
      if (mode === "off" || !this.withinCap(lesson.source, lesson.at)) {
        result.dropped++;
        continue;
      }
      if (this.learn(lesson, mode, now) === "merged") result.merged++;
      else result.added++;
    }
    for (const f of feedback) if (this.feedback(f)) result.feedback++;
    this.addMeta("dropped", result.dropped);
    return result;
  }

  /** Counts a lesson against its source's daily cap; false when over. */
  private withinCap(source: string, at: number): boolean {
    const key = `${sha256Hex(`${this.meta("salt")}:${source}`).slice(0, 24)}:${Math.floor(at / DAY_MS)}`;
    const count =
      this.sql.one<{ count: number }>(`SELECT count FROM lesson_counters WHERE key = ?`, key)?.count ?? 0;
    if (count >= LESSONS_PER_SOURCE_PER_DAY) return false;
    this.sql.run(
      `INSERT INTO lesson_counters (key, count) VALUES (?, 1) ON CONFLICT (key) DO UPDATE SET count = count + 1`,
      key,
    );
    return true;
  }

  private learn(s: LessonSubmission, mode: LearnedMode, now: number): "added" | "merged" {
    const terms = lessonTerms(s.trigger, s.body);
    const candidates = this.candidates(s, terms);
    let best: { row: ItemRow; sim: number } | null = null;
    let opposite: { row: ItemRow; sim: number } | null = null;
    for (const row of candidates) {
      const sim = similarity(
        { terms, tools: s.tools },
        { terms: row.terms.split(" "), tools: JSON.parse(row.tools) },
      );
      if (row.kind === s.kind) {
        if (row.name === s.name || (sim >= SIMILARITY.MERGE_AT && (!best || sim > best.sim)))
          best = { row, sim: row.name === s.name ? 2 : sim };
      } else if (sim >= SIMILARITY.CONTRADICTS_AT && (!opposite || sim > opposite.sim))
        opposite = { row, sim };
    }
    const version = this.bump();
    if (best) {
      this.merge(best.row, s, terms, mode, version, now);
      return "merged";
    }
    const status: LessonStatus = mode === "auto" ? "approved" : "pending";
    const contradicts = s.kind === "avoid" && opposite ? opposite.row.name : null;
    const id = this.sql.one<{ id: number }>(
      `INSERT INTO lesson_items (name, task_type, kind, project, trigger, body, tools, terms, quality, status,
         submissions, successes, failures, helpful, harmful, contradicts, created_at, updated_at, confirmed_at, version)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, 0, 0, ?, ?, ?, ?, ?) RETURNING id`,
      s.name,
      s.task_type,
      s.kind,
      s.project,
      s.trigger,
      s.body,
      JSON.stringify(s.tools),
      terms.join(" "),
      textQuality(s),
      status,
      s.outcome === "success" ? 1 : 0,
      s.outcome === "failure" ? 1 : 0,
      contradicts,
      now,
      now,
      s.at,
      version,
    )?.id as number;
    this.sql.run(`INSERT INTO lesson_fts (rowid, terms) VALUES (?, ?)`, id, terms.join(" "));
    if (s.run_id) this.lineage(id, "run", s.run_id, now);
    // A `do` that an earlier `avoid` contradicts gets linked from it, as the other way round.
    if (s.kind === "avoid" && opposite) this.lineage(opposite.row.id, "contradicted_by", s.name, now);
    if (s.kind === "do" && opposite && opposite.row.contradicts === null) {
      this.sql.run(
        `UPDATE lesson_items SET contradicts = ?, version = ? WHERE id = ?`,
        s.name,
        version,
        opposite.row.id,
      );
      this.lineage(id, "contradicted_by", opposite.row.name, now);
    }
    return "added";
  }

  /**
   * Lessons that may say what `s` says: same task type and project, the best FTS matches of its
   * RARE_TERMS rarest terms. A near-duplicate shares most of its terms, so it shares its rare ones;
   * common terms would only make the match rank thousands of lessons.
   */
  private candidates(s: LessonSubmission, terms: readonly string[]): ItemRow[] {
    const exact = this.sql.all<ItemRow>(`SELECT * FROM lesson_items WHERE name = ?`, s.name);
    // One lookup per term: fts5vocab seeks an equal term, but would read every term for an IN list.
    const df = new Map<string, number>();
    for (const term of [...new Set(terms)].slice(0, MAX_LOOKUPS)) {
      const doc = this.sql.one<{ doc: number }>(`SELECT doc FROM lesson_vocab WHERE term = ?`, term)?.doc;
      if (doc) df.set(term, doc);
    }
    const rare = [...df.keys()].sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0) || (a < b ? -1 : 1));
    const match = ftsMatchExpression(rare.slice(0, RARE_TERMS));
    if (match === null) return exact;
    const found = this.sql.all<ItemRow>(
      `SELECT i.* FROM (SELECT rowid AS id, rank FROM lesson_fts WHERE lesson_fts MATCH ?1 ORDER BY rank LIMIT ?4) AS m
       CROSS JOIN lesson_items AS i ON i.id = m.id
       WHERE i.task_type = ?2 AND i.project = ?3`,
      match,
      s.task_type,
      s.project,
      CANDIDATES,
    );
    return [...exact, ...found.filter((r) => r.name !== s.name)];
  }

  /**
   * A near-duplicate: counters add, the better text stays (textQuality), lineage grows. In review
   * mode a lesson whose text changed is pending again: an operator approves what a model reads.
   */
  private merge(
    row: ItemRow,
    s: LessonSubmission,
    terms: string[],
    mode: LearnedMode,
    version: number,
    now: number,
  ): void {
    const better = textQuality(s) > row.quality;
    const status: LessonStatus =
      better && mode === "review" && row.status === "approved" ? "pending" : row.status;
    this.sql.run(
      `UPDATE lesson_items SET submissions = submissions + 1, successes = successes + ?, failures = failures + ?,
         confirmed_at = max(confirmed_at, ?), updated_at = ?, version = ?, status = ? WHERE id = ?`,
      s.outcome === "success" ? 1 : 0,
      s.outcome === "failure" ? 1 : 0,
      s.at,
      now,
      version,
      status,
      row.id,
    );
    if (better) {
      this.sql.run(
        `INSERT INTO lesson_fts (lesson_fts, rowid, terms) VALUES ('delete', ?, ?)`,
        row.id,
        row.terms,
      );
      this.sql.run(
        `UPDATE lesson_items SET trigger = ?, body = ?, tools = ?, terms = ?, quality = ? WHERE id = ?`,
        s.trigger,
        s.body,
        JSON.stringify(s.tools),
        terms.join(" "),
        textQuality(s),
        row.id,
      );
      this.sql.run(`INSERT INTO lesson_fts (rowid, terms) VALUES (?, ?)`, row.id, terms.join(" "));
    }
    if (s.name !== row.name) this.lineage(row.id, "merged_from", s.name, now);
    if (s.run_id) this.lineage(row.id, "run", s.run_id, now);
  }

  /** Feedback on a lesson; a run (or, without one, a source) counts once per lesson. */
  private feedback(f: FeedbackSubmission): boolean {
    const row = this.sql.one<{ id: number }>(
      `SELECT id FROM lesson_items WHERE name = ? AND status = 'approved' AND (project = '' OR project = ?)`,
      f.name,
      f.project,
    );
    if (!row) return false;
    const ref = f.run_id
      ? `run:${f.run_id}`
      : `source:${sha256Hex(`${this.meta("salt")}:${f.source}`).slice(0, 24)}`;
    const { rowsWritten } = this.sql.run(
      `INSERT INTO lesson_lineage (lesson, kind, ref, at) VALUES (?, 'feedback', ?, ?) ON CONFLICT DO NOTHING`,
      row.id,
      ref,
      f.at,
    );
    if (rowsWritten === 0) return false;
    const helpful = f.verdict === "helpful" ? 1 : 0;
    this.sql.run(
      `UPDATE lesson_items SET helpful = helpful + ?, harmful = harmful + ?, version = ?,
         confirmed_at = CASE WHEN ? = 1 THEN max(confirmed_at, ?) ELSE confirmed_at END WHERE id = ?`,
      helpful,
      1 - helpful,
      this.bump(),
      helpful,
      f.at,
      row.id,
    );
    return true;
  }

  private lineage(lesson: number, kind: string, ref: string, at: number): void {
    this.sql.run(
      `INSERT INTO lesson_lineage (lesson, kind, ref, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      lesson,
      kind,
      ref,
      at,
    );
  }

  /** Approves or rejects a lesson; null when there is none of that name. */
  review(name: string, status: "approved" | "rejected", now: number): LessonView | null {
    const row = this.sql.one<{ status: LessonStatus }>(
      `SELECT status FROM lesson_items WHERE name = ?`,
      name,
    );
    if (!row) return null;
    if (row.status !== status)
      this.sql.run(
        `UPDATE lesson_items SET status = ?, updated_at = ?, version = ? WHERE name = ?`,
        status,
        now,
        this.bump(),
        name,
      );
    return this.get(name);
  }

  /**
   * Deletes a lesson and what it holds. Sessions learn it is gone through a tombstone: the name,
   * with no text, kept at a new version.
   */
  remove(name: string): boolean {
    const row = this.sql.one<{ id: number; terms: string }>(
      `SELECT id, terms FROM lesson_items WHERE name = ?`,
      name,
    );
    if (!row) return false;
    this.sql.run(
      `INSERT INTO lesson_fts (lesson_fts, rowid, terms) VALUES ('delete', ?, ?)`,
      row.id,
      row.terms,
    );
    this.sql.run(`DELETE FROM lesson_items WHERE id = ?`, row.id);
    this.sql.run(
      `INSERT INTO lesson_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      `deleted:${name}`,
      String(this.bump()),
    );
    return true;
  }

  /** Lessons changed after `since` that a session of `project` may hold, and the version to ask from next. */
  changedSince(
    since: number,
    project: string,
  ): { version: number; lessons: ServedLesson[]; more: boolean; policy: LearnedPolicy } {
    const policy = this.policy();
    const rows = this.sql.all<ItemRow>(
      `SELECT * FROM lesson_items WHERE version > ? AND (project = '' OR project = ?) ORDER BY version LIMIT ?`,
      since,
      project,
      CHANGES_PAGE + 1,
    );
    const more = rows.length > CHANGES_PAGE;
    const page = rows.slice(0, CHANGES_PAGE);
    const current = Number(this.meta("version") ?? 0);
    const version = more ? (page.at(-1)?.version ?? since) : current;
    const lessons = page.map((r) => servedLesson(r, r.status === "approved" && policy.mode !== "off"));
    // Deleted lessons since then, as tombstones.
    for (const d of this.sql.all<{ key: string }>(
      `SELECT key FROM lesson_meta WHERE key LIKE 'deleted:%' AND CAST(value AS INTEGER) > ? AND CAST(value AS INTEGER) <= ?`,
      since,
      version,
    )) {
      const name = d.key.slice("deleted:".length);
      if (page.some((r) => r.name === name)) continue;
      lessons.push(tombstone(name, project));
    }
    return { version, lessons, more, policy };
  }

  get(name: string): LessonView | null {
    const row = this.sql.one<ItemRow>(`SELECT * FROM lesson_items WHERE name = ?`, name);
    return row ? this.view(row) : null;
  }

  /** Lessons for operators, pending first then newest, with counts by status. */
  list(
    status: LessonStatus | null,
    limit: number,
  ): { lessons: LessonView[]; counts: Record<LessonStatus, number>; dropped: number } {
    const counts = { pending: 0, approved: 0, rejected: 0 };
    for (const c of this.sql.all<{ status: LessonStatus; n: number }>(
      `SELECT status, count(*) AS n FROM lesson_items GROUP BY status`,
    ))
      counts[c.status] = c.n;
    const rows = this.sql.all<ItemRow>(
      `SELECT * FROM lesson_items WHERE (?1 IS NULL OR status = ?1)
       ORDER BY status = 'pending' DESC, updated_at DESC, id DESC LIMIT ?2`,
      status,
      limit,
    );
    return { lessons: rows.map((r) => this.view(r)), counts, dropped: Number(this.meta("dropped") ?? 0) };
  }

  private view(r: ItemRow): LessonView {
    const lineage = this.sql.all<{ kind: string; ref: string }>(
      `SELECT kind, ref FROM lesson_lineage WHERE lesson = ? ORDER BY at, ref`,
      r.id,
    );
    return lessonView(r, lineage);
  }

  /** A new version number for a change. */
  private bump(): number {
    const version = Number(this.meta("version") ?? 0) + 1;
    this.setMeta("version", String(version));
    return version;
  }

  private addMeta(key: string, n: number): void {
    if (n > 0) this.setMeta(key, String(Number(this.meta(key) ?? 0) + n));
  }

  private meta(key: string): string | null {
    return this.sql.one<{ value: string }>(`SELECT value FROM lesson_meta WHERE key = ?`, key)?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql.run(
      `INSERT INTO lesson_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      value,
    );
  }
}
