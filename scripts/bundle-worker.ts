// Bundles a worker entry the way wrangler does (ESM, workerd conditions) and reads wrangler.toml's
// compatibility settings: what benchmarks and Node tests need to run the worker in Miniflare.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/**
 * The bundled script of `entry` (a path relative to the repository root). `replace` gives other
 * contents for JSON files by their path relative to the root: the lexicon ablation bundles the
 * worker with one lexicon entry emptied (bench/lexicon-ablation.ts).
 */
export async function bundleWorker(
  entry: string,
  replace: Readonly<Record<string, string>> = {},
): Promise<string> {
  const contents = new Map(Object.entries(replace).map(([path, text]) => [`${ROOT}${path}`, text]));
  const out = await build({
    plugins: [
      {
        name: "trove-replace-json",
        setup(b) {
          b.onLoad({ filter: /\.json$/ }, (file) => {
            const text = contents.get(file.path);
            return text === undefined ? undefined : { contents: text, loader: "json" };
          });
        },
      },
    ],
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

const wranglerToml = () => readFileSync(`${ROOT}wrangler.toml`, "utf8");

/** Compatibility date and flags from wrangler.toml, so in-process runs match `wrangler dev`. */
export function wranglerCompatibility(): { compatibilityDate: string; compatibilityFlags: string[] } {
  const toml = wranglerToml();
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  if (!date) throw new Error("wrangler.toml has no compatibility_date");
  return {
    compatibilityDate: date,
    compatibilityFlags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? ""),
  };
}

/** wrangler.toml's Durable Object bindings, binding name → class name: the worker as deployed. */
export function wranglerDurableObjects(): Record<string, string> {
  const blocks = wranglerToml().split("[[durable_objects.bindings]]").slice(1);
  return Object.fromEntries(
    // Each binding's own lines: up to the next table or array of tables.
    blocks.map((text) => {
      const block = text.split(/^\[/m)[0] ?? "";
      const name = /^name\s*=\s*"([^"]+)"/m.exec(block)?.[1];
      const className = /^class_name\s*=\s*"([^"]+)"/m.exec(block)?.[1];
      if (!name || !className)
        throw new Error("wrangler.toml: a Durable Object binding without name or class_name");
      return [name, className];
    }),
  );
}
