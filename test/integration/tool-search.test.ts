// tool_search through HTTP: full text, exact and regex search, scores, policy, loading modes, order.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSql } from "../../src/db/sql";
import { ACTION_CONFLICT } from "../../src/search/action-rules";
import { renormalizeSession } from "../../src/session/index-text";
import { call, newSid, op } from "../support/http";
import { type Hit, Model } from "../support/search-model";
import { sessionStub } from "../support/session";

const CATALOG = [
  {
    name: "github.create_issue",
    description: "Open a new issue in a GitHub repository",
    side_effects: "write",
    tags: ["tracker"],
  },
  { name: "github.list_repos", description: "List the repositories of a GitHub owner" },
  {
    name: "slack.send_message",
    description: "Post a message to a Slack channel",
    side_effects: "external",
    input_schema: {
      type: "object",
      properties: { channel: { type: "string", description: "Channel identifier" } },
    },
  },
  { name: "weather.get_forecast", description: "Get the weather forecast for a city", side_effects: "pure" },
  { name: "calendar.book_room", description: "Reserve a conference room", tags: ["kanban"] },
  {
    name: "fs.read_file",
    description: "Read a file from disk",
    examples: [{ args: { path: "/etc/hosts" }, description: "inspect the hosts table" }],
  },
  {
    name: "notes.archive",
    description: "Move a note out of sight",
    tags: ["cleanup"],
    side_effects: "write",
  },
  { name: "db.run_query", description: "Execute a SQL statement", side_effects: "stateful" },
];

/** A description longer than most: what a catalog's mean description length is raised with. */
const LONG_DESCRIPTION =
  "Manage a shared workspace: members, roles, folders, quotas, retention rules and audit trails";

const search = (sid: string, body: Record<string, unknown>) => op(sid, "tool_search", body);

async function seeded(tools: unknown[] = CATALOG, config?: unknown): Promise<string> {
  const sid = newSid();
  if (config) expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
  const res = await op(sid, "catalog_sync", { tools });
  expect(res.status).toBe(200);
  return sid;
}

async function hits(sid: string, body: Record<string, unknown>): Promise<Hit[]> {
  const res = await search(sid, { limit: 20, ...body });
  expect(res.status).toBe(200);
  return res.json.tools;
}

const namesOf = (list: Hit[]) => list.map((h) => h.name);

function expectSorted(list: Hit[]) {
  list.slice(1).forEach((h, i) => {
    expect(list[i]?.score).toBeGreaterThanOrEqual(h.score);
  });
  for (const h of list) {
    expect(h.score).toBeGreaterThanOrEqual(0);
    expect(h.score).toBeLessThanOrEqual(1);
  }
}

describe("the response", () => {
  it("has tools, the query, the search type used and the deferred total", async () => {
    const sid = await seeded();
    const res = await search(sid, { query: "weather forecast" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      tools: expect.any(Array),
      query: "weather forecast",
      search_type: "fts",
      total_deferred: CATALOG.length,
    });
    expect(res.json.tools[0]).toEqual({
      name: "weather.get_forecast",
      description: "Get the weather forecast for a city",
      score: expect.any(Number),
      relevance: expect.any(Number),
      match_type: "fts",
      loading_mode: "deferred",
    });
  });

  it("on an empty session finds nothing and reports zero deferred tools", async () => {
    for (const search_type of ["fts", "regex", "exact"]) {
      const res = await search(newSid(), { query: "anything", search_type });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ tools: [], query: "anything", search_type, total_deferred: 0 });
    }
  });
});

