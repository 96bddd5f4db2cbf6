// Faults a live session must survive: its object restarting between and in the middle of requests,
// a deploy of new packs while it is mid-sequence, its alarm firing twice (and racing requests), and
// being touched again after its TTL passed. After each, storage is consistent (FTS5 integrity in
// both forms on tools and skills, counts match) and everything acknowledged before is still there.
import { runDurableObjectAlarm } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Bundle } from "../../src/packs/bundle";
import type { SessionObject } from "../../src/session-object";
import { DEFAULT_CONFIG } from "../../src/state/config";
import { useCorePack } from "../support/core-pack";
import { agentTools, newSid } from "../support/http";
import { V1, V2 } from "./fault-bundles";
import { appCall, appOp, checkStorage, inObject, quietly, restart, runs, stubFor } from "./support";

// Thousands of requests in the long suite: through the worker's app, not SELF.fetch (see appCall).
const call = appCall;
const op = appOp;
type Answer = Awaited<ReturnType<typeof op>>;

const useBundle = (sid: string, bundle: Bundle) =>
  inObject(sid, (obj: SessionObject) => {
    obj.bundle = bundle;
  });

/** Storage is consistent and the answers' counts are storage's (read after a request applied any deploy). */
async function consistent(sid: string) {
  const view = await call("GET", `/v1/sessions/${sid}`);
  expect(view.status).toBe(200);
  const stored = await inObject(sid, (obj: SessionObject) => checkStorage(obj));
  expect(view.json.catalog.tools).toBe(stored.allowed);
  const state = await op(sid, "state", {});
  expect(state.status).toBe(200);
  return { stored, state: state.json };
}

async function allEvents(
  sid: string,
): Promise<{ id: number; type: string; data: Record<string, unknown> }[]> {
  const events = [];
  let since = 0;
  for (;;) {
    const page = await op(sid, "events", { since, limit: 500 });
    expect(page.status).toBe(200);
    if (page.json.events.length === 0) return events;
    events.push(...page.json.events);
    since = page.json.next_cursor;
  }
}

// ── Restarts ─────────────────────────────────────────────────────────────────────────────────────

const BASE = Array.from({ length: 10 }, (_, i) => ({ name: `b.t${i}`, description: `Base tool ${i}` }));
const GATED = Array.from({ length: 3 }, (_, i) => ({ name: `g.t${i}`, description: `Gated tool ${i}` }));
const batch = (n: number) =>
  Array.from({ length: 5 }, (_, i) => ({ name: `f${n}.t${i}`, description: `Batch ${n} tool ${i}` }));
const SKILLS = ["find-tools", "call-deferred-tools"] as const;

type Simple =
  | { k: "merge"; batch: number }
  | { k: "activate" | "deactivate"; i: number }
  | { k: "request"; i: number };
type Step =
  | Simple
  | { k: "decide"; j: number; approve: boolean }
  | { k: "load"; skill: (typeof SKILLS)[number] }
  | { k: "restart" }
  | { k: "burst"; steps: Simple[]; at: number };

const simpleArb: fc.Arbitrary<Simple> = fc.oneof(
  fc.record({ k: fc.constant("merge" as const), batch: fc.nat({ max: 20 }) }),
  fc.record({ k: fc.constantFrom("activate" as const, "deactivate" as const), i: fc.nat({ max: 9 }) }),
  fc.record({ k: fc.constant("request" as const), i: fc.nat({ max: 2 }) }),
);
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: simpleArb },
  {
    weight: 2,
    arbitrary: fc.record({ k: fc.constant("decide" as const), j: fc.nat(), approve: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ k: fc.constant("load" as const), skill: fc.constantFrom(...SKILLS) }) },
  { weight: 2, arbitrary: fc.constant({ k: "restart" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      k: fc.constant("burst" as const),
      // Distinct targets, so every answer can be checked against the state before the burst.
      steps: fc.uniqueArray(simpleArb, {
        minLength: 2,
        maxLength: 12,
        selector: (s) => (s.k === "merge" ? `m${s.batch}` : s.k === "request" ? `r${s.i}` : `a${s.i}`),
      }),
      at: fc.nat({ max: 12 }),
    }),
  },
);

