// Many writers at once on one session, over real HTTP: activations and deactivations, disjoint
// catalog merges, approvals requested then decided (and spent) concurrently, packs attached and
// detached, with reads in between. Nothing acknowledged is lost or duplicated, and the final state
// is the one some sequential order gives: the event log is that order, each acknowledged write has
// its event exactly once, and replaying the events predicts the state.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import type { SessionObject } from "../../src/session-object";
import * as self from "../support/http";
import { newSid } from "../support/http";
import { appCall, appOp, checkStorage, inObject, LONG, quietly, runs } from "./support";

/**
 * How requests reach the worker: SELF.fetch (real HTTP through workerd) for `npm test` and the first
 * long round; the worker's app for later rounds, as SELF.fetch slows with every request a test
 * file makes (cloudflare/workers-sdk#15446). Either way they meet in the same session object.
 */
interface Http {
  op: typeof appOp;
  call: typeof appCall;
}
const SELF_HTTP: Http = {
  op: (sid, name, body, key) => self.op(sid, name, body, key),
  call: (method, path, body, key) => self.call(method, path, body, key),
};
const APP_HTTP: Http = { op: appOp, call: appCall };

const ACT = 24; // act.t0 … act.t23: activated and deactivated
const APPR = 6; // appr.t0 … appr.t5: calls need approval
const BASE = [
  ...Array.from({ length: ACT }, (_, i) => ({ name: `act.t${i}`, description: `Activatable tool ${i}` })),
  ...Array.from({ length: APPR }, (_, i) => ({
    name: `appr.t${i}`,
    description: `Gated tool ${i}`,
    input_schema: { type: "object", properties: { n: { type: "integer" } } },
  })),
];

function packBundle(): Bundle {
  const { bundle, errors } = compilePacks(
    ["alpha", "beta"].map((id) => ({
      path: `${id}/SKILL.md`,
      content: `---\nname: ${id}\ndescription: The ${id} capability pack for concurrency tests.\n---\n# ${id}\nUse it.\n`,
    })),
  );
  expect(errors).toEqual([]);
  return bundle;
}
const BUNDLE = packBundle();

interface Event {
  id: number;
  type: string;
  data: Record<string, unknown>;
}

async function allEvents({ op }: Http, sid: string): Promise<Event[]> {
  const events: Event[] = [];
  let since = 0;
  for (;;) {
    const page = await op(sid, "events", { since, limit: 500 });
    expect(page.status).toBe(200);
    if (page.json.events.length === 0) return events;
    events.push(...page.json.events);
    since = page.json.next_cursor;
  }
}

/** One request of the mix, and what its answer says it did. */
interface Sent {
  name: string;
  body: Record<string, unknown>;
}

const planArb = (size: number) =>
  fc.record({
    activations: fc.array(
      fc.record({
        op: fc.constantFrom("tool_activate", "tool_deactivate"),
        names: fc.uniqueArray(fc.nat({ max: ACT - 1 }), { minLength: 1, maxLength: 3 }),
      }),
      { minLength: size, maxLength: size },
    ),
    batches: fc.integer({ min: 1, max: Math.max(2, size / 4) }),
    batchSize: fc.integer({ min: 1, max: 40 }),
    approvals: fc.integer({ min: 1, max: Math.max(2, size / 4) }),
    packs: fc.array(
      fc.record({
        op: fc.constantFrom("pack_attach", "pack_detach"),
        pack_id: fc.constantFrom("alpha", "beta"),
      }),
      { maxLength: Math.max(4, size / 4) },
    ),
    reads: fc.array(fc.constantFrom("state", "context", "tool_search", "events", "session_get"), {
      maxLength: Math.max(4, size / 4),
    }),
    order: fc.array(fc.nat(), { minLength: 4 * size, maxLength: 4 * size }),
    decisions: fc.array(fc.constantFrom("approve", "deny"), { minLength: 3 * size, maxLength: 3 * size }),
  });

const READ_BODIES: Record<string, Record<string, unknown>> = {
  state: {},
  context: { format: "anthropic" },
  tool_search: { query: "tool" },
  events: {},
  session_get: {},
};

type Plan = ReturnType<typeof planArb> extends fc.Arbitrary<infer T> ? T : never;