describe("full text search", () => {
  it("finds tools by keywords from their descriptions", async () => {
    const sid = await seeded();
    expect(namesOf(await hits(sid, { query: "weather forecast" }))[0]).toBe("weather.get_forecast");
    expect(namesOf(await hits(sid, { query: "conference room" }))[0]).toBe("calendar.book_room");
    expect(namesOf(await hits(sid, { query: "SQL statement" }))[0]).toBe("db.run_query");
  });

  it("finds tools by words of their tags, parameters and examples", async () => {
    const sid = await seeded();
    expect(namesOf(await hits(sid, { query: "kanban" }))).toEqual(["calendar.book_room"]);
    expect(namesOf(await hits(sid, { query: "identifier" }))).toEqual(["slack.send_message"]);
    expect(namesOf(await hits(sid, { query: "hosts" }))).toEqual(["fs.read_file"]);
  });

  it("orders tools that share the request's words by the arguments the request names", async () => {
    // Two endpoints that say the same; the request names what one of them takes. Parameter text
    // orders them but is no evidence: the relevance of each is what its own text matches.
    const geo = (name: string, param: string, about: string) => ({
      name: `weather.${name}`,
      description: "Current weather conditions",
      input_schema: { type: "object", properties: { [param]: { type: "string", description: about } } },
    });
    const tools = [
      geo("by_city", "city", "Name of the city"),
      geo("by_point", "coordinates", "Latitude and longitude, comma separated"),
    ];
    const sid = await seeded(tools);
    const res = await search(sid, { query: "current weather at the coordinates 52.52, 13.41" });
    expect(res.status).toBe(200);
    const found: { name: string; relevance: number }[] = res.json.tools;
    expect(found.map((t) => t.name)).toEqual(["weather.by_point", "weather.by_city"]);
    expect(found[0]?.relevance).toBe(found[1]?.relevance);
  });

  it("orders tools that share the request's words by what each returns", async () => {
    // Two lookups that say the same; the request names a field of one's output schema. Without
    // it the shorter name would come first.
    const lookup = (name: string, fields: string[]) => ({
      name: `food.${name}`,
      description: "Look up a food item",
      output_schema: {
        type: "object",
        properties: Object.fromEntries(fields.map((f) => [f, { type: "number" }])),
      },
    });
    const sid = await seeded([
      lookup("lookup_price", ["price", "discount"]),
      lookup("lookup_nutrients", ["calories", "protein"]),
    ]);
    const res = await search(sid, { query: "look up the calories of a food item" });
    expect(res.status).toBe(200);
    const found: { name: string; relevance: number }[] = res.json.tools;
    expect(found.map((t) => t.name)).toEqual(["food.lookup_nutrients", "food.lookup_price"]);
    // What a tool returns orders, like its parameters, but is no evidence that it fits.
    expect(found[0]?.relevance).toBe(found[1]?.relevance);
  });

  it("reads what a tool returns from its record when written, and again when the index text moves on", async () => {
    const sid = await seeded([
      {
        name: "food.lookup",
        description: "Look up a food item",
        input_schema: { type: "object", properties: { item: { type: "string" } } },
        output_schema: {
          type: "object",
          properties: { calories: { type: "number", description: "Energy per serving" } },
        },
      },
    ]);
    await runInDurableObject(sessionStub(sid), (_obj, state) => {
      const sql = createSql(state.storage.sql);
      const fields = () =>
        sql.one<{ f_params: string; f_returns: string }>(
          `SELECT f_params, f_returns FROM trove_tools WHERE name = 'food.lookup'`,
        );
      // Not in the parameters' text, whose weight rises with a long request's arguments.
      expect(fields()).toEqual({ f_params: "item", f_returns: "calori energi serv" });
      // A session written before the column existed holds '' until its next start re-normalizes it.
      sql.run(`UPDATE trove_tools SET f_returns = '' WHERE name = 'food.lookup'`);
      sql.run(`UPDATE trove_meta SET value = 'an-older-release' WHERE key = 'index_text'`);
      expect(renormalizeSession(sql)).toEqual({ tools: 1, skills: 0 });
      expect(fields()?.f_returns).toBe("calori energi serv");
    });
  });

  it("matches two words of the request that the catalog writes as one", async () => {
    const sid = await seeded([
      { name: "grafana.check_datasources_health", description: "Check that every configured source answers" },
      { name: "mongo.list_sources", description: "List the data sources of a knowledge base" },
      { name: "pager.get_oncall_users", description: "The users of a schedule at this moment" },
      { name: "phone.make_call", description: "Place a call right now" },
    ]);
    // Joined, "data sources" and "on call" are the words the first and third tools are named by.
    expect(namesOf(await hits(sid, { query: "are the data sources healthy?" }))[0]).toBe(
      "grafana.check_datasources_health",
    );
    expect(namesOf(await hits(sid, { query: "who is on call right now" }))[0]).toBe("pager.get_oncall_users");
  });

  it("in a large catalog, ranks candidates by every word the request is about, however common", async () => {
    // Hundreds of tools say "pod", hundreds more "logs": too common for both to choose candidates
    // (MATCH_DOC_BUDGET), and records of the rarer word alone used to fill every candidate place.
    const code = (i: number) => String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26));
    const tools = [
      ...Array.from({ length: 240 }, (_, i) => ({
        name: `unit${code(i)}.describe_pod`,
        description: "Pod spec, pod status and pod events",
      })),
      ...Array.from({ length: 330 }, (_, i) => ({
        name: `site${code(i)}.tail_logs`,
        description: "Tail the logs of a service",
      })),
      { name: "acme.get_pod_logs", description: "Get the logs that the containers of a pod printed" },
    ];
    const sid = await seeded(tools);
    expect(namesOf(await hits(sid, { query: "pod logs" }))[0]).toBe("acme.get_pod_logs");
  });

  it("does not read the letters of an id as words of the request", async () => {
    const sid = await seeded([
      { name: "tracker.remove_sub_task", description: "Remove a sub-task from its task" },
      { name: "billing.cancel_subscription", description: "Cancel a customer's subscription" },
    ]);
    // "sub" of sub_1Pq9 spells the subscription to cancel; it asks for no sub-task.
    expect(namesOf(await hits(sid, { query: "cancel sub_1Pq9 for the customer" }))[0]).toBe(
      "billing.cancel_subscription",
    );
  });

  it("reads a description's first sentence as what the tool does", async () => {
    // The same words, as many times, in descriptions of about the same length: one says them in
    // its first sentence, what the tool does; the other only in passing, after it. The request
    // names no action, so no action-and-object pair decides.
    const sid = await seeded([
      ...CATALOG,
      {
        name: "reports.mail_out",
        description:
          "Sends the weekly digest to the team list. Archived reports can be exported as a PDF document.",
      },
      {
        name: "reports.snapshot",
        description:
          "Exports a report as a PDF document. Weekly digests sent to the team list are also archived.",
      },
    ]);
    expect(namesOf(await hits(sid, { query: "pdf of a report" }))[0]).toBe("reports.snapshot");
  });

  it("measures a description's length against the catalog's descriptions, not only its rivals'", async () => {
    // The same two rivals for "invoice", in catalogs that differ only in tools the request does
    // not match: beside long descriptions, the rivals' own descriptions are short, and their words
    // count for more. Measured against the candidates alone, the rest of the catalog changed nothing.
    const rivals = [
      { name: "billing.send_invoice", description: "Send an invoice to a customer" },
      { name: "billing.draft_invoice", description: "Draft an invoice for a customer with line items" },
    ];
    const others = (words: string) =>
      Array.from({ length: 20 }, (_, i) => ({ name: `misc.tool_${i}`, description: `${words} ${i}` }));
    const relevance = async (catalog: unknown[]) =>
      (await hits(await seeded(catalog), { query: "invoice" })).map((h) => [h.name, h.relevance]);
    const amongLong = await relevance([...rivals, ...others(LONG_DESCRIPTION)]);
    const amongShort = await relevance([...rivals, ...others("Manage a workspace")]);
    expect(amongLong.map(([name]) => name)).toEqual(amongShort.map(([name]) => name));
    expect(amongLong.length).toBe(2);
    for (const [i, [, r]] of amongLong.entries()) expect(r).toBeGreaterThan(amongShort[i]?.[1] as number);
  });

  it("gives a tool whose name leads with another of the catalog's actions a lower relevance", async () => {
    // "list the open issues" where nothing lists issues: create_issue is the best match, but its
    // name leads with another action of this catalog (list_repos and its siblings lead with
    // "list"). Named the other way round (repos_list), "list" leads no name, so nothing says it is
    // an action here. Every word and length is the same in both catalogs: only that reading differs.
    const issue = { name: "proj.create_issue", description: "Create an issue in a project" };
    const lists = (name: (thing: string) => string) =>
      ["repos", "users", "teams"].map((thing) => ({ name: name(thing), description: `List the ${thing}` }));
    const query = { query: "list the open issues" };
    const verbFirst = await hits(await seeded([issue, ...lists((t) => `proj.list_${t}`)]), query);
    const nounFirst = await hits(await seeded([issue, ...lists((t) => `proj.${t}_list`)]), query);
    expect(verbFirst[0]?.name).toBe("proj.create_issue");
    expect(nounFirst[0]?.name).toBe("proj.create_issue");
    expect(verbFirst[0]?.relevance).toBeCloseTo((1 - ACTION_CONFLICT) * (nounFirst[0]?.relevance ?? 0), 5);
    // A tool whose name holds the action asked for, wherever, does not contradict it.
    const issueList = { name: "proj.issue_list", description: "Show the issues of a project" };
    const named = await hits(await seeded([issue, issueList, ...lists((t) => `proj.list_${t}`)]), query);
    expect(named[0]?.name).toBe("proj.issue_list");
    expect(named[0]?.relevance).toBeGreaterThan(
      named.find((h) => h.name === "proj.create_issue")?.relevance ?? 1,
    );
  });

  it("reads an id the catalog has never seen as no concept of the request", async () => {
    // "ch_3Nx8Lq2eZvKYlo2C" splits into six argument words the catalog never uses. They add no
    // mass, so the match covers as much of the request with them as without; counted as concepts,
    // they made the request look longer and its best match more relevant the longer the id.
    const sid = await seeded([
      { name: "paypal.create_refund", description: "Refund a PayPal capture" },
      { name: "paypal.list_disputes", description: "List the disputes of the account" },
    ]);
    const top = async (query: string) => (await hits(sid, { query }))[0];
    const plain = await top("refund the charge");
    const withId = await top("refund the charge ch_3Nx8Lq2eZvKYlo2C");
    expect(plain?.name).toBe("paypal.create_refund");
    expect(withId?.name).toBe("paypal.create_refund");
    expect(withId?.relevance).toBe(plain?.relevance);
  });

  it("counts only the descriptions a session may find in their mean length", async () => {
    // A denied tool is as absent from the catalog's statistics as from its results.
    const hidden = Array.from({ length: 20 }, (_, i) => ({
      name: `hidden.tool_${i}`,
      description: `${LONG_DESCRIPTION} ${i}`,
    }));
    const denied = await seeded([...CATALOG, ...hidden], { policy: { deny: ["hidden.*"] } });
    const absent = await seeded(CATALOG, { policy: { deny: ["hidden.*"] } });
    for (const query of ["open an issue", "read a file", "forecast"]) {
      expect((await search(denied, { query })).json).toEqual((await search(absent, { query })).json);
    }
  });

  it("matches case-insensitively", async () => {
    const sid = await seeded();
    expect(namesOf(await hits(sid, { query: "WEATHER Forecast" }))[0]).toBe("weather.get_forecast");
  });

  it("finds camelCase, snake_case and kebab-case names by their words", async () => {
    const sid = await seeded([
      { name: "gh.createIssue", description: "Files a report in the tracker" },
      { name: "jira.create_issue", description: "Files a report in the tracker" },
      { name: "linear.create-issue", description: "Files a report in the tracker" },
      { name: "fs.read_file", description: "Read a file from disk" },
    ]);
    for (const query of ["create issue", "Create Issue", "createIssue", "create_issue", "create-issue"]) {
      const found = namesOf(await hits(sid, { query }));
      expect(found.slice(0, 3).sort(), query).toEqual([
        "gh.createIssue",
        "jira.create_issue",
        "linear.create-issue",
      ]);
      expect(found, query).not.toContain("fs.read_file");
    }
  });

  it("ranks an exact tool name typed as a query first with score 1", async () => {
    const sid = await seeded([
      ...CATALOG,
      { name: "jira.create_issue", description: "Open an issue (a ticket) in a Jira project; create issue" },
      { name: "linear.create_issue", description: "Create an issue in Linear, create issue, issue" },
    ]);
    for (const query of ["github.create_issue", "GitHub.Create_Issue", "  github.create_issue  "]) {
      const list = await hits(sid, { query });
      expect(list[0], query).toMatchObject({ name: "github.create_issue", score: 1, match_type: "fts" });
      expect(list.length).toBeGreaterThan(1);
      for (const other of list.slice(1)) expect(other.score).toBeLessThan(1);
      expectSorted(list);
    }
  });

  it("returns scores in [0, 1], best first", async () => {
    const sid = await seeded();
    for (const query of ["message channel", "read file disk", "github repository issue", "room"]) {
      const list = await hits(sid, { query });
      expect(list.length, query).toBeGreaterThan(0);
      expectSorted(list);
    }
  });

  it.each([
    ["a stray quote", 'foo"bar'],
    ["an operator after symbols", "c++ AND"],
    ["a bare AND", "AND"],
    ["a bare OR", "OR"],
    ["a bare NOT", "NOT"],
    ["a column filter", "name: x"],
    ["a lone star", "*"],
    ["a prefix star", "mess*"],
    ["two quotes", '""'],
    ["the empty string", ""],
    ["blanks", "   \t  "],
    ["an open parenthesis", "("],
    ["a close parenthesis", ")"],
    ["a caret", "^"],
    ["a minus", "-"],
    ["a leading minus", "-message"],
    ["emoji", "🎉🚀 send 💬"],
    ["a NEAR group", "NEAR(a b)"],
    ["a NEAR group with distance", "NEAR(message channel, 2)"],
    ["a column set", "{f_name f_description}: message"],
    ["very long text", "message channel weather ".repeat(83).slice(0, 2000)],
    ["Cyrillic, CJK and Arabic", "отправить сообщение 发送消息 أرسل"],
    ["accents", "Mëssage crème brûlée"],
    ["control characters", "\u0000\u0001\u0007message\u001b[0m\u007f"],
    ["a lone surrogate", "\ud800message\udfff"],
    ["SQL", "'; DROP TABLE trove_tools; --"],
    ["FTS commands", "'integrity-check' rebuild delete-all"],
    ["a rank filter", "rank MATCH 'x'"],
    ["a term with an inner quote", 'send"message'],
    ["many terms", Array.from({ length: 200 }, (_, i) => `w${i}`).join(" ")],
  ])("answers arbitrary text (%s) with 200", async (_label, query) => {
    const sid = await seeded();
    const res = await search(sid, { query });
    expect(res.status).toBe(200);
    expect(res.json.query).toBe(query);
    expect(res.json.search_type).toBe("fts");
    expect(Array.isArray(res.json.tools)).toBe(true);
    expectSorted(res.json.tools);
  });

  it.each([
    "",
    "   ",
    "*",
    '""',
    "(",
    ")",
    "^",
    "!!! ??? ...",
    "AND",
    "OR",
    "the of and",
    "please help me",
    "🎉🚀",
    "\u0000\u0001",
  ])("returns no tools for a query with no searchable token: %j", async (query) => {
    const sid = await seeded();
    const res = await search(sid, { query });
    expect(res.status).toBe(200);
    expect(res.json.tools).toEqual([]);
    expect(res.json.total_deferred).toBe(CATALOG.length);
  });

  it("respects the limit and defaults it to 8", async () => {
    const tools = Array.from({ length: 25 }, (_, i) => ({
      name: `bulk.create_item_${i}`,
      description: `Create item number ${i}`,
    }));
    const sid = await seeded(tools);
    expect((await search(sid, { query: "create item" })).json.tools).toHaveLength(8);
    expect((await search(sid, { query: "create item", limit: 1 })).json.tools).toHaveLength(1);
    expect((await search(sid, { query: "create item", limit: 3 })).json.tools).toHaveLength(3);
    expect((await search(sid, { query: "create item", limit: 20 })).json.tools).toHaveLength(20);
  });

  it("a larger limit extends the same ranking", async () => {
    const tools = Array.from({ length: 25 }, (_, i) => ({
      name: `bulk.create_item_${i}`,
      description: `Create item ${"number ".repeat(i % 5)}${i}`,
      side_effects: ["pure", "read", "write", "external", "stateful"][i % 5],
    }));
    const sid = await seeded(tools);
    const small = namesOf((await search(sid, { query: "create item", limit: 5 })).json.tools);
    const large = namesOf((await search(sid, { query: "create item", limit: 20 })).json.tools);
    expect(large.slice(0, 5)).toEqual(small);
  });
});