/** What the session should hold: only acknowledged writes, plus what storage says for unknown outcomes. */
class SessionModel {
  catalog = new Set([...BASE, ...GATED].map((t) => t.name));
  active = new Set<string>();
  approvals: { id: string; status: "pending" | "approved" | "denied" }[] = [];
  loaded = new Set<string>();
  /** Acknowledged activations and deactivations per tool (their events must be there, once each). */
  acked = new Map<string, number>();
  /** Tools touched by a request that failed in a restart: their events may or may not be there. */
  unsure = new Map<string, number>();
}

/** Checks one answer against the model (state before it) and applies it. 5xx: outcome unknown. */
function apply(model: SessionModel, step: Simple, res: Answer, unknown: (step: Simple) => void): void {
  if (res.status >= 500) {
    unknown(step);
    return;
  }
  const what = `${JSON.stringify(step)} → ${res.status} ${JSON.stringify(res.json)}`;
  expect(res.status, what).toBe(200);
  switch (step.k) {
    case "merge":
      expect(res.json.added, what).toBe(batch(step.batch).some((t) => model.catalog.has(t.name)) ? 0 : 5);
      for (const t of batch(step.batch)) model.catalog.add(t.name);
      break;
    case "activate": {
      const name = `b.t${step.i}`;
      expect(res.json.activated, what).toEqual(model.active.has(name) ? [] : [name]);
      if (!model.active.has(name)) model.acked.set(name, (model.acked.get(name) ?? 0) + 1);
      model.active.add(name);
      break;
    }
    case "deactivate": {
      const name = `b.t${step.i}`;
      expect(res.json.deactivated, what).toEqual(model.active.has(name) ? [name] : []);
      if (model.active.has(name)) model.acked.set(name, (model.acked.get(name) ?? 0) + 1);
      model.active.delete(name);
      break;
    }
    case "request": {
      // A deferred tool's first use activates it (api.md "tool_resolve").
      const name = `g.t${step.i}`;
      expect(res.json.decision, what).toBe("needs_approval");
      expect(res.json.activated, what).toBe(!model.active.has(name));
      if (!model.active.has(name)) model.acked.set(name, (model.acked.get(name) ?? 0) + 1);
      model.active.add(name);
      model.approvals.push({ id: res.json.approval_id, status: "pending" });
      break;
    }
  }
}

const send = (sid: string, step: Simple): Promise<Answer> => {
  switch (step.k) {
    case "merge":
      return op(sid, "catalog_sync", { tools: batch(step.batch), mode: "merge" });
    case "activate":
      return op(sid, "tool_activate", { names: [`b.t${step.i}`] });
    case "deactivate":
      return op(sid, "tool_deactivate", { names: [`b.t${step.i}`] });
    case "request":
      return op(sid, "tool_resolve", { name: `g.t${step.i}` });
  }
};

/** The model against the session: activations, approvals, catalog, events, storage. */
async function compare(sid: string, model: SessionModel): Promise<void> {
  const { stored, state } = await consistent(sid);
  expect(new Set(state.activations.map((a: { name: string }) => a.name))).toEqual(model.active);
  const pending = model.approvals.filter((a) => a.status === "pending").map((a) => a.id);
  expect(state.pending_approvals.map((a: { approval_id: string }) => a.approval_id).sort()).toEqual(
    pending.sort(),
  );
  expect(stored.tools).toBe(model.catalog.size);
  const events = await allEvents(sid);
  for (const name of new Set([...model.acked.keys(), ...model.unsure.keys()])) {
    const n = events.filter(
      (e) => (e.type === "tool_activated" || e.type === "tool_deactivated") && e.data.tool_name === name,
    ).length;
    expect(n, `events of ${name}`).toBeGreaterThanOrEqual(model.acked.get(name) ?? 0);
    expect(n, `events of ${name}`).toBeLessThanOrEqual(
      (model.acked.get(name) ?? 0) + (model.unsure.get(name) ?? 0),
    );
  }
}

