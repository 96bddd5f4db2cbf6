// What the adapter reads back from the AI SDK's message history: the answer a person gave to a tool
// call's approval request, the answers of the current turn, and the tools Trove's tool_search found.
// Read structurally (role, part type), so that the history of either supported `ai` major works.
import type { ModelMessage } from "ai";

/** A person's answer to the SDK's approval request for one tool call. */
export interface ApprovalAnswer {
  /** The SDK's id of the approval request (not Trove's). */
  approvalId: string;
  toolCallId: string;
  /** The tool as the model called it (its provider name), and the call's arguments. */
  toolName: string;
  input: unknown;
  approved: boolean;
  reason?: string;
}

type Part = { type?: unknown } & Record<string, unknown>;

function partsOf(message: ModelMessage): Part[] {
  const content = (message as { content?: unknown }).content;
  return Array.isArray(content) ? (content as Part[]) : [];
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Every approval answer in `messages` (the SDK's tool-approval-request / -response pairs). */
function answers(messages: readonly ModelMessage[]): ApprovalAnswer[] {
  const calls = new Map<string, { toolName: string; input: unknown }>();
  const requests = new Map<string, string>(); // approvalId → toolCallId
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const part of partsOf(message)) {
      const toolCallId = text(part.toolCallId);
      if (!toolCallId) continue;
      if (part.type === "tool-call")
        calls.set(toolCallId, { toolName: text(part.toolName) ?? "", input: part.input });
      const approvalId = text(part.approvalId);
      if (part.type === "tool-approval-request" && approvalId) requests.set(approvalId, toolCallId);
    }
  }
  const found: ApprovalAnswer[] = [];
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of partsOf(message)) {
      if (part.type !== "tool-approval-response") continue;
      const approvalId = text(part.approvalId) ?? "";
      const toolCallId = requests.get(approvalId);
      const call = toolCallId ? calls.get(toolCallId) : undefined;
      if (!toolCallId || !call) continue;
      const reason = text(part.reason);
      found.push({
        approvalId,
        toolCallId,
        ...call,
        approved: part.approved === true,
        ...(reason ? { reason } : {}),
      });
    }
  }
  return found;
}

/** The answer given to tool call `toolCallId`, if the history holds one. */
export function answerFor(messages: readonly ModelMessage[], toolCallId: string): ApprovalAnswer | undefined {
  return answers(messages).find((a) => a.toolCallId === toolCallId);
}

/**
 * The answers sent with this turn: those in the tool messages at the end of the history (the SDK
 * reads approvals from the last message only). Older answers were recorded in Trove by the turn
 * that carried them.
 */
export function answersOfThisTurn(messages: readonly ModelMessage[]): ApprovalAnswer[] {
  let start = messages.length;
  while (start > 0 && messages[start - 1]?.role === "tool") start--;
  const ids = new Set(
    messages
      .slice(start)
      .flatMap(partsOf)
      .filter((p) => p.type === "tool-approval-response")
      .map((p) => text(p.approvalId)),
  );
  return ids.size === 0 ? [] : answers(messages).filter((a) => ids.has(a.approvalId));
}

/**
 * Provider names of the tools that `searchTool`'s results name anywhere in the history: like
 * Anthropic's API expanding a `tool_reference`, a tool the model found stays callable, so its first
 * call can reach Trove (which activates it).
 */
export function foundTools(messages: readonly ModelMessage[], searchTool: string): string[] {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of partsOf(message)) {
      if (part.type !== "tool-result" || part.toolName !== searchTool) continue;
      const output = part.output as { type?: unknown; value?: unknown } | undefined;
      if (output?.type !== "json") continue;
      const tools = (output.value as { tools?: unknown } | null)?.tools;
      if (!Array.isArray(tools)) continue;
      for (const tool of tools) {
        const name = text((tool as { name?: unknown } | null)?.name);
        if (name) names.add(name);
      }
    }
  }
  return [...names];
}
