// The gate every tool call passes: a call to one of Trove's own tools is forwarded to the operation of
// that name; any other call goes to tool_resolve (activation on first use, argument validation,
// approval policy) before the user's implementation runs. What Trove refuses comes back to the model
// as a result it can read and act on, never as a thrown error.
import type { OperationInput, OperationOutput, TroveApiError, TroveSession } from "@trove/client";
import type { ModelMessage } from "ai";
import type { Definition } from "./definitions.js";
import type { ApprovalAnswer } from "./messages.js";
import { answerFor } from "./messages.js";

/** What the adapter hands the user's implementation besides the arguments. */
export interface ToolCallContext {
  /** The SDK's id of this tool call. */
  toolCallId: string;
  /** The messages sent to the model for the step that made the call. */
  messages: ModelMessage[];
  abortSignal?: AbortSignal;
}

/** The user's code for one catalog tool: Trove never runs tools, the agent does. */
export type ToolImplementation = (args: Record<string, unknown>, call: ToolCallContext) => unknown;

/** One implementation for every tool, given Trove's name of the tool. */
export type ToolDispatcher = (name: string, args: Record<string, unknown>, call: ToolCallContext) => unknown;

/** What the model reads when Trove refuses a call (the error code and Trove's message). */
export interface Refusal {
  error: string;
  message: string;
  /** With `invalid_arguments`: what is wrong with the arguments ({ path, keyword, message }). */
  violations?: unknown[];
  /** With `invalid_input` (arguments of one of Trove's own tools): the fields at fault. */
  issues?: unknown[];
}

type Verdict =
  | { kind: "allow" }
  | { kind: "approval"; approvalId: string }
  | { kind: "refused"; result: Refusal };

export interface GateOptions {
  session: TroveSession;
  execute: Record<string, ToolImplementation> | ToolDispatcher;
  runId?: string;
  /** Recorded as `by` in approval_decide. */
  approver: string;
}

type Args = Record<string, unknown>;

const asArgs = (input: unknown): Args => (input ?? {}) as Args;

/** Canonical JSON (keys sorted at every depth), to find the approval Trove holds for a call. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Args).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * An error of @trove/client, recognized by its shape: the session may come from another copy of
 * the client than this package's (the application's own, another version), where `instanceof` fails.
 */
function isTroveError(err: unknown): err is TroveApiError {
  const e = err as Partial<TroveApiError> | null;
  return (
    err instanceof Error &&
    typeof e?.status === "number" &&
    typeof e.code === "string" &&
    typeof e.details === "object"
  );
}

/** A 4xx from Trove as the model's result; anything else (network, 5xx) is not the model's to fix. */
function refusal(err: unknown): Refusal {
  if (!isTroveError(err) || err.status >= 500) throw err;
  const result: Refusal = { error: err.code, message: err.message.replace(/^\d+ [a-z_]+: /, "") };
  if (Array.isArray(err.details.violations)) result.violations = err.details.violations;
  if (Array.isArray(err.details.issues)) result.issues = err.details.issues;
  return result;
}

export class Gate {
  readonly #options: GateOptions;
  /** tool_resolve's verdict on each call, by the SDK's tool call id. */
  readonly #verdicts = new Map<string, Verdict>();
  /** A person's answer, recorded in Trove once per call. */
  readonly #answers = new Map<string, Promise<Verdict>>();

  constructor(options: GateOptions) {
    this.#options = options;
  }

