// Benchmark catalogs of any size, grown from the dev evaluation catalog.
import { readFileSync } from "node:fs";

interface Tool {
  name: string;
  description: string;
  namespace?: string;
  [key: string]: unknown;
}

const base = JSON.parse(readFileSync("bench/search-eval/catalog.json", "utf8")) as Tool[];

const SYLLABLES = ["zen", "kor", "val", "mira", "tex", "lum", "qua", "rho", "sig", "tor", "vex", "nyx"];

const namespaces = [...new Set(base.map((t) => t.namespace ?? t.name.split(".")[0] ?? "x"))];

/** A made-up product name for copy `n` of a namespace: copies read as different products. */
function productName(ns: string, n: number): string {
  const k = namespaces.indexOf(ns) * 1000 + n;
  const a = SYLLABLES[k % SYLLABLES.length] ?? "x";
  const b = SYLLABLES[Math.floor(k / SYLLABLES.length) % SYLLABLES.length] ?? "y";
  return `${a}${b}${k}`;
}

/**
 * `size` tools: the dev catalog first, then copies that stand for other products of the same
 * kind — the namespace and the product's name in descriptions become a made-up product
 * (`github` → `zenkor7`), so verbs and nouns grow common with the catalog while product names stay
 * rare, as in a real catalog built from hundreds of servers.
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
      const product = productName(ns, copy);
      const name = tool.name.startsWith(`${ns}.`)
        ? `${product}.${tool.name.slice(ns.length + 1)}`
        : `${product}_${tool.name}`.slice(0, 128);
      const description = tool.description.replaceAll(
        new RegExp(ns.replace(/[^A-Za-z0-9]/g, ""), "gi"),
        product,
      );
      out.push({ ...tool, name, namespace: product, description });
    }
  }
  return out;
}

/** The dev catalog's tool that each tool of `benchCatalog(size)` copies (itself for the originals), by name. */
export function originalsOf(size: number): Map<string, string> {
  return new Map(benchCatalog(size).map((tool, i) => [tool.name, base[i % base.length]?.name ?? ""]));
}

export const evalQueries: string[] = (
  JSON.parse(readFileSync("bench/search-eval/queries.json", "utf8")) as { query: string }[]
).map((q) => q.query);

/**
 * Learned text as a tenant's use would give it: for each tool of `benchCatalog(size)`, up to three
 * dev-evaluation queries that asked for the tool it was copied from; tools nobody asked for get none.
 */
export function ownLearnedTexts(size: number): { tool: string; text: string }[] {
  const asked = new Map<string, string[]>();
  const queries = JSON.parse(readFileSync("bench/search-eval/queries.json", "utf8")) as {
    query: string;
    expected: string[];
  }[];
  for (const q of queries) {
    for (const name of q.expected) asked.set(name, [...(asked.get(name) ?? []), q.query]);
  }
  return [...originalsOf(size)].flatMap(([tool, original]) => {
    const own = asked.get(original)?.slice(0, 3) ?? [];
    return own.length > 0 ? [{ tool, text: own.join("\n") }] : [];
  });
}
