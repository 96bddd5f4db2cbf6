// The bundled harness pack (packs/core), switched on for a session. It ships off (issue 12: the
// model sees only skills written for the model); tests that exercise real bundled skills turn it
// on in their session, as an operator would with `enabled: true` in packs/core/pack.yaml.
import { runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import { sessionStub } from "./session";

const CORE = import.meta.glob<string>("../../packs/core/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
});

let bundle: Bundle | undefined;

/** packs/core compiled with `enabled: true` (once per test file). */
export function corePackBundle(): Bundle {
  if (bundle) return bundle;
  const files = Object.entries(CORE).map(([path, content]) => ({
    path: path.replace("../../packs/", ""),
    content: path.endsWith("/pack.yaml") ? content.replace(/^enabled: false$/m, "enabled: true") : content,
  }));
  const compiled = compilePacks(files);
  expect(compiled.errors).toEqual([]);
  bundle = compiled.bundle;
  return bundle;
}

/** Points session `sid` at the core pack (call before its first request). */
export async function useCorePack(sid: string, tenant = "tenant-a"): Promise<void> {
  await runInDurableObject(sessionStub(sid, tenant), (obj) => {
    obj.bundle = corePackBundle();
  });
}
