// The inspector page in real headless chromium against the real worker: what an operator sees and
// does (approve a call), that API data stays text, and that a failing call shows its error. The
// browser tests run when a Chromium is found (test/node/browser.ts) and always when CI is set.
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserRequired, findChromium, launchChromium } from "./browser";
import { type RunningWorker, startWorker } from "./worker";

const KEY = "key-a";
const XSS = "<img src=x onerror=alert(1)>";
/** expect.poll gives up after 1 s by default; a cold chromium on CI can take longer. */
const WAIT = { timeout: 15_000 };
const SCREENSHOT = fileURLToPath(new URL("../artifacts/inspect.png", import.meta.url));

/** Without a Chromium the browser tests are skipped (global-setup.ts says so once), except on CI. */
const withBrowser = findChromium() !== undefined || browserRequired();

let worker: RunningWorker;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(fileURLToPath(new URL("../artifacts/", import.meta.url)), { recursive: true });
  worker = await startWorker();
});

afterAll(async () => {
  await worker?.dispose();
});

async function api(method: string, path: string, body?: unknown, key = KEY): Promise<any> {
  const res = await fetch(`${worker.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const op = (sid: string, name: string, body: unknown) => api("POST", `/v1/sessions/${sid}/${name}`, body);

/** A session with always-loaded and deferred tools, two activations, a pending approval and searches. */
async function seedSession(sid: string): Promise<{ approvalId: string }> {
  await op(sid, "catalog_sync", {
    tools: [
      { name: "notes.search", description: "Search the team's notes", loading_mode: "always" },
      { name: "files.read", description: "Read a file from the workspace", loading_mode: "always" },
      { name: "calendar.list_events", description: "List calendar events in a date range" },
      { name: "github.create_issue", description: "Create an issue in a GitHub repository" },
      { name: "slack.post_message", description: "Post a message to a Slack channel" },
      { name: "payments.refund", description: "Refund a customer's payment", side_effects: "external" },
      { name: "evil.render", description: XSS },
    ],
  });
  await api("PUT", `/v1/sessions/${sid}`, { policy: { approval: ["payments.*"] } });
  await op(sid, "tool_activate", { names: ["slack.post_message"], reason: "user asked for Slack" });
  const resolved = await op(sid, "tool_resolve", { name: "payments.refund", args: { charge: "ch_1" } });
  expect(resolved.decision).toBe("needs_approval");
  await op(sid, "tool_search", { query: "refund a payment" });
  await op(sid, "tool_search", { query: "open a bug on github" });
  return { approvalId: resolved.approval_id };
}

async function openInspector(sid: string, key: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const problems: string[] = [];
  page.on("dialog", async (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    await dialog.dismiss();
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console: ${msg.text()}`);
  });
  await page.goto(`${worker.url}/inspect`);
  // The page script marks the document when it has run (under the CSP, only if its hash matched).
  await expect.poll(() => page.evaluate("document.documentElement.dataset.ready"), WAIT).toBe("true");
  await page.getByLabel("API key").fill(key);
  await page.getByLabel("Session id").fill(sid);
  await page.getByRole("button", { name: "Load session" }).click();
  return { page, problems };
}

const section = (page: Page, heading: string) => page.getByRole("region", { name: heading, exact: true });

/** The text of each body row of a section's tables, cells trimmed and joined with " | ". */
async function rows(page: Page, heading: string): Promise<string[]> {
  const trs = await section(page, heading).locator("tbody tr").all();
  return Promise.all(
    trs.map(async (tr) => (await tr.locator("td").allTextContents()).map((t) => t.trim()).join(" | ")),
  );
}

describe("the inspector page", () => {
  it("is served with a strict Content-Security-Policy and no API data in it", async () => {
    const res = await fetch(`${worker.url}/inspect`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain("unsafe");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).toContain("<h1>Trove session inspector</h1>");
    expect(html.match(/<script>/g)).toHaveLength(1);
  });
});

