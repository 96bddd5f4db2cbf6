// The load test's virtual agent: a session set up like a real agent's, then turns in a realistic
// mix (context, tool_search, tool_resolve with approvals, re-syncs, skills, state), each request
// timed and checked by a Recorder that stops starting new ones at its deadline or request cap.
import { type OperationInput, TroveApiError, type TroveSession } from "../packages/client/src/index";
import { evalQueries } from "./catalogs";

import { argsFor, type CatalogTool } from "./sample-args";

export { argsFor, type CatalogTool };

/** Calls a person must approve: about one resolve in six lands on one of these in the dev catalog. */
export const APPROVAL_GLOBS = ["*delete*", "*send*", "*refund*", "*.create_issue", "*merge*"];

/** Patterns a model writes for regex search: most select by name, a few only hit descriptions. */
const REGEX_QUERIES = [
  "^github\\.",
  "issue$",
  "(pull|merge)_request",
  "^slack\\.",
  "logs?",
  "calendar.*event",
  "^(get|list)_",
  "send.*(message|mail)",
  "webhook",
  "s3\\.(get|put)_object",
];

const SKILL_QUERIES = [
  "find a tool for a task",
  "call a deferred tool",
  "tool call rejected invalid arguments",
  "keep the catalog in sync",
  "read the event log",
  "paginate with a cursor",
  "approval needed before running a tool",
];

/** Per request: latencies by operation label, errors by label and status, and a few error samples. */
export class Recorder {
  readonly latencies = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  readonly samples: string[] = [];
  readonly contextTools: number[] = [];
  readonly contextTokens: number[] = [];
  started = 0;
  turns = 0;

  constructor(
    readonly deadline: number,
    readonly maxRequests: number,
  ) {}

  /** True while new requests may start (before the deadline and under the request cap). */
  get open(): boolean {
    return Date.now() < this.deadline && this.started < this.maxRequests;
  }

  /** Runs one request if the budget allows; undefined when it was not sent or failed. */
  async call<T>(label: string, input: unknown, send: () => Promise<T>): Promise<T | undefined> {
    if (!this.open) return undefined;
    this.started++;
    const start = performance.now();
    try {
      const out = await send();
      const ms = performance.now() - start;
      const list = this.latencies.get(label);
      if (list) list.push(ms);
      else this.latencies.set(label, [ms]);
      return out;
    } catch (error) {
      this.fail(label, input, describe(error));
      return undefined;
    }
  }

  /** A 2xx answer that is not what the mix expects also counts as an error. */
  fail(label: string, input: unknown, what: string): void {
    const key = `${label}: ${what.split(":")[0]}`;
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
    if (this.samples.length < 10) this.samples.push(`${label} ${clip(input)} → ${what}`);
  }

  get errorCount(): number {
    return [...this.errors.values()].reduce((a, b) => a + b, 0);
  }
}

function describe(error: unknown): string {
  if (error instanceof TroveApiError) {
    return `${error.status} ${error.code}: ${error.message} ${clip(error.details)}`;
  }
  if (error instanceof Error && error.name === "TimeoutError") return "timeout";
  return `network: ${error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error)}`;
}

const clip = (value: unknown) => JSON.stringify(value)?.slice(0, 300) ?? "";

/** A small seeded PRNG (mulberry32): the same seed gives the same mix. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const pick = <T>(items: readonly T[], random: () => number): T =>
  items[Math.floor(random() * items.length)] as T;

export interface Agent {
  session: TroveSession;
  catalog: CatalogTool[];
  byName: Map<string, CatalogTool>;
  scope: "session" | "run";
}

/** What an agent does once: configure its session (approval globs, scope) and sync its catalog. */
export async function setUp(rec: Recorder, agent: Agent): Promise<boolean> {
  const config = { activation_scope: agent.scope, policy: { approval: APPROVAL_GLOBS } };
  if (!(await rec.call("session_configure", config, () => agent.session.session_configure(config)))) {
    return false;
  }
  const synced = await rec.call("catalog_sync (cold)", "(catalog)", () =>
    agent.session.catalog_sync({ tools: agent.catalog }),
  );
  return synced !== undefined;
}

