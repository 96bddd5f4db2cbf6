// Bearer keys → tenant. Keys come from TROVE_API_KEYS as `tenant:key` pairs; compared in constant time.
import { TENANT_PATTERN } from "../schemas";

interface KeyEntry {
  tenant: string;
  digest: ArrayBuffer;
}

let cached: { raw: string; entries: Promise<KeyEntry[]> } | null = null;

const digest = (text: string) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));

/** Parses `tenant:key,tenant:key`. Entries with a malformed tenant or an empty key are skipped. */
export function parseApiKeys(raw: string): { tenant: string; key: string }[] {
  return raw
    .split(",")
    .map((pair) => pair.trim())
    .flatMap((pair) => {
      const colon = pair.indexOf(":");
      const tenant = pair.slice(0, colon);
      const key = pair.slice(colon + 1);
      if (colon <= 0 || !key || !TENANT_PATTERN.test(tenant)) {
        if (pair) console.warn(JSON.stringify({ msg: "ignoring malformed TROVE_API_KEYS entry", tenant }));
        return [];
      }
      return [{ tenant, key }];
    });
}

function keyEntries(raw: string): Promise<KeyEntry[]> {
  if (cached?.raw !== raw) {
    const entries = Promise.all(
      parseApiKeys(raw).map(async ({ tenant, key }) => ({ tenant, digest: await digest(key) })),
    );
    cached = { raw, entries };
  }
  return cached.entries;
}

/** Why a request was refused a tenant: each answer tells the caller what to fix. */
type AuthFailure = "missing" | "no_scheme" | "wrong_scheme" | "no_key" | "malformed" | "unknown_key";

type AuthResult = { tenant: string } | { tenant: null; reason: AuthFailure; message: string };

const SEND = "send `Authorization: Bearer <key>`";

/** What is wrong with the header's shape, before any key is looked at (null: a bearer key). */
function shapeProblem(header: string): { reason: AuthFailure; message: string } | null {
  const value = header.trim();
  if (value === "") return { reason: "missing", message: `no API key: ${SEND}` };
  if (/^bearer$/i.test(value)) return { reason: "no_key", message: `no key after Bearer: ${SEND}` };
  // Never echo what was sent: without a scheme, the header is likely the key itself.
  if (!/\s/.test(value)) {
    return { reason: "no_scheme", message: `the Authorization header has no scheme: ${SEND}` };
  }
  if (!/^bearer\s/i.test(value)) {
    return { reason: "wrong_scheme", message: `the Authorization scheme must be Bearer: ${SEND}` };
  }
  if (!/^bearer\s+\S+$/i.test(value)) {
    return { reason: "malformed", message: `a key is one token, without spaces: ${SEND}` };
  }
  return null;
}

/**
 * The tenant owning the bearer key in an Authorization header, or why there is none. The header's
 * shape is judged first, without touching a key; a well-formed key is compared with every
 * configured key (digest against digest, in constant time), so timing says nothing about which
 * matched, and an unknown key gets one answer whatever it resembles.
 *
 * @example await authorize("Bearer key-a", env.TROVE_API_KEYS) // { tenant: "tenant-a" }
 */
export async function authorize(header: string | undefined, rawKeys: string): Promise<AuthResult> {
  const problem = shapeProblem(header ?? "");
  if (problem) return { tenant: null, ...problem };
  const key = (header ?? "").trim().replace(/^bearer\s+/i, "");
  const presented = await digest(key);
  let tenant: string | null = null;
  for (const entry of await keyEntries(rawKeys)) {
    if (crypto.subtle.timingSafeEqual(presented, entry.digest) && tenant === null) tenant = entry.tenant;
  }
  // The words the inspector and existing clients already show for a key no tenant has.
  const unknown = { tenant: null, reason: "unknown_key", message: "missing or unknown API key" } as const;
  return tenant === null ? unknown : { tenant };
}
