// The search dev suite beyond the dev catalog (issue 29): every catalog with query sets the bench can
// read, in one format — the real MCP servers' tools of bench/search-eval/mcp/, the public MetaTool
// sample in ../shared/bench/metatool/ and ToolLens from TOOLLENS_DIR (both read there, never copied;
// skipped when absent). Each set is
// scored alone and in a macro average, and its per-query ranks are compared with the previous head's
// (bench/search-eval/ranks.json, written by the canonical run).
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fitDescription } from "../src/gateway/upstream-tools";
import { table } from "./harness";

export interface SuiteQuery {
  query: string;
  expected: string[];
  kind: string;
}

export interface Suite {
  /** Short name, used in tables and as the key of its ranks. */
  name: string;
  /** Tools in catalog_sync's shape. */
  catalog: unknown[];
  sets: { name: string; queries: SuiteQuery[] }[];
  source: string;
  /**
   * Requests of the catalog's users, worded independently of its queries, for the learning
   * evaluation: each entry is one tenant's past, a larger past after a smaller one, so the lift can
   * be read against how much use a tenant has had.
   */
  histories: History[];
}

/** A request of a tenant's past: by `user` when it says (else one of four sessions'). */
export interface HistoryEntry extends SuiteQuery {
  user?: string;
  /**
   * What the agent's model sent to tool_search for the user's message (`query`). With it, an entry
   * is replayed as an agent works: `context` with the user's message, the model's search, and the
   * user's message searched only when the model's search did not return the tool.
   */
  search?: string;
}

/** A tenant's past: where it comes from, and its requests, read when the evaluation replays it. */
export interface History {
  source: string;
  entries: () => HistoryEntry[];
}

/** A past written as history files of bench/search-eval/, replayed together. */
export function historyFiles(files: readonly string[]): History {
  return {
    source: `${files.join(" + ")}, worded independently of the test set`,
    entries: () => files.flatMap((file) => JSON.parse(readFileSync(file, "utf8")) as HistoryEntry[]),
  };
}

interface FlatTool {
  name: string;
  namespace?: string;
  description: string;
}

const METATOOL_HISTORY = "bench/search-eval/metatool-history/history.json";
/**
 * Requests none of ToolLens's test endpoints serves, written for that catalog by someone who read it
 * and not this code (bench/search-eval/toollens-none/README.md): ToolLens itself has none.
 */
const TOOLLENS_NONE = "bench/search-eval/toollens-none/queries.jsonl";

const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as SuiteQuery);

/**
 * The catalogs beside the dev catalog: tools named `<namespace>.<name>` when their file names them
 * apart (the MCP servers reuse names such as `search`), as their queries' `expected` do.
 */
export function otherSuites(): Suite[] {
  const suites: Suite[] = [];
  // Four catalogs of real MCP servers' tools, each with queries written by someone who read only
  // its catalog: mcp2 and mcp3 were drawn after the ranking of the first was built, and first scored
  // as unseen (their READMEs record those figures); intl holds servers described in Chinese,
  // Japanese and four European languages, asked in the same languages.
  for (const name of ["mcp", "mcp2", "mcp3", "intl"]) {
    const suite = mcpSuite(name);
    if (suite) suites.push(suite);
  }
  const metatool = "../shared/bench/metatool";
  if (existsSync(`${metatool}/catalog.json`)) {
    const tools = (JSON.parse(readFileSync(`${metatool}/catalog.json`, "utf8")) as { tools: FlatTool[] })
      .tools;
    suites.push({
      name: "metatool",
      source: `${metatool}/ (MetaTool sample, ${tools.length} OpenAI plugins; read in place)`,
      catalog: tools.map((t) => ({ name: t.name, namespace: t.namespace, description: t.description })),
      sets: [{ name: "metatool", queries: readJsonl(`${metatool}/queries.jsonl`) }],
      // Our own history for the public catalog: the sample has none.
      histories: existsSync(METATOOL_HISTORY) ? [historyFiles([METATOOL_HISTORY])] : [],
    });
  }
  const toollens = toolLens(process.env.TOOLLENS_DIR);
  if (toollens) suites.push(toollens);
  return suites;
}

