// Version and bundle facts reported by /v1/health.
import pkg from "../../package.json";
import { BUNDLE } from "../generated/packs";

export const VERSION: string = pkg.version;

export function bundleInfo(): { bundle_hash: string; packs: number; skills: number } {
  return { bundle_hash: BUNDLE.hash, packs: BUNDLE.packs.length, skills: BUNDLE.skills.length };
}