describe.skipIf(!withBrowser)("the inspector page in headless Chromium", () => {
  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("shows the session, approves its pending call and renders tool text as text", async () => {
    const sid = `inspect-${crypto.randomUUID()}`;
    const { approvalId } = await seedSession(sid);
    const { page, problems } = await openInspector(sid, KEY);

    await expect.poll(() => page.getByRole("status").textContent(), WAIT).toContain(`Loaded session ${sid}`);
    expect(await page.getByRole("alert").isHidden()).toBe(true);
    expect(page.url()).not.toContain(KEY);
    expect(await page.evaluate('sessionStorage.getItem("trove.inspect.key")')).toBe(KEY);

    const summary = await section(page, "Summary").textContent();
    expect(summary).toContain("Allowed tools7");
    expect(summary).toContain("Always loaded2");
    expect(summary).toContain("Deferred5");

    const visible = await rows(page, "Visible tools");
    expect(visible).toContain("tool_search | Trove tool");
    expect(visible).toContain("notes.search | always loaded");
    expect(visible).toContain("files.read | always loaded");
    expect(visible).toContain("slack.post_message | activated (session, explicit)");
    expect(visible).toContain("payments.refund | activated (session, first use)");
    expect(visible.join("\n")).not.toContain("calendar.list_events");

    const deferred = await rows(page, "Deferred tools");
    expect(deferred).toEqual([
      "calendar.list_events | List calendar events in a date range | deferred",
      `evil.render | ${XSS} | deferred`,
      "github.create_issue | Create an issue in a GitHub repository | deferred",
      "payments.refund | Refund a customer's payment | activated",
      "slack.post_message | Post a message to a Slack channel | activated",
    ]);
    // The description is a text node: no element was created from it and nothing ran.
    expect(await page.locator("img").count()).toBe(0);
    expect(await section(page, "Deferred tools").getByText(XSS, { exact: true }).count()).toBe(1);

    const activations = await rows(page, "Activations");
    expect(activations).toHaveLength(2);
    expect(activations.find((r) => r.startsWith("slack.post_message"))).toMatch(
      /^slack\.post_message \| session \| — \| explicit \| user asked for Slack \| \S+ \| —$/,
    );
    expect(activations.find((r) => r.startsWith("payments.refund"))).toContain("| first_use |");

    const eventRows = await rows(page, "Events");
    // The timeline reads from now backwards.
    const ids = eventRows.map((r) => Number(r.split(" | ")[0]));
    expect(ids).toEqual([...ids].sort((x, y) => y - x));
    expect(ids.length).toBeGreaterThan(3);
    const events = eventRows.join("\n");
    for (const type of ["catalog_synced", "tool_activated", "approval_requested", "tool_search_query"]) {
      expect(events).toContain(type);
    }
    expect(events).toContain('"query":"refund a payment"');

    const pending = await rows(page, "Pending approvals");
    expect(pending).toHaveLength(1);
    expect(pending[0]).toContain("payments.refund");
    expect(pending[0]).toContain('"charge": "ch_1"');
    expect(pending[0]).toContain(approvalId);

    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    await page.getByLabel("Decide as").fill("ops@example.test");
    await page.getByRole("button", { name: `Approve payments.refund (${approvalId})` }).click();
    await expect
      .poll(() => page.getByRole("status").textContent(), WAIT)
      .toBe(`Approved payments.refund (${approvalId}).`);
    expect(await section(page, "Pending approvals").textContent()).toContain("No pending approvals.");
    expect((await rows(page, "Events")).join("\n")).toContain("approval_decided");

    // The API agrees: the decision is recorded, and the approved call is now allowed (once).
    const log = await op(sid, "events", { since: 0, limit: 500 });
    const decided = log.events.find((e: any) => e.type === "approval_decided");
    expect(decided.data).toMatchObject({
      approval_id: approvalId,
      decision: "approve",
      by: "ops@example.test",
    });
    expect((await op(sid, "state", {})).pending_approvals).toEqual([]);
    const allowed = await op(sid, "tool_resolve", {
      name: "payments.refund",
      args: { charge: "ch_1" },
      approval_id: approvalId,
    });
    expect(allowed.decision).toBe("allow");

    expect(problems).toEqual([]);
    await page.close();
  });

  it("lists the tenant's learned skills as stored and approves a pending one", async () => {
    const sid = `inspect-${crypto.randomUUID()}`;
    await seedSession(sid);
    const learned = await op(sid, "skill_learn", {
      task_type: "api",
      trigger: "Refunding a payment twice by mistake",
      body: `Check the refunds of the payment first. Reported by Jenna Ortiz ${XSS}`,
      outcome: "failure",
      kind: "avoid",
    });
    for (let i = 0; i < 100; i++) {
      const list = await api("GET", "/v1/learned-skills");
      if (list.lessons.some((l: { name: string }) => l.name === learned.name)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const { page, problems } = await openInspector(sid, KEY);
    await expect.poll(() => page.getByRole("status").textContent(), WAIT).toContain(`Loaded session ${sid}`);
    const row = async () =>
      (await rows(page, "Learned skills of the tenant")).find((r) => r.startsWith(learned.name)) ?? "";
    expect(await row()).toContain("| pending | avoid | Refunding a payment twice by mistake |");
    // As stored: depersonalized, and markup stays text.
    expect(await row()).toContain("Reported by [REDACTED_NAME] [REDACTED_NAME]");
    expect(await row()).not.toContain("Jenna");
    expect(await page.locator("img").count()).toBe(0);

    await page.getByRole("button", { name: `Approve ${learned.name}` }).click();
    await expect
      .poll(() => page.getByRole("status").textContent(), WAIT)
      .toContain(`Approved ${learned.name}.`);
    expect(await row()).toContain("| approved |");
    expect((await api("GET", `/v1/learned-skills/${learned.name}`)).status).toBe("approved");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the API's error when the key is wrong, and no session data", async () => {
    const sid = `inspect-${crypto.randomUUID()}`;
    await seedSession(sid);
    const { page, problems } = await openInspector(sid, "not-a-key");

    const alert = page.getByRole("alert");
    await alert.waitFor({ timeout: WAIT.timeout });
    const text = await alert.textContent();
    expect(text).toContain("state: missing or unknown API key");
    expect(text).toContain("unauthorized");
    expect(text).toContain("401");
    expect(await page.locator("#session").isHidden()).toBe(true);
    // Chromium logs the failed fetch itself; anything else would be a page problem.
    expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
    await page.close();
  });
});
