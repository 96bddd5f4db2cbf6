// The typed client as a user gets it: `npm pack` of packages/client, installed from the tarball into
// a project outside the repository, type-checked there under strict options with nothing but the
// package (no DOM or Node types, both module resolutions a project may use), then run in Node
// against the real worker. The tarball must hold no server code, and the client's generated types
// must be what the registry generates now. The package is packed from a copy of its sources, so
// packages/client/dist/ is never rebuilt under tests that import it.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/ops/registry";
import { type RunningWorker, startWorker } from "./worker";

const run = promisify(execFile);
const REPO = resolve(fileURLToPath(import.meta.url), "../../..");
const PACKAGE = join(REPO, "packages/client");
const TSC = join(REPO, "node_modules/typescript/bin/tsc");
const TSX = join(REPO, "node_modules/tsx/dist/cli.mjs");
/** npm, with the repository's tools (tsc for the package's prepare script) on the PATH. */
const npm = (args: string[], cwd: string) =>
  run("npm", args, {
    cwd,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, PATH: `${join(REPO, "node_modules/.bin")}${delimiter}${process.env.PATH}` },
  });

/** What the scratch project does with the client: typed calls, and type errors that must be errors. */
const USAGE = `import {
  OPERATION_NAMES,
  type OperationInput,
  type OperationOutput,
  Trove,
  TroveApiError,
  type TroveSession,
} from "@trove/client";

const TOOLS: OperationInput<"catalog_sync">["tools"] = [
  { name: "github.create_issue", description: "Create an issue in a GitHub repository", side_effects: "write" },
  { name: "weather.now", description: "Current weather for a city", loading_mode: "always" },
];

const failure = (err: unknown) =>
  err instanceof TroveApiError ? { status: err.status, code: err.code, field: err.details.field } : String(err);

export async function run(baseUrl: string, apiKey: string, sid: string) {
  const trove = new Trove({ baseUrl, apiKey });
  const health = await trove.health();
  const session: TroveSession = trove.session(sid);
  const synced = await session.catalog_sync({ tools: TOOLS });
  const added: number = synced.added;
  const found: OperationOutput<"tool_search"> = await session.tool_search({ query: "open a github issue" });
  const first: string | undefined = found.tools[0]?.name;
  // @ts-expect-error tool_search answers \`tools\`, not \`results\`
  const wrongOutput: unknown = found.results;
  // @ts-expect-error \`querry\` is not a field of tool_search's input
  const typo = await session.tool_search({ querry: "github" }).catch(failure);
  // @ts-expect-error catalog_sync needs its \`tools\`
  const missing = await session.catalog_sync({}).catch(failure);
  const unknown = await session.tool_resolve({ name: "no.such_tool" }).catch(failure);
  const config = await session.session_get();
  return {
    ok: health.ok,
    added,
    first,
    wrongOutput,
    typo,
    missing,
    unknown,
    catalog: config.catalog.tools,
    operations: OPERATION_NAMES.length,
  };
}
`;

/** The strictest settings a user may have, without any environment's types. */
const tsconfig = (module: "NodeNext" | "ESNext", moduleResolution: "NodeNext" | "Bundler", noEmit: boolean) =>
  JSON.stringify({
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2022"],
      types: [],
      module,
      moduleResolution,
      strict: true,
      exactOptionalPropertyTypes: true,
      noUncheckedIndexedAccess: true,
      verbatimModuleSyntax: true,
      noEmit,
    },
    files: ["usage.ts"],
  });

/** Import specifiers of a JavaScript or declaration file. */
const imports = (text: string) =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1] as string);

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Runs tsc in the scratch project; its report (empty when the project type-checks). */
async function typeCheck(config: string): Promise<string> {
  try {
    return (await run(process.execPath, [TSC, "-p", config], { cwd: scratch })).stdout;
  } catch (err) {
    return (err as { stdout: string }).stdout || String(err);
  }
}

