// The text guard inside the session object: a tool the session may not use is never named, in code
// or as an identifier, and words of prose that spell a tool's name stay as written (RFC v0.3 §3.12).
import { runInDurableObject } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import type { OpContext } from "../../src/ops/operation";
import { OPERATIONS } from "../../src/ops/registry";
import { TextGuard } from "../../src/ops/text-guard";
import type { Bundle, BundledSkill } from "../../src/packs/bundle";
import type { SessionObject } from "../../src/session-object";
import { call, newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const SEARCH = "a tool found with tool_search";

/** A pack with Agent Skills naming Claude Code's tools: as a string, as a list, with a pattern. */
function bundle(): Bundle {
  const { bundle, errors } = compilePacks([
    { path: "kit/pack.yaml", content: "name: kit\n" },
    {
      path: "kit/as-string/SKILL.md",
      content:
        "---\nname: as-string\ndescription: Edit files\nallowed-tools: Read Edit Bash Write\n---\nDo it.\n",
    },
    {
      path: "kit/as-list/SKILL.md",
      content:
        "---\nname: as-list\ndescription: Edit files\nallowed-tools:\n  - Read\n  - Edit\n  - Bash\n  - Write\n---\nDo it.\n",
    },
    {
      path: "kit/with-pattern/SKILL.md",
      content: "---\nname: with-pattern\ndescription: Commit\nallowed-tools: Bash(git:*) Read\n---\nDo it.\n",
    },
  ]);
  expect(errors).toEqual([]);
  return bundle;
}

interface Setup {
  config?: Record<string, unknown>;
  tools?: { name: string; description: string }[];
}

/** A session with `setup`, PII redaction off unless the config says otherwise. */
async function sessionWith(setup: Setup): Promise<string> {
  const sid = newSid();
  await runInDurableObject(sessionStub(sid), (obj: SessionObject) => {
    obj.bundle = bundle();
  });
  const config = { ...setup.config, skills: { redact_pii: false, ...(setup.config?.skills as object) } };
  expect((await call("PUT", `/v1/sessions/${sid}`, config)).status).toBe(200);
  if (setup.tools) expect((await op(sid, "catalog_sync", { tools: setup.tools })).status).toBe(200);
  return sid;
}

/** Runs `fn` with a guard made as an operation would make it, for the text of skill `owner`. */
function inGuard<R>(sid: string, fn: (show: (text: string, owner?: string) => string) => R): Promise<R> {
  return runInDurableObject(sessionStub(sid), (obj: SessionObject) => {
    const ctx: OpContext = {
      sql: obj.sql,
      config: obj.config,
      catalog: obj.catalog,
      activations: obj.activations,
      approvals: obj.approvals,
      events: obj.events,
      skills: obj.skills,
      attachments: obj.attachments,
      learning: obj.learning,
      lessons: obj.lessons,
      storedBytes: () => 0,
      published: () => null,
      bundle: obj.bundle,
      tenant: "tenant-a",
      now: Date.now(),
      operations: OPERATIONS,
      erase: () => {},
    };
    const guard = new TextGuard(ctx);
    const skills = new Map<string, BundledSkill>(obj.bundle.skills.map((s) => [s.name, s]));
    return fn((text, owner) => {
      const skill = owner === undefined ? undefined : skills.get(owner);
      if (owner !== undefined && !skill) throw new Error(`no skill ${owner}`);
      return guard.text(text, skill && { skill });
    });
  });
}

const render = async (setup: Setup, text: string, owner?: string) =>
  inGuard(await sessionWith(setup), (show) => show(text, owner));

describe("tools a skill names in allowed-tools, absent from the session", () => {
  const PROSE = "Then Read the file, Edit what is wrong, Write it back; Bash is not needed. Read.";

  it("leave the same words in prose as written", async () => {
    const sid = await sessionWith({});
    await inGuard(sid, (show) => {
      for (const owner of ["as-string", "as-list", "with-pattern"]) expect(show(PROSE, owner)).toBe(PROSE);
    });
  });

  it("are rewritten in code spans and fenced code, from a string or a list", async () => {
    const sid = await sessionWith({});
    const text = "Use `Read`, then ``Edit``.\n\n```bash\nBash -c 'Write out.txt'\n```\nThen Read it.";
    const want =
      `Use \`${SEARCH}\`, then \`\`${SEARCH}\`\`.\n\n\`\`\`bash\n${SEARCH} -c '${SEARCH} out.txt'\n\`\`\`\n` +
      "Then Read it.";
    await inGuard(sid, (show) => {
      expect(show(text, "as-string")).toBe(want);
      expect(show(text, "as-list")).toBe(want);
      // Without the skill as owner, nothing says these are tools.
      expect(show(text)).toBe(text);
    });
  });

  it("are rewritten when written as a call, the pattern kept: `Bash(git:*)`", async () => {
    const sid = await sessionWith({});
    await inGuard(sid, (show) => {
      expect(show("Run `Bash(git:*)` or Bash(git status).", "with-pattern")).toBe(
        `Run \`${SEARCH}(git:*)\` or ${SEARCH}(git status).`,
      );
      // Edit is not this skill's: `Edit` stays, as does the lowercase `read` (names are case-sensitive).
      expect(show("`Edit` and `read`", "with-pattern")).toBe("`Edit` and `read`");
    });
  });

  it("are kept when the session has a tool of that name", async () => {
    const text = "Use `Read` then `Bash`.";
    const out = await render({ tools: [{ name: "Read", description: "Read a file" }] }, text, "as-string");
    expect(out).toBe(`Use \`Read\` then \`${SEARCH}\`.`);
  });
});

describe("names the deny globs match", () => {
  const DENY_GITHUB = { config: { policy: { deny: ["github.*"] } } };

  it("are rewritten in prose and in code when no catalog holds the tool", async () => {
    const sid = await sessionWith(DENY_GITHUB);
    await inGuard(sid, (show) => {
      expect(show("Never call github.delete_repository.")).toBe(`Never call ${SEARCH}.`);
      expect(show("Never call `github.delete_repository`!")).toBe(`Never call \`${SEARCH}\`!`);
      expect(show("```\ngithub.delete_repository(repo)\n```", "as-string")).toBe(
        `\`\`\`\n${SEARCH}(repo)\n\`\`\``,
      );
      // Link text and paths are mentions; a host or an email address names a place, not a tool.
      expect(show("[github.delete_repository](https://github.com/acme/repo)")).toBe(
        `[${SEARCH}](https://github.com/acme/repo)`,
      );
      expect(
        show("See https://docs.example/api/github.delete_repository#usage or github.bot@acme.example"),
      ).toBe(`See https://docs.example/api/${SEARCH}#usage or github.bot@acme.example`);
    });
  });

  it("keep the allowed tools, other identifiers and plain words in code", async () => {
    const sid = await sessionWith({
      config: { policy: { deny: ["github.delete_*", "g?t", "*_token"] } },
      tools: [{ name: "github.create_issue", description: "Create an issue" }],
    });
    await inGuard(sid, (show) => {
      const text =
        "Call `github.create_issue`, not github.delete_repo. Run `git status` on snake_case_variable.";
      expect(show(text)).toBe(
        `Call \`github.create_issue\`, not ${SEARCH}. Run \`git status\` on snake_case_variable.`,
      );
      expect(show("```\nsnake_case_variable = github_token\n```")).toBe(
        `\`\`\`\nsnake_case_variable = ${SEARCH}\n\`\`\``,
      );
    });
  });

  it("rewrite a camelCase name, not the word it starts with", async () => {
    const out = await render(
      { config: { policy: { deny: ["delete*"] } } },
      "Do not deleteRepo or `deleteRepo()`; delete the branch with `delete`.",
    );
    expect(out).toBe(`Do not ${SEARCH} or \`${SEARCH}()\`; delete the branch with \`delete\`.`);
  });

  it("rewrite a plain word in code only when denied by its exact name", async () => {
    const sid = await sessionWith({ config: { policy: { deny: ["Bash"] } } });
    await inGuard(sid, (show) => {
      expect(show("Run Bash, or `Bash` with `bash`.")).toBe(`Run Bash, or \`${SEARCH}\` with \`bash\`.`);
    });
  });

  it("spare Trove's own operations the policy allows", async () => {
    const sid = await sessionWith({ config: { policy: { deny: ["*_sync", "*_resolve", "skill_read_*"] } } });
    await inGuard(sid, (show) => {
      // catalog_sync and tool_resolve are the agent's API; skill_read_file is a denied model tool.
      expect(show("Call `catalog_sync`, then tool_resolve, not skill_read_file or `github_sync`.")).toBe(
        `Call \`catalog_sync\`, then tool_resolve, not ${SEARCH} or \`${SEARCH}\`.`,
      );
    });
  });

  it("point to another tool when tool_search itself is denied", async () => {
    const out = await render(
      { config: { policy: { deny: ["tool_search", "github.*"] } } },
      "Find it with tool_search; never `github.delete_repository`.",
    );
    expect(out).toBe("Find it with another tool; never `another tool`.");
  });
});

/** Pieces of markdown: words, tool names, code and link syntax, addresses. */
const PIECES = [
  "Read",
  "Bash",
  "the",
  "file",
  "delete",
  "deleteRepo",
  "github.delete_repository",
  "github.create_issue",
  "snake_case",
  "`",
  "``",
  "```",
  "~~~",
  "(",
  ")",
  "[",
  "](",
  ".",
  ",",
  "https://github.com/",
  "https://docs.example/",
];
const markdown = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom("", " ", "\n", "\n\n")), { maxLength: 40 })
  .map((parts) => parts.map(([p, s]) => p + s).join(""));

