// Requests built from Trove's answers, checked against the providers' own SDKs: each request is
// written as a typed literal and compiled with the TypeScript compiler under strict options
// (@anthropic-ai/sdk's Messages and beta Messages types, openai's Chat Completions and Responses),
// then sent by the SDK client to a stub HTTP server on 127.0.0.1, which must receive Trove's tools
// unchanged. A request Anthropic would refuse — a tool_reference naming a tool the request does
// not hold, or every tool deferred — fails here too.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closed } from "../support/fixtures";
import { STRICT_OPTIONS } from "./strict-typescript";
import { type RunningWorker, startWorker } from "./worker";

// ---- A realistic catalog: nested schemas, some strict-compatible, some not ----

const CATALOG = [
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    input_schema: closed({
      repo: { type: "string", description: "owner/name", pattern: "^[\\w.-]+/[\\w.-]+$" },
      title: { type: "string" },
      body: { type: ["string", "null"] },
      labels: { type: "array", items: { type: "string", enum: ["bug", "feature", "docs"] }, maxItems: 5 },
    }),
    examples: [
      { args: { repo: "acme/web", title: "Login fails", body: null, labels: ["bug"] }, tags: ["minimal"] },
    ],
  },
  {
    name: "github.search_code",
    description: "Search code across GitHub repositories",
    input_schema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1 },
        language: { type: "string" },
        page: { type: "integer", minimum: 1, default: 1 },
      },
      required: ["query"],
    },
  },
  {
    name: "stripe:refund_payment",
    description: "Refund a Stripe payment, fully or partly",
    input_schema: closed(
      {
        payment_id: { type: "string" },
        amount: { anyOf: [{ $ref: "#/$defs/money" }, { type: "null" }] },
        reason: { type: "string", enum: ["duplicate", "fraudulent", "requested_by_customer"] },
      },
      { $defs: { money: closed({ value: { type: "integer", minimum: 1 }, currency: { type: "string" } }) } },
    ),
  },
  {
    name: "calendar.create_event",
    description: "Create a calendar event and invite attendees",
    input_schema: closed({
      title: { type: "string" },
      start: { type: "string", format: "date-time" },
      attendees: {
        type: "array",
        items: closed({ email: { type: "string", format: "email" }, optional: { type: "boolean" } }),
      },
      recurrence: { anyOf: [closed({ every: { type: "string", enum: ["day", "week"] } }), { type: "null" }] },
    }),
  },
  {
    name: "slack.post-message",
    description: "Post a message to a Slack channel",
    input_schema: {
      type: "object",
      properties: { channel: { type: "string" }, text: { type: "string" }, thread_ts: { type: "string" } },
      required: ["channel", "text"],
    },
    examples: [{ args: { channel: "#ops", text: "Deploy done" }, description: "announce a deploy" }],
  },
  {
    name: "jira.create_ticket",
    description: "Open a Jira ticket in a project",
    input_schema: closed({
      project: { type: "string" },
      fields: closed({ summary: { type: "string" }, priority: { type: "string", enum: ["low", "high"] } }),
    }),
  },
  { name: "docs.search", description: "Search the team's documentation" },
];
const STRICT = new Set([
  "github.create_issue",
  "stripe:refund_payment",
  "calendar.create_event",
  "jira.create_ticket",
]);
const CONFIG = { skills: { enabled: false }, always_loaded_patterns: ["github.create_issue"] };

// ---- Trove over real HTTP ----

let worker: RunningWorker;

