// `npm run bench:profile -- --http`: where a tool_search over HTTP spends its time beyond a bare
// session GET, at 10,000 tools (the ratio bench/http.ts measures through `wrangler dev`). The
// worker as deployed (src/index.ts, wrangler.toml's bindings) serves HTTP from workerd, whose one
// thread runs the worker and its objects alike: each kind of request is sent back to back under
// V8's sampling profiler, and the table compares the search's profile with the GET's, function by
// function, per request. Sampling slows JavaScript more than SQLite, so read shares, not times.
// The search's profile is written to bench/profile.cpuprofile (Chrome DevTools → Performance → load).

import { writeFileSync } from "node:fs";
import { wranglerDurableObjects } from "../scripts/bundle-worker";
import { evalQueries } from "./catalogs";
import { freePort, type Profile, profileDiff, profileTables, profileWhile, summarize } from "./cpu-profile";
import { benchMiniflare, percentile, table } from "./harness";
import { requester, uploadCatalog } from "./http";

const TOOLS = 10_000;
const REQUESTS = 500;
/** Sampling every 200 µs: fine enough for a few-ms request, coarse enough not to swamp it. */
const INTERVAL_MICROS = 200;

export async function profileHttp(): Promise<void> {
  const [port, inspectorPort] = [await freePort(), await freePort()];
  const mf = await benchMiniflare({
    script: "src/index.ts",
    durableObjects: wranglerDurableObjects(),
    inspectorPort,
    port,
  });
  try {
    const request = requester(`http://127.0.0.1:${port}`, "bench-key");
    const sid = "profile-http";
    await uploadCatalog(request, sid, TOOLS);
    const search = (i: number) => ({ query: evalQueries[i % evalQueries.length] });
    const kinds: [label: string, send: (i: number) => Promise<number>][] = [
      ["GET /v1/sessions/{sid}", () => request("GET", `/v1/sessions/${sid}`)],
      ["POST tool_search (fts)", (i) => request("POST", `/v1/sessions/${sid}/tool_search`, search(i))],
      [
        "POST tool_search (exact)",
        (i) => request("POST", `/v1/sessions/${sid}/tool_search`, { query: `t${i}`, search_type: "exact" }),
      ],
    ];
    // Fifty of each kind first, unprofiled: the profile is of a session in use, not of its start.
    for (const [, send] of kinds) for (let i = 0; i < 50; i++) await send(i);
    const profiles: Profile[] = [];
    const rows: string[][] = [];
    for (const [label, send] of kinds) {
      const times: number[] = [];
      const { profile } = await profileWhile(
        inspectorPort,
        async () => {
          for (let i = 0; i < REQUESTS; i++) times.push(await send(i));
        },
        INTERVAL_MICROS,
      );
      profiles.push(profile);
      rows.push([
        label,
        percentile(times, 50).toFixed(2),
        (summarize(profile).total / REQUESTS / 1000).toFixed(2),
      ]);
    }
    const [get, fts] = profiles as [Profile, Profile];
    writeFileSync("bench/profile.cpuprofile", JSON.stringify(fts));
    console.log(
      `${TOOLS.toLocaleString("en")} tools, ${REQUESTS} requests of each kind back to back, sampled every ` +
        `${INTERVAL_MICROS} µs (the sampling slows them)\n\n` +
        `${table(["request", "p50 ms", "busy ms per request (workerd's thread)"], rows)}\n\n` +
        `tool_search (fts) against the GET, by inclusive time\n\n` +
        `${profileDiff({ profile: get, units: REQUESTS }, { profile: fts, units: REQUESTS })}\n\n` +
        `tool_search (fts) alone\n\n${profileTables(fts)}`,
    );
  } finally {
    await mf.dispose();
  }
}
