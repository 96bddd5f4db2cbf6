// DNS rebinding (issue 28): a page on evil.example whose name resolves to the developer's machine
// sends `Host: evil.example` and `Origin: http://evil.example` — its own origin, so the MCP Origin
// check alone would serve it. The Host is checked first: only localhost, 127.0.0.1, [::1] and the
// names in TROVE_HOSTNAMES (here trove.test, vitest.config.mts) are served.
import { SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { describe, expect, it } from "vitest";
import { hostAllowed, hostnameOf } from "../../src/http/host";
import { KEY_A, newSid } from "../support/http";

const REBOUND = [
  "http://evil.example",
  "http://evil.example:8787",
  "https://EVIL.example.",
  "http://127.0.0.1.evil.example",
];

/** An SDK client for `base`'s MCP endpoint, sending the page's Origin as a browser would. */
function sdkClient(base: string, origin: string | null) {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/v1/sessions/${newSid()}/mcp`), {
    fetch: (url, init) => SELF.fetch(url, init),
    requestInit: { headers: { authorization: `Bearer ${KEY_A}`, ...(origin ? { origin } : {}) } },
  });
  const client = new Client(
    { name: "rebinding-test", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  return { client, transport };
}

describe("the Host header", () => {
  it("the official MCP client on a rebound name is refused with 403, though its Origin is its own", async () => {
    for (const base of REBOUND) {
      const { client, transport } = sdkClient(base, new URL(base).origin);
      await expect(client.connect(transport), base).rejects.toThrow(/403|not one of this service's names/);
    }
  });

  it("the official MCP client on the service's own names is served", async () => {
    for (const base of [
      "https://trove.test",
      "http://localhost:8787",
      "http://127.0.0.1:8787",
      "http://[::1]:8787",
    ]) {
      const { client, transport } = sdkClient(base, null);
      await client.connect(transport);
      expect((await client.listTools()).tools.length, base).toBeGreaterThan(0);
      await client.close();
    }
  });

  it("raw MCP requests: 403 with a JSON-RPC error naming the host, before the key is looked at", async () => {
    for (const key of [KEY_A, null]) {
      const res = await SELF.fetch(`http://evil.example/v1/sessions/${newSid()}/mcp`, {
        method: "POST",
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          origin: "http://evil.example",
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({
        jsonrpc: "2.0",
        error: { code: -32000, message: expect.stringContaining("evil.example"), data: { field: "host" } },
        id: null,
      });
      expect(res.headers.get("trove-rows-written")).toBe("0");
    }
  });

  it("raw REST requests: 421 unknown_host naming the field, on every route, and nothing is written", async () => {
    const sid = newSid();
    const routes: [string, string, unknown?][] = [
      ["POST", `/v1/sessions/${sid}/catalog_sync`, { tools: [{ name: "a.b", description: "x" }] }],
      ["PUT", `/v1/sessions/${sid}`, {}],
      ["GET", `/v1/sessions/${sid}`],
      ["PUT", "/v1/catalogs/main", { tools: [] }],
      ["GET", "/v1/learning"],
      ["GET", "/v1/health"],
      ["GET", "/inspect"],
      ["GET", "/v1/analytics"],
      ["GET", "/console"],
    ];
    for (const [method, path, body] of routes) {
      const res = await SELF.fetch(`http://evil.example:8787${path}`, {
        method,
        headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(res.status, `${method} ${path}`).toBe(421);
      expect(await res.json()).toMatchObject({
        error: {
          code: "unknown_host",
          message: expect.stringContaining("evil.example"),
          details: { field: "host" },
        },
      });
    }
    // The session was never created: on its own name it holds nothing.
    const state = await SELF.fetch(`https://trove.test/v1/sessions/${sid}`, {
      headers: { authorization: `Bearer ${KEY_A}` },
    });
    expect(state.status).toBe(200);
    expect(((await state.json()) as { catalog: { tools: number } }).catalog.tools).toBe(0);
  });

  it("reads a Host value as a browser and a proxy send it: port dropped, case and a final dot ignored", () => {
    expect(hostnameOf("LocalHost:8787")).toBe("localhost");
    expect(hostnameOf("[::1]:8787")).toBe("[::1]");
    expect(hostnameOf("trove.example.com.")).toBe("trove.example.com");
    expect(hostnameOf("a b")).toBeNull();
    expect(hostnameOf("")).toBeNull();
    expect(hostAllowed("127.0.0.1:8787", undefined)).toBe(true);
    expect(hostAllowed("trove.example.com", undefined)).toBe(false);
    expect(hostAllowed("Trove.Example.com:443", " trove.example.com , x.workers.dev")).toBe(true);
    expect(hostAllowed("x.workers.dev", "trove.example.com,x.workers.dev")).toBe(true);
    expect(hostAllowed("evil.trove.example.com", "trove.example.com")).toBe(false);
    expect(hostAllowed("localhost.evil.example", "")).toBe(false);
  });
});
