// Assembles a set's queries.jsonl from its hand-written query files (build/q_everyday.js,
// build/q_model.js, build/q_none.js) and checks it against its catalog.json; prints counts per kind
// and per namespace, exits 1 on an error.
// Usage: node validate_queries.js [SET_FOLDER]   (default: the current folder; Node >= 18, no dependencies)
// Each set's build/validate.js calls validateQueries() for its folder.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export async function validateQueries(root) {
  const load = async (name) => (await import(pathToFileURL(path.join(root, "build", name)).href)).default;
  const everyday = await load("q_everyday.js");
  const model = await load("q_model.js");
  const none = await load("q_none.js");

  const catalog = JSON.parse(fs.readFileSync(path.join(root, "catalog.json"), "utf8"));
  const ids = new Set(catalog.tools.map((t) => `${t.namespace}.${t.name}`));
  const nsSize = {};
  for (const t of catalog.tools) nsSize[t.namespace] = (nsSize[t.namespace] || 0) + 1;

  const errors = [];
  const rows = [];
  const add = (kind, prefix, list) => {
    list.forEach((entry, i) => {
      const [query, expected] = kind === "none" ? [entry, []] : entry;
      const id = prefix + String(i + 1).padStart(3, "0");
      if (typeof query !== "string" || !query.trim()) errors.push(`${id}: empty query`);
      if (!Array.isArray(expected)) errors.push(`${id}: expected is not a list`);
      if (kind === "none" && expected.length) errors.push(`${id}: none query has expected tools`);
      if (kind !== "none" && !expected.length) errors.push(`${id}: answerable query has no expected tool`);
      if (new Set(expected).size !== expected.length) errors.push(`${id}: duplicate expected id`);
      for (const e of expected) if (!ids.has(e)) errors.push(`${id}: unknown tool id ${e}`);
      rows.push({ query, expected: [...expected], kind, id });
    });
  };
  add("everyday", "e", everyday);
  add("model", "m", model);
  add("none", "n", none);

  const seen = new Map();
  for (const r of rows) {
    const key = r.query.trim().toLowerCase().replace(/\s+/g, " ");
    if (seen.has(key)) errors.push(`${r.id}: duplicate query text of ${seen.get(key)}`);
    else seen.set(key, r.id);
  }

  if (errors.length) {
    console.error(errors.join("\n"));
    process.exit(1);
  }
  fs.writeFileSync(path.join(root, "queries.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");

  // ---- report ----
  const kinds = ["everyday", "model", "none"];
  console.log(`queries.jsonl: ${rows.length} queries`);
  for (const k of kinds) {
    const rs = rows.filter((r) => r.kind === k);
    const multi = rs.filter((r) => r.expected.length > 1).length;
    const multiNs = rs.filter((r) => new Set(r.expected.map((e) => e.split(".")[0])).size > 1).length;
    const words = rs.map((r) => r.query.split(/\s+/).length);
    console.log(
      `  ${k.padEnd(8)} ${String(rs.length).padStart(4)}  multi-expected ${multi}  cross-namespace ${multiNs}` +
        (rs.length ? `  words ${Math.min(...words)}-${Math.max(...words)}` : "")
    );
  }
  const answerable = rows.filter((r) => r.kind !== "none");
  console.log(`  answerable with >1 expected tool: ${answerable.filter((r) => r.expected.length > 1).length} of ${answerable.length}`);
  const used = new Set(answerable.flatMap((r) => r.expected));
  console.log(`  distinct expected tools: ${used.size} of ${ids.size}`);

  console.log("\nper namespace (tools in catalog | queries naming a tool of it: everyday / model | distinct tools expected)");
  const width = Math.max(...Object.keys(nsSize).map((ns) => ns.length)) + 1; // one more than the longest
  for (const ns of Object.keys(nsSize).sort((a, b) => nsSize[b] - nsSize[a] || a.localeCompare(b))) {
    const q = (k) => rows.filter((r) => r.kind === k && r.expected.some((e) => e.startsWith(ns + "."))).length;
    const d = [...used].filter((e) => e.startsWith(ns + ".")).length;
    console.log(`  ${ns.padEnd(width)} ${String(nsSize[ns]).padStart(4)} | ${String(q("everyday")).padStart(3)} / ${String(q("model")).padStart(3)} | ${d}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await validateQueries(path.resolve(process.argv[2] ?? "."));
}
