// `npm run bench:gateway`: what the gateway (docs/gateway.md) costs. Trove runs in Miniflare on
// loopback (test/node/worker.ts, TROVE_GATEWAY_DEV=1); the upstream is the test fixture's MCP
// servers (test/fixtures/mcp-upstream/, official SDK) served by Node on loopback. Prints the
// tables and writes them as the gateway section of bench/RESULTS.md.
//
//  - overhead: p50 of a tools/call through /v1/gateway/mcp minus p50 of the same call made
//    directly to the upstream by an initialized SDK client (target ≤ 5 ms);
//  - tokens: tools/list through the gateway at 500 upstream tools vs the upstream's own full list
//    (o200k_base tokens of the tools' JSON; target ≤ 1,000).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { serveUpstream } from "../test/fixtures/mcp-upstream/node-server";
import { startWorker } from "../test/node/worker";
import { table } from "./harness";
import { withMarkedSection } from "./load-section";

const CALLS = Number(process.env.BENCH_GATEWAY_CALLS ?? 500);
const WARMUP = 30;
const KEY = "key-a";

async function client(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const c = new Client({ name: "bench", version: "1.0.0" });
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return c;
}

interface Timed {
  client: Client;
  name: string;
  args: Record<string, unknown>;
  /** The call is expected to answer a tool error. */
  failing?: boolean;
  times: number[];
}

/**
 * Times every case's call in turn, round after round, so that all cases share the machine's load
 * at each moment (this machine is shared: a case timed alone would meet other load than the next).
 */
async function timeRounds(cases: Timed[]): Promise<void> {
  for (let i = 0; i < WARMUP + CALLS; i++) {
    for (const c of cases) {
      const start = performance.now();
      const result = await c.client.callTool({ name: c.name, arguments: c.args });
      const took = performance.now() - start;
      if (Boolean(result.isError) !== Boolean(c.failing)) {
        throw new Error(`${c.name}: ${JSON.stringify(result.content)}`);
      }
      if (i >= WARMUP) c.times.push(took);
    }
  }
  for (const c of cases) c.times.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const ms = (v: number) => v.toFixed(2);
const tokens = (tools: Tool[]) => encode(JSON.stringify(tools)).length;

async function put(base: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method: "PUT",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (res.status !== 200 || (json as { status?: string }).status === "error") {
    throw new Error(`PUT ${path}: ${res.status} ${JSON.stringify(json)}`);
  }
  return json;
}

async function main(): Promise<void> {
  const upstream = await serveUpstream();
  const trove = await startWorker({
    bindings: { TROVE_GATEWAY_DEV: "1", TROVE_SECRETS_KEY: "bench-secrets-key-0123456789abcdef" },
  });
  try {
    const gatewayUrl = `${trove.url}/v1/gateway/mcp`;
    const auth = { authorization: `Bearer ${KEY}` };

    // Tokens: a gateway session's tools/list at 500 upstream tools, against all of them listed.
    await put(trove.url, "/v1/upstreams/paged", { url: `${upstream.url}/paged/mcp?tools=500` });
    await put(trove.url, "/v1/gateway/profile", { upstreams: ["paged"] });
    const direct500 = await client(`${upstream.url}/paged/mcp?tools=500`);
    const all: Tool[] = [];
    let cursor: string | undefined;
    do {
      const page = await direct500.listTools(cursor ? { cursor } : {});
      all.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const viaGateway = (await (await client(gatewayUrl, auth)).listTools()).tools;

    // Overhead: the same call, direct and through the gateway.
    await put(trove.url, "/v1/upstreams/tools", { url: `${upstream.url}/tools/mcp` });
    await put(trove.url, "/v1/gateway/profile", {
      upstreams: ["tools"],
      always_loaded_patterns: ["tools.echo"],
    });
    const session = await client(gatewayUrl, auth);
    const cases: Timed[] = [
      { client: await client(`${upstream.url}/tools/mcp`), name: "echo", args: { text: "hi" }, times: [] },
      { client: session, name: "tools.echo", args: { text: "hi" }, times: [] },
      // What Trove alone costs a call: the same path up to the gates, for a tool that does not exist.
      { client: session, name: "tools.no_such_tool", args: {}, failing: true, times: [] },
    ];
    await timeRounds(cases);
    const [direct, gateway, gatesOnly] = cases.map((c) => c.times) as [number[], number[], number[]];
    const overhead = pct(gateway, 50) - pct(direct, 50);

    const latency = table(
      ["tools/call of echo", "p50 ms", "p95 ms", "calls"],
      [
        ["upstream directly (initialized SDK client)", ms(pct(direct, 50)), ms(pct(direct, 95)), CALLS],
        ["through /v1/gateway/mcp", ms(pct(gateway, 50)), ms(pct(gateway, 95)), CALLS],
        [
          "through the gateway, stopped at the gates (unknown tool)",
          ms(pct(gatesOnly, 50)),
          ms(pct(gatesOnly, 95)),
          CALLS,
        ],
        ["gateway overhead (p50 difference; target ≤ 5)", ms(overhead), "", ""],
      ],
    );
    const listing = table(
      ["tools/list at 500 upstream tools", "tools", "tokens (o200k)"],
      [
        ["the upstream's own list (all listed)", all.length, tokens(all)],
        ["through the gateway (target ≤ 1,000 tokens)", viaGateway.length, tokens(viaGateway)],
      ],
    );
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, Node ${process.version}`;
    const section = `## Gateway (npm run bench:gateway)

Trove in Miniflare and the fixture's upstream MCP server (official SDK, test/fixtures/mcp-upstream/)
in Node, both on loopback; ${machine}; run ${new Date().toISOString().slice(0, 16)}Z. The three
calls are timed in turn, round after round (${CALLS} rounds after ${WARMUP} warm-up), so that they
meet the same load on this shared machine (load average ${loadavg()[0]?.toFixed(1)} when it ended: figures
grow with it). Overhead = gateway p50 − direct p50; the gates-only row is what Trove's own request
costs before any forwarding.

${latency}

${listing}
`;
    console.log(`\n${section}`);
    const previous = existsSync("bench/RESULTS.md") ? readFileSync("bench/RESULTS.md", "utf8") : "";
    writeFileSync("bench/RESULTS.md", withMarkedSection(previous, "gateway", section));
    console.log("wrote the gateway section of bench/RESULTS.md");
  } finally {
    await trove.dispose();
    upstream.close();
  }
}

await main();
