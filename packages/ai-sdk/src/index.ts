// @trove/ai-sdk: Trove for the AI SDK (`ai`, majors 6 and 7). From a Trove session it makes the
// `tools` and `prepareStep` of a generateText / streamText call (or a ToolLoopAgent): each step the
// model is shown what Trove lists now, and every call passes Trove before the agent's code runs.
import type { TroveSession } from "@trove/client";
import { dynamicTool, jsonSchema, type ModelMessage, type ToolSet } from "ai";
import { type Definition, describe, fromAnthropic, fromJson } from "./definitions.js";
import { Gate, type ToolDispatcher, type ToolImplementation } from "./gate.js";
import { answersOfThisTurn, foundTools } from "./messages.js";

export type { Refusal, ToolCallContext, ToolDispatcher, ToolImplementation } from "./gate.js";
export { learnedSkillsUsed, submitFeedback, submitLesson } from "./lessons.js";

export interface TroveToolsOptions {
  /** The Trove session of this conversation: `new Trove({ baseUrl, apiKey }).session(sid)`. */
  session: TroveSession;
  /**
   * Your tools' code, by Trove name (`"github.create_issue": (args, call) => …`), or one function
   * for all of them (`(name, args, call) => …`, e.g. to call an MCP server). Trove never runs them:
   * each runs only after Trove allowed the call (and a person approved it, where the policy says so).
   */
  execute: Record<string, ToolImplementation> | ToolDispatcher;
  /** Sent with every call that takes one: activations scoped to this run (`activation_scope: run`). */
  runId?: string;
  /**
   * Your system prompt. prepareStep sends it each step followed by Trove's prompt blocks (tool
   * discovery, skills, packs), which change as the conversation goes: do not also set `system` (or
   * `instructions`) on the call.
   */
  system?: string;
  /** Who answered approvals given through the SDK, as recorded in Trove (default `"ai-sdk"`). */
  approver?: string;
}

/** What prepareStep returns: the tools shown this step, and the system prompt. */
export interface TroveStep {
  /** Provider names of the tools the model sees this step. */
  activeTools: string[];
  system?: string;
}

export interface TroveTools {
  /**
   * Every tool the model may be shown, keyed by provider name. It grows when Trove lists a tool it
   * did not list before (a skill or pack brought it, a search found it): pass this very object.
   */
  tools: ToolSet;
  /** Asks Trove which tools to show this step; pass it as `prepareStep`. */
  prepareStep: (step: { stepNumber: number; messages: ModelMessage[] }) => Promise<TroveStep>;
}

/** Trove's tool search: what it returns stays callable (see foundTools). */
const SEARCH = "tool_search";

/**
 * The `tools` and `prepareStep` of an AI SDK call for a Trove session.
 *
 * Each step shows the model exactly the tools Trove's `context` lists (its own tools, always-loaded
 * and activated ones) plus those its `tool_search` returned in this conversation. A call to one of
 * Trove's tools is forwarded to Trove; any other call is checked with `tool_resolve` first — it
 * activates the tool on first use, validates the arguments, and asks for approval through the SDK's
 * `tool-approval-request` when the session's policy says so. Refusals (an unknown or denied tool,
 * invalid arguments) come back to the model as a result it can read.
 *
 * @example
 * const trove = await troveTools({
 *   session: new Trove({ baseUrl, apiKey }).session("chat-42"),
 *   execute: { "stripe.refund_payment": ({ payment_id }) => refund(payment_id) },
 *   system: "You are a support agent.",
 * });
 * const result = await generateText({ model, tools: trove.tools, prepareStep: trove.prepareStep,
 *   stopWhen: stepCountIs(10), prompt: "Refund payment pi_123" });
 */
export async function troveTools(options: TroveToolsOptions): Promise<TroveTools> {
  const { session, runId } = options;
  const run = runId ? { run_id: runId } : {};
  const gate = new Gate({
    session,
    execute: options.execute,
    approver: options.approver ?? "ai-sdk",
    ...(runId ? { runId } : {}),
  });
  const tools: ToolSet = {};
  const definitions = new Map<string, Definition>();

  const bind = (definition: Definition) => {
    definitions.set(definition.providerName, definition);
    const base = { description: describe(definition), inputSchema: jsonSchema(definition.inputSchema) };
    tools[definition.providerName] = definition.builtin
      ? dynamicTool({ ...base, execute: (input) => gate.forward(definition, input) })
      : dynamicTool({
          ...base,
          needsApproval: (input, { toolCallId, messages }) =>
            gate.needsApproval(definition, input, toolCallId, messages),
          execute: (input, { toolCallId, messages, abortSignal }) =>
            gate.execute(definition, input, {
              toolCallId,
              messages,
              ...(abortSignal ? { abortSignal } : {}),
            }),
        });
  };
  /** Binds what is new, and what changed (a schema or description updated by a catalog_sync). */
  const define = (list: Definition[]) => {
    for (const d of list) {
      const known = definitions.get(d.providerName);
      if (!known || JSON.stringify(known) !== JSON.stringify(d)) bind(d);
    }
  };
  /** The visible tools now. */
  const visible = async () => {
    const ctx = await session.context({ format: "json", ...run });
    const list = fromJson(ctx);
    define(list);
    return { names: list.map((d) => d.providerName), system: ctx.system };
  };

  // Before the first step: a call approved in the previous turn runs before prepareStep, with a tool
  // that must already be here (it was activated when first called, so it is visible).
  await visible();

  return {
    tools,
    async prepareStep({ stepNumber, messages }) {
      const shown = await visible();
      if (stepNumber === 0) {
        // Approved calls were recorded when the SDK ran them; denied ones are recorded here.
        for (const answer of answersOfThisTurn(messages)) {
          const definition = definitions.get(answer.toolName);
          if (!answer.approved && definition && !definition.builtin) await gate.answer(definition, answer);
        }
      }
      const listed = new Set(shown.names);
      const found = foundTools(messages, SEARCH).filter((name) => !listed.has(name));
      if (found.some((name) => !definitions.has(name))) {
        // Every tool the session allows; a found tool missing from it is no longer allowed.
        define(fromAnthropic(await session.context({ format: "anthropic", defer_loading: true, ...run })));
      }
      const system = [options.system, shown.system].filter(Boolean).join("\n\n");
      return {
        activeTools: [...shown.names, ...found.filter((name) => definitions.has(name))],
        ...(system ? { system } : {}),
      };
    },
  };
}
