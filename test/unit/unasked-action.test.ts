// The read-first rule of tool ranking (src/search/fts-pipeline.ts, UNASKED_ACTION): when a query
// names none of its candidates' actions ("s3 buckets"), a tool that changes something counts its
// match UNASKED_ACTION weaker, so a comparable read-only tool ranks first; a query naming any
// candidate's action leaves the ranking as it was. Checked on the pipeline over random documents
// and queries, and end to end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FtsIndex, UNASKED_ACTION } from "../../src/search/fts-pipeline";
import type { FieldSpec } from "../../src/search/rerank";
import { indexText, queryTermGroups } from "../../src/search/text";
import { newSid, op } from "../support/http";
import { pipelineSearch, rawScores } from "../support/pipeline";

interface Doc {
  name: string;
  /** The action term of a tool that changes something; null for a read-only one. */
  action: string | null;
  text: string;
}

const FIELDS: FieldSpec[] = [{ weight: 1, b: 0.5 }];
const COLD: FtsIndex<Doc, Doc> = {
  fields: (d) => [indexText(d.text)],
  rescoreFields: FIELDS,
  key: (d) => d.name,
  rankable: (d) => ({ name: d.name, namespace: "ns" }),
  termOrder: "direct-first",
  exactAbove: "all-candidates",
};
// Actions are index terms, as tool search gives them (`creat`).
const INDEX: FtsIndex<Doc, Doc> = {
  ...COLD,
  action: (d) => (d.action === null ? null : indexText(d.action)),
};

const ACTIONS = ["create", "delete", "send", "merge"];
const WORDS = ["issue", "bucket", "message", "file", "user", "page", ...ACTIONS];
const docsArb = fc.uniqueArray(
  fc.record({
    name: fc.stringMatching(/^[a-z]{3,8}$/),
    action: fc.option(fc.constantFrom(...ACTIONS), { nil: null }),
    text: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((w) => w.join(" ")),
  }),
  { minLength: 2, maxLength: 12, selector: (d) => d.name },
);
const queryArb = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(" "));

