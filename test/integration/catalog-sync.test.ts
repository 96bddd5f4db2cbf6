// catalog_sync through HTTP: counts, replace and merge, fingerprints, limits, and all-or-nothing writes.
import { describe, expect, it } from "vitest";
import { EMPTY_FINGERPRINT } from "../support/fixtures";
import { call, newSid, op } from "../support/http";

const HEX64 = /^[0-9a-f]{64}$/;

const tool = (name: string, description = `does ${name}`, extra: Record<string, unknown> = {}) => ({
  name,
  description,
  ...extra,
});

const BASE = [
  tool("github.create_issue", "Open an issue in a repository", { side_effects: "write", tags: ["issues"] }),
  tool("github.list_repos", "List repositories of an owner", {
    input_schema: { type: "object", properties: { owner: { type: "string" } } },
  }),
  tool("slack.send_message", "Post a message to a channel", { side_effects: "external" }),
];

const sync = (sid: string, tools: unknown[], mode?: "replace" | "merge") =>
  op(sid, "catalog_sync", mode ? { tools, mode } : { tools });

const session = async (sid: string) => (await call("GET", `/v1/sessions/${sid}`)).json;

const names = async (sid: string, query: string, search_type = "regex") =>
  (await op(sid, "tool_search", { query, search_type, limit: 20 })).json.tools.map((t: any) => t.name).sort();

function expectInvalid(res: { status: number; json: any }, field: string) {
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe("invalid_input");
  expect(res.json.error.details.field).toBe(field);
}

/** Syncs BASE, then returns what GET shows, to compare against after a rejected request. */
async function seeded(): Promise<{ sid: string; before: any }> {
  const sid = newSid();
  expect((await sync(sid, BASE)).status).toBe(200);
  return { sid, before: await session(sid) };
}

async function expectUnchanged(sid: string, before: any) {
  expect(await session(sid)).toEqual(before);
  expect(await names(sid, ".")).toEqual(BASE.map((t) => t.name).sort());
}

describe("catalog_sync output", () => {
  it("reports every new tool as added, with a fingerprint and the total", async () => {
    const sid = newSid();
    const res = await sync(sid, BASE);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      fingerprint: expect.stringMatching(HEX64),
      added: 3,
      updated: 0,
      removed: 0,
      unchanged: 0,
      total: 3,
    });
    const view = await session(sid);
    expect(view.catalog).toEqual({
      fingerprint: res.json.fingerprint,
      tools: 3,
      deferred: 3,
      visible: 0,
      published: null,
    });
  });

  it("reports an unchanged re-sync as all unchanged with the same fingerprint", async () => {
    const sid = newSid();
    const first = await sync(sid, BASE);
    const second = await sync(sid, BASE);
    expect(second.json).toEqual({
      fingerprint: first.json.fingerprint,
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: 3,
      total: 3,
    });
    expect((await session(sid)).catalog.fingerprint).toBe(first.json.fingerprint);
  });

  it("reports changing one record as exactly one update and changes the fingerprint", async () => {
    const sid = newSid();
    const first = await sync(sid, BASE);
    const changed = BASE.map((t, i) => (i === 1 ? { ...t, description: "List every repository" } : t));
    const second = await sync(sid, changed);
    expect(second.json).toMatchObject({ added: 0, updated: 1, removed: 0, unchanged: 2, total: 3 });
    expect(second.json.fingerprint).not.toBe(first.json.fingerprint);
    expect((await session(sid)).catalog.fingerprint).toBe(second.json.fingerprint);
  });

  it.each([
    ["tags", { tags: ["other"] }],
    ["side effects", { side_effects: "stateful" }],
    ["loading mode", { loading_mode: "always" }],
    ["namespace", { namespace: "gh" }],
    ["input schema", { input_schema: { type: "object" } }],
    ["output schema", { output_schema: { type: "object", properties: { ok: { type: "boolean" } } } }],
    ["examples", { examples: [{ args: { title: "x" } }] }],
    ["extra", { extra: { version: 2 } }],
  ])("counts a change to only the %s as an update", async (_label, patch) => {
    const sid = newSid();
    await sync(sid, BASE);
    const res = await sync(sid, [{ ...BASE[0], ...patch }, BASE[1], BASE[2]]);
    expect(res.json).toMatchObject({ added: 0, updated: 1, removed: 0, unchanged: 2, total: 3 });
  });

  it("does not count reordered object keys or spelled-out defaults as a change", async () => {
    const sid = newSid();
    await sync(sid, [
      tool("a.one", "first", { input_schema: { type: "object", properties: { x: { type: "string" } } } }),
      tool("b.two", "second"),
    ]);
    const res = await sync(sid, [
      {
        input_schema: { properties: { x: { type: "string" } }, type: "object" },
        description: "first",
        name: "a.one",
      },
      tool("b.two", "second", { namespace: "b", side_effects: "read" }),
    ]);
    expect(res.json).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 2, total: 2 });
  });

  it("reports added, updated, removed and unchanged together in one replace", async () => {
    const sid = newSid();
    await sync(sid, BASE);
    const res = await sync(sid, [
      BASE[0],
      { ...BASE[1], description: "changed" },
      tool("linear.create_issue", "Create a Linear issue"),
    ]);
    expect(res.json).toMatchObject({ added: 1, updated: 1, removed: 1, unchanged: 1, total: 3 });
  });
});

