// What the docs and examples say, checked against what the code and the SDKs do (issue 28, item 7):
// no example names a model its provider's SDK marks deprecated; /inspect's timeline is described in
// the order the page shows it; examples/ai-sdk.ts without a terminal does what it prints.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningWorker, startWorker } from "./worker";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFile(join(REPO, path), "utf8");

/** The models the installed SDKs mark deprecated: openai's "Deprecated values", Anthropic's table. */
async function deprecatedModels(): Promise<Set<string>> {
  const openai = await read("node_modules/openai/resources/shared.d.ts");
  const block = /Deprecated values:([\s\S]*?)\*\//.exec(openai)?.[1] ?? "";
  const anthropic = await read("node_modules/@anthropic-ai/sdk/resources/messages/messages.js");
  const table = /DEPRECATED_MODELS = \{([\s\S]*?)\};/.exec(anthropic)?.[1] ?? "";
  return new Set([
    ...[...block.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string),
    ...[...table.matchAll(/'([^']+)':/g)].map((m) => m[1] as string),
  ]);
}

/** Files a reader copies a model name from. */
async function exampleFiles(): Promise<string[]> {
  const docs = (await readdir(join(REPO, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  const examples = (await readdir(join(REPO, "examples"))).map((f) => `examples/${f}`);
  return [
    "README.md",
    "packages/client/README.md",
    "packages/ai-sdk/README.md",
    "test/node/providers.test.ts",
    ...docs,
    ...examples,
  ];
}

describe("models named in the docs and examples", () => {
  it("none is one the openai or Anthropic SDK marks deprecated", async () => {
    const deprecated = await deprecatedModels();
    expect(deprecated.has("gpt-4o-mini")).toBe(true); // the lists were read
    expect(deprecated.has("claude-3-7-sonnet-latest")).toBe(true);
    const found: string[] = [];
    for (const file of await exampleFiles()) {
      const text = await read(file);
      for (const m of text.matchAll(/["'`](?:openai\/|anthropic\/)?((?:gpt|claude|o\d)[\w.-]*)["'`]/g)) {
        if (deprecated.has(m[1] as string)) found.push(`${file}: ${m[1]}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe("docs/inspect.md", () => {
  it("describes the event timeline in the order the page asks for", async () => {
    const page = await read("src/http/inspect-script.ts");
    expect(page).toContain('order: "newest_first"');
    expect(page).not.toContain('order: "oldest_first"');
    const doc = await read("docs/inspect.md");
    const row = doc.split("\n").find((line) => line.startsWith("| Event timeline"));
    expect(row).toContain("newest first");
    expect(row).not.toContain("oldest first");
  });
});

describe("examples/ai-sdk.ts without a terminal", () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await startWorker();
  });
  afterAll(async () => {
    await worker?.dispose();
  });

  /** Runs the example as a process with stdin a pipe (no terminal), as CI does. */
  async function run(approve: string | undefined): Promise<string> {
    const env: NodeJS.ProcessEnv = { ...process.env, TROVE_URL: worker.url, TROVE_KEY: "key-a" };
    delete env.AI_GATEWAY_API_KEY;
    delete env.TROVE_APPROVE;
    if (approve !== undefined) env.TROVE_APPROVE = approve;
    const child = promisify(execFile)(join(REPO, "node_modules/.bin/tsx"), ["examples/ai-sdk.ts"], {
      cwd: REPO,
      env,
      timeout: 60_000,
    });
    child.child.stdin?.end();
    return (await child).stdout;
  }

  it("does what its approval line says: approved refunds, denied does not", async () => {
    for (const [value, approved] of [
      ["yes", true],
      ["Y", true],
      ["1", true],
      [undefined, false],
      ["no", false],
      ["", false],
    ] as const) {
      const out = await run(value);
      const line = out.split("\n").find((l) => l.startsWith("Approve stripe_refund_payment"));
      expect(line, `${value}\n${out}`).toContain(approved ? "approved" : "denied");
      expect(line).toContain(
        value === undefined ? "TROVE_APPROVE is not set" : `TROVE_APPROVE=${JSON.stringify(value)}`,
      );
      if (approved) {
        expect(out).toContain("  runs    stripe.refund_payment");
        expect(out).toMatch(/Done: .*"status":"succeeded"/);
      } else {
        expect(out).not.toContain("  runs    stripe.refund_payment");
        expect(out).toContain("The refund was not approved, so nothing was refunded.");
      }
    }
  }, 240_000);
});