describe("exact search", () => {
  it("finds a tool by its full name with score 1", async () => {
    const sid = await seeded();
    expect(await hits(sid, { query: "github.create_issue", search_type: "exact" })).toEqual([
      {
        name: "github.create_issue",
        description: "Open a new issue in a GitHub repository",
        score: 1,
        relevance: 1,
        match_type: "exact",
        loading_mode: "deferred",
      },
    ]);
  });

  it("is case-insensitive and ignores surrounding blanks", async () => {
    const sid = await seeded();
    for (const query of ["GITHUB.CREATE_ISSUE", "GitHub.Create_Issue", "  github.create_issue\n"]) {
      const list = await hits(sid, { query, search_type: "exact" });
      expect(
        list.map((h) => [h.name, h.score]),
        query,
      ).toEqual([["github.create_issue", 1]]);
    }
  });

  it("finds a tool by its name without the namespace", async () => {
    const sid = await seeded();
    const list = await hits(sid, { query: "Create_Issue", search_type: "exact" });
    expect(list.map((h) => [h.name, h.score])).toEqual([["github.create_issue", 1]]);
  });

  it("finds a tool by its namespace-qualified name when the name has no prefix", async () => {
    const sid = await seeded([
      { name: "send_message", namespace: "slack", description: "Post to Slack" },
      { name: "other", description: "Other" },
    ]);
    for (const query of ["slack.send_message", "SLACK.SEND_MESSAGE", "send_message"]) {
      const list = await hits(sid, { query, search_type: "exact" });
      expect(
        list.map((h) => [h.name, h.score]),
        query,
      ).toEqual([["send_message", 1]]);
    }
  });

  it("does not match partial names, prefixes or other text", async () => {
    const sid = await seeded();
    for (const query of [
      "github.create",
      "create",
      "github",
      "issue",
      "github.create_issue.x",
      "*",
      "github.*",
    ]) {
      expect(await hits(sid, { query, search_type: "exact" }), query).toEqual([]);
    }
  });

  it("answers text that is not a tool name with no tools", async () => {
    const sid = await seeded();
    for (const query of ["", "two words", "a/b", "x".repeat(129), "é", "\u0000"]) {
      const res = await search(sid, { query, search_type: "exact" });
      expect(res.status).toBe(200);
      expect(res.json.tools).toEqual([]);
    }
  });
});