async function scenario({ op, call }: Http, plan: Plan): Promise<void> {
  const sid = newSid();
  await inObject(sid, (obj: SessionObject) => {
    obj.bundle = BUNDLE;
  });
  expect((await call("PUT", `/v1/sessions/${sid}`, { policy: { approval: ["appr.*"] } })).status).toBe(200);
  expect((await op(sid, "catalog_sync", { tools: BASE })).status).toBe(200);

  // ── Phase 1: every kind of write at once ──────────────────────────────────────────────────────
  const sent: Sent[] = [
    ...plan.activations.map((a) => ({ name: a.op, body: { names: a.names.map((i) => `act.t${i}`) } })),
    ...Array.from({ length: plan.batches }, (_, b) => ({
      name: "catalog_sync",
      body: {
        mode: "merge",
        tools: Array.from({ length: plan.batchSize }, (_, i) => ({
          name: `batch${b}.t${i}`,
          description: `Merged tool ${i} of batch ${b}`,
        })),
      },
    })),
    ...Array.from({ length: plan.approvals }, (_, i) => ({
      name: "tool_resolve",
      body: { name: `appr.t${i % APPR}`, args: { n: i } },
    })),
    ...plan.packs.map((p) => ({ name: p.op, body: { pack_id: p.pack_id } })),
    ...plan.reads.map((r) => ({ name: r, body: READ_BODIES[r] ?? {} })),
  ];
  const order = sent.map((s, i) => ({ s, k: plan.order[i] ?? i })).sort((a, b) => a.k - b.k);
  const answers = await Promise.all(
    order.map(({ s }) => op(sid, s.name, s.body).then((res) => ({ ...s, res }))),
  );
  for (const a of answers)
    expect(a.res.status, `${a.name} ${JSON.stringify(a.body)}: ${JSON.stringify(a.res.json)}`).toBe(200);

  const events = await allEvents({ op, call }, sid);
  const ids = events.map((e) => e.id);
  for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1] as number);
  const of = (type: string) => events.filter((e) => e.type === type);

  // Activations: per tool, the events alternate (on, off, on …), one per acknowledged change,
  // and the last one says whether it is active now.
  const acked = new Map<string, { on: number; off: number }>();
  const count = (name: string) =>
    acked.get(name) ?? (acked.set(name, { on: 0, off: 0 }).get(name) as { on: number; off: number });
  for (const a of answers) {
    if (a.name === "tool_activate") for (const n of a.res.json.activated) count(n).on++;
    if (a.name === "tool_deactivate") for (const n of a.res.json.deactivated) count(n).off++;
    if (a.name === "tool_resolve" && a.res.json.activated) count(a.res.json.name).on++;
  }
  const lastEvent = new Map<string, string>();
  for (const e of events.filter((e) => e.type === "tool_activated" || e.type === "tool_deactivated")) {
    const name = e.data.tool_name as string;
    expect(lastEvent.get(name) ?? "tool_deactivated", `${name}: two ${e.type} in a row`).not.toBe(e.type);
    lastEvent.set(name, e.type);
  }
  for (const [name, { on, off }] of acked) {
    expect(of("tool_activated").filter((e) => e.data.tool_name === name)).toHaveLength(on);
    expect(of("tool_deactivated").filter((e) => e.data.tool_name === name)).toHaveLength(off);
  }
  const state = (await op(sid, "state", {})).json;
  const active = new Set(state.activations.map((a: { name: string }) => a.name));
  const predicted = new Set([...lastEvent].filter(([, t]) => t === "tool_activated").map(([n]) => n));
  expect(active).toEqual(predicted);

  // Merges: each added its whole batch, and their totals are the running totals of some order.
  const merges = answers.filter((a) => a.name === "catalog_sync");
  for (const m of merges) expect(m.res.json).toMatchObject({ added: plan.batchSize, updated: 0, removed: 0 });
  const totals = merges.map((m) => m.res.json.total).sort((a, b) => a - b);
  expect(totals).toEqual(
    Array.from({ length: plan.batches }, (_, i) => BASE.length + (i + 1) * plan.batchSize),
  );
  const synced = of("catalog_synced").slice(1);
  expect(synced.map((e) => e.data.total)).toEqual(totals);
  expect(state.catalog.tools).toBe(BASE.length + plan.batches * plan.batchSize);

  // Approvals: one new pending approval per gated call, each id unique and evented once.
  const requested = answers
    .filter((a) => a.name === "tool_resolve")
    .map((a) => ({ ...a.res.json, args: a.body.args }));
  for (const r of requested) expect(r.decision).toBe("needs_approval");
  const approvalIds = requested.map((r) => r.approval_id as string);
  expect(new Set(approvalIds).size).toBe(approvalIds.length);
  expect(
    of("approval_requested")
      .map((e) => e.data.approval_id)
      .sort(),
  ).toEqual([...approvalIds].sort());
  expect(state.pending_approvals.map((p: { approval_id: string }) => p.approval_id).sort()).toEqual(
    [...approvalIds].sort(),
  );

  // Packs: attach/detach events alternate per pack, one per change, the last one is the state.
  const packEvents = events.filter((e) => e.type === "pack_attached" || e.type === "pack_detached");
  const packLast = new Map<string, string>();
  for (const e of packEvents) {
    const id = e.data.pack_id as string;
    expect(packLast.get(id) ?? "pack_detached", `${id}: two ${e.type} in a row`).not.toBe(e.type);
    packLast.set(id, e.type);
  }
  for (const kind of ["pack_attach", "pack_detach"] as const) {
    const changed = answers.filter((a) => a.name === kind && a.res.json.changed).length;
    expect(packEvents.filter((e) => e.type === `${kind}ed`)).toHaveLength(changed);
  }
  expect(state.packs.map((p: { pack_id: string }) => p.pack_id).sort()).toEqual(
    [...packLast]
      .filter(([, t]) => t === "pack_attached")
      .map(([id]) => id)
      .sort(),
  );

  // ── Phase 2: every approval decided two or three times at once: exactly one decision wins ─────
  let d = 0;
  const decide = approvalIds.flatMap((id, i) =>
    Array.from({ length: 2 + (i % 2) }, () => ({
      id,
      decision: plan.decisions[d++ % plan.decisions.length] as string,
    })),
  );
  const decided = await Promise.all(
    decide.map((x) =>
      op(sid, "approval_decide", { approval_id: x.id, decision: x.decision }).then((res) => ({ ...x, res })),
    ),
  );
  const winner = new Map<string, string>();
  for (const x of decided) {
    if (x.res.status === 200) {
      expect(winner.has(x.id), `${x.id} decided twice`).toBe(false);
      winner.set(x.id, x.res.json.status);
    } else {
      expect(x.res.status).toBe(409);
      expect(x.res.json.error.code).toBe("approval_already_decided");
    }
  }
  expect([...winner.keys()].sort()).toEqual([...approvalIds].sort());
  const decidedEvents = (await allEvents({ op, call }, sid)).filter((e) => e.type === "approval_decided");
  expect(decidedEvents.map((e) => e.data.approval_id).sort()).toEqual([...approvalIds].sort());
  for (const e of decidedEvents) {
    expect(winner.get(e.data.approval_id as string)).toBe(
      e.data.decision === "approve" ? "approved" : "denied",
    );
  }

  // ── Phase 3: each approval spent twice at once: one call allowed, the other refused ───────────
  const spend = requested.flatMap((r) =>
    [0, 1].map(() => ({
      id: r.approval_id as string,
      body: { name: r.name, args: r.args, approval_id: r.approval_id },
    })),
  );
  const spent = await Promise.all(
    spend.map((x) => op(sid, "tool_resolve", x.body).then((res) => ({ ...x, res }))),
  );
  for (const id of approvalIds) {
    const tries = spent
      .filter((x) => x.id === id)
      .map((x) => `${x.res.status}:${x.res.json.decision ?? x.res.json.error.code}`);
    if (winner.get(id) === "approved") expect(tries.sort()).toEqual(["200:allow", "409:approval_used"]);
    else expect(tries).toEqual(["403:approval_denied", "403:approval_denied"]);
  }

  const stored = await inObject(sid, (obj: SessionObject) => checkStorage(obj));
  const view = (await call("GET", `/v1/sessions/${sid}`)).json;
  expect(view.catalog.tools).toBe(stored.allowed);
}

