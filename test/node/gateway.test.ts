// The gateway over real HTTP on loopback: Trove in Miniflare with TROVE_GATEWAY_DEV=1, the
// fixture's MCP servers (official SDK) served by Node at http://127.0.0.1, and the official SDK
// client in Node; then /inspect in headless Chromium accepting a changed upstream tool.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackUpstream, serveUpstream } from "../fixtures/mcp-upstream/node-server";
import { browserRequired, findChromium, launchChromium } from "./browser";
import { type RunningWorker, startWorker } from "./worker";

const KEY = "key-a";
const WAIT = { timeout: 15_000 };
const withBrowser = findChromium() !== undefined || browserRequired();

let worker: RunningWorker;
let upstream: LoopbackUpstream;

beforeAll(async () => {
  upstream = await serveUpstream();
  worker = await startWorker({
    bindings: { TROVE_GATEWAY_DEV: "1", TROVE_SECRETS_KEY: "node-test-secrets-key-0123456789" },
  });
});

afterAll(async () => {
  await worker?.dispose();
  upstream?.close();
});

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${worker.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const setForecastVersion = (version: number) =>
  fetch(`${upstream.url}/admin/version`, { method: "POST", body: JSON.stringify({ version }) });

describe("the gateway on loopback", () => {
  it("refuses plain http to loopback without the development flag", async () => {
    const plain = await startWorker();
    try {
      const res = await fetch(`${plain.url}/v1/upstreams/local`, {
        method: "PUT",
        headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${upstream.url}/tools/mcp` }),
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { details: { field: string } } }).error.details.field).toBe(
        "url",
      );
    } finally {
      await plain.dispose();
    }
  });

  it("serves an upstream on loopback to the official SDK client: list, search, list_changed, call", async () => {
    const put = await api("PUT", "/v1/upstreams/local", {
      url: `${upstream.url}/tools/mcp`,
      headers: { "x-upstream-token": "not-checked-here" },
    });
    expect(put).toMatchObject({ status: "ok", tools: 55, has_headers: true });
    await api("PUT", "/v1/gateway/profile", { upstreams: ["local"] });
    const client = new Client({ name: "node-test", version: "1.0.0" });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${worker.url}/v1/gateway/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
      }),
    );
    const before = (await client.listTools()).tools.map((t) => t.name);
    expect(before).toContain("call_tool");
    expect(before.some((n) => n.startsWith("local."))).toBe(false);
    const found = await client.callTool({ name: "tool_search", arguments: { query: "echo the text back" } });
    expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe("local.echo");
    expect(changed).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain("local.echo");
    const echoed = await client.callTool({
      name: "call_tool",
      arguments: { name: "local.echo", arguments: { text: "hi" } },
    });
    expect(echoed).toEqual({ content: [{ type: "text", text: "hi" }], structuredContent: { echoed: "hi" } });
    await client.close();
  });
});

describe.skipIf(!withBrowser)("/inspect and changed upstream tools", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await setForecastVersion(1);
  });

  it("lists a changed tool held back for review and accepts it", async () => {
    await api("PUT", "/v1/gateway/profile", { review_changes: true });
    await setForecastVersion(1);
    await api("PUT", "/v1/upstreams/weather", { url: `${upstream.url}/tools/mcp` });
    await setForecastVersion(2);
    const held = await api("POST", "/v1/upstreams/weather/refresh");
    expect(held.tools).toBe(54);

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    await page.goto(`${worker.url}/inspect`);
    await expect.poll(() => page.evaluate("document.documentElement.dataset.ready"), WAIT).toBe("true");
    await page.getByLabel("API key").fill(KEY);
    await page.getByLabel("Session id").fill(`inspect-${crypto.randomUUID()}`);
    await page.getByRole("button", { name: "Load session" }).click();
    const region = page.getByRole("region", { name: "Changed upstream tools", exact: true });
    await expect.poll(() => region.textContent(), WAIT).toContain("id_rsa");
    expect(await region.textContent()).toContain("Weather forecast for a city.");
    await page.getByRole("button", { name: "Accept the change of weather forecast" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent(), WAIT)
      .toContain("Accepted the change of weather forecast");
    expect(await region.textContent()).toContain("No upstream tool waits for acceptance.");
    expect((await api("GET", "/v1/upstreams/weather")).tools).toBe(55);
    expect(problems).toEqual([]);
  });
});
