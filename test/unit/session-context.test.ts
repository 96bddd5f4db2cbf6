// The session-context rule of tool ranking (src/search/fts-pipeline.ts, SESSION_BOOST): among
// comparable matches, tools in namespaces the session already activated or used rank first; a
// match elsewhere that is more than SESSION_BOOST better keeps its place. Checked on the pipeline
// itself over random documents and queries, and end to end on the example.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FtsIndex, NAMED_NAMESPACE, SESSION_BOOST } from "../../src/search/fts-pipeline";
import type { FieldSpec } from "../../src/search/rerank";
import { indexText } from "../../src/search/text";
import { newSid, op } from "../support/http";
import { pipelineSearch, rawScores } from "../support/pipeline";

interface Doc {
  name: string;
  namespace: string;
  text: string;
}

const FIELDS: FieldSpec[] = [{ weight: 1, b: 0.5 }];
const INDEX: FtsIndex<Doc, Doc> = {
  fields: (d) => [indexText(d.text)],
  rescoreFields: FIELDS,
  key: (d) => d.name,
  rankable: (d) => ({ name: d.name, namespace: d.namespace }),
  termOrder: "direct-first",
  exactAbove: "all-candidates",
};

const NAMESPACES = ["github", "gitlab", "jira", "linear"] as const;
const nsArb = fc.constantFrom(...NAMESPACES);
const WORDS = ["issue", "open", "list", "repo", "message", "send", "file", "bug", "user", "page"];
const docsArb = fc.uniqueArray(
  fc.record({
    name: fc.stringMatching(/^[a-z]{3,8}$/),
    namespace: nsArb,
    text: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((w) => w.join(" ")),
  }),
  { minLength: 2, maxLength: 12, selector: (d) => d.name },
);
const queryArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(" "));

/**
 * Tools of namespace `ns` rank above a comparable match elsewhere, and below one more than `boost`
 * better (by its raw re-scored match).
 */
function expectBoosted(ranked: readonly Doc[], raw: ReadonlyMap<string, number>, ns: string, boost: number) {
  const position = new Map(ranked.map((d, i) => [d.name, i]));
  for (const a of ranked) {
    for (const b of ranked) {
      if (a.namespace !== ns || b.namespace === ns) continue;
      const [ra, rb] = [raw.get(a.name) ?? 0, raw.get(b.name) ?? 0];
      if (rb > ra * (1 + boost) + 1e-9) expect(position.get(b.name)).toBeLessThan(position.get(a.name) ?? 0);
      if (ra > 0 && rb <= ra + 1e-12) expect(position.get(a.name)).toBeLessThan(position.get(b.name) ?? 0);
    }
  }
}

describe("session context in ranking", () => {
  it("never puts a session-namespace tool below a comparable match, nor above a clearly better one", () => {
    fc.assert(
      fc.property(docsArb, queryArb, nsArb, (docs, query, ns) => {
        const raw = rawScores(docs, query, FIELDS);
        const ranked = pipelineSearch(INDEX, docs, query, [ns]);
        expectBoosted(ranked, raw, ns, SESSION_BOOST);
        // Without session namespaces nothing changes among the others, and the order is the cold one.
        const cold = pipelineSearch(INDEX, docs, query);
        const others = (list: Doc[]) => list.filter((d) => d.namespace !== ns).map((d) => d.name);
        expect(others(ranked)).toEqual(others(cold));
      }),
      { numRuns: 300 },
    );
  });

  it("puts a tool of the namespace the request names above a comparable match, never above a clearly better one", () => {
    const NAMED: FtsIndex<Doc, Doc> = { ...INDEX, namespaceTerms: (d) => [d.namespace] };
    fc.assert(
      fc.property(docsArb, queryArb, nsArb, (docs, words, ns) => {
        const query = `${ns} ${words}`;
        const raw = rawScores(docs, query, FIELDS);
        const ranked = pipelineSearch(NAMED, docs, query);
        expectBoosted(ranked, raw, ns, NAMED_NAMESPACE);
        // A request that names no namespace ranks as without the rule.
        expect(pipelineSearch(NAMED, docs, words).map((d) => d.name)).toEqual(
          pipelineSearch(INDEX, docs, words).map((d) => d.name),
        );
      }),
      { numRuns: 300 },
    );
  });

  it("gives an agent working in GitHub GitHub's tool for open issues before GitLab's, Jira's or Linear's", async () => {
    const sid = newSid();
    const tools = [
      { name: "gitlab.list_issues", description: "List issues of a GitLab project" },
      { name: "jira.search_issues", description: "Search issues in Jira" },
      { name: "linear.list_issues", description: "List issues in Linear" },
      { name: "github.list_issues", description: "List issues in a GitHub repository" },
      {
        name: "github.create_pull_request",
        description: "Open a pull request in a GitHub repository",
        input_schema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
      },
    ];
    await op(sid, "catalog_sync", { tools });
    const first = async () =>
      (await op(sid, "tool_search", { query: "list the open issues" })).json.tools[0].name;
    const cold = await first();
    expect(cold).not.toBe("github.list_issues");
    // A call its arguments refused is no use: its writes rolled back, the namespace counts for nothing.
    const refused = await op(sid, "tool_resolve", { name: "github.create_pull_request", args: {} });
    expect(refused.status).toBe(422);
    expect(await first()).toBe(cold);
    const used = await op(sid, "tool_resolve", {
      name: "github.create_pull_request",
      args: { title: "Fix" },
    });
    expect(used.json.decision).toBe("allow");
    expect(await first()).toBe("github.list_issues");
  });
});