/** A catalog of public MCP servers' tools in bench/search-eval/{name}/ (its README says how it was drawn). */
function mcpSuite(name: string): Suite | null {
  const dir = `bench/search-eval/${name}`;
  if (!existsSync(`${dir}/catalog.json`) || !existsSync(`${dir}/queries.jsonl`)) return null;
  const tools = (JSON.parse(readFileSync(`${dir}/catalog.json`, "utf8")) as { tools: FlatTool[] }).tools;
  const namespaces = new Set(tools.map((t) => t.namespace)).size;
  return {
    name,
    source: `${dir}/ (${tools.length} tools of public MCP servers in ${namespaces} namespaces, their own descriptions)`,
    catalog: tools.map((t) => ({
      name: `${t.namespace}.${t.name}`,
      namespace: t.namespace,
      // As Trove's gateway imports a server's tools: a description over the catalog's limit (a few
      // real ones are) is cut to it.
      description: fitDescription(t.description),
    })),
    sets: [{ name, queries: readJsonl(`${dir}/queries.jsonl`) }],
    // history.json: 12 people of one company; history-company.json: 48 more of the same company.
    histories: [[`${dir}/history.json`], [`${dir}/history.json`, `${dir}/history-company.json`]]
      .filter((files) => files.every((file) => existsSync(file)))
      .map(historyFiles),
  };
}

/** A ToolLens corpus line's text: its RapidAPI fields, in this order. */
const TOOLLENS_TEXT =
  /^category_name:(.*?), tool_name:(.*?), api_name:(.*?), api_description:(.*?), required_params: (.*?), optional_params: (.*?), return_schema: (.*)$/s;

/**
 * An endpoint's output schema: the keys of its RapidAPI return example (`{"results":
 * {"ingredients": [...]}}`), when that is a JSON object (a quarter of the corpus has none).
 */
function outputSchema(text: string): Record<string, unknown> | undefined {
  try {
    const schema = returnSchema(JSON.parse(text));
    return schema.type === "object" ? schema : undefined;
  } catch {
    return undefined;
  }
}

function returnSchema(value: unknown): Record<string, unknown> {
  if (Array.isArray(value)) return value.length > 0 ? { type: "array", items: returnSchema(value[0]) } : {};
  if (!value || typeof value !== "object") return {};
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(value).map(([k, v]) => [k, returnSchema(v)])),
  };
}

interface RapidParam {
  name: string;
  description?: string;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60) || "api";

/**
 * ToolLens (Qu et al., CIKM 2024: 464 RapidAPI endpoints, each query needing two or three of them),
 * read in place from the `datasets/ToolLens` folder of a checkout of github.com/quchangle1/COLT named
 * by TOOLLENS_DIR: the repository states no license, so nothing of it is copied here. Its test split,
 * each endpoint as a tool: the API's name as namespace, the endpoint's as name, its description,
 * its category as tag, its parameters' names and descriptions as input schema and its return
 * example's keys as output schema. Its train split
 * is the learning evaluation's past (toolLensHistory).
 */
