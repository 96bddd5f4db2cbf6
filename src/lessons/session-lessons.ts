// A session's side of learned skills (issue 31). Lessons and feedback from skill_learn and
// skill_feedback wait in trove_lesson_outbox and go to the tenant's LearnedSkillsObject after the
// response. The tenant's approved lessons are copied into the session's skills (origin "learned",
// qualified id learned/<name>) no more than REFRESH_MS out of date, as learned terms are
// (src/learning/session-learning.ts): a search reads only the session's own SQLite.
import type { Sql, SqlValue } from "../db/sql";
import type { BundledSkill } from "../packs/bundle";
import { canonicalJson, sha256Hex } from "../search/hash";
import { insertSkills, skillValues, updateSkills } from "../skills/pack-upsert";
import { skillSearchFields } from "../skills/skill-index";
import {
  DEFAULT_RANK,
  type FeedbackSubmission,
  type LessonSubmission,
  lessonWeight,
  type RankSettings,
} from "./lesson";
import type { LearnedPolicy, ServedLesson } from "./lesson-store";

/** A session copies the tenant's lessons up to this long after they changed. */
export const REFRESH_MS = 60_000;
/** Lessons one session may submit (skill_learn answers 429 beyond). */
export const LESSONS_PER_SESSION = 20;
/** Outbox entries sent at once. */
const SEND_BATCH = 100;

export const LEARNED_PACK = "learned";

/** What waits in the outbox, before the sender's address is added. */
export type QueuedLesson = Omit<LessonSubmission, "source">;
export type QueuedFeedback = Omit<FeedbackSubmission, "source">;

export class SessionLessons {
  /** The tenant's version the copy holds; kept in trove_meta, so a restart (every deploy) asks only for changes. */
  #version: number | null = null;
  #checkedAt = 0;
  /** More changes wait at the tenant: the next operation that serves skills asks again. */
  #more = false;
  #rank: RankSettings | null = null;
  #weights: Map<string, number> | null = null;
  #weightsAt = 0;
  #outbox: boolean | null = null;
  /** The project whose lessons the copy holds (trove_meta lessons_project), read once. */
  #project: string | null = null;

  constructor(private readonly sql: Sql) {}

  /** Lessons this session has submitted (its cap counts them). */
  submitted(): number {
    return Number(this.meta("lessons_submitted") ?? 0);
  }

  queueLesson(lesson: QueuedLesson): void {
    this.sql.run(
      `INSERT INTO trove_lesson_outbox (kind, payload) VALUES ('lesson', ?)`,
      JSON.stringify(lesson),
    );
    this.setMeta("lessons_submitted", String(this.submitted() + 1));
    this.#outbox = true;
  }

  queueFeedback(feedback: QueuedFeedback): void {
    this.sql.run(
      `INSERT INTO trove_lesson_outbox (kind, payload) VALUES ('feedback', ?)`,
      JSON.stringify(feedback),
    );
    this.#outbox = true;
  }

  hasPending(): boolean {
    this.#outbox ??= this.sql.one(`SELECT 1 AS x FROM trove_lesson_outbox LIMIT 1`) !== undefined;
    return this.#outbox;
  }

  /** The oldest queued entries, with the sender named by `source`. */
  pending(source: string): { last: number; lessons: LessonSubmission[]; feedback: FeedbackSubmission[] } {
    const rows = this.sql.all<{ id: number; kind: string; payload: string }>(
      `SELECT id, kind, payload FROM trove_lesson_outbox ORDER BY id LIMIT ?`,
      SEND_BATCH,
    );
    const lessons: LessonSubmission[] = [];
    const feedback: FeedbackSubmission[] = [];
    for (const row of rows) {
      const entry = { ...JSON.parse(row.payload), source };
      if (row.kind === "lesson") lessons.push(entry as LessonSubmission);
      else feedback.push(entry as FeedbackSubmission);
    }
    return { last: rows.at(-1)?.id ?? 0, lessons, feedback };
  }

