// Provider-shaped tool rendering, provider-safe names, example selection and token estimates.
import { Validator } from "@cfworker/json-schema";
import fc from "fast-check";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import catalog from "../../bench/search-eval/catalog.json";
import { sha256Hex } from "../../src/search/hash";
import { estimateJsonTokens, estimateTokens } from "../../src/search/tokens";
import { invertNames, providerNames } from "../../src/tools/provider-names";
import { type RenderableTool, renderTool, selectExamples, type ToolFormat } from "../../src/tools/render";
import { normalizeTool, ToolRecord } from "../../src/tools/tool-record";

const FORMATS: ToolFormat[] = ["anthropic", "openai", "openai_responses", "mcp", "json"];
const EXAMPLES_ON = { enabled: true, max_per_tool: 3 };
const EXAMPLES_OFF = { enabled: false, max_per_tool: 3 };

const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const ANTHROPIC_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

const records = catalog.map((t) => normalizeTool(ToolRecord.parse(t)));
const catalogNames = providerNames(records.map((t) => t.name));
const tools: RenderableTool[] = records.map((t) => ({
  ...t,
  providerName: catalogNames.get(t.name) as string,
  loading_mode: t.loading_mode ?? "always",
}));

// Each provider's documented tool shape, written from its API reference, not from render.ts.
const ObjectSchema = z.looseObject({
  type: z.literal("object"),
  properties: z.record(z.string(), z.unknown()).optional(),
  required: z.array(z.string()).optional(),
});
const Args = z.record(z.string(), z.unknown());
const Example = z.strictObject({
  args: Args,
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
});
const SHAPES: Record<ToolFormat, z.ZodType> = {
  // Messages API `tools[]` custom tool, with the tool-use-examples beta's `input_examples`.
  anthropic: z.strictObject({
    name: z.string().regex(ANTHROPIC_NAME),
    description: z.string().optional(),
    input_schema: ObjectSchema,
    input_examples: z.array(Args).min(1).optional(),
  }),
  // Chat Completions `tools[]` entry.
  openai: z.strictObject({
    type: z.literal("function"),
    function: z.strictObject({
      name: z.string().regex(OPENAI_NAME),
      description: z.string().optional(),
      parameters: ObjectSchema,
      strict: z.boolean().optional(),
    }),
  }),
  // Responses API `tools[]` function tool: flat, `strict` always sent.
  openai_responses: z.strictObject({
    type: z.literal("function"),
    name: z.string().regex(OPENAI_NAME),
    description: z.string().optional(),
    parameters: ObjectSchema,
    strict: z.boolean(),
  }),
  // MCP `Tool` from tools/list.
  mcp: z.strictObject({
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: ObjectSchema,
    outputSchema: ObjectSchema.optional(),
    annotations: z.record(z.string(), z.unknown()).optional(),
  }),
  json: z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9_.:-]{1,128}$/),
    provider_name: z.string().regex(OPENAI_NAME),
    description: z.string(),
    namespace: z.string().min(1),
    side_effects: z.string().min(1),
    loading_mode: z.enum(["always", "deferred"]),
    input_schema: ObjectSchema,
    output_schema: ObjectSchema.optional(),
    examples: z.array(Example).min(1).optional(),
  }),
};

function tool(overrides: Partial<RenderableTool> = {}): RenderableTool {
  return {
    name: "github.create_issue",
    providerName: "github_create_issue",
    description: "Create an issue.",
    namespace: "github",
    side_effects: "write",
    loading_mode: "always",
    input_schema: {
      type: "object",
      properties: { owner: { type: "string" }, title: { type: "string" } },
      required: ["owner", "title"],
    },
    ...overrides,
  };
}

const descriptionOf = (rendered: Record<string, any>) =>
  rendered.function?.description ?? rendered.description;

const expectInjectiveAndValid = (names: readonly string[], map: Map<string, string>) => {
  expect([...map.keys()].sort()).toEqual([...new Set(names)].sort());
  expect(new Set(map.values()).size).toBe(map.size);
  for (const [name, providerName] of map) {
    expect(providerName).toMatch(OPENAI_NAME);
    expect(providerName).toMatch(ANTHROPIC_NAME);
    if (OPENAI_NAME.test(name)) expect(providerName).toBe(name);
  }
  for (const [providerName, name] of invertNames(map)) expect(map.get(name)).toBe(providerName);
};