/**
 * A restart that keeps the session on the core pack (it ships off; a new object starts on the
 * build's bundle until the test points it at the pack again, as a deploy would).
 */
async function restartOnCore(sid: string): Promise<void> {
  await restart(sid);
  await useCorePack(sid);
}

async function restartScenario(steps: Step[]): Promise<void> {
  const sid = newSid();
  await useCorePack(sid);
  expect((await call("PUT", `/v1/sessions/${sid}`, { policy: { approval: ["g.*"] } })).status).toBe(200);
  expect((await op(sid, "catalog_sync", { tools: [...BASE, ...GATED] })).status).toBe(200);
  const model = new SessionModel();
  for (const step of steps) {
    switch (step.k) {
      case "restart":
        await restartOnCore(sid);
        await compare(sid, model);
        break;
      case "decide": {
        const target = model.approvals[step.j % Math.max(1, model.approvals.length)];
        if (!target) break;
        const res = await op(sid, "approval_decide", {
          approval_id: target.id,
          decision: step.approve ? "approve" : "deny",
        });
        if (target.status === "pending") {
          expect(res.json.status).toBe(step.approve ? "approved" : "denied");
          target.status = res.json.status;
        } else {
          expect(res.status).toBe(409);
          expect(res.json.error.code).toBe("approval_already_decided");
        }
        break;
      }
      case "load": {
        const res = await op(sid, "skill_load", { name: step.skill });
        expect(res.status).toBe(200);
        expect(res.json.reloaded).toBe(model.loaded.has(step.skill));
        model.loaded.add(step.skill);
        break;
      }
      case "burst": {
        // Every request is on its way before the restart; some land before it, some are cut off.
        const before = { active: new Set(model.active), approvals: model.approvals.length };
        const pending = step.steps.map((s) => send(sid, s));
        const cut = restart(sid);
        pending.splice(
          Math.min(step.at, pending.length),
          0,
          cut.then(() => ({ status: 0, json: null })),
        );
        const answers = (await Promise.all(pending)).filter((a) => a.status !== 0);
        await useCorePack(sid);
        const unknown: Simple[] = [];
        for (const [i, s] of step.steps.entries()) {
          apply(model, s, answers[i] as Answer, (u) => {
            unknown.push(u);
          });
        }
        if (unknown.length > 0) {
          // A request cut off by the restart was applied whole or not at all: adopt what storage says.
          const state = (await op(sid, "state", {})).json;
          const names = new Set(
            (
              await inObject(sid, (obj: SessionObject) =>
                obj.sql.all<{ name: string }>(`SELECT name FROM trove_tools`),
              )
            ).map((r) => r.name),
          );
          for (const u of unknown) {
            if (u.k === "merge") {
              const present = batch(u.batch).filter((t) => names.has(t.name)).length;
              expect([0, 5], `batch ${u.batch} half applied`).toContain(present);
              for (const t of batch(u.batch)) if (present === 5) model.catalog.add(t.name);
            } else if (u.k === "request") {
              const known = new Set(model.approvals.map((a) => a.id));
              const fresh = state.pending_approvals.filter(
                (a: { approval_id: string; name: string }) =>
                  !known.has(a.approval_id) && a.name === `g.t${u.i}`,
              );
              expect(fresh.length).toBeLessThanOrEqual(1);
              for (const a of fresh) model.approvals.push({ id: a.approval_id, status: "pending" });
              const name = `g.t${u.i}`;
              if (state.activations.some((a: { name: string }) => a.name === name)) model.active.add(name);
              model.unsure.set(name, (model.unsure.get(name) ?? 0) + 1);
            } else {
              const name = `b.t${u.i}`;
              const isActive = state.activations.some((a: { name: string }) => a.name === name);
              if (isActive) model.active.add(name);
              else model.active.delete(name);
              model.unsure.set(name, (model.unsure.get(name) ?? 0) + 1);
            }
          }
        }
        expect(model.approvals.length).toBeGreaterThanOrEqual(before.approvals);
        await compare(sid, model);
        break;
      }
      default:
        apply(model, step, await send(sid, step), () => {
          throw new Error(`${JSON.stringify(step)} failed without a restart`);
        });
    }
  }
  await restartOnCore(sid);
  await compare(sid, model);
}

