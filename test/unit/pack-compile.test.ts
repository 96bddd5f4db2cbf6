/// <reference types="vite/client" />
// The pack compiler: every skill format, attachable packs and their tools, every invalid case's
// message, warnings, hashes, determinism.
import { describe, expect, it } from "vitest";
import { compilePacks, formatProblem, type PackFile } from "../../src/compiler/compile";
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

  it("an entry doc that is named or needed must have name and description", () => {
    const cases: [PackFile[], string[]][] = [
      [
        [{ path: "p/pack.yaml", content: "version: '1'\nentry: docs/missing.md\n" }],
        ['p/pack.yaml:2 — entry — "docs/missing.md" is not a doc of this pack'],
      ],
      [
        [{ path: "p/pack.yaml", content: "entry: ../outside.md\n" }],
        ["p/pack.yaml:1 — entry — must be a path inside the pack, like docs/guide.md"],
      ],
      [
        [
          { path: "p/pack.yaml", content: "entry: guide.md\n" },
          { path: "p/guide.md", content: "# Guide\n" },
        ],
        [
          "p/guide.md:1 — frontmatter — missing: the entry doc named in pack.yaml starts with a --- block holding name and description",
        ],
      ],
      [
        [
          { path: "p/README.md", content: "# Ops\n" },
          { path: "p/tools.json", content: '[{"name": "t", "description": "d"}]' },
        ],
        [
          "p/README.md:1 — frontmatter — missing: a pack with tools.json needs an entry doc that starts with a --- block holding name and description",
        ],
      ],
      [
        [{ path: "p/README.md", content: "---\nname: ops\ntitle: Ops\n---\n# Ops\n" }],
        ["p/README.md:2 — description — is required"],
      ],
      [
        [{ path: "p/SKILL.md", content: "---\nname: '  '\ndescription: 3\n---\n" }],
        ["p/SKILL.md:2 — name — must be a non-empty string", "p/SKILL.md:3 — description — must be a string"],
      ],
    ];
    for (const [files, errors] of cases) expect(messages(files).errors).toEqual(errors);
  });

  it("pack files over the size limit are listed but not readable; an entry doc over it fails", () => {
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
    expect(compilePacks(files, { maxFileBytes: 20 }).errors.map(formatProblem)).toEqual([
      "p/README.md — file — 31 bytes is over the 20-byte limit for an entry doc",
    ]);
  });
});

