// Approvals over HTTP: policy.approval gates tool calls behind a person's decision; an approval is
// bound to one tool, one set of arguments and one run, and allows exactly one call.
import { describe, expect, it } from "vitest";
import { CREATE_ISSUE, CREATE_PR, LIST_REPOS, SEND_MESSAGE } from "../support/fixtures";
import { agentTools, call, newSid, op } from "../support/http";

const CATALOG = [CREATE_ISSUE, CREATE_PR, LIST_REPOS, SEND_MESSAGE];

const CONFIG = { policy: { approval: ["github.create_*"] } };
const ARGS = { repo: "acme/web", title: "Login fails" };
const APPROVAL_ID = /^apr_[0-9a-f]{32}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function seeded(config: Record<string, unknown> = CONFIG): Promise<string> {
  const sid = newSid();
  expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
  expect((await op(sid, "catalog_sync", { tools: CATALOG })).status).toBe(200);
  return sid;
}

async function requestApproval(sid: string, name = "github.create_issue", args: unknown = ARGS) {
  const res = await op(sid, "tool_resolve", { name, args });
  expect(res.status).toBe(200);
  expect(res.json.decision).toBe("needs_approval");
  return res.json.approval_id as string;
}

async function approved(sid: string, name = "github.create_issue", args: unknown = ARGS): Promise<string> {
  const id = await requestApproval(sid, name, args);
  expect((await op(sid, "approval_decide", { approval_id: id, decision: "approve" })).status).toBe(200);
  return id;
}

const resolveWith = (sid: string, approval_id: string, args: unknown = ARGS, name = "github.create_issue") =>
  op(sid, "tool_resolve", { name, args, approval_id });

async function allEvents(sid: string): Promise<any[]> {
  const res = await op(sid, "events", { since: 0, limit: 500 });
  expect(res.status).toBe(200);
  return res.json.events;
}

async function pending(sid: string): Promise<any[]> {
  const res = await op(sid, "state", {});
  expect(res.status).toBe(200);
  return res.json.pending_approvals;
}

describe("requesting approval", () => {
  it("a tool matching a policy.approval glob needs approval and leaves a pending approval in state", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_resolve", { name: "github.create_issue", args: ARGS });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      decision: "needs_approval",
      name: "github.create_issue",
      provider_name: "github_create_issue",
      approval_id: expect.stringMatching(APPROVAL_ID),
    });
    expect(await pending(sid)).toEqual([
      {
        approval_id: res.json.approval_id,
        name: "github.create_issue",
        args: ARGS,
        run_id: null,
        status: "pending",
        requested_at: expect.stringMatching(ISO),
        decided_at: null,
        decided_by: null,
        note: null,
      },
    ]);
  });

  it("a tool outside the approval globs is allowed straight away", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_resolve", { name: "github.list_repos", args: {} });
    expect(res.json.decision).toBe("allow");
    expect(res.json.approval_id).toBeUndefined();
    expect(await pending(sid)).toEqual([]);
  });

  it("the approval glob also matches the provider name's tool and the namespace-qualified name", async () => {
    const sid = await seeded({ policy: { approval: ["slack.send_*"] } });
    const res = await op(sid, "tool_resolve", { name: "slack_send_message", args: { text: "hi" } });
    expect(res.json).toMatchObject({ decision: "needs_approval", name: "slack.send_message" });
    const qualified = newSid();
    await call("PUT", `/v1/sessions/${qualified}`, { policy: { approval: ["mail.send"] } });
    await op(qualified, "catalog_sync", {
      tools: [{ name: "send", namespace: "mail", description: "Send" }],
    });
    expect((await op(qualified, "tool_resolve", { name: "send" })).json.decision).toBe("needs_approval");
  });

  it("each resolve without approval_id opens a new pending approval", async () => {
    const sid = await seeded();
    const first = await requestApproval(sid);
    const second = await requestApproval(sid);
    expect(second).not.toBe(first);
    expect((await pending(sid)).map((a) => a.approval_id).sort()).toEqual([first, second].sort());
  });

  it("resolving with a still pending approval_id needs approval again without opening another", async () => {
    const sid = await seeded();
    const id = await requestApproval(sid);
    const res = await resolveWith(sid, id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ decision: "needs_approval", approval_id: id });
    expect((await pending(sid)).map((a) => a.approval_id)).toEqual([id]);
  });

  it("invalid arguments fail with 422 before any approval is requested", async () => {
    const sid = await seeded();
    const res = await op(sid, "tool_resolve", { name: "github.create_issue", args: { repo: 1 } });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("invalid_arguments");
    expect(await pending(sid)).toEqual([]);
    expect((await allEvents(sid)).filter((e) => e.type === "approval_requested")).toEqual([]);
  });
});

