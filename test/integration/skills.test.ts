// Skills from bundled packs: loading by tenant and project, search, get within budget, list.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import { estimateTokens } from "../../src/search/tokens";
import type { SessionObject } from "../../src/session-object";
import { corePackBundle, useCorePack } from "../support/core-pack";
import { call, KEY_B, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const skillFile = (name: string, trigger: string) =>
  `name: ${name}\ntitle: ${name}\ntrigger: ${trigger}\nsteps:\n  - First do this\n  - Then that\n`;

/** A bundle with a global pack, a pack for tenant-a only, and one for tenant-a's project p1. */
function scopedBundle(changed = false) {
  const { bundle, errors } = compilePacks([
    { path: "open/pack.yaml", content: "name: open\n" },
    { path: "open/a.skill.yaml", content: skillFile("open-skill", "Rotate credentials safely") },
    {
      path: "open/b.skill.yaml",
      content: skillFile("open-other", changed ? "Backup a database (v2)" : "Backup a database"),
    },
    { path: "acme/pack.yaml", content: "name: acme\nscope: tenant\ntenant_id: tenant-a\n" },
    { path: "acme/a.skill.yaml", content: skillFile("acme-secret", "Rotate credentials the Acme way") },
    { path: "proj/pack.yaml", content: "name: proj\nscope: project\ntenant_id: tenant-a\nproject_id: p1\n" },
    { path: "proj/a.skill.yaml", content: skillFile("proj-secret", "Rotate credentials for project one") },
  ]);
  expect(errors).toEqual([]);
  return bundle;
}

const stub = (tenant: string, sid: string) => sessionStub(sid, tenant);

/** Points a session at a test bundle before its first request. */
async function useBundle(tenant: string, sid: string, bundle: ReturnType<typeof scopedBundle>) {
  await runInDurableObject(stub(tenant, sid), (obj: SessionObject) => {
    obj.bundle = bundle;
  });
}

const names = (res: { json: { skills: { name: string }[] } }) => res.json.skills.map((s) => s.name).sort();

describe("the bundled core pack", () => {
  it("ships off: a new session has no skills and the model gets only tool_search of Trove's tools", async () => {
    const sid = newSid();
    expect((await op(sid, "skill_list", {})).json.total).toBe(0);
    const ctx = (await op(sid, "context", { format: "json", query: "page through results" })).json;
    expect(ctx.tools.map((t: { name: string }) => t.name)).toEqual(["tool_search"]);
    expect(ctx.system).not.toContain("<skill_directory>");
    expect(ctx.system).not.toContain("approval_decide");
  });

  it("is searchable, listable and fetchable in a session that turns it on", async () => {
    const sid = newSid();
    await useCorePack(sid);
    const found = await op(sid, "skill_search", { query: "paginate through every page with a cursor" });
    expect(found.status).toBe(200);
    expect(found.json.skills.length).toBeGreaterThan(0);
    for (const s of found.json.skills) expect(s.score).toBeGreaterThanOrEqual(0);
    const list = await op(sid, "skill_list", {});
    expect(list.json.total).toBe(corePackBundle().skills.length);
    const first = list.json.skills[0];
    const got = await op(sid, "skill_get", { names: [first.id], max_tokens: 300 });
    expect(got.status).toBe(200);
    expect(got.json.skills[0].id).toBe(first.id);
    expect(estimateTokens(got.json.formatted_context)).toBeLessThanOrEqual(300);
  });

  it("answers an unknown skill with 404 unknown_skill naming the field", async () => {
    const res = await op(newSid(), "skill_get", { names: ["no-such-skill"] });
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: "unknown_skill", details: { field: "names[0]" } });
  });
});

