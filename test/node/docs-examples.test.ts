// Every curl and JSON-RPC example in the README and docs/, run against the worker (issue 28): the
// commands of each ```sh block in order, with `localhost:8787` and `https://trove.example.com` being
// the worker and `dev-key` and `trove-key` keys of the tenant `dev` (that of `npm start`), which sees
// the bundled `examples` pack. MCP Inspector CLI lines are sent as the JSON-RPC request they make;
// every skill URI in a code block reads; the Skill entry docs/mcp.md shows is what skills/get answers.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInspector } from "./inspector-cli";
import { type RunningWorker, startWorker } from "./worker";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFile(join(REPO, path), "utf8");

let worker: RunningWorker;
beforeAll(async () => {
  worker = await startWorker({ apiKeys: "dev:dev-key,dev:trove-key" });
});
afterAll(() => worker?.dispose());

async function docFiles(): Promise<string[]> {
  const docs = (await readdir(join(REPO, "docs"))).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** The fenced blocks of a markdown file, with their info string. */
function blocks(markdown: string): { lang: string; text: string }[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({
    lang: m[1] ?? "",
    text: m[2] ?? "",
  }));
}

/** A block's commands: a newline ends one unless quoted or escaped; comments dropped. */
function commands(sh: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (let i = 0; i < sh.length; i++) {
    const ch = sh[i] as string;
    if (quote) {
      if (ch === quote) quote = null;
      current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
    } else if (ch === "\\" && sh[i + 1] === "\n") {
      current += " ";
      i++;
    } else if (ch === "#" && (current === "" || /\s$/.test(current))) {
      while (i < sh.length && sh[i] !== "\n") i++;
      i--;
    } else if (ch === "\n") {
      out.push(current.trim());
      current = "";
    } else current += ch;
  }
  out.push(current.trim());
  return out.filter((line) => line !== "");
}

/** Shell words: single and double quotes, whitespace; a quoted string may span lines. */
function words(command: string): string[] {
  const out: string[] = [];
  let current = "";
  let quote: string | null = null;
  let any = false;
  for (const ch of command) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (any || current) out.push(current);
      current = "";
      any = false;
    } else current += ch;
  }
  if (any || current) out.push(current);
  return out;
}

/** A documented address, as the worker's. */
function local(url: string): string {
  const full = /^https?:\/\//.test(url) ? url : url.startsWith("/") ? `http://x${url}` : `http://${url}`;
  const { pathname, search } = new URL(full);
  return `${worker.url}${pathname}${search}`;
}

interface Sent {
  what: string;
  status: number;
  body: any;
}

async function send(what: string, url: string, init: RequestInit): Promise<Sent> {
  const res = await fetch(local(url), init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { what, status: res.status, body };
}

/** Runs one curl command as written: -X, -H, -d and the URL. */
function curl(command: string): Promise<Sent> {
  const args = words(command).slice(1);
  let method: string | undefined;
  let data: string | undefined;
  let url = "";
  const headers = new Headers();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "-X") method = args[++i];
    else if (arg === "-H") {
      const [name, ...value] = (args[++i] as string).split(":");
      headers.set(name as string, value.join(":").trim());
    } else if (arg === "-d") data = args[++i];
    else if (arg === "-s") continue;
    else url = arg;
  }
  return send(command, url, { method: method ?? (data ? "POST" : "GET"), headers, body: data });
}

/**
 * An MCP Inspector CLI line, run with the Inspector's CLI against the worker: everything after
 * `--cli` as written, the URL pointed at the worker. It exits non-zero on a JSON-RPC error.
 */
async function inspector(command: string): Promise<Sent> {
  const args = words(command);
  const [url, ...flags] = args.slice(args.indexOf("--cli") + 1);
  const body = await runInspector(local(url as string), flags);
  return { what: command, status: 200, body };
}

