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

/**
 * The tenant owning the bearer key in an Authorization header, or null. Every configured key is
 * compared (digest against digest, in constant time), so timing says nothing about which matched.
 */
export async function tenantForAuthorization(
  header: string | undefined,
  rawKeys: string,
): Promise<string | null> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return null;
  const presented = await digest(match[1]);
  let tenant: string | null = null;
  for (const entry of await keyEntries(rawKeys)) {
    if (crypto.subtle.timingSafeEqual(presented, entry.digest) && tenant === null) tenant = entry.tenant;
  }
  return tenant;
}
