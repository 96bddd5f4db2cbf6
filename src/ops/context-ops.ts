// What the agent sends its model this turn (context), and what an operator inspects (state, events).
import { z } from "zod";
import { packSource, skillSource } from "../packs/attachments";
import { Id as RunId, ToolFormat } from "../schemas";
import { estimateJsonTokens, estimateTokens } from "../search/tokens";
import { formatSkills, skillDiscoveryBlock } from "../skills/budget";
import { searchSkills } from "../skills/skill-search";
import { packsBlock, toolDiscoveryBlock } from "../tools/prompt-blocks";
import { type RenderableTool, renderClientToolSearch, renderTool } from "../tools/render";
import { ApprovalView } from "./activation-ops";
import { attachablePacks } from "./brought-tools";
import { builtinTools } from "./builtins";
import { ContextWarning, contextWarnings, type Droppable } from "./context-warnings";
import { SYNC_CREATE_ISSUE, SYNCED_CREATE_ISSUE } from "./examples";
import type { OpContext } from "./operation";
import { defineOp } from "./operation";
import { packMetadata } from "./pack-ops";
import { SessionView, sessionView } from "./session-ops";
import { renderDirectory } from "./skill-load-ops";
import { TextGuard } from "./text-guard";

interface Visible {
  tool: RenderableTool;
  /** What listed it: a builtin, the agent's catalog (always loaded or activated), a pack, a skill. */
  source: string;
}

/** Builtins the policy allows, then allowed always-loaded and activated tools, by name. */
function visibleTools(ctx: OpContext, runId: string | null): Visible[] {
  const builtins = builtinTools(ctx).map((tool) => ({ tool, source: "builtin" }));
  const catalog = ctx.catalog.visible(ctx.activations.activeNames(runId, ctx.now)).map((t) => ({
    tool: { ...t.record, providerName: t.provider_name, loading_mode: t.effective_mode },
    source: t.source,
  }));
  return [...builtins, ...catalog];
}

/**
 * Every allowed catalog tool `visible` does not list: with `defer_loading`, the provider gets them
 * all (marked deferred) so that any tool tool_search returns is a tool of the request (Anthropic's
 * tool_reference must name one; OpenAI's tool_search_output loads what the request declared).
 */
function deferredTools(ctx: OpContext, visible: readonly Visible[]): RenderableTool[] {
  const listed = new Set(visible.map((v) => v.tool.name));
  // `catalog.visible` reads allowed tools only: a denied one is never listed, deferred or not.
  const all = ctx.catalog.visible(new Set(ctx.catalog.entries().map((e) => e.name)));
  return all
    .filter((t) => !listed.has(t.name))
    .map((t) => ({ ...t.record, providerName: t.provider_name, loading_mode: t.effective_mode }));
}

/** What could be dropped to shrink the tool list: packs, skills and activated tools. */
function contributors(visible: readonly Visible[], rendered: readonly unknown[]): Droppable[] {
  const by = new Map<string, Droppable>();
  visible.forEach(({ tool, source }, i) => {
    const [kind, id] = source.startsWith("pack:")
      ? (["pack", source.slice(5)] as const)
      : source.startsWith("skill:")
        ? (["skill", source.slice(6)] as const)
        : (source === "agent" || source.startsWith("catalog:")) && tool.loading_mode === "deferred"
          ? (["activation", tool.name] as const)
          : [];
    if (!kind) return;
    const key = `${kind}:${id}`;
    const entry = by.get(key) ?? { kind, id, tools: 0, tokens: 0 };
    entry.tools++;
    entry.tokens += estimateJsonTokens(rendered[i]);
    by.set(key, entry);
  });
  return [...by.values()];
}

/**
 * The skill blocks of the system prompt: discovery guidance and the directory when the session
 * has skills, and with a query the most relevant skills within `skills.max_tokens` (pre-flight,
 * RFC v0.3 §3.8), which counts as using them. Skill text is guarded: it names no tool the
 * session may not use and carries no personal data.
 */
