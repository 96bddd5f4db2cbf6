// Tenants never see each other's sessions, even under the same session id.
import { describe, expect, it } from "vitest";
import { CREATE_ISSUE, EMPTY_FINGERPRINT, LIST_REPOS, SEND_MESSAGE } from "../support/fixtures";
import { call, KEY_A, KEY_B, newSid, op } from "../support/http";

/** Slack is always loaded here, so A's session has deferred and visible tools to leak. */
const A_TOOLS = [CREATE_ISSUE, LIST_REPOS, { ...SEND_MESSAGE, loading_mode: "always" }];

async function seedA(): Promise<{ sid: string; view: any }> {
  const sid = newSid();
  expect((await call("PUT", `/v1/sessions/${sid}`, { project_id: "tenant-a-project" }, KEY_A)).status).toBe(
    200,
  );
  expect((await op(sid, "catalog_sync", { tools: A_TOOLS }, KEY_A)).status).toBe(200);
  const view = (await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A)).json;
  expect(view.catalog).toMatchObject({ tools: 3, deferred: 2, visible: 1 });
  return { sid, view };
}

const search = (sid: string, key: string, query: string, search_type = "fts") =>
  op(sid, "tool_search", { query, search_type, limit: 20, include_always_loaded: true }, key);

describe("tenant isolation", () => {
  it("tenant B sees an empty session under the sid tenant A filled", async () => {
    const { sid } = await seedA();
    const res = await call("GET", `/v1/sessions/${sid}`, undefined, KEY_B);
    expect(res.status).toBe(200);
    expect(res.json.catalog).toEqual({
      fingerprint: EMPTY_FINGERPRINT,
      tools: 0,
      deferred: 0,
      visible: 0,
      published: null,
    });
    expect(res.json.config.project_id).toBeNull();
  });

  it("tenant B finds none of tenant A's tools by any search type", async () => {
    const { sid } = await seedA();
    for (const [query, type] of [
      ["create issue", "fts"],
      ["github.create_issue", "fts"],
      ["github.create_issue", "exact"],
      ["create_issue", "exact"],
      [".", "regex"],
      ["github", "regex"],
    ]) {
      const res = await search(sid, KEY_B, query as string, type);
      expect(res.status).toBe(200);
      expect(res.json.tools).toEqual([]);
      expect(res.json.total_deferred).toBe(0);
    }
    // The same searches as tenant A do find them.
    expect((await search(sid, KEY_A, ".", "regex")).json.tools).toHaveLength(3);
  });

  it("tenant B's sync and config do not change tenant A's session", async () => {
    const { sid, view } = await seedA();
    const putB = await call(
      "PUT",
      `/v1/sessions/${sid}`,
      { project_id: "tenant-b-project", policy: { deny: ["github.*"] } },
      KEY_B,
    );
    expect(putB.status).toBe(200);
    const syncB = await op(
      sid,
      "catalog_sync",
      { tools: [{ name: "github.create_issue", description: "B's own version" }] },
      KEY_B,
    );
    expect(syncB.json).toMatchObject({ added: 1, updated: 0, removed: 0, total: 1 });

    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A)).json).toEqual(view);
    const exact = await search(sid, KEY_A, "github.create_issue", "exact");
    expect(exact.json.tools).toEqual([
      expect.objectContaining({
        name: "github.create_issue",
        description: "Create an issue in a GitHub repository",
      }),
    ]);
    // A's unchanged re-sync is still a no-op: B's write did not touch A's hashes.
    const again = await op(sid, "catalog_sync", { tools: A_TOOLS }, KEY_A);
    expect(again.json).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 3 });
    expect(again.json.fingerprint).toBe(view.catalog.fingerprint);
  });

  it("tenant A does not see tenant B's tools or config", async () => {
    const { sid } = await seedA();
    await op(sid, "catalog_sync", { tools: [{ name: "secret.b_only", description: "zebra" }] }, KEY_B);
    expect((await search(sid, KEY_A, "zebra")).json.tools).toEqual([]);
    expect((await search(sid, KEY_A, "secret.b_only", "exact")).json.tools).toEqual([]);
    expect((await search(sid, KEY_B, "zebra")).json.tools.map((t: any) => t.name)).toEqual(["secret.b_only"]);
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A)).json.config.project_id).toBe(
      "tenant-a-project",
    );
  });

  it("tenant B deleting the sid does not erase tenant A's session", async () => {
    const { sid, view } = await seedA();
    await op(sid, "catalog_sync", { tools: [{ name: "b.tool", description: "b" }] }, KEY_B);
    expect((await call("DELETE", `/v1/sessions/${sid}`, undefined, KEY_B)).json).toEqual({ deleted: true });
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A)).json).toEqual(view);
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_B)).json.catalog.tools).toBe(0);
  });

  it("tenant A deleting its session leaves tenant B's under the same sid", async () => {
    const { sid } = await seedA();
    await op(sid, "catalog_sync", { tools: [{ name: "b.tool", description: "b" }] }, KEY_B);
    await call("DELETE", `/v1/sessions/${sid}`, undefined, KEY_A);
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A)).json.catalog.tools).toBe(0);
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_B)).json.catalog.tools).toBe(1);
  });

  it("the same tools give the same fingerprint for both tenants, as separate copies", async () => {
    const sid = newSid();
    const a = await op(sid, "catalog_sync", { tools: A_TOOLS }, KEY_A);
    const b = await op(sid, "catalog_sync", { tools: A_TOOLS }, KEY_B);
    expect(b.json.fingerprint).toBe(a.json.fingerprint);
    expect(b.json).toMatchObject({ added: 3, unchanged: 0 });
  });

  it("a sid that looks like another tenant's address stays inside the caller's tenant", async () => {
    const { sid } = await seedA();
    // The object name is `${tenant}/${sid}`; a sid cannot contain "/", and ":" does not reach A.
    expect((await call("GET", `/v1/sessions/tenant-a%2F${sid}`, undefined, KEY_B)).status).toBe(400);
    const res = await call("GET", `/v1/sessions/tenant-a:${sid}`, undefined, KEY_B);
    expect(res.status).toBe(200);
    expect(res.json.catalog.tools).toBe(0);
  });
});