/** Turns until the recorder closes; `seed` fixes the mix, `runPrefix` names its runs. */
export async function runTurns(rec: Recorder, agent: Agent, seed: number, runPrefix: string): Promise<void> {
  const random = rng(seed);
  for (let turn = 0; rec.open; turn++) {
    // A run is one conversation of about five turns: run-scoped activations last that long.
    const runId = `${runPrefix}-${Math.floor(turn / 5)}`;
    if (await oneTurn(rec, agent, random, runId)) rec.turns++;
  }
}

async function oneTurn(rec: Recorder, agent: Agent, random: () => number, runId: string): Promise<boolean> {
  const s = agent.session;
  const userMessage = pick(evalQueries, random);
  if (!(await context(rec, s, random() < 0.3 ? { query: userMessage, run_id: runId } : { run_id: runId }))) {
    return false;
  }

  // The model searches: in its own words mostly, sometimes by pattern or by a name it knows.
  const r = random();
  const search: OperationInput<"tool_search"> =
    r < 0.8
      ? { query: userMessage }
      : r < 0.9
        ? { query: pick(REGEX_QUERIES, random), search_type: "regex" }
        : { query: pick(agent.catalog, random).name, search_type: "exact" };
  if (random() < 0.5) search.format = "anthropic";
  const label = `tool_search ${search.search_type ?? "fts"}`;
  const found = await rec.call(label, search, () => s.tool_search(search));
  if (!found) return false;

  // It calls one of the first hits, by the provider name when it got tool_references.
  if (found.tools.length > 0 && random() < 0.8) {
    const i = Math.floor(random() * Math.min(3, found.tools.length));
    const hit = found.tools[i];
    const tool = hit && agent.byName.get(hit.name);
    if (!hit || !tool) {
      rec.fail(label, search, `unexpected: result ${hit?.name} is not in the catalog`);
      return false;
    }
    const call = {
      name: found.tool_references?.[i]?.tool_name ?? hit.name,
      args: argsFor(tool),
      run_id: runId,
    };
    if (!(await resolve(rec, s, call))) return false;
    if (!(await context(rec, s, { run_id: runId }))) return false; // the model's next request
  }

  if (random() < 0.1) {
    // The agent re-sends its whole catalog (unchanged): the digest fast path.
    const synced = await rec.call("catalog_sync (identical)", "(catalog)", () =>
      s.catalog_sync({ tools: agent.catalog }),
    );
    if (synced && synced.added + synced.updated + synced.removed > 0) {
      rec.fail("catalog_sync (identical)", "(catalog)", `unexpected: ${clip(synced)}`);
    }
  }
  if (random() < 0.1) {
    const input = { query: pick(SKILL_QUERIES, random) };
    const skills = await rec.call("skill_search", input, () => s.skill_search(input));
    const top = skills?.skills[0];
    if (top && random() < 0.5)
      await rec.call("skill_load", { name: top.id }, () => s.skill_load({ name: top.id }));
  }
  if (random() < 0.03) await rec.call("state", { run_id: runId }, () => s.state({ run_id: runId }));
  return true;
}

async function context(
  rec: Recorder,
  s: TroveSession,
  input: { run_id: string; query?: string },
): Promise<boolean> {
  const full = { ...input, format: "anthropic" as const };
  const ctx = await rec.call(input.query ? "context (query)" : "context", full, () => s.context(full));
  if (!ctx) return false;
  rec.contextTools.push(ctx.tools.length);
  rec.contextTokens.push(ctx.token_estimate.total);
  return true;
}

/** tool_resolve; a gated call is approved by "a person" and resolved again with the approval. */
async function resolve(
  rec: Recorder,
  s: TroveSession,
  call: { name: string; args: Record<string, unknown>; run_id: string },
): Promise<boolean> {
  const first = await rec.call("tool_resolve", call, () => s.tool_resolve(call));
  if (!first) return false;
  if (first.decision === "allow") return true;
  const approvalId = first.approval_id;
  if (!approvalId) {
    rec.fail("tool_resolve", call, `unexpected: needs_approval without approval_id`);
    return false;
  }
  const decision = { approval_id: approvalId, decision: "approve" as const, by: "load-test" };
  if (!(await rec.call("approval_decide", decision, () => s.approval_decide(decision)))) return false;
  const approved = { ...call, approval_id: approvalId };
  const second = await rec.call("tool_resolve (approved)", approved, () => s.tool_resolve(approved));
  if (second && second.decision !== "allow") {
    rec.fail("tool_resolve (approved)", approved, `unexpected: ${second.decision}`);
  }
  return second?.decision === "allow";
}
