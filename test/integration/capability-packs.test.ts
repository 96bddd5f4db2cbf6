// Capability packs and skills that bring tools, over HTTP: progressive disclosure (metadata → docs →
// files → tools), namespaced pack tools under the session policy, Nova skills, and bundle changes.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import type { SessionObject } from "../../src/session-object";
import { call, KEY_B, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const TOOLS = [
  {
    name: "create_ticket",
    description: "Open an incident ticket with a title and a severity.",
    side_effects: "write",
    input_schema: {
      type: "object",
      properties: { title: { type: "string" }, severity: { type: "string", enum: ["sev1", "sev2", "sev3"] } },
      required: ["title", "severity"],
    },
  },
  {
    name: "page_oncall",
    description: "Page the on-call engineer of a service.",
    side_effects: "external",
    input_schema: { type: "object", properties: { service: { type: "string" } }, required: ["service"] },
  },
  {
    name: "delete_ticket",
    description: "Delete an incident ticket for good.",
    side_effects: "write",
    input_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  },
];

const BIG = Array.from({ length: 400 }, (_, i) => `line ${i}: check the dashboard, then the logs.`).join(
  "\n",
);

function packBundle(extra: { path: string; content: string }[] = []): Bundle {
  const { bundle, errors } = compilePacks([
    {
      path: "incident/SKILL.md",
      content:
        "---\nname: Incident triage\ndescription: Triage production incidents; use for outages and error spikes.\n---\n" +
        "# Incident triage\n\n1. Open a ticket with `create_ticket`.\n2. Page with `page_oncall`.\n" +
        "3. Clean up duplicates with `delete_ticket`.\nSee docs/runbook.md and resources/checklist.txt.\n",
    },
    {
      path: "incident/docs/runbook.md",
      content:
        "# Runbook\nNever call incident__delete_ticket during an incident. Escalate to oncall@acme.example.\n",
    },
    { path: "incident/resources/checklist.txt", content: BIG },
    { path: "incident/tools.json", content: JSON.stringify(TOOLS, null, 2) },
    ...extra,
  ]);
  expect(errors).toEqual([]);
  return bundle;
}

const stub = (sid: string) => sessionStub(sid);

async function useBundle(sid: string, bundle: Bundle) {
  await runInDurableObject(stub(sid), (obj: SessionObject) => {
    obj.bundle = bundle;
  });
}

const POLICY = { deny: ["*__delete_*"], approval: ["incident__page_*"] };
const toolNames = (ctx: { json: { tools: { name: string }[] } }) => ctx.json.tools.map((t) => t.name);

describe("progressive disclosure of a capability pack", () => {
  it("goes from metadata to docs, files and tools, under the session policy", async () => {
    const sid = newSid();
    await useBundle(sid, packBundle());
    await call("PUT", `/v1/sessions/${sid}`, { policy: POLICY });
    const seen: string[] = [];
    const keep = async (name: string, body: unknown) => {
      const res = await op(sid, name, body);
      seen.push(JSON.stringify(res.json));
      return res;
    };

    // Stage 0: available to attach, but nothing of it in the context.
    const list = await keep("pack_list", {});
    expect(list.json.packs).toEqual([
      {
        pack_id: "incident",
        name: "Incident triage",
        description: "Triage production incidents; use for outages and error spikes.",
        has_tools: true,
        attached: false,
      },
    ]);
    let ctx = await keep("context", { format: "anthropic" });
    expect(ctx.json.system).not.toContain("capability_packs");
    expect(toolNames(ctx)).not.toContain("pack_open_docs");

    // Stage 1: attached → metadata only, plus the pack tools of Trove.
    expect((await keep("pack_attach", { pack_id: "incident" })).json).toEqual({
      pack_id: "incident",
      attached: true,
      changed: true,
    });
    ctx = await keep("context", { format: "anthropic" });
    expect(ctx.json.system).toContain("<capability_packs>");
    expect(ctx.json.system).toContain("pack_id: incident");
    expect(ctx.json.system).toContain("has_tools: true");
    expect(ctx.json.system).not.toContain("Open a ticket");
    expect(toolNames(ctx)).toEqual(
      expect.arrayContaining(["pack_open_docs", "pack_read_file", "pack_enable_tools"]),
    );
    expect(toolNames(ctx)).not.toContain("incident__create_ticket");

    // Stage 2: the entry doc; the denied tool is not named, in either form.
    const docs = await keep("pack_open_docs", { pack_id: "incident" });
    expect(docs.status).toBe(200);
    expect(docs.json.entry_doc.path).toBe("SKILL.md");
    expect(docs.json.entry_doc.content).toContain("Open a ticket with `create_ticket`");
    expect(docs.json.entry_doc.content).toContain("Clean up duplicates with `a tool found with tool_search`");
    expect(docs.json.files.map((f: { path: string }) => f.path)).toEqual(
      expect.arrayContaining(["docs/runbook.md", "resources/checklist.txt"]),
    );

    // Stage 3: files, a page at a time; the runbook's email is redacted.
    const runbook = await keep("pack_read_file", { pack_id: "incident", path: "docs/runbook.md" });
    expect(runbook.json.content).toContain("[REDACTED_EMAIL]");
    const page1 = await keep("pack_read_file", {
      pack_id: "incident",
      path: "resources/checklist.txt",
      length: 5000,
    });
    expect(page1.json).toMatchObject({ offset: 0, length: 5000, truncated: true, next_offset: 5000 });
    const page2 = await keep("pack_read_file", {
      pack_id: "incident",
      path: "resources/checklist.txt",
      offset: page1.json.next_offset,
      length: 5000,
    });
    expect(page2.json.offset).toBe(5000);
    expect(page1.json.content + page2.json.content).toBe(BIG.slice(0, 10_000));

    // Stage 4: enable tools → they are in the next context, in the provider's format.
    const enabled = await keep("pack_enable_tools", { pack_id: "incident" });
    expect(enabled.json.tools.map((t: { name: string }) => t.name)).toEqual([
      "incident__create_ticket",
      "incident__page_oncall",
    ]);
    ctx = await keep("context", { format: "anthropic" });
    const ticket = ctx.json.tools.find((t: { name: string }) => t.name === "incident__create_ticket");
    expect(ticket.input_schema.required).toEqual(["title", "severity"]);
    expect(ctx.json.name_map.incident__create_ticket).toBe("incident__create_ticket");

    // Stage 5: calls are checked like the agent's own tools.
    const allowed = await keep("tool_resolve", {
      name: "incident__create_ticket",
      args: { title: "API down", severity: "sev1" },
    });
    expect(allowed.json.decision).toBe("allow");
    const invalid = await keep("tool_resolve", { name: "incident__create_ticket", args: { title: "x" } });
    expect(invalid.status).toBe(422);
    const gated = await keep("tool_resolve", { name: "incident__page_oncall", args: { service: "api" } });
    expect(gated.json.decision).toBe("needs_approval");
    expect(gated.json.approval_id).toEqual(expect.any(String));

    // (These answers echo the name the model sent, so they stay out of `seen`.)
    const denied = await op(sid, "tool_resolve", { name: "incident__delete_ticket", args: { id: "1" } });
    const missing = await op(sid, "tool_resolve", { name: "incident__nothing_here", args: { id: "1" } });
    expect(denied.status).toBe(404);
    expect(JSON.stringify(denied.json).replace("incident__delete_ticket", "X")).toBe(
      JSON.stringify(missing.json).replace("incident__nothing_here", "X"),
    );
    await keep("tool_search", { query: "delete", search_type: "regex" });
    await keep("tool_search", { query: "delete a ticket" });
    await keep("state", {});
    await keep("events", { limit: 500 });
    const everything = seen.join("\n");
    for (const text of seen) expect(text).not.toContain("delete_ticket");
    expect(everything).not.toContain("Delete an incident ticket");

    // Detach: its tools leave the context and the catalog.
    await keep("pack_detach", { pack_id: "incident" });
    ctx = await keep("context", { format: "json" });
    expect(toolNames(ctx).filter((n: string) => n.startsWith("incident__"))).toEqual([]);
    expect(ctx.json.system).not.toContain("capability_packs");
    expect((await op(sid, "tool_resolve", { name: "incident__create_ticket" })).status).toBe(404);
  });

  it("opens, reads and enables only attached packs, and answers unknown packs with 404", async () => {
    const sid = newSid();
    await useBundle(sid, packBundle());
    const notAttached = await op(sid, "pack_open_docs", { pack_id: "incident" });
    expect(notAttached.status).toBe(409);
    expect(notAttached.json.error).toMatchObject({
      code: "pack_not_attached",
      details: { field: "pack_id" },
    });
    expect((await op(sid, "pack_enable_tools", { pack_id: "incident" })).status).toBe(409);
    const unknown = await op(sid, "pack_attach", { pack_id: "nope" });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: "unknown_pack", details: { field: "pack_id" } });
    await op(sid, "pack_attach", { pack_id: "incident" });
    for (const path of [
      "../incident/tools.json",
      "/etc/passwd",
      "docs/%2e%2e/%2e%2e/x",
      "tools.json",
      "nope.md",
    ]) {
      const res = await op(sid, "pack_read_file", { pack_id: "incident", path });
      expect([400, 404]).toContain(res.status);
      expect(res.json.error.details.field).toBe("path");
    }
  });

  it("answers an invalid tools.json with a structured 422 and enables nothing", async () => {
    const sid = newSid();
    const bundle = packBundle();
    // A bundle the build did not check (e.g. from another version): one tool's schema is not an object.
    const broken = structuredClone(bundle);
    const pack = broken.packs.find((p) => p.name === "incident");
    if (!pack) throw new Error("no pack");
    pack.tools[1] = {
      ...TOOLS[1],
      name: "page_oncall",
      description: "x",
      input_schema: { type: "string" },
    } as never;
    await useBundle(sid, broken);
    await op(sid, "pack_attach", { pack_id: "incident" });
    const res = await op(sid, "pack_enable_tools", { pack_id: "incident" });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("invalid_pack_tools");
    expect(res.json.error.details.problems).toEqual([
      expect.objectContaining({ tool: "page_oncall", field: "tools.1.input_schema.type" }),
    ]);
    const state = await op(sid, "state", {});
    expect(state.json.packs).toEqual([
      expect.objectContaining({ pack_id: "incident", tools_enabled_at: null, tools: [] }),
    ]);
    // The pack stays usable through its docs.
    expect((await op(sid, "pack_open_docs", { pack_id: "incident" })).status).toBe(200);
  });

  it("follows a new bundle: changed tools are re-synced, a removed pack is detached", async () => {
    const sid = newSid();
    await useBundle(sid, packBundle());
    await op(sid, "pack_attach", { pack_id: "incident" });
    await op(sid, "pack_enable_tools", { pack_id: "incident" });
    expect((await op(sid, "state", {})).json.packs[0].tools).toHaveLength(3);

    const changed = packBundle();
    const pack = changed.packs.find((p) => p.name === "incident");
    if (!pack) throw new Error("no pack");
    pack.tools = pack.tools.filter((t) => t.name !== "delete_ticket");
    changed.hash = `${changed.hash}-changed`;
    await useBundle(sid, changed);
    expect((await op(sid, "state", {})).json.packs[0].tools).toEqual([
      "incident__create_ticket",
      "incident__page_oncall",
    ]);

    const { bundle: empty } = compilePacks([]);
    await useBundle(sid, empty);
    const state = await op(sid, "state", {});
    expect(state.json.packs).toEqual([]);
    expect((await op(sid, "tool_resolve", { name: "incident__create_ticket" })).status).toBe(404);
    const events = (await op(sid, "events", { limit: 500 })).json.events;
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "pack_detached",
        data: { pack_id: "incident", reason: "unavailable" },
      }),
    );
  });

  it("leaves a name the agent's catalog holds to the agent", async () => {
    const sid = newSid();
    await useBundle(sid, packBundle());
    await op(sid, "catalog_sync", {
      tools: [
        {
          name: "incident__create_ticket",
          description: "The agent's own ticket tool",
          loading_mode: "always",
        },
      ],
    });
    await op(sid, "pack_attach", { pack_id: "incident" });
    const enabled = await op(sid, "pack_enable_tools", { pack_id: "incident" });
    expect(enabled.json.tools.map((t: { name: string }) => t.name)).toEqual([
      "incident__page_oncall",
      "incident__delete_ticket",
    ]);
    const resolved = await op(sid, "tool_resolve", { name: "incident__create_ticket" });
    expect(resolved.json.tool.description).toBe("The agent's own ticket tool");
    // Detaching does not take the agent's tool with it.
    await op(sid, "pack_detach", { pack_id: "incident" });
    expect((await op(sid, "tool_resolve", { name: "incident__create_ticket" })).status).toBe(200);
  });
});

