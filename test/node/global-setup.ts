// Setup of the Node test project: says once, on one line, when the browser tests will be skipped.
// It installs nothing: CI's machine gets its Chromium from .ci/run (scripts/ensure-chromium.sh).
import { browserRequired, findChromium, SKIPPED_LINE } from "./browser";

export default function setup(): void {
  if (!findChromium() && !browserRequired()) console.log(SKIPPED_LINE);
}