function toolLens(dir: string | undefined): Suite | null {
  if (!dir || !existsSync(`${dir}/corpus.jsonl`)) return null;
  const lines = (file: string) =>
    readFileSync(`${dir}/${file}`, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "");
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const catalog = lines("corpus.jsonl").flatMap((line) => {
    const doc = JSON.parse(line) as { _id: string; text: string };
    const m = TOOLLENS_TEXT.exec(doc.text);
    if (!m) return [];
    const [
      ,
      category = "",
      api = "",
      endpoint = "",
      description = "",
      required = "[]",
      optional = "[]",
      returns = "",
    ] = m;
    const namespace = slug(api);
    let name = `${namespace}.${slug(endpoint)}`;
    for (let n = 2; taken.has(name); n++) name = `${namespace}.${slug(endpoint)}_${n}`;
    taken.add(name);
    names.set(doc._id, name);
    const params = (text: string): RapidParam[] => {
      try {
        return JSON.parse(text) as RapidParam[];
      } catch {
        return [];
      }
    };
    const all = [...params(required), ...params(optional)];
    return [
      {
        name,
        namespace,
        description: description.trim() || endpoint,
        tags: category ? [category] : [],
        input_schema: {
          type: "object",
          properties: Object.fromEntries(
            all.map((p) => [p.name, p.description ? { description: p.description.slice(0, 500) } : {}]),
          ),
          required: params(required).map((p) => p.name),
        },
        output_schema: outputSchema(returns),
      },
    ];
  });
  const texts = new Map(
    lines("queries.jsonl").map((line) => {
      const q = JSON.parse(line) as { _id: string; text: string };
      return [q._id, q.text] as const;
    }),
  );
  const split = (file: string) => {
    const expected = new Map<string, string[]>();
    for (const line of lines(file).slice(1)) {
      const [query = "", tool = ""] = line.split("\t");
      const name = names.get(tool);
      if (name) expected.set(query, [...(expected.get(query) ?? []), name]);
    }
    return [...expected].flatMap(([id, tools]) => {
      const query = texts.get(id);
      return query ? [{ id, query, expected: tools }] : [];
    });
  };
  const queries = split("qrels/test.tsv").map(({ query, expected }) => ({
    query,
    expected,
    kind: "toollens",
  }));
  return {
    name: "toollens",
    source: `TOOLLENS_DIR (ToolLens test split, ${catalog.length} RapidAPI endpoints; read in place)`,
    catalog,
    sets: [
      {
        name: "toollens",
        queries: [...queries, ...(existsSync(TOOLLENS_NONE) ? readJsonl(TOOLLENS_NONE) : [])],
      },
    ],
    histories: TOOLLENS_PASTS.map((past) => ({
      source: `ToolLens's train split: ${past.users} people × ${past.requests} requests, none of the test split's sentences`,
      entries: () => toolLensHistory(split("qrels/train.tsv"), queries, past),
    })),
  };
}

/**
 * The pasts the learning evaluation replays on ToolLens: end users × requests each, drawn from its
 * train split (other people's requests for the same endpoints), a smaller tenant and a larger one.
 */
const TOOLLENS_PASTS = [
  { users: 60, requests: 20 },
  { users: 240, requests: 20 },
] as const;

/**
 * `past.users` end users with `past.requests` requests each, spread evenly (by id) over ToolLens's
 * train split, leaving out any sentence the test split also asks (the splits share sentence
 * patterns, and a past must be worded independently of the test set). Read in place, kept in memory.
 */
function toolLensHistory(
  train: readonly { id: string; query: string; expected: string[] }[],
  test: readonly SuiteQuery[],
  past: { users: number; requests: number },
): HistoryEntry[] {
  const key = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  const asked = new Set(test.map((q) => key(q.query)));
  const pool = train.filter((q) => !asked.has(key(q.query))).sort((a, b) => Number(a.id) - Number(b.id));
  const wanted = Math.min(pool.length, past.users * past.requests);
  return Array.from({ length: wanted }, (_, i) => {
    const q = pool[Math.floor((i * pool.length) / wanted)] as (typeof pool)[number];
    return { query: q.query, expected: q.expected, kind: "toollens", user: `toollens-${i % past.users}` };
  });
}

export interface SetFigures {
  set: string;
  tools: number;
  answerable: number;
  none: number;
  r1: number;
  r5: number;
  mrr: number;
  auroc: number | null;
  /** The best BM25 variant's Recall@1 on the set (bench/bm25-baseline.ts), and which it was. */
  bm25: { variant: string; r1: number } | null;
}