describe("regex search", () => {
  it("scores a full-name match 0.95, case-insensitively", async () => {
    const sid = await seeded();
    for (const query of [
      "github\\.create_issue",
      "GITHUB\\.CREATE_ISSUE",
      "^github\\.create_issue$",
      "git.*issue",
    ]) {
      const list = await hits(sid, { query, search_type: "regex" });
      expect(list, query).toEqual([
        {
          name: "github.create_issue",
          description: "Open a new issue in a GitHub repository",
          score: 0.95,
          relevance: 0.95,
          match_type: "regex",
          loading_mode: "deferred",
        },
      ]);
    }
  });

  it("scores a name-prefix match 0.90", async () => {
    const sid = await seeded();
    const list = await hits(sid, { query: "^github\\.", search_type: "regex" });
    expect(list.map((h) => [h.name, h.score])).toEqual([
      ["github.list_repos", 0.9],
      ["github.create_issue", 0.9],
    ]);
    expect((await hits(sid, { query: "WEATHER", search_type: "regex" })).map((h) => h.score)).toEqual([0.9]);
  });

  it("scores a match inside the name 0.85", async () => {
    const sid = await seeded();
    const list = await hits(sid, { query: "send_mess", search_type: "regex" });
    expect(list.map((h) => [h.name, h.score])).toEqual([["slack.send_message", 0.85]]);
    const end = await hits(sid, { query: "issue$", search_type: "regex" });
    expect(end.map((h) => [h.name, h.score])).toEqual([["github.create_issue", 0.85]]);
  });

  it("scores a match in the description or tags only 0.75", async () => {
    const sid = await seeded();
    expect(
      (await hits(sid, { query: "out of sight", search_type: "regex" })).map((h) => [h.name, h.score]),
    ).toEqual([["notes.archive", 0.75]]);
    expect(
      (await hits(sid, { query: "cleanup", search_type: "regex" })).map((h) => [h.name, h.score]),
    ).toEqual([["notes.archive", 0.75]]);
    expect(
      (await hits(sid, { query: "KANBAN", search_type: "regex" })).map((h) => [h.name, h.score]),
    ).toEqual([["calendar.book_room", 0.75]]);
  });

  it("orders name matches of every strength before text-only matches", async () => {
    const sid = await seeded([
      { name: "repo", description: "The repo tool" },
      { name: "repo.get", description: "Get one" },
      { name: "git.repo_list", description: "List them" },
      { name: "files.read", description: "Read a file from a repo" },
      { name: "misc.other", description: "Nothing to see" },
    ]);
    const list = await hits(sid, { query: "repo", search_type: "regex" });
    expect(list.map((h) => [h.name, h.score])).toEqual([
      ["repo", 0.95],
      ["repo.get", 0.9],
      ["git.repo_list", 0.85],
      ["files.read", 0.75],
    ]);
  });

  it("rejects a pattern over 200 characters with 400 pattern_too_long", async () => {
    const sid = await seeded();
    const res = await search(sid, { query: "a".repeat(201), search_type: "regex" });
    expect(res.status).toBe(400);
    expect(res.json.error).toEqual({
      code: "pattern_too_long",
      message: expect.any(String),
      details: { field: "query", limit: 200, length: 201 },
    });
    expect((await search(sid, { query: "a".repeat(200), search_type: "regex" })).status).toBe(200);
  });

  it.each(["(", "[a-", ")", "a{2,1}", "(?=x)", "(?<!x)y", "(a)\\1", "*", "a**", "\\", "[z-a]", "(?P<>x)"])(
    "rejects the invalid pattern %j with 400 invalid_pattern",
    async (query) => {
      const sid = await seeded();
      const res = await search(sid, { query, search_type: "regex" });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: "invalid_pattern", details: { field: "query" } });
    },
  );

  it.each(["(a+)+$", "(a|a)*b", "(a|aa)+$", "(x+x+)+y", "^(a?){30}a{30}$", "(.*a){12}"])(
    "answers the backtracking classic %j with exactly the hits RE2 finds",
    async (query) => {
      // A backtracking engine would take exponential time over these names and texts; RE2 does not
      // backtrack, so the answer comes (within the test timeout) and equals the reference model's.
      const evil = "a".repeat(120);
      const tools = [
        { name: `${evil}b`, description: `${"a".repeat(4000)}!`, tags: ["a".repeat(64)] },
        { name: `x.${"x".repeat(100)}`, description: `${"x".repeat(4000)}z` },
        { name: evil.slice(0, 30), description: "a".repeat(60) },
      ];
      const sid = await seeded(tools);
      const res = await search(sid, { query, search_type: "regex" });
      expect(res.status).toBe(200);
      expectSorted(res.json.tools);
      const model = new Model(tools, {
        default_loading_mode: "deferred",
        always_loaded_patterns: [],
        preferred_namespaces: [],
        policy: { deny: [] },
      });
      expect(res.json.tools.map((h: Hit) => ({ name: h.name, score: h.score }))).toEqual(
        model.regex(query, false),
      );
    },
  );

  it("matches every tool with a pattern that matches anything, up to the limit", async () => {
    const sid = await seeded();
    const all = await hits(sid, { query: "", search_type: "regex" });
    expect(all).toHaveLength(CATALOG.length);
    expect(all.every((h) => h.score === 0.85 || h.score === 0.9 || h.score === 0.95)).toBe(true);
    expect((await search(sid, { query: ".", search_type: "regex" })).json.tools).toHaveLength(8);
    expect((await search(sid, { query: ".", search_type: "regex", limit: 3 })).json.tools).toHaveLength(3);
  });
});

