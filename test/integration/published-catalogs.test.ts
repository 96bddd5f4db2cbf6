// Published catalogs (issue 16): a tenant publishes a catalog once and its sessions use it without
// uploading anything; new versions reach live sessions within a minute, re-indexing only what
// changed; the session's own tools merge on top; deletion and other tenants answer clear 4xx.
// Real worker, real session and catalog objects, real HTTP.
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Trove, TroveApiError } from "../../packages/client/src/index";
import type { CatalogObject } from "../../src/catalog-object";
import { call, KEY_A, KEY_B, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

function tools(ns: string) {
  return [
    {
      name: `${ns}.create_issue`,
      description: "Create an issue in a repository",
      side_effects: "write" as const,
    },
    { name: `${ns}.list_issues`, description: "List the open issues of a repository" },
    { name: `${ns}.merge_pull_request`, description: "Merge a pull request" },
    { name: `${ns}.whoami`, description: "The signed-in user", loading_mode: "always" as const },
  ];
}

const newName = () => `cat-${crypto.randomUUID().slice(0, 8)}`;

async function publish(name: string, body: unknown, key?: string) {
  return call("PUT", `/v1/catalogs/${name}`, body, key);
}

/** A new session configured with the published catalog `name`. */
async function sessionWith(name: string, config: Record<string, unknown> = {}): Promise<string> {
  const sid = newSid();
  const res = await call("PUT", `/v1/sessions/${sid}`, { ...config, catalog: name });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return sid;
}

async function search(sid: string, query: string): Promise<string[]> {
  const res = await op(sid, "tool_search", { query, limit: 10 });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.tools.map((t: { name: string }) => t.name);
}

/** What the session's object did: calls to catalog objects since it started. */
function catalogCalls(sid: string): Promise<number> {
  return runInDurableObject(sessionStub(sid), (obj) => obj.published.calls);
}

/** The session's minute is up (as after a restart): its next request asks the catalog again. */
function minutePasses(sid: string): Promise<void> {
  return runInDurableObject(sessionStub(sid), (obj) => obj.published.reset());
}

describe("publishing", () => {
  it("answers catalog_sync's counts and fingerprint, and a version that moves only with changes", async () => {
    const ns = newName().replace("-", "_");
    const name = newName();
    const first = await publish(name, { tools: tools(ns) });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      added: 4,
      updated: 0,
      removed: 0,
      unchanged: 0,
      total: 4,
      version: 1,
    });
    // The same records synced into a session give the same fingerprint.
    const sid = newSid();
    const synced = await op(sid, "catalog_sync", { tools: tools(ns) });
    expect(first.json.fingerprint).toBe(synced.json.fingerprint);

    const again = await publish(name, { tools: tools(ns) });
    expect(again.json).toMatchObject({ added: 0, updated: 0, unchanged: 4, version: 1 });
    expect(again.json.fingerprint).toBe(first.json.fingerprint);

    const merged = await publish(name, {
      tools: [{ name: `${ns}.close_issue`, description: "Close" }],
      mode: "merge",
    });
    expect(merged.json).toMatchObject({ added: 1, total: 5, version: 2 });
    const got = await call("GET", `/v1/catalogs/${name}`);
    expect(got.json).toMatchObject({
      name,
      version: 2,
      tools: 5,
      namespaces: 1,
      fingerprint: merged.json.fingerprint,
    });
    const list = await call("GET", "/v1/catalogs");
    expect(list.json.catalogs.find((c: { name: string }) => c.name === name)).toEqual(got.json);
  });

  it("is in the typed client as trove.tenant.catalog_*", async () => {
    const trove = new Trove({
      baseUrl: "https://trove.test",
      apiKey: KEY_A,
      fetch: (url, init) => SELF.fetch(url, init),
    });
    const name = newName();
    const published = await trove.tenant.catalog_publish({ name, tools: tools("viaclient") });
    expect(published).toMatchObject({ added: 4, version: 1 });
    expect(await trove.tenant.catalog_get({ name })).toMatchObject({ name, tools: 4 });
    const session = trove.session(newSid());
    await session.session_configure({ catalog: name });
    const found = await session.tool_search({ query: "merge a pull request" });
    expect(found.tools[0]?.name).toBe("viaclient.merge_pull_request");
    expect(await trove.tenant.catalog_delete({ name })).toEqual({ deleted: true });
    const err = await trove.tenant.catalog_get({ name }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TroveApiError);
    expect((err as TroveApiError).code).toBe("unknown_catalog");
  });

  it("refuses bad input with a 4xx naming the field, and writes nothing", async () => {
    const name = newName();
    const bad = await publish(name, { tools: [{ name: "x y", description: "bad name" }] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe("tools[0].name");
    const reserved = await publish(name, { tools: [{ name: "tool_search", description: "mine" }] });
    expect(reserved.status).toBe(400);
    expect(reserved.json.error.details.field).toBe("tools[0].name");
    const dup = await publish(name, {
      tools: [
        { name: "a.b", description: "1" },
        { name: "a.b", description: "2" },
      ],
    });
    expect(dup.json.error.details.field).toBe("tools[1].name");
    expect((await call("GET", `/v1/catalogs/${name}`)).status).toBe(404);
    expect((await call("PUT", "/v1/catalogs/no spaces", { tools: [] })).json.error.details.field).toBe(
      "name",
    );
    const post = await call("POST", `/v1/catalogs/${name}`, { tools: [] });
    expect(post.status).toBe(405);
    expect(post.json.error.details.allow).toEqual(["PUT", "GET", "DELETE"]);
    expect((await call("GET", "/v1/catalogs", undefined, null)).status).toBe(401);
    const notJson = await publish(name, "{");
    expect(notJson.json.error.code).toBe("invalid_json");
  });

  it("refuses 10,001 tools with catalog_too_large, as documented, and writes nothing", async () => {
    const name = newName();
    const many = Array.from({ length: 10_001 }, (_, i) => ({ name: `bulk.t${i}`, description: "" }));
    const res = await publish(name, { tools: many });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: "catalog_too_large",
      details: { field: "tools", limit: 10_000, total: 10_001 },
    });
    expect((await call("GET", `/v1/catalogs/${name}`)).status).toBe(404);
  });
});

