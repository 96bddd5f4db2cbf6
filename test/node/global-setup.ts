// Setup of the Node test project: the browser tests drive Debian's chromium, installed if missing.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const script = fileURLToPath(new URL("../../scripts/ensure-chromium.sh", import.meta.url));
  execFileSync("sh", [script], { stdio: "inherit" });
}