describe("policy", () => {
  const DENY = { policy: { deny: ["github.*"] } };
  const QUERIES: [string, string][] = [
    ["create issue", "fts"],
    ["github repository", "fts"],
    ["github.create_issue", "fts"],
    ["github.create_issue", "exact"],
    ["create_issue", "exact"],
    ["github", "regex"],
    [".", "regex"],
    ["issue", "regex"],
  ];

  async function expectNoDenied(sid: string) {
    for (const [query, search_type] of QUERIES) {
      for (const include_always_loaded of [false, true]) {
        const list = await hits(sid, { query, search_type, include_always_loaded });
        for (const h of list) expect(h.name, `${search_type} ${query}`).not.toMatch(/^github\./);
      }
    }
  }

  it("hides denied tools from every search type when the policy is set after the sync", async () => {
    const sid = await seeded();
    expect((await hits(sid, { query: "github", search_type: "regex" })).length).toBe(2);
    const put = await call("PUT", `/v1/sessions/${sid}`, DENY);
    expect(put.json.catalog).toMatchObject({ tools: CATALOG.length - 2, deferred: CATALOG.length - 2 });
    await expectNoDenied(sid);
  });

  it("hides denied tools when the policy is set before the sync", async () => {
    const sid = await seeded(CATALOG, DENY);
    await expectNoDenied(sid);
    const view = (await call("GET", `/v1/sessions/${sid}`)).json;
    expect(view.catalog).toMatchObject({
      tools: CATALOG.length - 2,
      deferred: CATALOG.length - 2,
      visible: 0,
    });
  });

  it("excludes denied tools from total_deferred", async () => {
    const sid = await seeded(CATALOG, DENY);
    for (const search_type of ["fts", "regex", "exact"]) {
      const res = await search(sid, { query: "x", search_type });
      expect(res.json.total_deferred).toBe(CATALOG.length - 2);
    }
  });

  it("answers a denied name exactly as it answers a name that never existed", async () => {
    const sid = await seeded(CATALOG, DENY);
    const pairs: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { query: "github.create_issue", search_type: "exact" },
        { query: "github.delete_everything", search_type: "exact" },
      ],
      [
        { query: "github\\.create_issue", search_type: "regex" },
        { query: "github\\.delete_everything", search_type: "regex" },
      ],
      [
        { query: "create_issue", search_type: "exact" },
        { query: "delete_everything", search_type: "exact" },
      ],
      // "ticket" folds to "issue": both queries have the same search terms.
      [{ query: "github.create_issue" }, { query: "github.create_ticket" }],
    ];
    for (const [denied, missing] of pairs) {
      const a = await search(sid, denied);
      const b = await search(sid, missing);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const { query: _qa, ...restA } = a.json;
      const { query: _qb, ...restB } = b.json;
      expect(restA, JSON.stringify(denied)).toEqual(restB);
    }
  });

  it("applies deny globs to the namespace-qualified name", async () => {
    const sid = await seeded(
      [
        { name: "create_issue", namespace: "github", description: "Open an issue" },
        { name: "create_page", namespace: "notion", description: "Open a page" },
      ],
      DENY,
    );
    expect(await hits(sid, { query: "create_issue", search_type: "exact" })).toEqual([]);
    expect(namesOf(await hits(sid, { query: "create", search_type: "regex" }))).toEqual(["create_page"]);
    expect(namesOf(await hits(sid, { query: "open" }))).toEqual(["create_page"]);
  });

  it("lets deny win over allow and shows only allowed tools", async () => {
    const sid = await seeded(CATALOG, {
      policy: { allow: ["github.*", "slack.*"], deny: ["github.list_*"] },
    });
    expect(namesOf(await hits(sid, { query: ".", search_type: "regex" })).sort()).toEqual([
      "github.create_issue",
      "slack.send_message",
    ]);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(2);
  });

  it("brings denied tools back when the policy is lifted", async () => {
    const sid = await seeded(CATALOG, DENY);
    expect(await hits(sid, { query: "github.create_issue", search_type: "exact" })).toEqual([]);
    await call("PUT", `/v1/sessions/${sid}`, {});
    expect(namesOf(await hits(sid, { query: "github.create_issue", search_type: "exact" }))).toEqual([
      "github.create_issue",
    ]);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(CATALOG.length);
  });

  it("keeps a denied tool hidden after it is updated by a sync", async () => {
    const sid = await seeded(CATALOG, DENY);
    const changed = CATALOG.map((t) =>
      t.name === "github.create_issue" ? { ...t, description: "zebra" } : t,
    );
    await op(sid, "catalog_sync", { tools: changed });
    expect(await hits(sid, { query: "zebra" })).toEqual([]);
    expect(await hits(sid, { query: "zebra", search_type: "regex" })).toEqual([]);
  });
});

