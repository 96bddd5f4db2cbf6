// A tool may take its operation as an argument: the GitHub MCP server's `label_write` ("Perform write
// operations on repository labels", method: create | update | delete). Such a tool is the request's
// action and object as much as a create_label would be (issue 29). Whether a required enumeration
// chooses an operation is read from the catalog itself: its values must be words the catalog's tool
// names start or end with. Searched through the real session object, over HTTP.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import MCP from "../../bench/search-eval/mcp/catalog.json";
import { createSql } from "../../src/db/sql";
import { renormalizeSession } from "../../src/session/index-text";
import { offeredTerms } from "../../src/tools/tool-index";
import { newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const method = (required: boolean, values = ["create", "update", "delete"]) => ({
  type: "object",
  properties: {
    method: { type: "string", enum: values, description: "The operation to perform." },
    owner: { type: "string" },
    repo: { type: "string" },
    name: { type: "string" },
  },
  required: required ? ["method", "owner", "repo", "name"] : ["owner", "repo", "name"],
});

/**
 * The GitHub MCP server's tools as the MCP suite catalog holds them (names and descriptions only),
 * with label_write's `method` parameter as the server declares it ("Perform write operations on
 * repository labels": create, update or delete).
 */
function github(labelWrite: object): object[] {
  return MCP.tools
    .filter((t) => t.namespace === "github")
    .map((t) => (t.name === "label_write" ? { ...t, input_schema: labelWrite } : t));
}

/**
 * The same, with label_write described by its first sentence alone: its description's second
 * sentence makes the first count on its own too (the purpose field, docs/search.md), which ranks it
 * first for a label request whatever it offers. Without it, only offered operations can.
 */
function githubOneSentence(labelWrite: object): object[] {
  return github(labelWrite).map((t) =>
    (t as { name: string }).name === "label_write"
      ? { ...t, description: "Perform write operations on repository labels." }
      : t,
  );
}

async function ranked(tools: object[], query: string): Promise<string[]> {
  const sid = newSid();
  expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
  const res = await op(sid, "tool_search", { query, limit: 5 });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.tools.map((t: { name: string }) => t.name);
}

const REQUESTS = ["create a label", "delete the label", "add a new label to the repo"];

describe("operations a tool offers through a parameter", () => {
  it("rank the tool first for a request that names one of them and the tool's object", async () => {
    for (const tools of [github(method(true)), githubOneSentence(method(true))])
      for (const query of REQUESTS) expect((await ranked(tools, query))[0], query).toBe("label_write");
  });

  it("offer nothing when the choice is optional: the tool then ranks by its own words", async () => {
    // What the rule changes: without it, the reading tools that name a label rank first.
    const tools = githubOneSentence(method(false));
    for (const query of REQUESTS) expect((await ranked(tools, query))[0], query).not.toBe("label_write");
  });

  it("offer nothing when the values are not words this catalog's names start or end with", async () => {
    // A choice of states: no GitHub tool name starts or ends with "open" or "closed".
    const tools = githubOneSentence(method(true, ["open", "closed"]));
    expect((await ranked(tools, "create a label"))[0]).not.toBe("label_write");
  });

  it("are read from each record when it is written, and again when the index text moves on", async () => {
    const sid = newSid();
    expect((await op(sid, "catalog_sync", { tools: github(method(true)) })).status).toBe(200);
    await runInDurableObject(sessionStub(sid), (_obj, state) => {
      const sql = createSql(state.storage.sql);
      const offers = () =>
        sql.one<{ f_offers: string }>(`SELECT f_offers FROM trove_tools WHERE name = 'label_write'`)
          ?.f_offers;
      expect(offers()).toBe("creat updat delet");
      // A session written before the column existed holds '' until its next start re-normalizes it.
      sql.run(`UPDATE trove_tools SET f_offers = '' WHERE name = 'label_write'`);
      sql.run(`UPDATE trove_meta SET value = 'an-older-release' WHERE key = 'index_text'`);
      expect(renormalizeSession(sql)).toEqual({ tools: 1, skills: 0 });
      expect(offers()).toBe("creat updat delet");
    });
  });
});

describe("offeredTerms", () => {
  it("reads the first required enumeration of two or more strings, by the first term of each value", () => {
    expect(offeredTerms(method(true))).toBe("creat updat delet");
    // Values written as identifiers give their first word.
    expect(offeredTerms(method(true, ["create_or_update", "delete_file"]))).toBe("creat delet");
    expect(offeredTerms(method(true, ["create", "Create"]))).toBe("creat");
    expect(offeredTerms(method(true, ["create", "update"]))).toBe("creat updat");
  });

  it("reads nothing from optional, single-valued, non-string or wordless enumerations", () => {
    expect(offeredTerms(method(false))).toBe("");
    expect(offeredTerms(method(true, ["create"]))).toBe("");
    expect(offeredTerms({ ...method(true), properties: { method: { enum: [1, 2] } } })).toBe("");
    // A value made only of a stopword has no term: the enumeration is not read at all.
    expect(offeredTerms(method(true, ["create", "the"]))).toBe("");
    expect(offeredTerms(undefined)).toBe("");
    expect(offeredTerms({ type: "object", properties: {}, required: "method" })).toBe("");
  });
});
