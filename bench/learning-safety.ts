// The safety evaluations of learning from use in `npm run bench:search` (issue 27), through the
// worker's public API:
// - poisoning: colluding sessions of one tenant, using only what any end user steering an agent
//   can cause (searches, tool calls, the user's own message), try to lift a tool to the top for
//   requests it does not serve; for each target, the sessions at which it first moves up one rank,
//   enters the top 3 and reaches rank 1;
// - devaluing: colluding sessions teach the requests' words to every other tool instead, so that
//   those words count for less; for each request, the sessions at which a tool that does not serve
//   it takes rank 1;
// - personal data: requests full of it, each used in several sessions; what of it the learning
//   routes (which show everything learning stores) can return;
// - concurrency: 64 sessions teaching at once; merged must equal taught.
// Run alone: `npx tsx bench/learning-safety.ts` (against the worker of the current checkout).
import { readFileSync } from "node:fs";
import { table } from "./harness";
import { type Replay, startReplay } from "./learning-replay";
import { argsFor, type CatalogTool } from "./load-mix";

/** Requests the catalog answers with other tools; the targets serve neither. */
export const ATTACK_QUERIES = ["refund the customer's last payment", "search the web for news"] as const;

/** Targets of every side-effect class; github.delete_repository is added to the catalog for it. */
export const TARGETS = [
  {
    name: "github.delete_repository",
    description: "Delete a GitHub repository. This cannot be undone.",
    namespace: "github",
    side_effects: "write",
  },
  { name: "slack.postMessage" },
  { name: "weather.get_forecast" },
  { name: "k8s.scale-deployment" },
] as const;

const CHECKPOINTS = [1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 40, 48, 49, 50, 56, 64];

interface Outcome {
  target: string;
  side_effects: string;
  query: string;
  cold: number;
  up: number | null;
  top3: number | null;
  first: number | null;
}

/** The target's rank for `query` in a new session (Infinity when not in the top 20). */
async function rank(
  replay: Replay,
  tenant: string,
  catalog: unknown[],
  target: string,
  query: string,
  n: number,
) {
  const sid = `probe-${n}-${crypto.randomUUID()}`;
  await replay.op(tenant, sid, "catalog_sync", { tools: catalog });
  const out = await replay.op<{ tools: { name: string }[] }>(tenant, sid, "tool_search", {
    query,
    limit: 20,
  });
  const i = out.tools.findIndex((t) => t.name === target);
  return i === -1 ? Number.POSITIVE_INFINITY : i + 1;
}

/**
 * One colluding session: three search → use pairs whose searches hold the attack request and the
 * target's own words (so they return the target), then the two new ways words teach: a search of
 * the request alone followed by one that finds the target (a reformulation), and the request as
 * the user's message to context.
 */
async function attackSession(
  replay: Replay,
  tenant: string,
  sid: string,
  catalog: unknown[],
  target: string,
) {
  await replay.op(tenant, sid, "catalog_sync", { tools: catalog });
  const tool = (catalog as CatalogTool[]).find((t) => t.name === target);
  const args = tool ? argsFor(tool) : {};
  const own = nameWords(target);
  const [a, b] = ATTACK_QUERIES;
  // Each pair worded apart ("… 12-0"): a store of whole queries counts distinct ones; words cannot.
  const nonce = sid.replace(/\D/g, "");
  for (const [k, request] of [a, b, a].entries()) {
    await replay.op(tenant, sid, "tool_search", { query: `${request} ${own} ${nonce}-${k}`, limit: 10 });
    await replay.op(tenant, sid, "tool_resolve", { name: target, args });
  }
  await replay.op(tenant, sid, "tool_search", { query: b, limit: 10 });
  await replay.op(tenant, sid, "tool_search", { query: own, limit: 10 });
  await replay.op(tenant, sid, "tool_resolve", { name: target, args });
  await replay.op(tenant, sid, "context", { query: a });
  await replay.op(tenant, sid, "tool_search", { query: `${own} now`, limit: 10 });
  await replay.op(tenant, sid, "tool_resolve", { name: target, args });
}