/** The tables an object's storage holds (besides Cloudflare's own): none when nothing was written. */
async function tablesOf(stub: DurableObjectStub): Promise<string[]> {
  return runInDurableObject(stub, (_obj, state) =>
    state.storage.sql
      .exec<{ name: string }>(`SELECT name FROM sqlite_master WHERE name NOT LIKE '_cf_%'`)
      .toArray()
      .map((r) => r.name),
  );
}
const catalogObject = (name: string) => env.CATALOGS.get(env.CATALOGS.idFromName(`tenant-a/${name}`));

describe("reads of a catalog that does not exist", () => {
  it("GET and DELETE of a name never published answer 404 and leave no storage behind", async () => {
    const name = newName();
    expect((await call("GET", `/v1/catalogs/${name}`)).status).toBe(404);
    expect((await call("DELETE", `/v1/catalogs/${name}`)).status).toBe(404);
    expect(await tablesOf(catalogObject(name))).toEqual([]);
    // A tenant that never published: its list reads empty and stays without storage.
    const list = env.CATALOG_LISTS.get(env.CATALOG_LISTS.idFromName(`fresh-${crypto.randomUUID()}`));
    expect(await list.list()).toEqual([]);
    await list.remove(name);
    expect(await tablesOf(list)).toEqual([]);
  });

  it("a session whose catalog was deleted does not re-create the catalog's object when it checks", async () => {
    const name = newName();
    await publish(name, { tools: tools(newName().replace("-", "_")) });
    const sid = await sessionWith(name);
    expect((await call("DELETE", `/v1/catalogs/${name}`)).status).toBe(200);
    expect(await tablesOf(catalogObject(name))).toEqual([]);
    await minutePasses(sid);
    expect((await op(sid, "tool_search", { query: "issue" })).json.error.code).toBe("catalog_deleted");
    expect(await catalogCalls(sid)).toBeGreaterThan(0);
    expect(await tablesOf(catalogObject(name))).toEqual([]);
    // Published again, it is there again.
    await publish(name, { tools: tools("again") });
    expect(await tablesOf(catalogObject(name))).toContain("pub_tools");
  });
});