describe("tools.json", () => {
  const withTools = (tools: string, pack = "p"): PackFile[] => [
    { path: `${pack}/SKILL.md`, content: `---\nname: ${pack}\ndescription: d\n---\n` },
    { path: `${pack}/tools.json`, content: tools },
  ];

  it("names each wrong field of a tool, with its line", () => {
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
    expect(messages(withTools(tools)).errors).toEqual([
      "p/tools.json:3 — tools[1].description — is required",
      "p/tools.json:4 — tools[1].name — must match ^[A-Za-z0-9_.:-]{1,128}$",
      'p/tools.json:5 — tools[1].side_effects — must be one of "pure", "read", "write", "external", "stateful"',
      "p/tools.json:6 — tools[1].tags — must be a list",
      "p/tools.json:8 — tools[2] — must be a tool record (an object with name and description)",
    ]);
  });

  it("is a list of tools or an object with a tools list; anything else fails", () => {
    expect(messages(withTools('{\n  "tool": []\n}')).errors).toEqual([
      'p/tools.json:1 — tools — must be a list of tool records, or { "tools": [ … ] }',
    ]);
    expect(messages(withTools('{\n  "tools": [],\n  "version": 2\n}'))).toEqual({
      errors: [],
      warnings: ["p/tools.json:3 — version — unknown field; ignored"],
    });
    expect(messages(withTools('[\n  { "name": "a", }\n]')).errors).toEqual([
      expect.stringMatching(/^p\/tools\.json:2 — json — invalid JSON: /),
    ]);
  });

  it("drops a namespace with a warning and does not let a field be set twice", () => {
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
      errors: ["p/tools.json:5 — tools[0].command — also set in extra.command; keep one"],
      warnings: [
        "p/tools.json:4 — tools[0].namespace — ignored: pack tools are namespaced by their pack",
        "p/tools.json:5 — tools[0].command — not a tool record field; kept in extra",
      ],
    });
  });

  it("a tool's namespaced name <owner>__<name> must be a valid tool name", () => {
    const pack = "p".repeat(64);
    const tools = `[{ "name": "${"t".repeat(63)}", "description": "d" }]`;
    expect(messages(withTools(tools, pack)).errors).toEqual([
      `${pack}/tools.json:1 — tools[0].name — namespaced as "${pack}__${"t".repeat(63)}", which must match ^[A-Za-z0-9_.:-]{1,128}$ (at most 128 characters)`,
    ]);
  });

  it("namespaced names are unique in the whole bundle, across packs and skills", () => {
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

  it("fail on a bad manifest or config, a root manifest.yaml, or a folder that is both kinds of skill", () => {
    expect(messages(nova("name: onboard\ndescription: d\ntags: hr\n")).errors).toEqual([
      "p/onboard/manifest.yaml:3 — tags — must be a list of strings",
    ]);
    expect(
      messages(nova("name: onboard\ndescription: d\n", [{ path: "p/onboard/config.yaml", content: "- a\n" }]))
        .errors,
    ).toEqual(["p/onboard/config.yaml:1 — config — must be a mapping of settings"]);
    expect(messages([{ path: "p/manifest.yaml", content: "name: p\ndescription: d\n" }]).errors).toEqual([
      "p/manifest.yaml — file — manifest.yaml belongs in a Nova skill folder inside the pack (<pack>/<skill>/manifest.yaml)",
    ]);
    const both = nova("name: onboard\ndescription: d\n", [
      { path: "p/onboard/SKILL.md", content: "---\nname: onboard\ndescription: d\n---\n" },
    ]);
    expect(messages(both).errors).toEqual([
      "p/onboard/manifest.yaml — file — a skill folder holds SKILL.md (Agent Skills) or manifest.yaml (Nova), not both",
    ]);
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
    [
      "invalid-entry-frontmatter",
      "invalid-entry-frontmatter/SKILL.md:1 — frontmatter — missing: a pack's root SKILL.md is its entry doc and starts with a --- block holding name and description",
    ],
    [
      "invalid-tools-schema",
      'invalid-tools-schema/tools.json:12 — tools[1].input_schema.type — must be a JSON Schema with type "object"',
    ],
    [
      "invalid-tools-duplicate",
      'invalid-tools-duplicate/tools.json:5 — tools[2].name — duplicate tool "restart_worker" (first at line 3)',
    ],
    [
      "invalid-tools-no-entry",
      "invalid-tools-no-entry/tools.json — file — no entry doc: tools need an attachable pack (add SKILL.md or README.md with name and description frontmatter, or set entry in pack.yaml)",
    ],
    [
      "invalid-nova-no-instructions",
      "invalid-nova-no-instructions/payroll/manifest.yaml — instructions.md — missing: a Nova skill folder holds instructions.md beside manifest.yaml",
    ],
    [
      "invalid-tool-collision",
      'invalid-tool-collision/tools.json:1 — tools[0].name — namespaced name "release__rollback" is already used by invalid-tool-collision/release/tools.json:1',
    ],
  ])("%s", (pack, message) => {
    expect(messages(fixtures(pack)).errors).toEqual([message]);
  });

  it("a Nova manifest names each wrong or missing field", () => {
    expect(messages(fixtures("invalid-nova-manifest")).errors).toEqual([
      "invalid-nova-manifest/onboarding/manifest.yaml:1 — name — must be 1–64 lowercase letters, digits, _ and - (starting with a letter or digit)",
      "invalid-nova-manifest/onboarding/manifest.yaml:1 — description — is required",
    ]);
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
    expect(compilePacks(invalid).errors).toHaveLength(16);
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
      "p/notes.txt — file — not a skill file (*.skill.md|yaml|yml|json|jsonl, or a folder with SKILL.md or manifest.yaml); ignored",
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
