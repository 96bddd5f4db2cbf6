// Benchmark catalogs of any size, grown from the dev evaluation catalog.
import { readFileSync } from "node:fs";

interface Tool {
  name: string;
  description: string;
  namespace?: string;
  [key: string]: unknown;
}

const base = JSON.parse(readFileSync("bench/search-eval/catalog.json", "utf8")) as Tool[];

/**
 * `size` tools: the dev catalog first, then copies in numbered namespaces (`github2.create_issue`,
 * "…in a GitHub 2 repository") — every term's frequency grows with the catalog, which is the
 * pessimistic case for full-text search.
 */
export function benchCatalog(size: number): Tool[] {
  const out: Tool[] = [];
  for (let copy = 1; out.length < size; copy++) {
    for (const tool of base) {
      if (out.length >= size) break;
      if (copy === 1) {
        out.push(tool);
        continue;
      }
      const ns = tool.namespace ?? tool.name.split(".")[0] ?? "x";
      const name = tool.name.startsWith(`${ns}.`)
        ? `${ns}${copy}.${tool.name.slice(ns.length + 1)}`
        : `${tool.name}_${copy}`;
      out.push({
        ...tool,
        name,
        namespace: `${ns}${copy}`.replaceAll(/[^A-Za-z0-9_:-]/g, "_").slice(0, 64),
        description: `${tool.description} (variant ${copy})`,
      });
    }
  }
  return out;
}

export const evalQueries: string[] = (
  JSON.parse(readFileSync("bench/search-eval/queries.json", "utf8")) as { query: string }[]
).map((q) => q.query);