  get #scope(): { run_id?: string } {
    return this.#options.runId ? { run_id: this.#options.runId } : {};
  }

  /**
   * The SDK asks before running a catalog tool. A new call goes to tool_resolve: Trove activates the
   * tool on first use, validates the arguments and says whether a person must approve. The SDK asks
   * again for a call a person has answered (before running it): that answer goes to Trove, and the
   * call stays approved in the SDK, so that `execute` reports what Trove decided.
   */
  async needsApproval(tool: Definition, input: unknown, toolCallId: string, messages: ModelMessage[]) {
    const answer = answerFor(messages, toolCallId);
    if (answer) {
      await this.answer(tool, answer);
      return true;
    }
    const verdict = await this.#resolve(tool, input);
    this.#verdicts.set(toolCallId, verdict);
    return verdict.kind === "approval";
  }

  /** Runs a catalog tool the way Trove decided: the user's code on allow, else a readable result. */
  async execute(tool: Definition, input: unknown, call: ToolCallContext): Promise<unknown> {
    let verdict = this.#verdicts.get(call.toolCallId);
    if (verdict?.kind !== "allow" && verdict?.kind !== "refused") {
      // Approved in the SDK (versions without the second needsApproval call come straight here).
      const answer = answerFor(call.messages, call.toolCallId);
      if (answer) verdict = await this.answer(tool, answer);
      else verdict ??= await this.#resolve(tool, input);
    }
    switch (verdict.kind) {
      case "allow":
        return this.#run(tool, asArgs(input), call);
      case "approval":
        return {
          status: "approval_pending",
          approval_id: verdict.approvalId,
          message: `${tool.providerName} needs a person's approval; it has not run`,
        };
      case "refused":
        return verdict.result;
      default: {
        const unknown: never = verdict;
        throw new Error(`unknown verdict ${JSON.stringify(unknown)}`);
      }
    }
  }

  /**
   * Records a person's answer in Trove (approval_decide), once per call: approved, the call is
   * resolved again with Trove's approval id, so that Trove allows it exactly once; denied, Trove's
   * approval is closed. A decision someone already took in Trove (/inspect) stands.
   */
  answer(tool: Definition, answer: ApprovalAnswer): Promise<Verdict> {
    let pending = this.#answers.get(answer.toolCallId);
    if (!pending) {
      pending = this.#record(tool, answer);
      this.#answers.set(answer.toolCallId, pending);
    }
    return pending;
  }

  async #record(tool: Definition, answer: ApprovalAnswer): Promise<Verdict> {
    const known = this.#verdicts.get(answer.toolCallId);
    const approvalId =
      known?.kind === "approval" ? known.approvalId : await this.#findApproval(tool.name, answer.input);
    if (!approvalId) {
      return {
        kind: "refused",
        result: { error: "unknown_approval", message: "Trove holds no approval request for this call" },
      };
    }
    try {
      await this.#options.session.approval_decide({
        approval_id: approvalId,
        decision: answer.approved ? "approve" : "deny",
        by: this.#options.approver,
        ...(answer.reason ? { note: answer.reason.slice(0, 2000) } : {}),
      });
    } catch (err) {
      if (!(isTroveError(err) && err.code === "approval_already_decided")) {
        return { kind: "refused", result: refusal(err) };
      }
    }
    if (!answer.approved) {
      return { kind: "refused", result: { error: "approval_denied", message: "a person denied this call" } };
    }
    return this.#resolve(tool, answer.input, approvalId);
  }

  /** Trove's approval for a call of `name` with these arguments in this run, newest first. */
  async #findApproval(name: string, input: unknown): Promise<string | undefined> {
    const state = await this.#options.session.state(this.#scope);
    const args = canonical(asArgs(input));
    const runId = this.#options.runId ?? null;
    return state.pending_approvals
      .filter(
        (a) =>
          a.name === name &&
          a.run_id === runId &&
          (a.status === "pending" || a.status === "approved") &&
          canonical(a.args ?? {}) === args,
      )
      .sort((a, b) => (a.requested_at < b.requested_at ? 1 : -1))[0]?.approval_id;
  }

  async #resolve(tool: Definition, input: unknown, approvalId?: string): Promise<Verdict> {
    const request: OperationInput<"tool_resolve"> = {
      name: tool.name,
      args: asArgs(input),
      ...this.#scope,
      ...(approvalId ? { approval_id: approvalId } : {}),
    };
    try {
      const resolved = await this.#options.session.tool_resolve(request);
      if (resolved.decision === "allow") return { kind: "allow" };
      return { kind: "approval", approvalId: resolved.approval_id ?? "" };
    } catch (err) {
      return { kind: "refused", result: refusal(err) };
    }
  }

  async #run(tool: Definition, args: Args, call: ToolCallContext): Promise<unknown> {
    const { execute } = this.#options;
    if (typeof execute === "function") return execute(tool.name, args, call);
    const implementation = Object.hasOwn(execute, tool.name) ? execute[tool.name] : undefined;
    if (!implementation) {
      return {
        error: "not_implemented",
        message: `this agent has no implementation of ${tool.providerName}`,
      };
    }
    return implementation(args, call);
  }

  /**
   * A call to one of Trove's own tools, sent to the operation of the same name. tool_search answers
   * with provider names, the names the model's tools have in the SDK.
   */
  async forward(tool: Definition, input: unknown): Promise<unknown> {
    const session = this.#options.session;
    try {
      if (tool.name === "tool_search") {
        const found = await session.tool_search({
          ...(asArgs(input) as unknown as OperationInput<"tool_search">),
          format: "anthropic",
        });
        return namedForTheModel(found);
      }
      const operation = (session as unknown as Record<string, (input: unknown) => Promise<unknown>>)[
        tool.name
      ];
      if (!operation) throw new Error(`@trove/client has no operation ${tool.name}`);
      return await operation(asArgs(input));
    } catch (err) {
      return refusal(err);
    }
  }
}

/** tool_search's answer with each tool named as the model must call it (its provider name). */
function namedForTheModel(found: OperationOutput<"tool_search">) {
  const { tool_references: references, ...rest } = found;
  return {
    ...rest,
    tools: found.tools.map((t, i) => ({ ...t, name: references?.[i]?.tool_name ?? t.name })),
  };
}
