// The worker with bench-only objects for learned skills: the session of bench-worker.ts, and the
// tenant's learned-skills object with methods that seed and time ingestion in-object.

import { LearnedSkillsObject } from "../src/learned-skills-object";
import type { LessonSubmission } from "../src/lessons/lesson";

export { BenchSession, default } from "./bench-worker";

export class BenchLessons extends LearnedSkillsObject {
  /** Ingests lessons in batches (what many sessions' sends add up to); rows written and ms. */
  async seed(json: string): Promise<string> {
    const lessons = JSON.parse(json) as LessonSubmission[];
    const before = this.sql.stats.rowsWritten;
    const start = performance.now();
    for (let i = 0; i < lessons.length; i += 500) await this.ingest(lessons.slice(i, i + 500), []);
    return JSON.stringify({
      ms: performance.now() - start,
      rowsWritten: this.sql.stats.rowsWritten - before,
    });
  }

  /** Ingests each lesson alone, as one session's send of one lesson: its ms and rows written. */
  async timeEach(json: string): Promise<string> {
    const lessons = JSON.parse(json) as LessonSubmission[];
    const out: { ms: number; rowsWritten: number; merged: number }[] = [];
    for (const lesson of lessons) {
      const before = this.sql.stats.rowsWritten;
      const start = performance.now();
      const result = await this.ingest([lesson], []);
      out.push({
        ms: performance.now() - start,
        rowsWritten: this.sql.stats.rowsWritten - before,
        merged: result.merged,
      });
    }
    return JSON.stringify(out);
  }
}