async function trove(sid: string, path: string, body: unknown, method = "POST"): Promise<any> {
  const res = await fetch(`${worker.url}/v1/sessions/${sid}${path}`, {
    method,
    headers: { authorization: "Bearer key-a", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

async function session(config: Record<string, unknown>): Promise<string> {
  const sid = `providers-${crypto.randomUUID()}`;
  await trove(sid, "", config, "PUT");
  await trove(sid, "/catalog_sync", { tools: CATALOG });
  return sid;
}

// ---- The stub provider: records what the SDK sends, answers a minimal valid response ----

interface Recorded {
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
}

let stub: Server;
let stubUrl: string;
const recorded: Recorded[] = [];

const MODEL = "stub-model";
const ANSWERS: [RegExp, unknown][] = [
  [
    /^\/v1\/messages(\?|$)/,
    {
      id: "msg_stub",
      type: "message",
      role: "assistant",
      model: MODEL,
      content: [{ type: "text", text: "ok" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
  ],
  [
    /^\/v1\/chat\/completions$/,
    {
      id: "chatcmpl-stub",
      object: "chat.completion",
      created: 0,
      model: MODEL,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "ok", refusal: null },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    },
  ],
  [
    /^\/v1\/responses$/,
    {
      id: "resp_stub",
      object: "response",
      created_at: 0,
      status: "completed",
      model: MODEL,
      output: [
        {
          type: "message",
          id: "msg_stub",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: "ok", annotations: [] }],
        },
      ],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    },
  ],
];

/** What the model "calls" in the client-executed tool search flow: Trove's tool_search arguments. */
const SEARCH_ARGUMENTS = { query: "refund a payment" };
/** The model's tool_search_call, as the Responses API returns it with execution "client". */
const TOOL_SEARCH_CALL = {
  type: "tool_search_call",
  id: "tsc_stub",
  call_id: "call_stub_1",
  execution: "client",
  status: "completed",
  arguments: SEARCH_ARGUMENTS,
};

/**
 * A Responses request that declares a client-executed tool_search and holds only the user's message
 * is answered as the model would: with a tool_search_call for the agent to run. Anything else gets
 * the plain answers.
 */
function searchCallAnswer(body: any): unknown {
  const clientSearch = body?.tools?.some((t: any) => t.type === "tool_search" && t.execution === "client");
  if (!clientSearch || body.input?.length !== 1) return undefined;
  return {
    id: "resp_stub_search",
    object: "response",
    created_at: 0,
    status: "completed",
    model: MODEL,
    output: [TOOL_SEARCH_CALL],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
}

/** What the stub received for the one request the SDK just sent. */
function lastRequest(): Recorded {
  const last = recorded.at(-1);
  if (!last) throw new Error("the stub received nothing");
  return last;
}

// ---- The TypeScript compiler, strict ----

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const COMPILER_OPTIONS: ts.CompilerOptions = {
  ...STRICT_OPTIONS,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: ["node"],
  // The SDKs' own declarations are theirs to check; every diagnostic about our literals remains.
  skipLibCheck: true,
};

interface TypedRequest {
  /** The SDK type the request is declared as, e.g. `OpenAI.Responses.ResponseCreateParamsNonStreaming`. */
  type: string;
  value: unknown;
}

/**
 * Compiles one file per request (`const request: <type> = <literal>;`) in one program and returns
 * each file's diagnostics as text, in order. The files live under node_modules/.cache so that the
 * SDKs resolve from the repository's node_modules.
 */
async function typeCheck(requests: readonly TypedRequest[]): Promise<string[][]> {
  const cache = join(REPO, "node_modules", ".cache");
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(join(cache, "trove-provider-types-"));
  try {
    const files = requests.map((_, i) => join(dir, `request-${i}.ts`));
    for (const [i, request] of requests.entries()) {
      const text = [
        'import type Anthropic from "@anthropic-ai/sdk";',
        'import type OpenAI from "openai";',
        `export const request: ${request.type} = ${JSON.stringify(request.value, null, 2)};`,
        "",
      ].join("\n");
      await writeFile(files[i] as string, text);
    }
    const program = ts.createProgram(files, COMPILER_OPTIONS);
    return files.map((file) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---- The requests ----

const USER_TEXT = "Refund the duplicate payment pi_123, then file a bug about it in acme/web.";
let anthropicDeferred: any;
let anthropicPlain: any;
/** Without defer_loading, examples on: github_create_issue carries input_examples (beta types only). */
let anthropicWithExamples: any;
let openaiChat: any;
let openaiResponses: any;
let openaiDeferred: any;
let search: any;
let openaiSid: string;
let requests: {
  anthropicBeta: any;
  anthropicMessages: any;
  chat: any;
  responses: any;
  responsesSearch: any;
  responsesLoaded: any;
};
/** Trove's answer to the model's tool_search_call (format openai_responses, its call_id). */
let openaiFound: any;

beforeAll(async () => {
  worker = await startWorker();
  stub = createServer(async (req, res) => {
    let data = "";
    for await (const chunk of req) data += chunk;
    recorded.push({ url: req.url ?? "", headers: req.headers, body: data ? JSON.parse(data) : null });
    const body = data ? JSON.parse(data) : null;
    const answer = searchCallAnswer(body) ?? ANSWERS.find(([path]) => path.test(req.url ?? ""))?.[1];
    res.writeHead(answer ? 200 : 404, { "content-type": "application/json", "request-id": "req_stub" });
    res.end(JSON.stringify(answer ?? { error: { type: "not_found_error", message: req.url } }));
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;

  const sid = await session(CONFIG);
  anthropicDeferred = await trove(sid, "/context", { format: "anthropic", defer_loading: true });
  openaiChat = await trove(sid, "/context", { format: "openai" });
  openaiResponses = await trove(sid, "/context", { format: "openai_responses" });
  openaiDeferred = await trove(sid, "/context", { format: "openai_responses", defer_loading: true });
  openaiSid = sid;
  search = await trove(sid, "/tool_search", {
    query: "refund a payment or create an issue",
    format: "anthropic",
  });
  // Anthropic's generally available Messages types (SDK 0.71) know no input_examples: that
  // request comes from a session with examples off, and without defer_loading.
  const plain = await session({ ...CONFIG, examples: { enabled: false } });
  anthropicPlain = await trove(plain, "/context", { format: "anthropic" });
  anthropicWithExamples = await trove(sid, "/context", { format: "anthropic" });

  const searchCall = { query: "refund a payment or create an issue" };
  requests = {
    anthropicBeta: {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      system: anthropicDeferred.system,
      tools: anthropicDeferred.tools,
      messages: [
        { role: "user", content: USER_TEXT },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_01", name: "tool_search", input: searchCall }],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_01", content: search.tool_references }],
        },
      ],
    },
    anthropicMessages: {
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      system: anthropicPlain.system,
      tools: anthropicPlain.tools,
      messages: [{ role: "user", content: USER_TEXT }],
    },
    chat: {
      model: "gpt-5.4",
      messages: [
        { role: "system", content: openaiChat.system },
        { role: "user", content: USER_TEXT },
      ],
      tools: openaiChat.tools,
    },
    responses: {
      model: "gpt-5.4",
      instructions: openaiResponses.system,
      input: [{ role: "user", content: USER_TEXT }],
      tools: openaiResponses.tools,
    },
    // OpenAI's client-executed tool search: the first request, then the one after the model's
    // tool_search_call, which carries the call and Trove's tool_search_output.
    responsesSearch: {
      model: "gpt-5.4",
      instructions: openaiDeferred.system,
      input: [{ role: "user", content: USER_TEXT }],
      tools: openaiDeferred.tools,
    },
    responsesLoaded: null,
  };
  openaiFound = await trove(sid, "/tool_search", {
    ...TOOL_SEARCH_CALL.arguments,
    format: "openai_responses",
    call_id: TOOL_SEARCH_CALL.call_id,
  });
  requests.responsesLoaded = {
    ...requests.responsesSearch,
    input: [...requests.responsesSearch.input, TOOL_SEARCH_CALL, openaiFound.tool_search_output],
  };
});

afterAll(async () => {
  await new Promise((resolve) => stub?.close(resolve));
  await worker?.dispose();
});

describe("Trove's answers in the providers' SDK types", () => {
  it("type-check as the SDKs' request types under strict options, and the checker is not vacuous", async () => {
    const [
      beta,
      messages,
      chat,
      responses,
      responsesSearch,
      responsesLoaded,
      searchTool,
      searchOutput,
      deferredAsGa,
      chatAsResponses,
      responsesAsChat,
      chatToolsAsOutput,
      serverExecution,
      examplesAsGa,
      examplesAsBeta,
    ] = await typeCheck([
      { type: "Anthropic.Beta.Messages.MessageCreateParamsNonStreaming", value: requests.anthropicBeta },
      { type: "Anthropic.Messages.MessageCreateParamsNonStreaming", value: requests.anthropicMessages },
      { type: "OpenAI.Chat.ChatCompletionCreateParamsNonStreaming", value: requests.chat },
      { type: "OpenAI.Responses.ResponseCreateParamsNonStreaming", value: requests.responses },
      { type: "OpenAI.Responses.ResponseCreateParamsNonStreaming", value: requests.responsesSearch },
      { type: "OpenAI.Responses.ResponseCreateParamsNonStreaming", value: requests.responsesLoaded },
      { type: "OpenAI.Responses.ToolSearchTool", value: openaiDeferred.tools[0] },
      {
        type: "OpenAI.Responses.ResponseToolSearchOutputItemParam",
        value: openaiFound.tool_search_output,
      },
      // Controls: shapes the SDKs do not accept must fail to compile.
      { type: "Anthropic.Messages.MessageCreateParamsNonStreaming", value: requests.anthropicBeta },
      {
        type: "OpenAI.Responses.ResponseCreateParamsNonStreaming",
        value: { ...requests.responses, tools: openaiChat.tools },
      },
      {
        type: "OpenAI.Chat.ChatCompletionCreateParamsNonStreaming",
        value: { ...requests.chat, tools: openaiResponses.tools },
      },
      {
        type: "OpenAI.Responses.ResponseToolSearchOutputItemParam",
        value: { ...openaiFound.tool_search_output, tools: openaiChat.tools },
      },
      {
        type: "OpenAI.Responses.ToolSearchTool",
        value: { ...openaiDeferred.tools[0], execution: "browser" },
      },
      // docs/providers.md: input_examples is typed in the beta namespace only (SDK 0.71).
      {
        type: "Anthropic.Messages.MessageCreateParamsNonStreaming",
        value: { ...requests.anthropicMessages, tools: anthropicWithExamples.tools },
      },
      {
        type: "Anthropic.Beta.Messages.MessageCreateParamsNonStreaming",
        value: { ...requests.anthropicMessages, tools: anthropicWithExamples.tools },
      },
    ]);
    expect(JSON.stringify(anthropicWithExamples.tools)).toContain('"input_examples"');
    expect(examplesAsGa?.join("\n")).toMatch(/'"input_examples"' does not exist in type 'Tool'/);
    expect(examplesAsBeta).toEqual([]);
    expect(beta).toEqual([]);
    expect(messages).toEqual([]);
    expect(chat).toEqual([]);
    expect(responses).toEqual([]);
    expect(responsesSearch).toEqual([]);
    expect(responsesLoaded).toEqual([]);
    expect(searchTool).toEqual([]);
    expect(searchOutput).toEqual([]);
    expect(chatToolsAsOutput?.join("\n")).toMatch(/'"function"' does not exist in type 'FunctionTool'/);
    expect(serverExecution?.join("\n")).toMatch(/'"browser"' is not assignable/);
    // The controls fail for the reason they exist: the shape, not a missing module or type.
    expect(deferredAsGa?.join("\n")).toMatch(/'"defer_loading"' does not exist in type 'Tool'/);
    expect(deferredAsGa?.join("\n")).toMatch(/'"tool_reference"' is not assignable/);
    expect(chatAsResponses?.join("\n")).toMatch(/'"function"' does not exist in type 'FunctionTool'/);
    expect(responsesAsChat?.join("\n")).toMatch(
      /'"name"' does not exist in type 'ChatCompletionFunctionTool'/,
    );
  }, 120_000);
});

describe("Trove's answers sent by the SDK clients", () => {
  it("Anthropic Messages with deferred tools and the tool_reference blocks: the body is the request, unchanged", async () => {
    const client = new Anthropic({ baseURL: stubUrl, apiKey: "x", maxRetries: 0 });
    const req = requests.anthropicBeta as Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
    const message = await client.beta.messages.create(req);
    expect(message.id).toBe("msg_stub");
    const sent = lastRequest();
    expect(sent.url).toMatch(/^\/v1\/messages/);
    expect(sent.body).toEqual(requests.anthropicBeta);
    expect(sent.body.tools).toEqual(anthropicDeferred.tools);

    // What Anthropic checks: every referenced tool is in the request, at least one tool is
    // loaded up front, and the search tool itself is never deferred.
    const tools = sent.body.tools as { name: string; defer_loading?: boolean }[];
    const names = new Set(tools.map((t) => t.name));
    const refs = sent.body.messages[2].content[0].content as { type: string; tool_name: string }[];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(names.has(ref.tool_name), ref.tool_name).toBe(true);
    expect(tools.some((t) => !t.defer_loading)).toBe(true);
    expect(tools.find((t) => t.name === "tool_search")).not.toHaveProperty("defer_loading");
    expect(tools).toHaveLength(1 + CATALOG.length);
    expect(tools.filter((t) => t.defer_loading).map((t) => anthropicDeferred.name_map[t.name])).toEqual(
      CATALOG.map((t) => t.name)
        .filter((n) => n !== "github.create_issue")
        .sort(),
    );
  });

  it("Anthropic Messages (generally available types): the body is the request, unchanged", async () => {
    const client = new Anthropic({ baseURL: stubUrl, apiKey: "x", maxRetries: 0 });
    const req = requests.anthropicMessages as Anthropic.Messages.MessageCreateParamsNonStreaming;
    await client.messages.create(req);
    const sent = lastRequest();
    expect(sent.url).toBe("/v1/messages");
    expect(sent.body).toEqual(requests.anthropicMessages);
    expect(sent.body.tools).toEqual(anthropicPlain.tools);
  });

  it("OpenAI Chat Completions: the body is the request, unchanged", async () => {
    const client = new OpenAI({ baseURL: `${stubUrl}/v1`, apiKey: "x", maxRetries: 0 });
    const req = requests.chat as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    const completion = await client.chat.completions.create(req);
    expect(completion.choices[0]?.message.content).toBe("ok");
    const sent = lastRequest();
    expect(sent.url).toBe("/v1/chat/completions");
    expect(sent.body).toEqual(requests.chat);
    expect(sent.body.tools).toEqual(openaiChat.tools);
  });

  it("OpenAI Responses: the body is the request, unchanged, with strict exactly on the strict-compatible schemas", async () => {
    const client = new OpenAI({ baseURL: `${stubUrl}/v1`, apiKey: "x", maxRetries: 0 });
    const req = requests.responses as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const response = await client.responses.create(req);
    expect(response.output_text).toBe("ok");
    const sent = lastRequest();
    expect(sent.url).toBe("/v1/responses");
    expect(sent.body).toEqual(requests.responses);
    expect(sent.body.tools).toEqual(openaiResponses.tools);
    const strict = Object.fromEntries(
      (sent.body.tools as { name: string; strict: boolean }[]).map((t) => [
        openaiResponses.name_map[t.name],
        t.strict,
      ]),
    );
    expect(strict).toEqual(
      Object.fromEntries([
        ["tool_search", false],
        ...CATALOG.filter((t) => t.name === "github.create_issue").map((t) => [t.name, STRICT.has(t.name)]),
      ]),
    );
  });

  it("OpenAI Responses with every tool loaded: strict is true for the strict-compatible schemas only", async () => {
    const sid = await session({ ...CONFIG, always_loaded_patterns: ["*"] });
    const ctx = await trove(sid, "/context", { format: "openai_responses" });
    const client = new OpenAI({ baseURL: `${stubUrl}/v1`, apiKey: "x", maxRetries: 0 });
    await client.responses.create({ model: "gpt-5.4", input: USER_TEXT, tools: ctx.tools });
    const sent = lastRequest().body.tools as { name: string; strict: boolean; parameters: unknown }[];
    expect(sent).toEqual(ctx.tools);
    for (const tool of sent) {
      const name = ctx.name_map[tool.name];
      expect(tool.strict, name).toBe(STRICT.has(name));
      const record = CATALOG.find((t) => t.name === name);
      if (record) expect(tool.parameters).toEqual(record.input_schema ?? { type: "object", properties: {} });
    }
  });

  it("OpenAI Responses with Trove as the client-executed tool search: the whole turn, request by request", async () => {
    const client = new OpenAI({ baseURL: `${stubUrl}/v1`, apiKey: "x", maxRetries: 0 });

    // 1. The request: tool_search (execution "client") and every allowed tool, deferred ones marked.
    const first = await client.responses.create(
      requests.responsesSearch as OpenAI.Responses.ResponseCreateParamsNonStreaming,
    );
    expect(lastRequest().body).toEqual(requests.responsesSearch);
    const tools = lastRequest().body.tools as { type: string; name?: string; defer_loading?: boolean }[];
    expect(tools[0]).toMatchObject({ type: "tool_search", execution: "client" });
    expect(
      tools.filter((t) => t.defer_loading).map((t) => openaiDeferred.name_map[t.name as string]),
    ).toEqual(
      CATALOG.map((t) => t.name)
        .filter((n) => n !== "github.create_issue")
        .sort(),
    );

    // 2. The model searches: the agent sends the call's arguments to Trove's tool_search.
    const call = first.output.find(
      (item): item is OpenAI.Responses.ResponseToolSearchCall => item.type === "tool_search_call",
    );
    expect(call?.execution).toBe("client");
    const found = await trove(openaiSid, "/tool_search", {
      ...(call?.arguments as Record<string, unknown>),
      format: "openai_responses",
      call_id: call?.call_id,
    });
    expect(found).toEqual(openaiFound);
    expect(found.tools[0].name).toBe("stripe:refund_payment");

    // 3. The next request: the call and Trove's tool_search_output, appended to the input.
    const next: OpenAI.Responses.ResponseCreateParamsNonStreaming = {
      ...(requests.responsesSearch as OpenAI.Responses.ResponseCreateParamsNonStreaming),
      input: [
        { role: "user", content: USER_TEXT },
        {
          type: "tool_search_call",
          id: call?.id ?? null,
          call_id: call?.call_id ?? null,
          execution: "client",
          status: "completed",
          arguments: call?.arguments,
        },
        found.tool_search_output as OpenAI.Responses.ResponseToolSearchOutputItemParam,
      ],
    };
    const second = await client.responses.create(next);
    expect(second.output_text).toBe("ok");
    const sent = lastRequest().body;
    expect(sent).toEqual(requests.responsesLoaded);
    // The output answers the call, and loads tools the request declared deferred, by the same name.
    const output = sent.input[2];
    expect(output.call_id).toBe(sent.input[1].call_id);
    const declared = new Map(tools.map((t) => [t.name, t]));
    expect(output.tools.length).toBeGreaterThan(0);
    for (const tool of output.tools) {
      const { defer_loading, ...definition } = declared.get(tool.name) as Record<string, unknown>;
      expect(defer_loading, tool.name).toBe(true);
      expect(tool).toEqual(definition);
    }
  });
});
