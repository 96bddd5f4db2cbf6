// What each entry of Trove's lexicon (src/search/lexicon.json) is worth: the search suite scored with
// the whole lexicon, then once with each entry emptied (issue 29), in queries gained or lost per set.
// An entry is kept when the suite is better with it than without it by more than one query's worth.
// Usage: npm run bench:lexicon [-- --entries name,name…]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { table } from "./harness";
import { withMarkedSection } from "./load-section";
import type { SetFigures } from "./suites";

const LEXICON = "src/search/lexicon.json";
const { values: args } = parseArgs({ options: { entries: { type: "string" } } });

type Entry = Record<string, unknown> & { why: string };
const lexicon = JSON.parse(readFileSync(LEXICON, "utf8")) as Record<string, Entry | string>;
const names = args.entries
  ? args.entries.split(",")
  : Object.keys(lexicon).filter((name) => name !== "$comment");

/** The entry with nothing in it: no words, no groups, an empty map, patterns that never match. */
function emptied(entry: Entry): Entry {
  const out: Entry = { ...entry };
  if ("words" in out) out.words = "";
  if ("groups" in out) out.groups = [];
  if ("map" in out) out.map = {};
  if ("pattern" in out) out.pattern = "(?!)";
  if ("patterns" in out) out.patterns = [];
  if ("hints" in out) out.hints = [];
  return out;
}

const dir = mkdtempSync(join(tmpdir(), "trove-lexicon-"));
/** The suite's figures with this lexicon (a run of bench/search-eval.ts that writes nothing else). */
function score(label: string, content: Record<string, unknown>): SetFigures[] {
  const file = join(dir, "lexicon.json");
  const out = join(dir, "figures.json");
  writeFileSync(file, JSON.stringify(content));
  // Miniflare's proxy now and then fails a run on a loaded machine: a run is tried up to 3 times.
  const command = ["tsx", "bench/search-eval.ts", "--suite-only", "--lexicon", file, "--figures", out];
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync("npx", command, { stdio: ["ignore", "ignore", attempt < 3 ? "ignore" : "inherit"] });
      break;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
  console.error(`scored: ${label}`);
  return JSON.parse(readFileSync(out, "utf8")) as SetFigures[];
}

try {
  const base = score("the whole lexicon", lexicon);
  const sets = base.map((f) => f.set);
  /** Queries a set answers at rank 1 (answerable ones only). */
  const firsts = (f: SetFigures) => Math.round(f.r1 * f.answerable);
  const macro = (figures: SetFigures[], pick: (f: SetFigures) => number) =>
    figures.reduce((sum, f) => sum + pick(f), 0) / figures.length;
  const rows: (string | number)[][] = [];
  for (const name of names) {
    const entry = lexicon[name];
    if (typeof entry !== "object") throw new Error(`no lexicon entry ${name}`);
    const without = score(name, { ...lexicon, [name]: emptied(entry) });
    // What the entry is worth: the figures with it minus the figures without it.
    const worth = base.map((f, i) => firsts(f) - firsts(without[i] as SetFigures));
    const r1 = macro(base, (f) => f.r1) - macro(without, (f) => f.r1);
    const mrr = macro(base, (f) => f.mrr) - macro(without, (f) => f.mrr);
    const sign = (n: number, digits = 0) => `${n > 0 ? "+" : ""}${n.toFixed(digits)}`;
    rows.push([name, ...worth.map((n) => sign(n)), sign(r1, 3), sign(mrr, 3)]);
  }
  const body = `## What each lexicon entry is worth (npm run bench:lexicon)

The search suite scored with the whole lexicon (src/search/lexicon.json) and once with each entry
emptied; each cell is the queries answered at rank 1 with the entry minus without it, then the
macro Recall@1 and MRR with it minus without it. Run ${new Date().toISOString().slice(0, 16)}Z.

${table(["entry", ...sets, "macro R@1", "macro MRR"], rows)}
`;
  console.log(`\n${body}`);
  if (!args.entries) {
    const previous = readFileSync("bench/RESULTS.md", "utf8");
    writeFileSync("bench/RESULTS.md", withMarkedSection(previous, "lexicon", body));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
