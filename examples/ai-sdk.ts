// An AI SDK agent whose tools come from Trove, with @trove/ai-sdk: the model starts with Trove's own
// tools only, finds a refund tool with tool_search, calls it (Trove activates it on first use and
// asks for approval), a person answers in the terminal, the refund runs, and the next step lists the
// tool. Trove never runs a tool: the functions in EXECUTE do, once Trove allowed the call.
//
//   npm start                     # Trove on http://localhost:8787 with the bundled packs
//   npx tsx examples/ai-sdk.ts    # in another terminal
//
// With AI_GATEWAY_API_KEY set, a real model answers through the AI SDK's gateway (TROVE_AI_MODEL,
// default "openai/gpt-5.4-mini"; any "provider/model" the gateway serves). Without it, a scripted
// model from `ai/test` plays the model's part, so the example runs with no network but Trove.
// TROVE_URL and TROVE_KEY override the address and the key (the dev key from .dev.vars.example);
// without a terminal, TROVE_APPROVE answers the approval: yes (or y, true, 1) approves, anything
// else — unset included — denies, and the line printed says which and why.
// Outside this repository: `import { troveTools } from "@trove/ai-sdk"` and `import { Trove } from
// "@trove/client"`.
import { createInterface } from "node:readline/promises";
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { troveTools } from "../packages/ai-sdk/src/index";
import { Trove, type TroveSession } from "../packages/client/src/index";

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

const CATALOG = [
  {
    name: "stripe.refund_payment",
    description: "Refund a Stripe payment, fully or in part (amount in cents)",
    side_effects: "write" as const,
    input_schema: object({ payment_id: { type: "string" }, amount: { type: "integer", minimum: 1 } }, [
      "payment_id",
    ]),
  },
  {
    name: "stripe.get_payment",
    description: "Look up a Stripe payment: amount, currency, status",
    input_schema: object({ payment_id: { type: "string" } }, ["payment_id"]),
  },
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    input_schema: object({ repo: { type: "string" }, title: { type: "string" } }, ["repo", "title"]),
  },
  { name: "weather.now", description: "Current weather for a city", loading_mode: "always" as const },
];

/** The agent's own code for its tools, by Trove name (a real agent calls Stripe here). */
const EXECUTE: Record<string, (args: Record<string, unknown>) => unknown> = {
  "stripe.get_payment": (args) => ({ ...args, amount: 2000, currency: "eur" }),
  "stripe.refund_payment": (args) => ({ refund_id: "re_1", ...args, status: "succeeded" }),
};

export interface SupportTurn {
  session: TroveSession;
  model: LanguageModel;
  request: string;
  /** A person's answer to a call that needs approval. */
  approve: (tool: string, args: unknown) => Promise<boolean>;
  log: (line: string) => void;
}

/**
 * Runs the user's request to the end: one generateText per turn, a person's answers to approval
 * requests in between (the SDK stops when a call needs approval). Returns the model's last text.
 */
export async function supportTurn({ session, model, request, approve, log }: SupportTurn): Promise<string> {
  await session.session_configure({ policy: { approval: ["stripe.refund_*"] } });
  await session.catalog_sync({ tools: CATALOG });
  const messages: ModelMessage[] = [{ role: "user", content: request }];
  for (let turn = 1; turn <= 3; turn++) {
    // One adapter per generateText, as a server makes one per request.
    const trove = await troveTools({
      session,
      // Runs only once Trove allowed the call (an approved one runs before the turn's first step).
      execute: (name, args) => {
        log(`  runs    ${name} ${JSON.stringify(args)}`);
        return EXECUTE[name]?.(args) ?? { error: `no implementation of ${name}` };
      },
      system: "You are a payments support agent. Use tools; never guess an amount.",
    });
    const result = await generateText({
      model,
      tools: trove.tools,
      stopWhen: stepCountIs(8),
      messages,
      prepareStep: async (step) => {
        const shown = await trove.prepareStep(step);
        log(`step ${step.stepNumber + 1}: the model sees ${shown.activeTools.join(", ")}`);
        return shown;
      },
      onStepFinish: (step) => {
        for (const call of step.toolCalls) log(`  calls   ${call.toolName} ${JSON.stringify(call.input)}`);
        for (const done of step.toolResults) log(`  result  ${JSON.stringify(done.output)}`);
      },
    });
    messages.push(...result.response.messages);
    const requests = result.content.filter((part) => part.type === "tool-approval-request");
    if (requests.length === 0) return result.text;
    const answers = [];
    for (const { approvalId, toolCall } of requests) {
      const approved = await approve(toolCall.toolName, toolCall.input);
      log(`  ${approved ? "approved" : "denied"} ${toolCall.toolName} ${JSON.stringify(toolCall.input)}`);
      answers.push({ type: "tool-approval-response" as const, approvalId, approved });
    }
    messages.push({ role: "tool", content: answers });
  }
  return "(stopped after 3 turns)";
}