describe("deciding and using approvals", () => {
  it("approve, then resolve with that approval_id and the same args allows the call once", async () => {
    const sid = await seeded();
    const id = await requestApproval(sid);
    const decided = await op(sid, "approval_decide", {
      approval_id: id,
      decision: "approve",
      by: "alice@example.com",
      note: "fine",
    });
    expect(decided.status).toBe(200);
    expect(decided.json).toEqual({
      approval_id: id,
      name: "github.create_issue",
      args: ARGS,
      run_id: null,
      status: "approved",
      requested_at: expect.stringMatching(ISO),
      decided_at: expect.stringMatching(ISO),
      decided_by: "alice@example.com",
      note: "fine",
    });
    expect(await pending(sid)).toEqual([]);

    const allowed = await resolveWith(sid, id);
    expect(allowed.status).toBe(200);
    expect(allowed.json).toMatchObject({
      decision: "allow",
      name: "github.create_issue",
      provider_name: "github_create_issue",
      activated: false,
    });
    expect(allowed.json.approval_id).toBeUndefined();

    const reused = await resolveWith(sid, id);
    expect(reused.status).toBe(409);
    expect(reused.json).toEqual({
      error: {
        code: "approval_used",
        message: "this approval was already used for a call",
        details: { field: "approval_id" },
      },
    });
  });

  it("ten concurrent resolves with one approved id allow exactly one call", async () => {
    const sid = await seeded();
    const id = await approved(sid);
    const results = await Promise.all(Array.from({ length: 10 }, () => resolveWith(sid, id)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    expect(results.find((r) => r.status === 200)?.json.decision).toBe("allow");
    for (const r of results.filter((r) => r.status === 409)) expect(r.json.error.code).toBe("approval_used");
  });

  it("the same args in another key order match the approval", async () => {
    const sid = await seeded();
    const id = await approved(sid);
    const res = await resolveWith(sid, id, { title: ARGS.title, repo: ARGS.repo });
    expect(res.status).toBe(200);
    expect(res.json.decision).toBe("allow");
  });

  it("different args with an approved id give 404 unknown_approval and do not spend it", async () => {
    const sid = await seeded();
    const id = await approved(sid);
    for (const args of [
      { ...ARGS, title: "Something else" },
      { repo: ARGS.repo, title: ARGS.title, x: 1 },
    ]) {
      const res = await resolveWith(sid, id, args);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({
        error: { code: "unknown_approval", message: "no such approval", details: { field: "approval_id" } },
      });
    }
    // Without args the call is checked as {}: it fails the schema before the approval is looked at.
    const noArgs = await op(sid, "tool_resolve", { name: "github.create_issue", approval_id: id });
    expect(noArgs.status).toBe(422);
    expect(noArgs.json.error.code).toBe("invalid_arguments");
    expect((await resolveWith(sid, id)).json.decision).toBe("allow");
  });

  it("an approved id used for another tool gives 404 unknown_approval", async () => {
    const sid = await seeded();
    const id = await approved(sid);
    const res = await resolveWith(sid, id, ARGS, "github.create_pr");
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe("unknown_approval");
    expect((await resolveWith(sid, id)).json.decision).toBe("allow");
  });

  it("an approval requested in one run does not allow the call in another run or without a run", async () => {
    const sid = await seeded();
    const req = await op(sid, "tool_resolve", { name: "github.create_issue", args: ARGS, run_id: "run-1" });
    const id = req.json.approval_id;
    expect((await pending(sid))[0].run_id).toBe("run-1");
    await op(sid, "approval_decide", { approval_id: id, decision: "approve" });
    const other = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: ARGS,
      run_id: "run-2",
      approval_id: id,
    });
    expect(other.status).toBe(404);
    expect(other.json.error.code).toBe("unknown_approval");
    expect((await resolveWith(sid, id)).status).toBe(404);
    const same = await op(sid, "tool_resolve", {
      name: "github.create_issue",
      args: ARGS,
      run_id: "run-1",
      approval_id: id,
    });
    expect(same.json.decision).toBe("allow");
  });

  it("deny, then resolving with the id fails with 403 approval_denied", async () => {
    const sid = await seeded();
    const id = await requestApproval(sid);
    const decided = await op(sid, "approval_decide", { approval_id: id, decision: "deny", by: "bob" });
    expect(decided.status).toBe(200);
    expect(decided.json).toMatchObject({ approval_id: id, status: "denied", decided_by: "bob", note: null });
    const res = await resolveWith(sid, id);
    expect(res.status).toBe(403);
    expect(res.json).toEqual({
      error: { code: "approval_denied", message: "this call was denied", details: { field: "approval_id" } },
    });
    // Still denied on a second try: the denial is not consumed.
    expect((await resolveWith(sid, id)).status).toBe(403);
  });

  it("deciding an approval twice fails with 409 approval_already_decided", async () => {
    const sid = await seeded();
    const id = await requestApproval(sid);
    expect((await op(sid, "approval_decide", { approval_id: id, decision: "approve" })).status).toBe(200);
    for (const decision of ["approve", "deny"]) {
      const res = await op(sid, "approval_decide", { approval_id: id, decision });
      expect(res.status).toBe(409);
      expect(res.json).toEqual({
        error: {
          code: "approval_already_decided",
          message: "this approval is already approved",
          details: { field: "approval_id", status: "approved" },
        },
      });
    }
    await resolveWith(sid, id);
    const afterUse = await op(sid, "approval_decide", { approval_id: id, decision: "deny" });
    expect(afterUse.status).toBe(409);
    expect(afterUse.json.error.details).toEqual({ field: "approval_id", status: "used" });
  });

  it("an unknown approval id gives 404 unknown_approval to approval_decide and tool_resolve", async () => {
    const sid = await seeded();
    for (const id of ["apr_00000000000000000000000000000000", "nope"]) {
      const decide = await op(sid, "approval_decide", { approval_id: id, decision: "approve" });
      expect(decide.status).toBe(404);
      expect(decide.json).toEqual({
        error: { code: "unknown_approval", message: "no such approval", details: { field: "approval_id" } },
      });
      const resolve = await resolveWith(sid, id);
      expect(resolve.status).toBe(404);
      expect(resolve.json.error.code).toBe("unknown_approval");
    }
    expect((await allEvents(sid)).filter((e) => e.type === "approval_decided")).toEqual([]);
  });

  it("an approval id from another session is unknown here", async () => {
    const a = await seeded();
    const b = await seeded();
    const id = await approved(a);
    expect((await resolveWith(b, id)).status).toBe(404);
    expect((await op(b, "approval_decide", { approval_id: id, decision: "deny" })).status).toBe(404);
  });

  it("approval_requested and approval_decided events record each step", async () => {
    const sid = await seeded();
    const id = await requestApproval(sid);
    await op(sid, "approval_decide", { approval_id: id, decision: "approve", by: "alice" });
    const denied = await requestApproval(sid, "github.create_pr", {});
    await op(sid, "approval_decide", { approval_id: denied, decision: "deny" });
    const events = (await allEvents(sid)).filter((e) => e.type.startsWith("approval_"));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ["approval_requested", { approval_id: id, tool_name: "github.create_issue", run_id: null }],
      [
        "approval_decided",
        { approval_id: id, tool_name: "github.create_issue", decision: "approve", by: "alice" },
      ],
      ["approval_requested", { approval_id: denied, tool_name: "github.create_pr", run_id: null }],
      [
        "approval_decided",
        { approval_id: denied, tool_name: "github.create_pr", decision: "deny", by: null },
      ],
    ]);
  });
});

