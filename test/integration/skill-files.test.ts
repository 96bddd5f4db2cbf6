// Skills in use: the <skill_directory> block, skill_load (path, name, ambiguity, reload suppression)
// and skill_read_file (paging, path safety), against a compiled test bundle.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { SessionObject } from "../../src/session-object";
import { call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

/** ~40 KB of markdown, so that reading it takes three default pages. */
const GUIDE = `# Report guide\n\n${Array.from(
  { length: 700 },
  (_, i) => `Line ${i}: keep each section short, cite sources, and check the numbers twice.`,
).join("\n")}\n`;
const EMOJI = "ab😀cd";

const penguiflow = (name: string, title: string, trigger: string) =>
  `name: ${name}\ntitle: ${title}\ntrigger: ${trigger}\npreconditions:\n  - Credentials are set\n` +
  `steps:\n  - Check the target\n  - Run the ${name}\nfailure_modes:\n  - The target is locked\n`;

const SKILL_MD = (extra = "") =>
  `---\nname: write-report\ndescription: Write a report from collected notes.\n---\n\n` +
  `# Write a report\n\nRead references/guide.md before writing.${extra}\n`;

function testBundle({ changed = false } = {}) {
  const { bundle, errors } = compilePacks([
    { path: "alpha/pack.yaml", content: "name: alpha\npinned:\n  - deploy\n" },
    { path: "alpha/deploy.skill.yaml", content: penguiflow("deploy", "Deploy a service", "Ship a build") },
    { path: "alpha/rollback.skill.yaml", content: penguiflow("rollback", "Roll back", "Undo a release") },
    { path: "beta/pack.yaml", content: "name: beta\n" },
    { path: "beta/deploy.skill.yaml", content: penguiflow("deploy", "Deploy (beta)", "Ship a beta build") },
    {
      path: "beta/notes.skill.md",
      content:
        "---\nname: notes-skill\ntrigger: Take notes\nsteps:\n  - Write it down\n---\nKeep notes short.\n",
    },
    {
      path: "beta/batch.skill.jsonl",
      content:
        '{"name":"batch-a","trigger":"First batch job","steps":["Run a"]}\n' +
        '{"name":"batch-b","trigger":"Second batch job","steps":["Run b"]}\n',
    },
    { path: "docs/pack.yaml", content: "name: docs\npinned:\n  - write-report\n" },
    { path: "docs/write-report/SKILL.md", content: SKILL_MD(changed ? " Then proofread." : "") },
    { path: "docs/write-report/references/guide.md", content: GUIDE },
    { path: "docs/write-report/references/emoji.txt", content: EMOJI },
    { path: "docs/write-report/scripts/run.sh", content: "#!/bin/sh\necho report\n" },
    { path: "docs/write-report/assets/logo.png", content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) },
    // Another tenant's pack: its pin and its skill never show to tenant-a.
    {
      path: "secret/pack.yaml",
      content: "name: secret\nscope: tenant\ntenant_id: tenant-b\npinned: [hidden]\n",
    },
    { path: "secret/hidden.skill.yaml", content: penguiflow("hidden", "Hidden", "Secret work") },
  ]);
  expect(errors).toEqual([]);
  return bundle;
}

const stub = (sid: string) => sessionStub(sid);

/** A new tenant-a session on the test bundle (set before its first request). */
async function session(bundle = testBundle()): Promise<string> {
  const sid = newSid();
  await runInDurableObject(stub(sid), (obj: SessionObject) => {
    obj.bundle = bundle;
  });
  return sid;
}

const ids = (res: { json: { entries: { id: string }[] } }) => res.json.entries.map((e) => e.id);
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function expectError(res: { status: number; json: any }, status: number, code: string, field: string) {
  expect(res.status).toBe(status);
  expect(res.json.error).toMatchObject({ code, details: { field } });
}

