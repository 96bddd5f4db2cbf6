// Property tests for tool_search over random catalogs, configs and queries, through the real worker.
// The reference model of test/support/search-model.ts (who is allowed, who is deferred, the order)
// is the oracle; catalogs here are simpler than the long suites' (every name is `ns.words`).
import { createExecutionContext, env } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app";
import { KEY_A, newSid } from "../support/http";
import { type Config, type Hit, Model, REGEX_SCORES, SIDE_EFFECTS, type Tool } from "../support/search-model";

/**
 * Requests go straight to the worker's Hono app (same routes, auth, validation and session
 * objects) instead of SELF.fetch, whose per-request cost grows with every request made in a
 * test file (cloudflare/workers-sdk#15446) — thousands of property-test requests would crawl.
 */
const app = createApp();

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await app.fetch(
    new Request(`https://trove.test${path}`, {
      method,
      headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
    env,
    createExecutionContext(),
  );
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const op = (sid: string, name: string, body: unknown) => call("POST", `/v1/sessions/${sid}/${name}`, body);

const NAMESPACES = ["gh", "slack", "fs", "db", "zz"] as const;
const WORDS = ["get", "list", "create", "issue", "file", "user", "send", "message", "read", "a", "b"];
const joinWords = (words: string[], style: "_" | "-" | "camel") =>
  style === "camel"
    ? words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("")
    : words.join(style);

const nameArb = fc
  .tuple(
    fc.constantFrom(...NAMESPACES),
    fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
    fc.constantFrom("_" as const, "-" as const, "camel" as const),
  )
  .map(([ns, words, style]) => `${ns}.${joinWords(words, style)}`);

/** ASCII prose from the same vocabulary as the names, so searches hit often. */
const proseArb = fc
  .array(fc.constantFrom(...WORDS, "the", "of", "repository", "channel", "Issue", "FILE"), { maxLength: 8 })
  .map((w) => w.join(" "));

const toolArb = (description: fc.Arbitrary<string>) =>
  fc.record(
    {
      name: nameArb,
      description,
      tags: fc.uniqueArray(fc.constantFrom(...WORDS, "misc"), { maxLength: 3 }),
      side_effects: fc.constantFrom(...SIDE_EFFECTS),
      loading_mode: fc.constantFrom("always" as const, "deferred" as const),
    },
    { requiredKeys: ["name", "description"] },
  );

const catalogArb = (description: fc.Arbitrary<string> = proseArb) =>
  fc.uniqueArray(toolArb(description), { selector: (t) => t.name, maxLength: 20 });

const configArb: fc.Arbitrary<Config> = fc.record({
  default_loading_mode: fc.constantFrom("always" as const, "deferred" as const, "deferred" as const),
  always_loaded_patterns: fc.subarray([...NAMESPACES], { maxLength: 2 }).map((ns) => ns.map((n) => `${n}.*`)),
  preferred_namespaces: fc.shuffledSubarray([...NAMESPACES], { maxLength: 3 }),
  policy: fc.record({
    deny: fc.subarray([...NAMESPACES], { maxLength: 2 }).map((ns) => ns.map((n) => `${n}.*`)),
  }),
});

/**
 * Loads a catalog and config into `sid`, replacing what a previous run left there. Runs reuse a
 * session: workerd slows down as thousands of live objects pile up in one test file.
 */
async function session(sid: string, tools: Tool[], config: Config): Promise<{ sid: string; model: Model }> {
  const put = await call("PUT", `/v1/sessions/${sid}`, config);
  expect(put.status).toBe(200);
  const sync = await op(sid, "catalog_sync", { tools });
  expect(sync.status).toBe(200);
  return { sid, model: new Model(tools, config) };
}

/** Invariants every successful search response must satisfy. */
function checkResponse(
  model: Model,
  body: any,
  request: { query: string; search_type: string; limit: number; include: boolean },
) {
  expect(body.query).toBe(request.query);
  expect(body.search_type).toBe(request.search_type);
  expect(body.total_deferred).toBe(model.deferredCount());
  const hits: Hit[] = body.tools;
  expect(hits.length).toBeLessThanOrEqual(request.limit);
  expect(new Set(hits.map((h) => h.name)).size).toBe(hits.length);
  for (const h of hits) {
    expect(h.score).toBeGreaterThanOrEqual(0);
    expect(h.score).toBeLessThanOrEqual(1);
    expect(h.match_type).toBe(request.search_type);
    expect(model.allowed(h.name), `denied tool ${h.name} returned`).toBe(true);
    expect(model.searchable(h.name, request.include), `${h.name} should not be visible`).toBe(true);
    expect(h.loading_mode).toBe(model.mode(h.name));
    expect(h.description).toBe(model.byName.get(h.name)?.description);
  }
  hits.slice(1).forEach((next, i) => {
    const prev = hits[i] as Hit;
    expect(model.compare(prev, next), `${prev.name} before ${next.name}`).toBeLessThanOrEqual(0);
  });
}

const queryArb = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc
    .array(fc.constantFrom(...WORDS, "AND", "OR", "NOT", "NEAR", '"', "*", "(", ")", ":", "^", "-", "+"), {
      maxLength: 8,
    })
    .map((w) => w.join(" ")),
  nameArb,
);

describe("tool_search properties", () => {
  it("full-text search returns visible tools only, scored in [0, 1], in the documented order", async () => {
    const sid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb(fc.oneof(proseArb, fc.string({ unit: "binary", maxLength: 40 }))),
        configArb,
        fc.array(fc.tuple(queryArb, fc.integer({ min: 1, max: 20 }), fc.boolean()), {
          minLength: 1,
          maxLength: 4,
        }),
        async (tools, config, queries) => {
          const { model } = await session(sid, tools, config);
          for (const [query, limit, include] of queries) {
            const res = await op(sid, "tool_search", { query, limit, include_always_loaded: include });
            expect(res.status, JSON.stringify(query)).toBe(200);
            checkResponse(model, res.json, { query, search_type: "fts", limit, include });
          }
        },
      ),
      { numRuns: 50 },
    );
  });

  it("regex search never fails with a 5xx and scores only 0.95, 0.90, 0.85 or 0.75", async () => {
    const sid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb(),
        configArb,
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        async (tools, config, queries) => {
          const { model } = await session(sid, tools, config);
          for (const query of queries) {
            const res = await op(sid, "tool_search", { query, search_type: "regex", limit: 20 });
            if (res.status === 400) {
              expect(["invalid_pattern", "pattern_too_long"]).toContain(res.json.error.code);
              continue;
            }
            expect(res.status, JSON.stringify(query)).toBe(200);
            checkResponse(model, res.json, { query, search_type: "regex", limit: 20, include: false });
            for (const h of res.json.tools as Hit[]) expect(REGEX_SCORES).toContain(h.score);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("regex search of a literal returns exactly the tools a plain substring check predicts", async () => {
    const fragment = fc.constantFrom(
      ...WORDS,
      ...NAMESPACES.map((n) => `${n}.`),
      "_",
      "-",
      "e",
      "ss",
      "Issue",
      "USER",
    );
    const literalArb = fc.array(fragment, { minLength: 1, maxLength: 2 }).map((f) => f.join(""));
    const sid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb(),
        configArb,
        literalArb,
        fc.boolean(),
        async (tools, config, literal, include) => {
          const { model } = await session(sid, tools, config);
          const pattern = literal.replace(/[.-]/g, "\\$&");
          const res = await op(sid, "tool_search", {
            query: pattern,
            search_type: "regex",
            limit: 20,
            include_always_loaded: include,
          });
          expect(res.status).toBe(200);
          const needle = literal.toLowerCase();
          const expected = tools
            .filter((t) => model.searchable(t.name, include))
            .flatMap((t) => {
              const name = t.name.toLowerCase();
              const text = `${t.description}\n${(t.tags ?? []).join(" ")}`.toLowerCase();
              const score =
                name === needle
                  ? 0.95
                  : name.startsWith(needle)
                    ? 0.9
                    : name.includes(needle)
                      ? 0.85
                      : text.includes(needle)
                        ? 0.75
                        : null;
              return score === null ? [] : [{ name: t.name, score }];
            })
            .sort(model.compare);
          expect(res.json.tools.map((h: Hit) => ({ name: h.name, score: h.score }))).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("exact search returns exactly the visible tools whose name matches, all scored 1", async () => {
    const sid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb(),
        configArb,
        fc.nat(),
        fc.constantFrom("name", "local", "upper", "missing"),
        fc.boolean(),
        async (tools, config, pick, form, include) => {
          const { model } = await session(sid, tools, config);
          const target = tools[pick % tools.length]?.name ?? "gh.nothing";
          const local = target.slice(target.indexOf(".") + 1);
          const query =
            form === "name"
              ? target
              : form === "local"
                ? local
                : form === "upper"
                  ? target.toUpperCase()
                  : `${target}_missing`;
          const res = await op(sid, "tool_search", {
            query,
            search_type: "exact",
            limit: 20,
            include_always_loaded: include,
          });
          expect(res.status).toBe(200);
          checkResponse(model, res.json, { query, search_type: "exact", limit: 20, include });
          // The name or its local part (after the namespace), ASCII case-insensitively.
          expect(res.json.tools.map((h: Hit) => ({ name: h.name, score: h.score }))).toEqual(
            model.exact(query, include),
          );
        },
      ),
      { numRuns: 60 },
    );
  });

  it("an exact visible name typed as a full-text query comes first with score 1", async () => {
    const sid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb().filter((t) => t.length > 0),
        configArb,
        fc.nat(),
        fc.boolean(),
        async (tools, config, pick, include) => {
          const { model } = await session(sid, tools, config);
          const target = (tools[pick % tools.length] as Tool).name;
          const res = await op(sid, "tool_search", {
            query: target,
            limit: 20,
            include_always_loaded: include,
          });
          expect(res.status).toBe(200);
          checkResponse(model, res.json, { query: target, search_type: "fts", limit: 20, include });
          if (model.searchable(target, include)) {
            expect(res.json.tools[0]).toMatchObject({ name: target, score: 1 });
          } else {
            expect(res.json.tools.map((h: Hit) => h.name)).not.toContain(target);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("denied tools are invisible: a search answers the same as in a session where they were never synced", async () => {
    // Exact and regex results do not depend on other tools, so they must match a catalog without them.
    const sid = newSid();
    const otherSid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb(),
        configArb.filter((c) => c.policy.deny.length > 0),
        fc.array(fc.tuple(queryArb, fc.constantFrom("exact", "regex")), { minLength: 1, maxLength: 4 }),
        async (tools, config, queries) => {
          const withDenied = await session(sid, tools, config);
          const without = await session(
            otherSid,
            tools.filter((t) => withDenied.model.allowed(t.name)),
            config,
          );
          for (const [query, search_type] of queries) {
            const a = await op(withDenied.sid, "tool_search", { query, search_type, limit: 20 });
            const b = await op(without.sid, "tool_search", { query, search_type, limit: 20 });
            expect(a.status).toBe(b.status);
            expect(a.json).toEqual(b.json);
          }
          const viewA = (await call("GET", `/v1/sessions/${withDenied.sid}`)).json.catalog;
          const viewB = (await call("GET", `/v1/sessions/${without.sid}`)).json.catalog;
          expect({ ...viewA, fingerprint: "" }).toEqual({ ...viewB, fingerprint: "" });
        },
      ),
      { numRuns: 30 },
    );
  });

  it("gives the first k results of limit k as the first k of any larger limit", async () => {
    const sid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb(fc.oneof(proseArb, fc.string({ maxLength: 40 }))),
        fc.array(
          fc.tuple(queryArb, fc.integer({ min: 1, max: 19 }), fc.constantFrom("fts", "regex", "exact")),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        async (tools, queries) => {
          expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
          for (const [query, k, search_type] of queries) {
            const large = await op(sid, "tool_search", { query, search_type, limit: 20 });
            if (large.status !== 200) continue;
            const small = await op(sid, "tool_search", { query, search_type, limit: k });
            const names = (r: { json: { tools: Hit[] } }) => r.json.tools.map((t) => t.name);
            expect(names(small), JSON.stringify({ query, k, search_type })).toEqual(names(large).slice(0, k));
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("leaves out exactly the results below min_relevance, keeping the order of the rest", async () => {
    const sid = newSid();
    await fc.assert(
      fc.asyncProperty(
        catalogArb(proseArb),
        fc.array(fc.tuple(queryArb, fc.double({ min: 0, max: 1, noNaN: true })), {
          minLength: 1,
          maxLength: 4,
        }),
        async (tools, queries) => {
          expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
          for (const [query, min] of queries) {
            const all = (await op(sid, "tool_search", { query, limit: 20 })).json.tools as (Hit & {
              relevance: number;
            })[];
            for (const hit of all) expect(hit.relevance).toBeGreaterThanOrEqual(0);
            for (const hit of all) expect(hit.relevance).toBeLessThanOrEqual(1);
            const kept = (await op(sid, "tool_search", { query, limit: 20, min_relevance: min })).json.tools;
            const wanted = all.filter((h) => h.relevance >= min).map((h) => h.name);
            const got = kept.map((h: Hit) => h.name);
            // A full page may be refilled from below it; the rest is exactly what passed.
            expect(got.slice(0, wanted.length)).toEqual(wanted);
            if (all.length < 20) expect(got).toEqual(wanted);
            for (const hit of kept) expect(hit.relevance).toBeGreaterThanOrEqual(min);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
