// The HTTP part of `npm run bench`: tool_search vs GET session latency through `wrangler dev`.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchCatalog, evalQueries } from "./catalogs";
import { percentile, table } from "./harness";

const PORT = 8799;
const KEY = "bench-http-key";
const BASE = `http://127.0.0.1:${PORT}`;
const TOOLS = 10_000;
const REQUESTS = 300;

async function waitForHealth(child: ChildProcess, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${BASE}/v1/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("wrangler dev did not become healthy in time");
}

/** A client of a Trove at `base`: each call sends one request, reads its body and returns its ms. */
export function requester(
  base: string,
  key: string,
): (method: string, path: string, body?: unknown) => Promise<number> {
  return async (method, path, body) => {
    const start = performance.now();
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status}`);
    return performance.now() - start;
  };
}

/** Uploads the bench catalog of `tools` tools to session `sid`. */
export async function uploadCatalog(
  request: ReturnType<typeof requester>,
  sid: string,
  tools: number,
): Promise<void> {
  const catalog = benchCatalog(tools);
  // 10,000 full records exceed the 5 MB body limit, so the catalog goes up in merge batches.
  for (let i = 0; i < catalog.length; i += 2_500) {
    await request("POST", `/v1/sessions/${sid}/catalog_sync`, {
      tools: catalog.slice(i, i + 2_500),
      mode: "merge",
    });
  }
}

export async function httpRatio(): Promise<{ table: string; tools: number; requests: number }> {
  const persist = mkdtempSync(join(tmpdir(), "trove-bench-"));
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--port",
      String(PORT),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persist,
      "--var",
      `TROVE_API_KEYS:bench:${KEY}`,
    ],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      detached: true,
    },
  );
  const request = requester(BASE, KEY);
  try {
    await waitForHealth(child, Date.now() + 60_000);
    const sid = `http-bench-${Date.now()}`;
    await uploadCatalog(request, sid, TOOLS);
    // Besides the two the target compares, what a POST costs before any search (the same session
    // read with a JSON body) and a search that does no full-text work (an exact name): where the
    // ratio's floor is.
    const kinds: [label: string, send: (i: number) => Promise<number>][] = [
      [
        "POST tool_search (fts)",
        (i) =>
          request("POST", `/v1/sessions/${sid}/tool_search`, { query: evalQueries[i % evalQueries.length] }),
      ],
      ["GET /v1/sessions/{sid}", () => request("GET", `/v1/sessions/${sid}`)],
      ["POST session_get", () => request("POST", `/v1/sessions/${sid}/session_get`, {})],
      [
        "POST tool_search (exact)",
        (i) => request("POST", `/v1/sessions/${sid}/tool_search`, { query: `t${i}`, search_type: "exact" }),
      ],
    ];
    const times = kinds.map((): number[] => []);
    for (let i = 0; i < 20; i++) await request("GET", `/v1/sessions/${sid}`); // warm-up
    for (let i = 0; i < REQUESTS; i++) {
      for (const [k, [, send]] of kinds.entries()) times[k]?.push(await send(i));
    }
    const get = percentile(times[1] ?? [], 50);
    return {
      tools: TOOLS,
      requests: REQUESTS,
      table: table(
        ["request", "p50 ms", "p95 ms", "p50 / GET p50"],
        kinds.map(([label], k) => [
          label,
          percentile(times[k] ?? [], 50).toFixed(2),
          percentile(times[k] ?? [], 95).toFixed(2),
          (percentile(times[k] ?? [], 50) / get).toFixed(2),
        ]),
      ),
    };
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    rmSync(persist, { recursive: true, force: true });
  }
}
