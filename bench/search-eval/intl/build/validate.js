// Assembles ../queries.jsonl from the hand-written query files (q_everyday.js, q_model.js, q_none.js)
// and checks it against ../catalog.json; writes build/query_langs.json (query id -> language) and
// prints counts per kind and language and per namespace. Exits 1 on an error.
// Run from anywhere: node build/validate.js   (Node >= 18, no dependencies; ES modules because
// /work/main/package.json sets "type": "module")
//
// Checks: every expected id is a tool of catalog.json; `none` queries expect [] and the others do
// not; no expected list repeats an id; no query text occurs twice; each query's language is one of
// the catalog's and its script fits it (zh: Han characters and no kana; ja: kana; fr/de/es/pt: no
// CJK); every expected tool belongs to a namespace of the query's language; every namespace of the
// catalog has a language here.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

// namespace -> language of its descriptions (the same map as LANG in extract.py)
const LANG = {
  amap: "zh", baidumap: "zh", train12306: "zh", xiaohongshu: "zh", cloudbase: "zh",
  feishu: "zh", aliyun: "zh", dingtalk: "zh",
  chatwork: "ja", freee: "ja", egovlaw: "ja",
  datagouv: "fr", dbtimetable: "de", boe: "es", brasilapi: "pt",
};
const LANGS = ["zh", "ja", "fr", "de", "es", "pt"];

const HAN = /[\u3400-\u4dbf\u4e00-\u9fff]/;
const KANA = /[\u3040-\u30ff]/;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/;

const load = async (name) => (await import(pathToFileURL(path.join(root, "build", name)).href)).default;
const everyday = await load("q_everyday.js");
const model = await load("q_model.js");
const none = await load("q_none.js");

const catalog = JSON.parse(fs.readFileSync(path.join(root, "catalog.json"), "utf8"));
const ids = new Set(catalog.tools.map((t) => `${t.namespace}.${t.name}`));
const nsSize = {};
for (const t of catalog.tools) nsSize[t.namespace] = (nsSize[t.namespace] || 0) + 1;

const errors = [];
for (const ns of Object.keys(nsSize)) if (!LANG[ns]) errors.push(`namespace ${ns} has no language`);

const rows = [];
const langOf = {};
const add = (kind, prefix, list) => {
  list.forEach((entry, i) => {
    const id = prefix + String(i + 1).padStart(3, "0");
    const [lang, query, expected] = kind === "none" ? [entry[0], entry[1], []] : entry;
    if (entry.length !== (kind === "none" ? 2 : 3)) errors.push(`${id}: entry has ${entry.length} fields`);
    if (typeof query !== "string" || !query.trim()) errors.push(`${id}: empty query`);
    if (!LANGS.includes(lang)) errors.push(`${id}: unknown language ${lang}`);
    if (!Array.isArray(expected)) errors.push(`${id}: expected is not a list`);
    if (kind === "none" && expected.length) errors.push(`${id}: none query has expected tools`);
    if (kind !== "none" && !expected.length) errors.push(`${id}: answerable query has no expected tool`);
    if (new Set(expected).size !== expected.length) errors.push(`${id}: duplicate expected id`);
    for (const e of expected) {
      if (!ids.has(e)) errors.push(`${id}: unknown tool id ${e}`);
      else if (LANG[e.split(".")[0]] !== lang) errors.push(`${id}: ${lang} query expects ${e} (${LANG[e.split(".")[0]]})`);
    }
    if (lang === "zh" && (!HAN.test(query) || KANA.test(query))) errors.push(`${id}: not Chinese script: ${query}`);
    if (lang === "ja" && !KANA.test(query)) errors.push(`${id}: no kana in a Japanese query: ${query}`);
    if (["fr", "de", "es", "pt"].includes(lang) && CJK.test(query)) errors.push(`${id}: CJK in a ${lang} query`);
    rows.push({ query, expected: [...expected], kind, id });
    langOf[id] = lang;
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
fs.writeFileSync(path.join(root, "build", "query_langs.json"), JSON.stringify(langOf, null, 1) + "\n");

// ---- report ----
const kinds = ["everyday", "model", "none"];
const pct = (a, b) => `${((100 * a) / b).toFixed(0)}%`;
console.log(`queries.jsonl: ${rows.length} queries`);
for (const k of kinds) {
  const rs = rows.filter((r) => r.kind === k);
  const multi = rs.filter((r) => r.expected.length > 1).length;
  const multiNs = rs.filter((r) => new Set(r.expected.map((e) => e.split(".")[0])).size > 1).length;
  const chars = rs.map((r) => [...r.query].length);
  console.log(
    `  ${k.padEnd(8)} ${String(rs.length).padStart(4)} (${pct(rs.length, rows.length)})  multi-expected ${multi}` +
      `  cross-namespace ${multiNs}  length ${Math.min(...chars)}-${Math.max(...chars)} characters`
  );
}
const answerable = rows.filter((r) => r.kind !== "none");
console.log(`  answerable with >1 expected tool: ${answerable.filter((r) => r.expected.length > 1).length} of ${answerable.length}`);
const used = new Set(answerable.flatMap((r) => r.expected));
console.log(`  distinct expected tools: ${used.size} of ${ids.size}`);

console.log("\nper language (queries: everyday / model / none / all | catalog tools of that language)");
for (const l of LANGS) {
  const q = (k) => rows.filter((r) => langOf[r.id] === l && (k === "all" || r.kind === k)).length;
  const tools = Object.entries(nsSize).filter(([ns]) => LANG[ns] === l).reduce((a, [, n]) => a + n, 0);
  console.log(`  ${l}  ${String(q("everyday")).padStart(4)} / ${String(q("model")).padStart(3)} / ${String(q("none")).padStart(3)} / ${String(q("all")).padStart(4)} | ${tools}`);
}

console.log("\nper namespace (language | tools in catalog | queries naming a tool of it: everyday / model | distinct tools expected)");
const width = Math.max(...Object.keys(nsSize).map((ns) => ns.length)) + 1;
for (const ns of Object.keys(nsSize)) {
  const q = (k) => rows.filter((r) => r.kind === k && r.expected.some((e) => e.startsWith(ns + "."))).length;
  const d = [...used].filter((e) => e.startsWith(ns + ".")).length;
  console.log(`  ${ns.padEnd(width)} ${LANG[ns]} | ${String(nsSize[ns]).padStart(4)} | ${String(q("everyday")).padStart(3)} / ${String(q("model")).padStart(3)} | ${d}`);
}