function skillBlocks(ctx: OpContext, guard: TextGuard, query: string | undefined): string[] {
  const config = ctx.config.get().skills;
  if (!config.enabled || ctx.skills.size() === 0) return [];
  const blocks = [guard.text(skillDiscoveryBlock()), renderDirectory(ctx).text];
  if (query?.trim()) {
    const hits = searchSkills(ctx.sql, ctx.skills, {
      query,
      search_type: "fts",
      limit: config.top_k,
      min_relevance: 0,
    });
    if (hits.length > 0) {
      const skills = hits.map((h) => ctx.skills.resolve(h.id).skill);
      const text = formatSkills(
        skills.map((s) => guard.skill(s)),
        config.max_tokens,
      );
      blocks.push(`<relevant_skills>\n${text}\n</relevant_skills>`);
      // Injecting skills counts as using them — once per change of the injected set, so a
      // conversation that keeps asking about the same thing writes nothing turn after turn.
      const ids = skills.map((s) => s.id);
      if (ctx.events.deferChange("skills_retrieved", ids.join("\n"), { query, ids }, ctx.now))
        ctx.skills.markUsed(ids, ctx.now);
    }
  }
  return blocks;
}

/** The formats whose APIs hold tools back until a search loads them. */
const DEFERRING_FORMATS: ReadonlySet<string> = new Set(["anthropic", "openai_responses"]);

export const ContextOutput = z.object({
  format: ToolFormat,
  system: z.string().describe("Prompt blocks to add to the system prompt"),
  tools: z
    .array(z.record(z.string(), z.unknown()))
    .describe(
      "Visible tools in the provider's native shape; with defer_loading, then every other allowed tool marked defer_loading: true",
    ),
  name_map: z.record(z.string(), z.string()).describe("Name the model will call → Trove tool name"),
  deferred_count: z
    .number()
    .int()
    .describe(
      "Allowed tools not loaded up front, findable with tool_search (with defer_loading they are listed, marked defer_loading: true)",
    ),
  token_estimate: z
    .object({ system: z.number().int(), tools: z.number().int(), total: z.number().int() })
    .describe(
      "What the model loads up front: tools marked defer_loading: true are not counted (with openai_responses, " +
        "their names and descriptions are)",
    ),
  warnings: z
    .array(ContextWarning)
    .describe("Over the provider's tool limit or the session's token budget: what to drop"),
});

