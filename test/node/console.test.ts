// The operator console (issue 32) in real headless Chromium against the real worker: after a
// scripted traffic of sessions, the counts the page shows (read from the page, not the API), a
// forget and a learned skill's approval from the page, catalogs, and recent sessions linking to
// /inspect. With TROVE_DOCS_SCREENSHOTS=1 it also writes the
// screenshots docs/console.md shows.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoopbackUpstream, serveUpstream } from "../fixtures/mcp-upstream/node-server";
import { browserRequired, findChromium, launchChromium } from "./browser";
import { type RunningWorker, startWorker } from "./worker";

const KEY = "key-a";
const WAIT = { timeout: 15_000 };
const withBrowser = findChromium() !== undefined || browserRequired();
const ARTIFACTS = fileURLToPath(new URL("../artifacts/", import.meta.url));
const DOCS = fileURLToPath(new URL("../../docs/", import.meta.url));

let worker: RunningWorker;
let browser: Browser;
/** An MCP server (the official SDK's) on loopback, for the gateway's upstream section. */
let upstream: LoopbackUpstream;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  upstream = await serveUpstream();
  worker = await startWorker({
    bindings: { TROVE_GATEWAY_DEV: "1", TROVE_SECRETS_KEY: "console-test-secrets-key-0123456789" },
  });
});

afterAll(async () => {
  await worker?.dispose();
  upstream?.close();
});

async function api(method: string, path: string, body?: unknown, key = KEY): Promise<any> {
  const res = await fetch(`${worker.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok && res.status !== 404)
    throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const op = (sid: string, name: string, body: unknown) => api("POST", `/v1/sessions/${sid}/${name}`, body);

const TOOLS = [
  { name: "github.create_issue", description: "Create an issue in a GitHub repository" },
  { name: "github.list_issues", description: "List the issues of a GitHub repository" },
  { name: "calendar.book_room", description: "Reserve a meeting room in the office calendar" },
  { name: "slack.post_message", description: "Post a message to a Slack channel" },
];

/** Two sessions: 10 requests, 3 searches (2 with no result), 2 uses, 1 approval asked and granted. */
async function scriptedTraffic(): Promise<string[]> {
  const a = "console-a";
  const b = "console-b";
  await api("PUT", `/v1/sessions/${a}`, { policy: { approval: ["github.create_*"] } });
  await op(a, "catalog_sync", { tools: TOOLS });
  const found = await op(a, "tool_search", { query: "list the issues of my repository" });
  expect(found.tools[0].name).toBe("github.list_issues");
  const none = await op(a, "tool_search", { query: "order a pizza with anchovies", min_relevance: 0.3 });
  expect(none.tools).toEqual([]);
  expect((await op(a, "tool_resolve", { name: "github.list_issues" })).decision).toBe("allow");
  const asked = await op(a, "tool_resolve", { name: "github.create_issue", args: {} });
  expect(asked.decision).toBe("needs_approval");
  await op(a, "approval_decide", { approval_id: asked.approval_id, decision: "approve" });
  await op(a, "tool_resolve", { name: "github.create_issue", args: {}, approval_id: asked.approval_id });
  await op(b, "catalog_sync", { tools: TOOLS });
  await op(b, "tool_search", { query: "order a pizza with anchovies", min_relevance: 0.3 });
  await api("PUT", "/v1/catalogs/main", { tools: TOOLS });
  // Sessions send their counts after responding: wait until the tenant has them all.
  await expect.poll(async () => (await api("GET", "/v1/analytics")).totals.requests, WAIT).toBe(10);
  await expect.poll(async () => (await api("GET", "/v1/learning")).merged, WAIT).toBeGreaterThan(0);
  return [a, b];
}

async function openConsole(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const problems: string[] = [];
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  await page.goto(`${worker.url}/console`);
  await expect.poll(() => page.evaluate("document.documentElement.dataset.ready"), WAIT).toBe("true");
  await page.getByLabel("API key").fill(KEY);
  await page.getByRole("button", { name: "Load", exact: true }).click();
  await expect.poll(() => page.getByRole("status").textContent(), WAIT).toContain("Loaded");
  return { page, problems };
}

const section = (page: Page, heading: string) => page.getByRole("region", { name: heading, exact: true });
const metric = (page: Page, name: string) => page.locator(`[data-metric="${name}"]`).textContent();

async function rows(page: Page, id: string): Promise<string[]> {
  const trs = await page.locator(`#${id} tbody tr`).all();
  return Promise.all(
    trs.map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim()).join(" | ")),
  );
}