describe("replace and merge", () => {
  it("replace (the default) removes tools absent from the upload", async () => {
    const sid = newSid();
    await sync(sid, BASE);
    const res = await sync(sid, [BASE[0], tool("jira.create_ticket")]);
    expect(res.json).toMatchObject({ added: 1, updated: 0, removed: 2, unchanged: 1, total: 2 });
    expect(await names(sid, ".")).toEqual(["github.create_issue", "jira.create_ticket"]);
    expect((await session(sid)).catalog.tools).toBe(2);
  });

  it("an explicit replace behaves like the default", async () => {
    const sid = newSid();
    await sync(sid, BASE, "replace");
    const res = await sync(sid, [BASE[2]], "replace");
    expect(res.json).toMatchObject({ added: 0, updated: 0, removed: 2, unchanged: 1, total: 1 });
    expect(await names(sid, ".")).toEqual(["slack.send_message"]);
  });

  it("merge keeps tools absent from the upload and upserts the rest", async () => {
    const sid = newSid();
    await sync(sid, BASE);
    const res = await sync(
      sid,
      [{ ...BASE[0], description: "new text" }, tool("jira.create_ticket")],
      "merge",
    );
    expect(res.json).toMatchObject({ added: 1, updated: 1, removed: 0, unchanged: 0, total: 4 });
    expect(await names(sid, ".")).toEqual([...BASE.map((t) => t.name), "jira.create_ticket"].sort());
    expect((await session(sid)).catalog.tools).toBe(4);
  });

  it("merge of an empty list changes nothing", async () => {
    const { sid, before } = await seeded();
    const res = await sync(sid, [], "merge");
    expect(res.json).toEqual({
      fingerprint: before.catalog.fingerprint,
      added: 0,
      updated: 0,
      removed: 0,
      unchanged: 0,
      total: 3,
    });
    await expectUnchanged(sid, before);
  });

  it("replace with an empty list removes everything and returns the empty fingerprint", async () => {
    const sid = newSid();
    await sync(sid, BASE);
    const res = await sync(sid, []);
    expect(res.json).toEqual({
      fingerprint: EMPTY_FINGERPRINT,
      added: 0,
      updated: 0,
      removed: 3,
      unchanged: 0,
      total: 0,
    });
    expect((await session(sid)).catalog).toEqual({
      fingerprint: EMPTY_FINGERPRINT,
      tools: 0,
      deferred: 0,
      visible: 0,
      published: null,
    });
    expect(await names(sid, ".")).toEqual([]);
  });

  it("a removed tool can be added back", async () => {
    const sid = newSid();
    const first = await sync(sid, BASE);
    await sync(sid, [BASE[0]]);
    const res = await sync(sid, BASE);
    expect(res.json).toMatchObject({ added: 2, updated: 0, removed: 0, unchanged: 1, total: 3 });
    expect(res.json.fingerprint).toBe(first.json.fingerprint);
    expect(await names(sid, "list_repos")).toEqual(["github.list_repos"]);
  });

  it("a new description is what search sees after an update", async () => {
    const sid = newSid();
    await sync(sid, [tool("notes.write", "Store a quokka fact")]);
    expect(await names(sid, "quokka", "fts")).toEqual(["notes.write"]);
    await sync(sid, [tool("notes.write", "Store a wombat fact")]);
    expect(await names(sid, "quokka", "fts")).toEqual([]);
    expect(await names(sid, "wombat", "fts")).toEqual(["notes.write"]);
  });
});

