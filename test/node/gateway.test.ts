// The gateway over real HTTP on loopback: Trove in Miniflare with TROVE_GATEWAY_DEV=1, the
// fixture's MCP servers (official SDK) served by Node at http://127.0.0.1, and the official SDK
// client in Node; `@modelcontextprotocol/server-everything` from npm started on loopback as an
// upstream that keeps MCP sessions; then /inspect in headless Chromium accepting a changed tool.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackUpstream, serveUpstream } from "../fixtures/mcp-upstream/node-server";
import { browserRequired, findChromium, launchChromium } from "./browser";
import { runInspector } from "./inspector-cli";
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

/** A free loopback port (taken, then given back). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** server-everything's Streamable HTTP server on `port`, once it says it listens. */
async function startEverything(port: number): Promise<ChildProcess> {
  const entry = fileURLToPath(
    new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
  );
  const child = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.stderr?.on("data", (chunk) => {
      seen += String(chunk);
      if (seen.includes("listening on port")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
  });
  return child;
}

describe("@modelcontextprotocol/server-everything behind the gateway", () => {
  let everything: ChildProcess;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    everything = await startEverything(port);
  });
  afterAll(() => {
    everything?.kill();
  });

  it("imports its tools and forwards calls in its session, results unchanged", async () => {
    const put = await api("PUT", "/v1/upstreams/everything", { url: `http://127.0.0.1:${port}/mcp` });
    expect(put.status).toBe("ok");
    expect(put.tools).toBeGreaterThanOrEqual(10);
    await api("PUT", "/v1/gateway/profile", { upstreams: ["everything"] });
    const direct = new Client({ name: "direct", version: "1.0.0" });
    await direct.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
    const gateway = new Client({ name: "node-test", version: "1.0.0" });
    await gateway.connect(
      new StreamableHTTPClientTransport(new URL(`${worker.url}/v1/gateway/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${KEY}` } },
      }),
    );
    const found = await gateway.callTool({ name: "tool_search", arguments: { query: "sum of two numbers" } });
    expect((found.structuredContent as { tools: { name: string }[] }).tools[0]?.name).toBe(
      "everything.get-sum",
    );
    const sum = await gateway.callTool({
      name: "call_tool",
      arguments: { name: "everything.get-sum", arguments: { a: 2, b: 3 } },
    });
    expect(sum).toEqual(await direct.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } }));
    // Several calls in the upstream's session (it keeps one): each answered as the upstream does.
    for (const message of ["one", "two", "three"]) {
      const echoed = await gateway.callTool({
        name: "call_tool",
        arguments: { name: "everything.echo", arguments: { message } },
      });
      expect(echoed).toEqual(await direct.callTool({ name: "echo", arguments: { message } }));
    }
    const image = await gateway.callTool({
      name: "call_tool",
      arguments: { name: "everything.get-tiny-image", arguments: {} },
    });
    expect(image).toEqual(await direct.callTool({ name: "get-tiny-image", arguments: {} }));
    // Its arguments are checked against its schema before anything is sent.
    const invalid = await gateway.callTool({
      name: "call_tool",
      arguments: { name: "everything.get-sum", arguments: { a: "x" } },
    });
    expect(invalid.isError).toBe(true);
    expect((invalid.content as { text: string }[])[0]?.text).toContain("invalid_arguments");
    await gateway.close();
    await direct.close();
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

/** One run of the MCP Inspector's CLI on the gateway, with the key. */
const inspector = (flags: string[]) =>
  runInspector(`${worker.url}/v1/gateway/mcp`, [
    "--transport",
    "http",
    "--header",
    `Authorization: Bearer ${KEY}`,
    ...flags,
  ]);

describe("the MCP Inspector CLI on the gateway", () => {
  it("lists Trove's tools, searches, and calls an upstream tool through call_tool", async () => {
    await api("PUT", "/v1/upstreams/local", { url: `${upstream.url}/tools/mcp` });
    await api("PUT", "/v1/gateway/profile", { upstreams: ["local"] });
    // Each run is a new MCP session, so a new gateway session: what is listed is not the catalog.
    const listed = (await inspector(["--method", "tools/list"])).tools.map((t: { name: string }) => t.name);
    expect(listed).toEqual(expect.arrayContaining(["tool_search", "call_tool"]));
    expect(listed.some((n: string) => n.startsWith("local."))).toBe(false);
    const found = await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "tool_search",
      "--tool-arg",
      "query=echo the text back",
    ]);
    expect(found.structuredContent.tools[0].name).toBe("local.echo");
    const echoed = await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "call_tool",
      "--tool-arg",
      "name=local.echo",
      'arguments={"text":"from the inspector"}',
    ]);
    expect(echoed).toEqual({
      content: [{ type: "text", text: "from the inspector" }],
      structuredContent: { echoed: "from the inspector" },
    });
    // A tool the upstream does not have is a tool error, as for a tool that does not exist.
    const missing = await inspector([
      "--method",
      "tools/call",
      "--tool-name",
      "call_tool",
      "--tool-arg",
      "name=local.no_such_tool",
      "arguments={}",
    ]);
    expect(missing.isError).toBe(true);
  });
});