/** One row per set and the macro average (each set weighs the same, whatever its size). */
export function suiteTable(rows: readonly SetFigures[]): string {
  const fmt = (n: number | null) => (n === null ? "n/a" : n.toFixed(3));
  const mean = (pick: (r: SetFigures) => number | null) => {
    const values = rows.map(pick).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  };
  return table(
    [
      "set",
      "tools",
      "answerable",
      "no answer",
      "Recall@1",
      "Recall@5",
      "MRR",
      "AUROC",
      "best BM25 R@1",
      "ahead by",
    ],
    [
      ...rows.map((r) => [
        r.set,
        r.tools,
        r.answerable,
        r.none,
        fmt(r.r1),
        fmt(r.r5),
        fmt(r.mrr),
        fmt(r.auroc),
        fmt(r.bm25?.r1 ?? null),
        fmt(r.bm25 ? r.r1 - r.bm25.r1 : null),
      ]),
      [
        "macro average",
        "",
        "",
        "",
        fmt(mean((r) => r.r1)),
        fmt(mean((r) => r.r5)),
        fmt(mean((r) => r.mrr)),
        fmt(mean((r) => r.auroc)),
        fmt(mean((r) => r.bm25?.r1 ?? null)),
        fmt(mean((r) => (r.bm25 ? r.r1 - r.bm25.r1 : null))),
      ],
    ],
  );
}

const RANKS = "bench/search-eval/ranks.json";

/** A query's rank as kept: a number, "miss" (not in the top 10) or "none" (a no-answer query). */
type Kept = number | "miss" | "none";
/**
 * Ranks by a hash of each query: the file must not hold another project's queries (MetaTool's are
 * read in place, never copied), and the text is at hand when ranks are compared.
 */
export type SetRanks = Record<string, Kept>;

/** The key of a query in the ranks file. */
export function queryKey(query: string): string {
  return createHash("sha256").update(query).digest("hex").slice(0, 16);
}

export function kept(rank: number | null): Kept {
  return rank === null ? "none" : Number.isFinite(rank) ? rank : "miss";
}

/**
 * Per set, the queries whose rank changed since the ranks file was written (the previous head's
 * canonical run): how many rose and fell (a table), and the first few of each (for the console only:
 * the results file must not hold another project's queries).
 */
export function rankDiffs(
  current: Record<string, SetRanks>,
  texts: ReadonlyMap<string, string>,
): { table: string; queries: string } {
  if (!existsSync(RANKS))
    return {
      table: "No ranks of a previous head (bench/search-eval/ranks.json): nothing to compare.",
      queries: "",
    };
  const previous = JSON.parse(readFileSync(RANKS, "utf8")) as Record<string, SetRanks>;
  const order = (k: Kept | undefined) => (typeof k === "number" ? k : k === "miss" ? 11 : 0);
  const lines: string[] = [];
  const rows: (string | number)[][] = [];
  for (const [set, ranks] of Object.entries(current)) {
    const before = previous[set];
    if (!before) {
      rows.push([set, "new set", "", ""]);
      continue;
    }
    const changed = Object.entries(ranks).filter(([q, r]) => q in before && before[q] !== r && r !== "none");
    const up = changed.filter(([q, r]) => order(r) < order(before[q]));
    const down = changed.filter(([q, r]) => order(r) > order(before[q]));
    rows.push([set, up.length, down.length, Object.keys(ranks).filter((q) => !(q in before)).length]);
    for (const [q, r] of [...up, ...down].slice(0, 12))
      lines.push(`  ${set}: ${before[q]} → ${r}  ${texts.get(q) ?? q}`);
  }
  return {
    table: table(["set", "queries up", "queries down", "queries new"], rows),
    queries: lines.join("\n"),
  };
}

/** Keeps this head's ranks for the next run to compare with (the canonical run only). */
export function writeRanks(current: Record<string, SetRanks>): void {
  writeFileSync(RANKS, `${JSON.stringify(current, null, 1)}\n`);
}
