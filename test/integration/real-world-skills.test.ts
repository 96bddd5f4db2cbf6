// A public skills repository's kind of content (test/fixtures/packs/real-world), compiled and loaded
// into a session: what each surface shows of it (issue 12). The compiler's verdicts are in
// test/unit/pack-compile.test.ts; here, the rendered text.
import { runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { Bundle } from "../../src/packs/bundle";
import { newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const raw = import.meta.glob<string>("../fixtures/packs/real-world/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
});

let bundle: Bundle;

beforeAll(() => {
  const files = Object.entries(raw).map(([path, content]) => ({
    path: path.replace("../fixtures/packs/", ""),
    content,
  }));
  const compiled = compilePacks(files);
  expect(compiled.errors).toEqual([]);
  bundle = compiled.bundle;
});

async function session(config: Record<string, unknown> = {}): Promise<string> {
  const sid = newSid();
  await runInDurableObject(sessionStub(sid), (obj) => {
    obj.bundle = bundle;
  });
  const put = await op(sid, "session_configure", { skills: { redact_pii: false }, ...config });
  expect(put.status).toBe(200);
  return sid;
}

describe("a real skills repository in a session", () => {
  it("loads every usable skill and none of the unusable ones", async () => {
    const sid = await session();
    const listed = (await op(sid, "skill_list", { page_size: 100 })).json;
    expect(listed.skills.map((s: { name: string }) => s.name).sort()).toEqual([
      "brand-voice",
      "café-notes",
      "pdf",
      "webapp-testing",
      "write-report",
    ]);
  });

  it("keeps prose as written: Read, Edit, Bash and Write as English words are not tool names", async () => {
    const sid = await session();
    const pdf = (await op(sid, "skill_load", { name: "pdf" })).json;
    expect(pdf.body).toContain("Read the whole document before you change anything. Edit a copy");
    expect(pdf.body).toContain("Write the\nresult next to it");
    expect(pdf.body).toContain("Bash is fine for the helper scripts");
    expect(pdf.body).not.toContain("a tool found with tool_search");
  });

  it("returns the spec's optional fields, and allowed-tools without tools the session may not use", async () => {
    const sid = await session({ policy: { deny: ["Write"] } });
    const tools = ["Read", "Write", "Bash"].map((name) => ({ name, description: `${name} in the sandbox` }));
    expect((await op(sid, "catalog_sync", { tools })).status).toBe(200);
    const pdf = (await op(sid, "skill_load", { name: "pdf" })).json;
    expect(pdf).toMatchObject({
      license: "Proprietary. LICENSE.txt has complete terms",
      compatibility: "Requires Python 3.10+ with pypdf, and poppler-utils for pdftotext.",
      metadata: { author: "example-org", version: "1.0" },
    });
    // Write is denied: it is not named, not even in the skill's own list.
    expect(pdf.allowed_tools).toEqual(["Read", "Bash(python3:*)"]);
    // A tool the session does not have is left out alike (absent and denied look the same).
    const bare = await session();
    expect((await op(bare, "skill_load", { name: "pdf" })).json.allowed_tools).toEqual([]);
    const got = (await op(sid, "skill_get", { names: ["pdf"], format: "raw" })).json.skills[0];
    expect(got).toMatchObject({ license: pdf.license, compatibility: pdf.compatibility });
    expect(got.allowed_tools).toEqual(pdf.allowed_tools);
    const cafe = (await op(sid, "skill_load", { name: "café-notes" })).json;
    expect(cafe.id).toBe("real-world/café-notes");
  });

  it("lists compatibility where skills are listed, trimmed when long", async () => {
    const sid = await session();
    const listed = (await op(sid, "skill_list", { page_size: 100 })).json.skills;
    const byName = new Map(listed.map((s: { name: string }) => [s.name, s]));
    expect(byName.get("pdf")).toMatchObject({
      compatibility: "Requires Python 3.10+ with pypdf, and poppler-utils for pdftotext.",
    });
    const long = byName.get("webapp-testing") as { compatibility: string };
    expect(long.compatibility.length).toBeLessThanOrEqual(120);
    expect(long.compatibility.endsWith("…")).toBe(true);
    expect(byName.get("brand-voice")).not.toHaveProperty("compatibility");
    const directory = (await op(sid, "skill_directory", {})).json.text;
    expect(directory).toContain(
      "(needs: Requires Python 3.10+ with pypdf, and poppler-utils for pdftotext.)",
    );
  });

  it("keeps an over-long description whole for search and trims it where it is listed", async () => {
    const sid = await session();
    // The description's last words, past the spec's 1,024 characters, still find the skill.
    const found = (await op(sid, "skill_search", { query: "alt text contrast ratios warmth" })).json;
    expect(found.skills[0]?.name).toBe("brand-voice");
    const listed = (await op(sid, "skill_list", { page_size: 100 })).json.skills.find(
      (s: { name: string }) => s.name === "brand-voice",
    );
    expect(listed.trigger.length).toBeLessThanOrEqual(160);
    expect(listed.trigger.endsWith("…")).toBe(true);
    const full = (await op(sid, "skill_get", { names: ["brand-voice"], format: "raw" })).json.skills[0];
    expect(full.description.length).toBe(1068);
  });
});