describe("skill_directory", () => {
  it("lists pins first, then never-used skills by name, naming shared names by id", async () => {
    const sid = await session();
    const res = await op(sid, "skill_directory", {});
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([
      "alpha/deploy",
      "docs/write-report",
      "beta/batch-a",
      "beta/batch-b",
      "beta/deploy",
      "beta/notes-skill",
      "alpha/rollback",
    ]);
    expect(res.json.entries[1]).toEqual({
      name: "write-report",
      id: "docs/write-report",
      title: "Write a report",
    });
    const lines = res.json.text.split("\n");
    expect(lines[0]).toBe("<skill_directory>");
    expect(lines.at(-1)).toBe("</skill_directory>");
    expect(res.json.text).toContain("- alpha/deploy — Deploy a service");
    expect(res.json.text).toContain("- beta/deploy — Deploy (beta)");
    expect(res.json.text).toContain("- write-report — Write a report");
    // A name the skill also has as its title says nothing: the trigger stands in.
    expect(res.json.text).toContain("- batch-a — First batch job");
    expect(res.json.text).not.toContain("hidden");
    expect(res.json.text).not.toContain("more skill");
  });

  it("orders unpinned skills by last use or by use count, and caps at max_entries", async () => {
    const sid = await session();
    for (const body of [{ name: "rollback" }, { name: "notes-skill" }, { path: "alpha/deploy.skill.yaml" }]) {
      await tick();
      expect((await op(sid, "skill_load", body)).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      await tick();
      expect((await op(sid, "skill_get", { names: ["batch-b"] })).status).toBe(200);
    }
    await tick();
    expect((await op(sid, "skill_load", { name: "notes-skill" })).json.reloaded).toBe(true); // used twice now

    expect(ids(await op(sid, "skill_directory", {}))).toEqual([
      "alpha/deploy",
      "docs/write-report",
      "beta/notes-skill",
      "beta/batch-b",
      "alpha/rollback",
      "beta/batch-a",
      "beta/deploy",
    ]);

    const configure = (directory: Record<string, unknown>) =>
      call("PUT", `/v1/sessions/${sid}`, { skills: { directory } });
    expect((await configure({ selection_strategy: "pinned_then_top" })).status).toBe(200);
    expect(ids(await op(sid, "skill_directory", {}))).toEqual([
      "alpha/deploy",
      "docs/write-report",
      "beta/batch-b",
      "beta/notes-skill",
      "alpha/rollback",
      "beta/batch-a",
      "beta/deploy",
    ]);

    await configure({ selection_strategy: "pinned_then_top", max_entries: 3 });
    const capped = await op(sid, "skill_directory", {});
    expect(ids(capped)).toEqual(["alpha/deploy", "docs/write-report", "beta/batch-b"]);
    expect(capped.json.text).toContain("4 more skills are not listed");

    await configure({ max_entries: 1 });
    expect(ids(await op(sid, "skill_directory", {}))).toEqual(["alpha/deploy"]);

    await configure({ enabled: false });
    expect((await op(sid, "skill_directory", {})).json).toEqual({ text: "", entries: [] });
    await call("PUT", `/v1/sessions/${sid}`, { skills: { enabled: false } });
    expect((await op(sid, "skill_directory", {})).json).toEqual({ text: "", entries: [] });
  });

  it("records skill_directory_rendered when the directory changes, and counts its repeats", async () => {
    const sid = await session();
    await op(sid, "skill_directory", {});
    await op(sid, "skill_directory", {}); // the same directory: counted, not recorded
    await op(sid, "skill_directory", {});
    await op(sid, "skill_load", { name: "rollback" }); // a use: the recent-first directory changes
    await op(sid, "skill_directory", {});
    const events = (await op(sid, "events", {})).json.events.map(
      (e: { type: string; data: Record<string, unknown> }) =>
        e.data.digest === undefined
          ? [e.type, e.data]
          : [e.type, { ...e.data, digest: typeof e.data.digest }],
    );
    expect(events).toEqual([
      ["skill_directory_rendered", { entries: 7, digest: "string", repeated: 0 }],
      ["skill_loaded", { id: "alpha/rollback", reloaded: false }],
      ["skill_directory_rendered", { entries: 7, digest: "string", repeated: 2 }],
    ]);
  });

  it("rejects out-of-range directory config", async () => {
    const res = await call("PUT", `/v1/sessions/${newSid()}`, { skills: { directory: { max_entries: 0 } } });
    expectError(res, 400, "invalid_input", "skills.directory.max_entries");
    const strategy = await call("PUT", `/v1/sessions/${newSid()}`, {
      skills: { directory: { selection_strategy: "random" } },
    });
    expectError(strategy, 400, "invalid_input", "skills.directory.selection_strategy");
  });
});

describe("skill_load", () => {
  it("loads an Agent Skill by its SKILL.md path or its folder, with its folder and files", async () => {
    const expected = {
      id: "docs/write-report",
      name: "write-report",
      body: "# Write a report\n\nRead references/guide.md before writing.",
      base_path: "docs/write-report",
      files: ["assets/logo.png", "references/emoji.txt", "references/guide.md", "scripts/run.sh"],
      license: null,
      compatibility: null,
      metadata: {},
      allowed_tools: [],
      reloaded: false,
    };
    for (const path of ["docs/write-report/SKILL.md", "docs/write-report", "docs/write-report/"]) {
      const res = await op(await session(), "skill_load", { path });
      expect(res.status).toBe(200);
      expect(res.json).toEqual(expected);
    }
  });

  it("prefers path over name, and resolves a unique name or a qualified id", async () => {
    const sid = await session();
    const both = await op(sid, "skill_load", { name: "rollback", path: "docs/write-report" });
    expect(both.json.id).toBe("docs/write-report");
    const byName = await op(sid, "skill_load", { name: "rollback" });
    expect(byName.status).toBe(200);
    expect(byName.json).toMatchObject({
      id: "alpha/rollback",
      base_path: "alpha",
      files: [],
      reloaded: false,
    });
    expect(byName.json.body).toBe(
      [
        "# Roll back",
        "",
        "Use when: Undo a release",
        "",
        "Preconditions:",
        "- Credentials are set",
        "",
        "Steps:",
        "1. Check the target",
        "2. Run the rollback",
        "",
        "Failure modes:",
        "- The target is locked",
      ].join("\n"),
    );
    const notes = await op(sid, "skill_load", { name: "notes-skill" });
    expect(notes.json.body).toContain("1. Write it down\n\nKeep notes short.");
    expect((await op(sid, "skill_load", { name: "beta/deploy" })).json.id).toBe("beta/deploy");
  });

  it("answers an ambiguous name or path with 409 and the candidates' ids", async () => {
    const sid = await session();
    const byName = await op(sid, "skill_load", { name: "deploy" });
    expectError(byName, 409, "ambiguous_skill", "name");
    expect(byName.json.error.details.candidates).toEqual(["alpha/deploy", "beta/deploy"]);
    const byPath = await op(sid, "skill_load", { path: "beta/batch.skill.jsonl" });
    expectError(byPath, 409, "ambiguous_skill", "path");
    expect(byPath.json.error.details.candidates).toEqual(["beta/batch-a", "beta/batch-b"]);
  });

  it("needs a name or a path, and answers unknown or hidden skills with 404", async () => {
    const sid = await session();
    expectError(await op(sid, "skill_load", {}), 400, "invalid_input", "name");
    expectError(await op(sid, "skill_load", { name: "never-was" }), 404, "unknown_skill", "name");
    expectError(await op(sid, "skill_load", { name: "hidden" }), 404, "unknown_skill", "name");
    expectError(
      await op(sid, "skill_load", { path: "secret/hidden.skill.yaml" }),
      404,
      "unknown_skill",
      "path",
    );
    expectError(
      await op(sid, "skill_load", { path: "docs/write-report/references" }),
      404,
      "unknown_skill",
      "path",
    );
    // A Penguiflow pack folder holds many skills: it is not a skill's path.
    expectError(await op(sid, "skill_load", { path: "alpha" }), 404, "unknown_skill", "path");
  });

  it("suppresses a reload of the same version and loads a changed version again", async () => {
    const sid = await session();
    const first = await op(sid, "skill_load", { name: "write-report" });
    expect(first.json.reloaded).toBe(false);
    const again = await op(sid, "skill_load", { path: "docs/write-report/SKILL.md" });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({
      id: "docs/write-report",
      name: "write-report",
      reminder: expect.stringContaining("already loaded"),
      reloaded: true,
    });
    expect((await op(sid, "skill_load", { name: "rollback" })).json.reloaded).toBe(false);

    // A deploy changes the skill: the object restarts with the new bundle.
    await runInDurableObject(stub(sid), (obj: SessionObject) => {
      obj.bundle = testBundle({ changed: true });
    });
    const changed = await op(sid, "skill_load", { name: "write-report" });
    expect(changed.json.reloaded).toBe(false);
    expect(changed.json.body).toContain("Then proofread.");
    expect((await op(sid, "skill_load", { name: "write-report" })).json.reloaded).toBe(true);
    expect((await op(sid, "skill_load", { name: "rollback" })).json.reloaded).toBe(true);

    // An erased session has forgotten what it loaded.
    await call("DELETE", `/v1/sessions/${sid}`);
    await runInDurableObject(stub(sid), (obj: SessionObject) => {
      obj.bundle = testBundle({ changed: true });
    });
    expect((await op(sid, "skill_load", { name: "write-report" })).json.reloaded).toBe(false);
  });

  it("marks the skill used and records skill_loaded", async () => {
    const sid = await session();
    await op(sid, "skill_load", { name: "rollback" });
    await op(sid, "skill_load", { name: "rollback" });
    const uses = await runInDurableObject(stub(sid), (obj: SessionObject) =>
      obj.sql.one<{ use_count: number; last_used: number | null }>(
        `SELECT use_count, last_used FROM trove_skills WHERE qid = 'alpha/rollback'`,
      ),
    );
    expect(uses?.use_count).toBe(2);
    expect(uses?.last_used).toBeGreaterThan(0);
    const events = (await op(sid, "events", {})).json.events.filter(
      (e: { type: string }) => e.type === "skill_loaded",
    );
    expect(events.map((e: { data: unknown }) => e.data)).toEqual([
      { id: "alpha/rollback", reloaded: false },
      { id: "alpha/rollback", reloaded: true },
    ]);
  });
});

describe("skill_read_file", () => {
  const read = (sid: string, body: Record<string, unknown>) =>
    op(sid, "skill_read_file", { skill: "write-report", ...body });

  it("pages through a file; the pages concatenate to it", async () => {
    const sid = await session();
    expect(GUIDE.length).toBeGreaterThan(40_000);
    const one = await read(sid, { path: "references/guide.md" });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({
      skill: "docs/write-report",
      path: "references/guide.md",
      offset: 0,
      length: 16_000,
      total: GUIDE.length,
      truncated: true,
      next_offset: 16_000,
      mime: "text/markdown",
    });
    const two = await read(sid, {
      path: "./references/guide.md",
      offset: one.json.next_offset,
      length: 64_000,
    });
    expect(two.json).toMatchObject({
      offset: 16_000,
      length: GUIDE.length - 16_000,
      truncated: false,
      next_offset: null,
    });
    expect(one.json.content + two.json.content).toBe(GUIDE);
    const end = await op(sid, "skill_read_file", {
      skill: "docs/write-report",
      path: "references/guide.md",
      offset: GUIDE.length,
    });
    expect(end.json).toMatchObject({ content: "", length: 0, truncated: false, next_offset: null });
    expectError(
      await read(sid, { path: "references/guide.md", offset: GUIDE.length + 1 }),
      400,
      "invalid_offset",
      "offset",
    );
    expectError(
      await read(sid, { path: "references/guide.md", length: 64_001 }),
      400,
      "invalid_input",
      "length",
    );
  });

  it("never splits a character across pages, and types files by extension", async () => {
    const sid = await session();
    const one = await read(sid, { path: "references/emoji.txt", length: 3 });
    expect(one.json).toMatchObject({ content: "ab", next_offset: 2, truncated: true, mime: "text/plain" });
    const two = await read(sid, { path: "references/emoji.txt", offset: 2, length: 3 });
    expect(two.json).toMatchObject({ content: "😀c", next_offset: 5 });
    const script = await read(sid, { path: "scripts/run.sh" });
    expect(script.json).toMatchObject({ content: "#!/bin/sh\necho report\n", mime: "application/x-sh" });
  });

  it("refuses paths that could leave the skill's folder with 400 invalid_path", async () => {
    const sid = await session();
    for (const path of [
      "../x",
      "/etc/passwd",
      "a/../../b",
      "references/../../alpha/x",
      "a\\b",
      "..\\..\\secret",
      "%2e%2e/",
      "%2E%2E%2Fsecret",
      "references%2f..%2f..%2fx",
      "a\u0000b",
      "C:/windows",
    ]) {
      expectError(await read(sid, { path }), 400, "invalid_path", "path");
      // Whether or not the skill exists.
      expectError(await read(sid, { path, skill: "never-was" }), 400, "invalid_path", "path");
    }
  });

  it("answers unknown files with 404, the same for skills this session cannot see", async () => {
    const sid = await session();
    expectError(await read(sid, { path: "references/nope.md" }), 404, "unknown_file", "path");
    // SKILL.md is the skill itself (skill_load), not one of its files.
    expectError(await read(sid, { path: "SKILL.md" }), 404, "unknown_file", "path");
    const hidden = await read(sid, { skill: "hidden", path: "x.md" });
    const missing = await read(sid, { skill: "never-was", path: "x.md" });
    expectError(hidden, 404, "unknown_file", "path");
    expect(JSON.stringify(hidden.json).replace("hidden", "X")).toBe(
      JSON.stringify(missing.json).replace("never-was", "X"),
    );
    expectError(await read(sid, { skill: "deploy", path: "x.md" }), 409, "ambiguous_skill", "skill");
  });

  it("answers a listed file that was not stored (binary or too large) with 415", async () => {
    const sid = await session();
    expectError(await read(sid, { path: "assets/logo.png" }), 415, "unsupported_file", "path");
  });
});
