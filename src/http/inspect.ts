// GET /inspect: the operator's session inspector, one self-contained page under a strict CSP.
import type { Context } from "hono";
import { INSPECT_HTML, INSPECT_SCRIPT, INSPECT_STYLE } from "./inspect-page";

let policy: Promise<string> | undefined;

/**
 * The page's Content-Security-Policy. Only its own inline style and script run (by hash, so the
 * page stays cacheable and needs no nonce), it talks only to this origin, and Trusted Types make
 * any HTML-string sink (innerHTML and friends) throw: API data, which names and describes tools
 * the agent controls, can only ever become text.
 */
export function inspectContentSecurityPolicy(): Promise<string> {
  policy ??= Promise.all([sha256Base64(INSPECT_SCRIPT), sha256Base64(INSPECT_STYLE)]).then(
    ([script, style]) =>
      [
        "default-src 'none'",
        `script-src 'sha256-${script}'`,
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
 * Serves the inspector page. It needs no key itself: the operator types one in, and the page
 * sends it as a bearer header to the JSON API, like any other client.
 *
 * @example app.get("/inspect", inspectPage)
 */
export async function inspectPage(_c: Context): Promise<Response> {
  return new Response(INSPECT_HTML, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": await inspectContentSecurityPolicy(),
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
