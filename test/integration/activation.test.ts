// Activation over HTTP: deferred tools become visible on first use or explicitly, per session or per
// run; unknown and denied names are indistinguishable; arguments are checked; state survives restarts.
import { runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GITHUB_SLACK, ISSUE_SCHEMA, WEATHER_NOW, WIPE_DISK } from "../support/fixtures";
import { agentTools, call, KEY_A, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const stubFor = (sid: string) => sessionStub(sid);

const CATALOG = [...GITHUB_SLACK, WEATHER_NOW, WIPE_DISK];

async function seeded(config?: Record<string, unknown>, tools: unknown[] = CATALOG): Promise<string> {
  const sid = newSid();
  if (config) expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
  expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
  return sid;
}

/** Names in a json-format context, in order. */
async function contextNames(sid: string, runId?: string): Promise<string[]> {
  const res = await op(sid, "context", runId ? { format: "json", run_id: runId } : { format: "json" });
  expect(res.status).toBe(200);
  return agentTools(res.json.tools.map((t: { name: string }) => t.name));
}

async function allEvents(sid: string): Promise<any[]> {
  const res = await op(sid, "events", { since: 0, limit: 500 });
  expect(res.status).toBe(200);
  return res.json.events;
}

async function state(sid: string, runId?: string): Promise<any> {
  const res = await op(sid, "state", runId ? { run_id: runId } : {});
  expect(res.status).toBe(200);
  return { ...res.json, visible: agentTools(res.json.visible) };
}

/** The raw response text of an operation, for byte-for-byte comparisons. */
async function rawOp(sid: string, name: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await SELF.fetch(`https://trove.test/v1/sessions/${sid}/${name}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY_A}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe("first use activation through tool_resolve", () => {
  it("a deferred tool is absent from context until tool_resolve activates it, then present in the next context", async () => {
    const sid = await seeded();
    expect(await contextNames(sid)).toEqual(["tool_search", "weather.now"]);

    const res = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: { repo: "acme/web", title: "Login fails" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      decision: "allow",
      name: "github.create_issue",
      provider_name: "github_create_issue",
      activated: true,
    });
    expect(res.json.approval_id).toBeUndefined();
    expect(res.json.tool).toMatchObject({
      name: "github.create_issue",
      provider_name: "github_create_issue",
      input_schema: ISSUE_SCHEMA,
    });

    expect(await contextNames(sid)).toEqual(["tool_search", "github.create_issue", "weather.now"]);
    const activated = (await allEvents(sid)).filter((e) => e.type === "tool_activated");
    expect(activated.map((e) => e.data)).toEqual([
      {
        tool_name: "github.create_issue",
        activation_scope: "session",
        source: "first_use",
        reason: null,
        run_id: null,
      },
    ]);
    expect((await state(sid)).activations).toEqual([
      expect.objectContaining({
        name: "github.create_issue",
        scope: "session",
        run_id: null,
        source: "first_use",
        reason: null,
        expires_at: null,
      }),
    ]);
  });

  it("resolving an already active tool activates nothing and records no second event", async () => {
    const sid = await seeded();
    expect((await op(sid, "tool_resolve", { name: "github.list_repos" })).json.activated).toBe(true);
    const again = await op(sid, "tool_resolve", { name: "github.list_repos" });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ decision: "allow", activated: false });
    expect((await allEvents(sid)).filter((e) => e.type === "tool_activated")).toHaveLength(1);
  });

  it("resolving an always-loaded tool allows it without writing an activation", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_resolve", { name: "weather.now" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ decision: "allow", name: "weather.now", activated: false });
    expect((await state(sid)).activations).toEqual([]);
    expect((await allEvents(sid)).filter((e) => e.type === "tool_activated")).toEqual([]);
  });
});

describe("explicit tool_activate and tool_deactivate", () => {
  it("tool_activate makes a deferred tool visible with source explicit and its reason", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_activate", {
      names: ["github.list_repos", "weather.now"],
      reason: "user asked about repos",
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ activated: ["github.list_repos"], already_visible: ["weather.now"] });
    expect(await contextNames(sid)).toEqual(["tool_search", "github.list_repos", "weather.now"]);

    const st = await state(sid);
    expect(st.visible).toEqual(["tool_search", "github.list_repos", "weather.now"]);
    expect(st.activations).toEqual([
      {
        name: "github.list_repos",
        scope: "session",
        run_id: null,
        source: "explicit",
        reason: "user asked about repos",
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        expires_at: null,
      },
    ]);
    const events = (await allEvents(sid)).filter((e) => e.type === "tool_activated");
    expect(events.map((e) => e.data)).toEqual([
      {
        tool_name: "github.list_repos",
        activation_scope: "session",
        source: "explicit",
        reason: "user asked about repos",
        run_id: null,
      },
    ]);
  });

  it("activating an active tool again reports it as already visible", async () => {
    const sid = await seeded();
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    const res = await op(sid, "tool_activate", { names: ["github.list_repos"] });
    expect(res.json).toEqual({ activated: [], already_visible: ["github.list_repos"] });
    expect((await allEvents(sid)).filter((e) => e.type === "tool_activated")).toHaveLength(1);
  });

  it("tool_deactivate hides the tool again and records tool_deactivated once", async () => {
    const sid = await seeded();
    await op(sid, "tool_activate", { names: ["github.list_repos", "slack.send_message"] });
    const res = await op(sid, "tool_deactivate", { names: ["github.list_repos"] });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ deactivated: ["github.list_repos"] });
    expect(await contextNames(sid)).toEqual(["tool_search", "slack.send_message", "weather.now"]);
    expect((await state(sid)).activations.map((a: any) => a.name)).toEqual(["slack.send_message"]);

    const second = await op(sid, "tool_deactivate", { names: ["github.list_repos"] });
    expect(second.json).toEqual({ deactivated: [] });
    const deactivated = (await allEvents(sid)).filter((e) => e.type === "tool_deactivated");
    expect(deactivated.map((e) => e.data)).toEqual([{ tool_name: "github.list_repos", run_id: null }]);
  });

  it("a batch with one unknown name activates none of the others", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_activate", { names: ["github.list_repos", "nope.missing"] });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("unknown_tool");
    expect((await state(sid)).activations).toEqual([]);
    expect(await contextNames(sid)).toEqual(["tool_search", "weather.now"]);
    expect((await allEvents(sid)).filter((e) => e.type === "tool_activated")).toEqual([]);
  });

  it("a removed tool loses its activation", async () => {
    const sid = await seeded();
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    const without = CATALOG.filter((t) => t.name !== "github.list_repos");
    expect((await op(sid, "catalog_sync", { tools: without })).json.removed).toBe(1);
    expect((await state(sid)).activations).toEqual([]);
    expect(await contextNames(sid)).toEqual(["tool_search", "weather.now"]);
  });
});

describe("run-scoped activation", () => {
  const RUN = { activation_scope: "run" } as const;

  it("tool_activate without run_id fails with 400 run_id_required and writes nothing", async () => {
    const sid = await seeded(RUN);
    const res = await op(sid, "tool_activate", { names: ["github.list_repos"] });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      error: {
        code: "run_id_required",
        message: "this session activates tools per run: send run_id",
        details: { field: "run_id" },
      },
    });
    expect((await state(sid)).activations).toEqual([]);
    expect(await contextNames(sid)).toEqual(["tool_search", "weather.now"]);
  });

  it("tool_resolve without run_id fails with 400 run_id_required and activates nothing", async () => {
    const sid = await seeded(RUN);
    const res = await op(sid, "tool_resolve", { name: "github.list_repos" });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("run_id_required");
    expect(res.json.error.details).toEqual({ field: "run_id" });
    expect((await state(sid)).activations).toEqual([]);
    expect(await contextNames(sid, "run-1")).toEqual(["tool_search", "weather.now"]);
  });

  it("a refused activation records tool_activation_denied without any tool name", async () => {
    const sid = await seeded(RUN);
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    await op(sid, "tool_resolve", { name: "slack.send_message" });
    const events = await allEvents(sid);
    const denied = events.filter((e) => e.type === "tool_activation_denied");
    expect(denied.map((e) => e.data)).toEqual([{ reason: "run_id_required" }, { reason: "run_id_required" }]);
    expect(events.filter((e) => e.type === "tool_activated")).toEqual([]);
    const text = JSON.stringify(denied);
    for (const fragment of ["github", "list_repos", "slack", "send_message"]) {
      expect(text).not.toContain(fragment);
    }
  });

  it("with run_id, the tool is visible only to context requests carrying that run_id", async () => {
    const sid = await seeded(RUN);
    const before = Date.now();
    const res = await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "run-1" });
    expect(res.json).toEqual({ activated: ["github.list_repos"], already_visible: [] });
    await op(sid, "tool_resolve", { name: "slack.send_message", run_id: "run-2" });

    expect(await contextNames(sid, "run-1")).toEqual(["tool_search", "github.list_repos", "weather.now"]);
    expect(await contextNames(sid, "run-2")).toEqual(["tool_search", "slack.send_message", "weather.now"]);
    expect(await contextNames(sid, "run-3")).toEqual(["tool_search", "weather.now"]);
    expect(await contextNames(sid)).toEqual(["tool_search", "weather.now"]);
    expect((await state(sid, "run-1")).visible).toEqual(["tool_search", "github.list_repos", "weather.now"]);

    const activations = (await state(sid)).activations;
    expect(activations).toHaveLength(2);
    const run1 = activations.find((a: any) => a.run_id === "run-1");
    expect(run1).toMatchObject({ name: "github.list_repos", scope: "run", source: "explicit" });
    const expires = Date.parse(run1.expires_at) - Date.parse(run1.at);
    expect(expires).toBe(3_600_000);
    expect(Date.parse(run1.at)).toBeGreaterThanOrEqual(before - 1000);
    const events = (await allEvents(sid)).filter((e) => e.type === "tool_activated");
    expect(events.map((e) => e.data)).toEqual([
      {
        tool_name: "github.list_repos",
        activation_scope: "run",
        source: "explicit",
        reason: null,
        run_id: "run-1",
      },
      {
        tool_name: "slack.send_message",
        activation_scope: "run",
        source: "first_use",
        reason: null,
        run_id: "run-2",
      },
    ]);
  });

  it("the same tool activates separately for each run", async () => {
    const sid = await seeded(RUN);
    for (const run of ["run-1", "run-2"]) {
      const res = await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: run });
      expect(res.json).toEqual({ activated: ["github.list_repos"], already_visible: [] });
    }
    const again = await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "run-1" });
    expect(again.json).toEqual({ activated: [], already_visible: ["github.list_repos"] });
    expect((await state(sid)).activations.map((a: any) => a.run_id).sort()).toEqual(["run-1", "run-2"]);
  });

  it("tool_deactivate with run_id removes only that run's activation", async () => {
    const sid = await seeded(RUN);
    await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "run-1" });
    await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "run-2" });
    const res = await op(sid, "tool_deactivate", { names: ["github.list_repos"], run_id: "run-1" });
    expect(res.json).toEqual({ deactivated: ["github.list_repos"] });
    expect(await contextNames(sid, "run-1")).toEqual(["tool_search", "weather.now"]);
    expect(await contextNames(sid, "run-2")).toEqual(["tool_search", "github.list_repos", "weather.now"]);
  });

  it("session-scoped activations still show in every run after switching to run scope", async () => {
    const sid = await seeded();
    await op(sid, "tool_activate", { names: ["github.list_repos"] });
    expect((await call("PUT", `/v1/sessions/${sid}`, RUN)).status).toBe(200);
    expect(await contextNames(sid, "run-9")).toEqual(["tool_search", "github.list_repos", "weather.now"]);
  });
});

describe("unknown and denied names", () => {
  const DENY = { policy: { deny: ["secret.*"] } };
  const NEVER = "nothing.ever_here";

  /** Replaces the requested name so bodies for different names can be compared byte for byte. */
  const masked = (text: string, name: string) => text.replaceAll(JSON.stringify(name).slice(1, -1), "<NAME>");

  it("unknown, denied and never-existing names give byte-identical 404 unknown_tool bodies", async () => {
    const sid = await seeded(DENY);
    // github.list_repos existed once and was removed; secret.wipe_disk is denied; NEVER never existed.
    const without = CATALOG.filter((t) => t.name !== "github.list_repos");
    expect((await op(sid, "catalog_sync", { tools: without })).json.removed).toBe(1);
    const names = ["github.list_repos", "secret.wipe_disk", "secret_wipe_disk", NEVER];
    for (const [opName, body] of [
      ["tool_resolve", (name: string) => ({ name })],
      ["tool_resolve", (name: string) => ({ name, args: { any: 1 } })],
      ["tool_activate", (name: string) => ({ names: [name] })],
      ["tool_deactivate", (name: string) => ({ names: [name] })],
    ] as const) {
      const bodies = new Set<string>();
      for (const name of names) {
        const res = await rawOp(sid, opName, body(name));
        expect(res.status).toBe(404);
        expect(JSON.parse(res.text)).toEqual({
          error: {
            code: "unknown_tool",
            message: `no tool named "${name}" is available`,
            details: { field: "name" },
          },
        });
        bodies.add(masked(res.text, name));
      }
      expect([...bodies]).toHaveLength(1);
    }
  });

  it("each refusal records the same tool_activation_denied event, with no name in it", async () => {
    const sid = await seeded(DENY);
    for (const name of ["secret.wipe_disk", NEVER]) {
      expect((await op(sid, "tool_resolve", { name })).status).toBe(404);
    }
    const events = (await allEvents(sid)).filter((e) => e.type !== "catalog_synced");
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["tool_activation_denied", { reason: "unknown_or_not_allowed" }],
      ["tool_activation_denied", { reason: "unknown_or_not_allowed" }],
    ]);
  });

  it("a tool denied after activation disappears from context and cannot be resolved", async () => {
    const sid = await seeded();
    await op(sid, "tool_activate", { names: ["secret.wipe_disk"] });
    expect(await contextNames(sid)).toContain("secret.wipe_disk");
    expect((await call("PUT", `/v1/sessions/${sid}`, DENY)).status).toBe(200);
    expect(await contextNames(sid)).toEqual(["tool_search", "weather.now"]);
    const res = await op(sid, "tool_resolve", { name: "secret.wipe_disk" });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("unknown_tool");
  });
});

describe("argument validation", () => {
  it("args that violate input_schema give 422 invalid_arguments listing each violation, and activate nothing", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: { repo: "not-a-repo", labels: ["ok", 3] },
    });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("invalid_arguments");
    expect(res.json.error.message).toBe("arguments do not match the tool's input_schema");
    expect(res.json.error.details.field).toBe("args");
    const violations = res.json.error.details.violations;
    expect(violations).toHaveLength(3);
    expect(violations).toEqual(
      expect.arrayContaining([
        { path: "/", keyword: "required", message: expect.stringContaining('"title"') },
        { path: "/repo", keyword: "pattern", message: expect.any(String) },
        { path: "/labels/1", keyword: "type", message: expect.stringContaining("string") },
      ]),
    );

    expect((await state(sid)).activations).toEqual([]);
    expect(await contextNames(sid)).toEqual(["tool_search", "weather.now"]);
    expect((await allEvents(sid)).filter((e) => e.type === "tool_activated")).toEqual([]);
  });

  it("valid args are allowed and a tool without input_schema accepts any args", async () => {
    const sid = await seeded();
    const ok = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: { repo: "acme/web", title: "Login fails", labels: ["bug"] },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.decision).toBe("allow");
    const free = await op(sid, "tool_resolve", { name: "github.list_repos", args: { anything: [1, 2] } });
    expect(free.status).toBe(200);
    expect(free.json.decision).toBe("allow");
  });

  it("invalid args on an already active tool leave the activation in place", async () => {
    const sid = await seeded();
    await op(sid, "tool_activate", { names: ["github.create_issue"] });
    const res = await op(sid, "tool_resolve", { name: "github.create_issue", args: { repo: 1 } });
    expect(res.status).toBe(422);
    expect((await state(sid)).activations.map((a: any) => a.name)).toEqual(["github.create_issue"]);
  });
});

describe("names and provider names", () => {
  it("tool_resolve accepts the provider name and answers with both names", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_resolve", {
      name: "github_create_issue",
      args: { repo: "acme/web", title: "x" },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      decision: "allow",
      name: "github.create_issue",
      provider_name: "github_create_issue",
      activated: true,
    });
    // The Trove name now finds it active.
    const again = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: { repo: "acme/web", title: "x" },
    });
    expect(again.json.activated).toBe(false);
  });

  it("tool_activate and tool_deactivate accept the provider name and report the Trove name", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_activate", { names: ["slack_send_message"] });
    expect(res.json).toEqual({ activated: ["slack.send_message"], already_visible: [] });
    const both = await op(sid, "tool_activate", { names: ["slack.send_message"] });
    expect(both.json).toEqual({ activated: [], already_visible: ["slack.send_message"] });
    expect(await contextNames(sid)).toEqual(["tool_search", "slack.send_message", "weather.now"]);
    const off = await op(sid, "tool_deactivate", { names: ["slack_send_message"] });
    expect(off.json).toEqual({ deactivated: ["slack.send_message"] });
  });
});

describe("concurrency and restarts", () => {
  it("100 concurrent tool_activate calls for 100 tools all land, with exactly 100 tool_activated events", async () => {
    const tools = Array.from({ length: 100 }, (_, i) => ({
      name: `bulk.tool_${String(i).padStart(3, "0")}`,
      description: `Bulk tool number ${i}`,
    }));
    const sid = await seeded(undefined, tools);
    const results = await Promise.all(
      tools.map((t) => op(sid, "tool_activate", { names: [t.name], reason: "parallel" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(100).fill(200));
    for (const [i, r] of results.entries()) {
      expect(r.json).toEqual({ activated: [tools[i]?.name], already_visible: [] });
    }
    const st = await state(sid);
    expect(st.activations.map((a: any) => a.name).sort()).toEqual(tools.map((t) => t.name));
    const activated = (await allEvents(sid)).filter((e) => e.type === "tool_activated");
    expect(activated).toHaveLength(100);
    expect(new Set(activated.map((e) => e.data.tool_name)).size).toBe(100);
    expect((await allEvents(sid)).filter((e) => e.type === "tool_activation_denied")).toEqual([]);
  });

  it("ten concurrent first uses of one tool activate it exactly once", async () => {
    const sid = await seeded();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => op(sid, "tool_resolve", { name: "github.list_repos" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.json.activated === true)).toHaveLength(1);
    expect((await allEvents(sid)).filter((e) => e.type === "tool_activated")).toHaveLength(1);
    expect((await state(sid)).activations).toHaveLength(1);
  });

  it("config, catalog, activations and approvals survive the object being restarted", async () => {
    const sid = await seeded({
      activation_scope: "run",
      policy: { approval: ["github.create_*"] },
      run_activation_ttl_seconds: 600,
    });
    await op(sid, "tool_activate", { names: ["github.list_repos"], run_id: "run-1", reason: "kept" });
    const pending = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: { repo: "acme/web", title: "x" },
      run_id: "run-1",
    });
    expect(pending.json.decision).toBe("needs_approval");
    const before = await state(sid, "run-1");
    const eventsBefore = await allEvents(sid);
    const contextBefore = await op(sid, "context", { format: "anthropic", run_id: "run-1" });

    const stub = stubFor(sid);
    await runInDurableObject(stub, (obj) => {
      (obj as unknown as { marker?: number }).marker = 1;
    });
    await expect(
      runInDurableObject(stub, (_obj, ctx) => {
        ctx.abort("restart for the test");
      }),
    ).rejects.toThrow();

    // A new instance: the in-memory marker is gone, the stored state is not.
    await runInDurableObject(stubFor(sid), (obj) => {
      expect((obj as unknown as { marker?: number }).marker).toBeUndefined();
    });
    expect(await state(sid, "run-1")).toEqual(before);
    expect(await allEvents(sid)).toEqual(eventsBefore);
    expect((await op(sid, "context", { format: "anthropic", run_id: "run-1" })).json).toEqual(
      contextBefore.json,
    );
    const approve = await op(sid, "approval_decide", {
      approval_id: pending.json.approval_id,
      decision: "approve",
    });
    expect(approve.status).toBe(200);
    const allowed = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: { repo: "acme/web", title: "x" },
      run_id: "run-1",
      approval_id: pending.json.approval_id,
    });
    expect(allowed.json.decision).toBe("allow");
  });
});