describe("pack scopes", () => {
  it("keeps a tenant's capability pack out of every other tenant's sessions", async () => {
    const bundle = packBundle([
      { path: "incident/pack.yaml", content: "name: incident\nscope: tenant\ntenant_id: tenant-a\n" },
    ]);
    const a = newSid();
    await useBundle(a, bundle);
    expect((await op(a, "pack_list", {})).json.packs.map((p: { pack_id: string }) => p.pack_id)).toEqual([
      "incident",
    ]);
    const b = newSid();
    await runInDurableObject(sessionStub(b, "tenant-b"), (obj: SessionObject) => {
      obj.bundle = bundle;
    });
    expect((await op(b, "pack_list", {}, KEY_B)).json.packs).toEqual([]);
    const hidden = await op(b, "pack_attach", { pack_id: "incident" }, KEY_B);
    const missing = await op(b, "pack_attach", { pack_id: "nothing" }, KEY_B);
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.json).replace("incident", "X")).toBe(
      JSON.stringify(missing.json).replace("nothing", "X"),
    );
    expect((await op(b, "pack_open_docs", { pack_id: "incident" }, KEY_B)).status).toBe(404);
  });
});

describe("context warnings", () => {
  it("warns with the packs and activations to drop when over the token budget or the provider's tool limit", async () => {
    const sid = newSid();
    await useBundle(sid, packBundle());
    await op(sid, "pack_attach", { pack_id: "incident" });
    await op(sid, "pack_enable_tools", { pack_id: "incident" });
    const tools = Array.from({ length: 130 }, (_, i) => ({
      name: `svc.tool_${i}`,
      description: `Service tool number ${i}`,
    }));
    await op(sid, "catalog_sync", { tools });
    for (const names of [tools.slice(0, 100), tools.slice(100)].map((part) => part.map((t) => t.name))) {
      expect((await op(sid, "tool_activate", { names })).status).toBe(200);
    }

    const openai = await op(sid, "context", { format: "openai" });
    expect(openai.status).toBe(200);
    const tooMany = openai.json.warnings.find((w: { code: string }) => w.code === "too_many_tools");
    expect(tooMany).toMatchObject({ limit: 128 });
    expect(tooMany.actual).toBe(openai.json.tools.length);
    const dropped = tooMany.drop.reduce((n: number, d: { tools: number }) => n + d.tools, 0);
    expect(dropped).toBeGreaterThanOrEqual(tooMany.actual - 128);
    expect(tooMany.drop[0]).toMatchObject({ kind: "pack", id: "incident", tools: 3 });

    // The json format has no tool limit; a small session budget warns instead.
    expect((await op(sid, "context", { format: "json" })).json.warnings).toEqual([]);
    await call("PUT", `/v1/sessions/${sid}`, { context: { max_tokens: 500 } });
    const json = await op(sid, "context", { format: "json" });
    const budget = json.json.warnings.find((w: { code: string }) => w.code === "over_token_budget");
    expect(budget).toMatchObject({ limit: 500, actual: json.json.token_estimate.total });
    expect(budget.drop.map((d: { kind: string }) => d.kind)).toContain("pack");
  });
});

