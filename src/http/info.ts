// Version and bundle facts reported by /v1/health.
import pkg from "../../package.json";
import { BUNDLE } from "../generated/packs";

export const VERSION: string = pkg.version;

export function bundleInfo(): { bundle_hash: string } {
  return { bundle_hash: BUNDLE.hash };
}
