// @trove/ai-sdk driven by the AI SDK's own loop (generateText with the mock model of `ai/test`)
// against the real worker over HTTP: each step's tools come from Trove, a search makes a tool
// callable, its first call activates it and asks for approval through the SDK's approval request, a
// person's answer goes to Trove, and the agent's code runs only for a call Trove allowed. Nothing of
// Trove is mocked; the model is scripted and reads what it was given, as a model would.
import { randomUUID } from "node:crypto";
import { generateText, type ModelMessage, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptedModel as exampleModel, supportTurn } from "../../examples/ai-sdk";
import {
  learnedSkillsUsed,
  submitFeedback,
  submitLesson,
  type TroveStep,
  troveTools,
} from "../../packages/ai-sdk/src/index";
import { Trove, type TroveSession } from "../../packages/client/src/index";
import { type RunningWorker, startWorker } from "./worker";

type Call = { name: string; args: Record<string, unknown> } | { text: string };
type Prompt = MockLanguageModelV3["doGenerateCalls"][number]["prompt"];

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

const CATALOG = [
  {
    name: "stripe.refund_payment",
    description: "Refund a Stripe payment, fully or in part",
    side_effects: "write" as const,
    input_schema: object({ payment_id: { type: "string" }, amount: { type: "integer", minimum: 1 } }, [
      "payment_id",
    ]),
  },
  {
    name: "stripe.list_charges",
    description: "List the recent charges of a Stripe customer",
    input_schema: object({ customer: { type: "string" } }, ["customer"]),
  },
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    input_schema: object({ repo: { type: "string" }, title: { type: "string" } }, ["repo", "title"]),
  },
  { name: "calendar.create_event", description: "Create a calendar event" },
  { name: "weather.now", description: "Current weather for a city", loading_mode: "always" as const },
  {
    name: "admin.purge_customers",
    description: "Delete every customer record",
    loading_mode: "always" as const,
  },
];

let worker: RunningWorker;
/** Every Trove operation the adapter sent and every run of the agent's code, in order. */
let log: string[] = [];

beforeAll(async () => {
  worker = await startWorker();
});
afterAll(async () => {
  await worker?.dispose();
});

/**
 * A new session with `policy` and `tools`. Wrapped in an object: a session answers every property
 * with an operation, `then` included, so a promise must not resolve to it directly.
 */
async function newSession(policy: Record<string, unknown>, tools: unknown[] = CATALOG) {
  const trove = new Trove({
    baseUrl: worker.url,
    apiKey: "key-a",
    fetch: (url, init) => {
      log.push(`trove:${url.slice(url.lastIndexOf("/") + 1)}`);
      return fetch(url, init);
    },
  });
  const session = trove.session(`ai-sdk-${randomUUID()}`);
  await session.session_configure({ policy });
  await session.catalog_sync({ tools: tools as Parameters<TroveSession["catalog_sync"]>[0]["tools"] });
  log = [];
  return { session };
}

