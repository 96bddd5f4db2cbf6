// Upstream headers (tokens) at rest: AES-GCM under a key derived from the Worker secret
// TROVE_SECRETS_KEY, one key per tenant (HKDF, the tenant as salt), and the upstream's
// `{tenant}/{name}` as additional data, so a ciphertext decrypts only for the upstream it was
// written for. Plain headers exist only in memory while a request to the upstream is made.

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;

const keys = new Map<string, Promise<CryptoKey>>();

function tenantKey(secret: string, tenant: string): Promise<CryptoKey> {
  const cacheKey = `${tenant}\n${secret}`;
  let key = keys.get(cacheKey);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]).then((base) =>
      crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: encoder.encode(tenant),
          info: encoder.encode("trove upstream headers"),
        },
        base,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      ),
    );
    keys.set(cacheKey, key);
  }
  return key;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** `headers` sealed for `{tenant}/{name}`: base64 of IV ‖ ciphertext. */
export async function sealHeaders(
  secret: string,
  tenant: string,
  name: string,
  headers: Record<string, string>,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = encoder.encode(JSON.stringify(headers));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(`${tenant}/${name}`) },
    await tenantKey(secret, tenant),
    data,
  );
  const out = new Uint8Array(IV_BYTES + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), IV_BYTES);
  return toBase64(out);
}

/** The headers sealed for `{tenant}/{name}`; throws when the key or the upstream differs. */
export async function openHeaders(
  secret: string,
  tenant: string,
  name: string,
  sealed: string,
): Promise<Record<string, string>> {
  const bytes = fromBase64(sealed);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, IV_BYTES), additionalData: encoder.encode(`${tenant}/${name}`) },
    await tenantKey(secret, tenant),
    bytes.slice(IV_BYTES),
  );
  return JSON.parse(decoder.decode(plain)) as Record<string, string>;
}
