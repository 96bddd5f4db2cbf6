// Which upstream URLs Trove may connect to. Trove forwards calls to servers the tenant names, so a
// URL is a request to reach somewhere from inside Cloudflare's network: only public https hosts.
// A Worker cannot resolve DNS itself, so names are judged as written; an address literal is judged
// by its range (private, loopback, link-local and metadata addresses are refused).
import { TroveError } from "../errors";

/** Names that always mean this machine, a private network or a cloud's metadata service. */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;
const METADATA_NAMES = new Set(["metadata", "metadata.google.internal", "instance-data"]);

function ipv4(host: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : null;
}

/** Private, loopback, link-local (169.254.169.254 is the metadata address), CGNAT, multicast… */
function privateV4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** IPv6 literals: only global unicast (2000::/3) outside the mapped/NAT64 forms passes. */
function privateV6(host: string): boolean {
  const h = host.toLowerCase();
  if (h.includes(".")) return true; // ::ffff:10.0.0.1 and friends: an IPv4 address in disguise
  const first = Number.parseInt(h.split(":")[0] || "0", 16);
  return !(first >= 0x2000 && first <= 0x3fff) || h.startsWith("2001:db8") || h.startsWith("64:ff9b");
}

const isLoopback = (host: string) => host === "localhost" || host === "[::1]" || ipv4(host)?.[0] === 127;

function refuse(message: string): TroveError {
  return new TroveError("invalid_input", 400, message, { field: "url" });
}

/**
 * The URL if Trove may connect to it, else a 400 naming `url`. `allowLoopbackHttp` (the env flag
 * TROVE_GATEWAY_DEV) admits http://localhost, 127.0.0.1 and [::1], for local development only.
 *
 * @example checkUpstreamUrl("https://mcp.example.com/mcp", false) // → URL
 */
export function checkUpstreamUrl(raw: string, allowLoopbackHttp: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("url is not an absolute URL");
  }
  if (url.username || url.password) throw refuse("url may not carry credentials: send them as headers");
  const host = url.hostname.toLowerCase();
  if (allowLoopbackHttp && isLoopback(host) && (url.protocol === "http:" || url.protocol === "https:")) {
    return url;
  }
  if (url.protocol !== "https:")
    throw refuse("url must be https (plain http only to loopback in development)");
  const v4 = ipv4(host);
  const v6 = host.startsWith("[");
  if (v4 ? privateV4(v4) : v6 && privateV6(host.slice(1, -1))) {
    throw refuse("url names a private, loopback, link-local or metadata address");
  }
  if (v4 || v6) return url;
  if (LOCAL_NAMES.test(host) || METADATA_NAMES.has(host) || !host.includes(".")) {
    throw refuse("url names a local or internal host");
  }
  return url;
}
