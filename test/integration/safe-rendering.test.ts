// Skill text as the model sees it: no tool the session may not use is named (RFC v0.3 §3.12), and
// personal data is redacted unless the session turns that off (Appendix C).
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import type { SessionObject } from "../../src/session-object";
import { call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

function bundle(): Bundle {
  const { bundle, errors } = compilePacks([
    { path: "ops/pack.yaml", content: "name: ops\n" },
    {
      path: "ops/restart.skill.yaml",
      content: [
        "name: restart-service",
        "title: Restart a stuck service",
        "trigger: A service stopped answering health checks",
        "steps:",
        "  - Check the status with `status.get` first",
        "  - Restart it with `admin.restart`, or click through with browser.click if the API is down",
        "  - Tell the owner at owner@acme.example, token sk-ant-api03-AbCdEf0123456789AbCdEf0123456789",
        "failure_modes:",
        "  - admin.restart times out",
        "tools:",
        "  - tool: status.get",
        "  - tool: browser.click",
        "    note: only with a browser",
      ].join("\n"),
    },
    {
      path: "ops/deploy/SKILL.md",
      content:
        "---\nname: deploy\ndescription: Deploy a service with admin.deploy\nallowed-tools: Bash(git:*) status.get\n---\n" +
        "Run `Bash` to build, then `admin.deploy`; check with status.get. See https://ci.acme.example/run?id=42&token=abc.\n",
    },
  ]);
  expect(errors).toEqual([]);
  return bundle;
}

async function session(config: unknown) {
  const sid = newSid();
  await runInDurableObject(sessionStub(sid), (obj: SessionObject) => {
    obj.bundle = bundle();
  });
  await op(sid, "catalog_sync", {
    tools: [
      { name: "status.get", description: "Read a service's status" },
      { name: "admin.restart", description: "Restart a service" },
      { name: "admin.deploy", description: "Deploy a service" },
    ],
  });
  await call("PUT", `/v1/sessions/${sid}`, config);
  return sid;
}

describe("tool references in skill text", () => {
  it("drop denied and unknown tools from get, load and pre-flight, keeping the allowed ones", async () => {
    const sid = await session({ policy: { deny: ["admin.*"] } });
    const texts = [
      JSON.stringify((await op(sid, "skill_get", { names: ["restart-service"], format: "raw" })).json),
      (await op(sid, "skill_get", { names: ["restart-service", "deploy"] })).json.formatted_context,
      (await op(sid, "skill_load", { name: "restart-service" })).json.body,
      (await op(sid, "skill_load", { name: "deploy" })).json.body,
      (await op(sid, "context", { query: "restart a stuck service and deploy it" })).json.system,
      JSON.stringify((await op(sid, "skill_search", { query: "deploy a service" })).json),
    ];
    const all = texts.join("\n");
    for (const hidden of ["admin.restart", "admin.deploy", "browser.click", "Bash"])
      expect(all).not.toContain(hidden);
    expect(all).toContain("status.get");
    expect(all).toContain("a tool found with tool_search");
  });

  it("keep every tool the session may use", async () => {
    const sid = await session({});
    const body = (await op(sid, "skill_load", { name: "restart-service" })).json.body;
    expect(body).toContain("`admin.restart`");
    expect(body).toContain("status.get");
    // browser.click is no tool of this session: the reference goes.
    expect(body).not.toContain("browser.click");
  });
});

describe("personal data in skill text", () => {
  it("is redacted by default and shown when skills.redact_pii is false", async () => {
    const on = await session({});
    const redacted = (await op(on, "skill_get", { names: ["restart-service", "deploy"] })).json
      .formatted_context;
    expect(redacted).toContain("[REDACTED_EMAIL]");
    expect(redacted).toContain("[REDACTED_TOKEN]");
    expect(redacted).not.toContain("owner@acme.example");
    expect(redacted).not.toContain("sk-ant-api03");
    expect(redacted).toContain("https://ci.acme.example/run");
    expect(redacted).not.toContain("token=abc");
    // The procedure around it is intact.
    expect(redacted).toContain("Check the status with `status.get` first");

    const off = await session({ skills: { redact_pii: false } });
    const raw = (await op(off, "skill_get", { names: ["restart-service", "deploy"] })).json.formatted_context;
    expect(raw).toContain("owner@acme.example");
    expect(raw).toContain("token=abc");
  });
});

describe("the bundled core pack", () => {
  it("keeps its own words: Trove operations its skills name are not hidden tools", async () => {
    const sid = newSid();
    const list = (await op(sid, "skill_list", { page_size: 100 })).json.skills as { trigger: string }[];
    const text = JSON.stringify(list);
    expect(text).not.toContain("a tool found with tool_search");
  });
});

/** Agent Skills as repositories write them: Claude Code's tool names in allowed-tools and prose. */
function agentSkillsBundle(): Bundle {
  const body = [
    "# Review a change",
    "Then Read the file and Edit what is wrong; Bash is only for tests. Write a summary.",
    "Open it with `Read`, then run the tests:",
    "```bash",
    'Bash -c "npm test"',
    "```",
    "Never call github.delete_repository. File findings with `github.create_issue`, and deleteRepo never.",
    "",
  ].join("\n");
  const { bundle, errors } = compilePacks([
    { path: "kit/pack.yaml", content: "name: kit\n" },
    {
      path: "kit/review/SKILL.md",
      content: `---\nname: review\ndescription: Review a change\nallowed-tools: Read Bash\n---\n${body}`,
    },
    {
      path: "kit/review-list/SKILL.md",
      content: `---\nname: review-list\ndescription: Review a change\nallowed-tools:\n  - Read\n  - Bash\n---\n${body}`,
    },
  ]);
  expect(errors).toEqual([]);
  return bundle;
}

async function agentSkillsSession(deny: string[]) {
  const sid = newSid();
  await runInDurableObject(sessionStub(sid), (obj: SessionObject) => {
    obj.bundle = agentSkillsBundle();
  });
  await call("PUT", `/v1/sessions/${sid}`, { policy: { deny }, skills: { redact_pii: false } });
  await op(sid, "catalog_sync", { tools: [{ name: "github.create_issue", description: "Create an issue" }] });
  return sid;
}

describe("Agent Skills from real repositories", () => {
  it("keep the words of their prose and drop their tools from code, with allowed-tools as a string or a list", async () => {
    const sid = await agentSkillsSession(["github.delete_*", "delete*"]);
    for (const name of ["review", "review-list"]) {
      const res = await op(sid, "skill_load", { name });
      expect(res.status).toBe(200);
      const body: string = res.json.body;
      expect(body).toContain(
        "Then Read the file and Edit what is wrong; Bash is only for tests. Write a summary.",
      );
      expect(body).toContain("Open it with `a tool found with tool_search`, then run the tests:");
      expect(body).toContain('```bash\na tool found with tool_search -c "npm test"\n```');
      // Denied by glob though no catalog holds them; the allowed tool stays.
      expect(body).toContain(
        "Never call a tool found with tool_search. File findings with `github.create_issue`, and a tool found with tool_search never.",
      );
      for (const hidden of ["`Read`", "Bash -c", "github.delete_repository", "deleteRepo"])
        expect(body).not.toContain(hidden);
    }
  });

  it("point to another tool when tool_search is denied", async () => {
    const sid = await agentSkillsSession(["github.delete_*", "tool_search"]);
    const body: string = (await op(sid, "skill_load", { name: "review" })).json.body;
    expect(body).toContain("Open it with `another tool`");
    expect(body).toContain("Never call another tool.");
    expect(body).not.toContain("tool_search");
    expect(body).toContain("Then Read the file");
  });
});