describe("object restarts", () => {
  const RUNS = runs(3, 100);

  it(
    `${RUNS} random sequences with restarts between and during requests keep every acknowledged write`,
    async () => {
      await quietly(() =>
        fc.assert(fc.asyncProperty(fc.array(stepArb, { minLength: 5, maxLength: 25 }), restartScenario), {
          numRuns: RUNS,
          endOnFailure: true,
        }),
      );
    },
    runs(120_000, 3_600_000),
  );
});

// ── Deploys ──────────────────────────────────────────────────────────────────────────────────────

/** A session's sequence with packs, skills and an approval; a deploy of V2 lands before step `at`. */
const SEQUENCE: [string, Record<string, unknown>][] = [
  ["pack_attach", { pack_id: "ops" }],
  ["pack_attach", { pack_id: "legacy" }],
  ["pack_enable_tools", { pack_id: "ops" }],
  ["pack_enable_tools", { pack_id: "legacy" }],
  ["skill_enable", { name: "helper" }],
  ["skill_load", { name: "g1" }],
  ["catalog_sync", { tools: [{ name: "agent.tool", description: "The agent's own tool" }] }],
  ["tool_activate", { names: ["agent.tool"] }],
  ["tool_resolve", { name: "ops__deploy", args: { service: "api" } }],
  ["approval_decide", { decision: "approve" }],
  ["tool_resolve", { name: "ops__deploy", args: { service: "api" } }],
];

/** What step `i` answers when the deploy came first (`after`) or not. */
function expectStep(i: number, after: boolean, res: Answer): void {
  const [name] = SEQUENCE[i] as [string, unknown];
  const what = `${name} (${after ? "after" : "before"} the deploy) → ${res.status} ${JSON.stringify(res.json)}`;
  const gone: Record<string, string> = {
    "1": "unknown_pack",
    "3": "unknown_pack",
    "4": "unknown_skill",
  };
  if (after && gone[String(i)]) {
    expect(res.status, what).toBe(404);
    expect(res.json.error.code, what).toBe(gone[String(i)]);
    return;
  }
  if (i === 3 && !after) {
    expect(
      res.json.tools.map((t: { name: string }) => t.name),
      what,
    ).toEqual(["legacy__old_tool"]);
  }
  expect(res.status, what).toBe(200);
  if (i === 2) {
    expect(
      res.json.tools.map((t: { name: string }) => t.name),
      what,
    ).toEqual(
      after
        ? ["ops__deploy", "ops__rollback", "ops__status"]
        : ["ops__deploy", "ops__rollback", "ops__purge"],
    );
  }
  if (i === 5) expect(res.json.body, what).toContain(after ? "version two" : "version one");
  if (i === 8) expect(res.json.decision, what).toBe("needs_approval");
  if (i === 10) expect(res.json.decision, what).toBe("allow");
}

