/// <reference types="vite/client" />
// The pack compiler: every skill format, every invalid case's message, warnings, hashes, determinism.
import { describe, expect, it } from "vitest";
import type { BundledSkill } from "../../src/packs/bundle";
import { compilePacks, formatProblem, type PackFile } from "../../src/packs/compile";
import { canonicalJson, sha256Hex } from "../../src/search/hash";

const raw = import.meta.glob<string>("../fixtures/packs/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
});
const FIXTURES: PackFile[] = Object.entries(raw).map(([path, content]) => ({
  path: path.replace("../fixtures/packs/", ""),
  content,
}));

/** The fixture packs with these folder names, as the build script would pass them. */
function fixtures(...packs: string[]): PackFile[] {
  const files = FIXTURES.filter((f) => packs.includes(f.path.split("/")[0] ?? ""));
  expect(files.length).toBeGreaterThan(0);
  return files;
}

function compileClean(files: PackFile[]) {
  const result = compilePacks(files);
  expect(result.errors.map(formatProblem)).toEqual([]);
  return result;
}

const messages = (files: PackFile[]) => {
  const { errors, warnings } = compilePacks(files);
  return { errors: errors.map(formatProblem), warnings: warnings.map(formatProblem) };
};

const hashOf = (skill: BundledSkill) => {
  const { content_hash: _, ...rest } = skill;
  return sha256Hex(canonicalJson(rest));
};

const VALID = ["agent-skills", "skill-md", "skill-yaml", "skill-json", "skill-jsonl"];

