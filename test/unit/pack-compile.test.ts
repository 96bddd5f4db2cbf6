/// <reference types="vite/client" />
// The pack compiler: every skill format, attachable packs and their tools, what a real skills
// repository holds, every problem's message (warning or error), strict mode, hashes, determinism.
import { describe, expect, it } from "vitest";
import { compilePacks, formatProblem, type PackFile } from "../../src/compiler/compile";
import { applyStrict, buildOptions } from "../../src/compiler/strict";
import type { BundledSkill } from "../../src/packs/bundle";
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

/** The fixture's text, size in bytes and sha256, as the compiler sees it. */
const fixture = (path: string) => {
  const content = FIXTURES.find((f) => f.path === path)?.content;
  if (typeof content !== "string") throw new Error(`no fixture ${path}`);
  return { content, bytes: new TextEncoder().encode(content).length, sha256: sha256Hex(content) };
};

/** A public skills repository's kind of content (test/fixtures/packs/real-world), compiled. */
const realWorld = () => compilePacks(fixtures("real-world"));

const VALID = [
  "agent-skills",
  "skill-md",
  "skill-yaml",
  "skill-json",
  "skill-jsonl",
  "capability-incident",
  "capability-readme",
  "plain-readme",
  "nova-skills",
  "agent-skill-tools",
];