async function deployScenario({ at, mode }: { at: number; mode: "live" | "restart" }): Promise<void> {
  const sid = newSid();
  await useBundle(sid, V1);
  expect((await call("PUT", `/v1/sessions/${sid}`, { policy: { approval: ["ops__deploy"] } })).status).toBe(
    200,
  );
  let approval = "";
  for (let i = 0; i < SEQUENCE.length; i++) {
    if (i === at) {
      if (mode === "restart") await restart(sid);
      await useBundle(sid, V2);
    }
    const [name, body] = SEQUENCE[i] as [string, Record<string, unknown>];
    const res = await op(sid, name, i === 9 || i === 10 ? { ...body, approval_id: approval } : body);
    expectStep(i, i >= at, res);
    if (i === 8) approval = res.json.approval_id;
  }
  if (at === SEQUENCE.length) {
    if (mode === "restart") await restart(sid);
    await useBundle(sid, V2);
  }

  // Whenever the deploy came, the session now holds exactly what V2 allows.
  const { state } = await consistent(sid);
  expect(state.packs.map((p: { pack_id: string; tools: string[] }) => [p.pack_id, p.tools])).toEqual([
    ["ops", ["ops__deploy", "ops__rollback", "ops__status"]],
  ]);
  expect(state.skills).toEqual([]);
  expect(agentTools(state.visible).sort()).toEqual([
    "agent.tool",
    "ops__deploy",
    "ops__rollback",
    "ops__status",
    "tool_search",
  ]);
  for (const gone of ["legacy__old_tool", "ops__purge", "helper__tidy"]) {
    expect((await op(sid, "tool_resolve", { name: gone })).status, gone).toBe(404);
  }
  const rollback = await op(sid, "tool_resolve", { name: "ops__rollback" });
  expect(rollback.json.tool.description).toBe("Roll a service back (v2)");
  expect(
    (
      await op(sid, "tool_search", {
        query: "purge|old|tidy",
        search_type: "regex",
        include_always_loaded: true,
      })
    ).json.tools,
  ).toEqual([]);
  expect((await op(sid, "skill_get", { names: ["g2"] })).status).toBe(404);
  expect((await op(sid, "skill_get", { names: ["g4"] })).status).toBe(200);
  expect((await op(sid, "skill_get", { names: ["g1"] })).json.skills[0].steps).toEqual([
    "First step of g1 version two",
    "Second step",
  ]);
  const skillNames = (await op(sid, "skill_list", { page_size: 100 })).json.skills.map(
    (s: { name: string }) => s.name,
  );
  expect(skillNames).toEqual(expect.arrayContaining(["g1", "g4"]));
  expect(skillNames).not.toContain("g2");
  expect(skillNames).not.toContain("helper");
  // g1 was loaded in this version when step 5 came after the deploy; otherwise this load is new.
  expect((await op(sid, "skill_load", { name: "g1" })).json.reloaded).toBe(at <= 5);
  const docs = await op(sid, "pack_read_file", { pack_id: "ops", path: "docs/runbook.md" });
  expect(docs.json.content).toContain("Runbook v2");
  const context = await op(sid, "context", { format: "anthropic" });
  expect(context.json.system).toContain("pack_id: ops");
  expect(context.json.system).not.toContain("legacy");

  const events = await allEvents(sid);
  const detached = events.filter((e) => e.type === "pack_detached");
  expect(detached.map((e) => e.data)).toEqual(at > 1 ? [{ pack_id: "legacy", reason: "unavailable" }] : []);
  const disabled = events.filter((e) => e.type === "skill_disabled");
  expect(disabled.map((e) => e.data)).toEqual(at > 4 ? [{ id: "guides/helper", reason: "unavailable" }] : []);
  expect(events.filter((e) => e.type === "approval_decided")).toHaveLength(1);
}

describe("deploys while sessions are live", () => {
  const RUNS = runs(3, 120);

  it(`${RUNS} sessions take a deploy at a random step, live or with a restart, and end in V2's state`, async () => {
    await quietly(() =>
      fc.assert(
        fc.asyncProperty(
          fc.record({
            at: fc.integer({ min: 0, max: SEQUENCE.length }),
            mode: fc.constantFrom("live" as const, "restart" as const),
          }),
          deployScenario,
        ),
        { numRuns: RUNS, endOnFailure: true },
      ),
    );
  });

  it("a deploy in the middle of a burst of requests leaves every answer 200 and the state V2's", async () => {
    for (let round = 0; round < runs(1, 20); round++) {
      const sid = newSid();
      await useBundle(sid, V1);
      for (const [name, body] of SEQUENCE.slice(0, 5)) expect((await op(sid, name, body)).status).toBe(200);
      const tools = Array.from({ length: 20 }, (_, i) => ({
        name: `burst.t${i}`,
        description: `Burst tool ${i}`,
      }));
      expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
      const requests = [
        ...tools.map((t) => () => op(sid, "tool_activate", { names: [t.name] })),
        ...["state", "context", "pack_list", "skill_list", "skill_directory"].map(
          (n) => () => op(sid, n, {}),
        ),
        () => op(sid, "tool_search", { query: "burst tool" }),
        () => op(sid, "skill_search", { query: "routine" }),
      ];
      const at = Math.floor(requests.length / 2) + round;
      const answers = await quietly(() =>
        Promise.all([
          ...requests.slice(0, at).map((r) => r()),
          useBundle(sid, V2).then(() => ({ status: 200, json: null })),
          ...requests.slice(at).map((r) => r()),
        ]),
      );
      for (const a of answers) expect(a.status).toBe(200);
      const { state } = await consistent(sid);
      expect(state.activations).toHaveLength(20);
      expect(state.packs.map((p: { pack_id: string }) => p.pack_id)).toEqual(["ops"]);
      expect(state.skills).toEqual([]);
    }
  });
});