describe("each skill format loads as one normalized record", () => {
  it("an Agent Skills folder keeps its body, its frontmatter extras and its bundled file", () => {
    const { bundle, warnings } = compileClean(fixtures("agent-skills"));
    expect(warnings).toEqual([]);
    const reference = "# Field types\n\nText, checkbox, radio, choice.\n";
    expect(bundle.skills).toEqual([
      {
        id: "docs/pdf-forms",
        name: "pdf-forms",
        pack: "docs",
        title: "Filling PDF forms",
        description: "Fill in PDF forms. Use when the user hands you a PDF with form fields.",
        trigger: "Fill in PDF forms. Use when the user hands you a PDF with form fields.",
        task_type: null,
        tags: [],
        steps: [],
        body: "# Filling PDF forms\n\n1. List the form's fields.\n2. Fill each one; see [the field guide](references/fields.md).",
        preconditions: [],
        failure_modes: [],
        files: [{ path: "references/fields.md", bytes: reference.length, sha256: sha256Hex(reference) }],
        origin: "agent_skills",
        source: "agent-skills/pdf-forms/SKILL.md",
        extra: {
          "allowed-tools": "Read Write",
          license: "MIT",
          metadata: { author: "docs-team" },
          "x-owner": "ops",
        },
        content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(bundle.skills[0]?.content_hash).toBe(hashOf(bundle.skills[0] as BundledSkill));
    expect(bundle.files).toEqual({ "docs/pdf-forms/references/fields.md": reference });
  });

  it("pack.yaml sets the pack's name, scope and flags, and a number version keeps its digits", () => {
    const { bundle } = compileClean(fixtures("agent-skills"));
    expect(bundle.packs).toEqual([
      {
        name: "docs",
        version: "1.10",
        description: "Document handling.",
        scope: "project",
        tenant_id: "acme",
        project_id: "web",
        pinned: ["pdf-forms"],
        enabled: true,
        update_existing: false,
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
  });

  it("a .skill.md file takes its fields from the frontmatter and its body as extra.notes", () => {
    const { bundle } = compileClean(fixtures("skill-md"));
    expect(bundle.packs[0]).toMatchObject({ name: "skill-md", scope: "global", enabled: true, pinned: [] });
    expect(bundle.skills).toEqual([
      {
        id: "skill-md/pack.core.browser_auth.login_basic",
        name: "pack.core.browser_auth.login_basic",
        pack: "skill-md",
        title: "Basic login (username/password)",
        description: "Standard website login without SSO.",
        trigger: "Log into a website using username and password.",
        task_type: "browser",
        tags: ["auth", "login", "browser"],
        steps: [
          "Navigate to the login page.",
          "Fill the username/email field.",
          "Fill the password field.",
          "Click “Sign in”.",
          "Verify login succeeded by checking for a user avatar or logout button.",
        ],
        body: null,
        preconditions: ["Credentials are available in tool_context or secret store."],
        failure_modes: ["Login form is inside an iframe.", "CAPTCHA or bot detection blocks interaction."],
        files: [],
        origin: "penguiflow",
        source: "skill-md/browser_auth/login_basic.skill.md",
        extra: {
          cluster: "Browser Authentication",
          notes: "Prefer the site's own login page over pop-ups.",
          tools: [{ tool: "tool_search", note: "If browser tools are not visible, discover them." }],
        },
        content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(bundle.files).toEqual({});
  });

  it("a .skill.yaml file without a name is named pack.<pack>.<path> and titled by that name", () => {
    const { bundle } = compileClean(fixtures("skill-yaml"));
    expect(bundle.skills).toEqual([
      {
        id: "skill-yaml/pack.skill-yaml.api.pagination.cursor_loop",
        name: "pack.skill-yaml.api.pagination.cursor_loop",
        pack: "skill-yaml",
        title: "Cursor pagination loop",
        description: "Retrieve all items from a cursor-paginated API.",
        trigger: "Retrieve all items from a cursor-paginated API.",
        task_type: "api",
        tags: ["pagination", "cursor"],
        steps: [
          "Call the endpoint with an initial cursor (or none).",
          "Append results to an accumulator list.",
          "Read the next cursor/token from the response.",
          "Repeat until the cursor/token is empty or missing.",
        ],
        body: null,
        preconditions: [],
        failure_modes: ["Rate limits require backoff between pages."],
        files: [],
        origin: "penguiflow",
        source: "skill-yaml/api/pagination/cursor_loop.skill.yaml",
        extra: {},
        content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
  });

  it("a .skill.json file keeps unknown fields in extra and defaults the title to the name", () => {
    const { bundle } = compileClean(fixtures("skill-json"));
    expect(bundle.skills).toEqual([
      {
        id: "skill-json/pack.billing.refund",
        name: "pack.billing.refund",
        pack: "skill-json",
        title: "pack.billing.refund",
        description: "Refund a card payment in full or in part.",
        trigger: "A customer asks for their money back.",
        task_type: "api",
        tags: [],
        steps: ["Find the charge.", "Refund the amount.", "Confirm to the customer."],
        body: null,
        preconditions: [],
        failure_modes: [],
        files: [],
        origin: "penguiflow",
        source: "skill-json/refund.skill.json",
        extra: { owner: "billing" },
        content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
  });

  it("a .skill.jsonl file gives one skill per non-empty line, unnamed ones named by line number", () => {
    const { bundle } = compileClean(fixtures("skill-jsonl"));
    const common = {
      pack: "skill-jsonl",
      task_type: null,
      body: null,
      preconditions: [],
      failure_modes: [],
      files: [],
      origin: "penguiflow",
      source: "skill-jsonl/recipes.skill.jsonl",
      extra: {},
      content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
    };
    expect(bundle.skills).toEqual([
      {
        ...common,
        id: "skill-jsonl/pack.recipes.boil_egg",
        name: "pack.recipes.boil_egg",
        title: "pack.recipes.boil_egg",
        description: "Boil an egg.",
        trigger: "Boil an egg.",
        tags: [],
        steps: ["Boil water.", "Add the egg.", "Wait 7 minutes."],
      },
      {
        ...common,
        id: "skill-jsonl/pack.skill-jsonl.recipes.3",
        name: "pack.skill-jsonl.recipes.3",
        title: "pack.skill-jsonl.recipes.3",
        description: "Make toast.",
        trigger: "Make toast.",
        tags: ["breakfast"],
        steps: ["Toast the bread."],
      },
    ]);
    for (const skill of bundle.skills) expect(skill.content_hash).toBe(hashOf(skill));
  });
});

describe("invalid packs fail with file:line — field — reason", () => {
  it.each([
    ["invalid-missing-trigger", "invalid-missing-trigger/no_trigger.skill.yaml:1 — trigger — is required"],
    [
      "invalid-empty-steps",
      "invalid-empty-steps/no_steps.skill.md:3 — steps — must be a non-empty list of strings",
    ],
    [
      "invalid-bad-name",
      "invalid-bad-name/pdf-forms/SKILL.md:2 — name — must be 1–64 lowercase letters, digits and single hyphens, with no hyphen at either end",
    ],
    [
      "invalid-frontmatter",
      "invalid-frontmatter/broken/SKILL.md:3 — frontmatter — Nested mappings are not allowed in compact mappings",
    ],
    [
      "invalid-duplicate",
      'invalid-duplicate/second.skill.json:1 — name — duplicate skill id "invalid-duplicate/pack.dup.same" (first defined in invalid-duplicate/first.skill.yaml:1)',
    ],
    ["invalid-tenant-scope", "invalid-tenant-scope/pack.yaml:2 — tenant_id — required when scope is tenant"],
  ])("%s", (pack, message) => {
    expect(messages(fixtures(pack)).errors).toEqual([message]);
  });

  it("a .skill.jsonl file reports each bad line by its number and keeps the good ones", () => {
    const { bundle, errors } = compilePacks(fixtures("invalid-jsonl"));
    expect(errors.map(formatProblem)).toEqual([
      "invalid-jsonl/lines.skill.jsonl:2 — json — invalid JSON: Unexpected end of JSON input",
      "invalid-jsonl/lines.skill.jsonl:3 — steps — is required",
    ]);
    expect(bundle.skills.map((s) => s.name)).toEqual(["pack.invalid-jsonl.lines.1"]);
  });

  it("collects every problem of every pack instead of stopping at the first", () => {
    const invalid = FIXTURES.filter((f) => f.path.startsWith("invalid-"));
    expect(compilePacks(invalid).errors).toHaveLength(8);
  });

  it("names each wrong field of a skill, with its line", () => {
    const content = "trigger: 42\nsteps:\n  - Fine.\n  - [nested]\ntags: solo\n";
    expect(messages([{ path: "p/a.skill.yaml", content }]).errors).toEqual([
      "p/a.skill.yaml:1 — trigger — must be a string",
      "p/a.skill.yaml:4 — steps[1] — must be a string",
      "p/a.skill.yaml:5 — tags — must be a list of strings",
    ]);
  });

  it("a project pack needs both ids, and scope and pack.yaml fields are checked", () => {
    const content = "scope: project\npinned: nope\nextra_key: 1\n";
    expect(messages([{ path: "p/pack.yaml", content }])).toEqual({
      errors: ["p/pack.yaml:2 — pinned — must be a list of strings"],
      warnings: ["p/pack.yaml:3 — extra_key — unknown field; ignored"],
    });
    expect(messages([{ path: "p/pack.yaml", content: "scope: project\n" }]).errors).toEqual([
      "p/pack.yaml:1 — tenant_id — required when scope is project",
      "p/pack.yaml:1 — project_id — required when scope is project",
    ]);
  });

  it("SKILL.md and .skill.md files without frontmatter are errors", () => {
    expect(
      messages([
        { path: "p/s/SKILL.md", content: "# Just markdown\n" },
        { path: "p/x.skill.md", content: "---\ntrigger: t\nsteps: [a]\n" },
      ]).errors,
    ).toEqual([
      "p/s/SKILL.md:1 — frontmatter — missing: SKILL.md starts with a --- block holding name and description",
      "p/x.skill.md:1 — frontmatter — not closed: add a line with --- after the fields",
    ]);
  });
});

describe("warnings leave the build passing", () => {
  it("a name that differs from its folder is kept", () => {
    const { bundle, warnings } = compileClean(fixtures("warn-name-mismatch"));
    expect(warnings.map(formatProblem)).toEqual([
      'warn-name-mismatch/report-writer/SKILL.md:2 — name — "write-report" differs from its folder "report-writer"; kept',
    ]);
    expect(bundle.skills.map((s) => s.id)).toEqual(["warn-name-mismatch/write-report"]);
  });

  it("a SKILL.md without a description is skipped", () => {
    const { bundle, warnings } = compileClean(fixtures("warn-no-description"));
    expect(warnings.map(formatProblem)).toEqual([
      "warn-no-description/half-done/SKILL.md:2 — description — missing; skill skipped",
    ]);
    expect(bundle.skills).toEqual([]);
    expect(bundle.packs.map((p) => p.name)).toEqual(["warn-no-description"]);
  });

  it("bundled files over the size limit or not UTF-8 are listed but not stored", () => {
    const files: PackFile[] = [
      { path: "p/s/SKILL.md", content: "---\nname: s\ndescription: d\n---\n" },
      { path: "p/s/assets/big.txt", content: "x".repeat(11) },
      { path: "p/s/assets/logo.png", content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]) },
      { path: "p/s/assets/small.txt", content: "ok" },
    ];
    const { bundle, warnings } = compileClean(files);
    expect(Object.keys(bundle.files)).toEqual(["p/s/assets/big.txt", "p/s/assets/small.txt"]);
    expect(warnings.map(formatProblem)).toEqual([
      "p/s/assets/logo.png — file — not UTF-8 text; listed, not stored",
    ]);
    const limited = compilePacks(files, { maxFileBytes: 10 });
    expect(limited.warnings.map(formatProblem)).toEqual([
      "p/s/assets/big.txt — file — 11 bytes is over the 10-byte limit; listed, not stored",
      "p/s/assets/logo.png — file — not UTF-8 text; listed, not stored",
    ]);
    expect(limited.bundle.skills[0]?.files.map((f) => [f.path, f.bytes])).toEqual([
      ["assets/big.txt", 11],
      ["assets/logo.png", 6],
      ["assets/small.txt", 2],
    ]);
    expect(limited.bundle.files).toEqual({ "p/s/assets/small.txt": "ok" });
  });

  it("unrecognized files and pinned names that match no skill are reported", () => {
    const { warnings } = compileClean([
      { path: "p/pack.yaml", content: "pinned: [ghost]\n" },
      { path: "p/notes.txt", content: "hello" },
      { path: "p/README.md", content: "# About" },
      { path: "p/.hidden.skill.yaml", content: "not: valid" },
    ]);
    expect(warnings.map(formatProblem)).toEqual([
      "p/notes.txt — file — not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md); ignored",
      'p/pack.yaml:1 — pinned[0] — no skill named "ghost" in this pack',
    ]);
  });
});

describe("hashes and determinism", () => {
  const valid = () => fixtures(...VALID);
  const edit = (files: PackFile[], path: string, change: (text: string) => string) =>
    files.map((f) => (f.path === path ? { ...f, content: change(f.content as string) } : f));
  const hashes = (files: PackFile[]) => {
    const { bundle } = compileClean(files);
    return {
      bundle: bundle.hash,
      packs: Object.fromEntries(bundle.packs.map((p) => [p.name, p.hash])),
      skills: Object.fromEntries(bundle.skills.map((s) => [s.id, s.content_hash])),
    };
  };

  it("changing one skill changes its hash, its pack's and the bundle's, and nothing else", () => {
    const before = hashes(valid());
    const after = hashes(
      edit(valid(), "skill-jsonl/recipes.skill.jsonl", (t) =>
        t.replace("Wait 7 minutes.", "Wait 8 minutes."),
      ),
    );
    const changedSkill = "skill-jsonl/pack.recipes.boil_egg";
    expect(after.skills[changedSkill]).not.toBe(before.skills[changedSkill]);
    expect({ ...after.skills, [changedSkill]: "" }).toEqual({ ...before.skills, [changedSkill]: "" });
    expect(after.packs["skill-jsonl"]).not.toBe(before.packs["skill-jsonl"]);
    expect({ ...after.packs, "skill-jsonl": "" }).toEqual({ ...before.packs, "skill-jsonl": "" });
    expect(after.bundle).not.toBe(before.bundle);
  });

  it("editing a bundled file without changing its size still changes its skill's hash", () => {
    const before = hashes(valid());
    const after = hashes(
      edit(valid(), "agent-skills/pdf-forms/references/fields.md", (t) => t.replace("radio", "RADIO")),
    );
    expect(after.skills["docs/pdf-forms"]).not.toBe(before.skills["docs/pdf-forms"]);
    expect(after.bundle).not.toBe(before.bundle);
  });

  it("formatting that does not change a skill's fields leaves every hash equal", () => {
    const before = hashes(valid());
    const after = hashes(
      edit(valid(), "skill-yaml/api/pagination/cursor_loop.skill.yaml", (t) =>
        `# a comment\n${t.replace("tags: [pagination, cursor]", "tags:\n  - pagination\n  - cursor")}`.replace(
          /\n/g,
          "\r\n",
        ),
      ),
    );
    expect(after).toEqual(before);
  });

  it("the output does not depend on the order of the input files", () => {
    const files = valid();
    const expected = JSON.stringify(compilePacks(files));
    const shuffled = files.map((f, i) => ({ f, key: (i * 7919) % 13 })).sort((a, b) => a.key - b.key);
    expect(JSON.stringify(compilePacks(shuffled.map((s) => s.f)))).toBe(expected);
    expect(JSON.stringify(compilePacks([...files].reverse()))).toBe(expected);
  });

  it("packs, skills and bundled files come out sorted", () => {
    const { bundle } = compileClean(valid());
    const names = bundle.packs.map((p) => p.name);
    const ids = bundle.skills.map((s) => s.id);
    expect(names).toEqual([...names].sort());
    expect(ids).toEqual([...ids].sort());
    expect(Object.keys(bundle.files)).toEqual(Object.keys(bundle.files).sort());
  });
});

describe("the packs Trove ships", () => {
  const shipped = import.meta.glob<string>("../../packs/**/*", {
    query: "?raw",
    import: "default",
    eager: true,
  });

  it("compile without errors or warnings", () => {
    const files = Object.entries(shipped).map(([path, content]) => ({
      path: path.replace("../../packs/", ""),
      content,
    }));
    const { bundle, errors, warnings } = compilePacks(files);
    expect([...errors, ...warnings].map(formatProblem)).toEqual([]);
    expect(bundle.packs.map((p) => p.name)).toContain("core");
    const core = bundle.skills.filter((s) => s.pack === "core");
    expect(core.filter((s) => s.origin === "agent_skills").every((s) => s.files.length > 0)).toBe(true);
    expect(core.length).toBeGreaterThanOrEqual(5);
  });
});

describe("formatProblem", () => {
  it("omits the line when it is unknown", () => {
    expect(formatProblem({ file: "a/b.skill.yaml", line: 3, field: "steps", reason: "r" })).toBe(
      "a/b.skill.yaml:3 — steps — r",
    );
    expect(formatProblem({ file: "a/x.bin", field: "file", reason: "r" })).toBe("a/x.bin — file — r");
  });
});
