// tool_search keeps its contract for any catalog, config and query: it never fails (regex: only a
// 400 for a bad pattern), scores lie in [0, 1], hits come in the documented order, the limit holds,
// and no denied (or, unless asked, always-loaded) tool is ever returned. exact and regex answers
// equal a model's (regex: plain RE2 over every tool, so the literal shortcuts must agree with it).
// In-object for the 10,000-run versions; the same checks through the worker over HTTP, fewer runs.
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../src/session-object";
import { call, newSid, op } from "../support/http";
import { type Config, type Hit, Model, REGEX_SCORES, type Tool } from "../support/search-model";
import { catalogArb, configArb, ftsQueryArb, nameArb, patternArb } from "./catalog-model";
import { answerOf, inObject, quietly, runIn, runs } from "./support";

type SearchType = "fts" | "regex" | "exact";
interface Request {
  query: string;
  search_type: SearchType;
  limit: number;
  include_always_loaded: boolean;
}
interface Answer {
  status: number;
  body: any;
}

/** A session to search: set up in-object (fast) or over HTTP. */
interface Searcher {
  load(tools: Tool[], config: Config): Promise<void>;
  search(request: Request): Promise<Answer>;
}

/**
 * The provider name the session shows for each allowed tool (exact search matches it too), read as
 * a client would: the tool_reference blocks of a regex search for every tool.
 */
async function providerNames(searcher: Searcher): Promise<Map<string, string>> {
  const all = { query: ".*", search_type: "regex" as const, limit: 20, include_always_loaded: true };
  const { body } = await searcher.search({ ...all, format: "anthropic" } as Request);
  const names: string[] = body.tools.map((t: { name: string }) => t.name);
  return new Map(names.map((n, i) => [n, body.tool_references[i].tool_name as string]));
}

function inObjectSearcher(obj: SessionObject, sid: string): Searcher {
  const address = { tenant: "tenant-a", sid };
  return {
    async load(tools, config) {
      answerOf(await runIn(obj, address, "session_configure", config), "session_configure");
      answerOf(await runIn(obj, address, "catalog_sync", { tools }), "catalog_sync");
    },
    async search(request) {
      const r = await runIn(obj, address, "tool_search", request);
      return r.ok ? { status: 200, body: r.value } : { status: r.status, body: { error: r.error } };
    },
  };
}

function httpSearcher(sid: string): Searcher {
  return {
    async load(tools, config) {
      expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
      expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
    },
    async search(request) {
      const r = await op(sid, "tool_search", request);
      return { status: r.status, body: r.json };
    },
  };
}

const requestArb = (type: SearchType) =>
  fc.record({
    query: type === "regex" ? patternArb : type === "exact" ? exactQueryArb : ftsQueryArb,
    search_type: fc.constant(type),
    limit: fc.integer({ min: 1, max: 20 }),
    include_always_loaded: fc.boolean(),
  });

/** Exact queries: names in other cases and with spaces, local names, misses, any text. */
const exactQueryArb = fc.oneof(
  nameArb,
  nameArb.map((n) => n.toUpperCase()),
  nameArb.map((n) => ` ${n.slice(n.indexOf(".") + 1)} `),
  nameArb.map((n) => `${n}_missing`),
  fc.string({ maxLength: 30 }),
);