  /** The tenant took everything up to `last`. */
  acknowledge(last: number): void {
    this.sql.run(`DELETE FROM trove_lesson_outbox WHERE id <= ?`, last);
    this.#outbox = null;
  }

  /** Whether the copy may be more than REFRESH_MS old, the tenant has more to send, or the project changed. */
  stale(now: number, project: string): boolean {
    if (project !== this.heldProject()) {
      this.#version = 0;
      return true;
    }
    return this.#more || now - this.#checkedAt >= REFRESH_MS;
  }

  private heldProject(): string {
    this.#project ??= this.meta("lessons_project") ?? "";
    return this.#project;
  }

  get version(): number {
    this.#version ??= Number(this.meta("lessons_version") ?? 0);
    return this.#version;
  }

  private setVersion(version: number): void {
    this.#version = version;
    if (version !== Number(this.meta("lessons_version") ?? 0))
      this.setMeta("lessons_version", String(version));
  }

  /** A failed refresh: try again in a while, serving what the session holds meanwhile. */
  retryLater(now: number): void {
    this.#more = false;
    this.#checkedAt = now - REFRESH_MS + 10_000;
  }

  /**
   * Brings the session's learned skills up to the tenant's changes: approved lessons above the
   * weight threshold are inserted or rewritten, others removed; with learning off, all are.
   * `allowed` is the session's skills policy. Returns the skills changed.
   */
  apply(
    changes: { version: number; lessons: readonly ServedLesson[]; more: boolean; policy: LearnedPolicy },
    allowed: (name: string, qid: string) => boolean,
    project: string,
    now: number,
  ): number {
    const { policy } = changes;
    // Another project's lessons are no longer this session's: they go before the new ones come.
    let cleared = 0;
    if (this.heldProject() !== project) {
      cleared = this.clear();
      this.setMeta("lessons_project", project);
      this.#project = project;
    }
    const rank = { half_life_days: policy.half_life_days, min_weight: policy.min_weight };
    // Stored only when it differs from what the session ranks with: a tenant that never learned writes nothing.
    if (canonicalJson(rank) !== canonicalJson(this.rank()))
      this.setMeta("lessons_rank", JSON.stringify(rank));
    this.#rank = rank;
    this.#checkedAt = now;
    this.#more = changes.more;
    this.#weights = null;
    if (policy.mode === "off") {
      this.setVersion(0);
      return cleared + this.clear();
    }
    const held = new Map(
      this.sql
        .all<{ id: number; qid: string; content_hash: string }>(
          `SELECT id, qid, content_hash FROM trove_skills WHERE qid IN (SELECT value FROM json_each(?))`,
          JSON.stringify(changes.lessons.map((l) => qidOf(l.name))),
        )
        .map((r) => [r.qid, r]),
    );
    const inserts: SqlValue[][] = [];
    const updates: SqlValue[][] = [];
    const removed: string[] = [];
    for (const lesson of changes.lessons) {
      const qid = qidOf(lesson.name);
      const row = held.get(qid);
      const keep = lesson.served && lessonWeight(lesson, this.#rank, now) >= this.#rank.min_weight;
      if (!keep) {
        if (row) removed.push(qid);
        continue;
      }
      this.sql.run(
        `INSERT INTO trove_learned (qid, task_type, helpful, harmful, confirmed_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (qid) DO UPDATE SET helpful = excluded.helpful, harmful = excluded.harmful,
           confirmed_at = excluded.confirmed_at
         WHERE (helpful, harmful, confirmed_at) IS NOT (excluded.helpful, excluded.harmful, excluded.confirmed_at)`,
        qid,
        lesson.task_type,
        lesson.helpful,
        lesson.harmful,
        lesson.confirmed_at,
      );
      const skill = lessonSkill(lesson);
      if (row?.content_hash === skill.content_hash) continue;
      const values = skillValues(
        skill,
        lesson.project === "" ? "tenant" : "project",
        skillSearchFields(skill),
        allowed(skill.name, skill.id),
      );
      if (row) updates.push([...values, row.id]);
      else inserts.push(values);
    }
    if (removed.length > 0) {
      const list = JSON.stringify(removed);
      this.sql.run(`DELETE FROM trove_skills WHERE qid IN (SELECT value FROM json_each(?))`, list);
      this.sql.run(`DELETE FROM trove_learned WHERE qid IN (SELECT value FROM json_each(?))`, list);
    }
    updateSkills(this.sql, updates);
    insertSkills(this.sql, inserts);
    this.setVersion(changes.version);
    return cleared + inserts.length + updates.length + removed.length;
  }

  /** Drops every learned skill the session holds; returns how many. */
  clear(): number {
    this.#weights = null;
    const { rowsWritten } = this.sql.run(`DELETE FROM trove_learned`);
    if (rowsWritten === 0) return 0;
    return this.sql.run(`DELETE FROM trove_skills WHERE origin = 'learned'`).rowsWritten;
  }

  /**
   * How much a skill's text match counts: 1 for a pack skill; for a lesson its weight now
   * (lessonWeight), 0 below the tenant's threshold. Weights are read once a minute.
   */
  weight(qid: string, now: number): number {
    if (!qid.startsWith(`${LEARNED_PACK}/`)) return 1;
    if (!this.#weights || now - this.#weightsAt >= REFRESH_MS) {
      const rank = this.rank();
      this.#weights = new Map(
        this.sql
          .all<{ qid: string; task_type: string; helpful: number; harmful: number; confirmed_at: number }>(
            `SELECT qid, task_type, helpful, harmful, confirmed_at FROM trove_learned`,
          )
          .map((r) => {
            const w = lessonWeight(r, rank, now);
            return [r.qid, w >= rank.min_weight ? w : 0];
          }),
      );
      this.#weightsAt = now;
    }
    return this.#weights.get(qid) ?? 0;
  }

