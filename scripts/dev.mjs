// `npm start`: compiles the packs once, runs `wrangler dev` (arguments passed on), and compiles
// them again when a file under packs/ (or $TROVE_PACKS_DIR) changes; wrangler reloads the worker
// when that changes src/generated/packs.ts. The compile is not wrangler's custom build: wrangler
// 4.86 runs a custom build a second time when its watcher starts ("The file packs changed,
// restarting build..."), so every start compiled the packs twice and reloaded once (issue 28).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, watch } from "node:fs";
import { resolve } from "node:path";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const packsDir = resolve(process.env.TROVE_PACKS_DIR ?? "packs");

/** Compiles the packs; false when the compiler failed (its errors are printed). */
function buildPacks() {
  return spawnSync(npm, ["run", "--silent", "build:packs"], { stdio: "inherit" }).status === 0;
}

if (!buildPacks()) process.exit(1);

let running = false;
let again = false;
let timer;
/** Compiles again after a change (debounced; one run at a time, one more if changes came in). */
function rebuild() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  const child = spawn(npm, ["run", "--silent", "build:packs"], { stdio: "inherit" });
  child.on("exit", () => {
    running = false;
    if (again) {
      again = false;
      rebuild();
    }
  });
}

if (existsSync(packsDir)) {
  watch(packsDir, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(rebuild, 150);
  });
}

const wrangler = resolve("node_modules/.bin/wrangler");
const dev = spawn(wrangler, ["dev", ...process.argv.slice(2)], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