describe("provider names", () => {
  it("keeps a name that both providers already accept", () => {
    const names = ["search", "fetch-url", "a_b", "x".repeat(64)];
    expect([...providerNames(names).values()]).toEqual(names);
  });

  it("replaces dots and colons with underscores when the result is unique", () => {
    const map = providerNames(["github.create_issue", "slack:post-message", "ns.sub:tool"]);
    expect(map.get("github.create_issue")).toBe("github_create_issue");
    expect(map.get("slack:post-message")).toBe("slack_post-message");
    expect(map.get("ns.sub:tool")).toBe("ns_sub_tool");
  });

  it("shortens a 128-character name to 55 encoded characters, an underscore and 8 hex of its hash", () => {
    const name = `${"a".repeat(60)}.${"b".repeat(67)}`;
    expect(name).toHaveLength(128);
    const mapped = providerNames([name]).get(name);
    expect(mapped).toBe(`${"a".repeat(55)}_${sha256Hex(name).slice(0, 8)}`);
    expect(mapped).toHaveLength(64);
    // Already valid characters but one too long for OpenAI: shortened the same way.
    const n65 = "y".repeat(65);
    expect(providerNames([n65]).get(n65)).toBe(`${"y".repeat(55)}_${sha256Hex(n65).slice(0, 8)}`);
  });

  it("gives a.b, a:b and a_b distinct names, with the raw a_b keeping its own", () => {
    const map = providerNames(["a.b", "a:b", "a_b"]);
    expect(map.get("a_b")).toBe("a_b");
    expect(map.get("a.b")).toBe(`a_b_${sha256Hex("a.b").slice(0, 8)}`);
    expect(map.get("a:b")).toBe(`a_b_${sha256Hex("a:b").slice(0, 8)}`);
    // Two encoded names that collide with each other both take the hash form.
    expect(providerNames(["a.b", "a:b"]).get("a.b")).toBe(`a_b_${sha256Hex("a.b").slice(0, 8)}`);
    expect(providerNames(["a.b"]).get("a.b")).toBe("a_b");
  });

  it("moves a name to a longer hash when a raw name already looks like its hashed form", () => {
    const squatter = `a_b_${sha256Hex("a.b").slice(0, 8)}`;
    const names = ["a.b", "a:b", squatter];
    const map = providerNames(names);
    expect(map.get(squatter)).toBe(squatter);
    expect(map.get("a.b")).toBe(`a_b_${sha256Hex("a.b").slice(0, 16)}`);
    expectInjectiveAndValid(names, map);
  });

  it("maps names the same way whatever order they are listed in", () => {
    const name = fc.oneof(fc.stringMatching(/^[ab._:-]{1,5}$/), fc.stringMatching(/^[ab._:]{60,70}$/));
    fc.assert(
      fc.property(fc.uniqueArray(name, { maxLength: 30 }), fc.nat(), (names, k) => {
        const rotated = [...names.slice(k % (names.length || 1)), ...names.slice(0, k % (names.length || 1))];
        const expected = [...providerNames(names)].sort();
        expect([...providerNames(rotated)].sort()).toEqual(expected);
        expect([...providerNames([...names].reverse())].sort()).toEqual(expected);
      }),
    );
  });

  it("is injective, provider-valid and invertible for any set of catalog names", () => {
    const name = fc.oneof(fc.stringMatching(/^[ab._:-]{1,6}$/), fc.stringMatching(/^[\w.:-]{60,128}$/));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), (names) => {
        expectInjectiveAndValid(names, providerNames(names));
      }),
    );
  });

  it("gives every tool in the dev catalog a distinct provider name that maps back to it", () => {
    const names = records.map((t) => t.name);
    expectInjectiveAndValid(names, catalogNames);
    expect(catalogNames.get("github.create_issue")).toBe("github_create_issue");
  });

  it("refuses to invert a map in which two names share a provider name", () => {
    const clash = new Map([["a.b", "a_b"]]).set("a:b", "a_b");
    expect(() => invertNames(clash)).toThrow(/not unique/);
  });
});

describe("example selection", () => {
  const ex = (id: string, tags?: string[]) => ({ args: { id }, ...(tags ? { tags } : {}) });
  const ids = (examples: { args: { id: string } }[]) => examples.map((e) => e.args.id).join(" ");

  it("puts minimal examples first, then common, then edge-case, then the rest, in authored order", () => {
    const examples = [ex("e1", ["edge-case"]), ex("u1"), ex("c1", ["common"]), ex("m1", ["minimal"])];
    examples.push(ex("c2", ["common"]), ex("u2", ["other"]), ex("m2", ["minimal"]));
    expect(ids(selectExamples(examples, 10))).toBe("m1 m2 c1 c2 e1 u1 u2");
  });

  it("returns at most max examples, and none for a max of zero", () => {
    const examples = [ex("c1", ["common"]), ex("m1", ["minimal"]), ex("e1", ["edge-case"])];
    expect(ids(selectExamples(examples, 2))).toBe("m1 c1");
    expect(selectExamples(examples, 0)).toEqual([]);
  });

  it("ranks an example with several tags by its best one", () => {
    const examples = [ex("c1", ["common"]), ex("both", ["edge-case", "minimal"])];
    expect(ids(selectExamples(examples, 1))).toBe("both");
  });
});

