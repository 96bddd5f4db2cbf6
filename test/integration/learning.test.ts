// Learning from use (issue 15): a tool used after a search teaches the tenant's ranking, every new
// session of the tenant ranks with it, no other tenant is touched, and operators can read and
// forget what was learned. Real worker, real session and learning objects, real HTTP.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Trove, TroveApiError } from "../../packages/client/src/index";
import { call, KEY_A, KEY_B, newSid, op } from "../support/http";

/** Two tools that both match "customer"; cold, the shorter name wins the tie. */
function catalog() {
  const tag = crypto.randomUUID().slice(0, 8);
  const charge = `pay${tag}.charge`;
  const refund = `pay${tag}.refund_charge`;
  return {
    charge,
    refund,
    tools: [
      { name: charge, description: "Create a charge for a customer" },
      { name: refund, description: "Refund a charge to a customer" },
    ],
  };
}

async function merged(key?: string): Promise<number> {
  const res = await call("GET", "/v1/learning", undefined, key);
  expect(res.status).toBe(200);
  return res.json.merged;
}

/** Waits until the tenant has merged more than `before` pairs (sessions send after responding). */
async function mergedAbove(before: number, key?: string): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const now = await merged(key);
    if (now > before) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the tenant merged nothing");
}

async function names(sid: string, query: string, key?: string): Promise<string[]> {
  const res = await op(sid, "tool_search", { query, limit: 10 }, key);
  expect(res.status).toBe(200);
  return res.json.tools.map((t: { name: string }) => t.name);
}

/** One session of the tenant searches `query` and uses `tool`. */
async function teach(tools: unknown[], query: string, tool: string, key?: string): Promise<void> {
  const sid = newSid();
  expect((await op(sid, "catalog_sync", { tools }, key)).status).toBe(200);
  expect(await names(sid, query, key)).toContain(tool);
  expect((await op(sid, "tool_resolve", { name: tool }, key)).json.decision).toBe("allow");
}

describe("learning from use", () => {
  it("ranks first, in a new session of the tenant, the tool people used after the same words", async () => {
    const { charge, refund, tools } = catalog();
    const query = "make the customer whole";
    const cold = newSid();
    await op(cold, "catalog_sync", { tools });
    expect(await names(cold, query)).toEqual([charge, refund]);

    const before = await merged();
    await teach(tools, query, refund);
    await mergedAbove(before);

    const fresh = newSid();
    await op(fresh, "catalog_sync", { tools });
    expect(await names(fresh, query)).toEqual([refund, charge]);
    const learned = await call("GET", `/v1/learning/tools/${refund}`);
    expect(learned.status).toBe(200);
    expect(learned.json.text).toBe(query);
    expect(learned.json.queries).toEqual([
      expect.objectContaining({ query, sessions: 1, weight: expect.any(Number) }),
    ]);
    // Never shown to the model: descriptions stay the catalog's.
    const hit = (await op(fresh, "tool_search", { query })).json.tools[0];
    expect(hit.description).toBe("Refund a charge to a customer");
  });

  it("changes no other tenant's ranking by a single position", async () => {
    const { refund, tools } = catalog();
    const query = "make the customer whole";
    const other = newSid();
    await op(other, "catalog_sync", { tools }, KEY_B);
    const coldB = (await op(other, "tool_search", { query, limit: 10 }, KEY_B)).json.tools;
    const mergedB = await merged(KEY_B);

    const before = await merged();
    for (let i = 0; i < 3; i++) await teach(tools, query, refund);
    await mergedAbove(before);

    const fresh = newSid();
    await op(fresh, "catalog_sync", { tools }, KEY_B);
    expect((await op(fresh, "tool_search", { query, limit: 10 }, KEY_B)).json.tools).toEqual(coldB);
    expect(await merged(KEY_B)).toBe(mergedB);
    expect((await call("GET", `/v1/learning/tools/${refund}`, undefined, KEY_B)).json.text).toBe("");
  });

  it("stores queries with personal data and names left out", async () => {
    const { refund, tools } = catalog();
    const before = await merged();
    await teach(tools, "Customer Bob Dylan (bob@example.com) in Oslo wants money back", refund);
    await mergedAbove(before);
    const learned = await call("GET", `/v1/learning/tools/${refund}`);
    expect(learned.json.text).toBe("Customer in wants money back");
  });

  it("caps what one session teaches a tool", async () => {
    const { refund, tools } = catalog();
    const sid = newSid();
    await op(sid, "catalog_sync", { tools });
    const before = await merged();
    for (const words of ["one", "two", "three", "four", "five"]) {
      expect(await names(sid, `customer ${words}`)).toContain(refund);
      await op(sid, "tool_resolve", { name: refund });
    }
    await mergedAbove(before);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await call("GET", `/v1/learning/tools/${refund}`)).json.queries).toHaveLength(3);
  });

  it("forgets a tool, and a new session ranks it cold again", async () => {
    const { charge, refund, tools } = catalog();
    const query = "make the customer whole";
    const before = await merged();
    await teach(tools, query, refund);
    await mergedAbove(before);
    const forgot = await call("DELETE", `/v1/learning/tools/${refund}`);
    expect(forgot.status).toBe(200);
    expect(forgot.json.forgotten_pairs).toBe(1);
    expect((await call("GET", `/v1/learning/tools/${refund}`)).json).toEqual({
      tool: refund,
      text: "",
      queries: [],
    });
    const fresh = newSid();
    await op(fresh, "catalog_sync", { tools });
    expect(await names(fresh, query)).toEqual([charge, refund]);
  });

  it("neither learns from nor ranks with use when the session turns learning off", async () => {
    const { charge, refund, tools } = catalog();
    const query = "make the customer whole";
    const before = await merged();
    await teach(tools, query, refund);
    await mergedAbove(before);

    const off = newSid();
    expect((await call("PUT", `/v1/sessions/${off}`, { learning: { enabled: false } })).status).toBe(200);
    await op(off, "catalog_sync", { tools });
    expect(await names(off, query)).toEqual([charge, refund]);
    const now = await merged();
    await op(off, "tool_resolve", { name: charge });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await merged()).toBe(now);
  });

  it("is reachable from the typed client's tenant methods", async () => {
    const trove = new Trove({
      baseUrl: "https://trove.test",
      apiKey: KEY_A,
      fetch: (url, init) => SELF.fetch(url, init),
    });
    const { refund, tools } = catalog();
    const before = (await trove.tenant.learning_get()).merged;
    await teach(tools, "customer wants a refund", refund);
    await mergedAbove(before);
    expect((await trove.tenant.learning_tool_get({ name: refund })).text).toBe("customer wants a refund");
    expect(await trove.tenant.learning_tool_forget({ name: refund })).toEqual({ forgotten_pairs: 1 });
    const error = await trove.tenant.learning_tool_get({ name: "bad name" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TroveApiError);
    expect(error).toMatchObject({ status: 400, code: "invalid_input", details: { field: "name" } });
  });

  it("answers only with a key, and names a bad tool name", async () => {
    expect((await call("GET", "/v1/learning", undefined, null)).status).toBe(401);
    const post = await call("POST", "/v1/learning", {});
    expect(post.status).toBe(405);
    expect(post.json.error.details.allow).toEqual(["GET", "DELETE"]);
    const bad = await call("GET", "/v1/learning/tools/bad%20name");
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "invalid_input", details: { field: "name" } });
  });
});
