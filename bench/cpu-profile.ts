// CPU profiles of code running in workerd, through its inspector (the DevTools protocol):
// V8's sampling profiler started and stopped around a piece of work, and a summary by function.
import { createServer } from "node:net";
import { WebSocket } from "undici";
import { table } from "./harness";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Self and inclusive microseconds per function (name and line in the bundle). */
export function summarize(profile: Profile): {
  self: Map<string, number>;
  inclusive: Map<string, number>;
  total: number;
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || "(anonymous)"}:${n.callFrame.lineNumber + 1}`;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === "(idle)") return;
    total += us;
    self.set(label(node), (self.get(label(node)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = label(byId.get(at) as ProfileNode);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  });
  return { self, inclusive, total };
}

/**
 * Runs `work` with V8's sampling profiler on in the first isolate of the workerd whose inspector
 * listens on `port`; the profile and what `work` returned.
 */
export async function profileWhile<T>(
  port: number,
  work: () => Promise<T>,
  intervalMicros = 50,
): Promise<{ profile: Profile; value: T }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(targets[0]?.webSocketDebuggerUrl as string);
  await new Promise((resolve) => ws.addEventListener("open", resolve, { once: true }));
  let next = 0;
  const pending = new Map<number, (value: { result: unknown }) => void>();
  ws.addEventListener("message", (event) => {
    const answer = JSON.parse(String(event.data)) as { id?: number; result: unknown };
    if (answer.id !== undefined) pending.get(answer.id)?.(answer);
  });
  const cdp = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<{ result: unknown }>((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  try {
    await cdp("Profiler.enable");
    await cdp("Profiler.setSamplingInterval", { interval: intervalMicros });
    await cdp("Profiler.start");
    const value = await work();
    const { profile } = (await cdp("Profiler.stop")).result as { profile: Profile };
    return { profile, value };
  } finally {
    ws.close();
  }
}

/** The top functions by self time and by inclusive time, as two tables. */
export function profileTables(profile: Profile, top = 25): string {
  const { self, inclusive, total } = summarize(profile);
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => [name, ((100 * us) / total).toFixed(1)]);
  const headers = ["function:line in the bundle", "% of busy time"];
  return (
    `By self time (native calls such as SQLite's exec count as their own)\n\n${table(headers, rows(self))}\n\n` +
    `By inclusive time\n\n${table(headers, rows(inclusive))}`
  );
}

/**
 * What `other` spends per unit of work (a request) beyond `base`, by function and inclusive time:
 * the functions whose time differs most, in microseconds per unit. Both profiles' units are counted
 * by the caller (`units`).
 */
export function profileDiff(
  base: { profile: Profile; units: number },
  other: { profile: Profile; units: number },
  top = 30,
): string {
  const a = summarize(base.profile);
  const b = summarize(other.profile);
  const per = (m: Map<string, number>, key: string, units: number) => (m.get(key) ?? 0) / units;
  const rows = [...new Set([...a.inclusive.keys(), ...b.inclusive.keys()])]
    .map((key) => {
      const before = per(a.inclusive, key, base.units);
      const after = per(b.inclusive, key, other.units);
      return { key, before, after, diff: after - before };
    })
    .sort((x, y) => Math.abs(y.diff) - Math.abs(x.diff))
    .slice(0, top);
  return table(
    ["function:line in the bundle", "µs per request, base", "µs per request, other", "difference"],
    rows.map((r) => [r.key, r.before.toFixed(0), r.after.toFixed(0), r.diff.toFixed(0)]),
  );
}
