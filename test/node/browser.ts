// Finds a Chromium on this machine for the browser tests and launches it headless through
// playwright-core, which never downloads a browser by itself. Nothing here installs anything.
import { accessSync, constants } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { type Browser, chromium } from "playwright-core";

/** Names the browser tests' Chromium (or Chrome) executable; when set, nothing else is searched. */
const CHROMIUM_VARIABLE = "TROVE_CHROMIUM";

/** How to give the browser tests a Chromium: one command, no privileges, any OS. */
const ENABLE = `\`npx playwright-core install chromium\` (or set ${CHROMIUM_VARIABLE}=/path/to/chrome)`;

/** What `npm test` prints, once, when no Chromium is found and CI is not set. */
export const SKIPPED_LINE = `browser tests skipped: no Chromium found; enable them with ${ENABLE}`;

const COMMANDS = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** The usual install locations on Linux and macOS, after the commands on the PATH. */
const LOCATIONS = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  join(homedir(), "Applications/Google Chrome.app/Contents/MacOS/Google Chrome"),
  join(homedir(), "Applications/Chromium.app/Contents/MacOS/Chromium"),
];

const isExecutable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Where `npx playwright-core install chromium` puts its browser (it may not be there). */
function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined; // a platform Playwright has no build for
  }
}

/**
 * The Chromium the browser tests use: `$TROVE_CHROMIUM` when it is set (only that, so pointing it
 * nowhere turns the search off), else the first of `chromium`, `chromium-browser`, `google-chrome`
 * on the PATH, the usual install locations, and Playwright's own download.
 *
 * @example
 * const path = findChromium(); // "/usr/bin/chromium" on Debian with the chromium package
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env[CHROMIUM_VARIABLE];
  if (named !== undefined) return isExecutable(named) ? named : undefined;
  const onPath = (env.PATH ?? "")
    .split(delimiter)
    .filter(Boolean)
    .flatMap((dir) => COMMANDS.map((command) => join(dir, command)));
  const playwright = playwrightChromium();
  return [...onPath, ...LOCATIONS, ...(playwright ? [playwright] : [])].find(isExecutable);
}

/** CI runs every test: there, a missing browser fails the browser tests instead of skipping them. */
export function browserRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false";
}

/**
 * Launches the Chromium `findChromium` finds. Root in a container has no user namespaces for
 * Chromium's sandbox, hence --no-sandbox (the page is our own, served from 127.0.0.1).
 */
export function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (!executablePath) {
    const named = process.env[CHROMIUM_VARIABLE];
    const where = named === undefined ? "" : ` (${CHROMIUM_VARIABLE}=${named} is not an executable)`;
    throw new Error(`no Chromium found${where}; CI requires the browser tests: install one with ${ENABLE}`);
  }
  return chromium.launch({ executablePath, args: ["--no-sandbox"] });
}