describe("fingerprints", () => {
  it("are independent of upload order", async () => {
    const a = await sync(newSid(), BASE);
    const b = await sync(newSid(), [...BASE].reverse());
    const c = await sync(newSid(), [BASE[1], BASE[2], BASE[0]]);
    expect(b.json.fingerprint).toBe(a.json.fingerprint);
    expect(c.json.fingerprint).toBe(a.json.fingerprint);
  });

  it("re-uploading the same tools in another order is all unchanged", async () => {
    const sid = newSid();
    const first = await sync(sid, BASE);
    const second = await sync(sid, [...BASE].reverse());
    expect(second.json).toEqual({ ...first.json, added: 0, unchanged: 3 });
  });

  it("depend on the catalog's content, not on the sequence of syncs that built it", async () => {
    const stepwise = newSid();
    await sync(stepwise, [BASE[0]]);
    await sync(stepwise, [BASE[1]], "merge");
    await sync(stepwise, [{ ...BASE[2], description: "old" }], "merge");
    const last = await sync(stepwise, [BASE[2]], "merge");
    const direct = await sync(newSid(), BASE);
    expect(last.json.fingerprint).toBe(direct.json.fingerprint);
  });

  it("differ between different catalogs", async () => {
    const seen = new Set<string>();
    for (const tools of [[], [BASE[0]], [BASE[1]], [BASE[0], BASE[1]], BASE]) {
      seen.add((await sync(newSid(), tools)).json.fingerprint);
    }
    expect(seen.size).toBe(5);
  });
});

