// The tenant's upstream MCP servers (docs/gateway.md): PUT connects with the official SDK client
// to real MCP servers (test/fixtures/mcp-upstream/, an auxiliary worker built with the official
// SDK), pages through tools/list and publishes the tools as a catalog; headers are sealed and never
// come back; URLs are guarded; changes after import are recorded and, in review, held back.
import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Trove } from "../../packages/client/src/index";
import { call, KEY_A, KEY_B, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const upstream = (name: string, body: unknown, key?: string) =>
  call("PUT", `/v1/upstreams/${name}`, body, key);

/** Switches the fixture's forecast tool between its honest (1) and poisoned (2) description. */
async function setForecastVersion(version: number): Promise<void> {
  const res = await fetch("https://tools.upstream.test/admin/version", {
    method: "POST",
    body: JSON.stringify({ version }),
  });
  expect(res.status).toBe(200);
}

describe("upstreams", () => {
  it("imports every tool of an MCP server as the published catalog of its name", async () => {
    const put = await upstream("tools", { url: "https://tools.upstream.test/mcp" });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect(put.json).toMatchObject({
      name: "tools",
      namespace: "tools",
      status: "ok",
      tools: 55,
      skipped: 0,
    });
    expect(put.json.last_import).toEqual(expect.any(String));
    const catalog = await call("GET", "/v1/catalogs/tools");
    expect(catalog.json).toMatchObject({ name: "tools", tools: 55, namespaces: 1 });
    const list = await call("GET", "/v1/upstreams");
    expect(list.json.upstreams.map((u: { name: string }) => u.name)).toContain("tools");
  });

  it("maps MCP annotations to side effects and names tools <namespace>.<tool>", async () => {
    await upstream("mapped", { url: "https://tools.upstream.test/mcp", namespace: "acme" });
    const sid = `t-${crypto.randomUUID()}`;
    await call("PUT", `/v1/sessions/${sid}`, { catalog: "mapped" });
    const names = ["list", "get", "create", "update", "delete"].map((verb) => `acme.${verb}_invoice`);
    expect((await call("POST", `/v1/sessions/${sid}/tool_activate`, { names })).status).toBe(200);
    const context = await call("POST", `/v1/sessions/${sid}/context`, { format: "json" });
    const byName = Object.fromEntries(
      context.json.tools.map((t: { name: string; side_effects: string }) => [t.name, t.side_effects]),
    );
    expect(byName).toMatchObject({
      "acme.list_invoice": "read",
      "acme.get_invoice": "read",
      "acme.create_invoice": "write",
      "acme.update_invoice": "write",
      "acme.delete_invoice": "external",
    });
  });

  it("pages through tools/list", async () => {
    const put = await upstream("paged", { url: "https://paged.upstream.test/mcp?tools=120" });
    expect(put.json).toMatchObject({ status: "ok", tools: 120 });
  });

  it("seals headers: used to connect, never returned", async () => {
    const denied = await upstream("secure-no-key", { url: "https://secure.upstream.test/mcp" });
    expect(denied.status).toBe(200);
    expect(denied.json.status).toBe("error");
    expect(denied.json.last_error).toMatch(/401|unauthorized/i);
    const put = await upstream("secure", {
      url: "https://secure.upstream.test/mcp",
      headers: { authorization: "Bearer upstream-secret" },
    });
    expect(put.json).toMatchObject({ status: "ok", tools: 55, has_headers: true });
    for (const res of [put, await call("GET", "/v1/upstreams/secure"), await call("GET", "/v1/upstreams")]) {
      expect(JSON.stringify(res.json)).not.toContain("upstream-secret");
    }
  });

  it("reports an upstream that is down or not MCP as an error, never a 5xx", async () => {
    for (const host of ["down", "garbage"]) {
      const put = await upstream(host, { url: `https://${host}.upstream.test/mcp` });
      expect(put.status).toBe(200);
      expect(put.json.status).toBe("error");
      expect(put.json.last_error).toEqual(expect.any(String));
      const refreshed = await call("POST", `/v1/upstreams/${host}/refresh`);
      expect(refreshed.status).toBe(200);
      expect(refreshed.json.status).toBe("error");
    }
  });

  it.each([
    ["http://tools.upstream.test/mcp", /https/],
    ["https://169.254.169.254/latest", /private|link-local|metadata/],
    ["https://10.0.0.7/mcp", /private/],
    ["https://127.0.0.1/mcp", /private|loopback/],
    ["https://[::1]/mcp", /private|loopback/],
    ["https://[fe80::1]/mcp", /private/],
    ["https://localhost/mcp", /local/],
    ["https://metadata.google.internal/", /local|internal/],
    ["https://user:pw@tools.upstream.test/mcp", /credentials/],
    ["not a url", /absolute/],
  ])("refuses the URL %s with a 400 naming url", async (url, message) => {
    const res = await upstream("guarded", { url });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: "invalid_input", details: { field: "url" } });
    expect(res.json.error.message).toMatch(message);
    expect((await call("GET", "/v1/upstreams/guarded")).status).toBe(404);
  });

  it("refuses bad names and fields with a 400 naming them", async () => {
    expect(
      (await upstream("_gateway", { url: "https://tools.upstream.test/mcp" })).json.error.details.field,
    ).toBe("name");
    const bad = await upstream("x", {
      url: "https://tools.upstream.test/mcp",
      headers: { "bad header": "v" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toMatch(/^headers/);
    const watch = await upstream("x", { url: "https://tools.upstream.test/mcp", watch: "yes" });
    expect(watch.status).toBe(400);
    expect(watch.json.error.details.field).toBe("watch");
    expect((await call("GET", "/v1/upstreams/x")).status).toBe(404);
  });

  it("keeps one tenant's upstreams from another", async () => {
    await upstream("private-a", { url: "https://tools.upstream.test/mcp" });
    expect((await call("GET", "/v1/upstreams/private-a", undefined, KEY_B)).status).toBe(404);
    expect((await call("DELETE", "/v1/upstreams/private-a", undefined, KEY_B)).status).toBe(404);
    const theirs = await call("GET", "/v1/upstreams", undefined, KEY_B);
    expect(theirs.json.upstreams).toEqual([]);
  });

  it("deletes an upstream and its catalog", async () => {
    await upstream("gone", { url: "https://tools.upstream.test/mcp" });
    expect((await call("DELETE", "/v1/upstreams/gone")).json).toEqual({ deleted: true });
    expect((await call("GET", "/v1/upstreams/gone")).status).toBe(404);
    expect((await call("GET", "/v1/catalogs/gone")).status).toBe(404);
  });

  it("records a changed description with before and after, and holds it back in review until accepted", async () => {
    await call("PUT", "/v1/gateway/profile", { review_changes: true });
    await setForecastVersion(1);
    try {
      await upstream("rug", { url: "https://tools.upstream.test/mcp" });
      await setForecastVersion(2);
      // The hourly alarm re-imports every upstream.
      const stub = env.UPSTREAMS.get(env.UPSTREAMS.idFromName("tenant-a"));
      expect(await runDurableObjectAlarm(stub)).toBe(true);
      const held = await call("GET", "/v1/upstreams/rug");
      expect(held.json.tools).toBe(54);
      const [change] = held.json.changes;
      expect(change).toMatchObject({ tool: "forecast", status: "pending" });
      expect(change.before.description).toBe("Weather forecast for a city.");
      expect(change.after.description).toMatch(/id_rsa/);
      expect((await call("GET", "/v1/catalogs/rug")).json.tools).toBe(54);
      const accepted = await call("POST", "/v1/upstreams/rug/accept", { tools: ["forecast"] });
      expect(accepted.json.tools).toBe(55);
      expect(accepted.json.changes[0].status).toBe("accepted");
      expect((await call("GET", "/v1/catalogs/rug")).json.tools).toBe(55);
    } finally {
      await setForecastVersion(1);
      await call("PUT", "/v1/gateway/profile", {});
    }
  });

  it("without review, records the change and serves the tool as it is now", async () => {
    await call("PUT", "/v1/gateway/profile", {});
    await setForecastVersion(1);
    try {
      await upstream("open", { url: "https://tools.upstream.test/mcp" });
      // A session using the upstream's catalog before the change.
      const sid = newSid();
      expect((await call("PUT", `/v1/sessions/${sid}`, { catalog: "open" })).status).toBe(200);
      expect((await op(sid, "tool_search", { query: "weather forecast" })).status).toBe(200);
      await setForecastVersion(2);
      const refreshed = await call("POST", "/v1/upstreams/open/refresh");
      expect(refreshed.json.tools).toBe(55);
      expect(refreshed.json.changes[0]).toMatchObject({ tool: "forecast", status: "accepted" });
      expect(refreshed.json.changes[0].after.description).toMatch(/id_rsa/);
      // Nothing changed since: a refresh records nothing more.
      const again = await call("POST", "/v1/upstreams/open/refresh");
      expect(again.json.changes).toHaveLength(1);
      // The session keeps the change in its own events once the new version reaches it.
      await runInDurableObject(sessionStub(sid), (obj) => obj.published.reset());
      expect((await op(sid, "tool_search", { query: "weather forecast" })).status).toBe(200);
      const synced = (await op(sid, "events", { limit: 100 })).json.events.filter(
        (e: { type: string; data: { changes?: unknown } }) => e.type === "catalog_synced" && e.data.changes,
      );
      const [change] = synced.at(-1).data.changes;
      expect(change.name).toBe("open.forecast");
      expect(change.fields.description.before).toBe("Weather forecast for a city.");
      expect(change.fields.description.after).toMatch(/id_rsa/);
    } finally {
      await setForecastVersion(1);
    }
  });

  it("with watch, re-imports as soon as the upstream says on its stream that its list changed", async () => {
    const admin = (body?: unknown) =>
      fetch("https://watch.upstream.test/admin/watch", {
        method: body === undefined ? "GET" : "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ tools: number; streams: number }>);
    await admin({ tools: 0 });
    try {
      const put = await upstream("watched", { url: "https://watch.upstream.test/mcp", watch: true });
      expect(put.json).toMatchObject({ tools: 55, watch: true, watching: true });
      expect((await admin()).streams).toBeGreaterThanOrEqual(1);
      // Between requests: no call is made, no refresh asked; the upstream says it on its stream.
      await admin({ tools: 2 });
      let seen = put.json;
      for (let i = 0; i < 100 && seen.tools !== 57; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = (await call("GET", "/v1/upstreams/watched")).json;
      }
      expect(seen.tools).toBe(57);
      expect((await call("GET", "/v1/catalogs/watched")).json.tools).toBe(57);
      // Without watch, the stream is closed.
      const plain = await upstream("watched", { url: "https://watch.upstream.test/mcp" });
      expect(plain.json).toMatchObject({ watch: false, watching: false });
      await admin({ tools: 3 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await call("GET", "/v1/upstreams/watched")).json.tools).toBe(57);
    } finally {
      await call("DELETE", "/v1/upstreams/watched");
      await admin({ tools: 0 });
    }
  });

  it("are methods of the typed client's tenant", async () => {
    const trove = new Trove({
      baseUrl: "https://trove.test",
      apiKey: KEY_A,
      fetch: (url, init) => SELF.fetch(url, init),
    });
    const put = await trove.tenant.upstream_put({ name: "typed", url: "https://tools.upstream.test/mcp" });
    expect(put).toMatchObject({ status: "ok", tools: 55 });
    expect((await trove.tenant.upstream_refresh({ name: "typed" })).tools).toBe(55);
    expect((await trove.tenant.upstream_accept({ name: "typed" })).changes).toEqual([]);
    expect((await trove.tenant.gateway_profile_get()).default_loading_mode).toBe("deferred");
    expect(await trove.tenant.upstream_delete({ name: "typed" })).toEqual({ deleted: true });
  });
});