describe("a session using a published catalog", () => {
  it("searches, lists and resolves its tools without uploading anything", async () => {
    const ns = newName().replace("-", "_");
    const name = newName();
    await publish(name, { tools: tools(ns) });
    const sid = await sessionWith(name);
    expect(await search(sid, "open a bug")).toContain(`${ns}.create_issue`);
    const context = await op(sid, "context", { format: "json" });
    expect(context.json.tools.map((t: { name: string }) => t.name)).toContain(`${ns}.whoami`);
    const resolved = await op(sid, "tool_resolve", { name: `${ns}.list_issues`, args: {} });
    expect(resolved.json.decision).toBe("allow");
    const view = await call("GET", `/v1/sessions/${sid}`);
    expect(view.json.catalog).toMatchObject({ tools: 4, visible: 1, published: { name, version: 1 } });
  });

  it("keeps policy: a denied published tool is as absent as one never published", async () => {
    const ns = newName().replace("-", "_");
    const name = newName();
    await publish(name, { tools: tools(ns) });
    const sid = await sessionWith(name, {
      policy: { deny: [`${ns}.merge_*`], approval: [`${ns}.create_*`] },
    });
    const gated = await op(sid, "tool_resolve", { name: `${ns}.create_issue`, args: {} });
    expect(gated.json.decision).toBe("needs_approval");
    expect(await search(sid, "merge pull request")).not.toContain(`${ns}.merge_pull_request`);
    const denied = await op(sid, "tool_resolve", { name: `${ns}.merge_pull_request`, args: {} });
    const absent = await op(sid, "tool_resolve", { name: `${ns}.never_published`, args: {} });
    expect(denied.status).toBe(absent.status);
    expect(denied.json.error.code).toBe(absent.json.error.code);
  });

  it("merges the session's own tools on top; a name the catalog holds is refused naming the field", async () => {
    const ns = newName().replace("-", "_");
    const name = newName();
    await publish(name, { tools: tools(ns) });
    const sid = await sessionWith(name);
    const own = await op(sid, "catalog_sync", {
      tools: [{ name: "local.deploy", description: "Deploy the service to production" }],
      mode: "merge",
    });
    expect(own.status).toBe(200);
    expect(await search(sid, "deploy to production")).toContain("local.deploy");
    expect(await search(sid, "open a bug")).toContain(`${ns}.create_issue`);
    const clash = await op(sid, "catalog_sync", {
      tools: [{ name: `${ns}.create_issue`, description: "Mine" }],
      mode: "merge",
    });
    expect(clash.status).toBe(400);
    expect(clash.json.error.details.field).toBe("tools[0].name");
    // Replace touches the session's own tools only.
    expect((await op(sid, "catalog_sync", { tools: [] })).json.total).toBe(0);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(4);
  });

  it("gets a new version on its first request after its minute, re-indexing only what changed", async () => {
    const ns = newName().replace("-", "_");
    const name = newName();
    await publish(name, { tools: tools(ns) });
    const sid = await sessionWith(name);
    await search(sid, "issue");
    const next = tools(ns)
      .filter((t) => !t.name.endsWith("merge_pull_request"))
      .map((t) =>
        t.name.endsWith("list_issues") ? { ...t, description: "List the open tickets of a repo" } : t,
      );
    expect((await publish(name, { tools: next })).json).toMatchObject({ updated: 1, removed: 1, version: 2 });

    // Within the minute the session uses its copy and asks no one.
    const calls = await catalogCalls(sid);
    for (let i = 0; i < 10; i++) await search(sid, "tickets");
    expect(await catalogCalls(sid)).toBe(calls);
    expect(await search(sid, "merge pull request")).toContain(`${ns}.merge_pull_request`);

    await minutePasses(sid);
    expect(await search(sid, "open tickets")).toContain(`${ns}.list_issues`);
    expect(await search(sid, "merge pull request")).not.toContain(`${ns}.merge_pull_request`);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.published.version).toBe(2);
    const events = await op(sid, "events", { limit: 500 });
    const applied = events.json.events
      .filter((e: { type: string }) => e.type === "catalog_synced")
      .map((e: { data: Record<string, unknown> }) => e.data);
    expect(applied.at(-1)).toMatchObject({ catalog: name, version: 2, added: 0, updated: 1, removed: 1 });
    // What changed under the session, before and after (an upstream's rug pull is on record).
    expect(applied.at(-1).changes).toEqual([
      {
        name: `${ns}.list_issues`,
        fields: {
          description: {
            before: tools(ns).find((t) => t.name.endsWith("list_issues"))?.description,
            after: "List the open tickets of a repo",
          },
        },
      },
    ]);
  });

  it("records a changed tool's before and after only while the policy allows the tool", async () => {
    const ns = newName().replace("-", "_");
    const name = newName();
    await publish(name, { tools: tools(ns) });
    const sid = await sessionWith(name, { policy: { deny: [`${ns}.merge_*`] } });
    await search(sid, "issue");
    const next = tools(ns).map((t) => ({ ...t, description: `${t.description} (now with more)` }));
    expect((await publish(name, { tools: next })).json).toMatchObject({ updated: 4, version: 2 });
    await minutePasses(sid);
    await search(sid, "issue");
    const synced = (await op(sid, "events", { limit: 500 })).json.events.filter(
      (e: { type: string }) => e.type === "catalog_synced",
    );
    const changed = synced.at(-1).data.changes.map((c: { name: string }) => c.name);
    expect(changed).toEqual([`${ns}.create_issue`, `${ns}.list_issues`, `${ns}.whoami`]);
    expect(JSON.stringify(synced)).not.toContain("merge_pull_request");
    // Denied later, a tool leaves the record it was in.
    const deny = { policy: { deny: [`${ns}.merge_*`, `${ns}.whoami`] }, catalog: name };
    expect((await call("PUT", `/v1/sessions/${sid}`, deny)).status).toBe(200);
    const now = (await op(sid, "events", { limit: 500 })).json.events.filter(
      (e: { type: string; data: { changes?: unknown } }) => e.type === "catalog_synced" && e.data.changes,
    );
    expect(now.at(-1).data.changes.map((c: { name: string }) => c.name)).toEqual([
      `${ns}.create_issue`,
      `${ns}.list_issues`,
    ]);
  });

  it("switches catalogs: the old one's tools leave, the new one's arrive, its own tools stay", async () => {
    const [a, b] = [newName(), newName()];
    await publish(a, { tools: tools("alpha") });
    await publish(b, { tools: tools("beta") });
    const sid = await sessionWith(a);
    await op(sid, "catalog_sync", { tools: [{ name: "own.deploy", description: "Deploy it" }] });
    expect((await call("PUT", `/v1/sessions/${sid}`, { catalog: b })).json.catalog).toMatchObject({
      tools: 5,
      published: { name: b, version: 1 },
    });
    const names = await search(sid, "merge a pull request");
    expect(names).toContain("beta.merge_pull_request");
    expect(names).not.toContain("alpha.merge_pull_request");
    expect(await search(sid, "deploy")).toContain("own.deploy");
  });

  it("takes a catalog larger than one page of changes in several calls, whole", async () => {
    const name = newName();
    const many = Array.from({ length: 60 }, (_, i) => ({
      name: `big.tool_${i}`,
      description: `Tool ${i} of many`,
    }));
    await publish(name, { tools: many });
    const catalog = env.CATALOGS.get(env.CATALOGS.idFromName(`tenant-a/${name}`));
    await runInDurableObject(catalog as unknown as DurableObjectStub<CatalogObject>, (obj) => {
      obj.pageBytes = 2_000;
    });
    const sid = await sessionWith(name);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog.tools).toBe(60);
    expect(await catalogCalls(sid)).toBeGreaterThan(3);
    // A later version's changes page the same way.
    const changed = many.map((t, i) =>
      i % 2 === 0 ? { ...t, description: `${t.description}, changed` } : t,
    );
    await publish(name, { tools: changed.slice(0, 50) });
    await minutePasses(sid);
    expect((await call("GET", `/v1/sessions/${sid}`)).json.catalog).toMatchObject({
      tools: 50,
      published: { version: 2 },
    });
    expect(await search(sid, "tool 4 of many changed")).toContain("big.tool_4");
  });

  it("answers catalog_deleted naming the field once its catalog is deleted, until configured without it", async () => {
    const ns = newName().replace("-", "_");
    const name = newName();
    await publish(name, { tools: tools(ns) });
    const sid = await sessionWith(name);
    await search(sid, "issue");
    expect((await call("DELETE", `/v1/catalogs/${name}`)).json).toEqual({ deleted: true });
    expect((await call("DELETE", `/v1/catalogs/${name}`)).status).toBe(404);
    expect(
      (await call("GET", "/v1/catalogs")).json.catalogs.map((c: { name: string }) => c.name),
    ).not.toContain(name);
    await minutePasses(sid);
    const gone = await op(sid, "tool_search", { query: "issue" });
    expect(gone.status).toBe(409);
    expect(gone.json.error).toMatchObject({ code: "catalog_deleted", details: { field: "catalog" } });
    // And so on, without asking again within the minute.
    const calls = await catalogCalls(sid);
    expect((await op(sid, "context", {})).json.error.code).toBe("catalog_deleted");
    expect(await catalogCalls(sid)).toBe(calls);
    expect((await call("GET", `/v1/sessions/${sid}`)).status).toBe(200);
    expect((await call("PUT", `/v1/sessions/${sid}`, { catalog: null })).status).toBe(200);
    expect(await search(sid, "issue")).toEqual([]);
  });

  it("refuses a catalog nobody published, and another tenant's, writing nothing", async () => {
    const name = newName();
    await publish(name, { tools: tools("acme") });
    const sid = newSid();
    const res = await call("PUT", `/v1/sessions/${sid}`, { catalog: `${name}-nope` });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: "unknown_catalog", details: { field: "catalog" } });
    expect((await call("GET", `/v1/sessions/${sid}`)).json.config.catalog).toBeNull();
    // Tenant B: the same name is not its catalog.
    expect((await call("GET", `/v1/catalogs/${name}`, undefined, KEY_B)).status).toBe(404);
    expect(
      (await call("GET", "/v1/catalogs", undefined, KEY_B)).json.catalogs.map(
        (c: { name: string }) => c.name,
      ),
    ).not.toContain(name);
    const other = await call("PUT", `/v1/sessions/${newSid()}`, { catalog: name }, KEY_B);
    expect(other.json.error.code).toBe("unknown_catalog");
  });
});