describe("limits", () => {
  it.each([
    ["ASCII", "a", 4096],
    ["two-byte é", "é", 2048],
    ["three-byte €", "€", 1365],
    ["three-byte CJK", "漢", 1365],
    ["four-byte emoji", "😀", 1024],
  ])("accepts a description of %s up to 4096 UTF-8 bytes", async (_label, unit, count) => {
    const res = await sync(newSid(), [tool("t.ok", unit.repeat(count))]);
    expect(res.status).toBe(200);
    expect(res.json.added).toBe(1);
  });

  it.each([
    ["ASCII", "a".repeat(4097)],
    ["two-byte é", "é".repeat(2049)],
    ["three-byte €", "€".repeat(1366)],
    ["three-byte CJK", "漢".repeat(1366)],
    ["four-byte emoji", "😀".repeat(1025)],
    ["mixed text", `${"a".repeat(4094)}é€`],
  ])("rejects a description of %s over 4096 UTF-8 bytes, naming its index", async (_label, description) => {
    const sid = newSid();
    const res = await sync(sid, [BASE[0], BASE[1], tool("t.long", description), BASE[2]]);
    expectInvalid(res, "tools[2].description");
    expect((await session(sid)).catalog.tools).toBe(0);
  });

  it("rejects a duplicate name naming the second occurrence", async () => {
    const res = await sync(newSid(), [BASE[0], BASE[1], tool("github.create_issue", "again"), BASE[2]]);
    expectInvalid(res, "tools[2].name");
    expect(res.json.error.message).toContain("github.create_issue");
  });

  it("names every later occurrence of a repeated name", async () => {
    const res = await sync(newSid(), [tool("x.a"), tool("x.b"), tool("x.a"), tool("x.a")]);
    expectInvalid(res, "tools[2].name");
    expect(res.json.error.details.issues.map((i: any) => i.field)).toEqual([
      "tools[2].name",
      "tools[3].name",
    ]);
  });

  it("treats names differing only in case as distinct tools", async () => {
    const res = await sync(newSid(), [tool("x.Tool"), tool("x.tool")]);
    expect(res.status).toBe(200);
    expect(res.json.total).toBe(2);
  });

  it("rejects a duplicate name in merge mode too", async () => {
    const { sid, before } = await seeded();
    expectInvalid(await sync(sid, [tool("x.a"), tool("x.a")], "merge"), "tools[1].name");
    await expectUnchanged(sid, before);
  });

  it("rejects 10,001 tools with catalog_too_large, as documented, and leaves the previous catalog intact", async () => {
    const { sid, before } = await seeded();
    const tools = Array.from({ length: 10_001 }, (_, i) => tool(`bulk.t${i}`, ""));
    const res = await sync(sid, tools);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "catalog_too_large",
      details: { field: "tools", limit: 10_000, total: 10_001 },
    });
    await expectUnchanged(sid, before);
  });

  it("accepts 10,000 tools, then refuses a merge that would make 10,001 without writing", async () => {
    const sid = newSid();
    const tools = Array.from({ length: 10_000 }, (_, i) => tool(`bulk.t${i}`, ""));
    const full = await sync(sid, tools);
    expect(full.json).toMatchObject({ added: 10_000, total: 10_000 });
    const before = await session(sid);
    expect(before.catalog.tools).toBe(10_000);

    const res = await sync(sid, [tool("bulk.one_more", "")], "merge");
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "catalog_too_large",
      details: { field: "tools", limit: 10_000, total: 10_001 },
    });
    expect(await session(sid)).toEqual(before);
    expect(
      (await op(sid, "tool_search", { query: "bulk.one_more", search_type: "exact" })).json.tools,
    ).toEqual([]);

    // Updating an existing tool at the limit is still allowed.
    const update = await sync(sid, [tool("bulk.t0", "changed")], "merge");
    expect(update.json).toMatchObject({ added: 0, updated: 1, total: 10_000 });
  });

  it.each([
    ["side_effects", { side_effects: "destructive" }],
    ["side_effects", { side_effects: "READ" }],
    ["side_effects", { side_effects: null }],
    ["loading_mode", { loading_mode: "lazy" }],
    ["loading_mode", { loading_mode: "" }],
    ["namespace", { namespace: "has.dot" }],
    ["namespace", { namespace: "" }],
    ["tags", { tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }],
    ["tags[0]", { tags: ["x".repeat(65)] }],
    ["tags[0]", { tags: [""] }],
    ["examples", { examples: Array.from({ length: 21 }, () => ({ args: {} })) }],
    ["examples[0].args", { examples: [{}] }],
    ["input_schema", { input_schema: "object" }],
    ["description", { description: undefined }],
  ])("rejects an invalid %s, naming tools[i] of the bad record", async (field, patch) => {
    const res = await sync(newSid(), [BASE[0], { ...BASE[1], ...patch }]);
    expectInvalid(res, `tools[1].${field}`);
  });

  it("rejects the whole request when one record in the middle is bad, changing nothing", async () => {
    const { sid, before } = await seeded();
    const res = await sync(sid, [
      tool("new.first", "a new tool"),
      { ...BASE[0], description: "an update" },
      tool("new.bad", "bad", { side_effects: "explosive" }),
      tool("new.last", "another new tool"),
    ]);
    expectInvalid(res, "tools[2].side_effects");
    await expectUnchanged(sid, before);
    expect(await names(sid, "new")).toEqual([]);
    // The untouched catalog still re-syncs as unchanged.
    const again = await sync(sid, BASE);
    expect(again.json).toMatchObject({ unchanged: 3, fingerprint: before.catalog.fingerprint });
  });

  it("rejects a bad record in merge mode without writing the good ones", async () => {
    const { sid, before } = await seeded();
    const res = await sync(sid, [tool("new.good"), tool("bad name")], "merge");
    expectInvalid(res, "tools[1].name");
    await expectUnchanged(sid, before);
  });
});
