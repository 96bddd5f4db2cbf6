// GET /console: the operator's console for a tenant (issue 32), one self-contained page under the
// operator pages' strict CSP (./strict-page.ts); uPlot is inlined too, so nothing is fetched from
// elsewhere.
import { CHART_SCRIPT } from "../generated/chart-library";
import { CONSOLE_SCRIPT, CONSOLE_STYLE, consoleHtml } from "./console-page";
import { strictPage } from "./strict-page";

/** @example app.get("/console", consolePage) */
export const consolePage = strictPage(
  consoleHtml(CHART_SCRIPT),
  [CHART_SCRIPT, CONSOLE_SCRIPT],
  [CONSOLE_STYLE],
);