describe("read-only tools first when a query names no action", () => {
  it("weakens unasked actions by UNASKED_ACTION, and changes nothing when the query names one", () => {
    fc.assert(
      fc.property(docsArb, queryArb, (docs, query) => {
        const groups = queryTermGroups(query);
        const asked = new Set(groups.flatMap((g) => [...g.terms, ...g.related]));
        const ranked = pipelineSearch(INDEX, docs, query);
        const acts = groups.some((g) => g.acts);
        if (acts || docs.some((d) => d.action !== null && asked.has(indexText(d.action)))) {
          expect(ranked.map((d) => d.name)).toEqual(pipelineSearch(COLD, docs, query).map((d) => d.name));
          return;
        }
        const raw = rawScores(docs, query, FIELDS);
        const position = new Map(ranked.map((d, i) => [d.name, i]));
        for (const reader of ranked.filter((d) => d.action === null)) {
          for (const changer of ranked.filter((d) => d.action !== null)) {
            const [r, c] = [raw.get(reader.name) ?? 0, (raw.get(changer.name) ?? 0) * (1 - UNASKED_ACTION)];
            if (r > c + 1e-9) expect(position.get(reader.name)).toBeLessThan(position.get(changer.name) ?? 0);
            if (c > r + 1e-9) expect(position.get(changer.name)).toBeLessThan(position.get(reader.name) ?? 0);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("answers 's3 buckets' with the listing tool and 'create a bucket' with the creating one", async () => {
    const sid = newSid();
    const tools = [
      { name: "s3.create_bucket", description: "Create a bucket", side_effects: "write" },
      { name: "s3.list_buckets", description: "List every bucket in the account", side_effects: "read" },
      { name: "s3.delete_bucket", description: "Delete an empty bucket", side_effects: "write" },
    ];
    await op(sid, "catalog_sync", { tools });
    const first = async (query: string) => (await op(sid, "tool_search", { query })).json.tools[0].name;
    expect(await first("s3 buckets")).toBe("s3.list_buckets");
    expect(await first("bucket")).toBe("s3.list_buckets");
    expect(await first("create a bucket")).toBe("s3.create_bucket");
    expect(await first("delete the bucket")).toBe("s3.delete_bucket");
  });
});

describe("an action the query uses as a noun", () => {
  const docs: Doc[] = [
    { name: "docker.build_image", action: "build", text: "build image from a dockerfile" },
    { name: "ci.get_status", action: null, text: "status of the latest ci build for a branch" },
  ];

  it("matches only as a stand-in: 'the build is green' asks about a build, not to build", () => {
    expect(pipelineSearch(INDEX, docs, "the build is green")[0]?.name).toBe("ci.get_status");
    // Without action facts (skills) nothing changes: the name match wins.
    expect(pipelineSearch(COLD, docs, "the build is green")[0]?.name).toBe("docker.build_image");
  });

  it("leaves the verb alone: 'build an image'", () => {
    expect(pipelineSearch(INDEX, docs, "build an image")[0]?.name).toBe("docker.build_image");
    expect(pipelineSearch(INDEX, docs, "build the image")[0]?.name).toBe("docker.build_image");
  });
});

describe("an action the query uses as a state", () => {
  const docs: Doc[] = [
    { name: "jira.assign_issue", action: "assign", text: "assign an issue to a user" },
    { name: "jira.search_issues", action: null, text: "find issues by filter" },
    { name: "gh.create_pull_request", action: "create", text: "open a new pull request" },
    { name: "gh.list_pull_requests", action: null, text: "list pull requests by state" },
  ];

  it("does not match a tool whose action the state names: 'bugs assigned to me' asks for no assigning", () => {
    expect(pipelineSearch(INDEX, docs, "issues assigned to me")[0]?.name).toBe("jira.search_issues");
    // Without action facts the participle still matches the tool's name, as a stand-in.
    expect(pipelineSearch(COLD, docs, "issues assigned to me")[0]?.name).toBe("jira.assign_issue");
    expect(pipelineSearch(INDEX, docs, "assign the issue to me")[0]?.name).toBe("jira.assign_issue");
  });

  it("reads the word after a subject's copula as a state: 'which pull requests are open'", () => {
    const raw = rawScores(docs, "which pull requests are open", [{ weight: 1, b: 0 }]);
    const asAction = rawScores(docs, "open pull requests", [{ weight: 1, b: 0 }]);
    expect(raw.get("gh.create_pull_request")).toBeLessThan(asAction.get("gh.create_pull_request") ?? 0);
  });
});

describe("the context of a mid-task request", () => {
  it("asks for no action: 'deploy went out; check which monitors are red' does not ask to deploy", () => {
    const docs: Doc[] = [
      { name: "k8s.deploy", action: "deploy", text: "deploy a release to the cluster" },
      { name: "dd.mute_monitor", action: "mute", text: "mute a datadog monitor" },
      { name: "dd.list_monitors", action: null, text: "list datadog monitors with their state" },
      { name: "slack.send", action: "send", text: "send a slack message" },
      { name: "fs.read_file", action: null, text: "read a file from disk" },
    ];
    const query = "deploy went out; check which datadog monitors are red";
    expect(queryTermGroups(query)[0]).toMatchObject({ related: ["deploy"], context: true });
    expect(pipelineSearch(INDEX, docs, query)[0]?.name).toBe("dd.list_monitors");
    // Asked for in the request itself, deploying is an action again.
    expect(pipelineSearch(INDEX, docs, "deploy the release")[0]?.name).toBe("k8s.deploy");
  });
});

describe("an abbreviated thing", () => {
  const docs: Doc[] = [
    { name: "gitlab.accept_merge_request", action: "accept", text: "accept and merge a merge request" },
    { name: "gitlab.list_merge_requests", action: null, text: "list merge requests" },
    { name: "github.merge_pull_request", action: "merge", text: "merge a pull request" },
  ];

  it("names no action: 'gitlab mrs' reads before it merges", () => {
    expect(queryTermGroups("gitlab mrs").find((g) => g.phrase)).toMatchObject({ thing: true });
    const names = pipelineSearch(INDEX, docs, "mrs").map((d) => d.name);
    expect(names.indexOf("gitlab.list_merge_requests")).toBeLessThan(
      names.indexOf("gitlab.accept_merge_request"),
    );
    // Written as an action, merging is asked for.
    expect(pipelineSearch(INDEX, docs, "merge the pull request")[0]?.name).toBe("github.merge_pull_request");
  });

  it("reads the same spelled out: 'pull requests' asks for no pulling or requesting", () => {
    const prs: Doc[] = [
      { name: "gh.request_reviewers", action: "request", text: "request reviews on a pull request" },
      { name: "gh.create_pull_request", action: "create", text: "open a new pull request" },
      { name: "gh.list_pull_requests", action: null, text: "list pull requests by state" },
    ];
    const things = (query: string) => queryTermGroups(query).filter((g) => g.thing);
    expect(things("which pull requests are open?").flatMap((g) => g.terms)).toEqual(["pull", "request"]);
    expect(things("did continuous integration pass?")).toHaveLength(2);
    expect(things("pull the latest changes")).toEqual([]);
    expect(pipelineSearch(INDEX, prs, "which pull requests are open?")[0]?.name).toBe(
      "gh.list_pull_requests",
    );
    // Alone, "request" names an action that one tool takes.
    expect(pipelineSearch(INDEX, prs, "request reviews")[0]?.name).toBe("gh.request_reviewers");
  });

  it("takes a verb that does something as asking for an action, whatever the tools call it", () => {
    const prs: Doc[] = [
      { name: "gh.request_reviewers", action: "request", text: "request reviews on a pull request" },
      { name: "gh.get_pull_request", action: null, text: "get a pull request with its state and checks" },
    ];
    // "look over" means review; no tool's action is "review", yet the request is not to read.
    expect(queryTermGroups("get Kim to look over my PR").some((g) => g.acts)).toBe(true);
    expect(pipelineSearch(INDEX, prs, "get Kim to look over my PR")[0]?.name).toBe("gh.request_reviewers");
  });
});
