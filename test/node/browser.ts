// Headless system chromium through playwright-core (which never downloads a browser here).
import { execFileSync } from "node:child_process";
import { type Browser, chromium } from "playwright-core";

/** Where `chromium` is on the PATH (Debian: /usr/bin/chromium, a wrapper script). */
export function chromiumPath(): string {
  return execFileSync("sh", ["-c", "command -v chromium"], { encoding: "utf8" }).trim();
}

/** Root in a container has no user namespaces for chromium's sandbox, hence --no-sandbox. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
}
