// The hostile corpus's pre-seeded session (a catalog, an activation, a pending approval, an attached
// pack with its tools, an enabled skill, a loaded skill) and the snapshot that proves nothing was written.
import {
  createExecutionContext,
  env,
  runInDurableObject,
  SELF,
  waitOnExecutionContext,
} from "cloudflare:test";
import { expect } from "vitest";
import worker from "../../../src";
import { compilePacks } from "../../../src/compiler/compile";
import type { Bundle } from "../../../src/packs/bundle";
import type { SessionObject } from "../../../src/session-object";
import { sessionStub } from "../../support/session";

/**
 * Sends a request to the worker: through `SELF.fetch` (workerd's loopback, as a client's request
 * arrives), or straight to the worker's fetch handler — the same Hono app, Request objects, auth,
 * body limits and SESSIONS binding, without the loopback hop. The direct path is there for volume:
 * in this pool every `SELF.fetch` costs more than the one before it (≈ 0.1–0.3 ms more per call in
 * a file), which puts a thousand-case corpus at minutes.
 */
export async function workerFetch(request: Request, viaSelf = false): Promise<Response> {
  if (viaSelf) return SELF.fetch(request);
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** Runs an operation on a session through the worker's fetch handler: its status and JSON. */
export async function op(
  sid: string,
  name: string,
  body: unknown,
  key = "key-a",
): Promise<{ status: number; json: any }> {
  const res = await workerFetch(
    new Request(`https://trove.test/v1/sessions/${sid}/${name}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, json: await res.json() };
}

/** The agent's catalog: a denied tool, an approval-gated one, an always-loaded one, a strict schema. */
export const SEED_TOOLS = [
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    side_effects: "write",
    input_schema: {
      type: "object",
      properties: { repo: { type: "string" }, title: { type: "string", maxLength: 200 } },
      required: ["repo", "title"],
      additionalProperties: false,
    },
  },
  { name: "github.list_repos", description: "List the repositories of a GitHub owner", tags: ["git", "vcs"] },
  {
    name: "slack.send_message",
    description: "Post a message 🚀 to a Slack channel",
    side_effects: "external",
    loading_mode: "always",
  },
  {
    name: "math.add",
    description: "Add two numbers",
    side_effects: "pure",
    input_schema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    examples: [{ args: { a: 1, b: 2 }, description: "one plus two" }],
  },
  { name: "secret.wipe_disk", description: "Erase every disk in the fleet", side_effects: "stateful" },
];

export const SEED_CONFIG = {
  policy: {
    deny: ["secret.*"],
    approval: ["github.create_issue", "incident__page_*"],
    skills: { deny: ["secret-*"] },
  },
  always_loaded_patterns: ["slack.*"],
  preferred_namespaces: ["github"],
};

const PACK_TOOLS = [
  {
    name: "create_ticket",
    description: "Open an incident ticket with a title and a severity.",
    side_effects: "write",
    input_schema: {
      type: "object",
      properties: { title: { type: "string" }, severity: { type: "string", enum: ["sev1", "sev2"] } },
      required: ["title", "severity"],
    },
  },
  { name: "page_oncall", description: "Page the on-call engineer of a service.", side_effects: "external" },
];

const NOVA_TOOLS = [
  {
    name: "create_accounts",
    description: "Create the new hire's accounts.",
    side_effects: "write",
    input_schema: { type: "object", properties: { full_name: { type: "string" } }, required: ["full_name"] },
  },
];

/**
 * The packs the seeded session sees instead of the shipped ones: an attachable pack with docs, a
 * binary file and tools, and one without tools that stays detached; an Agent Skill with a bundled
 * file, published by two packs (an ambiguous name); a skill the policy hides; and a Nova skill that
 * brings a tool.
 */
export function seedBundle(): Bundle {
  const { bundle, errors } = compilePacks([
    {
      path: "incident/SKILL.md",
      content:
        "---\nname: Incident triage\ndescription: Triage production incidents.\n---\n" +
        "# Incident triage\n\n1. Open a ticket with `create_ticket`.\n2. Page with `page_oncall`.\n",
    },
    { path: "incident/docs/runbook.md", content: "# Runbook\nEscalate early.\n" },
    { path: "incident/resources/checklist.txt", content: "check the dashboard\n".repeat(50) },
    { path: "incident/resources/logo.bin", content: new Uint8Array([0xff, 0xfe, 0x00, 0x81, 0xc3]) },
    { path: "incident/tools.json", content: JSON.stringify(PACK_TOOLS) },
    {
      path: "docs/pdf-forms/SKILL.md",
      content:
        "---\nname: pdf-forms\ndescription: Fill in PDF forms. Use when the user hands you a PDF form.\n---\n" +
        "# Filling PDF forms\n\n1. List the fields.\n2. See references/fields.md.\n",
    },
    { path: "docs/pdf-forms/references/fields.md", content: "# Field types\n\nText, checkbox, radio.\n" },
    {
      path: "spare/SKILL.md",
      content: "---\nname: Spare\ndescription: A pack nobody attached.\n---\n# Spare\n",
    },
    {
      path: "docs/secret-recipe/SKILL.md",
      content: "---\nname: secret-recipe\ndescription: Hidden by the session policy.\n---\n# Secret\n",
    },
    { path: "docs/secret-recipe/references/x.md", content: "hidden\n" },
    {
      path: "docs2/pdf-forms/SKILL.md",
      content:
        "---\nname: pdf-forms\ndescription: Another PDF forms skill, for the ambiguity.\n---\n# Forms\n",
    },
    {
      path: "hr/onboarding/manifest.yaml",
      content: 'name: onboarding\nversion: 1.0\ndescription: "Handle new hire setup."\n',
    },
    { path: "hr/onboarding/instructions.md", content: "# Onboarding\n\n1. Call `create_accounts`.\n" },
    { path: "hr/onboarding/tools.json", content: JSON.stringify(NOVA_TOOLS) },
  ]);
  expect(errors).toEqual([]);
  return bundle;
}

export interface Seeded {
  sid: string;
  /** The pending approval of github.create_issue. */
  approvalId: string;
  /** A denied approval of github.create_issue. */
  deniedApprovalId: string;
}

async function ok(sid: string, name: string, body: unknown): Promise<any> {
  const res = await op(sid, name, body);
  expect(res.status, `${name}: ${JSON.stringify(res.json)}`).toBe(200);
  return res.json;
}

/** A session holding something in every table, on the seed bundle. */
export async function seedSession(sid: string): Promise<Seeded> {
  const bundle = seedBundle();
  await runInDurableObject(sessionStub(sid), (obj: SessionObject) => {
    obj.bundle = bundle;
  });
  await ok(sid, "session_configure", SEED_CONFIG);
  await ok(sid, "catalog_sync", { tools: SEED_TOOLS });
  await ok(sid, "tool_activate", { names: ["github.list_repos"], reason: "seed" });
  const resolved = await ok(sid, "tool_resolve", {
    name: "github.create_issue",
    args: { repo: "acme/web", title: "Login fails" },
  });
  expect(resolved.decision).toBe("needs_approval");
  const toDeny = await ok(sid, "tool_resolve", {
    name: "github.create_issue",
    args: { repo: "acme/web", title: "Denied" },
  });
  await ok(sid, "approval_decide", { approval_id: toDeny.approval_id, decision: "deny", by: "seed" });
  await ok(sid, "pack_attach", { pack_id: "incident" });
  await ok(sid, "pack_enable_tools", { pack_id: "incident" });
  await ok(sid, "skill_enable", { name: "onboarding" });
  await ok(sid, "skill_load", { name: "docs/pdf-forms" });
  return { sid, approvalId: resolved.approval_id, deniedApprovalId: toDeny.approval_id };
}

export interface Snapshot {
  /** Row count of every trove_* table (virtual, FTS shadow and vocabulary tables included). */
  counts: Record<string, number>;
  /** Every row of the tables holding state, as JSON; trove_meta without `last_seen`. */
  rows: Record<string, string>;
  /** Events by id, for what a case appended. */
  events: { id: number; type: string }[];
  fingerprint: string;
  config: string;
}

const STATE_TABLES: Record<string, string> = {
  trove_meta: `SELECT * FROM trove_meta WHERE key <> 'last_seen' ORDER BY key`,
  trove_schema: `SELECT * FROM trove_schema ORDER BY version`,
  trove_tools: `SELECT * FROM trove_tools ORDER BY id`,
  trove_activations: `SELECT * FROM trove_activations ORDER BY 1, 2`,
  trove_approvals: `SELECT * FROM trove_approvals ORDER BY 1`,
  trove_skills: `SELECT * FROM trove_skills ORDER BY id`,
  trove_skill_loads: `SELECT * FROM trove_skill_loads ORDER BY qid`,
  trove_packs: `SELECT * FROM trove_packs ORDER BY 1`,
  trove_enabled_skills: `SELECT * FROM trove_enabled_skills ORDER BY 1`,
};

/**
 * Flushes telemetry that earlier successful reads deferred (so a case is not blamed for writing
 * it), then reads the session's state.
 */
export function snapshot(sid: string, tenant = "tenant-a", flush = true): Promise<Snapshot> {
  return runInDurableObject(sessionStub(sid, tenant), (obj: SessionObject) => {
    if (flush) obj.events.flush();
    const tables = obj.sql
      .all<{ name: string }>(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'trove\\_%' ESCAPE '\\' ORDER BY name`,
      )
      .map((t) => t.name);
    const counts: Record<string, number> = {};
    for (const name of tables) {
      // Names come from sqlite_master, not from input.
      counts[name] = obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM "${name}"`)?.n ?? -1;
    }
    const rows: Record<string, string> = {};
    for (const [name, query] of Object.entries(STATE_TABLES)) {
      if (name in counts) rows[name] = JSON.stringify(obj.sql.all(query));
    }
    const events =
      "trove_events" in counts
        ? obj.sql.all<{ id: number; type: string }>(`SELECT id, type FROM trove_events ORDER BY id`)
        : [];
    return {
      counts,
      rows,
      events,
      fingerprint: obj.catalog.fingerprint(),
      config: JSON.stringify(obj.config.get()),
    };
  });
}
