// `npm start` (scripts/dev.mjs, issue 28): the packs are compiled once per start, not twice with a
// "packs changed" rebuild from wrangler's watcher, and again when a file under packs/ is written —
// without rewriting src/generated/packs.ts when nothing in it changed. Runs the real `wrangler dev`.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

let dev: ChildProcess | undefined;
let state: string | undefined;
afterAll(async () => {
  // The script and the wrangler it started: their own process group.
  if (dev?.pid) process.kill(-dev.pid, "SIGTERM");
  if (state) await rm(state, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function until(output: () => string, test: (text: string) => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!test(output())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const builds = (text: string) => text.split("\n").filter((l) => l.includes("build-packs:"));

describe("npm start", () => {
  it("compiles the packs once, and again (writing nothing) when a pack file is saved unchanged", async () => {
    const port = await freePort();
    state = await mkdtemp(join(tmpdir(), "trove-dev-state-"));
    let out = "";
    dev = spawn(
      process.execPath,
      ["scripts/dev.mjs", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state],
      {
        cwd: REPO,
        detached: true,
        env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false", WRANGLER_LOG: "info" },
      },
    );
    dev.stdout?.on("data", (chunk) => {
      out += String(chunk);
    });
    dev.stderr?.on("data", (chunk) => {
      out += String(chunk);
    });
    await until(
      () => out,
      (t) => /Ready on http/.test(t),
      "wrangler dev to be ready",
    );
    const health = await fetch(`http://127.0.0.1:${port}/v1/health`);
    expect(health.status).toBe(200);
    expect(builds(out), out).toHaveLength(1);
    expect(out).not.toMatch(/changed, restarting build|\[custom build\]/);

    const generated = await readFile(join(REPO, "src/generated/packs.ts"), "utf8");
    const file = join(REPO, "packs/examples/pack.yaml");
    await writeFile(file, await readFile(file));
    await until(
      () => out,
      (t) => builds(t).length === 2,
      "the packs to be compiled again",
    );
    expect(builds(out)[1]).toContain("(unchanged)");
    expect(await readFile(join(REPO, "src/generated/packs.ts"), "utf8")).toBe(generated);
  }, 120_000);
});