describe("rendering", () => {
  it.each(FORMATS)("renders every dev catalog tool as a valid %s tool definition", (format) => {
    for (const t of tools) {
      for (const examples of [EXAMPLES_ON, EXAMPLES_OFF]) {
        const rendered = renderTool(t, format, examples);
        const parsed = SHAPES[format].safeParse(rendered);
        expect(parsed.error, `${t.name}: ${parsed.error?.message}`).toBeUndefined();
      }
    }
  });

  it("renders the shapes each provider documents", () => {
    const t = tool({ examples: [{ args: { owner: "acme", title: "Bug" }, description: "File a bug" }] });
    expect(renderTool(t, "anthropic", EXAMPLES_ON)).toEqual({
      name: "github_create_issue",
      description: "Create an issue.",
      input_schema: t.input_schema,
      input_examples: [{ owner: "acme", title: "Bug" }],
    });
    expect(renderTool(t, "openai", EXAMPLES_OFF)).toEqual({
      type: "function",
      function: { name: "github_create_issue", description: "Create an issue.", parameters: t.input_schema },
    });
    expect(renderTool({ ...t, output_schema: { type: "object" } }, "mcp", EXAMPLES_OFF)).toEqual({
      name: "github.create_issue",
      description: "Create an issue.",
      inputSchema: t.input_schema,
      outputSchema: { type: "object" },
    });
    expect(renderTool(t, "json", EXAMPLES_ON)).toEqual({
      name: "github.create_issue",
      provider_name: "github_create_issue",
      description: "Create an issue.",
      namespace: "github",
      side_effects: "write",
      loading_mode: "always",
      input_schema: t.input_schema,
      examples: t.examples,
    });
  });

  it("gives a tool without an input schema an empty object schema in every format", () => {
    const t = tool({ input_schema: undefined });
    const empty = { type: "object", properties: {} };
    expect(renderTool(t, "anthropic", EXAMPLES_ON).input_schema).toEqual(empty);
    expect((renderTool(t, "openai", EXAMPLES_ON).function as any).parameters).toEqual(empty);
    expect(renderTool(t, "mcp", EXAMPLES_ON).inputSchema).toEqual(empty);
    expect(renderTool(t, "json", EXAMPLES_ON).input_schema).toEqual(empty);
  });

  it("sends Anthropic only the examples whose args validate against the input schema", () => {
    const t = tool({
      examples: [
        { args: { owner: "acme" }, tags: ["minimal"] },
        { args: { owner: "acme", title: "Crash on start" } },
        { args: { owner: 42, title: "Wrong type" } },
        { args: { owner: "acme", title: "Second" } },
      ],
    });
    expect(renderTool(t, "anthropic", EXAMPLES_ON).input_examples).toEqual([
      { owner: "acme", title: "Crash on start" },
      { owner: "acme", title: "Second" },
    ]);
    expect(renderTool(t, "anthropic", { enabled: true, max_per_tool: 1 }).input_examples).toEqual([
      { owner: "acme", title: "Crash on start" },
    ]);
  });

  it("omits input_examples when no example validates, the schema cannot compile, or examples are off", () => {
    const bad = tool({ examples: [{ args: { owner: 1 } }] });
    expect(renderTool(bad, "anthropic", EXAMPLES_ON)).not.toHaveProperty("input_examples");
    const unresolvable = tool({
      input_schema: { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      examples: [{ args: { a: 1 } }],
    });
    expect(renderTool(unresolvable, "anthropic", EXAMPLES_ON)).not.toHaveProperty("input_examples");
    const good = tool({ examples: [{ args: { owner: "a", title: "b" } }] });
    expect(renderTool(good, "anthropic", EXAMPLES_OFF)).not.toHaveProperty("input_examples");
  });

  it("keeps only schema-valid Anthropic examples across the dev catalog", () => {
    for (const t of tools) {
      const rendered = renderTool(t, "anthropic", EXAMPLES_ON);
      const validator = new Validator(rendered.input_schema as any, "2020-12", false);
      for (const args of (rendered.input_examples as unknown[] | undefined) ?? []) {
        expect(validator.validate(args).valid).toBe(true);
      }
    }
  });

  it("appends one compact line per example to OpenAI and MCP descriptions", () => {
    const t = tool({
      examples: [
        {
          args: { owner: "acme", title: "Bug", labels: ["p1"] },
          description: "File a bug",
          tags: ["common"],
        },
        { args: { owner: "acme", title: "Hi" }, tags: ["minimal"] },
      ],
    });
    const expected = `Create an issue.\n\nExamples:\n- {"owner":"acme","title":"Hi"}\n- File a bug: {"owner":"acme","title":"Bug","labels":["p1"]}`;
    expect(descriptionOf(renderTool(t, "openai", EXAMPLES_ON))).toBe(expected);
    expect(descriptionOf(renderTool(t, "mcp", EXAMPLES_ON))).toBe(expected);
  });

  it("passes descriptions through unchanged when examples are off or absent", () => {
    const description = "  Line one.\n\nLine *two* with `code`.  ";
    const t = tool({ description, examples: [{ args: { owner: "a", title: "b" } }] });
    for (const format of FORMATS) {
      const rendered = renderTool(t, format, EXAMPLES_OFF);
      expect(descriptionOf(rendered)).toBe(description);
      expect(JSON.stringify(rendered)).not.toContain("Examples:");
    }
    expect(descriptionOf(renderTool(tool({ description }), "openai", EXAMPLES_ON))).toBe(description);
  });
});

// Realistic prompt blocks: an agent instruction, a skill procedure, an incident note, a task brief.
const PROSE = [
  `You are a support agent for Acme Cloud. Answer the customer's question using only the tools you have been given. If a tool call fails, explain what went wrong in plain language and suggest the next step; never invent an order number, an invoice amount or a tracking link. Keep answers short: two or three sentences unless the customer asks for detail. When a refund is over $500, ask a human to approve it before you call billing.refund_charge, and tell the customer that approval usually takes one business day.`,
  `## Reviewing a pull request\n\n1. Read the description and the linked issue first, so you know what the change is meant to do.\n2. Fetch the diff with \`github.get_pull_request_diff\` and skim it file by file. Flag anything that touches authentication, migrations or public APIs.\n3. Run the test suite (\`npm test\`) if the repository has one; report failures with the file and line.\n4. Leave comments on specific lines rather than one long summary. Be concrete: "this loop re-reads the config on every request" is useful, "performance could be better" is not.\n\nApprove only when every comment has been addressed or answered.`,
  `Incident 2024-11-03, 14:05–14:52 UTC: the EU region returned 502 errors for about 6% of requests. The cause was a configuration push that lowered the upstream connection limit from 1024 to 128 on 3 of 12 edge nodes. We rolled the change back at 14:41 and error rates returned to baseline (0.02%) by 14:52. Follow-ups: add a canary stage for connection-limit changes, alert when p99 latency exceeds 800 ms for five minutes, and document the rollback command in the runbook at https://wiki.example.com/runbooks/edge-config.`,
  `The user wants to move their team's weekly planning meeting from Tuesday to Thursday afternoon and invite the two new engineers, Priya and Marco. Check everyone's calendar for a free hour between 1 pm and 5 pm on Thursday, pick the earliest slot that works for all six people, update the recurring event, and send a short note to the channel explaining the change. If no slot works, propose two alternatives and ask the user to choose.`,
];

const relativeError = (text: string) => estimateTokens(text) / encode(text).length - 1;

describe("token estimates", () => {
  it.each(FORMATS)("estimate the whole dev catalog rendered as %s within 20 % of o200k_base", (format) => {
    for (const examples of [EXAMPLES_ON, EXAMPLES_OFF]) {
      const rendered = tools.map((t) => renderTool(t, format, examples));
      const error = relativeError(JSON.stringify(rendered));
      const label = `${format} examples=${examples.enabled}: ${(error * 100).toFixed(1)} %`;
      expect(Math.abs(error), label).toBeLessThan(0.2);
    }
  });

  it("estimate each prose prompt block within 20 % of o200k_base", () => {
    for (const text of PROSE) {
      const error = relativeError(text);
      expect(Math.abs(error), `${(error * 100).toFixed(1)} %: ${text.slice(0, 40)}`).toBeLessThan(0.2);
    }
  });

  it("price a value as the JSON text it serializes to", () => {
    const value = renderTool(tools[0] as RenderableTool, "anthropic", EXAMPLES_ON);
    expect(estimateJsonTokens(value)).toBe(estimateTokens(JSON.stringify(value)));
    expect(estimateJsonTokens(undefined)).toBe(0);
    expect(estimateTokens("")).toBe(0);
  });
});