// ── Alarms ───────────────────────────────────────────────────────────────────────────────────────

/** Moves last_seen back, as if the session had been idle that long (the alarm stays where it is). */
const idleFor = (sid: string, ms: number) =>
  inObject(sid, (obj: SessionObject) => {
    obj.sql.run(`UPDATE trove_meta SET value = ? WHERE key = 'last_seen'`, String(Date.now() - ms));
  });

/** A session with something of every kind: catalog, activations (session and run), approval, pack, skill load. */
async function lived(config: Record<string, unknown> = {}): Promise<{ sid: string; approval: string }> {
  const sid = newSid();
  await useBundle(sid, V1);
  const put = await call("PUT", `/v1/sessions/${sid}`, {
    project_id: "stale-project",
    policy: { approval: ["stale.gated"] },
    ...config,
  });
  expect(put.status).toBe(200);
  const tools = [
    { name: "stale.marker_tool", description: "A tool only the old session had" },
    { name: "stale.gated", description: "A gated tool of the old session" },
  ];
  expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
  expect((await op(sid, "tool_activate", { names: ["stale.marker_tool"], run_id: "r1" })).status).toBe(200);
  const gated = await op(sid, "tool_resolve", { name: "stale.gated", run_id: "r1" });
  expect(gated.json.decision).toBe("needs_approval");
  for (const [name, body] of SEQUENCE.slice(0, 5)) expect((await op(sid, name, body)).status).toBe(200);
  expect((await op(sid, "skill_load", { name: "g1" })).json.reloaded).toBe(false);
  return { sid, approval: gated.json.approval_id };
}

