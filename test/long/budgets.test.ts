// Budgets hold for any skills, sessions and requests: skill_get's formatted_context never exceeds
// max_tokens, nor context's <relevant_skills> skills.max_tokens (both by the estimator context
// uses, after hidden tools are rewritten and personal data redacted); and context's token_estimate
// is exactly that estimator applied to the system text and tools it returns, with a budget warning
// exactly when the total passes context.max_tokens. In-object, 10,000 runs in the long suite.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import { estimateJsonTokens, estimateTokens } from "../../src/search/tokens";
import type { SessionObject } from "../../src/session-object";
import { newSid } from "../support/http";
import type { Tool } from "../support/search-model";
import { catalogArb, configArb } from "./catalog-model";
import { answerOf, inObject, quietly, runIn, runs } from "./support";

/** Text that stresses the renderer: prose, any Unicode, personal data, tool names that get hidden. */
const textArb = fc
  .oneof(
    {
      weight: 3,
      arbitrary: fc
        .array(
          fc.constantFrom(
            "open",
            "the",
            "ticket",
            "with",
            "`gh.delete_repo`",
            "gh.get",
            "tool_search",
            "mail ops@acme.example",
            "call +1 (415) 555-0134",
            "Bearer sk-abcdefghijklmnopqrstuvwx",
            "https://x.example/a?token=secret",
            "日本語のテキスト",
            "—",
            "\n",
            "12345",
            '{"json": [1, 2]}',
          ),
          { minLength: 1, maxLength: 40 },
        )
        .map((w) => w.join(" ")),
    },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 300 }) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 120 }) },
  )
  .filter((s) => s.trim().length > 0);

const skillArb = fc.record({
  title: textArb,
  description: textArb,
  trigger: textArb,
  steps: fc.array(textArb, { minLength: 1, maxLength: 15 }),
  preconditions: fc.array(textArb, { maxLength: 5 }),
  failure_modes: fc.array(textArb, { maxLength: 5 }),
  tools: fc.subarray(["gh.delete_repo", "gh.get", "slack.send"]),
});

/** Penguiflow skills (s0, s1, …) and one Agent Skill with a markdown body, compiled as a deploy would. */
type SkillFields = typeof skillArb extends fc.Arbitrary<infer T> ? T : never;

function bundleOf(skills: SkillFields[], body: string | null): Bundle {
  const files = skills.map((s, i) => ({
    path: `gen/s${i}.skill.json`,
    content: JSON.stringify({ name: `s${i}`, ...s }),
  }));
  if (body !== null) {
    files.push({
      path: "gen/guide/SKILL.md",
      content: `---\nname: guide\ndescription: A long guide for the open ticket flow.\n---\n${body}\n`,
    });
  }
  const { bundle, errors } = compilePacks([{ path: "gen/pack.yaml", content: "name: gen\n" }, ...files]);
  expect(errors).toEqual([]);
  return bundle;
}

const bundleArb = fc
  .tuple(
    fc.array(skillArb, { minLength: 1, maxLength: 4 }),
    // A SKILL.md is a file: valid UTF-8 text (no lone surrogates, no NUL). JSON skills may have both.
    fc.option(
      fc.array(
        textArb.filter((s) => !/\p{Surrogate}/u.test(s) && !s.includes("\0")),
        { maxLength: 60 },
      ),
      { nil: null },
    ),
  )
  .map(([skills, body]) => ({ skills, bundle: bundleOf(skills, body === null ? null : body.join("\n")) }));

const names = (skills: unknown[], hasGuide: boolean) => [
  ...skills.map((_, i) => `s${i}`),
  ...(hasGuide ? ["guide"] : []),
];

const skillConfigArb = fc.record({
  max_tokens: fc.integer({ min: 200, max: 6000 }),
  top_k: fc.integer({ min: 1, max: 10 }),
  redact_pii: fc.boolean(),
});

const RUNS = runs(60, 10_000);