async function shoot(page: Page, heading: string, file: string): Promise<void> {
  const target = section(page, heading);
  await target.screenshot({ path: `${ARTIFACTS}${file}` });
  if (process.env.TROVE_DOCS_SCREENSHOTS === "1") await target.screenshot({ path: `${DOCS}${file}` });
}

describe("the console page", () => {
  it("is served with a strict Content-Security-Policy, the chart library inline and nothing from elsewhere", async () => {
    const res = await fetch(`${worker.url}/console`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain("unsafe");
    const html = await res.text();
    expect(html).toContain("<h1>Trove console</h1>");
    expect(html.match(/<script>/g)).toHaveLength(2);
    // Nothing to load from elsewhere: no external script, stylesheet, import or font.
    expect(html).not.toMatch(/<script [^>]*src=|<link rel="stylesheet"|@import|url\(https?:/);
  });
});

describe.skipIf(!withBrowser)("the console in headless Chromium", () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("shows the scripted traffic's counts, charts, failing wording, tools, catalogs and sessions", async () => {
    const [a, b] = await scriptedTraffic();
    const { page, problems } = await openConsole();
    expect(page.url()).not.toContain(KEY);
    expect(await page.evaluate('sessionStorage.getItem("trove.console.key")')).toBe(KEY);

    expect(await metric(page, "requests")).toBe("10");
    expect(await metric(page, "sessions")).toBe("2");
    expect(await metric(page, "searches")).toBe("3");
    expect(await metric(page, "no_result")).toBe("2");
    expect(await metric(page, "no_result_rate")).toBe("66.7 %");
    expect(await metric(page, "searches_unused")).toBe("2");
    expect(await metric(page, "uses")).toBe("2");
    expect(await metric(page, "approvals_asked")).toBe("1");
    expect(await metric(page, "approvals_granted")).toBe("1");
    expect(await metric(page, "approvals_denied")).toBe("0");
    expect(await metric(page, "cost_usd")).toMatch(/^\$0\.0000\d\d$/);

    // Four charts drawn by uPlot, each with its numbers in a table for screen readers.
    expect(await page.locator("#charts-body .uplot canvas").count()).toBe(4);
    const today = new Date().toISOString().slice(0, 10);
    // One row per day of the range (30 by default), all traffic today.
    const searches = await rows(page, "chart-searches-table");
    expect(searches).toHaveLength(30);
    expect(searches.at(-1)).toBe(`${today} | 3 | 2`);
    expect(searches.slice(0, -1).every((r) => r.endsWith(" | 0 | 0"))).toBe(true);
    expect((await rows(page, "chart-approvals-table")).at(-1)).toBe(`${today} | 1 | 1 | 0`);

    expect(await rows(page, "failing-table")).toEqual(["anchovies order pizza | no result | 2"]);
    expect(await rows(page, "never-table")).toEqual(["calendar.book_room", "slack.post_message"]);
    expect(await rows(page, "tools-table")).toEqual([
      "github.create_issue | 1 | 1",
      "github.list_issues | 1 | 1",
    ]);
    expect(await rows(page, "catalogs-table")).toEqual([expect.stringMatching(/^main \| 1 \| 4 \| 3 \| /)]);
    const sessions = await rows(page, "sessions-table");
    expect(sessions.map((r) => r.split(" | ")[0]).sort()).toEqual([a, b]);

    // No lesson was submitted and no upstream added yet: both sections say so.
    expect(await section(page, "Learned skills for review").textContent()).toContain("No learned skill yet.");
    expect(await section(page, "Upstream servers").textContent()).toContain("No upstream server");

    await shoot(page, "Overview", "console-overview.png");
    await shoot(page, "Over time", "console-charts.png");
    await shoot(page, "Failing searches", "console-failing.png");
    await shoot(page, "Tools found and used", "console-tools.png");
    await shoot(page, "Published catalogs", "console-catalogs.png");
    await shoot(page, "Recent sessions", "console-sessions.png");

    // A tool's own view: day by day, and what was learned for it.
    await page.getByRole("button", { name: "Details of calendar.book_room" }).click();
    await expect
      .poll(() => section(page, "Tool").textContent(), WAIT)
      .toContain("Not found nor used in this range.");

    // A recent session opens the inspector with the same key, never through the URL.
    await page.getByRole("link", { name: a }).click();
    await page.waitForURL(`${worker.url}/inspect`);
    expect(await page.getByLabel("Session id").inputValue()).toBe(a);
    expect(await page.getByLabel("API key").inputValue()).toBe(KEY);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("approves a learned skill waiting for review from the page", async () => {
    // A harness submits what a finished run learned; in review mode it waits for an operator.
    const sid = "console-lesson";
    await op(sid, "catalog_sync", { tools: TOOLS });
    const submitted = await op(sid, "skill_learn", {
      task_type: "triage",
      trigger: "Filing a bug someone reported in chat",
      body: "Search the issues first; create one only when none matches, and link the chat message.",
      tools: ["github.list_issues", "github.create_issue"],
      outcome: "success",
      kind: "do",
    });
    const name = submitted.name as string;
    // The session sends it after its response: wait until the tenant holds it.
    await expect
      .poll(async () => (await api("GET", `/v1/learned-skills/${name}`)).status, WAIT)
      .toBe("pending");
    const { page, problems } = await openConsole();
    const waiting = await rows(page, "skills-table");
    expect(waiting).toEqual([
      expect.stringMatching(new RegExp(`^${name.replaceAll(".", "\\.")} \\| pending \\| do \\| `)),
    ]);
    await shoot(page, "Learned skills for review", "console-skills.png");
    await page.getByRole("button", { name: `Approve ${name}` }).click();
    await expect.poll(() => page.getByRole("status").textContent(), WAIT).toBe(`Approved ${name}.`);
    expect((await rows(page, "skills-table"))[0]).toMatch(/ \| approved \| /);
    // The API agrees, and only approved lessons reach a model.
    expect((await api("GET", `/v1/learned-skills/${name}`)).status).toBe("approved");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the gateway's upstream servers and how their import went", async () => {
    await api("PUT", "/v1/upstreams/local", { url: `${upstream.url}/tools/mcp` });
    const { page, problems } = await openConsole();
    expect(await rows(page, "upstreams-table")).toEqual([
      expect.stringMatching(
        new RegExp(
          `^local \\| ${upstream.url.replaceAll(".", "\\.")}/tools/mcp \\| ok \\| 55 \\| \\S+ \\|  \\| 0$`,
        ),
      ),
    ]);
    await shoot(page, "Upstream servers", "console-upstreams.png");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("forgets what was learned for a tool from the page", async () => {
    const { page, problems } = await openConsole();
    const learned = await rows(page, "learning-table");
    const row = learned.find((r) => r.startsWith("github.list_issues | "));
    expect(row).toMatch(/issues/);
    await shoot(page, "Learned terms", "console-learning.png");
    await page.getByRole("button", { name: "Forget what was learned for github.list_issues" }).click();
    await expect
      .poll(() => page.getByRole("status").textContent(), WAIT)
      .toMatch(/^Forgot [1-9]\d* rows? learned for github\.list_issues\.$/);
    expect(
      (await rows(page, "learning-table").catch(() => [])).some((r) => r.startsWith("github.list_issues")),
    ).toBe(false);
    // The API agrees: nothing is stored for the tool any more.
    expect((await api("GET", "/v1/learning/tools/github.list_issues")).terms).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
