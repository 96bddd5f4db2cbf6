// What the agent sends its model this turn (context), and what an operator inspects (state, events).
import { z } from "zod";
import { estimateJsonTokens, estimateTokens } from "../search/tokens";
import { formatSkills, skillDiscoveryBlock } from "../skills/budget";
import { redactToolNames } from "../skills/redact";
import { searchSkills } from "../skills/skill-search";
import { visibilityFor } from "../tools/policy";
import { toolDiscoveryBlock } from "../tools/prompt-blocks";
import { type RenderableTool, renderTool } from "../tools/render";
import { ApprovalView } from "./activation-ops";
import { BUILTIN_TOOLS } from "./builtins";
import type { OpContext } from "./context";
import { defineOp } from "./operation";
import { SessionView, sessionView } from "./session-ops";
import { renderDirectory } from "./skill-load-ops";
import { ToolFormat } from "./tool-ops";

const RunId = z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, "must match ^[A-Za-z0-9._:-]{1,128}$");

/** Builtins the policy allows, then allowed always-loaded and activated tools, by name. */
function visibleTools(ctx: OpContext, runId: string | null): RenderableTool[] {
  const visibility = visibilityFor(ctx.config.get());
  const builtins = BUILTIN_TOOLS.filter((t) => visibility.allowed(t.name, t.name));
  const catalog = ctx.catalog.visible(ctx.activations.activeNames(runId, ctx.now)).map((t) => ({
    ...t.record,
    providerName: t.provider_name,
    loading_mode: t.effective_mode,
  }));
  return [...builtins, ...catalog];
}

/**
 * The skill blocks of the system prompt: discovery guidance and the directory when the session
 * has skills, and with a query the most relevant skills within `skills.max_tokens` (pre-flight,
 * RFC v0.3 §3.8), which counts as using them.
 */
function skillBlocks(ctx: OpContext, query: string | undefined, searchVisible: boolean): string[] {
  const config = ctx.config.get().skills;
  if (!config.enabled || ctx.skills.size() === 0) return [];
  const blocks = [skillDiscoveryBlock(), renderDirectory(ctx).text];
  if (query?.trim()) {
    const hits = searchSkills(ctx.sql, ctx.skills, { query, search_type: "fts", limit: config.top_k });
    if (hits.length > 0) {
      const skills = hits.map((h) => ctx.skills.resolve(h.id).skill);
      const text = formatSkills(skills, config.max_tokens);
      blocks.push(`<relevant_skills>\n${text}\n</relevant_skills>`);
      ctx.skills.markUsed(
        skills.map((s) => s.id),
        ctx.now,
      );
      ctx.events.record("skills_retrieved", { query, ids: skills.map((s) => s.id) }, ctx.now);
    }
  }
  // Skill text must not name a tool the model may not use: such mentions point to tool_search
  // instead, or to nothing when tool_search itself is hidden.
  const hidden = hiddenToolNames(ctx, searchVisible);
  if (hidden.size === 0) return blocks;
  const replacement = searchVisible ? "a tool found with tool_search" : "another tool";
  return blocks.map((b) => redactToolNames(b, (t) => hidden.has(t), replacement));
}

/** Names (and qualified and provider names) of tools the policy denies, plus hidden builtins. */
function hiddenToolNames(ctx: OpContext, searchVisible: boolean): Set<string> {
  const rows = ctx.sql.all<{ name: string; qualified_name: string }>(
    `SELECT name, qualified_name FROM trove_tools WHERE allowed = 0`,
  );
  const hidden = new Set(rows.flatMap((r) => [r.name, r.qualified_name]));
  if (!searchVisible) hidden.add("tool_search");
  return hidden;
}

export const ContextOutput = z.object({
  format: ToolFormat,
  system: z.string().describe("Prompt blocks to add to the system prompt"),
  tools: z.array(z.record(z.string(), z.unknown())).describe("Visible tools in the provider's native shape"),
  name_map: z.record(z.string(), z.string()).describe("Name the model will call → Trove tool name"),
  deferred_count: z.number().int().describe("Allowed tools not listed, findable with tool_search"),
  token_estimate: z.object({ system: z.number().int(), tools: z.number().int(), total: z.number().int() }),
});

export const context = defineOp({
  name: "context",
  summary: "The prompt blocks and visible tools to send the model now, in its provider's format",
  input: z.strictObject({
    run_id: RunId.optional(),
    format: ToolFormat.default("json"),
    query: z
      .string()
      .max(2000)
      .optional()
      .describe("The user's request: adds the most relevant skills (pre-flight) within skills.max_tokens"),
  }),
  output: ContextOutput,
  handler(ctx, input) {
    const config = ctx.config.get();
    const tools = visibleTools(ctx, input.run_id ?? null);
    const listedDeferred = tools.filter((t) => t.loading_mode === "deferred").length;
    const deferredCount = Math.max(0, ctx.catalog.counts().deferred - listedDeferred);
    const rendered = tools.map((t) => renderTool(t, input.format, config.examples));
    const providerFacing = input.format === "anthropic" || input.format === "openai";
    // Without tool_search (a policy may deny it) there is nothing to tell the model about discovery.
    const blocks = [tools.some((t) => t.name === "tool_search") ? toolDiscoveryBlock(deferredCount) : ""];
    blocks.push(
      ...skillBlocks(
        ctx,
        input.query,
        tools.some((t) => t.name === "tool_search"),
      ),
    );
    const system = blocks.filter((b) => b !== "").join("\n\n");
    const systemTokens = estimateTokens(system);
    const toolTokens = estimateJsonTokens(rendered);
    return {
      format: input.format,
      system,
      tools: rendered,
      name_map: Object.fromEntries(tools.map((t) => [providerFacing ? t.providerName : t.name, t.name])),
      deferred_count: deferredCount,
      token_estimate: { system: systemTokens, tools: toolTokens, total: systemTokens + toolTokens },
    };
  },
});

export const state = defineOp({
  name: "state",
  summary: "Inspect the session: config, catalog, visible tools, activations, pending approvals",
  input: z.strictObject({ run_id: RunId.optional() }),
  output: SessionView.extend({
    visible: z.array(z.string()),
    activations: z.array(
      z.object({
        name: z.string(),
        scope: z.enum(["session", "run"]),
        run_id: z.string().nullable(),
        source: z.enum(["explicit", "first_use"]),
        reason: z.string().nullable(),
        at: z.string(),
        expires_at: z.string().nullable(),
      }),
    ),
    pending_approvals: z.array(ApprovalView),
  }),
  handler(ctx, input) {
    return {
      ...sessionView(ctx),
      visible: visibleTools(ctx, input.run_id ?? null).map((t) => t.name),
      activations: ctx.activations.list(ctx.now),
      pending_approvals: ctx.approvals.pending(),
    };
  },
});

export const events = defineOp({
  name: "events",
  summary: "The session's events, oldest first, after a cursor",
  input: z.strictObject({
    since: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Return events with a larger id (the previous next_cursor)"),
    limit: z.number().int().min(1).max(500).default(100),
  }),
  output: z.object({
    events: z.array(
      z.object({
        id: z.number().int(),
        type: z.string(),
        at: z.string(),
        data: z.record(z.string(), z.unknown()),
      }),
    ),
    next_cursor: z.number().int(),
  }),
  handler(ctx, input) {
    ctx.events.flush();
    return ctx.events.list(input.since, input.limit);
  },
});