describe("pack scopes", () => {
  it("shows a tenant's pack to that tenant only, and a project's pack to that project only", async () => {
    const bundle = scopedBundle();
    const a = newSid();
    await useBundle("tenant-a", a, bundle);
    expect(names(await op(a, "skill_list", {}))).toEqual(["acme-secret", "open-other", "open-skill"]);
    await call("PUT", `/v1/sessions/${a}`, { project_id: "p1" });
    expect(names(await op(a, "skill_list", {}))).toEqual([
      "acme-secret",
      "open-other",
      "open-skill",
      "proj-secret",
    ]);

    const b = newSid();
    await useBundle("tenant-b", b, bundle);
    await call("PUT", `/v1/sessions/${b}`, { project_id: "p1" }, KEY_B);
    expect(names(await op(b, "skill_list", {}, KEY_B))).toEqual(["open-other", "open-skill"]);
    const search = await op(b, "skill_search", { query: "rotate credentials" }, KEY_B);
    expect(search.json.skills.map((s: { name: string }) => s.name)).toEqual(["open-skill"]);
    const hidden = await op(b, "skill_get", { names: ["acme-secret"] }, KEY_B);
    const missing = await op(b, "skill_get", { names: ["never-was"] }, KEY_B);
    expect(hidden.status).toBe(404);
    expect(JSON.stringify(hidden.json).replace("acme-secret", "X")).toBe(
      JSON.stringify(missing.json).replace("never-was", "X"),
    );
  });

  it("keeps another tenant's and another project's skills out of load, read, directory and context", async () => {
    const bundle = scopedBundle();
    // tenant-b (any project) and tenant-a in project p2 must not see proj-secret; tenant-b not acme-secret.
    const cases = [
      { tenant: "tenant-b", key: KEY_B, project: "p1", hidden: ["acme-secret", "proj-secret"] },
      { tenant: "tenant-a", key: undefined, project: "p2", hidden: ["proj-secret"] },
    ];
    for (const c of cases) {
      const sid = newSid();
      await useBundle(c.tenant, sid, bundle);
      await call("PUT", `/v1/sessions/${sid}`, { project_id: c.project }, c.key);
      const texts: string[] = [];
      const keep = async (name: string, input: unknown) => {
        const res = await op(sid, name, input, c.key);
        texts.push(JSON.stringify(res.json));
        return res;
      };
      await keep("skill_directory", {});
      await keep("skill_search", { query: "secret", search_type: "regex" });
      await keep("skill_search", { query: "acme project one", search_type: "fts" });
      const ctx = await keep("context", {
        format: "json",
        query: "rotate credentials the acme way for project one",
      });
      expect(ctx.status).toBe(200);
      expect(texts.join("\n")).toContain("open-skill");
      for (const name of c.hidden) {
        expect(texts.join("\n")).not.toContain(name);
        for (const [opName, input, missingInput] of [
          ["skill_load", { name }, { name: "never-was" }],
          ["skill_load", { path: `${name.split("-")[0]}/a.skill.yaml` }, { path: "nowhere/a.skill.yaml" }],
          ["skill_read_file", { skill: name, path: "SKILL.md" }, { skill: "never-was", path: "SKILL.md" }],
        ] as const) {
          const hidden = await op(sid, opName, input, c.key);
          const missing = await op(sid, opName, missingInput, c.key);
          expect(hidden.status).toBe(404);
          expect(hidden.status).toBe(missing.status);
          // Identical but for the name or path the caller sent.
          const asked = Object.values(input)[0] as string;
          const askedMissing = Object.values(missingInput)[0] as string;
          expect(JSON.stringify(hidden.json).replaceAll(asked, "X")).toBe(
            JSON.stringify(missing.json).replaceAll(askedMissing, "X"),
          );
        }
      }
    }
  });
});

describe("loading by content hash", () => {
  it("writes nothing for an unchanged bundle and only the changed skill after a rebuild", async () => {
    const sid = newSid();
    await useBundle("tenant-a", sid, scopedBundle());
    await op(sid, "skill_list", {});
    const rows = () =>
      runInDurableObject(stub("tenant-a", sid), (obj: SessionObject) => obj.sql.stats.rowsWritten);
    const before = await rows();
    await op(sid, "skill_list", {});
    // Only the listing's own telemetry event, written after the response.
    expect(await rows()).toBe(before + 1);

    // A deploy with one changed skill: the object restarts with the new bundle.
    await runInDurableObject(stub("tenant-a", sid), (obj: SessionObject) => {
      obj.bundle = scopedBundle(true);
    });
    const beforeChange = await rows();
    await op(sid, "skill_list", {});
    const written = (await rows()) - beforeChange;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(20); // one skill row, its indexes and FTS rows, the marker, one event
    const events = (await op(sid, "events", {})).json.events.filter(
      (e: { type: string }) => e.type === "skill_pack_loaded",
    );
    expect(events).toEqual([
      expect.objectContaining({ data: { pack_name: "open", skill_count: 2, updated_count: 1 } }),
    ]);
  });
});