/** A model that answers each call with the next entry of `script`, given what it was sent. */
function scriptedModel(script: ((prompt: Prompt) => Call[] | Promise<Call[]>)[]) {
  let turn = 0;
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const step = script[turn++];
      if (!step) throw new Error(`the script has no step ${turn}`);
      const calls = await step(prompt);
      const content = calls.map((call, i) =>
        "text" in call
          ? { type: "text" as const, text: call.text }
          : {
              type: "tool-call" as const,
              toolCallId: `call-${turn}-${i}`,
              toolName: call.name,
              input: JSON.stringify(call.args),
            },
      );
      return {
        content,
        finishReason: { unified: calls.some((c) => "name" in c) ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

/** The tool results in the prompt, as the model reads them: the name it called → the output value. */
function resultsIn(prompt: Prompt): { toolName: string; value: unknown }[] {
  return prompt.flatMap((m) =>
    m.role === "tool"
      ? m.content.flatMap((p) =>
          p.type === "tool-result"
            ? [{ toolName: p.toolName, value: "value" in p.output ? p.output.value : p.output }]
            : [],
        )
      : [],
  );
}

/** prepareStep, recording what each step showed. */
function recording(trove: Awaited<ReturnType<typeof troveTools>>, shown: TroveStep[]) {
  return async (step: { stepNumber: number; messages: ModelMessage[] }) => {
    const result = await trove.prepareStep(step);
    shown.push(result);
    return result;
  };
}

describe("@trove/ai-sdk with generateText", () => {
  it("search → first use activates → approval → the next step sees the tool; a denial reaches Trove", async () => {
    const { session } = await newSession({ approval: ["stripe.refund_*"], deny: ["admin.*"] });
    const refunds: Record<string, unknown>[] = [];
    // A new adapter per turn, as a chat server makes one per request: nothing is kept in between.
    const adapter = () =>
      troveTools({
        session,
        system: "You are a support agent.",
        execute: {
          "stripe.refund_payment": (args) => {
            log.push("run:stripe.refund_payment");
            refunds.push(args);
            return { refund_id: `re_${refunds.length}`, status: "succeeded" };
          },
        },
      });
    expect(Object.keys((await adapter()).tools).sort()).toEqual(["tool_search", "weather_now"]);

    const shown: TroveStep[] = [];
    const sent: string[][] = [];
    let found = "";
    let visibleAfterRefusal: string[] = [];
    const model = scriptedModel([
      // Turn 1. The model cannot see a refund tool, so it searches.
      () => [{ name: "tool_search", args: { query: "refund a payment" } }],
      // It calls the best hit by the name the search returned, first with arguments of the wrong type.
      (prompt) => {
        const search = resultsIn(prompt).find((r) => r.toolName === "tool_search")?.value as {
          tools: { name: string }[];
        };
        found = search.tools[0]?.name ?? "";
        return [{ name: found, args: { payment_id: 123 } }];
      },
      // Trove's readable refusal lists what is wrong; the model fixes the call.
      async () => {
        visibleAfterRefusal = (await session.state({})).visible;
        return [{ name: found, args: { payment_id: "pi_123", amount: 2000 } }];
      },
      // Turn 2, after a person approved: the refund ran; the tool is listed now, and called again.
      () => [{ name: "stripe_refund_payment", args: { payment_id: "pi_456" } }],
      // Turn 3, after a person denied the second refund.
      () => [{ text: "Refunded pi_123; the refund of pi_456 was not approved." }],
    ]);
    const originalDoGenerate = model.doGenerate;
    model.doGenerate = async (options) => {
      sent.push((options.tools ?? []).map((t) => t.name).sort());
      return originalDoGenerate(options);
    };
    const call = async (messages: ModelMessage[]) => {
      const trove = await adapter();
      return generateText({
        model,
        tools: trove.tools,
        prepareStep: recording(trove, shown),
        stopWhen: stepCountIs(10),
        messages,
      });
    };

    // ---- Turn 1: search, an invalid call, a valid call that needs approval.
    const history: ModelMessage[] = [
      { role: "user", content: "Refund payment pi_123 (20 EUR), then pi_456." },
    ];
    const first = await call(history);
    expect(found).toBe("stripe_refund_payment");
    expect(first.steps).toHaveLength(3);
    const search = first.steps[0]?.toolResults[0]?.output as { tools: { name: string }[] };
    expect(search.tools.map((t) => t.name)).toEqual(["stripe_refund_payment"]);
    expect(shown.map((s) => s.activeTools.sort())).toEqual([
      ["tool_search", "weather_now"],
      // What the search returned is callable from the next step on (as Trove's tool references).
      ["stripe_refund_payment", "tool_search", "weather_now"],
      ["stripe_refund_payment", "tool_search", "weather_now"],
    ]);
    expect(sent).toEqual(shown.map((s) => s.activeTools.sort()));
    expect(shown[0]?.system).toMatch(/^You are a support agent\.\n\n<tool_discovery>/);
    // The search never returns the denied tool, and it is never a tool of the call.
    expect(JSON.stringify(first.steps[0]?.toolResults)).not.toContain("admin");
    expect(sent.flat()).not.toContain("admin_purge_customers");

    // The invalid call: a readable refusal, the agent's code not run, the tool not activated.
    expect(first.steps[1]?.toolResults[0]?.output).toMatchObject({
      error: "invalid_arguments",
      violations: [expect.objectContaining({ path: "/payment_id" })],
    });
    expect(visibleAfterRefusal).not.toContain("stripe.refund_payment");
    // The valid call: activated on first use, and the SDK asks for approval instead of running it.
    const request = first.content.find((p) => p.type === "tool-approval-request");
    expect(request?.toolCall).toMatchObject({
      toolName: "stripe_refund_payment",
      input: { payment_id: "pi_123" },
    });
    expect(refunds).toEqual([]);
    let state = await session.state({});
    expect(state.visible).toContain("stripe.refund_payment");
    expect(state.pending_approvals).toMatchObject([
      { name: "stripe.refund_payment", args: { payment_id: "pi_123", amount: 2000 }, status: "pending" },
    ]);

    // ---- Turn 2: a person approves through the SDK; the approval goes to Trove before the code runs.
    log = [];
    history.push(...first.response.messages, {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId: request?.approvalId ?? "", approved: true }],
    });
    const second = await call(history);
    expect(refunds).toEqual([{ payment_id: "pi_123", amount: 2000 }]);
    const run = log.indexOf("run:stripe.refund_payment");
    expect(log.slice(0, run + 1)).toEqual([
      "trove:context", // the adapter, made for this turn, lists the visible tools
      "trove:state", // the approval Trove holds for this call
      "trove:approval_decide",
      "trove:tool_resolve",
      "run:stripe.refund_payment",
    ]);
    const refunded = second.response.messages[0];
    expect(refunded?.role === "tool" && refunded.content[0]).toMatchObject({
      type: "tool-result",
      output: { type: "json", value: { refund_id: "re_1", status: "succeeded" } },
    });
    // The next step lists the activated tool as Trove's own visible tool, and the model calls it.
    expect(shown[3]?.activeTools).toContain("stripe_refund_payment");
    expect(sent[3]).toContain("stripe_refund_payment");
    const again = second.content.find((p) => p.type === "tool-approval-request");
    expect(again?.toolCall.input).toEqual({ payment_id: "pi_456" });

    // ---- Turn 3: a person denies the second refund through the SDK; Trove records the denial.
    history.push(...second.response.messages, {
      role: "tool",
      content: [
        {
          type: "tool-approval-response",
          approvalId: again?.approvalId ?? "",
          approved: false,
          reason: "too much",
        },
      ],
    });
    const third = await call(history);
    expect(third.text).toMatch(/not approved/);
    expect(refunds).toHaveLength(1);

    state = await session.state({});
    expect(state.activations).toMatchObject([{ name: "stripe.refund_payment", source: "first_use" }]);
    expect(state.pending_approvals).toEqual([]); // one used, one denied
    const { events } = await session.events({ since: 0, limit: 100 });
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === "tool_activated")).toHaveLength(1);
    expect(types.filter((t) => t === "approval_requested")).toHaveLength(2);
    expect(events.filter((e) => e.type === "approval_decided").map((e) => e.data)).toMatchObject([
      { tool_name: "stripe.refund_payment", decision: "approve", by: "ai-sdk" },
      { tool_name: "stripe.refund_payment", decision: "deny", by: "ai-sdk" },
    ]);
  });

  it("a tool the policy denies answers exactly like one that does not exist", async () => {
    const jira = { name: "jira.create_issue", description: "Create a Jira issue", loading_mode: "always" };
    const slack = {
      name: "slack.post_message",
      description: "Post to a Slack channel",
      loading_mode: "always",
    };
    const { session } = await newSession({ deny: ["admin.*"] }, [...CATALOG, jira, slack]);
    const ran: string[] = [];
    const trove = await troveTools({ session, execute: (name) => ran.push(name) });
    expect(Object.keys(trove.tools)).not.toContain("admin_purge_customers");
    const shown: TroveStep[] = [];
    const model = scriptedModel([
      // Named outright: a denied tool and a missing one are refused alike, before any code runs.
      () => [
        { name: "admin_purge_customers", args: {} },
        { name: "no_such_tool", args: {} },
      ],
      // Listed when the step began, then denied (slack) or removed (jira) before the call arrives.
      async () => {
        await session.session_configure({ policy: { deny: ["admin.*", "slack.*"] } });
        await session.catalog_sync({ tools: [...CATALOG, slack] as typeof CATALOG });
        return [
          { name: "slack_post_message", args: { channel: "#ops" } },
          { name: "jira_create_issue", args: { title: "x" } },
          { name: "tool_search", args: { query: 42 } },
        ];
      },
      () => [{ text: "done" }],
    ]);
    const result = await generateText({
      model,
      tools: trove.tools,
      prepareStep: recording(trove, shown),
      stopWhen: stepCountIs(5),
      prompt: "Clean up",
    });
    expect(ran).toEqual([]);
    expect(shown[1]?.activeTools).toEqual(
      expect.arrayContaining(["slack_post_message", "jira_create_issue", "weather_now"]),
    );
    expect(shown.flatMap((s) => s.activeTools)).not.toContain("admin_purge_customers");

    // The SDK refuses both names the same way: neither is a tool of the call.
    const errors = result.steps[0]?.content.filter((p) => p.type === "tool-error") ?? [];
    const message = (p: (typeof errors)[number]) => String(p.error).replaceAll(p.toolName, "<tool>");
    expect(errors.map((p) => p.toolName)).toEqual(["admin_purge_customers", "no_such_tool"]);
    expect(message(errors[0] as (typeof errors)[number])).toBe(message(errors[1] as (typeof errors)[number]));

    // Trove refuses the denied tool and the removed one with one readable answer.
    const outputs = result.steps[1]?.toolResults.map((r) => r.output) ?? [];
    expect(outputs.slice(0, 2)).toEqual([
      { error: "unknown_tool", message: 'no tool named "slack.post_message" is available' },
      { error: "unknown_tool", message: 'no tool named "jira.create_issue" is available' },
    ]);
    // Bad arguments to one of Trove's own tools: the operation's readable 400.
    expect(outputs[2]).toMatchObject({
      error: "invalid_input",
      issues: [expect.objectContaining({ field: "query" })],
    });
  });

  it("examples/ai-sdk.ts runs a whole request with its scripted model", async () => {
    const { session } = await newSession({});
    const lines: string[] = [];
    const asked: string[] = [];
    const text = await supportTurn({
      session,
      model: exampleModel(),
      request: "Refund pi_123",
      approve: async (tool) => asked.push(tool) > 0,
      log: (line) => lines.push(line),
    });
    expect(asked).toEqual(["stripe_refund_payment"]);
    expect(text).toBe('Done: {"refund_id":"re_1","payment_id":"pi_123","amount":2000,"status":"succeeded"}');
    expect(lines.filter((line) => !line.startsWith("  result"))).toEqual([
      "step 1: the model sees tool_search, weather_now",
      '  calls   tool_search {"query":"refund a payment"}',
      "step 2: the model sees tool_search, weather_now, stripe_refund_payment, stripe_get_payment",
      '  calls   stripe_refund_payment {"payment_id":"pi_123","amount":2000}',
      '  approved stripe_refund_payment {"payment_id":"pi_123","amount":2000}',
      '  runs    stripe.refund_payment {"payment_id":"pi_123","amount":2000}',
      "step 1: the model sees tool_search, stripe_refund_payment, weather_now, stripe_get_payment",
    ]);
  });
});

