// GET /console: the operator's console for a tenant (issue 32), one self-contained page under a
// strict CSP — its own style and scripts by hash (uPlot included: nothing is fetched from elsewhere),
// only this origin to talk to, and Trusted Types so API data can only ever become text.
import type { Context } from "hono";
import { CHART_SCRIPT } from "../generated/chart-library";
import { CONSOLE_SCRIPT, CONSOLE_STYLE, consoleHtml } from "./console-page";

const HTML = consoleHtml(CHART_SCRIPT);
let policy: Promise<string> | undefined;

function contentSecurityPolicy(): Promise<string> {
  policy ??= Promise.all([
    sha256Base64(CHART_SCRIPT),
    sha256Base64(CONSOLE_SCRIPT),
    sha256Base64(CONSOLE_STYLE),
  ]).then(([chart, script, style]) =>
    [
      "default-src 'none'",
      `script-src 'sha256-${chart}' 'sha256-${script}'`,
      `style-src 'sha256-${style}'`,
      "connect-src 'self'",
      "img-src data:",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ].join("; "),
  );
  return policy;
}

/**
 * Serves the console. It needs no key itself: the operator types one in, and the page sends it as
 * a bearer header to the tenant's JSON routes.
 *
 * @example app.get("/console", consolePage)
 */
export async function consolePage(_c: Context): Promise<Response> {
  return new Response(HTML, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": await contentSecurityPolicy(),
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "cross-origin-opener-policy": "same-origin",
    },
  });
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}
