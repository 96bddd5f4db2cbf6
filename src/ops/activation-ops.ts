// Activation, resolution and approval: what an agent calls when its model wants a tool.
import { z } from "zod";
import { TroveError } from "../errors";
import { Id as RunId } from "../schemas";
import { activationTarget } from "../tools/activation";
import type { StoredTool } from "../tools/catalog-queries";
import { visibilityFor } from "../tools/policy";
import { renderTool } from "../tools/render";
import { assertValidArgs } from "../tools/validate-args";
import { builtinTools } from "./builtins";
import { SYNC_CREATE_ISSUE } from "./examples";
import type { OpContext } from "./operation";
import { defineOp } from "./operation";

const ToolName = z.string().min(1).max(128).describe("A tool's name, or the provider name the model sees");
const Names = z.array(ToolName).min(1).max(100);
const RunScope = RunId.optional().describe(
  "The run the call belongs to (required when activation_scope is run)",
);

/** The one answer for unknown, denied and non-activatable tools alike (no existence leak). */
function unknownTool(name: string): TroveError {
  return new TroveError("unknown_tool", 404, `no tool named "${name}" is available`, {
    field: "name",
  }).withEvent("tool_activation_denied", { reason: "unknown_or_not_allowed" });
}

function findOrFail(ctx: OpContext, name: string): StoredTool {
  const tool = ctx.catalog.find(name);
  if (!tool) throw unknownTool(name);
  return tool;
}

/** Activates a deferred tool that is not active yet for this request; true when it was written. */
function activateIfHidden(
  ctx: OpContext,
  tool: StoredTool,
  runId: string | undefined,
  source: "explicit" | "first_use",
  reason: string | null,
): boolean {
  if (tool.effective_mode === "always") return false;
  if (ctx.activations.activeNames(runId ?? null, ctx.now).has(tool.name)) return false;
  const config = ctx.config.get();
  const target = activationTarget(config.activation_scope, runId, config.run_activation_ttl_seconds, ctx.now);
  if (!ctx.activations.activate(tool.name, target, source, reason, ctx.now)) return false;
  ctx.activations.noteNamespace(tool.record.namespace, ctx.now);
  ctx.events.record(
    "tool_activated",
    { tool_name: tool.name, activation_scope: target.scope, source, reason, run_id: runId ?? null },
    ctx.now,
  );
  return true;
}

export const toolActivate = defineOp({
  name: "tool_activate",
  summary: "Make deferred tools visible (for the session, or for one run)",
  tag: "tools",
  writes: true,
  idempotent: true,
  input: z.strictObject({
    names: Names,
    run_id: RunScope,
    reason: z.string().max(500).optional().describe("Why, for the event log"),
  }),
  output: z.object({ activated: z.array(z.string()), already_visible: z.array(z.string()) }),
  errors: ["unknown_tool", "run_id_required"],
  example: {
    before: [SYNC_CREATE_ISSUE],
    input: { names: ["github.create_issue"], reason: "the user asked to file a bug" },
    output: { activated: ["github.create_issue"], already_visible: [] },
  },
  handler(ctx, input) {
    const tools = input.names.map((name) => findOrFail(ctx, name));
    const activated: string[] = [];
    const already: string[] = [];
    for (const tool of tools) {
      // A search's result activated by hand: when the model then calls it, that search taught it.
      ctx.learning.noteActivation(tool.name, ctx.now);
      (activateIfHidden(ctx, tool, input.run_id, "explicit", input.reason ?? null)
        ? activated
        : already
      ).push(tool.name);
    }
    return { activated, already_visible: already };
  },
});

export const toolDeactivate = defineOp({
  name: "tool_deactivate",
  summary: "Hide activated tools again",
  tag: "tools",
  writes: true,
  idempotent: true,
  input: z.strictObject({ names: Names, run_id: RunScope }),
  output: z.object({ deactivated: z.array(z.string()) }),
  errors: ["unknown_tool"],
  example: {
    before: [SYNC_CREATE_ISSUE],
    input: { names: ["github.create_issue"] },
    output: { deactivated: [] },
  },
  handler(ctx, input) {
    const deactivated: string[] = [];
    for (const name of input.names) {
      const tool = findOrFail(ctx, name);
      if (ctx.activations.deactivate(tool.name, input.run_id ?? "")) {
        deactivated.push(tool.name);
        ctx.events.record(
          "tool_deactivated",
          { tool_name: tool.name, run_id: input.run_id ?? null },
          ctx.now,
        );
      }
    }
    return { deactivated };
  },
});

export const ToolResolveOutput = z.object({
  decision: z.enum(["allow", "needs_approval"]),
  name: z.string(),
  provider_name: z.string(),
  activated: z.boolean().describe("This call activated the tool (first use)"),
  approval_id: z.string().optional(),
  tool: z.record(z.string(), z.unknown()).describe("The tool's definition, to bind it"),
});