export const context = defineOp({
  name: "context",
  summary: "The prompt blocks and visible tools to send the model now, in its provider's format",
  tag: "tools",
  writes: false,
  servesSkills: true,
  input: z
    .strictObject({
      run_id: RunId.optional(),
      format: ToolFormat.default("json"),
      query: z
        .string()
        .max(2000)
        .optional()
        .describe("The user's request: adds the most relevant skills (pre-flight) within skills.max_tokens"),
      defer_loading: z
        .boolean()
        .default(false)
        .describe(
          "With format anthropic or openai_responses: also list every other allowed tool with " +
            "defer_loading: true, so that every tool tool_search returns is a tool of the request; with " +
            'openai_responses, tool_search is listed as the client-executed tool_search tool (execution "client")',
        ),
    })
    .superRefine((input, issue) => {
      if (input.defer_loading && !DEFERRING_FORMATS.has(input.format)) {
        issue.addIssue({
          code: "custom",
          path: ["defer_loading"],
          message: "defer_loading needs format anthropic or openai_responses (the APIs with tool search)",
        });
      }
    }),
  output: ContextOutput,
  errors: ["run_id_required"],
  example: {
    before: [
      {
        op: "catalog_sync",
        input: {
          tools: [{ name: "github.create_issue", description: "Create an issue in a GitHub repository" }],
        },
      },
    ],
    input: { format: "anthropic", defer_loading: true },
    output: {
      system: "<tool_discovery>…</tool_discovery>",
      tools: [
        {
          name: "tool_search",
          description: "Find tools that are available but not listed yet. …",
          input_schema: { type: "object" },
        },
        {
          name: "github_create_issue",
          description: "Create an issue in a GitHub repository",
          input_schema: { type: "object", properties: {} },
          defer_loading: true,
        },
      ],
      name_map: { tool_search: "tool_search", github_create_issue: "github.create_issue" },
      format: "anthropic",
      deferred_count: 1,
      token_estimate: { system: 120, tools: 150, total: 270 },
      warnings: [],
    },
  },
  handler(ctx, input) {
    const config = ctx.config.get();
    const visible = visibleTools(ctx, input.run_id ?? null);
    const tools = visible.map((v) => v.tool);
    const listedDeferred = tools.filter((t) => t.loading_mode === "deferred").length;
    const deferredCount = Math.max(0, ctx.catalog.counts().deferred - listedDeferred);
    const searchListed = tools.some((t) => t.name === "tool_search");
    // OpenAI Responses: Trove's tool_search is the client-executed tool search tool, whose calls
    // come back as tool_search_call items (docs/providers.md).
    const clientSearch = input.defer_loading && input.format === "openai_responses";
    const rendered = tools.map((t) =>
      clientSearch && t.name === "tool_search"
        ? renderClientToolSearch(t)
        : renderTool(t, input.format, config.examples),
    );
    // Anthropic refuses a request whose tools are all deferred ("At least one tool must have
    // defer_loading=false"), so with nothing loaded up front nothing is listed deferred either.
    // OpenAI loads deferred tools only through its tool_search tool: without it, none is listed.
    const canDefer = input.format === "openai_responses" ? searchListed : tools.length > 0;
    const deferred = input.defer_loading && canDefer ? deferredTools(ctx, visible) : [];
    const renderedDeferred = deferred.map((t) => ({
      ...renderTool(t, input.format, config.examples),
      defer_loading: true,
    }));
    const providerFacing = input.format !== "mcp" && input.format !== "json";
    const guard = new TextGuard(ctx);
    // Without tool_search (a policy may deny it) there is nothing to tell the model about discovery.
    const blocks = [searchListed ? toolDiscoveryBlock(deferredCount) : ""];
    blocks.push(...skillBlocks(ctx, guard, input.query));
    // The user's message: if a tool is used next, its words teach that tool too (at a lower weight).
    if (input.query) ctx.learning.noteRequest(input.query, ctx.now);
    blocks.push(guard.text(packsBlock(attachedPacks(ctx, guard))));
    const system = blocks.filter((b) => b !== "").join("\n\n");
    const systemTokens = estimateTokens(system);
    // What the model loads up front: Anthropic keeps deferred tools out of the context until a
    // tool_reference names one, so they cost nothing here (and dropping them would save nothing).
    // OpenAI still shows the model a deferred function's name and description (its guide, "Tool
    // search"): those count, the parameters do not.
    const deferredSeen =
      input.format === "openai_responses"
        ? renderedDeferred.map((t: Record<string, unknown>) => ({ name: t.name, description: t.description }))
        : [];
    const toolTokens =
      estimateJsonTokens(rendered) + (deferredSeen.length > 0 ? estimateJsonTokens(deferredSeen) : 0);
    const total = systemTokens + toolTokens;
    const listed = [...tools, ...deferred];
    return {
      format: input.format,
      system,
      tools: [...rendered, ...renderedDeferred],
      name_map: Object.fromEntries(listed.map((t) => [providerFacing ? t.providerName : t.name, t.name])),
      deferred_count: deferredCount,
      token_estimate: { system: systemTokens, tools: toolTokens, total },
      warnings: contextWarnings({
        format: input.format,
        toolCount: tools.length,
        totalTokens: total,
        maxTokens: config.context.max_tokens,
        contributors: contributors(visible, rendered),
      }),
    };
  },
});