/** The contract every answer keeps, and for exact and regex, the model's answer exactly. */
function checkAnswer(model: Model, request: Request, answer: Answer): void {
  const what = JSON.stringify(request);
  if (request.search_type === "regex") {
    let compiles = true;
    try {
      RE2JS.compile(request.query, RE2JS.CASE_INSENSITIVE);
    } catch {
      compiles = false;
    }
    if (request.query.length > 200 || !compiles) {
      expect(answer.status, what).toBe(400);
      expect(answer.body.error.code).toBe(
        request.query.length > 200 ? "pattern_too_long" : "invalid_pattern",
      );
      return;
    }
  }
  expect(answer.status, `${what} → ${JSON.stringify(answer.body)}`).toBe(200);
  const body = answer.body;
  expect(body.query).toBe(request.query);
  expect(body.search_type).toBe(request.search_type);
  expect(body.total_deferred).toBe(model.deferredCount());
  const hits: Hit[] = body.tools;
  expect(hits.length).toBeLessThanOrEqual(request.limit);
  expect(new Set(hits.map((h) => h.name)).size).toBe(hits.length);
  for (const h of hits) {
    expect(h.score, what).toBeGreaterThanOrEqual(0);
    expect(h.score, what).toBeLessThanOrEqual(1);
    expect(h.match_type).toBe(request.search_type);
    expect(model.allowed(h.name), `${what}: denied or unknown tool ${h.name} returned`).toBe(true);
    expect(
      model.searchable(h.name, request.include_always_loaded),
      `${what}: ${h.name} is always loaded`,
    ).toBe(true);
    expect(h.loading_mode).toBe(model.mode(h.name));
    expect(h.description).toBe(model.byName.get(h.name)?.description);
  }
  for (let i = 1; i < hits.length; i++) {
    const [prev, next] = [hits[i - 1] as Hit, hits[i] as Hit];
    expect(
      model.compare(prev, next),
      `${what}: ${prev.name} (${prev.score}) before ${next.name} (${next.score})`,
    ).toBeLessThanOrEqual(0);
  }
  const got = hits.map((h) => ({ name: h.name, score: h.score }));
  switch (request.search_type) {
    case "exact":
      expect(got, what).toEqual(
        model.exact(request.query, request.include_always_loaded).slice(0, request.limit),
      );
      break;
    case "regex":
      for (const h of hits) expect(REGEX_SCORES).toContain(h.score);
      expect(got, what).toEqual(
        model.regex(request.query, request.include_always_loaded).slice(0, request.limit),
      );
      break;
    case "fts": {
      // An exact visible name typed as the query comes first with score 1 (api.md "Scores").
      const exact = model.exact(request.query, request.include_always_loaded).slice(0, request.limit);
      expect(got.slice(0, exact.length), what).toEqual(exact);
      // The rest is min-max normalized over the returned tools: 0.5 when all are equal.
      const rest = got.slice(exact.length).map((h) => h.score);
      if (exact.length > 0 && rest.length > 0) expect(Math.min(...rest), what).toBe(0);
      if (exact.length === 0 && rest.length > 0) {
        const spread = [Math.min(...rest), Math.max(...rest)];
        expect([
          [0.5, 0.5],
          [0, 1],
        ]).toContainEqual(spread);
      }
      break;
    }
  }
}

const property = (searcher: Searcher, type: SearchType) =>
  fc.asyncProperty(
    catalogArb(),
    configArb,
    fc.array(requestArb(type), { minLength: 1, maxLength: 4 }),
    async (tools, config, requests) => {
      await searcher.load(tools, config);
      const model = new Model(tools, config, await providerNames(searcher));
      for (const request of requests) checkAnswer(model, request, await searcher.search(request));
    },
  );

const IN_OBJECT_RUNS = runs(150, 10_000);
const HTTP_RUNS = runs(3, 40);

describe("tool_search contract, in the session object", () => {
  for (const type of ["fts", "regex", "exact"] as const) {
    it(`${type}: ${IN_OBJECT_RUNS} random catalogs, configs and queries keep the contract`, async () => {
      const sid = newSid();
      await inObject(sid, (obj) =>
        quietly(() => fc.assert(property(inObjectSearcher(obj, sid), type), { numRuns: IN_OBJECT_RUNS })),
      );
    });
  }
});

describe("tool_search contract, over HTTP", () => {
  for (const type of ["fts", "regex", "exact"] as const) {
    it(`${type}: ${HTTP_RUNS} random catalogs, configs and queries keep the contract through the worker`, async () => {
      const searcher = httpSearcher(newSid());
      await quietly(() => fc.assert(property(searcher, type), { numRuns: HTTP_RUNS }));
    });
  }
});

describe("regex search finds what RE2 finds (cases these properties found)", () => {
  // The regex pre-filter (src/search/regex-literals.ts) used to read the digits of `\x61` and the
  // octal `\151` as literal text every match must contain, dropping real matches (fixed in 23457de).
  const TOOLS = [{ name: "gh.create_issue", description: "Create an issue" }];
  for (const [pattern, expected] of [
    ["\\x61", 0.85],
    ["cre\\x61te", 0.85],
    ["\\x{65}", 0.85],
    ["\\151ssue", 0.85],
    ["\\x61?\\.*", 0.9],
  ] as const) {
    it(`regex ${pattern} matches gh.create_issue (score ${expected})`, async () => {
      const sid = newSid();
      expect((await op(sid, "catalog_sync", { tools: TOOLS })).status).toBe(200);
      const res = await op(sid, "tool_search", { query: pattern, search_type: "regex" });
      expect(res.status).toBe(200);
      expect(res.json.tools.map((t: Hit) => [t.name, t.score])).toEqual([["gh.create_issue", expected]]);
    });
  }
});
