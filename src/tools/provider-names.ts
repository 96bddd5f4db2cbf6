// Maps catalog tool names onto names that both OpenAI and Anthropic accept, injectively.
import { sha256Hex } from "../search/hash";

/** OpenAI's function-name rule; Anthropic's (`{1,128}`) is looser, so passing this passes both. */
const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
// 8 hex chars (32 bits) keep hashed names readable; longer suffixes only ever break a tie.
const HASH_STEPS = [8, 16, 32, 63] as const;

/** The name with every character a provider rejects (`.`, `:`) replaced by `_`. */
function encode(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

function hashed(name: string, hexChars: number): string {
  return `${encode(name).slice(0, MAX_LENGTH - 1 - hexChars)}_${sha256Hex(name).slice(0, hexChars)}`;
}

/**
 * Provider-safe names for a set of catalog names, none of them in `reserved`. Valid names keep
 * themselves (a catalog name never equals a reserved one: catalog_sync refuses it); others become the
 * `_`-encoded name, or, when that is too long or ambiguous, a 55-char prefix plus a sha256 suffix.
 * Every decision looks at the whole set, never at input order, so a session renders the same
 * names however its tools were listed, and two names never share a provider name.
 *
 * @example
 * providerNames(["github.create_issue", "search"]).get("github.create_issue"); // "github_create_issue"
 */
export function providerNames(
  names: readonly string[],
  reserved: readonly string[] = [],
): Map<string, string> {
  const unique = [...new Set(names)];
  const result = new Map<string, string>();
  // Reserved names (Trove's own tools, listed beside the catalog) are never given to a catalog tool.
  const taken = new Set<string>(reserved);

  // A raw name that is already valid always keeps itself: clients may know it by that name.
  const encoded: string[] = [];
  for (const name of unique) {
    if (PROVIDER_NAME.test(name)) {
      result.set(name, name);
      taken.add(name);
    } else {
      encoded.push(name);
    }
  }

  // Plain encoding only when no other name encodes the same way: otherwise neither gets it, so
  // the outcome cannot depend on which of the two was seen first.
  const baseCount = new Map<string, number>();
  for (const name of encoded) baseCount.set(encode(name), (baseCount.get(encode(name)) ?? 0) + 1);
  let pending: string[] = [];
  for (const name of encoded) {
    const base = encode(name);
    if (PROVIDER_NAME.test(base) && baseCount.get(base) === 1 && !taken.has(base)) {
      result.set(name, base);
      taken.add(base);
    } else {
      pending.push(name);
    }
  }
  // Plain bases are all claimed before any hashed name, so a hashed name can never steal one.

  // A hashed name can still collide (a shared 32-bit suffix, or a raw name shaped like a hash);
  // every party to a collision moves to a longer suffix together, keeping the result symmetric.
  for (const hexChars of HASH_STEPS) {
    if (pending.length === 0) break;
    const byCandidate = new Map<string, string[]>();
    for (const name of pending) {
      const candidate = hashed(name, hexChars);
      byCandidate.set(candidate, [...(byCandidate.get(candidate) ?? []), name]);
    }
    pending = [];
    for (const [candidate, owners] of byCandidate) {
      const [owner] = owners;
      if (owners.length === 1 && owner !== undefined && !taken.has(candidate)) {
        result.set(owner, candidate);
        taken.add(candidate);
      } else {
        pending.push(...owners);
      }
    }
  }
  if (pending.length > 0) throw new Error(`no unique provider name for ${pending.join(", ")}`);

  // Insertion order follows the input so callers can iterate in their own order.
  return new Map(unique.map((name) => [name, result.get(name) as string]));
}

/**
 * The reverse lookup, provider name → catalog name, for resolving a model's tool call.
 *
 * @example
 * invertNames(providerNames(["github.create_issue"])).get("github_create_issue"); // "github.create_issue"
 */
export function invertNames(map: Map<string, string>): Map<string, string> {
  const inverse = new Map<string, string>();
  for (const [name, providerName] of map) {
    if (inverse.has(providerName)) throw new Error(`provider name ${providerName} is not unique`);
    inverse.set(providerName, name);
  }
  return inverse;
}
