// Trove over a service binding, as a worker of the same account calls it: the auxiliary worker
// test/fixtures/rpc-caller/ binds to the `TroveService` entrypoint (vitest.config.mts) with
// `props.tenant` set per binding, and answers here with what each call gave it. The binding runs
// every operation of the registry, through the same path as REST, for the tenant its props name.
import { env } from "cloudflare:test";
import { describe, expect, expectTypeOf, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/http/app";
import type { TroveService } from "../../src/http/rpc";
import { OPERATIONS } from "../../src/ops/registry";
import { CREATE_ISSUE, EMPTY_FINGERPRINT, GITHUB_SLACK, SEND_MESSAGE } from "../support/fixtures";
import { call, KEY_A, KEY_B, newSid, op } from "../support/http";

type Binding = "TROVE" | "TROVE_B" | "TROVE_NO_TENANT" | "TROVE_BAD_TENANT";

interface Plan {
  binding?: Binding;
  sid: string;
  op: string;
  input?: unknown;
  /** An input only RPC can carry, built by the calling worker (RPC_INPUTS there). */
  rpc_input?: "date" | "bigint" | "cycle";
  /** Extra arguments to `session(sid, …)`. */
  session_args?: unknown[];
  /** Call `op(sid, input)` on the entrypoint itself rather than on a session. */
  direct?: boolean;
}

/** What the call gave the calling worker: its answer, or what it threw (name and message). */
type Outcome = { result: any } | { threw: { name: string; message: string } };

async function viaBinding(plan: Plan): Promise<Outcome> {
  const caller = env.RPC_CALLER;
  if (!caller) throw new Error("RPC_CALLER is bound in the workers project only (vitest.config.mts)");
  const res = await caller.fetch("https://rpc-caller/", {
    method: "POST",
    body: JSON.stringify({ binding: "TROVE", ...plan }),
  });
  return (await res.json()) as Outcome;
}

/** The operation's answer over a binding (tenant-a's unless named); fails the test if it threw. */
async function rpc(sid: string, name: string, input?: unknown, binding: Binding = "TROVE"): Promise<any> {
  const outcome = await viaBinding({ binding, sid, op: name, input });
  if ("threw" in outcome) throw new Error(`${name} threw ${outcome.threw.name}: ${outcome.threw.message}`);
  return outcome.result;
}

async function threw(plan: Plan): Promise<{ name: string; message: string }> {
  const outcome = await viaBinding(plan);
  if (!("threw" in outcome)) throw new Error(`${plan.op} answered ${JSON.stringify(outcome.result)}`);
  return outcome.threw;
}

describe("the service binding", () => {
  it("answers every operation of the registry as REST does, one method each", async () => {
    for (const operation of OPERATIONS) {
      const viaRpc = await rpc(newSid(), operation.name, operation.example.input);
      const viaRest = await op(newSid(), operation.name, operation.example.input, KEY_A);
      const restError = viaRest.status === 200 ? undefined : viaRest.json.error.code;
      expect(
        { ok: viaRpc.ok, status: viaRpc.ok ? 200 : viaRpc.status, code: viaRpc.error?.code },
        operation.name,
      ).toEqual({ ok: viaRest.status === 200, status: viaRest.status, code: restError });
      if (viaRpc.ok) expect(operation.output.safeParse(viaRpc.value).success, operation.name).toBe(true);
    }
  });

  it("reaches the session REST reaches with the same tenant's key under the same sid", async () => {
    const sid = newSid();
    const synced = await rpc(sid, "catalog_sync", { tools: GITHUB_SLACK });
    expect(synced).toMatchObject({ ok: true, value: { added: 3, total: 3 } });

    // REST, with tenant-a's key, sees what the binding wrote; tenant-b's key does not.
    const viewA = await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A);
    expect(viewA.json.catalog).toMatchObject({ tools: 3, fingerprint: synced.value.fingerprint });
    const viewB = await call("GET", `/v1/sessions/${sid}`, undefined, KEY_B);
    expect(viewB.json.catalog).toMatchObject({ tools: 0, fingerprint: EMPTY_FINGERPRINT });

    // And the other way: a tool REST adds is found over the binding, with REST's own answer.
    const merged = await op(sid, "catalog_sync", { tools: [CREATE_ISSUE], mode: "merge" }, KEY_A);
    expect(merged.status).toBe(200);
    const search = { query: "create an issue on github", limit: 5 };
    const found = await rpc(sid, "tool_search", search);
    expect(found.ok).toBe(true);
    expect(found.value.tools[0].name).toBe("github.create_issue");
    expect(found.value).toEqual((await op(sid, "tool_search", search, KEY_A)).json);
  });

  it("for tenant-b sees nothing of tenant-a's session under the same sid", async () => {
    const sid = newSid();
    await rpc(sid, "catalog_sync", { tools: [...GITHUB_SLACK, { ...SEND_MESSAGE, name: "slack.post" }] });

    const searchB = await rpc(sid, "tool_search", { query: "github", search_type: "regex" }, "TROVE_B");
    expect(searchB).toMatchObject({ ok: true, value: { tools: [], total_deferred: 0 } });
    const stateB = await rpc(sid, "session_get", undefined, "TROVE_B");
    expect(stateB.value.catalog).toMatchObject({ tools: 0, fingerprint: EMPTY_FINGERPRINT });

    // tenant-b's writes land in tenant-b's session, which REST shows under key-b only.
    await rpc(sid, "catalog_sync", { tools: [CREATE_ISSUE] }, "TROVE_B");
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_B)).json.catalog.tools).toBe(1);
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A)).json.catalog.tools).toBe(4);
  });

  it("never lets a caller's arguments choose the tenant", async () => {
    const sid = newSid();
    // An extra argument naming a tenant is ignored: the session is still tenant-a's.
    const extra = await viaBinding({
      sid,
      op: "catalog_sync",
      input: { tools: [CREATE_ISSUE] },
      session_args: [{ tenant: "tenant-b" }, "tenant-b"],
    });
    expect(extra).toMatchObject({ result: { ok: true } });
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_A)).json.catalog.tools).toBe(1);
    expect((await call("GET", `/v1/sessions/${sid}`, undefined, KEY_B)).json.catalog.tools).toBe(0);

    // A tenant field in the input is an unknown field, as in REST.
    const field = await rpc(sid, "session_get", { tenant: "tenant-b" });
    expect(field).toMatchObject({ ok: false, status: 400, error: { code: "invalid_input" } });
    expect(field.error.details.field).toBe("tenant");

    // A sid cannot reach into another tenant's namespace: `{tenant}/{sid}` names the object.
    for (const bad of ["tenant-b/s1", "../tenant-b/s1", "", "x".repeat(129)]) {
      const res = await rpc(bad, "session_get");
      expect(res, JSON.stringify(bad)).toMatchObject({
        ok: false,
        status: 400,
        error: { code: "invalid_session_id", details: { field: "sid" } },
      });
    }
  });

  it("refuses a binding whose props name no valid tenant, never defaulting one", async () => {
    for (const binding of ["TROVE_NO_TENANT", "TROVE_BAD_TENANT"] as const) {
      const err = await threw({ binding, sid: newSid(), op: "session_get" });
      expect(err.name, binding).toBe("Error");
      expect(err.message, binding).toMatch(/^trove: this service binding has .*props\.tenant/);
      expect(err.message, binding).toContain('props = { tenant = "<tenant>" }');
    }
  });

  it("answers a bad input with REST's error body and status, as a value", async () => {
    const sid = newSid();
    const cases: [string, unknown][] = [
      ["tool_search", { query: 42 }],
      ["tool_search", {}],
      ["tool_search", { query: "x", limit: 0 }],
      ["tool_activate", { names: ["github.nope"] }],
      ["catalog_sync", { tools: [CREATE_ISSUE, CREATE_ISSUE] }],
      ["skill_get", { names: ["no-such-skill"] }],
    ];
    for (const [name, input] of cases) {
      const viaRpc = await rpc(sid, name, input);
      const viaRest = await op(sid, name, input, KEY_A);
      expect(viaRest.status, name).toBeGreaterThanOrEqual(400);
      // `cost` (rows the session's storage read and wrote) is there when the call reached it.
      const { cost: _, ...answer } = viaRpc as { cost?: unknown };
      expect(answer, name).toEqual({ ok: false, status: viaRest.status, error: viaRest.json.error });
    }
    const bad = await rpc(sid, "tool_search", { query: 42 });
    expect(bad.error).toMatchObject({ code: "invalid_input", details: { field: "query" } });
  });

  it("refuses input nested deeper than REST accepts, naming where", async () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 70; i++) deep = { d: deep };
    const res = await rpc(newSid(), "catalog_sync", { tools: [{ ...CREATE_ISSUE, extra: deep }] });
    expect(res).toMatchObject({
      ok: false,
      status: 400,
      error: { code: "too_deep", details: { limit: 64 } },
    });
    expect(res.error.details.field).toMatch(/^tools\[0\]\.extra(\.d)+$/);
  });

  it("refuses an input over REST's body limit with REST's code", async () => {
    const sid = newSid();
    const input = { query: "x".repeat(MAX_BODY_BYTES) };
    const viaRest = await op(sid, "tool_search", input, KEY_A);
    expect(viaRest.json.error.code).toBe("body_too_large");
    expect(await rpc(sid, "tool_search", input)).toMatchObject({
      ok: false,
      status: viaRest.status,
      error: { code: "body_too_large", details: { field: "input", limit: MAX_BODY_BYTES } },
    });
  });

  it("reads an input as the JSON an HTTP client would have sent", async () => {
    const sid = newSid();
    const outcome = async (rpc_input: Plan["rpc_input"]) => {
      const out = await viaBinding({ sid, op: "tool_search", rpc_input });
      return "result" in out ? out.result : out;
    };
    // A Date is its ISO string, as JSON.stringify writes it.
    expect(await outcome("date")).toMatchObject({ ok: true, value: { query: "1970-01-01T00:00:00.000Z" } });
    expect(await outcome("bigint")).toMatchObject({
      ok: false,
      status: 400,
      error: { code: "invalid_json", details: { field: "input" } },
    });
    // A cycle nests without end: it is refused at REST's depth limit, before any JSON is written.
    expect(await outcome("cycle")).toMatchObject({ ok: false, status: 400, error: { code: "too_deep" } });
  });

  it("has no method but the operations: an unknown name fails in the runtime", async () => {
    const unknown = await threw({ sid: newSid(), op: "no_such_operation", input: {} });
    expect(unknown.name).toBe("TypeError");
    expect(unknown.message).toMatch(/does not implement.*no_such_operation/);
    // Operations are a session's methods, not the entrypoint's.
    const direct = await threw({ sid: newSid(), op: "tool_search", input: { query: "x" }, direct: true });
    expect(direct.message).toMatch(/does not implement.*tool_search/);
  });

  it("gives callers typed methods, inputs and results from the registry", () => {
    // Compile-time: a caller types its binding as Service<TroveService>.
    const use = async (trove: Service<TroveService>) => {
      const session = trove.session("chat-42");
      const found = await session.tool_search({ query: "open a bug" });
      if (found.ok) expectTypeOf(found.value.tools[0]?.name).toEqualTypeOf<string | undefined>();
      else expectTypeOf(found.error.code).toEqualTypeOf<string>();
      await session.session_get(); // every field has a default: no argument needed
      // @ts-expect-error tool_search needs a query
      await session.tool_search({});
      // @ts-expect-error the tenant is the binding's, not an argument
      trove.session("chat-42", { tenant: "tenant-b" });
      // @ts-expect-error no operation of that name
      await session.no_such_operation();
    };
    expectTypeOf(use).toBeFunction();
  });
});