describe("the alarm firing twice", () => {
  it("on a live session: twice scheduled, twice by hand, at once with requests: nothing changes", async () => {
    const { sid } = await lived();
    const before = { state: (await op(sid, "state", {})).json, events: await allEvents(sid) };
    const last = before.events.at(-1)?.id ?? 0;
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    await inObject(sid, (obj: SessionObject) => Promise.all([obj.alarm(), obj.alarm()]));
    const answers = await quietly(() =>
      Promise.all([
        op(sid, "state", {}),
        runDurableObjectAlarm(stubFor(sid)).then(() => ({ status: 200 })),
        op(sid, "context", { format: "json", run_id: "r1" }),
        inObject(sid, (obj: SessionObject) => obj.alarm()).then(() => ({ status: 200 })),
        op(sid, "pack_list", {}),
      ]),
    );
    for (const a of answers) expect(a.status).toBe(200);
    const { state } = await consistent(sid);
    expect(state).toEqual(before.state);
    // Reads since may have added their own deferred events (context: skill_directory_rendered).
    expect((await allEvents(sid)).filter((e) => e.id <= last)).toEqual(before.events);
    const alarm = await inObject(sid, async (obj: SessionObject, s) => ({
      at: await s.storage.getAlarm(),
      seen: Number(
        obj.sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'last_seen'`)?.value,
      ),
    }));
    expect(alarm.at).toBe(alarm.seen + DEFAULT_CONFIG.ttl_seconds * 1000);
  });

  it("with an expired run activation: both runs prune it, and keep the session and live ones", async () => {
    const { sid } = await lived({ activation_scope: "run" });
    expect(
      (await op(sid, "tool_activate", { names: ["stale.marker_tool"], run_id: "r2" })).json.activated,
    ).toEqual(["stale.marker_tool"]);
    await inObject(sid, (obj: SessionObject) => {
      obj.sql.run(`UPDATE trove_activations SET expires_at = ? WHERE run_id = 'r1'`, Date.now() - 1_000);
    });
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    const rows = await inObject(sid, (obj: SessionObject) =>
      obj.sql.all(`SELECT tool_name, run_id FROM trove_activations ORDER BY run_id, tool_name`),
    );
    expect(rows).toEqual([{ tool_name: "stale.marker_tool", run_id: "r2" }]);
    const { state } = await consistent(sid);
    expect(state.pending_approvals).toHaveLength(1);
    expect(state.packs.map((p: { pack_id: string }) => p.pack_id)).toEqual(["ops", "legacy"]);
  });

  it("on an idle session: the first erases it, the second (and two more by hand) change nothing", async () => {
    const { sid } = await lived({ ttl_seconds: 120 });
    await idleFor(sid, 121_000);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(false);
    await inObject(sid, (obj: SessionObject) => Promise.all([obj.alarm(), obj.alarm()]));
    const left = await inObject(sid, async (obj: SessionObject, s) => ({
      tables: obj.sql.all(`SELECT name FROM sqlite_master WHERE name LIKE 'trove%'`),
      alarm: await s.storage.getAlarm(),
    }));
    expect(left).toEqual({ tables: [], alarm: null });
  });
});

// ── Expired sessions touched again ───────────────────────────────────────────────────────────────

/** Every read answers as a brand-new session would: nothing of the old one in any answer. */
async function expectFresh(sid: string, approval: string): Promise<void> {
  const seen: string[] = [];
  const read = async (name: string, body: unknown) => {
    const res = await op(sid, name, body);
    seen.push(`${name}: ${JSON.stringify(res.json)}`);
    return res;
  };
  const view = await call("GET", `/v1/sessions/${sid}`);
  seen.push(JSON.stringify(view.json));
  expect(view.json.config).toEqual(DEFAULT_CONFIG);
  expect(view.json.catalog.tools).toBe(0);
  const state = (await read("state", { run_id: "r1" })).json;
  expect(state.activations).toEqual([]);
  expect(state.pending_approvals).toEqual([]);
  expect(state.packs).toEqual([]);
  expect(state.skills).toEqual([]);
  expect((await read("events", {})).json).toEqual({ events: [], next_cursor: 0 });
  for (const format of ["anthropic", "openai", "mcp", "json"])
    await read("context", { format, run_id: "r1" });
  await read("tool_search", { query: "marker tool", include_always_loaded: true });
  await read("tool_search", { query: ".", search_type: "regex", include_always_loaded: true });
  await read("pack_list", {});
  expect((await read("pack_open_docs", { pack_id: "ops" })).status).toBe(409);
  // The old approval is unknown, the old tool does not exist, the skill was never loaded here.
  expect((await op(sid, "approval_decide", { approval_id: approval, decision: "approve" })).status).toBe(404);
  expect((await op(sid, "tool_resolve", { name: "stale.marker_tool" })).status).toBe(404);
  expect((await read("skill_load", { name: "g1" })).json.reloaded).toBe(false);
  const text = seen.join("\n");
  for (const stale of [
    "marker_tool",
    "stale.gated",
    "stale-project",
    approval,
    "ops__deploy",
    "legacy__old_tool",
    "helper__tidy",
  ]) {
    expect(text, `${stale} leaked`).not.toContain(stale);
  }
  await consistent(sid);
}

describe("an expired session touched again", () => {
  it("after the alarm erased it: answers as a fresh session, nothing stale leaks", async () => {
    const { sid, approval } = await lived({ ttl_seconds: 120 });
    await idleFor(sid, 121_000);
    expect(await runDurableObjectAlarm(stubFor(sid))).toBe(true);
    await quietly(() => expectFresh(sid, approval));
  });

  it("before its alarm ran (evicted while idle past the TTL): answers as a fresh session", async () => {
    const { sid, approval } = await lived({ ttl_seconds: 120 });
    await idleFor(sid, 121_000);
    await restart(sid);
    await useBundle(sid, V1);
    await quietly(() => expectFresh(sid, approval));
  });
});
