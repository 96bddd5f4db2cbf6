// Bundles a worker entry the way wrangler does (ESM, workerd conditions) and reads wrangler.toml's
// compatibility settings: what benchmarks and Node tests need to run the worker in Miniflare.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The bundled script of `entry` (a path relative to the repository root). */
export async function bundleWorker(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [`${ROOT}${entry}`],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    write: false,
    external: ["cloudflare:*", "node:*"],
    mainFields: ["module", "main"],
    // wrangler's own conditions plus "import": the MCP SDK's client needs pkce-challenge, which
    // exports only under "browser" (for workers) and "node".
    conditions: ["workerd", "worker", "browser", "import"],
    logLevel: "silent",
  });
  return out.outputFiles[0]?.text ?? "";
}

/** Compatibility date and flags from wrangler.toml, so in-process runs match `wrangler dev`. */
export function wranglerCompatibility(): { compatibilityDate: string; compatibilityFlags: string[] } {
  const toml = readFileSync(`${ROOT}wrangler.toml`, "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  return {
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ""),
  };
}