describe("each skill format loads as one normalized record", () => {
  it("an Agent Skills folder keeps its body, its frontmatter extras and its bundled file", () => {
    const { bundle, warnings } = compileClean(fixtures("agent-skills"));
    expect(warnings.map(formatProblem)).toEqual([
      "agent-skills/pdf-forms/SKILL.md:8 — x-owner — not an Agent Skills field; kept in extra",
    ]);
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
        tools: [],
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
        folder: "agent-skills",
        capability: null,
        tools: [],
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
        tools: [],
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
    expect(bundle.packFiles).toEqual({});
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
        tools: [],
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
        tools: [],
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
      tools: [],
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

  it("a Nova folder gives one skill: manifest fields, instructions as body, its tools, config in extra", () => {
    const { bundle, warnings } = compileClean(fixtures("nova-skills"));
    expect(warnings).toEqual([]);
    const welcome = fixture("nova-skills/employee_onboarding/templates/welcome.md");
    const description = "Handle new hire setup, emails, and checklists.";
    expect(bundle.skills).toEqual([
      {
        id: "hr/employee_onboarding",
        name: "employee_onboarding",
        pack: "hr",
        title: "employee_onboarding",
        description,
        trigger: description,
        task_type: null,
        tags: ["hr", "onboarding", "workflow"],
        steps: [],
        body: expect.stringMatching(/^# Employee onboarding\n\n1\. Confirm .*buddy program\.$/s),
        preconditions: [],
        failure_modes: [],
        files: [{ path: "templates/welcome.md", bytes: welcome.bytes, sha256: welcome.sha256 }],
        origin: "nova",
        tools: [
          expect.objectContaining({ name: "create_accounts", side_effects: "write" }),
          expect.objectContaining({ name: "send_welcome_email", side_effects: "external" }),
        ],
        source: "nova-skills/employee_onboarding/manifest.yaml",
        extra: {
          author: "nova-team",
          config: { default_office: "Berlin", buddy_program: true, accounts: ["email", "chat", "vpn"] },
          owner_team: "people-ops",
          version: "1.10",
        },
        content_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(bundle.skills[0]?.content_hash).toBe(hashOf(bundle.skills[0] as BundledSkill));
    expect(bundle.files).toEqual({ "hr/employee_onboarding/templates/welcome.md": welcome.content });
    expect(bundle.packs[0]).toMatchObject({ name: "hr", capability: null, tools: [] });
  });

  it("an Agent Skills folder's tools.json gives the skill its tools and is not one of its files", () => {
    const { bundle, warnings } = compileClean(fixtures("agent-skill-tools"));
    expect(warnings).toEqual([]);
    const [skill] = bundle.skills;
    expect(skill?.files.map((f) => f.path)).toEqual(["scripts/redact.py"]);
    expect(skill?.tools).toEqual([
      {
        name: "redact_pdf",
        description: "Black out the given boxes on the given pages and save a new PDF.",
        side_effects: "write",
        input_schema: expect.objectContaining({ type: "object", required: ["path", "boxes"] }),
      },
    ]);
    expect(Object.keys(bundle.files)).toEqual(["agent-skill-tools/pdf-redact/scripts/redact.py"]);
  });
});

describe("a pack with an entry doc can be attached", () => {
  it("a root SKILL.md is the entry doc: the pack lists every file, keeps their text and its tools", () => {
    const { bundle, warnings } = compileClean(fixtures("capability-incident"));
    const [pack] = bundle.packs;
    const file = (path: string, text = true) => {
      const { bytes, sha256 } = fixture(`capability-incident/${path}`);
      return { path, bytes, sha256, text };
    };
    expect(pack?.capability).toEqual({
      entry: "SKILL.md",
      name: "incident-triage",
      description: "Triage production incidents; use for outages, error spikes, and status updates.",
      files: [
        file("SKILL.md"),
        file("docs/escalation.md"),
        file("docs/status-updates.md"),
        file("resources/error-catalog.md"),
        file("resources/severity-matrix.png", false),
        file("scripts/collect_logs.sh"),
      ],
    });
    // The root SKILL.md describes the pack; it is not a skill of it.
    expect(bundle.skills).toEqual([]);
    expect(Object.keys(bundle.packFiles)).toEqual([
      "incident/SKILL.md",
      "incident/docs/escalation.md",
      "incident/docs/status-updates.md",
      "incident/resources/error-catalog.md",
      "incident/scripts/collect_logs.sh",
    ]);
    expect(bundle.packFiles["incident/SKILL.md"]).toBe(fixture("capability-incident/SKILL.md").content);
    expect(bundle.packFiles["incident/resources/error-catalog.md"]?.length).toBeGreaterThan(4096);
    expect(pack?.tools.map((t) => t.name)).toEqual([
      "get_error_rate",
      "post_status_update",
      "delete_alert_silence",
    ]);
    // Only the local execution fields written outside `extra` are reported.
    expect(warnings.map(formatProblem)).toEqual([
      "capability-incident/tools.json:34 — tools[1].command — not a tool record field; kept in extra",
      "capability-incident/tools.json:35 — tools[1].args — not a tool record field; kept in extra",
      "capability-incident/tools.json:36 — tools[1].timeout_ms — not a tool record field; kept in extra",
    ]);
    expect(pack?.tools[1]?.extra).toEqual({
      args: ["post", "--json"],
      command: "statusctl",
      timeout_ms: 10000,
    });
    expect(pack?.tools[0]?.extra).toEqual({
      args: ["error-rate", "--json"],
      command: "metricsctl",
      cwd_policy: "workspace",
    });
  });

  it("a README.md with name and description is the entry doc, and the pack's skills still load", () => {
    const { bundle, warnings } = compileClean(fixtures("capability-readme"));
    expect(warnings).toEqual([]);
    expect(bundle.packs[0]?.capability).toMatchObject({
      entry: "README.md",
      name: "brand-guidelines",
      description: "Apply Acme brand rules to documents and copy.",
    });
    expect(bundle.packs[0]?.tools).toEqual([]);
    expect(bundle.skills.map((s) => s.id)).toEqual(["capability-readme/pack.brand.tone_check"]);
    expect(Object.keys(bundle.packFiles)).toEqual([
      "capability-readme/README.md",
      "capability-readme/docs/voice.md",
      "capability-readme/templates/press-release.md",
      "capability-readme/tone_check.skill.yaml",
    ]);
  });

  it("a README.md without frontmatter leaves a pack of skills only, quietly", () => {
    const { bundle, warnings } = compileClean(fixtures("plain-readme"));
    expect(warnings).toEqual([]);
    expect(bundle.packs[0]).toMatchObject({ name: "plain-readme", capability: null, tools: [] });
    expect(bundle.skills).toHaveLength(1);
    expect(bundle.packFiles).toEqual({});
  });

  it("the entry doc is entry in pack.yaml, else SKILL.md, else README.md, else the first root .md", () => {
    const doc = (name: string) => `---\nname: ${name}\ndescription: About ${name}.\n---\n`;
    const entryOf = (files: PackFile[]) => compileClean(files).bundle.packs[0]?.capability?.entry;
    const all: PackFile[] = [
      { path: "p/a.skill.md", content: "---\ntrigger: t\nsteps: [s]\n---\n" },
      { path: "p/b.md", content: doc("b") },
      { path: "p/c.md", content: doc("c") },
      { path: "p/README.md", content: doc("readme") },
      { path: "p/SKILL.md", content: doc("skill") },
      { path: "p/docs/guide.md", content: doc("guide") },
    ];
    expect(entryOf([...all, { path: "p/pack.yaml", content: "entry: docs/guide.md\n" }])).toBe(
      "docs/guide.md",
    );
    expect(entryOf(all)).toBe("SKILL.md");
    expect(entryOf(all.filter((f) => f.path !== "p/SKILL.md"))).toBe("README.md");
    expect(entryOf(all.filter((f) => !/SKILL|README/.test(f.path)))).toBe("b.md");
    expect(entryOf(all.filter((f) => f.path.startsWith("p/docs/")))).toBeUndefined();
  });

  it("an entry in pack.yaml that names no doc of the pack fails the build", () => {
    expect(messages([{ path: "p/pack.yaml", content: "version: '1'\nentry: docs/missing.md\n" }])).toEqual({
      errors: ['p/pack.yaml:2 — entry — "docs/missing.md" is not a doc of this pack'],
      warnings: [],
    });
    expect(messages([{ path: "p/pack.yaml", content: "entry: ../outside.md\n" }]).errors).toEqual([
      "p/pack.yaml:1 — entry — must be a path inside the pack, like docs/guide.md",
    ]);
  });

  it("an entry doc without name and description leaves the pack unattachable, with a warning", () => {
    const cases: [PackFile[], string[]][] = [
      [
        [
          { path: "p/pack.yaml", content: "entry: guide.md\n" },
          { path: "p/guide.md", content: "# Guide\n" },
        ],
        [
          "p/guide.md — file — not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md or manifest.yaml); ignored",
          "p/guide.md:1 — frontmatter — missing: the entry doc named in pack.yaml starts with a --- block holding name and description; the pack is not attachable",
        ],
      ],
      [
        [
          { path: "p/README.md", content: "# Ops\n" },
          { path: "p/tools.json", content: '[{"name": "t", "description": "d"}]' },
        ],
        [
          "p/README.md:1 — frontmatter — missing: a pack with tools.json needs an entry doc that starts with a --- block holding name and description; the pack is not attachable and its tools are not loaded",
        ],
      ],
      [
        [{ path: "p/README.md", content: "---\nname: ops\ntitle: Ops\n---\n# Ops\n" }],
        ["p/README.md:2 — description — is required; the pack is not attachable"],
      ],
      [
        [{ path: "p/SKILL.md", content: "---\nname: '  '\ndescription: 3\n---\n" }],
        [
          "p/SKILL.md:2 — name — must be a non-empty string; the pack is not attachable",
          "p/SKILL.md:3 — description — must be a string; the pack is not attachable",
        ],
      ],
    ];
    for (const [files, warnings] of cases) {
      const { bundle, errors } = compilePacks(files);
      expect(messages(files)).toEqual({ errors: [], warnings });
      expect(errors).toEqual([]);
      expect(bundle.packs[0]).toMatchObject({ capability: null, tools: [] });
    }
  });

  it("an entry doc past the SKILL.md limits is kept whole, with a warning", () => {
    const description = "d".repeat(1025);
    const { bundle, warnings } = compileClean([
      { path: "p/SKILL.md", content: `---\nname: ${"n".repeat(65)}\ndescription: ${description}\n---\n` },
    ]);
    expect(warnings.map(formatProblem)).toEqual([
      "p/SKILL.md:2 — name — 65 characters is over the spec's 64; kept whole",
      "p/SKILL.md:3 — description — 1025 characters is over the spec's 1024; kept whole",
    ]);
    expect(bundle.packs[0]?.capability).toMatchObject({ name: "n".repeat(65), description });
  });

  it("pack files over the size limit are listed but not readable; an entry doc over it leaves the pack unattachable", () => {
    const files: PackFile[] = [
      { path: "p/README.md", content: "---\nname: p\ndescription: d\n---\n" },
      { path: "p/big.txt", content: "x".repeat(40) },
      { path: "p/s/SKILL.md", content: "---\nname: s\ndescription: d\n---\n" },
      { path: "p/s/big.txt", content: "y".repeat(40) },
    ];
    const { bundle, errors, warnings } = compilePacks(files, { maxFileBytes: 39 });
    expect(errors.map(formatProblem)).toEqual([]);
    // The skill's file is reported once, by its skill.
    expect(warnings.map(formatProblem)).toEqual([
      "p/big.txt — file — 40 bytes is over the 39-byte limit; listed, not readable",
      "p/s/big.txt — file — 40 bytes is over the 39-byte limit; listed, not stored",
    ]);
    expect(bundle.packs[0]?.capability?.files.map((f) => [f.path, f.text])).toEqual([
      ["README.md", true],
      ["big.txt", false],
      ["s/SKILL.md", true],
      ["s/big.txt", false],
    ]);
    const tooBig = compilePacks(files, { maxFileBytes: 20 });
    expect(tooBig.errors).toEqual([]);
    expect(tooBig.warnings.map(formatProblem)).toEqual([
      "p/README.md — file — 31 bytes is over the 20-byte limit for an entry doc; the pack is not attachable",
      "p/big.txt — file — not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md or manifest.yaml); ignored",
      "p/s/big.txt — file — 40 bytes is over the 20-byte limit; listed, not stored",
    ]);
    expect(tooBig.bundle.packs[0]?.capability).toBeNull();
    expect(tooBig.bundle.skills.map((skill) => skill.id)).toEqual(["p/s"]);
  });
});

describe("tools.json", () => {
  const withTools = (tools: string, pack = "p"): PackFile[] => [
    { path: `${pack}/SKILL.md`, content: `---\nname: ${pack}\ndescription: d\n---\n` },
    { path: `${pack}/tools.json`, content: tools },
  ];

  it("names each wrong field of a tool, with its line, and leaves that tool out", () => {
    const tools = [
      "[",
      '  { "name": "ok", "description": "Fine." },',
      "  {",
      '    "name": "bad name",',
      '    "side_effects": "destroy",',
      '    "tags": "ops"',
      "  },",
      "  42",
      "]",
    ].join("\n");
    expect(messages(withTools(tools))).toEqual({
      errors: [],
      warnings: [
        "p/tools.json:3 — tools[1].description — is required; tool left out",
        "p/tools.json:4 — tools[1].name — must match ^[A-Za-z0-9_.:-]{1,128}$; tool left out",
        'p/tools.json:5 — tools[1].side_effects — must be one of "pure", "read", "write", "external", "stateful"; tool left out',
        "p/tools.json:6 — tools[1].tags — must be a list; tool left out",
        "p/tools.json:8 — tools[2] — must be a tool record (an object with name and description); tool left out",
      ],
    });
    expect(compilePacks(withTools(tools)).bundle.packs[0]?.tools.map((t) => t.name)).toEqual(["ok"]);
  });

  it("is a list of tools or an object with a tools list; anything else brings no tools", () => {
    expect(messages(withTools('{\n  "tool": []\n}'))).toEqual({
      errors: [],
      warnings: [
        'p/tools.json:1 — tools — must be a list of tool records, or { "tools": [ … ] }; no tools loaded from this file',
      ],
    });
    expect(messages(withTools('{\n  "tools": [],\n  "version": 2\n}'))).toEqual({
      errors: [],
      warnings: ["p/tools.json:3 — version — unknown field; ignored"],
    });
    expect(messages(withTools('[\n  { "name": "a", }\n]')).warnings).toEqual([
      expect.stringMatching(/^p\/tools\.json:2 — json — invalid JSON: .*; no tools loaded from this file$/),
    ]);
  });

  it("drops a namespace with a warning and leaves out a tool with a field set twice", () => {
    const tools = [
      "[{",
      '  "name": "run",',
      '  "description": "Run it.",',
      '  "namespace": "mine",',
      '  "command": "run.sh",',
      '  "extra": { "command": "other.sh", "cwd_policy": "pack_root" }',
      "}]",
    ].join("\n");
    expect(messages(withTools(tools))).toEqual({
      errors: [],
      warnings: [
        "p/tools.json:4 — tools[0].namespace — ignored: pack tools are namespaced by their pack",
        "p/tools.json:5 — tools[0].command — not a tool record field; kept in extra",
        "p/tools.json:5 — tools[0].command — also set in extra.command: keep one; tool left out",
      ],
    });
    expect(compilePacks(withTools(tools)).bundle.packs[0]?.tools).toEqual([]);
  });

  it("a tool's namespaced name <owner>__<name> must be a valid tool name", () => {
    const pack = "p".repeat(64);
    const tools = `[{ "name": "${"t".repeat(63)}", "description": "d" }]`;
    expect(messages(withTools(tools, pack)).warnings).toEqual([
      `${pack}/tools.json:1 — tools[0].name — namespaced as "${pack}__${"t".repeat(63)}", which must match ^[A-Za-z0-9_.:-]{1,128}$ (at most 128 characters); tool left out`,
    ]);
  });

  it("namespaced names are unique in the whole bundle, across packs and skills: a clash fails", () => {
    const files: PackFile[] = [
      ...withTools('[{ "name": "restart", "description": "Restart the service." }]', "ops"),
      { path: "tools/ops/SKILL.md", content: "---\nname: ops\ndescription: Operate.\n---\n" },
      { path: "tools/ops/tools.json", content: '[\n  { "name": "restart", "description": "Restart." }\n]' },
    ];
    expect(messages(files).errors).toEqual([
      'tools/ops/tools.json:2 — tools[0].name — namespaced name "ops__restart" is already used by ops/tools.json:1',
    ]);
  });
});

describe("Nova skill folders", () => {
  const nova = (manifest: string, more: PackFile[] = []): PackFile[] => [
    { path: "p/onboard/manifest.yaml", content: manifest },
    { path: "p/onboard/instructions.md", content: "# Onboard\n" },
    ...more,
  ];

  it("report a name that differs from the folder, tools.py without tools.json and a config.yaml twice set", () => {
    const { bundle, warnings } = compileClean(
      nova("name: onboarding\ndescription: Onboard people.\nconfig: {a: 1}\n", [
        { path: "p/onboard/tools.py", content: "def send(): ...\n" },
        { path: "p/onboard/config.yaml", content: "a: 2\n" },
      ]),
    );
    expect(warnings.map(formatProblem)).toEqual([
      'p/onboard/manifest.yaml:1 — name — "onboarding" differs from its folder "onboard"; kept',
      "p/onboard/manifest.yaml:3 — config — replaced by config.yaml",
      "p/onboard/tools.py — file — Trove does not load tools.py; declare the skill's tools in tools.json (kept as a file)",
    ]);
    expect(bundle.skills[0]).toMatchObject({ id: "p/onboarding", extra: { config: { a: 2 } } });
    expect(bundle.skills[0]?.files.map((f) => f.path)).toEqual(["tools.py"]);
  });

  it("warn on a bad optional field or config.yaml, a root manifest.yaml, or a folder with both kinds of skill", () => {
    const badTags = nova("name: onboard\ndescription: d\ntags: hr\n");
    expect(messages(badTags)).toEqual({
      errors: [],
      warnings: ["p/onboard/manifest.yaml:3 — tags — must be a list of strings; ignored"],
    });
    expect(compilePacks(badTags).bundle.skills[0]).toMatchObject({ id: "p/onboard", tags: [] });
    const badConfig = nova("name: onboard\ndescription: d\n", [
      { path: "p/onboard/config.yaml", content: "- a\n" },
    ]);
    expect(messages(badConfig).warnings).toEqual([
      "p/onboard/config.yaml:1 — config — must be a mapping of settings; config.yaml ignored",
    ]);
    expect(compilePacks(badConfig).bundle.skills[0]?.extra).toEqual({});
    expect(messages([{ path: "p/manifest.yaml", content: "name: p\ndescription: d\n" }])).toEqual({
      errors: [],
      warnings: [
        "p/manifest.yaml — file — manifest.yaml belongs in a Nova skill folder inside the pack (<pack>/<skill>/manifest.yaml); ignored",
      ],
    });
    const both = nova("name: onboard\ndescription: d\n", [
      { path: "p/onboard/SKILL.md", content: "---\nname: onboard\ndescription: d\n---\n" },
    ]);
    expect(messages(both)).toEqual({
      errors: [],
      warnings: [
        "p/onboard/manifest.yaml — file — a skill folder holds SKILL.md (Agent Skills) or manifest.yaml (Nova), not both; manifest.yaml ignored",
      ],
    });
    expect(compilePacks(both).bundle.skills.map((skill) => skill.origin)).toEqual(["agent_skills"]);
  });

  it("keep a name off ADR-014's pattern and a description over 1024 characters, with warnings", () => {
    const description = "d".repeat(1100);
    const { bundle, warnings } = compileClean(nova(`name: Onboard\ndescription: ${description}\n`));
    expect(warnings.map(formatProblem)).toEqual([
      'p/onboard/manifest.yaml:1 — name — "Onboard" breaks ADR-014\'s rule (1–64 lowercase letters, digits, _ and -, starting with a letter or digit); kept',
      'p/onboard/manifest.yaml:1 — name — "Onboard" differs from its folder "onboard"; kept',
      "p/onboard/manifest.yaml:2 — description — 1100 characters is over 1024; kept whole",
    ]);
    expect(bundle.skills[0]).toMatchObject({ id: "p/Onboard", description });
  });
});

describe("a problem in one skill or tool skips only that, with a warning", () => {
  it.each([
    {
      pack: "invalid-missing-trigger",
      warnings: ["invalid-missing-trigger/no_trigger.skill.yaml:1 — trigger — is required; skill skipped"],
      skills: [],
    },
    {
      pack: "invalid-empty-steps",
      warnings: [
        "invalid-empty-steps/no_steps.skill.md:3 — steps — must be a non-empty list of strings; skill skipped",
      ],
      skills: [],
    },
    {
      pack: "invalid-bad-name",
      warnings: [
        'invalid-bad-name/pdf-forms/SKILL.md:2 — name — "PDF_Forms" breaks the spec\'s rule (1–64 lowercase letters or digits of any script and single hyphens, with no hyphen at either end); kept',
        'invalid-bad-name/pdf-forms/SKILL.md:2 — name — "PDF_Forms" differs from its folder "pdf-forms"; kept',
      ],
      skills: ["invalid-bad-name/PDF_Forms"],
    },
    {
      pack: "invalid-frontmatter",
      warnings: [
        'invalid-frontmatter/broken/SKILL.md:3 — description — a plain value may not hold ": " in YAML; read as quoted text',
      ],
      skills: ["invalid-frontmatter/broken"],
    },
    {
      pack: "invalid-duplicate",
      warnings: [
        'invalid-duplicate/second.skill.json:1 — name — duplicate skill id "invalid-duplicate/pack.dup.same" (first defined in invalid-duplicate/first.skill.yaml:1); skill skipped',
      ],
      skills: ["invalid-duplicate/pack.dup.same"],
    },
    {
      pack: "invalid-entry-frontmatter",
      warnings: [
        "invalid-entry-frontmatter/SKILL.md:1 — frontmatter — missing: a pack's root SKILL.md is its entry doc and starts with a --- block holding name and description; the pack is not attachable",
      ],
      skills: [],
    },
    {
      pack: "invalid-tools-schema",
      warnings: [
        'invalid-tools-schema/tools.json:12 — tools[1].input_schema.type — must be a JSON Schema with type "object"; tool left out',
      ],
      skills: [],
      tools: ["queue_depth"],
    },
    {
      pack: "invalid-tools-duplicate",
      warnings: [
        'invalid-tools-duplicate/tools.json:5 — tools[2].name — duplicate tool "restart_worker" (first at line 3); tool left out',
      ],
      skills: [],
      tools: ["restart_worker", "scale_workers"],
    },
    {
      pack: "invalid-tools-no-entry",
      warnings: [
        "invalid-tools-no-entry/tools.json — file — no entry doc: tools need an attachable pack (add SKILL.md or README.md with name and description frontmatter, or set entry in pack.yaml); tools not loaded",
      ],
      skills: ["invalid-tools-no-entry/pack.invalid-tools-no-entry.notes.cleanup"],
    },
    {
      pack: "invalid-nova-no-instructions",
      warnings: [
        "invalid-nova-no-instructions/payroll/manifest.yaml — instructions.md — missing: a Nova skill folder holds instructions.md beside manifest.yaml; skill skipped",
      ],
      skills: [],
    },
    {
      pack: "invalid-nova-manifest",
      warnings: [
        "invalid-nova-manifest/onboarding/manifest.yaml:1 — description — is required; skill skipped",
        'invalid-nova-manifest/onboarding/manifest.yaml:1 — name — "Employee Onboarding" breaks ADR-014\'s rule (1–64 lowercase letters, digits, _ and -, starting with a letter or digit); kept',
        'invalid-nova-manifest/onboarding/manifest.yaml:1 — name — "Employee Onboarding" differs from its folder "onboarding"; kept',
      ],
      skills: [],
    },
    {
      pack: "invalid-jsonl",
      warnings: [
        "invalid-jsonl/lines.skill.jsonl:2 — json — invalid JSON: Unexpected end of JSON input; skill skipped",
        "invalid-jsonl/lines.skill.jsonl:3 — steps — is required; skill skipped",
      ],
      skills: ["invalid-jsonl/pack.invalid-jsonl.lines.1"],
    },
  ])("$pack", ({ pack, warnings, skills, tools = [] }) => {
    const { bundle } = compilePacks(fixtures(pack));
    expect(messages(fixtures(pack))).toEqual({ errors: [], warnings });
    expect(bundle.skills.map((s) => s.id)).toEqual(skills);
    expect(bundle.packs.flatMap((p) => p.tools.map((t) => t.name))).toEqual(tools);
  });

  it("collects every problem of every pack instead of stopping at the first", () => {
    const { errors, warnings } = compilePacks(FIXTURES.filter((f) => f.path.startsWith("invalid-")));
    expect(errors).toHaveLength(2);
    expect(warnings).toHaveLength(16);
  });

  it("names each wrong field of a skill, with its line: an essential one skips it, another is dropped", () => {
    const content = "trigger: 42\nsteps:\n  - Fine.\n  - [nested]\ntags: solo\n";
    expect(messages([{ path: "p/a.skill.yaml", content }]).warnings).toEqual([
      "p/a.skill.yaml:1 — trigger — must be a string; skill skipped",
      "p/a.skill.yaml:4 — steps[1] — must be a string; skill skipped",
      "p/a.skill.yaml:5 — tags — must be a list of strings; ignored",
    ]);
    const usable = "trigger: t\nsteps: [s]\ntags: solo\nname: a/b\n";
    const { bundle, warnings } = compileClean([{ path: "p/a.skill.yaml", content: usable }]);
    expect(warnings.map(formatProblem)).toEqual([
      "p/a.skill.yaml:3 — tags — must be a list of strings; ignored",
      "p/a.skill.yaml:4 — name — must be 1–128 letters, digits, _ . : and - (no /); ignored",
    ]);
    expect(bundle.skills[0]).toMatchObject({ name: "pack.p.a", tags: [] });
  });

  it("SKILL.md and .skill.md files without frontmatter are skipped", () => {
    expect(
      messages([
        { path: "p/s/SKILL.md", content: "# Just markdown\n" },
        { path: "p/x.skill.md", content: "---\ntrigger: t\nsteps: [a]\n" },
      ]),
    ).toEqual({
      errors: [],
      warnings: [
        "p/s/SKILL.md:1 — frontmatter — missing: SKILL.md starts with a --- block holding name and description; skill skipped",
        "p/x.skill.md:1 — frontmatter — not closed: add a line with --- after the fields; skill skipped",
      ],
    });
  });
});

describe("what cannot be bundled fails the build", () => {
  it.each([
    ["invalid-tenant-scope", "invalid-tenant-scope/pack.yaml:2 — tenant_id — required when scope is tenant"],
    [
      "invalid-tool-collision",
      'invalid-tool-collision/tools.json:1 — tools[0].name — namespaced name "release__rollback" is already used by invalid-tool-collision/release/tools.json:1',
    ],
  ])("%s", (pack, message) => {
    expect(messages(fixtures(pack)).errors).toEqual([message]);
  });

  it("no pack takes the name learned skills are served under", () => {
    const files = [
      { path: "mine/pack.yaml", content: "name: learned\n" },
      {
        path: "mine/tip.skill.json",
        content: JSON.stringify({ name: "tip", trigger: "Always", steps: ["Do it"] }),
      },
    ];
    expect(messages(files).errors).toEqual([
      'mine/pack.yaml — name — "learned" is reserved for the tenant\'s learned skills; set name',
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

  it("two folders that name one pack fail, and so does a pack.yaml that does not parse", () => {
    const skill = (pack: string) => ({ path: `${pack}/s.skill.yaml`, content: "trigger: t\nsteps: [s]\n" });
    expect(
      messages([
        { path: "a/pack.yaml", content: "name: ops\n" },
        { path: "b/pack.yaml", content: "name: ops\n" },
        skill("a"),
        skill("b"),
      ]).errors,
    ).toEqual(['b/pack.yaml — name — pack "ops" is already the pack in folder a']);
    expect(messages([{ path: "p/pack.yaml", content: "scope: [tenant\n" }, skill("p")]).errors).toEqual([
      expect.stringMatching(/^p\/pack\.yaml:\d+ — yaml — /),
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

  it("bundled files over the size limit are listed but not stored; binary files are listed quietly", () => {
    const files: PackFile[] = [
      { path: "p/s/SKILL.md", content: "---\nname: s\ndescription: d\n---\n" },
      { path: "p/s/assets/big.txt", content: "x".repeat(11) },
      { path: "p/s/assets/logo.png", content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]) },
      { path: "p/s/assets/small.txt", content: "ok" },
    ];
    const { bundle, warnings } = compileClean(files);
    expect(Object.keys(bundle.files)).toEqual(["p/s/assets/big.txt", "p/s/assets/small.txt"]);
    expect(warnings).toEqual([]);
    const limited = compilePacks(files, { maxFileBytes: 10 });
    expect(limited.warnings.map(formatProblem)).toEqual([
      "p/s/assets/big.txt — file — 11 bytes is over the 10-byte limit; listed, not stored",
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
      "p/notes.txt — file — not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md or manifest.yaml); ignored",
      'p/pack.yaml:1 — pinned[0] — no skill named "ghost" in this pack',
    ]);
  });
});

describe("real skill repositories load unmodified", () => {
  // test/fixtures/packs/real-world is laid out like a public skills repository: a README, skills/
  // with one folder per skill, and what such folders really hold.
  const REAL_WORLD_WARNINGS = [
    "real-world/THIRD_PARTY_NOTICES.md — file — not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md or manifest.yaml); ignored",
    "real-world/skills/brand-voice/SKILL.md:3 — description — 1068 characters is over the spec's 1024; kept whole",
    'real-world/skills/broken-yaml/SKILL.md:5 — frontmatter — Missing closing "quote; skill skipped',
    "real-world/skills/draft-skill/SKILL.md:2 — description — missing; skill skipped",
    'real-world/skills/pdf/SKILL.md:8 — metadata.version — should be a string; read as "1.0"',
    "real-world/skills/pdf/SKILL.md:10 — version — not an Agent Skills field; kept in extra",
    "real-world/skills/pdf/SKILL.md:11 — disable-model-invocation — not an Agent Skills field; kept in extra",
    "real-world/skills/pdf/reference.md — file — 300089 bytes is over the 262144-byte limit; listed, not stored",
    'real-world/skills/report-writer/SKILL.md:2 — name — "write-report" differs from its folder "report-writer"; kept',
    'real-world/skills/webapp-testing/SKILL.md:3 — description — a plain value may not hold ": " in YAML; read as quoted text',
    "real-world/skills/webapp-testing/SKILL.md:4 — compatibility — 564 characters is over the spec's 500; kept",
  ];
  const skill = (name: string) => {
    const found = realWorld().bundle.skills.find((s) => s.name === name);
    if (!found) throw new Error(`no skill ${name}`);
    return found;
  };

  it("every problem is a warning: what can be used loads, what cannot is skipped", () => {
    const { bundle, errors, warnings } = realWorld();
    expect(errors).toEqual([]);
    expect(warnings.map(formatProblem)).toEqual(REAL_WORLD_WARNINGS);
    expect(bundle.skills.map((s) => s.id)).toEqual([
      "real-world/brand-voice",
      "real-world/café-notes",
      "real-world/pdf",
      "real-world/webapp-testing",
      "real-world/write-report",
    ]);
    expect(bundle.packs).toEqual([expect.objectContaining({ name: "real-world", capability: null })]);
  });

  it("a description over 1024 characters is kept whole, as the description and the trigger", () => {
    const written = /^description: (.*)$/m.exec(
      fixture("real-world/skills/brand-voice/SKILL.md").content,
    )?.[1];
    const brand = skill("brand-voice");
    expect(brand.description).toHaveLength(1068);
    expect(brand.description).toBe(written);
    expect(brand.trigger).toBe(written);
    expect(brand.extra).toEqual({ license: "Complete terms in LICENSE.txt" });
  });

  it("a name of Unicode lowercase letters loads like any other, with allowed-tools as a YAML list", () => {
    expect(skill("café-notes")).toMatchObject({
      id: "real-world/café-notes",
      source: "real-world/skills/café-notes/SKILL.md",
      title: "Café notes",
      extra: { "allowed-tools": ["Read", "Write"], license: "MIT" },
    });
  });

  it("the spec's optional fields and unknown ones are kept in extra; allowed-tools as a string too", () => {
    expect(skill("pdf").extra).toEqual({
      "allowed-tools": "Read Write Bash(python3:*)",
      compatibility: "Requires Python 3.10+ with pypdf, and poppler-utils for pdftotext.",
      "disable-model-invocation": false,
      license: "Proprietary. LICENSE.txt has complete terms",
      metadata: { author: "example-org", version: "1.0" },
      version: "2.1.0",
    });
    expect(skill("webapp-testing").extra.compatibility).toHaveLength(564);
  });

  it("prose that says Read, Edit, Bash and Write is instructions, not tools", () => {
    const pdf = skill("pdf");
    expect(pdf.tools).toEqual([]);
    expect(pdf.body).toContain("Read the whole document before you change anything. Edit a copy");
    expect(pdf.body).toContain("Bash is fine for the helper scripts");
  });

  it("references folders deep, scripts and binary assets are bundled; a large reference is listed, not stored", () => {
    const { bundle } = realWorld();
    const reference = fixture("real-world/skills/pdf/reference.md");
    expect(reference.bytes).toBeGreaterThan(256 * 1024);
    const files = skill("pdf").files;
    expect(files.map((f) => f.path)).toEqual([
      "assets/logo.png",
      "reference.md",
      "references/forms/fields/types.md",
      "scripts/check.sh",
      "scripts/list_fields.py",
    ]);
    expect(files[1]).toEqual({ path: "reference.md", bytes: reference.bytes, sha256: reference.sha256 });
    expect(Object.keys(bundle.files).filter((k) => k.startsWith("real-world/pdf/"))).toEqual([
      "real-world/pdf/references/forms/fields/types.md",
      "real-world/pdf/scripts/check.sh",
      "real-world/pdf/scripts/list_fields.py",
    ]);
  });

  it('a plain value holding ": " is read as quoted text', () => {
    expect(skill("webapp-testing").description).toBe(
      "Test local web applications with Playwright. Use when: the user wants to check a page, reproduce a UI bug or capture screenshots.",
    );
  });

  it("names are read as the reference validator reads them: NFKC, any script, lowercase", () => {
    const named = (folder: string, name: string) => {
      const path = `p/${folder}/SKILL.md`;
      const { bundle, warnings } = compileClean([
        { path, content: `---\nname: ${name}\ndescription: d\n---\n` },
      ]);
      return { names: bundle.skills.map((s) => s.name), warnings: warnings.map(formatProblem) };
    };
    expect(named("café", "cafe\u0301")).toEqual({ names: ["café"], warnings: [] });
    expect(named("技能", "技能")).toEqual({ names: ["技能"], warnings: [] });
    expect(named("мой-навык", "мой-навык")).toEqual({ names: ["мой-навык"], warnings: [] });
    const rule =
      "1–64 lowercase letters or digits of any script and single hyphens, with no hyphen at either end";
    expect(named("навык", "НАВЫК").warnings).toEqual([
      `p/навык/SKILL.md:2 — name — "НАВЫК" breaks the spec's rule (${rule}); kept`,
      'p/навык/SKILL.md:2 — name — "НАВЫК" differs from its folder "навык"; kept',
    ]);
    for (const bad of ["-pdf", "pdf-", "pdf--forms", "p".repeat(65)]) {
      expect(named(bad, bad).warnings, bad).toEqual([
        `p/${bad}/SKILL.md:2 — name — "${bad}" breaks the spec's rule (${rule}); kept`,
      ]);
    }
  });

  it("a SKILL.md without a name takes its folder's; with no usable folder name either, it is skipped", () => {
    const files: PackFile[] = [
      { path: "p/notes/SKILL.md", content: "---\ndescription: Take notes.\n---\n" },
      { path: "p/My Notes/SKILL.md", content: "---\ndescription: Take notes.\n---\n" },
      { path: "p/list/SKILL.md", content: "---\nname: [a, b]\ndescription: Take notes.\n---\n" },
    ];
    const { bundle, warnings } = compileClean(files);
    expect(warnings.map(formatProblem)).toEqual([
      'p/My Notes/SKILL.md:2 — name — missing, and the folder name "My Notes" is not 1–64 lowercase letters or digits of any script and single hyphens, with no hyphen at either end; skill skipped',
      "p/list/SKILL.md:2 — name — must be a string; skill skipped",
      'p/notes/SKILL.md:2 — name — missing; using the folder name "notes"',
    ]);
    expect(bundle.skills.map((s) => s.id)).toEqual(["p/notes"]);
  });

  it("frontmatter that is not a mapping skips the skill; optional fields of the wrong type are kept", () => {
    const files: PackFile[] = [
      { path: "p/list/SKILL.md", content: "---\n- a\n- b\n---\n" },
      {
        path: "p/odd/SKILL.md",
        content:
          "---\nname: odd\ndescription: 2048\nlicense: [MIT]\ncompatibility: 3\nmetadata: x\nallowed-tools: {a: 1}\n---\n",
      },
    ];
    const { bundle, warnings } = compileClean(files);
    expect(warnings.map(formatProblem)).toEqual([
      "p/list/SKILL.md:2 — frontmatter — must be a mapping of fields; skill skipped",
      "p/odd/SKILL.md:4 — license — should be a string; kept as written",
      "p/odd/SKILL.md:5 — compatibility — should be a string; kept as written",
      "p/odd/SKILL.md:6 — metadata — should be a mapping of strings; kept as written",
      "p/odd/SKILL.md:7 — allowed-tools — should be a space-separated string of tool names or a list of them; kept as written",
    ]);
    expect(bundle.skills).toEqual([
      expect.objectContaining({
        id: "p/odd",
        description: "2048",
        extra: { "allowed-tools": { a: 1 }, compatibility: 3, license: ["MIT"], metadata: "x" },
      }),
    ]);
  });

  it("a skill's tools.json with a bad record leaves that tool out and keeps the skill", () => {
    const { bundle, warnings } = compileClean([
      { path: "p/ops/SKILL.md", content: "---\nname: ops\ndescription: Operate.\n---\n" },
      {
        path: "p/ops/tools.json",
        content: '[\n  { "name": "restart", "description": "Restart." },\n  { "name": "stop" }\n]',
      },
    ]);
    expect(warnings.map(formatProblem)).toEqual([
      "p/ops/tools.json:3 — tools[1].description — is required; tool left out",
    ]);
    expect(bundle.skills[0]?.tools.map((t) => t.name)).toEqual(["restart"]);
  });
});

describe("strict mode", () => {
  it("--strict or TROVE_PACKS_STRICT turns it on; anything else unknown is refused", () => {
    expect(buildOptions([], {})).toEqual({ strict: false });
    expect(buildOptions(["--strict"], {})).toEqual({ strict: true });
    for (const on of ["1", "true", "YES", "on"]) {
      expect(buildOptions([], { TROVE_PACKS_STRICT: on }), on).toEqual({ strict: true });
    }
    for (const off of ["", "0", "false", "no", "Off"]) {
      expect(buildOptions([], { TROVE_PACKS_STRICT: off }), off).toEqual({ strict: false });
    }
    expect(buildOptions(["--strict"], { TROVE_PACKS_STRICT: "0" })).toEqual({ strict: true });
    expect(() => buildOptions([], { TROVE_PACKS_STRICT: "strict" })).toThrow(
      'TROVE_PACKS_STRICT must be 1 or 0 (or true/false, yes/no, on/off), not "strict"',
    );
    expect(() => buildOptions(["--strcit"], {})).toThrow(
      "unknown argument --strcit (the only one is --strict)",
    );
  });

  it("turns every warning into an error, after the errors", () => {
    const strict = applyStrict(realWorld(), true);
    expect(strict.warnings).toEqual([]);
    expect(strict.errors.map(formatProblem)).toEqual(realWorld().warnings.map(formatProblem));
    const both = applyStrict(
      compilePacks([...fixtures("real-world"), ...fixtures("invalid-tenant-scope")]),
      true,
    );
    expect(both.errors.map(formatProblem)[0]).toBe(
      "invalid-tenant-scope/pack.yaml:2 — tenant_id — required when scope is tenant",
    );
    expect(both.errors).toHaveLength(12);
  });

  it("changes nothing when off, and passes the packs Trove ships", () => {
    const result = realWorld();
    expect(applyStrict(result, false)).toEqual({ errors: result.errors, warnings: result.warnings });
    const shipped = import.meta.glob<string>("../../packs/**/*", {
      query: "?raw",
      import: "default",
      eager: true,
    });
    const files = Object.entries(shipped).map(([path, content]) => ({
      path: path.replace("../../packs/", ""),
      content,
    }));
    expect(applyStrict(compilePacks(files), true).errors).toEqual([]);
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
    expect(Object.keys(bundle.packFiles)).toEqual(Object.keys(bundle.packFiles).sort());
  });

  it("a pack's hash covers its entry doc, every file and its tools; its skills' hashes stay", () => {
    const before = hashes(valid());
    for (const [path, change] of [
      ["capability-incident/SKILL.md", (t: string) => t.replace("30 minutes", "20 minutes")],
      ["capability-incident/docs/escalation.md", (t: string) => t.replace("5 minutes", "9 minutes")],
      ["capability-incident/tools.json", (t: string) => t.replace("so it pages again", "so it pages")],
      ["capability-readme/templates/press-release.md", (t: string) => `${t}\n`],
    ] as const) {
      const after = hashes(edit(valid(), path, change));
      const pack = path.startsWith("capability-incident") ? "incident" : "capability-readme";
      expect(after.packs[pack], path).not.toBe(before.packs[pack]);
      expect(after.skills, path).toEqual(before.skills);
      expect(after.bundle, path).not.toBe(before.bundle);
    }
  });

  it("changing a skill's tools changes the skill's hash", () => {
    const before = hashes(valid());
    const after = hashes(
      edit(valid(), "nova-skills/employee_onboarding/tools.json", (t) => t.replace("Create the", "Open the")),
    );
    expect(after.skills["hr/employee_onboarding"]).not.toBe(before.skills["hr/employee_onboarding"]);
    expect(after.packs.hr).not.toBe(before.packs.hr);
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