describe("the skill index", () => {
  it("agrees with the table after loads, updates, removals and policy changes", async () => {
    const sid = newSid();
    const check = () =>
      runInDurableObject(stub("tenant-a", sid), (obj: SessionObject) => {
        obj.sql.run(`INSERT INTO trove_skills_fts(trove_skills_fts) VALUES('integrity-check')`);
        obj.sql.run(`INSERT INTO trove_skills_fts(trove_skills_fts, rank) VALUES('integrity-check', 1)`);
        return obj.sql.one<{ n: number }>(`SELECT count(*) AS n FROM trove_skills_fts`)?.n;
      });
    const setBundle = (bundle: ReturnType<typeof scopedBundle>) =>
      runInDurableObject(stub("tenant-a", sid), (obj: SessionObject) => {
        obj.bundle = bundle;
      });
    const found = async (query: string) =>
      names(await op(sid, "skill_search", { query, search_type: "fts", limit: 20 }));

    await setBundle(scopedBundle());
    expect(await found("backup database")).toEqual(["open-other"]);
    expect(await check()).toBe(3);
    await setBundle(scopedBundle(true)); // one skill changed
    expect(await found("backup database")).toEqual(["open-other"]);
    expect(await check()).toBe(3);
    await call("PUT", `/v1/sessions/${sid}`, { project_id: "p1", policy: { skills: { deny: ["open-*"] } } });
    expect(await found("backup database")).toEqual([]);
    expect(await found("rotate credentials")).toEqual(["acme-secret", "proj-secret"]);
    expect(await check()).toBe(2);
    await call("PUT", `/v1/sessions/${sid}`, {}); // back to no project: proj-secret removed
    expect(await found("rotate credentials")).toEqual(["acme-secret", "open-skill"]);
    expect(await check()).toBe(3);
  });
});

describe("skills in context", () => {
  it("adds the discovery guidance and the directory, and with a query the relevant skills within budget", async () => {
    const sid = newSid();
    await useCorePack(sid);
    await call("PUT", `/v1/sessions/${sid}`, { skills: { max_tokens: 300, top_k: 2 } });
    const plain = (await op(sid, "context", { format: "anthropic" })).json;
    expect(plain.system).toContain("<skill_discovery>");
    expect(plain.system).toContain("<skill_directory>");
    expect(plain.system).not.toContain("<relevant_skills>");

    const withQuery = (
      await op(sid, "context", { format: "anthropic", query: "page through all results with a cursor" })
    ).json;
    const relevant = /<relevant_skills>\n([\s\S]*)\n<\/relevant_skills>/.exec(withQuery.system)?.[1] ?? "";
    expect(relevant).toContain("<skill ");
    expect(estimateTokens(relevant)).toBeLessThanOrEqual(300);
    expect(withQuery.token_estimate.system).toBeGreaterThan(plain.token_estimate.system);
    const events = (await op(sid, "events", {})).json.events.filter(
      (e: { type: string }) => e.type === "skills_retrieved",
    );
    expect(events).toHaveLength(1);
    expect(events[0].data.ids.length).toBeGreaterThan(0);
  });

  it("leaves skills out when skills.enabled is false", async () => {
    const sid = newSid();
    await useCorePack(sid);
    await call("PUT", `/v1/sessions/${sid}`, { skills: { enabled: false } });
    const ctx = (await op(sid, "context", { format: "json", query: "cursor pagination" })).json;
    expect(ctx.system).not.toContain("skill");
  });
});