describe("budgets", () => {
  it(`${RUNS} random skills and budgets: skill_get's formatted_context fits max_tokens`, async () => {
    const sid = newSid();
    const address = { tenant: "tenant-a", sid };
    await inObject(sid, (obj: SessionObject) =>
      quietly(() =>
        fc.assert(
          fc.asyncProperty(
            bundleArb,
            fc.integer({ min: 200, max: 6000 }),
            fc.boolean(),
            fc.constantFrom([], ["gh.delete_repo"], ["gh.*"], ["tool_search"]),
            async ({ skills, bundle }, maxTokens, redact, deny) => {
              obj.bundle = bundle;
              answerOf(
                await runIn(obj, address, "session_configure", {
                  policy: { deny },
                  skills: { redact_pii: redact },
                }),
                "configure",
              );
              const all = names(
                skills,
                bundle.skills.some((s) => s.name === "guide"),
              );
              const res = answerOf(
                await runIn(obj, address, "skill_get", { names: all.slice(0, 10), max_tokens: maxTokens }),
                "skill_get",
              );
              expect(estimateTokens(res.formatted_context)).toBeLessThanOrEqual(maxTokens);
              expect(res.skills.map((s: { name: string }) => s.name)).toEqual(all.slice(0, 10));
            },
          ),
          { numRuns: RUNS },
        ),
      ),
    );
  });

  it(`${RUNS} random sessions: context's token_estimate is the estimator of what it returns`, async () => {
    const sid = newSid();
    const address = { tenant: "tenant-a", sid };
    await inObject(sid, (obj: SessionObject) =>
      quietly(() =>
        fc.assert(
          fc.asyncProperty(
            bundleArb,
            catalogArb(15),
            configArb,
            skillConfigArb,
            fc.record({
              format: fc.constantFrom("anthropic", "openai", "mcp", "json"),
              query: fc.option(fc.oneof(textArb, fc.constantFrom("open the ticket", "s0 ticket")), {
                nil: undefined,
              }),
              max_tokens: fc.option(fc.integer({ min: 100, max: 5000 }), { nil: null }),
              examples: fc.record({ enabled: fc.boolean(), max_per_tool: fc.integer({ min: 0, max: 10 }) }),
              activate: fc.array(fc.nat(), { maxLength: 5 }),
            }),
            async ({ bundle }, tools: Tool[], config, skillConfig, request) => {
              obj.bundle = bundle;
              answerOf(
                await runIn(obj, address, "session_configure", {
                  ...config,
                  skills: skillConfig,
                  examples: request.examples,
                  context: { max_tokens: request.max_tokens },
                }),
                "configure",
              );
              answerOf(await runIn(obj, address, "catalog_sync", { tools }), "sync");
              const picks = request.activate
                .map((i) => tools[i % Math.max(1, tools.length)]?.name)
                .filter((n): n is string => n !== undefined);
              // Denied names answer 404 and activate nothing: either way the context must add up.
              if (picks.length > 0) await runIn(obj, address, "tool_activate", { names: picks });
              const ctx = answerOf(
                await runIn(obj, address, "context", { format: request.format, query: request.query }),
                "context",
              );
              const system = estimateTokens(ctx.system);
              const toolTokens = estimateJsonTokens(ctx.tools);
              expect(ctx.token_estimate).toEqual({ system, tools: toolTokens, total: system + toolTokens });
              const overBudget = ctx.warnings.some((w: { code: string }) => w.code === "over_token_budget");
              expect(overBudget).toBe(
                request.max_tokens !== null && system + toolTokens > request.max_tokens,
              );
              const open = "<relevant_skills>\n";
              const at = ctx.system.indexOf(open);
              if (at !== -1) {
                const end = ctx.system.lastIndexOf("\n</relevant_skills>");
                expect(estimateTokens(ctx.system.slice(at + open.length, end))).toBeLessThanOrEqual(
                  skillConfig.max_tokens,
                );
              }
            },
          ),
          { numRuns: RUNS },
        ),
      ),
    );
  });
});