describe("@trove/ai-sdk and learned skills", () => {
  it("submits a run's lesson, and after review a later run that loads it reports it helpful", async () => {
    const trove = new Trove({ baseUrl: worker.url, apiKey: "key-a" });
    const { session: first } = await newSession({});
    const learned = await submitLesson(first, {
      task_type: "support",
      trigger: "Refunding a payment the customer disputes",
      body: "Look the payment up with `stripe.get_payment` before you refund it, and refund the exact amount.",
      tools: ["stripe.get_payment"],
      outcome: "success",
      run_id: "run-1",
    });
    expect(learned.name).toMatch(/^learned\.support\.[0-9a-f]{8}$/);
    let status = "";
    for (let i = 0; i < 100 && status !== "pending"; i++) {
      status = await trove.tenant
        .learned_skill_get({ name: learned.name })
        .then((l) => l.status)
        .catch(() => "");
      if (status !== "pending") await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe("pending");
    expect((await trove.tenant.learned_skill_approve({ name: learned.name })).status).toBe("approved");

    const { session } = await newSession({});
    const tools = await troveTools({ session, execute: {} });
    const model = scriptedModel([
      () => [{ name: "skill_load", args: { name: learned.name } }],
      (prompt) => {
        expect(JSON.stringify(resultsIn(prompt))).toContain("refund the exact amount");
        return [{ text: "refunded" }];
      },
    ]);
    const result = await generateText({
      model,
      tools: tools.tools,
      prepareStep: tools.prepareStep,
      stopWhen: stepCountIs(3),
      prompt: "Refund the disputed payment",
    });
    expect(learnedSkillsUsed(result.response.messages)).toEqual([learned.name]);
    expect(
      await submitFeedback(session, {
        messages: result.response.messages,
        verdict: "helpful",
        runId: "run-2",
      }),
    ).toEqual([learned.name]);
    let helpful = 0;
    for (let i = 0; i < 100 && helpful === 0; i++) {
      helpful = (await trove.tenant.learned_skill_get({ name: learned.name })).helpful;
      if (helpful === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(helpful).toBe(1);
  });
});
