// The official MCP Inspector's command-line mode (`@modelcontextprotocol/inspector-cli`, what
// `npx @modelcontextprotocol/inspector --cli` runs; the Inspector's v2 needs Node ≥ 22.19), run as a
// child process exactly as a user runs it: the target URL, then its flags.
import { execFile } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const ENTRY = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js", import.meta.url),
);

/**
 * The JSON the CLI prints for `url` and `flags`; a failure (it exits non-zero on a JSON-RPC error)
 * throws with what it wrote to stderr.
 *
 * @example await runInspector(`${url}/v1/gateway/mcp`, ["--transport", "http", "--method", "tools/list"])
 */
export async function runInspector(url: string, flags: readonly string[]): Promise<any> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [ENTRY, url, ...flags], {
      timeout: 30_000,
      // It finds its own package.json by a path relative to the working directory.
      cwd: dirname(ENTRY),
    });
    return JSON.parse(stdout);
  } catch (err) {
    const { stderr } = err as { stderr?: string };
    throw new Error(`the Inspector CLI failed on ${url} ${flags.join(" ")}: ${stderr ?? String(err)}`);
  }
}