describe("always-loaded tools", () => {
  async function expectHiddenUnlessIncluded(sid: string, name: string) {
    for (const [query, search_type] of [
      [name, "exact"],
      [name.replace(".", "\\."), "regex"],
      [name, "fts"],
    ]) {
      const without = await hits(sid, { query, search_type });
      expect(namesOf(without), `${search_type} without`).not.toContain(name);
      const withAlways = await hits(sid, { query, search_type, include_always_loaded: true });
      const hit = withAlways.find((h) => h.name === name);
      expect(hit, `${search_type} with`).toBeDefined();
      expect(hit?.loading_mode).toBe("always");
    }
  }

  it("excludes everything when the session default is always, unless asked", async () => {
    const sid = await seeded(CATALOG, { default_loading_mode: "always" });
    await expectHiddenUnlessIncluded(sid, "weather.get_forecast");
    const res = await search(sid, { query: ".", search_type: "regex", limit: 20 });
    expect(res.json).toMatchObject({ tools: [], total_deferred: 0 });
    const view = (await call("GET", `/v1/sessions/${sid}`)).json;
    expect(view.catalog).toMatchObject({ tools: CATALOG.length, deferred: 0, visible: CATALOG.length });
  });

  it("excludes a tool whose record says always, unless asked", async () => {
    const tools = CATALOG.map((t) =>
      t.name === "weather.get_forecast" ? { ...t, loading_mode: "always" } : t,
    );
    const sid = await seeded(tools);
    await expectHiddenUnlessIncluded(sid, "weather.get_forecast");
    const res = await search(sid, { query: "github.create_issue", search_type: "exact" });
    expect(res.json.total_deferred).toBe(CATALOG.length - 1);
  });

  it("excludes tools matching always_loaded_patterns, unless asked", async () => {
    const sid = await seeded(CATALOG, { always_loaded_patterns: ["weather.*", "*_file"] });
    await expectHiddenUnlessIncluded(sid, "weather.get_forecast");
    await expectHiddenUnlessIncluded(sid, "fs.read_file");
    const view = (await call("GET", `/v1/sessions/${sid}`)).json;
    expect(view.catalog).toMatchObject({ deferred: CATALOG.length - 2, visible: 2 });
  });

  it("lets a pattern override a record's deferred mode, and a record override the default", async () => {
    const sid = await seeded(
      [
        { name: "a.pinned", description: "pinned tool", loading_mode: "deferred" },
        { name: "b.declared", description: "declared tool", loading_mode: "deferred" },
        { name: "c.plain", description: "plain tool" },
      ],
      { default_loading_mode: "always", always_loaded_patterns: ["a.*"] },
    );
    const visible = await hits(sid, { query: ".", search_type: "regex", include_always_loaded: true });
    expect(Object.fromEntries(visible.map((h) => [h.name, h.loading_mode]))).toEqual({
      "a.pinned": "always",
      "b.declared": "deferred",
      "c.plain": "always",
    });
    expect(namesOf(await hits(sid, { query: ".", search_type: "regex" }))).toEqual(["b.declared"]);
  });

  it("re-evaluates loading modes when the config changes", async () => {
    const sid = await seeded();
    await call("PUT", `/v1/sessions/${sid}`, { always_loaded_patterns: ["slack.*"] });
    expect(await hits(sid, { query: "slack.send_message", search_type: "exact" })).toEqual([]);
    await call("PUT", `/v1/sessions/${sid}`, {});
    expect(namesOf(await hits(sid, { query: "slack.send_message", search_type: "exact" }))).toEqual([
      "slack.send_message",
    ]);
  });
});