describe("one scripted agent turn over HTTP", () => {
  it("context, tool_search, tool_resolve needing approval, approval_decide, tool_resolve allowed, then context lists the tool", async () => {
    const sid = await seeded();

    // 1. The model sees only tool_search and is told about the deferred tools.
    const first = await op(sid, "context", { format: "anthropic" });
    expect(first.status).toBe(200);
    expect(agentTools(first.json.tools.map((t: any) => t.name))).toEqual(["tool_search"]);
    expect(first.json.deferred_count).toBe(4);
    expect(first.json.system).toContain("4 more tools are available but not listed.");

    // 2. The model searches; the agent forwards the call.
    const search = await op(sid, "tool_search", { query: "create an issue on github", format: "anthropic" });
    expect(search.status).toBe(200);
    expect(search.json.tools[0].name).toBe("github.create_issue");
    const ref = search.json.tool_references[0];
    expect(ref).toEqual({ type: "tool_reference", tool_name: "github_create_issue" });

    // 3. The model calls the tool by its provider name; Trove asks for approval.
    const ask = await op(sid, "tool_resolve", { name: ref.tool_name, args: ARGS });
    expect(ask.status).toBe(200);
    expect(ask.json).toMatchObject({
      decision: "needs_approval",
      name: "github.create_issue",
      activated: true,
    });
    const approvalId = ask.json.approval_id;
    expect(approvalId).toMatch(APPROVAL_ID);

    // 4. A person approves.
    const decide = await op(sid, "approval_decide", {
      approval_id: approvalId,
      decision: "approve",
      by: "ops",
    });
    expect(decide.json.status).toBe("approved");

    // 5. The agent retries with the approval and runs the tool.
    const allow = await op(sid, "tool_resolve", { name: ref.tool_name, args: ARGS, approval_id: approvalId });
    expect(allow.status).toBe(200);
    expect(allow.json).toMatchObject({ decision: "allow", name: "github.create_issue", activated: false });

    // 6. The next context lists the tool, by its provider name, mapped back to the Trove name.
    const next = await op(sid, "context", { format: "anthropic" });
    expect(agentTools(next.json.tools.map((t: any) => t.name))).toEqual([
      "tool_search",
      "github_create_issue",
    ]);
    expect(next.json.name_map).toMatchObject({
      tool_search: "tool_search",
      github_create_issue: "github.create_issue",
    });
    expect(next.json.deferred_count).toBe(3);
    expect(next.json.tools.find((t: any) => t.name === "github_create_issue")).toEqual({
      name: "github_create_issue",
      description: "Create an issue in a GitHub repository",
      input_schema: CREATE_ISSUE.input_schema,
    });

    // Skill events (the directory rendered into each context) are not part of this turn's story.
    const events = (await allEvents(sid)).map((e) => e.type).filter((t) => !t.startsWith("skill"));
    expect(events).toEqual([
      "catalog_synced",
      "tool_search_query",
      "tool_activated",
      "approval_requested",
      "approval_decided",
    ]);
    expect(await pending(sid)).toEqual([]);
  });
});
