// Version and bundle facts reported by /v1/health.
import pkg from "../../package.json";
import { BUNDLE } from "../generated/packs";
import { visiblePacks } from "../skills/pack-upsert";

export const VERSION: string = pkg.version;

export interface BundleInfo {
  bundle_hash: string;
  /** Enabled packs a new session sees: global ones, and the tenant's when it is known. */
  packs: number;
  /** Skills of those packs: what a new session with the default config can list and load. */
  skills: number;
  /** Everything bundled, enabled or not and whatever its scope. */
  bundled: { packs: number; skills: number };
}

/**
 * What /v1/health reports: the skills a session can see (for `tenant`'s sessions when the request
 * carried its key, else those every tenant's sessions see), not merely what is bundled — a pack
 * shipped with `enabled: false`, or scoped to another tenant, is bundled and invisible.
 *
 * @example bundleInfo("dev") // { bundle_hash, packs: 1, skills: 2, bundled: { packs: 2, skills: 8 } }
 */
export function bundleInfo(tenant: string | null): BundleInfo {
  // A project-scoped pack is seen only by sessions configured with its project: not counted.
  const packs = visiblePacks(BUNDLE, tenant ?? "", null).filter((p) => p.scope !== "project");
  const names = new Set(packs.map((p) => p.name));
  return {
    bundle_hash: BUNDLE.hash,
    packs: packs.length,
    skills: BUNDLE.skills.filter((s) => names.has(s.pack)).length,
    bundled: { packs: BUNDLE.packs.length, skills: BUNDLE.skills.length },
  };
}
