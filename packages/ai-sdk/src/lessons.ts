// Learned skills from an AI SDK run (docs/learned-skills.md): submit what a finished run learned,
// and say whether the learned skills it used helped. Trove calls no model: your harness reflects on
// the run (with a model of its own, or rules) and hands the lesson over; Trove depersonalizes,
// merges, gates it behind review, and serves it to later sessions.
import type { OperationInput, OperationOutput, TroveSession } from "@trove/client";
import type { ModelMessage } from "ai";

/** Learned skills are named `learned.<task_type>.<hash>`. */
const LEARNED = /^learned\.[a-z][a-z0-9_]{0,31}\.[0-9a-f]{8}$/;

/** Trove's tools that fetch a skill by name, and the argument that names it. */
const FETCHES: Record<string, (input: Record<string, unknown>) => unknown[]> = {
  skill_get: (input) => (Array.isArray(input.names) ? input.names : []),
  skill_load: (input) => [input.name],
  skill_enable: (input) => [input.name],
};

/**
 * Names of the learned skills the run's model fetched (skill_get, skill_load, skill_enable calls in
 * the AI SDK's message history, e.g. `result.response.messages`), each once, in order.
 *
 * @example learnedSkillsUsed(result.response.messages) // ["learned.api.6f1c0a2e"]
 */
export function learnedSkillsUsed(messages: readonly ModelMessage[]): string[] {
  const used: string[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const part of message.content as { type?: string; toolName?: string; input?: unknown }[]) {
      const names = part.type === "tool-call" && part.toolName ? FETCHES[part.toolName] : undefined;
      if (!names || typeof part.input !== "object" || part.input === null) continue;
      for (const name of names(part.input as Record<string, unknown>))
        if (typeof name === "string" && LEARNED.test(name) && !used.includes(name)) used.push(name);
    }
  }
  return used;
}

/**
 * Submits a finished run's lesson (`skill_learn`). What Trove stores is in the answer: the trigger
 * and body after depersonalization, and the lesson's name.
 *
 * @example await submitLesson(session, { task_type: "api", trigger: "…", body: "…", outcome: "success", run_id })
 */
export function submitLesson(
  session: TroveSession,
  lesson: OperationInput<"skill_learn">,
): Promise<OperationOutput<"skill_learn">> {
  return session.skill_learn(lesson);
}

/**
 * Records whether the run helped: `helpful` or `harmful` for each learned skill it used (found with
 * learnedSkillsUsed in `messages`), once per run when `runId` is given. Returns the names sent.
 *
 * @example await submitFeedback(session, { messages: result.response.messages, verdict: "helpful", runId })
 */
export async function submitFeedback(
  session: TroveSession,
  options: { messages: readonly ModelMessage[]; verdict: "helpful" | "harmful"; runId?: string },
): Promise<string[]> {
  const names = learnedSkillsUsed(options.messages);
  for (const name of names) {
    await session.skill_feedback({
      name,
      verdict: options.verdict,
      ...(options.runId ? { run_id: options.runId } : {}),
    });
  }
  return names;
}