describe("any markdown", () => {
  it("names no tool the deny globs match, wherever it stands, but a URL's host", async () => {
    const sid = await sessionWith({ config: { policy: { deny: ["github.*", "delete*"] } } });
    const denied = /^(github\.|delete)/;
    await inGuard(sid, (show) => {
      fc.assert(
        fc.property(markdown, fc.constantFrom(undefined, "as-string"), (text, owner) => {
          const out = show(text, owner);
          for (const [token] of out.matchAll(/[A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_]|[A-Za-z0-9_]/g)) {
            const identifier = /[_.:-]|[a-z][A-Z]/.test(token);
            if (identifier && token !== "github.com") expect(token).not.toMatch(denied);
          }
        }),
        { numRuns: 300 },
      );
    });
  });
});

/** Words of English prose, among them names of Claude Code's tools, in any case. */
const WORDS = [
  "read",
  "edit",
  "bash",
  "write",
  "glob",
  "grep",
  "then",
  "the",
  "file",
  "and",
  "check",
  "it",
  "run",
  "tests",
  "before",
  "you",
  "commit",
  "a",
  "changes",
  "delete",
  "repository",
  "tool",
  "search",
  "find",
];
const word = fc
  .tuple(fc.constantFrom(...WORDS), fc.constantFrom("lower", "Capital", "UPPER"))
  .map(([w, c]) =>
    c === "lower" ? w : c === "UPPER" ? w.toUpperCase() : `${w[0]?.toUpperCase()}${w.slice(1)}`,
  );
/** What may follow a word: punctuation always followed by a space or a line break. */
const separator = fc.constantFrom(
  " ",
  " ",
  " ",
  ", ",
  ". ",
  "; ",
  ": ",
  "! ",
  "? ",
  " (",
  ") ",
  "\n",
  "\n\n",
  " — ",
);
const prose = fc
  .array(fc.tuple(word, separator), { minLength: 1, maxLength: 40 })
  .map((parts) => parts.map(([w, s]) => w + s).join(""));

describe("prose without code or identifiers", () => {
  it("is left as written, whatever the policy denies", async () => {
    const configs: Setup[] = [
      {},
      { config: { policy: { deny: ["Read", "Bash", "Edit", "Write", "git*"] } } },
      { config: { policy: { deny: ["*"] } }, tools: [{ name: "Grep", description: "Search files" }] },
    ];
    for (const setup of configs) {
      const sid = await sessionWith(setup);
      await inGuard(sid, (show) => {
        fc.assert(
          fc.property(
            prose,
            fc.constantFrom(undefined, "as-string", "as-list", "with-pattern"),
            (text, owner) => {
              expect(show(text, owner)).toBe(text);
            },
          ),
          { numRuns: 200 },
        );
      });
    }
  });
});