  private rank(): RankSettings {
    if (this.#rank) return this.#rank;
    const stored = this.meta("lessons_rank");
    this.#rank = stored === null ? DEFAULT_RANK : (JSON.parse(stored) as RankSettings);
    return this.#rank;
  }

  /** The session's storage was erased. */
  reset(): void {
    this.#version = null;
    this.#project = null;
    this.#checkedAt = 0;
    this.#more = false;
    this.#rank = null;
    this.#weights = null;
    this.#outbox = null;
  }

  private meta(key: string): string | null {
    return this.sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = ?`, key)?.value ?? null;
  }

  private setMeta(key: string, value: string): void {
    this.sql.run(
      `INSERT INTO trove_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value
       WHERE value != excluded.value`,
      key,
      value,
    );
  }
}

const qidOf = (name: string) => `${LEARNED_PACK}/${name}`;

/** Tells the model an `avoid` lesson is a caution, not a way to do the task. */
export const CAUTION = "**Caution — a way that failed before. Do not do this:**";

/**
 * A lesson as a skill record: a `do` lesson reads as a playbook, an `avoid` lesson as a caution.
 * Its text is the depersonalized text the tenant holds; serving guards it like any skill's.
 */
export function lessonSkill(lesson: ServedLesson): BundledSkill {
  const avoid = lesson.kind === "avoid";
  const fields = {
    id: qidOf(lesson.name),
    name: lesson.name,
    pack: LEARNED_PACK,
    title: `${avoid ? "Caution: " : ""}${lesson.trigger.length > 100 ? `${lesson.trigger.slice(0, 99)}…` : lesson.trigger}`,
    description: lesson.trigger,
    trigger: lesson.trigger,
    task_type: lesson.task_type,
    tags: [LEARNED_PACK, lesson.kind],
    steps: [],
    body: avoid ? `${CAUTION}\n\n${lesson.body}` : lesson.body,
    preconditions: [],
    failure_modes: [],
    files: [],
    origin: "learned" as const,
    tools: [],
    source: LEARNED_PACK,
    extra: { kind: lesson.kind, tools: lesson.tools },
  };
  return { ...fields, content_hash: sha256Hex(canonicalJson(fields)) };
}
