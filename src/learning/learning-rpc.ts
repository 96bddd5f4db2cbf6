// What crosses between a session's object and its tenant's learning object (src/learning-object.ts).
import type { LearnedTool, LearnedUse, LearningSource, LearningState, ServedTool } from "./learning-store";

export type { LearnedTool, LearnedUse, LearningSource, LearningState, ServedTool };

/** The tenant's learning object as sessions and the worker see it through a stub. */
export interface LearningRpc extends Rpc.DurableObjectBranded {
  /** Merges one session's uses; returns how many were taken. */
  record(from: LearningSource, uses: LearnedUse[]): Promise<number>;
  /** Learned terms of tools changed after version `since`, and the version to ask from next. */
  changedSince(since: number): Promise<{ version: number; tools: ServedTool[] }>;
  state(): Promise<LearningState>;
  tool(name: string): Promise<LearnedTool | null>;
  /** Forgets everything (tool null) or one tool; returns the rows removed. */
  forget(tool: string | null): Promise<number>;
}