describe("skills that bring tools (Nova)", () => {
  const novaBundle = () => {
    const { bundle, errors } = compilePacks([
      { path: "hr/pack.yaml", content: "name: hr\n" },
      {
        path: "hr/employee_onboarding/manifest.yaml",
        content:
          'name: employee_onboarding\nversion: "1.0.0"\ndescription: Handle new hire setup, accounts and welcome emails.\nauthor: people-team\ntags: [hr, onboarding]\n',
      },
      {
        path: "hr/employee_onboarding/instructions.md",
        content:
          "# Onboarding\n1. Create the account with `create_account`.\n2. Send the welcome email with `send_welcome_email`.\n3. Never use `wipe_account`.\nQuestions: hr-help@acme.example or +1 (415) 555-0134.\n",
      },
      {
        path: "hr/employee_onboarding/tools.json",
        content: JSON.stringify([
          {
            name: "create_account",
            description: "Create accounts for a new hire.",
            input_schema: { type: "object", properties: { email: { type: "string" } }, required: ["email"] },
          },
          { name: "send_welcome_email", description: "Send the welcome email." },
          { name: "wipe_account", description: "Remove every account of a person." },
        ]),
      },
    ]);
    expect(errors).toEqual([]);
    return bundle;
  };

  it("enables a skill's tools until it is disabled, under the tool policy", async () => {
    const sid = newSid();
    await useBundle(sid, novaBundle());
    await call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["*__wipe_*"] } });
    const before = await op(sid, "context", { format: "json" });
    expect(toolNames(before)).toContain("skill_enable");
    expect(toolNames(before)).not.toContain("skill_disable");

    const enabled = await op(sid, "skill_enable", { name: "employee_onboarding" });
    expect(enabled.status).toBe(200);
    expect(enabled.json.id).toBe("hr/employee_onboarding");
    expect(enabled.json.tools.map((t: { name: string }) => t.name)).toEqual([
      "employee_onboarding__create_account",
      "employee_onboarding__send_welcome_email",
    ]);
    expect(enabled.json.instructions).toContain("Create the account with `create_account`");
    expect(enabled.json.instructions).not.toContain("wipe_account");
    expect(enabled.json.instructions).toContain("[REDACTED_EMAIL]");
    expect(enabled.json.instructions).toContain("[REDACTED_PHONE]");

    const ctx = await op(sid, "context", { format: "openai" });
    const names = ctx.json.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(names).toEqual(expect.arrayContaining(["employee_onboarding__create_account", "skill_disable"]));
    const state = await op(sid, "state", {});
    expect(state.json.skills).toEqual([
      expect.objectContaining({
        id: "hr/employee_onboarding",
        tools: ["employee_onboarding__create_account", "employee_onboarding__send_welcome_email"],
      }),
    ]);
    expect(JSON.stringify(state.json.visible)).not.toContain("wipe");

    expect((await op(sid, "skill_enable", { name: "employee_onboarding" })).json.changed).toBe(false);
    const disabled = await op(sid, "skill_disable", { name: "employee_onboarding" });
    expect(disabled.json).toEqual({
      id: "hr/employee_onboarding",
      name: "employee_onboarding",
      changed: true,
    });
    expect((await op(sid, "state", {})).json.skills).toEqual([]);
    expect((await op(sid, "tool_resolve", { name: "employee_onboarding__create_account" })).status).toBe(404);
    const events = (await op(sid, "events", {})).json.events.map((e: { type: string }) => e.type);
    expect(events).toEqual(expect.arrayContaining(["skill_enabled", "skill_disabled"]));
  });

  it("answers an unknown or denied skill like one that does not exist, and a policy change disables it", async () => {
    const sid = newSid();
    await useBundle(sid, novaBundle());
    await op(sid, "skill_enable", { name: "employee_onboarding" });
    await call("PUT", `/v1/sessions/${sid}`, { policy: { skills: { deny: ["employee_*"] } } });
    expect((await op(sid, "state", {})).json.skills).toEqual([]);
    expect((await op(sid, "tool_resolve", { name: "employee_onboarding__create_account" })).status).toBe(404);
    const hidden = await op(sid, "skill_enable", { name: "employee_onboarding" });
    const missing = await op(sid, "skill_enable", { name: "never_existed" });
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.json).replace("employee_onboarding", "X")).toBe(
      JSON.stringify(missing.json).replace("never_existed", "X"),
    );
  });
});