/**
 * A model that decides like a model would from what it is sent: it searches when no refund tool is
 * listed, calls the tool the search names, and answers once the refund ran.
 */
export function scriptedModel(): LanguageModel {
  const usage = {
    inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 0, text: 0, reasoning: undefined },
  };
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt, tools = [] }) => {
      const results = prompt.flatMap((m) =>
        m.role === "tool" ? m.content.flatMap((p) => (p.type === "tool-result" ? [p] : [])) : [],
      );
      const call = (toolName: string, input: unknown) => ({
        content: [
          {
            type: "tool-call" as const,
            toolCallId: `call-${++calls}`,
            toolName,
            input: JSON.stringify(input),
          },
        ],
        finishReason: { unified: "tool-calls" as const, raw: undefined },
        usage,
        warnings: [],
      });
      const refunded = results.find((r) => r.toolName.includes("refund"))?.output;
      if (refunded) {
        const text =
          refunded.type === "execution-denied"
            ? "The refund was not approved, so nothing was refunded."
            : `Done: ${JSON.stringify("value" in refunded ? refunded.value : refunded)}`;
        return {
          content: [{ type: "text", text }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: [],
        };
      }
      const listed = tools.find((t) => t.name.includes("refund"))?.name;
      if (listed) return call(listed, { payment_id: "pi_123", amount: 2000 });
      return call("tool_search", { query: "refund a payment" });
    },
  });
}

// Run directly: `npx tsx examples/ai-sdk.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const trove = new Trove({
    baseUrl: process.env.TROVE_URL ?? "http://localhost:8787",
    apiKey: process.env.TROVE_KEY ?? "dev-key",
  });
  const sid = `ai-sdk-example-${Date.now()}`;
  const real = process.env.AI_GATEWAY_API_KEY ? (process.env.TROVE_AI_MODEL ?? "openai/gpt-5.4-mini") : null;
  console.log(`Trove ${(await trove.health()).version} — session ${sid}`);
  console.log(
    real ? `model: ${real} (AI Gateway)\n` : "model: scripted (set AI_GATEWAY_API_KEY for a real one)\n",
  );
  const text = await supportTurn({
    session: trove.session(sid),
    model: real ?? scriptedModel(),
    request: "Please refund payment pi_123 (20 EUR), the customer was charged twice.",
    approve: ask,
    log: console.log,
  });
  console.log(`\n${text}`);
}

/**
 * Asks in the terminal; without one (piped, CI) TROVE_APPROVE decides — yes, y, true or 1 approves,
 * anything else denies — and the line says what it decided and from which value.
 */
async function ask(tool: string, args: unknown): Promise<boolean> {
  const question = `Approve ${tool} ${JSON.stringify(args)}? [y/N] `;
  if (!process.stdin.isTTY) {
    const value = process.env.TROVE_APPROVE;
    const approved = /^(y|yes|true|1)$/i.test(value?.trim() ?? "");
    const from = value === undefined ? "TROVE_APPROVE is not set" : `TROVE_APPROVE=${JSON.stringify(value)}`;
    console.log(
      `${question}${approved ? "y" : "N"} (no terminal: ${approved ? "approved" : "denied"}, ${from})`,
    );
    return approved;
  }
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y/i.test(await terminal.question(question));
  } finally {
    terminal.close();
  }
}