/**
 * The tools of a small agent drawn from the dev catalog: payments, code hosting, web search,
 * weather, chat and a cluster. In a catalog this size every tool is a search candidate, which is
 * where a store of whole queries was easiest to poison.
 */
export function smallCatalog(catalog: unknown[]): unknown[] {
  const keep = /^(stripe:|github\.|web_search$|search\.news$|weather\.|slack\.|k8s\.)/;
  return (catalog as { name: string }[]).filter((t) => keep.test(t.name));
}

export async function attackEvaluation(
  replay: Replay,
  catalog: unknown[],
  /** The first of four tenants of the replay this evaluation may use (`attack-<n>`). */
  firstTenant = 0,
): Promise<{ outcomes: Outcome[]; table: string }> {
  const tools = [...catalog, TARGETS[0]];
  const byName = new Map((tools as { name: string; side_effects?: string }[]).map((t) => [t.name, t]));
  const outcomes: Outcome[] = [];
  try {
    for (const [i, target] of TARGETS.entries()) {
      const tenant = `attack-${firstTenant + i}`;
      const found = ATTACK_QUERIES.map((query) => ({
        target: target.name,
        side_effects: byName.get(target.name)?.side_effects ?? "read",
        query,
        cold: 0,
        up: null as number | null,
        top3: null as number | null,
        first: null as number | null,
      }));
      for (const o of found) o.cold = await rank(replay, tenant, tools, target.name, o.query, 0);
      let sessions = 0;
      for (const checkpoint of CHECKPOINTS) {
        while (sessions < checkpoint)
          await attackSession(replay, tenant, `attacker-${sessions++}`, tools, target.name);
        await new Promise((resolve) => setTimeout(resolve, 300));
        for (const o of found) {
          const r = await rank(replay, tenant, tools, target.name, o.query, checkpoint);
          if (o.up === null && r < o.cold) o.up = checkpoint;
          if (o.top3 === null && r <= 3) o.top3 = checkpoint;
          if (o.first === null && r === 1) o.first = checkpoint;
        }
        if (found.every((o) => o.first !== null)) break;
      }
      outcomes.push(...found);
    }
  } finally {
    // The caller disposes of the worker.
  }
  const at = (n: number | null) => (n === null ? `> ${CHECKPOINTS.at(-1)}` : String(n));
  const cold = (n: number) => (Number.isFinite(n) ? String(n) : "> 20");
  return {
    outcomes,
    table: table(
      ["target", "side effects", "request", "cold rank", "moves up one rank at", "top 3 at", "rank 1 at"],
      outcomes.map((o) => [
        o.target,
        o.side_effects,
        o.query,
        cold(o.cold),
        at(o.up),
        at(o.top3),
        at(o.first),
      ]),
    ),
  };
}

