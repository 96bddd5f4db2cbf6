// The operator's pages (/inspect, /console) are each one self-contained document under a strict
// CSP: only their own inline scripts and style run (by hash, so a page stays cacheable and needs no
// nonce), they talk only to this origin, and Trusted Types make any HTML-string sink (innerHTML and
// friends) throw: API data, which names and describes tools the agent controls, can only ever
// become text. Neither page needs a key itself: the operator types one in, and the page sends it as
// a bearer header to the JSON API, like any other client.

/** A handler serving `html`, whose inline `scripts` and `styles` are the only ones allowed to run. */
export function strictPage(
  html: string,
  scripts: readonly string[],
  styles: readonly string[],
): () => Promise<Response> {
  let policy: Promise<string> | undefined;
  const contentSecurityPolicy = () => {
    policy ??= Promise.all([...scripts, ...styles].map(sha256Base64)).then((hashes) => {
      const of = (from: number, to: number) =>
        hashes
          .slice(from, to)
          .map((h) => `'sha256-${h}'`)
          .join(" ");
      return [
        "default-src 'none'",
        `script-src ${of(0, scripts.length)}`,
        `style-src ${of(scripts.length, hashes.length)}`,
        "connect-src 'self'",
        "img-src data:",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
        "trusted-types 'none'",
      ].join("; ");
    });
    return policy;
  };
  return async () =>
    new Response(html, {
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
