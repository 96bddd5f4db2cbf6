// Canonical JSON (sorted keys, no whitespace) and its sha256, for record and bundle hashes.
import { createHash } from "node:crypto";

/** JSON with object keys sorted at every depth and `undefined` members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value))
    return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.keys(value)
    .sort()
    .flatMap((key) => {
      const v = (value as Record<string, unknown>)[key];
      return v === undefined ? [] : [`${JSON.stringify(key)}:${canonicalJson(v)}`];
    });
  return `{${entries.join(",")}}`;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