describe("tie-breaking", () => {
  // Every tool's name without its namespace is "lookup", so exact search scores them all 1.0.
  const TIES = [
    { name: "gamma.lookup", description: "g", side_effects: "stateful" },
    { name: "zeta.lookup", description: "z", side_effects: "write" },
    { name: "omega.lookup", description: "o" },
    { name: "delta.lookup", description: "d", side_effects: "external" },
    { name: "beta.lookup", description: "b", side_effects: "pure" },
    { name: "ab.lookup", description: "ab", side_effects: "pure" },
    { name: "alpha.lookup", description: "a", side_effects: "read" },
    { name: "aa.lookup", description: "aa", side_effects: "pure" },
    { name: "b.lookup", description: "b", side_effects: "pure" },
  ];
  const BY_SIDE_EFFECTS = [
    "b.lookup",
    "aa.lookup",
    "ab.lookup",
    "beta.lookup",
    "alpha.lookup",
    "omega.lookup",
    "zeta.lookup",
    "delta.lookup",
    "gamma.lookup",
  ];

  it("orders equal scores by side effects (pure first), then shorter name, then name", async () => {
    const sid = await seeded(TIES);
    const exact = await hits(sid, { query: "lookup", search_type: "exact" });
    expect(exact.every((h) => h.score === 1)).toBe(true);
    expect(namesOf(exact)).toEqual(BY_SIDE_EFFECTS);
    const regex = await hits(sid, { query: "lookup", search_type: "regex" });
    expect(regex.every((h) => h.score === 0.85)).toBe(true);
    expect(namesOf(regex)).toEqual(BY_SIDE_EFFECTS);
  });

  it("puts preferred namespaces first, in the order listed", async () => {
    const sid = await seeded(TIES, { preferred_namespaces: ["gamma", "zeta"] });
    const expected = [
      "gamma.lookup",
      "zeta.lookup",
      ...BY_SIDE_EFFECTS.filter((n) => !/^(gamma|zeta)\./.test(n)),
    ];
    expect(namesOf(await hits(sid, { query: "lookup", search_type: "exact" }))).toEqual(expected);
    expect(namesOf(await hits(sid, { query: "lookup", search_type: "regex" }))).toEqual(expected);
  });

  it("never lets a preferred namespace outrank a higher score", async () => {
    const sid = await seeded(
      [
        { name: "pref.lookup_helper", description: "h" },
        { name: "other.lookup", description: "l" },
      ],
      { preferred_namespaces: ["pref"] },
    );
    const list = await hits(sid, { query: "^other\\.lookup$|lookup", search_type: "regex" });
    expect(list.map((h) => [h.name, h.score])).toEqual([
      ["other.lookup", 0.95],
      ["pref.lookup_helper", 0.85],
    ]);
  });

  it("applies the same order to full-text ties", async () => {
    const tools = TIES.map((t) => ({ ...t, description: "Look up a record" }));
    const sid = await seeded(tools, { preferred_namespaces: ["zeta"] });
    // The query names the tools' action ("lookup"), so the read-first rule (UNASKED_ACTION) leaves
    // the tools that change something tied with the others.
    const list = await hits(sid, { query: "lookup record" });
    expect(list).toHaveLength(TIES.length);
    expect(new Set(list.map((h) => h.score)).size).toBe(1);
    expect(namesOf(list)).toEqual(["zeta.lookup", ...BY_SIDE_EFFECTS.filter((n) => n !== "zeta.lookup")]);
  });

  it("returns the same order for the same query every time", async () => {
    const sid = await seeded(TIES);
    const first = await hits(sid, { query: "lookup" });
    for (let i = 0; i < 3; i++) expect(await hits(sid, { query: "lookup" })).toEqual(first);
  });
});
