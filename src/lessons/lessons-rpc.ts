// What crosses between sessions (and the worker's routes) and the tenant's LearnedSkillsObject.
import type { FeedbackSubmission, LessonSubmission } from "./lesson";
import type { IngestResult, LearnedPolicy, LessonStatus, LessonView, ServedLesson } from "./lesson-store";

export type {
  FeedbackSubmission,
  IngestResult,
  LearnedPolicy,
  LessonStatus,
  LessonSubmission,
  LessonView,
  ServedLesson,
};

/** The tenant's learned-skills object as sessions and the worker see it through a stub. */
export interface LearnedSkillsRpc extends Rpc.DurableObjectBranded {
  /** Takes a session's depersonalized lessons and feedback (sent after its responses). */
  ingest(lessons: LessonSubmission[], feedback: FeedbackSubmission[]): Promise<IngestResult>;
  /** Lessons a session of `project` may hold changed after `since`, with the tenant's policy. */
  changedSince(
    since: number,
    project: string,
  ): Promise<{ version: number; lessons: ServedLesson[]; more: boolean; policy: LearnedPolicy }>;
  list(
    status: LessonStatus | null,
    limit: number,
  ): Promise<{
    lessons: LessonView[];
    counts: Record<LessonStatus, number>;
    dropped: number;
    policy: LearnedPolicy;
  }>;
  get(name: string): Promise<LessonView | null>;
  review(name: string, status: "approved" | "rejected"): Promise<LessonView | null>;
  remove(name: string): Promise<boolean>;
  policy(): Promise<LearnedPolicy>;
  setPolicy(policy: LearnedPolicy): Promise<LearnedPolicy>;
}
