// When what `context` would send outgrows the provider or the session's budget, it still answers,
// and says what to drop (Capability Packs spec §10): the packs, skills and activations whose tools
// cost the most, just enough of them to get back under the limit.
import { z } from "zod";
import type { ToolFormat } from "../tools/render";

/**
 * Documented tool-count limits: OpenAI accepts at most 128 functions per request, through Chat
 * Completions and Responses alike. Anthropic documents no count for loaded tools (its 10,000
 * deferred tools per request is MAX_TOOLS, which a session never exceeds).
 */
export const PROVIDER_MAX_TOOLS: Partial<Record<ToolFormat, { provider: string; max: number }>> = {
  openai: { provider: "OpenAI", max: 128 },
  openai_responses: { provider: "OpenAI", max: 128 },
};

const Droppable = z.object({
  kind: z.enum(["pack", "skill", "activation"]),
  id: z.string().describe("pack_detach / skill_disable / tool_deactivate this"),
  tools: z.number().int().describe("Tools it lists"),
  tokens: z.number().int().describe("Estimated tokens of those tools' definitions"),
});
export type Droppable = z.infer<typeof Droppable>;

export const ContextWarning = z.object({
  code: z.enum(["too_many_tools", "over_token_budget"]),
  message: z.string(),
  limit: z.number().int(),
  actual: z.number().int(),
  drop: z.array(Droppable).describe("Biggest first; dropping all of them gets under the limit when possible"),
});
export type ContextWarning = z.infer<typeof ContextWarning>;

/** The largest contributors by `measure` until their sum covers `excess` (all of them if it never does). */
function pick(contributors: readonly Droppable[], measure: "tools" | "tokens", excess: number): Droppable[] {
  const sorted = [...contributors].sort((a, b) => b[measure] - a[measure] || a.id.localeCompare(b.id));
  const out: Droppable[] = [];
  let covered = 0;
  for (const c of sorted) {
    if (covered >= excess) break;
    out.push(c);
    covered += c[measure];
  }
  return out;
}

export function contextWarnings(input: {
  format: ToolFormat;
  toolCount: number;
  totalTokens: number;
  maxTokens: number | null;
  contributors: readonly Droppable[];
}): ContextWarning[] {
  const warnings: ContextWarning[] = [];
  const limit = PROVIDER_MAX_TOOLS[input.format];
  if (limit !== undefined && input.toolCount > limit.max) {
    warnings.push({
      code: "too_many_tools",
      message: `${input.toolCount} tools are visible but ${limit.provider} accepts at most ${limit.max} per request`,
      limit: limit.max,
      actual: input.toolCount,
      drop: pick(input.contributors, "tools", input.toolCount - limit.max),
    });
  }
  if (input.maxTokens !== null && input.totalTokens > input.maxTokens) {
    warnings.push({
      code: "over_token_budget",
      message: `context is about ${input.totalTokens} tokens, over the session's budget of ${input.maxTokens}`,
      limit: input.maxTokens,
      actual: input.totalTokens,
      drop: pick(input.contributors, "tokens", input.totalTokens - input.maxTokens),
    });
  }
  return warnings;
}
