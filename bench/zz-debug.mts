import { readFileSync } from "node:fs";
import { toolSearchFields } from "../src/tools/tool-index";
import { indexText, queryTermGroups } from "../src/search/text";
import { rescore } from "../src/search/rerank";
import { cleanQuery } from "../src/learning/learning-store";
const catalog = JSON.parse(readFileSync("bench/search-eval/catalog.json", "utf8")) as any[];
const history = JSON.parse(readFileSync("bench/search-eval/queries.json", "utf8")) as any[];
const learned = new Map<string, string[]>();
if (process.env.LEARNED) for (const q of history) if (q.expected[0]) learned.set(q.expected[0], [...(learned.get(q.expected[0]) ?? []), cleanQuery(q.query)]);
const docs = catalog.map((t) => {
  const f = toolSearchFields({ ...t, namespace: t.namespace ?? "" } as any);
  return { name: t.name, fields: [f.f_name, f.f_namespace, f.f_tags, f.f_description, f.f_examples, indexText((learned.get(t.name) ?? []).join(" "))] };
});
const df = (term: string) => docs.filter((d) => d.fields.join(" ").split(" ").includes(term)).length;
const specs = [{ weight: 3, b: 0.3 }, { weight: 1.5, b: 0 }, { weight: 1.5, b: 0.3 }, { weight: 1, b: 0.75 }, { weight: 0.6, b: 0.5 }, { weight: 1.5, b: 0.5, gapsOnly: true }];
for (const q of process.argv.slice(2)) {
  const groups = queryTermGroups(q);
  console.log("\n#", q);
  console.log(groups.map((g) => `[${g.terms.join(",")}${g.related.length ? ` ~${g.related.join(",")}` : ""}${g.argument ? " ARG" : ""}${g.weak ? " WEAK" : ""}${g.noun ? " N" : ""}]`).join(" "));
  const corpus = { size: docs.length, docFrequency: df };
  const total = rescore(docs.map((d) => d.fields), groups, specs, corpus);
  const per = groups.map((g) => rescore(docs.map((d) => d.fields), [g], specs, corpus));
  const order = total.map((s, i) => [s, i] as const).sort((a, b) => b[0] - a[0]).slice(0, 5);
  for (const [s, i] of order) console.log(`  ${s.toFixed(2)} ${docs[i]!.name}  ${per.map((p) => (p[i] ?? 0).toFixed(2)).join(" ")}  | ${docs[i]!.fields[5]}`);
}
