// Provider names round-trip: whatever the catalog's history (merges, replaces, policy changes),
// every name in context's name_map is valid for OpenAI and Anthropic (^[a-zA-Z0-9_-]{1,64}$),
// unique, names exactly one visible tool, and resolves through tool_resolve (and tool_search's
// tool_references) to its Trove name; the session's names are the ones the documented rule gives
// for the allowed tools, whatever order they arrived in. In-object, 10,000 runs in the long suite.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/ops/registry";
import type { SessionObject } from "../../src/session-object";
import { invertNames, providerNames } from "../../src/tools/provider-names";
import { newSid } from "../support/http";
import { type Config, Model, type Tool } from "../support/search-model";
import { configArb, nameArb } from "./catalog-model";
import { answerOf, checkStorage, inObject, quietly, runIn, runs } from "./support";

const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const LONG_PREFIX = `svc.${"very_long_segment_".repeat(4)}`;

/** Names that collide once encoded: `gh.get`, `gh:get`, `gh_get`; long names sharing 60 characters. */
const collidingNameArb = fc.oneof(
  fc
    .tuple(
      fc.constantFrom("gh", "Gh", "db"),
      fc.constantFrom(".", ":", "_", "-", "__"),
      fc.constantFrom("get", "list", "x"),
    )
    .map(([a, sep, b]) => `${a}${sep}${b}`),
  fc
    .tuple(fc.constantFrom(".", ":", "_"), fc.constantFrom("a", "b", "a.b", "a:b", "a_b"))
    .map(([sep, tail]) => `${LONG_PREFIX}${sep}${tail}`.slice(0, 128)),
  fc.stringMatching(/^[a-z_]{1,55}_[0-9a-f]{8}$/),
  nameArb,
);

const toolsArb = fc.uniqueArray(
  fc.record({
    name: collidingNameArb,
    description: fc.constantFrom("", "a tool"),
    loading_mode: fc.constantFrom("always" as const, "deferred" as const),
  }),
  { selector: (t) => t.name, maxLength: 12 },
);

type Step = { kind: "merge" | "replace"; tools: Tool[] } | { kind: "configure"; config: Config };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  toolsArb.map((tools) => ({ kind: "merge" as const, tools })),
  toolsArb.map((tools) => ({ kind: "replace" as const, tools })),
  configArb.map((config) => ({ kind: "configure" as const, config })),
);

describe("provider names", () => {
  const PURE_RUNS = runs(500, 10_000);

  it(`${PURE_RUNS} random name sets: valid, injective, stable for valid names, independent of order`, () => {
    fc.assert(
      fc.property(fc.uniqueArray(collidingNameArb, { maxLength: 30 }), fc.array(fc.nat()), (names, keys) => {
        const map = providerNames(names);
        expect([...map.keys()]).toEqual(names);
        const values = [...map.values()];
        for (const v of values) expect(v).toMatch(PROVIDER_NAME);
        expect(new Set(values).size).toBe(values.length);
        for (const n of names) if (PROVIDER_NAME.test(n)) expect(map.get(n)).toBe(n);
        const reordered = names
          .map((n, i) => ({ n, k: keys[i] ?? i }))
          .sort((a, b) => a.k - b.k)
          .map((x) => x.n);
        expect(new Map([...providerNames(reordered)].sort())).toEqual(new Map([...map].sort()));
        const inverse = invertNames(map);
        for (const [name, provider] of map) expect(inverse.get(provider)).toBe(name);
      }),
      { numRuns: PURE_RUNS },
    );
  });

  const RUNS = runs(100, 10_000);

  it(`${RUNS} random catalog histories: name_map round-trips through tool_resolve and tool_search`, async () => {
    const sid = newSid();
    const address = { tenant: "tenant-a", sid };
    await inObject(sid, (obj: SessionObject) =>
      quietly(() =>
        fc.assert(
          fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 6 }), async (steps) => {
            // Start each run from an empty catalog and the default config.
            answerOf(await runIn(obj, address, "session_configure", {}), "reset config");
            answerOf(await runIn(obj, address, "catalog_sync", { tools: [] }), "reset catalog");
            let catalog = new Map<string, Tool>();
            let config: Config = {
              default_loading_mode: "deferred",
              always_loaded_patterns: [],
              preferred_namespaces: [],
              policy: { allow: ["*"], deny: [] },
            };
            for (const step of steps) {
              if (step.kind === "configure") {
                answerOf(await runIn(obj, address, "session_configure", step.config), "configure");
                config = step.config;
              } else {
                answerOf(
                  await runIn(obj, address, "catalog_sync", { tools: step.tools, mode: step.kind }),
                  step.kind,
                );
                if (step.kind === "replace") catalog = new Map();
                for (const t of step.tools) catalog.set(t.name, t);
              }
            }
            const model = new Model([...catalog.values()], config);
            const allowed = model.allowedNames();
            const deferred = allowed.filter((n) => model.mode(n) === "deferred");
            for (let i = 0; i < deferred.length; i += 100) {
              answerOf(
                await runIn(obj, address, "tool_activate", { names: deferred.slice(i, i + 100) }),
                "activate",
              );
            }
            const expected = providerNames(allowed);
            for (const format of ["anthropic", "openai"] as const) {
              const ctx = answerOf(await runIn(obj, address, "context", { format }), "context");
              const rendered: string[] = ctx.tools.map((t: { name?: string; function?: { name: string } }) =>
                format === "openai" ? t.function?.name : t.name,
              );
              expect(new Set(rendered).size).toBe(rendered.length);
              expect(Object.keys(ctx.name_map).sort()).toEqual([...rendered].sort());
              const troveNames = Object.values(ctx.name_map) as string[];
              expect(new Set(troveNames).size).toBe(troveNames.length);
              for (const [provider, name] of Object.entries(ctx.name_map) as [string, string][]) {
                expect(provider).toMatch(PROVIDER_NAME);
                if (catalog.has(name)) expect(provider).toBe(expected.get(name));
                const resolved = answerOf(
                  // Arguments are checked (omitted ones as {}): Trove's own tools get their example's.
                  await runIn(obj, address, "tool_resolve", {
                    name: provider,
                    args: OPERATIONS.find((o) => o.name === name && o.model)?.example.input ?? {},
                  }),
                  provider,
                );
                expect({ name: resolved.name, provider_name: resolved.provider_name }).toEqual({
                  name,
                  provider_name: provider,
                });
              }
              // Every allowed agent tool is listed (all were activated or are always loaded).
              expect(troveNames.filter((n) => catalog.has(n)).sort()).toEqual([...allowed].sort());
            }
            const found = answerOf(
              await runIn(obj, address, "tool_search", {
                query: ".",
                search_type: "regex",
                limit: 20,
                include_always_loaded: true,
                format: "anthropic",
              }),
              "search",
            );
            found.tools.forEach((hit: { name: string }, i: number) => {
              expect(found.tool_references[i].tool_name).toBe(expected.get(hit.name));
            });
            checkStorage(obj);
          }),
          { numRuns: RUNS },
        ),
      ),
    );
  });
});