/** A tool's name as words ("github.create_issue" → "github create issue"). */
function nameWords(name: string): string {
  return name.replace(/[._:-]/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");
}

/** The dev catalog's tools that serve each attack request (search.news serves the second as well). */
const SERVED_BY: Record<(typeof ATTACK_QUERIES)[number], readonly string[]> = {
  "refund the customer's last payment": ["stripe:refund_charge"],
  "search the web for news": ["web_search", "search.news"],
};

/** A devaluing attack on one request: the sessions after which another tool ranks first, and which. */
interface Devalued {
  query: (typeof ATTACK_QUERIES)[number];
  taken: number | null;
  by: string;
}

/**
 * Devaluing: rather than lift a target, colluding sessions teach the attack requests' words to
 * every tool that serves neither (each session uses each such tool after a search of one request
 * and the tool's own words, once per request), so that the words the right tools share with a
 * request would count for less and a tool matching the request's other words would pass them.
 * For each request: the sessions at which a tool that does not serve it first takes rank 1.
 */
export async function devaluingEvaluation(
  replay: Replay,
  catalog: unknown[],
  tenant = "attack-10",
): Promise<{ outcomes: Devalued[]; table: string }> {
  const first = async (query: string, n: number) => {
    const sid = `devalue-probe-${n}-${crypto.randomUUID()}`;
    await replay.op(tenant, sid, "catalog_sync", { tools: catalog });
    const out = await replay.op<{ tools: { name: string }[] }>(tenant, sid, "tool_search", {
      query,
      limit: 5,
    });
    return out.tools[0]?.name ?? "";
  };
  const outcomes: Devalued[] = ATTACK_QUERIES.map((query) => ({ query, taken: null, by: "" }));
  const serving = new Set(Object.values(SERVED_BY).flat());
  const others = (catalog as CatalogTool[]).filter((t) => !serving.has(t.name));
  let sessions = 0;
  for (const checkpoint of [0, ...CHECKPOINTS]) {
    while (sessions < checkpoint) {
      const sid = `devaluer-${sessions++}`;
      await replay.op(tenant, sid, "catalog_sync", { tools: catalog });
      for (const tool of others) {
        for (const request of ATTACK_QUERIES) {
          await replay.op(tenant, sid, "tool_search", {
            query: `${request} ${nameWords(tool.name)}`,
            limit: 10,
          });
          await replay.op(tenant, sid, "tool_resolve", { name: tool.name, args: argsFor(tool) });
        }
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const o of outcomes) {
      if (o.taken !== null) continue;
      const top = await first(o.query, checkpoint);
      if (!SERVED_BY[o.query].includes(top)) [o.taken, o.by] = [checkpoint, top];
    }
    if (outcomes.every((o) => o.taken !== null)) break;
  }
  return {
    outcomes,
    table: table(
      ["request", "served by", "another tool takes rank 1 at", "that tool"],
      outcomes.map((o) => [
        o.query,
        SERVED_BY[o.query].join(", "),
        o.taken === null ? `> ${CHECKPOINTS.at(-1)}` : String(o.taken),
        o.by || "–",
      ]),
    ),
  };
}

/** Requests full of personal data and secrets, each with what must never come back. */
export const PRIVATE_REQUESTS: readonly { request: string; secrets: readonly string[] }[] = [
  {
    request: "refund Jenna Ortiz, card 4111 1111 1111 1111, she was double charged",
    secrets: ["jenna", "ortiz", "4111"],
  },
  { request: "refund card 4111-1111-1111-1111 for the duplicate charge", secrets: ["4111"] },
  { request: "customer ssn 123-45-6789 wants a refund of the charge", secrets: ["123", "6789"] },
  {
    request: "refund to IBAN GB82WEST12345698765432 for the charge",
    secrets: ["iban", "gb82west12345698765432"],
  },
  { request: "refund the charge, iban de89 3704 0044 0532 0130 00", secrets: ["de89", "3704", "iban"] },
  { request: "passport X12345678 holder wants the charge refunded", secrets: ["x12345678"] },
  { request: "call 4155550142 about the refund of the charge", secrets: ["4155550142"] },
  { request: "call +1 (415) 555-0142 about the refund", secrets: ["415", "0142"] },
  { request: "my password is sunshine, refund the charge", secrets: ["sunshine"] },
  {
    request: "password: correct horse battery staple. refund the charge",
    secrets: ["horse", "battery", "staple"],
  },
  {
    request: "refund via https://pay.example/reset/tulip-meadow-orchid for the charge",
    secrets: ["tulip", "meadow", "orchid", "example"],
  },
  { request: "ask maria garcia whether the refund of the charge went out", secrets: ["maria", "garcia"] },
  { request: "refund bob@example.com for the duplicate charge", secrets: ["bob", "example"] },
  { request: "john smith needs the charge refunded", secrets: ["john", "smith"] },
  {
    request: "refund the charge with token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    secrets: ["ghp", "abcdefghijklmnopqrstuvwxyz0123456789"],
  },
  { request: "refund the charge for order 7731-AX at 12 Baker Street", secrets: ["7731", "baker"] },
  { request: "refund priya's charge, her dob is 04/07/1988", secrets: ["priya", "1988"] },
  { request: "refund the charge for account 000123456789", secrets: ["000123456789"] },
];

/**
 * Each private request searched and followed by a use of the refund tool in `copies` sessions
 * (enough for every word to count), then every term the learning routes return for any tool.
 */
export async function privacyEvaluation(replay: Replay, catalog: unknown[], copies = 5) {
  const tenant = "attack-8";
  const target = "stripe:refund_charge";
  const tool = (catalog as CatalogTool[]).find((t) => t.name === target) as CatalogTool;
  let uses = 0;
  for (const { request } of PRIVATE_REQUESTS) {
    for (let i = 0; i < copies; i++) {
      const sid = `private-${uses++}`;
      await replay.op(tenant, sid, "catalog_sync", { tools: catalog });
      await replay.op(tenant, sid, "context", { query: request });
      await replay.op(tenant, sid, "tool_search", { query: request, limit: 10 });
      await replay.op(tenant, sid, "tool_resolve", { name: target, args: argsFor(tool) });
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const stored = await replay.get<{ terms: { term: string }[] }>(
    tenant,
    `/v1/learning/tools/${encodeURIComponent(target)}`,
  );
  const words = new Set(stored.terms.map((t) => t.term));
  const leaked = PRIVATE_REQUESTS.flatMap((r) => r.secrets).filter((s) => words.has(s));
  return { requests: PRIVATE_REQUESTS.length, uses, terms: [...words].sort(), leaked };
}

/** 64 sessions teaching at once: how many uses the tenant merged against how many were taught. */
export async function concurrencyEvaluation(replay: Replay, catalog: unknown[], sessions = 64) {
  const tenant = "attack-9";
  const target = "weather.get_forecast";
  const tool = (catalog as CatalogTool[]).find((t) => t.name === target) as CatalogTool;
  const before = (await replay.get<{ merged: number }>(tenant, "/v1/learning")).merged;
  let taught = 0;
  await Promise.all(
    Array.from({ length: sessions }, async (_, i) => {
      const sid = `concurrent-${i}`;
      await replay.op(tenant, sid, "catalog_sync", { tools: catalog });
      const out = await replay.op<{ tools: { name: string }[] }>(tenant, sid, "tool_search", {
        query: "will I need an umbrella tomorrow",
        limit: 10,
      });
      if (!out.tools.some((t) => t.name === target)) return;
      await replay.op(tenant, sid, "tool_resolve", { name: target, args: argsFor(tool) });
      taught++;
    }),
  );
  let merged = before;
  for (let i = 0; i < 100 && merged - before < taught; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    merged = (await replay.get<{ merged: number }>(tenant, "/v1/learning")).merged;
  }
  return { sessions, taught, merged: merged - before };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const catalog = JSON.parse(readFileSync("bench/search-eval/catalog.json", "utf8")) as unknown[];
  const replay = await startReplay();
  try {
    const { table: t } = await attackEvaluation(replay, catalog);
    console.log(`sessions an attacker needs, dev catalog\n\n${t}`);
    const { table: small } = await attackEvaluation(replay, smallCatalog(catalog), 4);
    console.log(`sessions an attacker needs, a small agent's catalog\n\n${small}`);
    const { table: devalued } = await devaluingEvaluation(replay, smallCatalog(catalog));
    console.log(`sessions a devaluing attack needs, a small agent's catalog\n\n${devalued}`);
    console.log(await privacyEvaluation(replay, catalog));
    console.log(await concurrencyEvaluation(replay, catalog));
  } finally {
    await replay.dispose();
  }
}
