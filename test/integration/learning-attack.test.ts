// Poisoning learning from use (issue 27): colluding sessions of a tenant, doing only what an end
// user steering an agent can cause, try to lift a tool to the top for requests it does not serve.
// Each attack must leave the target out of the top 3 and the right tool first. The dev catalog
// (235 tools of real shapes) plus a destructive tool; real worker, real objects, real HTTP.
import { describe, expect, it } from "vitest";
import { argsFor, type CatalogTool } from "../../bench/sample-args";
import catalog from "../../bench/search-eval/catalog.json";
import { call, newSid, op } from "../support/http";

const DELETE_REPO = {
  name: "github.delete_repository",
  namespace: "github",
  description: "Delete a GitHub repository. This cannot be undone.",
  side_effects: "write",
};
const TOOLS = [...(catalog as CatalogTool[]), DELETE_REPO] as CatalogTool[];

const REFUND = "refund the customer's last payment";
const NEWS = "search the web for news";
/** What serves each request: the right tool must stay first. */
const SERVES: Record<string, string[]> = {
  [REFUND]: ["stripe:refund_charge"],
  [NEWS]: ["web_search", "search.news"],
};

async function settled(): Promise<void> {
  let last = -1;
  for (let i = 0; i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = (await call("GET", "/v1/learning")).json.merged;
    if (now === last) return;
    last = now;
  }
}

/** The top results for `query` in a new session of the tenant. */
async function top(query: string): Promise<string[]> {
  const sid = newSid();
  await op(sid, "catalog_sync", { tools: TOOLS });
  const res = await op(sid, "tool_search", { query, limit: 10 });
  return res.json.tools.map((t: { name: string }) => t.name);
}

/** The target's own words: a search for them returns it, so a use after it teaches. */
const own = (target: string) => target.replace(/[._:-]/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2");

/** One attacking session: `pairs` × (a search naming the attack request and the target, then a use). */
async function attack(target: string, requests: readonly string[], config?: unknown): Promise<void> {
  const sid = newSid();
  if (config) await call("PUT", `/v1/sessions/${sid}`, config);
  await op(sid, "catalog_sync", { tools: TOOLS });
  const tool = TOOLS.find((t) => t.name === target) as CatalogTool;
  for (const request of requests) {
    const found = await op(sid, "tool_search", { query: `${request} ${own(target)}`, limit: 10 });
    expect(found.json.tools.map((t: { name: string }) => t.name)).toContain(target);
    const used = await op(sid, "tool_resolve", { name: target, args: argsFor(tool) });
    if (used.json.decision === "needs_approval")
      await op(sid, "approval_decide", { approval_id: used.json.approval_id, decision: "deny" });
  }
}

async function expectUnmoved(target: string): Promise<void> {
  await settled();
  for (const request of [REFUND, NEWS]) {
    const results = await top(request);
    expect(results.slice(0, 3), `${target} for "${request}"`).not.toContain(target);
    expect(SERVES[request], `first for "${request}"`).toContain(results[0]);
  }
}

describe("poisoning learning from use", () => {
  it("eight sessions of three search + use pairs do not lift a destructive tool", async () => {
    for (let i = 0; i < 8; i++) await attack(DELETE_REPO.name, [REFUND, NEWS, REFUND]);
    await expectUnmoved(DELETE_REPO.name);
  });

  it("49 sessions of one pair each do not lift a read tool", async () => {
    for (let i = 0; i < 49; i++) await attack("weather.get_forecast", [i % 2 === 0 ? REFUND : NEWS]);
    await expectUnmoved("weather.get_forecast");
  });

  // Sixteen attacking sessions and a replay: a slow machine needs more than the default 30 s.
  it("16 sessions do not lift a tool that acts outside, nor a stateful one", {
    timeout: 120_000,
  }, async () => {
    for (let i = 0; i < 16; i++) await attack("slack.postMessage", [REFUND, NEWS, REFUND]);
    for (let i = 0; i < 16; i++) await attack("k8s.scale-deployment", [NEWS, REFUND, NEWS]);
    await expectUnmoved("slack.postMessage");
    await expectUnmoved("k8s.scale-deployment");
  });

  // Many attacking sessions: a slow machine needs more than the default 30 s.
  it("calls a person denied teach nothing at all", { timeout: 120_000 }, async () => {
    const target = "github.merge_pull_request";
    const config = { policy: { approval: [target] } };
    for (let i = 0; i < 8; i++) await attack(target, [REFUND, NEWS, REFUND], config);
    await settled();
    expect((await call("GET", `/v1/learning/tools/${target}`)).json.terms).toEqual([]);
    await expectUnmoved(target);
  });
});
