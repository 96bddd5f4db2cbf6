// `wrangler dev` for the load test: started in its own process group on a temp persist dir, and
// always stopped — on return, on a thrown error, on ctrl-C or SIGTERM, and on a plain exit. Also
// the CPU its processes and the whole machine use, to show who had the cores during a run.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface DevServer {
  baseUrl: string;
  /** CPU seconds the server's processes (wrangler, workerd) have used so far, by command name. */
  cpuSeconds(): Map<string, number>;
  stop(): void;
}

/** Clock ticks per second of /proc/<pid>/stat on Linux (USER_HZ, 100 on every usual build). */
const USER_HZ = 100;

export async function startDevServer(port: number, tenant: string, key: string): Promise<DevServer> {
  const persist = mkdtempSync(join(tmpdir(), "trove-load-"));
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--persist-to",
      persist,
      "--var",
      `TROVE_API_KEYS:${tenant}:${key}`,
      "--show-interactive-dev-session=false",
    ],
    {
      // stdout carries a log line per request and per session event: nobody reads it here.
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      detached: true,
    },
  );
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      if (child.pid) process.kill(-child.pid, "SIGTERM");
    } catch {
      // the group is already gone
    }
    rmSync(persist, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("exit", stop);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(child, baseUrl, Date.now() + 90_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { baseUrl, cpuSeconds: () => groupCpuSeconds(child.pid ?? -1, port), stop };
}

async function waitForHealth(child: ChildProcess, baseUrl: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/v1/health`, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("wrangler dev did not become healthy in time");
}

/**
 * utime + stime of every live process in group `pgid` (Linux only), by role: wrangler dev runs a
 * proxy workerd on the public port in front of the workerd that runs Trove, both driven by Node.
 */
function groupCpuSeconds(pgid: number, port: number): Map<string, number> {
  const out = new Map<string, number>();
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    let stat: string;
    let cmdline: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp … utime(14) stime(15); comm may hold spaces, so split after ")".
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    const role =
      comm !== "workerd"
        ? "wrangler (Node)"
        : cmdline.includes(`entry=127.0.0.1:${port}`)
          ? "proxy workerd"
          : "Trove workerd";
    const ticks = Number(fields[11]) + Number(fields[12]);
    out.set(role, (out.get(role) ?? 0) + ticks / USER_HZ);
  }
  return out;
}

/** CPU seconds of the whole machine so far: busy (everything but idle and iowait) and stolen. */
export function machineCpuSeconds(): { busy: number; steal: number } {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "";
    const [user, nice, system, , , irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
    const busy = [user, nice, system, irq, softirq].reduce<number>((a, b) => a + (b ?? 0), 0);
    return { busy: busy / USER_HZ, steal: (steal ?? 0) / USER_HZ };
  } catch {
    return { busy: Number.NaN, steal: Number.NaN };
  }
}
