// The MCP Skills extension (SEP-2640, issue 14) through the worker, driven by the official SDK client
// (custom requests for the methods it does not know): the declaration, skills/list and skills/get
// entries whose digests are those of the bytes resources/read returns and of the files on disk,
// paging, binary files, directory reads, and a hidden skill answering exactly as a missing one.
import { runInDurableObject, SELF } from "cloudflare:test";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { compilePacks, type PackFile } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import { useCorePack } from "../support/core-pack";
import { CREATE_ISSUE, WIPE_DISK } from "../support/fixtures";
import { KEY_A, KEY_B, newSid, op } from "../support/http";
import {
  allSkills,
  connect,
  frontmatterOf,
  GetSkillResult,
  getSkill,
  listSkills,
  mcpUrl,
  readDirectory,
  sha256,
  verify,
} from "../support/mcp-skills-client";
import { sessionStub } from "../support/session";

const CORE_FILES = import.meta.glob<string>("../../packs/core/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
});

const EXTENSION = "io.modelcontextprotocol/skills";

// ── Packs ────────────────────────────────────────────────────────────────────────────────────────

const REPORT_MD =
  "---\nname: write-report\ndescription: Write a report from collected notes. Use when asked for a report.\n" +
  "license: Apache-2.0\nmetadata:\n  version: 1.0\n  owner: docs\nx-review: quarterly\n---\n\n" +
  "# Write a report\n\nRead [the guide](references/guide.md), then fill templates/report.md.\n";
const GUIDE_MD = "# Guide\n\nKeep it short. Cite sources.\n";
const TEMPLATE_MD = "# Report\n\n## Findings\n";
const RUN_SH = "#!/bin/sh\necho report\n";
/** A PNG header and bytes no UTF-8 decoder accepts. */
const LOGO = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0xff, 0xfe, 0x00, 0x7f,
]);

const CLEANUP_MD =
  "---\nname: cleanup\ndescription: Clean up a broken deployment.\n" +
  "allowed-tools: github.create_issue secret.wipe_disk\n---\n\n" +
  "# Cleanup\n\nFile the incident with `github.create_issue`. As a last resort call `secret.wipe_disk`.\n";
const CONTACTS_MD = "# Contacts\n\nEscalate to ops-lead@acme.example.\n";

const DOCS: PackFile[] = [
  { path: "docs/pack.yaml", content: "name: docs\n" },
  { path: "docs/write-report/SKILL.md", content: REPORT_MD },
  { path: "docs/write-report/references/guide.md", content: GUIDE_MD },
  { path: "docs/write-report/templates/report.md", content: TEMPLATE_MD },
  { path: "docs/write-report/scripts/run.sh", content: RUN_SH },
  { path: "docs/write-report/assets/logo.png", content: LOGO },
  { path: "docs/cleanup/SKILL.md", content: CLEANUP_MD },
  { path: "docs/cleanup/references/contacts.md", content: CONTACTS_MD },
  // A Nova skill: Trove serves it as trove://, not through the extension (no SKILL.md).
  { path: "docs/onboard/manifest.yaml", content: "name: onboard\ndescription: Onboard a new hire.\n" },
  { path: "docs/onboard/instructions.md", content: "# Onboard\n\nSend the welcome email.\n" },
  // Seen by tenant-b only, and by tenant-a in project p1 only.
  { path: "other/pack.yaml", content: "name: other\nscope: tenant\ntenant_id: tenant-b\n" },
  {
    path: "other/secret-plan/SKILL.md",
    content: "---\nname: secret-plan\ndescription: Tenant B's plan.\n---\n# Plan\n",
  },
  { path: "other/secret-plan/notes.md", content: "# Notes\n" },
  { path: "proj/pack.yaml", content: "name: proj\nscope: project\ntenant_id: tenant-a\nproject_id: p1\n" },
  {
    path: "proj/roadmap/SKILL.md",
    content: "---\nname: roadmap\ndescription: Project one's roadmap.\n---\n# Roadmap\n",
  },
  { path: "proj/roadmap/notes.md", content: "# Notes\n" },
];

function compiled(files: PackFile[], options: { maxFileBytes?: number } = {}): Bundle {
  const { bundle, errors } = compilePacks(files, options);
  expect(errors).toEqual([]);
  return bundle;
}

