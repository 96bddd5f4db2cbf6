// What crosses between a session's object and its tenant's learning object (src/learning-object.ts).
import type { LearnedPair, LearnedTool, LearningState } from "./learning-store";

export type { LearnedPair, LearnedTool, LearningState };

/** The tenant's learning object as sessions and the worker see it through a stub. */
export interface LearningRpc extends Rpc.DurableObjectBranded {
  /** Merges one session's pairs; returns how many were new. */
  record(session: string, pairs: LearnedPair[]): Promise<number>;
  /** Learned texts changed after version `since`, and the version to ask from next. */
  changedSince(since: number): Promise<{ version: number; tools: { tool: string; text: string }[] }>;
  state(): Promise<LearningState>;
  tool(name: string): Promise<LearnedTool | null>;
  /** Forgets everything (tool null) or one tool; returns the pairs removed. */
  forget(tool: string | null): Promise<number>;
}