let worker: RunningWorker;
/** The temporary folder: `package/` (the copy packed), the tarball, `project/` (the user's). */
let root: string;
let scratch: string;
let packed: { filename: string; files: { path: string }[] };
/** tsc's report per scratch tsconfig; the NodeNext one also emits usage.js. */
const reports: Record<string, string> = {};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "trove-client-"));
  const source = join(root, "package");
  scratch = join(root, "project");
  await cp(PACKAGE, source, {
    recursive: true,
    filter: (path) => !/[/\\](dist|node_modules)$/.test(path),
  });
  await mkdir(scratch);
  const [started, pack] = await Promise.all([
    startWorker(),
    // The package's prepare script builds dist/ from src/ first.
    npm(["pack", "--json", "--pack-destination", root], source),
  ]);
  worker = started;
  packed = JSON.parse(pack.stdout)[0];
  await writeFile(
    join(scratch, "package.json"),
    JSON.stringify({ name: "scratch", private: true, type: "module" }),
  );
  // No dependencies to fetch: installing the tarball needs no network.
  await npm(["install", "--offline", "--no-audit", "--no-fund", join(root, packed.filename)], scratch);
  await writeFile(join(scratch, "usage.ts"), USAGE);
  await writeFile(join(scratch, "tsconfig.json"), tsconfig("NodeNext", "NodeNext", false));
  await writeFile(join(scratch, "tsconfig.bundler.json"), tsconfig("ESNext", "Bundler", true));
  for (const config of ["tsconfig.json", "tsconfig.bundler.json"]) reports[config] = await typeCheck(config);
  await writeFile(
    join(scratch, "main.mjs"),
    `import { run } from "./usage.js";\nconsole.log(JSON.stringify(await run(...process.argv.slice(2))));\n`,
  );
}, 120_000);

afterAll(async () => {
  await worker?.dispose();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("the @trove/client package", () => {
  it("has the types the registry generates now (operations.ts is not stale)", async () => {
    // Fails with "operations.ts is stale: run npm run build:client" after a registry change.
    const checked = run(process.execPath, [TSX, "scripts/build-client.ts", "--check", "--no-build"], {
      cwd: REPO,
    });
    await expect(checked).resolves.toMatchObject({ stdout: expect.stringContaining("up to date") });
  });

  it("packs only its build, its README and license, with no dependencies", async () => {
    const paths = packed.files.map((f) => f.path).sort();
    expect(paths).toEqual(
      expect.arrayContaining(["dist/index.d.ts", "dist/index.js", "package.json", "README.md", "LICENSE"]),
    );
    expect(
      paths.filter((p) => !p.startsWith("dist/") && !["package.json", "README.md", "LICENSE"].includes(p)),
    ).toEqual([]);
    const manifest = JSON.parse(
      await readFile(join(scratch, "node_modules/@trove/client/package.json"), "utf8"),
    );
    expect(manifest).toMatchObject({ name: "@trove/client", version: "0.1.0", type: "module" });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
  });

  it("holds no server code: every import of its files is one of its own files", async () => {
    const installed = join(scratch, "node_modules/@trove/client");
    const code = (await filesBelow(installed)).filter((f) => /\.(js|d\.ts)$/.test(f));
    expect(code.length).toBeGreaterThanOrEqual(4);
    const seen: string[] = [];
    for (const file of code) {
      const text = await readFile(file, "utf8");
      const specifiers = imports(text);
      seen.push(...specifiers);
      expect(
        specifiers.filter((s) => !s.startsWith("./")),
        file,
      ).toEqual([]);
      expect(text, file).not.toMatch(/\brequire\s*\(/);
    }
    // The scan does see imports: index.js and index.d.ts import ./operations.js.
    expect(seen).toContain("./operations.js");
  });

  it("type-checks a strict project that uses it (NodeNext and Bundler resolution), wrong fields included", async () => {
    // An unused @ts-expect-error is an error too: the wrong fields in USAGE are refused.
    expect(reports).toEqual({ "tsconfig.json": "", "tsconfig.bundler.json": "" });
  });

  it("runs in Node against the worker: sync, search, typed errors", async () => {
    const { stdout } = await run(process.execPath, ["main.mjs", worker.url, "key-a", crypto.randomUUID()], {
      cwd: scratch,
    });
    expect(JSON.parse(stdout)).toEqual({
      ok: true,
      added: 2,
      first: "github.create_issue",
      typo: { status: 400, code: "invalid_input", field: expect.any(String) },
      missing: { status: 400, code: "invalid_input", field: "tools" },
      unknown: { status: 404, code: "unknown_tool", field: "name" },
      catalog: 2,
      operations: OPERATIONS.length,
    });
  });
});