describe("skill text in context", () => {
  it("never names a tool the policy denies: the mention points to tool_search instead", async () => {
    const { bundle, errors } = compilePacks([
      { path: "ops/pack.yaml", content: "name: ops\n" },
      {
        path: "ops/wipe.skill.yaml",
        content:
          "name: wipe-disk\ntitle: Wipe a disk\ntrigger: Wipe a disk before recycling it\nsteps:\n  - Call secret.rm on the device\n  - Confirm with fs.list that it is empty\n",
      },
    ]);
    expect(errors).toEqual([]);
    const sid = newSid();
    await useBundle("tenant-a", sid, bundle as ReturnType<typeof scopedBundle>);
    await call("PUT", `/v1/sessions/${sid}`, { policy: { deny: ["secret.*"] } });
    await op(sid, "catalog_sync", {
      tools: [
        { name: "secret.rm", description: "Remove everything" },
        { name: "fs.list", description: "List files" },
      ],
    });
    const ctx = (await op(sid, "context", { format: "json", query: "wipe a disk before recycling" })).json;
    expect(ctx.system).toContain("<relevant_skills>");
    expect(ctx.system).not.toContain("secret.rm");
    expect(ctx.system).toContain("Call a tool found with tool_search on the device");
    expect(ctx.system).toContain("fs.list");
  });
});

describe("skill permissions", () => {
  it("hides a denied skill everywhere, answering as for a skill that does not exist", async () => {
    const { bundle, errors } = compilePacks([
      { path: "kit/pack.yaml", content: "name: kit\npinned: [secret-recipe]\n" },
      {
        path: "kit/secret-recipe/SKILL.md",
        content:
          "---\nname: secret-recipe\ndescription: Rotate production credentials\n---\n# Secret recipe\nDo it.\n",
      },
      { path: "kit/secret-recipe/references/notes.md", content: "notes" },
      { path: "kit/open.skill.yaml", content: skillFile("open-recipe", "Rotate staging credentials") },
    ]);
    expect(errors).toEqual([]);
    const sid = newSid();
    await useBundle("tenant-a", sid, bundle as ReturnType<typeof scopedBundle>);
    await call("PUT", `/v1/sessions/${sid}`, { policy: { skills: { deny: ["kit/secret-*"] } } });

    const texts: string[] = [];
    const keep = async (p: Promise<{ status: number; json: unknown }>) => {
      const res = await p;
      texts.push(JSON.stringify(res.json));
      return res;
    };
    await keep(op(sid, "skill_search", { query: "rotate credentials" }));
    await keep(op(sid, "skill_search", { query: "secret", search_type: "regex" }));
    await keep(op(sid, "skill_list", {}));
    await keep(op(sid, "skill_directory", {}));
    await keep(op(sid, "context", { format: "json", query: "rotate production credentials" }));
    const get = await op(sid, "skill_get", { names: ["secret-recipe"] });
    const getMissing = await op(sid, "skill_get", { names: ["other-recipe"] });
    expect(get.status).toBe(404);
    expect(JSON.stringify(get.json).replace("secret-recipe", "X")).toBe(
      JSON.stringify(getMissing.json).replace("other-recipe", "X"),
    );
    const load = await op(sid, "skill_load", { name: "secret-recipe" });
    expect(load.status).toBe(404);
    const read = await op(sid, "skill_read_file", { skill: "secret-recipe", path: "references/notes.md" });
    const readMissing = await op(sid, "skill_read_file", {
      skill: "other-recipe",
      path: "references/notes.md",
    });
    expect(read.status).toBe(404);
    expect(JSON.stringify(read.json).replace("secret-recipe", "X")).toBe(
      JSON.stringify(readMissing.json).replace("other-recipe", "X"),
    );
    expect(texts.join("\n")).not.toContain("secret-recipe");
    expect(texts.join("\n")).toContain("open-recipe");

    // Lifting the deny brings it back.
    await call("PUT", `/v1/sessions/${sid}`, {});
    expect((await op(sid, "skill_get", { names: ["secret-recipe"] })).status).toBe(200);
  });
});