/** Metadata of the attached packs (a pack gone from the bundle was detached on load). */
function attachedPacks(ctx: OpContext, guard: TextGuard) {
  const attached = new Set(ctx.attachments.packs().map((a) => a.pack));
  if (attached.size === 0) return [];
  return attachablePacks(ctx)
    .filter((p) => attached.has(p.name))
    .map((p) => packMetadata(p, guard));
}

export const state = defineOp({
  name: "state",
  summary: "Inspect the session: config, catalog, visible tools, activations, pending approvals",
  tag: "tools",
  writes: false,
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
    packs: z
      .array(
        z.object({
          pack_id: z.string(),
          attached_at: z.string(),
          tools_enabled_at: z.string().nullable(),
          tools: z.array(z.string()).describe("Tools it brought that the policy allows"),
        }),
      )
      .describe("The Active Pack Set"),
    skills: z
      .array(
        z.object({
          id: z.string(),
          enabled_at: z.string(),
          tools: z.array(z.string()).describe("Tools it brought that the policy allows"),
        }),
      )
      .describe("Skills enabled with skill_enable"),
  }),
  errors: [],
  example: {
    input: {},
    output: {
      config: { activation_scope: "session" },
      catalog: {
        fingerprint: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        tools: 0,
        deferred: 0,
        visible: 0,
        published: null,
      },
      storage: { bytes: 147456 },
      visible: ["tool_search"],
      activations: [],
      pending_approvals: [],
      packs: [],
      skills: [],
    },
  },
  handler(ctx, input) {
    const iso = (ms: number) => new Date(ms).toISOString();
    // Only tools the policy allows are named (a denied one does not exist).
    const brought = (source: string) =>
      ctx.catalog
        .namesOf(source)
        .filter((n) => ctx.catalog.find(n))
        .sort();
    return {
      ...sessionView(ctx),
      visible: visibleTools(ctx, input.run_id ?? null).map((v) => v.tool.name),
      activations: ctx.activations.list(ctx.now, (name) => ctx.catalog.allows(name)),
      pending_approvals: ctx.approvals.pending((name) => ctx.catalog.allows(name)),
      packs: ctx.attachments.packs().map((a) => ({
        pack_id: a.pack,
        attached_at: iso(a.attached_at),
        tools_enabled_at: a.tools_enabled_at === null ? null : iso(a.tools_enabled_at),
        tools: brought(packSource(a.pack)),
      })),
      skills: ctx.attachments.skills().map((e) => ({
        id: e.qid,
        enabled_at: iso(e.enabled_at),
        tools: brought(skillSource(e.qid)),
      })),
    };
  },
});

export const events = defineOp({
  name: "events",
  summary: "The session's events after a cursor, oldest first (or newest first, before a cursor)",
  tag: "tools",
  writes: false,
  input: z.strictObject({
    since: z
      .number()
      .int()
      .min(0)
      .default(0)
      .describe("Oldest first: return events with a larger id (the previous next_cursor)"),
    before: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        "Newest first: return events with a smaller id (the previous next_cursor); omit for the newest",
      ),
    order: z.enum(["oldest_first", "newest_first"]).default("oldest_first"),
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
  errors: [],
  example: {
    before: [SYNC_CREATE_ISSUE],
    input: { since: 0, limit: 10 },
    output: {
      events: [
        {
          id: 1,
          type: "catalog_synced",
          at: "2026-11-23T10:00:00.000Z",
          data: { ...SYNCED_CREATE_ISSUE, mode: "replace" },
        },
      ],
      next_cursor: 1,
    },
  },
  handler(ctx, input) {
    ctx.events.flush();
    return input.order === "newest_first"
      ? ctx.events.listNewest(input.before ?? null, input.limit, (tool) => ctx.catalog.allows(tool))
      : ctx.events.list(input.since, input.limit, (tool) => ctx.catalog.allows(tool));
  },
});