/** A session of `tenant` on `bundle`, with redaction as asked (on by default, as in Trove). */
async function session(bundle: Bundle, config: Record<string, unknown> = {}, tenant = "tenant-a") {
  const sid = newSid();
  await runInDurableObject(sessionStub(sid, tenant), (obj) => {
    obj.bundle = bundle;
  });
  if (Object.keys(config).length > 0) {
    const put = await op(sid, "session_configure", config, tenant === "tenant-a" ? KEY_A : KEY_B);
    expect(put.status).toBe(200);
  }
  return sid;
}

// ── The client ───────────────────────────────────────────────────────────────────────────────────

/** The JSON-RPC answer to one raw request, as text (for byte-for-byte comparisons). */
async function rawAnswer(sid: string, method: string, params: unknown, key = KEY_A): Promise<string> {
  const res = await SELF.fetch(mcpUrl(sid), {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  expect(res.status).toBe(200);
  return res.text();
}

async function rpcError(request: Promise<unknown>): Promise<McpError> {
  const err = await request.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

// ── Tests ────────────────────────────────────────────────────────────────────────────────────────

describe("the extension's declaration", () => {
  it("declares io.modelcontextprotocol/skills under capabilities.extensions, with resources and directory reads", async () => {
    const client = await connect(newSid());
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.extensions?.[EXTENSION]).toEqual({ directoryRead: true });
    expect(capabilities?.resources).toBeDefined();
    expect(client.getInstructions()).toContain("skill://<pack>/<name>/SKILL.md");
  });
});

describe("the bundled core pack over the extension", () => {
  it("lists its Agent Skills with their frontmatter verbatim and the digests of the files on disk", async () => {
    const sid = newSid();
    await useCorePack(sid);
    const client = await connect(sid);
    const { skills } = await allSkills(client);
    // Penguiflow skills (*.skill.yaml|md) have no SKILL.md: only trove:// serves them.
    expect(skills.map((s) => s.uri)).toEqual([
      "skill://core/call-deferred-tools/SKILL.md",
      "skill://core/find-tools/SKILL.md",
    ]);
    for (const entry of skills) {
      const folder = entry.uri.slice("skill://".length, -"/SKILL.md".length);
      const onDisk = Object.entries(CORE_FILES)
        .map(([path, text]) => [path.replace("../../packs/", ""), text] as const)
        .filter(([path]) => path.startsWith(`${folder}/`));
      // Complete: SKILL.md first, then every file of the folder, each once.
      expect(entry.resources.map((r) => r.uri)).toEqual([
        entry.uri,
        ...onDisk.map(([path]) => `skill://${path}`).filter((uri) => uri !== entry.uri),
      ]);
      for (const [path, text] of onDisk) {
        const resource = entry.resources.find((r) => r.uri === `skill://${path}`);
        expect(resource?.digest, path).toBe(await sha256(text));
        expect(resource?.size, path).toBe(new TextEncoder().encode(text).length);
      }
      const read = await verify(client, entry);
      // SKILL.md is served as written, frontmatter included.
      const skillMd = CORE_FILES[`../../packs/${folder}/SKILL.md`] as string;
      expect(new TextDecoder().decode(read.get(entry.uri))).toBe(skillMd);
      expect(entry.frontmatter).toEqual(frontmatterOf(skillMd));
      // skills/get answers the same entry.
      const got = await getSkill(client, entry.uri);
      expect(got).toEqual({ resultType: "complete", skill: entry, ttlMs: 0, cacheScope: "private" });
    }
  });

  it("keeps the trove:// resources beside the skill:// ones", async () => {
    const sid = newSid();
    await useCorePack(sid);
    const client = await connect(sid);
    const { contents } = await client.readResource({ uri: "trove://skills/core/find-tools" });
    expect((contents[0] as { text: string }).text).toMatch(/^# Finding tools/);
    const { resources } = await client.listResources();
    expect(resources.every((r) => r.uri.startsWith("trove://"))).toBe(true);
  });
});

describe("entries and reads", () => {
  it("serves every file of a skill, text as text and binary as a base64 blob, each matching its digest", async () => {
    const sid = await session(compiled(DOCS));
    const client = await connect(sid);
    const { skill } = await getSkill(client, "skill://docs/write-report/SKILL.md");
    expect(skill.frontmatter).toEqual({
      name: "write-report",
      description: "Write a report from collected notes. Use when asked for a report.",
      license: "Apache-2.0",
      // As YAML reads it (1.0 is a number), the field Trove does not know kept as written.
      metadata: { version: 1, owner: "docs" },
      "x-review": "quarterly",
    });
    const disk: Record<string, string | Uint8Array> = {
      "SKILL.md": REPORT_MD,
      "assets/logo.png": LOGO,
      "references/guide.md": GUIDE_MD,
      "scripts/run.sh": RUN_SH,
      "templates/report.md": TEMPLATE_MD,
    };
    expect(skill.resources).toEqual(
      await Promise.all(
        Object.entries(disk).map(async ([path, content]) => ({
          uri: `skill://docs/write-report/${path}`,
          digest: await sha256(content),
          size: typeof content === "string" ? new TextEncoder().encode(content).length : content.length,
        })),
      ),
    );
    const read = await verify(client, skill);
    expect([...(read.get("skill://docs/write-report/assets/logo.png") ?? [])]).toEqual([...LOGO]);
    const logo = await client.readResource({ uri: "skill://docs/write-report/assets/logo.png" });
    expect(logo.contents[0]).toMatchObject({ mimeType: "image/png", blob: expect.any(String) });
    // The same bytes over REST: skill_read_file with base64, where text reading answers 415.
    const rest = { skill: "docs/write-report", path: "assets/logo.png" };
    expect(await op(sid, "skill_read_file", rest)).toMatchObject({
      status: 415,
      json: { error: { code: "unsupported_file" } },
    });
    const bytes = (await op(sid, "skill_read_file", { ...rest, base64: true })).json;
    expect(bytes).toMatchObject({ mime: "image/png", base64: true, truncated: false });
    expect(bytes.content).toBe((logo.contents[0] as { blob: string }).blob);
    const script = await client.readResource({ uri: "skill://docs/write-report/scripts/run.sh" });
    expect(script.contents[0]).toEqual({
      uri: "skill://docs/write-report/scripts/run.sh",
      mimeType: "application/x-sh",
      text: RUN_SH,
    });
  });

  it("reads a file longer than one page of skill_read_file whole", async () => {
    const long = `# Long\n\n${"Lorem ipsum dolor sit amet, consectetur adipiscing. ".repeat(3000)}\n`;
    const sid = await session(
      compiled([
        { path: "big/pack.yaml", content: "name: big\n" },
        {
          path: "big/long-read/SKILL.md",
          content: "---\nname: long-read\ndescription: A long file.\n---\n# Long\n",
        },
        { path: "big/long-read/references/long.md", content: long },
      ]),
      { skills: { redact_pii: false } },
    );
    const client = await connect(sid);
    const { skill } = await getSkill(client, "skill://big/long-read/SKILL.md");
    const read = await verify(client, skill);
    expect(new TextDecoder().decode(read.get("skill://big/long-read/references/long.md"))).toBe(long);
  });

  it("lists a file too large to bundle, and answers a read of it with -32602 rather than other bytes", async () => {
    const sid = await session(compiled(DOCS, { maxFileBytes: 30 }));
    const client = await connect(sid);
    const { skill } = await getSkill(client, "skill://docs/write-report/SKILL.md");
    // SKILL.md itself is always bundled; guide.md is over the limit, and still listed.
    const guide = skill.resources.find((r) => r.uri.endsWith("/references/guide.md"));
    expect(GUIDE_MD.length).toBeGreaterThan(30);
    expect(guide).toEqual({ uri: expect.any(String), digest: await sha256(GUIDE_MD), size: GUIDE_MD.length });
    const err = await rpcError(client.readResource({ uri: guide?.uri as string }));
    expect(err.code).toBe(-32602);
    expect(err.message).toContain("Resource not served");
  });

  it("serves Agent Skills only: a Nova skill and any URI that is not a SKILL.md are not skills", async () => {
    const sid = await session(compiled(DOCS));
    const client = await connect(sid);
    const { skills } = await allSkills(client);
    expect(skills.map((s) => s.frontmatter.name)).toEqual(["cleanup", "write-report"]);
    for (const uri of [
      "skill://docs/onboard/SKILL.md",
      "skill://docs/write-report/references/guide.md",
      "skill://docs/write-report",
      "trove://skills/docs/write-report",
      "skill://docs/Write-Report/SKILL.md",
    ]) {
      const err = await rpcError(getSkill(client, uri));
      expect(err.code).toBe(-32602);
      expect(err.data).toEqual({ uri });
    }
    // The Nova skill is still a trove:// resource.
    const nova = await client.readResource({ uri: "trove://skills/docs/onboard" });
    expect((nova.contents[0] as { text: string }).text).toContain("Send the welcome email.");
  });

  it("answers a malformed skills/get or skills/list with -32602", async () => {
    const sid = await session(compiled(DOCS));
    const client = await connect(sid);
    for (const params of [{}, { uri: 5 }]) {
      const err = await rpcError(client.request({ method: "skills/get", params }, GetSkillResult));
      expect(err.code).toBe(-32602);
    }
    for (const cursor of ["0", "x", "1.5", "-1"]) {
      const err = await rpcError(listSkills(client, cursor));
      expect(err).toMatchObject({ code: -32602, data: { cursor } });
    }
  });
});

describe("paging", () => {
  it("pages through skills/list: every skill exactly once, no entry split, the last page without a cursor", async () => {
    const names = Array.from({ length: 123 }, (_, i) => `skill-${String(i + 1).padStart(3, "0")}`);
    const files: PackFile[] = [{ path: "many/pack.yaml", content: "name: many\n" }];
    for (const name of names) {
      files.push({
        path: `many/${name}/SKILL.md`,
        content: `---\nname: ${name}\ndescription: Skill ${name}.\n---\n# ${name}\n`,
      });
      files.push({ path: `many/${name}/notes.md`, content: `Notes of ${name}.\n` });
    }
    const client = await connect(await session(compiled(files)));
    const { skills, pages } = await allSkills(client);
    expect(pages).toBe(3);
    expect(skills.map((s) => s.uri)).toEqual(names.map((n) => `skill://many/${n}/SKILL.md`));
    for (const skill of skills) expect(skill.resources).toHaveLength(2);
    expect((await listSkills(client, "3")).nextCursor).toBeUndefined();
    expect((await listSkills(client, "4")).skills).toEqual([]);
  });
});

describe("directories", () => {
  it("lists a skill's folder and subfolders one level at a time, and nothing else is a directory", async () => {
    const client = await connect(await session(compiled(DOCS)));
    const root = await readDirectory(client, "skill://docs/write-report");
    expect(root.resources).toEqual([
      {
        uri: "skill://docs/write-report/SKILL.md",
        name: "SKILL.md",
        mimeType: "text/markdown",
        size: REPORT_MD.length,
      },
      { uri: "skill://docs/write-report/assets", name: "assets", mimeType: "inode/directory" },
      { uri: "skill://docs/write-report/references", name: "references", mimeType: "inode/directory" },
      { uri: "skill://docs/write-report/scripts", name: "scripts", mimeType: "inode/directory" },
      { uri: "skill://docs/write-report/templates", name: "templates", mimeType: "inode/directory" },
    ]);
    const assets = await readDirectory(client, "skill://docs/write-report/assets");
    expect(assets.resources).toEqual([
      {
        uri: "skill://docs/write-report/assets/logo.png",
        name: "logo.png",
        mimeType: "image/png",
        size: LOGO.length,
      },
    ]);
    for (const uri of [
      "skill://docs/write-report/SKILL.md",
      "skill://docs/write-report/assets/logo.png",
      "skill://docs/write-report/nowhere",
      "skill://docs/onboard",
    ]) {
      const err = await rpcError(readDirectory(client, uri));
      expect(err).toMatchObject({ code: -32602, data: { uri } });
      expect(err.message).toContain(`Not a directory resource: ${uri}`);
    }
  });
});

describe("a hidden skill", () => {
  /** Each request about `name` in `pack`, answered in full: skills/get, reads of two files, the folder. */
  const requests = (pack: string, name: string): [string, unknown][] => [
    ["skills/get", { uri: `skill://${pack}/${name}/SKILL.md` }],
    ["resources/read", { uri: `skill://${pack}/${name}/SKILL.md` }],
    ["resources/read", { uri: `skill://${pack}/${name}/notes.md` }],
    ["resources/read", { uri: `skill://${pack}/${name}/references/guide.md` }],
    ["resources/directory/read", { uri: `skill://${pack}/${name}` }],
  ];

  async function expectHiddenLikeMissing(sid: string, pack: string, name: string, key = KEY_A) {
    const client = await connect(sid, key);
    const { skills } = await allSkills(client);
    expect(skills.map((s) => s.uri)).not.toContain(`skill://${pack}/${name}/SKILL.md`);
    const missing = requests(pack, "never-was");
    for (const [i, [method, params]] of requests(pack, name).entries()) {
      const hidden = await rawAnswer(sid, method, params, key);
      const absent = await rawAnswer(sid, method, missing[i]?.[1], key);
      expect(JSON.parse(hidden).error.code, method).toBe(-32602);
      // Byte for byte the same answer, once the name the caller sent is replaced.
      expect(hidden.replaceAll(name, "X"), method).toBe(absent.replaceAll("never-was", "X"));
    }
  }

  it("denied by the session's policy answers exactly as a skill that does not exist", async () => {
    const bundle = compiled(DOCS);
    const open = await connect(await session(bundle));
    expect((await getSkill(open, "skill://docs/write-report/SKILL.md")).skill.frontmatter.name).toBe(
      "write-report",
    );
    const sid = await session(bundle, { policy: { skills: { deny: ["write-report"] } } });
    await expectHiddenLikeMissing(sid, "docs", "write-report");
  });

  it("of another tenant, or of a project the session is not in, answers exactly as a skill that does not exist", async () => {
    const bundle = compiled(DOCS);
    await expectHiddenLikeMissing(await session(bundle), "other", "secret-plan");
    await expectHiddenLikeMissing(await session(bundle), "proj", "roadmap");
    await expectHiddenLikeMissing(await session(bundle, { project_id: "p2" }), "proj", "roadmap");
    // Where they are visible, they are served.
    const b = await connect(await session(bundle, {}, "tenant-b"), KEY_B);
    expect((await getSkill(b, "skill://other/secret-plan/SKILL.md")).skill.resources).toHaveLength(2);
    const p1 = await connect(await session(bundle, { project_id: "p1" }));
    await verify(p1, (await getSkill(p1, "skill://proj/roadmap/SKILL.md")).skill);
  });
});

describe("what the session's policy rewrites", () => {
  it("serves frontmatter YAML refuses, which Trove read after quoting, as the JSON it read", async () => {
    const lenient = "---\nname: triage\ndescription: Use when: a bug report comes in\n---\n\n# Triage\n";
    const bundle = compiled([
      { path: "ops/pack.yaml", content: "name: ops\n" },
      { path: "ops/triage/SKILL.md", content: lenient },
    ]);
    const client = await connect(await session(bundle));
    const { skill } = await getSkill(client, "skill://ops/triage/SKILL.md");
    expect(skill.frontmatter).toEqual({ name: "triage", description: "Use when: a bug report comes in" });
    const [served] = (await verify(client, skill)).values();
    expect(new TextDecoder().decode(served)).toBe(
      '---\n{"name":"triage","description":"Use when: a bug report comes in"}\n---\n\n# Triage\n',
    );
  });

  it("serves a skill unchanged, digests equal to the files on disk, when nothing in it is hidden", async () => {
    const sid = await session(compiled(DOCS), { skills: { redact_pii: false } });
    expect((await op(sid, "catalog_sync", { tools: [CREATE_ISSUE, WIPE_DISK] })).status).toBe(200);
    const client = await connect(sid);
    const { skill } = await getSkill(client, "skill://docs/cleanup/SKILL.md");
    expect(skill.resources.map((r) => r.digest)).toEqual([
      await sha256(CLEANUP_MD),
      await sha256(CONTACTS_MD),
    ]);
    expect(skill.frontmatter["allowed-tools"]).toBe("github.create_issue secret.wipe_disk");
    await verify(client, skill);
  });

  it("never names a denied tool or personal data: the served bytes change, and the digests and frontmatter follow them", async () => {
    const sid = await session(compiled(DOCS), { policy: { deny: ["secret.wipe_disk"] } });
    expect((await op(sid, "catalog_sync", { tools: [CREATE_ISSUE, WIPE_DISK] })).status).toBe(200);
    const client = await connect(sid);
    const { skill } = await getSkill(client, "skill://docs/cleanup/SKILL.md");
    expect(skill.frontmatter).toEqual({
      name: "cleanup",
      description: "Clean up a broken deployment.",
      "allowed-tools": "github.create_issue",
    });
    expect(skill.resources[0]?.digest).not.toBe(await sha256(CLEANUP_MD));
    expect(skill.resources[1]?.digest).not.toBe(await sha256(CONTACTS_MD));
    const read = await verify(client, skill);
    const served = [...read.values()].map((bytes) => new TextDecoder().decode(bytes)).join("\n");
    expect(served).not.toContain("wipe_disk");
    expect(served).not.toContain("ops-lead@acme.example");
    expect(served).toContain("`github.create_issue`");
    // The listing carries the same entry.
    const { skills } = await allSkills(client);
    expect(skills.find((s) => s.uri === skill.uri)).toEqual(skill);
  });
});