/** A JSON-RPC request on the worker's MCP endpoint for a session. */
async function rpc(method: string, params: unknown): Promise<any> {
  const res = await send(method, "/v1/sessions/docs-examples/mcp", {
    method: "POST",
    headers: {
      authorization: "Bearer dev-key",
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** What an example's answer must be: a 2xx, and no JSON-RPC or tool error in it. */
function expectServed(sent: Sent): void {
  expect(sent.status, `${sent.what}\n→ ${JSON.stringify(sent.body)}`).toBeGreaterThanOrEqual(200);
  expect(sent.status, sent.what).toBeLessThan(300);
  if (sent.body && typeof sent.body === "object" && "jsonrpc" in sent.body) {
    expect(sent.body.error, `${sent.what}\n→ ${JSON.stringify(sent.body)}`).toBeUndefined();
    expect(sent.body.result?.isError, sent.what).not.toBe(true);
  }
  // The Inspector CLI prints the result itself.
  if (sent.body && typeof sent.body === "object" && "isError" in sent.body) {
    expect(sent.body.isError, `${sent.what}\n→ ${JSON.stringify(sent.body)}`).not.toBe(true);
  }
}

describe("the docs' examples", () => {
  it("every curl command and MCP Inspector line answers, block by block, in order", async () => {
    let ran = 0;
    for (const file of await docFiles()) {
      for (const block of blocks(await read(file)).filter((b) => b.lang === "sh")) {
        for (const command of commands(block.text)) {
          if (command.startsWith("curl ")) expectServed(await curl(command));
          else if (command.includes("@modelcontextprotocol/inspector --cli"))
            expectServed(await inspector(command));
          else continue;
          ran++;
        }
      }
    }
    // README's three, docs/mcp.md's three curl commands and two Inspector lines.
    expect(ran).toBeGreaterThanOrEqual(8);
  });

  it("the README's curl lines find what they synced", async () => {
    const readme = blocks(await read("README.md")).find((b) => b.text.includes("tool_search"));
    const results = [];
    for (const command of commands(readme?.text ?? "")) results.push(await curl(command));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results[2]?.body.tools[0].name).toBe("github.create_issue");
  });

  it("every skill:// and trove://skills/ URI in a code block of docs/mcp.md reads", async () => {
    const mcp = await read("docs/mcp.md");
    const uris = new Set(
      blocks(mcp).flatMap((b) =>
        [...b.text.matchAll(/(?:skill|trove):\/\/[^\s"'`)<>{}]+/g)].map((m) => m[0]),
      ),
    );
    expect(uris.size).toBeGreaterThanOrEqual(3);
    for (const uri of uris) {
      const read = await rpc("resources/read", { uri });
      expect(read.error, `${uri}: ${JSON.stringify(read.error)}`).toBeUndefined();
      expect(read.result.contents[0].text.length, uri).toBeGreaterThan(0);
    }
  });

  it("the Skill entry docs/mcp.md shows is what skills/get answers, digests and sizes included", async () => {
    const mcp = await read("docs/mcp.md");
    const shown = blocks(mcp).find((b) => b.lang === "json" && b.text.includes('"frontmatter"'));
    const entry = JSON.parse(shown?.text ?? "null");
    const got = await rpc("skills/get", { uri: entry.uri });
    expect(got.result.skill).toEqual(entry);
    const listed = await rpc("skills/list", {});
    expect(listed.result.skills.map((s: { uri: string }) => s.uri)).toContain(entry.uri);
  });

  it("GET /v1/health counts the skills the key's sessions see, as skills/list and skill_list do", async () => {
    const health = await send("health", "/v1/health", { headers: { authorization: "Bearer dev-key" } });
    const anonymous = await send("health", "/v1/health", {});
    const listed = await rpc("skills/list", {});
    expect(health.body.skills).toBe(listed.result.skills.length);
    expect(health.body.skills).toBeGreaterThan(0);
    expect(anonymous.body.skills).toBe(0);
    expect(health.body.bundled.skills).toBeGreaterThan(health.body.skills);
  });
});
