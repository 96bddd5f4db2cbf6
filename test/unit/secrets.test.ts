// Upstream headers at rest (src/gateway/secrets.ts): sealed with AES-GCM under a key derived per
// tenant from TROVE_SECRETS_KEY, bound to `{tenant}/{name}`; they open for that upstream only.
import { describe, expect, it } from "vitest";
import { openHeaders, sealHeaders } from "../../src/gateway/secrets";

const KEY = "unit-test-secrets-key-0123456789abcdef";
const HEADERS = { authorization: "Bearer upstream-token-123" };

describe("sealed upstream headers", () => {
  it("open for the tenant and upstream they were sealed for, and hold no plain text", async () => {
    const sealed = await sealHeaders(KEY, "tenant-a", "github", HEADERS);
    expect(sealed).not.toContain("upstream-token");
    expect(atob(sealed)).not.toContain("upstream-token");
    expect(await openHeaders(KEY, "tenant-a", "github", sealed)).toEqual(HEADERS);
  });

  it("seal the same headers differently each time (a fresh IV)", async () => {
    const one = await sealHeaders(KEY, "tenant-a", "github", HEADERS);
    const two = await sealHeaders(KEY, "tenant-a", "github", HEADERS);
    expect(one).not.toBe(two);
  });

  it("do not open for another tenant, another upstream or another key", async () => {
    const sealed = await sealHeaders(KEY, "tenant-a", "github", HEADERS);
    await expect(openHeaders(KEY, "tenant-b", "github", sealed)).rejects.toThrow();
    await expect(openHeaders(KEY, "tenant-a", "slack", sealed)).rejects.toThrow();
    await expect(openHeaders(`${KEY}x`, "tenant-a", "github", sealed)).rejects.toThrow();
  });
});