export const toolResolve = defineOp({
  name: "tool_resolve",
  summary: "Check a tool call: activate on first use, validate arguments, gate by approval",
  tag: "tools",
  writes: true,
  input: z.strictObject({
    name: ToolName,
    args: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "The call's arguments; omitted means {} (checked against the tool's input_schema all the same)",
      ),
    run_id: RunScope,
    approval_id: z
      .string()
      .max(100)
      .optional()
      .describe("The approval a person gave this call (from needs_approval, then approval_decide)"),
  }),
  output: ToolResolveOutput,
  errors: [
    "unknown_tool",
    "run_id_required",
    "invalid_arguments",
    "unknown_approval",
    "approval_denied",
    "approval_used",
  ],
  example: {
    before: [SYNC_CREATE_ISSUE],
    input: { name: "github_create_issue", args: { repo: "acme/web", title: "Login page returns 500" } },
    output: {
      decision: "allow",
      name: "github.create_issue",
      provider_name: "github_create_issue",
      activated: true,
      tool: { name: "github.create_issue", description: "Create an issue in a GitHub repository" },
    },
  },
  handler(ctx, input) {
    const config = ctx.config.get();
    // Trove's own tools are always callable (when the policy allows them): the agent forwards the
    // call to the operation of the same name.
    const builtin = builtinTools(ctx).find((t) => t.name === input.name || t.providerName === input.name);
    if (builtin) {
      // Omitted arguments are an empty object: a schema with required fields refuses them.
      assertValidArgs(builtin.input_schema, input.args ?? {});
      const tool = renderTool(builtin, "json", config.examples);
      return {
        decision: "allow" as const,
        name: builtin.name,
        provider_name: builtin.providerName,
        activated: false,
        tool,
      };
    }
    const tool = findOrFail(ctx, input.name);
    const activated = activateIfHidden(ctx, tool, input.run_id, "first_use", null);
    assertValidArgs(tool.record.input_schema, input.args ?? {});
    // Valid arguments: the model is using this tool (allowed now, or once a person approves).
    ctx.activations.noteNamespace(tool.record.namespace, ctx.now);
    const base = {
      name: tool.name,
      provider_name: tool.provider_name,
      activated,
      tool: renderTool(
        {
          ...tool.record,
          providerName: tool.provider_name,
          loading_mode: tool.effective_mode,
        },
        "json",
        config.examples,
      ),
    };
    // Only real uses teach the tenant's ranking: an allowed call, or one a person approved (as of
    // when the model asked). A call still waiting, denied or never approved teaches nothing.
    if (!visibilityFor(config).needsApproval(tool.name, tool.qualified_name)) {
      ctx.learning.observeUse(tool.name, ctx.now);
      return { decision: "allow" as const, ...base };
    }
    const args = input.args ?? null;
    const runId = input.run_id ?? null;
    if (input.approval_id) {
      const approval = ctx.approvals.consume(input.approval_id, tool.name, args, runId);
      if (approval.status === "approved") {
        ctx.learning.observeUse(tool.name, Date.parse(approval.requested_at));
        return { decision: "allow" as const, ...base };
      }
      return { decision: "needs_approval" as const, approval_id: approval.approval_id, ...base };
    }
    const approval = ctx.approvals.request(tool.name, args, runId, ctx.now);
    ctx.events.record(
      "approval_requested",
      { approval_id: approval.approval_id, tool_name: tool.name, run_id: runId },
      ctx.now,
    );
    return { decision: "needs_approval" as const, approval_id: approval.approval_id, ...base };
  },
});

export const ApprovalView = z.object({
  approval_id: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()).nullable(),
  run_id: z.string().nullable(),
  status: z.enum(["pending", "approved", "denied", "used"]),
  requested_at: z.string(),
  decided_at: z.string().nullable(),
  decided_by: z.string().nullable(),
  note: z.string().nullable(),
});

export const approvalDecide = defineOp({
  name: "approval_decide",
  summary: "Approve or deny a pending tool call",
  tag: "tools",
  writes: true,
  input: z.strictObject({
    approval_id: z.string().min(1).max(100).describe("From tool_resolve's needs_approval answer"),
    decision: z.enum(["approve", "deny"]),
    by: z.string().max(200).optional().describe("Who decided, for the record"),
    note: z.string().max(2000).optional().describe("Why, for the record"),
  }),
  output: ApprovalView,
  errors: ["unknown_approval", "approval_already_decided"],
  example: {
    before: [
      { op: "session_configure", input: { policy: { approval: ["stripe.*"] } } },
      {
        op: "catalog_sync",
        input: {
          tools: [
            {
              name: "stripe.refund",
              description: "Refund a charge",
              input_schema: {
                type: "object",
                properties: { charge: { type: "string" }, amount: { type: "integer" } },
                required: ["charge", "amount"],
              },
            },
          ],
        },
      },
      { op: "tool_resolve", input: { name: "stripe.refund", args: { charge: "ch_123", amount: 500 } } },
    ],
    // The approval id comes from the tool_resolve before it (its `needs_approval` answer).
    input: { approval_id: "{{before[2].approval_id}}", decision: "approve", by: "ops@acme.test" },
    output: {
      approval_id: "apr_5f1c2a9e",
      name: "stripe.refund",
      args: { charge: "ch_123", amount: 500 },
      run_id: null,
      status: "approved",
      requested_at: "2026-11-23T10:00:00.000Z",
      decided_at: "2026-11-23T10:01:12.000Z",
      decided_by: "ops@acme.test",
      note: null,
    },
  },
  handler(ctx, input) {
    const approval = ctx.approvals.decide(
      input.approval_id,
      input.decision,
      input.by ?? null,
      input.note ?? null,
      ctx.now,
      (name) => ctx.catalog.allows(name),
    );
    ctx.events.record(
      "approval_decided",
      {
        approval_id: approval.approval_id,
        tool_name: approval.name,
        decision: input.decision,
        by: input.by ?? null,
      },
      ctx.now,
    );
    return approval;
  },
});