describe("concurrent writers on one session", () => {
  const ROUNDS = runs(1, 20);
  const SIZE = runs(40, 200);

  it(`${ROUNDS} round(s) of ~${Math.round(SIZE * 1.75)} concurrent requests lose and duplicate nothing`, async () => {
    let round = 0;
    await quietly(() =>
      fc.assert(
        fc.asyncProperty(planArb(SIZE), (plan) => scenario(round++ === 0 ? SELF_HTTP : APP_HTTP, plan)),
        { numRuns: ROUNDS, endOnFailure: true },
      ),
    );
  });

  it(`${runs(4, 40)} sessions written at once do not see each other's writes`, async () => {
    const { op } = LONG ? APP_HTTP : SELF_HTTP;
    const sessions = Array.from({ length: runs(4, 40) }, () => newSid());
    await quietly(() =>
      Promise.all(
        sessions.map(async (sid, s) => {
          const tools = Array.from({ length: 10 }, (_, i) => ({
            name: `s${s}.t${i}`,
            description: `Session ${s}`,
          }));
          await Promise.all(
            [0, 1].map((half) =>
              op(sid, "catalog_sync", { tools: tools.slice(half * 5, half * 5 + 5), mode: "merge" }),
            ),
          );
          await Promise.all(tools.map((t) => op(sid, "tool_activate", { names: [t.name] })));
        }),
      ),
    );
    for (const [s, sid] of sessions.entries()) {
      const state = (await op(sid, "state", {})).json;
      expect(state.catalog.tools).toBe(10);
      expect(state.activations.map((a: { name: string }) => a.name).sort()).toEqual(
        Array.from({ length: 10 }, (_, i) => `s${s}.t${i}`).sort(),
      );
    }
  });
});
