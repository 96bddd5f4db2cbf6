// Guarantees of the speed paths: they must give the answers the slow paths would.
import { describe, expect, it } from "vitest";
import { call, newSid, op } from "../support/http";

const tools = [
  { name: "gh.get_user", description: "Get a user profile by login" },
  { name: "gh.list_users", description: "List users of an organization" },
  { name: "db.get_user", description: "Get a user row from the users table" },
  { name: "gh.get_repo", description: "Get repository details" },
  { name: "mail.send", description: "Send an email to a user" },
];

describe("denied tools and ranking", () => {
  it("gives the same full-text scores whether a denied tool exists or never did", async () => {
    const withDenied = newSid();
    await call("PUT", `/v1/sessions/${withDenied}`, { policy: { deny: ["db.*"] } });
    await op(withDenied, "catalog_sync", { tools });
    const without = newSid();
    await op(without, "catalog_sync", { tools: tools.filter((t) => !t.name.startsWith("db.")) });
    for (const query of ["get user", "user table row", "send email", "users"]) {
      const a = await op(withDenied, "tool_search", { query });
      const b = await op(without, "tool_search", { query });
      expect(a.json, query).toEqual(b.json);
    }
  });
});

describe("catalog_sync fast path", () => {
  it("answers an identical re-sync as unchanged and still sees later changes", async () => {
    const sid = newSid();
    const first = await op(sid, "catalog_sync", { tools });
    const again = await op(sid, "catalog_sync", { tools });
    expect(again.json).toEqual({ ...first.json, added: 0, unchanged: tools.length });

    const changed = tools.map((t, i) => (i === 0 ? { ...t, description: "Get a user by login" } : t));
    const update = await op(sid, "catalog_sync", { tools: changed });
    expect(update.json).toMatchObject({ added: 0, updated: 1, removed: 0, unchanged: tools.length - 1 });
    expect(update.json.fingerprint).not.toBe(first.json.fingerprint);

    // Back to the first catalog: the fingerprint returns too.
    const back = await op(sid, "catalog_sync", { tools });
    expect(back.json).toMatchObject({ updated: 1, fingerprint: first.json.fingerprint });
  });

  it("treats the same tools in another order as unchanged", async () => {
    const sid = newSid();
    const first = await op(sid, "catalog_sync", { tools });
    const reordered = await op(sid, "catalog_sync", { tools: [...tools].reverse() });
    expect(reordered.json).toEqual({ ...first.json, added: 0, unchanged: tools.length });
  });

  it("does not reuse a replace answer for a merge of the same tools after a change in between", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools, mode: "merge" });
    await op(sid, "catalog_sync", { tools: tools.slice(0, 2) }); // replace: removes three
    const merge = await op(sid, "catalog_sync", { tools, mode: "merge" });
    expect(merge.json).toMatchObject({ added: 3, unchanged: 2, total: 5 });
  });
});

describe("regex search over names and descriptions", () => {
  const many = Array.from({ length: 12 }, (_, i) => ({
    name: `svc.user_op_${i}`,
    description: `Operation ${i}`,
  }));
  const catalog = [...many, { name: "svc.other", description: "Touches user records" }];

  it("returns only name matches when they fill the page", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: catalog });
    const res = await op(sid, "tool_search", { query: "user", search_type: "regex", limit: 5 });
    expect(res.json.tools).toHaveLength(5);
    expect(res.json.tools.every((t: { score: number }) => t.score === 0.85)).toBe(true);
  });

  it("adds description matches after the name matches when the page has room", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", { tools: catalog });
    const res = await op(sid, "tool_search", { query: "user", search_type: "regex", limit: 20 });
    expect(res.json.tools).toHaveLength(13);
    expect(res.json.tools.at(-1)).toMatchObject({ name: "svc.other", score: 0.75 });
  });
});
