// Learning from use (issues 15 and 27): a real use after a search teaches the tenant's ranking the
// request's ordinary words, a word counts once enough independent sources taught it, every new
// session of the tenant ranks with it, no other tenant is touched, and operators can read and
// forget what was learned. Real worker, real session and learning objects, real HTTP.
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Trove, TroveApiError } from "../../packages/client/src/index";
import { createSql } from "../../src/db/sql";
import { LearningStore } from "../../src/learning/learning-store";
import { LearningSync } from "../../src/session/learning-sync";
import type { SessionObject } from "../../src/session-object";
import { call, KEY_A, KEY_B, newSid, op } from "../support/http";
import { scheduleTwiceOverlapping, sessionStub } from "../support/session";

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

const QUERY = "the customer is upset and angry";

async function learning(key?: string) {
  const res = await call("GET", "/v1/learning", undefined, key);
  expect(res.status).toBe(200);
  return res.json as { merged: number; rows: number };
}

/** Waits until the tenant has merged at least `count` uses more than `before` (sessions send after responding). */
async function mergedAtLeast(before: number, count = 1, key?: string): Promise<number> {
  for (let i = 0; i < 200; i++) {
    const now = (await learning(key)).merged;
    if (now >= before + count) return now;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the tenant merged fewer than ${count} uses`);
}

/** Waits until the tenant's merged count stops moving (sessions send after responding). */
async function settled(key?: string): Promise<number> {
  let last = -1;
  for (let i = 0; i < 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = (await learning(key)).merged;
    if (now === last) return now;
    last = now;
  }
  throw new Error("the tenant kept merging");
}

async function names(sid: string, query: string, key?: string): Promise<string[]> {
  const res = await op(sid, "tool_search", { query, limit: 10 }, key);
  expect(res.status).toBe(200);
  return res.json.tools.map((t: { name: string }) => t.name);
}

/** A new session of the tenant searches `query` and uses `tool`; `config` configures it first. */
async function teach(
  tools: unknown[],
  query: string,
  tool: string,
  { key, config }: { key?: string; config?: unknown } = {},
): Promise<string> {
  const sid = newSid();
  if (config) expect((await call("PUT", `/v1/sessions/${sid}`, config, key)).status).toBe(200);
  expect((await op(sid, "catalog_sync", { tools }, key)).status).toBe(200);
  expect(await names(sid, query, key)).toContain(tool);
  expect((await op(sid, "tool_resolve", { name: tool }, key)).json.decision).toBe("allow");
  return sid;
}

/** `sessions` new sessions each teach `query` → `tool`, and the tenant merged them all. */
async function teachMany(tools: unknown[], query: string, tool: string, sessions: number): Promise<void> {
  const before = (await learning()).merged;
  for (let i = 0; i < sessions; i++) await teach(tools, query, tool);
  await mergedAtLeast(before, sessions);
}

async function learnedTerms(tool: string, key?: string) {
  const res = await call("GET", `/v1/learning/tools/${tool}`, undefined, key);
  expect(res.status).toBe(200);
  return res.json.terms as { term: string; support: number; sources: number }[];
}

async function fresh(tools: unknown[], query: string, config?: unknown): Promise<string[]> {
  const sid = newSid();
  if (config) await call("PUT", `/v1/sessions/${sid}`, config);
  await op(sid, "catalog_sync", { tools });
  return names(sid, query);
}

describe("learning from use", () => {
  it("ranks first, once three sessions agree, the tool people used after the same words", async () => {
    const { charge, refund, tools } = catalog();
    const feelings = "upset and angry";
    expect(await fresh(tools, QUERY)).toEqual([charge, refund]);
    expect(await fresh(tools, feelings)).toEqual([]);

    await teachMany(tools, QUERY, refund, 2);
    // Two sources (min_support_near) may order the tools the request already fits by "customer"…
    expect(await fresh(tools, QUERY)).toEqual([refund, charge]);
    // …but are not yet a habit of the tenant (min_support 3): their words find no tool by themselves.
    expect(await fresh(tools, feelings)).toEqual([]);

    await teachMany(tools, QUERY, refund, 1);
    expect(await fresh(tools, feelings)).toEqual([refund]);
    expect(await fresh(tools, QUERY)).toEqual([refund, charge]);
    // Stored: the request's ordinary words, each with the sources behind it; never the request.
    const terms = await learnedTerms(refund);
    expect(terms.map((t) => t.term).sort()).toEqual(["angry", "customer", "upset"]);
    expect(terms.every((t) => t.sources === 3 && t.support > 2.99)).toBe(true);
    // Never shown to the model: descriptions stay the catalog's.
    const sid = newSid();
    await op(sid, "catalog_sync", { tools });
    const hit = (await op(sid, "tool_search", { query: QUERY })).json.tools[0];
    expect(hit.description).toBe("Refund a charge to a customer");
  });

  it("lets a word other tools say reorder the tools a request fits, and lift no other", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const charge = `pay${tag}.charge`;
    const refund = `pay${tag}.refund_charge`;
    const weather = `pay${tag}.get_weather`;
    const tools = [
      { name: charge, description: "Create a charge for a customer" },
      { name: refund, description: "Refund a charge to a customer" },
      {
        name: `pay${tag}.list_channels`,
        description: "List the workspace's channels, each with its members and latest message",
      },
      { name: weather, description: "Get the weather forecast for a city" },
    ];
    const query = "customer charge message";
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([charge, refund]);
    // "message" is list_channels' own word: a few sources are not the fifty it needs to count
    // anywhere, but two (min_support_near) may order the two tools the request already fits.
    await teachMany(tools, "message the customer about the charge", refund, 1);
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([charge, refund]);
    await teachMany(tools, "message the customer about the charge", refund, 1);
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([refund, charge]);
    // Taught as often to a tool the request does not fit, the same words lift it nowhere.
    await teachMany(tools, "customer charge message weather", weather, 4);
    expect(await fresh(tools, query)).not.toContain(weather);
    expect((await learnedTerms(weather)).map((t) => t.term)).toContain("message");
    // Off, learning ranks exactly cold.
    expect((await fresh(tools, query, { learning: { enabled: false } })).slice(0, 2)).toEqual([
      charge,
      refund,
    ]);
  });

  it("orders tools that say the same words by the one five people chose after them", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const sales = `rep${tag}.sales_report`;
    const usage = `rep${tag}.usage_report`;
    const tools = [
      { name: sales, description: "Build the monthly report" },
      { name: usage, description: "Build the monthly report" },
    ];
    const query = "build the monthly report";
    // Cold, the two tie and the name decides.
    expect(await fresh(tools, query)).toEqual([sales, usage]);
    // Every word is both tools' own: four people are short of the five (min_support_own) it takes
    // to prefer one of them.
    await teachMany(tools, query, usage, 4);
    expect(await fresh(tools, query)).toEqual([sales, usage]);
    await teachMany(tools, query, usage, 1);
    expect(await fresh(tools, query)).toEqual([usage, sales]);
    expect((await learnedTerms(usage)).map((t) => [t.term, t.sources])).toEqual(
      expect.arrayContaining([
        ["monthly", 5],
        ["report", 5],
      ]),
    );
    // A session that asks for more agreement, or does not learn, ranks as cold.
    expect(await fresh(tools, query, { learning: { min_support_own: 6 } })).toEqual([sales, usage]);
    expect(await fresh(tools, query, { learning: { enabled: false } })).toEqual([sales, usage]);
  });

  it("weighs a word learned for many tools below one learned for a single tool", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const sales = `rep${tag}.sales_report`;
    const usage = `rep${tag}.usage_report`;
    const [weather, files, email] = [`rep${tag}.get_weather`, `rep${tag}.list_files`, `rep${tag}.send_email`];
    const tools = [
      { name: sales, description: "Build the monthly report" },
      { name: usage, description: "Build the monthly report" },
      { name: weather, description: "Get the weather forecast for a city" },
      { name: files, description: "List the files in a folder" },
      { name: email, description: "Send an email" },
    ];
    const query = "build the customer finance monthly report";
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([sales, usage]);
    // Two people each: a word no tool says orders the two tools the request fits (min_support_near),
    // one word for each, so they still tie and the name decides.
    await teachMany(tools, "build the customer monthly report", sales, 2);
    await teachMany(tools, "build the finance monthly report", usage, 2);
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([sales, usage]);
    // "customer" then goes with every kind of request: it tells tools apart no better than a word
    // every tool says, and "finance", learned for one tool, decides.
    await teachMany(tools, "get the customer weather forecast", weather, 2);
    await teachMany(tools, "list the customer files", files, 2);
    await teachMany(tools, "send the customer an email", email, 2);
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([usage, sales]);
    expect((await fresh(tools, query, { learning: { enabled: false } })).slice(0, 2)).toEqual([sales, usage]);
    // Tools the policy denies count no more than absent ones: "customer" ties with "finance" again.
    const absent = await fresh(tools.slice(0, 2), query);
    expect(absent).toEqual([sales, usage]);
    expect(await fresh(tools, query, { policy: { deny: [weather, files, email] } })).toEqual(absent);
  });

  it("keeps the weight the catalog gives its own words, however many tools two people teach them to", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const refund = `pay${tag}.refund_payment`;
    const invoice = `pay${tag}.last_invoice`;
    const others = [
      "weather forecast",
      "folder files",
      "email message",
      "calendar event",
      "chat channel",
      "container image",
      "dns record",
      "pdf document",
      "git branch",
      "map route",
    ].map((thing, i) => ({ name: `misc${tag}.tool_${i}`, description: `Work with a ${thing}`, thing }));
    const tools = [
      { name: refund, description: "Refund a payment to a customer" },
      { name: invoice, description: "Get the last invoice of a customer" },
      { name: `pay${tag}.list_payments`, description: "List the payments of a customer" },
      { name: `pay${tag}.get_customer`, description: "Get a customer by id" },
      ...others.map(({ thing: _, ...tool }) => tool),
    ];
    const query = "refund the customer's last payment";
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([refund, invoice]);
    // Two colluding people use every other tool after a request that says "refund": enough for a
    // word the catalog does not say to count among contenders, not to outweigh one it says.
    for (const { name, thing } of others) await teachMany(tools, `refund the ${thing}`, name, 2);
    expect((await learnedTerms(others[0]?.name ?? "")).map((t) => t.term)).toContain("refund");
    expect((await fresh(tools, query)).slice(0, 2)).toEqual([refund, invoice]);
  });

  it("teaches no action from a word that names a state: what's deployed is asked of the tool that lists", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const list = `edge${tag}.list_functions`;
    const deploy = `edge${tag}.deploy_function`;
    const tools = [
      { name: list, description: "List the edge functions of a project" },
      { name: deploy, description: "Deploy an edge function to a project" },
    ];
    const query = "deploy my edge function";
    expect((await fresh(tools, query))[0]).toBe(deploy);
    // Three people ask which functions are deployed and use the tool that lists them: a state to
    // look for, not the action of deploying.
    await teachMany(tools, "which edge functions are deployed", list, 3);
    const terms = (await learnedTerms(list)).map((t) => t.term);
    expect(terms).toContain("edge");
    expect(terms).not.toContain("deployed");
    expect((await fresh(tools, query))[0]).toBe(deploy);
  });

  it("ranks with learned words from the refresh that brings them, in a session that already searched", async () => {
    const { charge, refund, tools } = catalog();
    const sid = newSid();
    await op(sid, "catalog_sync", { tools });
    // The search reads the candidates' text and keeps it in memory.
    expect(await names(sid, QUERY)).toEqual([charge, refund]);
    // What a refresh from the tenant's object does: refund's learned words, past every threshold.
    const changed = await runInDurableObject(sessionStub(sid), (obj, state) => {
      const { enabled: _, ...thresholds } = obj.config.get().learning;
      const terms = ["upset", "angry"].map((term) => ({ term, support: 100 }));
      const tools = state.storage.transactionSync(() =>
        obj.learning.apply(1, [{ tool: refund, terms }], obj.catalog.ids(), thresholds, Date.now()),
      );
      (obj as unknown as { learnedChanged(tools: number): void }).learnedChanged(tools);
      return tools;
    });
    expect(changed).toBe(1);
    expect(await names(sid, QUERY)).toEqual([refund, charge]);
  });

  it("records a use that waited in the outbox once, though a second send starts while the first waits", async () => {
    const { refund, tools } = catalog();
    const sid = newSid();
    await op(sid, "catalog_sync", { tools });
    const before = (await learning()).merged;
    await runInDurableObject(sessionStub(sid), async (obj: SessionObject, state) => {
      // A use a failed send left in the outbox.
      const use = { tool: refund, at: Date.now(), terms: [["upset", 1]] };
      obj.sql.run(`INSERT INTO trove_learning_outbox (use) VALUES (?)`, JSON.stringify(use));
      const sends: Promise<unknown>[] = [];
      const sync = new LearningSync({
        sql: obj.sql,
        learning: obj.learning,
        config: () => obj.config.get(),
        stub: () => env.LEARNING.get(env.LEARNING.idFromName("tenant-a")),
        address: () => ({ tenant: "tenant-a", sid }),
        ready: () => true,
        toolIds: () => obj.catalog.ids(),
        learnedChanged: () => undefined,
        transaction: (fn) => state.storage.transactionSync(fn),
        waitUntil: (sent) => sends.push(sent),
      });
      sync.start();
      // The second is asked for before the first deleted the rows it sent.
      await scheduleTwiceOverlapping(sync, sends);
    });
    expect((await learning()).merged).toBe(before + 1);
  });

  it("counts an end user once, however many sessions they open", async () => {
    const { charge, refund, tools } = catalog();
    const before = (await learning()).merged;
    for (let i = 0; i < 4; i++) await teach(tools, QUERY, refund, { config: { user: "user-7f3a" } });
    await mergedAtLeast(before, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await learnedTerms(refund)).find((t) => t.term === "upset")).toMatchObject({ sources: 1 });
    expect(await fresh(tools, QUERY)).toEqual([charge, refund]);
  });

  it("changes no other tenant's answers by a single byte", async () => {
    const { refund, tools } = catalog();
    const other = newSid();
    await op(other, "catalog_sync", { tools }, KEY_B);
    const coldB = (await op(other, "tool_search", { query: QUERY, limit: 10 }, KEY_B)).json;
    const stateB = await learning(KEY_B);

    await teachMany(tools, QUERY, refund, 4);

    const freshB = newSid();
    await op(freshB, "catalog_sync", { tools }, KEY_B);
    expect((await op(freshB, "tool_search", { query: QUERY, limit: 10 }, KEY_B)).json).toEqual(coldB);
    expect(await learning(KEY_B)).toEqual(stateB);
    expect(await learnedTerms(refund, KEY_B)).toEqual([]);
  });

  it("caps what one session teaches a tool, and repeats count once", async () => {
    const { refund, tools } = catalog();
    const sid = newSid();
    await op(sid, "catalog_sync", { tools });
    const before = (await learning()).merged;
    for (const word of ["whole", "happy", "square", "calm", "glad"]) {
      expect(await names(sid, `customer ${word}`)).toContain(refund);
      await op(sid, "tool_resolve", { name: refund });
    }
    await mergedAtLeast(before, 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const terms = await learnedTerms(refund);
    // Three uses of the tool at most, and "customer", taught three times, is one source's support.
    expect(terms.map((t) => t.term).sort()).toEqual(["customer", "happy", "square", "whole"]);
    expect(terms.find((t) => t.term === "customer")).toMatchObject({ support: 1, sources: 1 });
  });

  it("learns only from real uses: not from calls waiting for approval, denied, or with invalid arguments", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const gated = `ops${tag}.wipe_cache`;
    const tools = [
      { name: gated, description: "Clear the cache", side_effects: "write" },
      {
        name: `ops${tag}.restart`,
        description: "Restart a service",
        input_schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    ];
    const config = { policy: { approval: [gated] } };
    const before = (await learning()).merged;
    // Waiting, then denied.
    const denied = newSid();
    await call("PUT", `/v1/sessions/${denied}`, config);
    await op(denied, "catalog_sync", { tools });
    expect(await names(denied, "flush the stale cache")).toContain(gated);
    const ask = (await op(denied, "tool_resolve", { name: gated })).json;
    expect(ask.decision).toBe("needs_approval");
    await op(denied, "approval_decide", { approval_id: ask.approval_id, decision: "deny" });
    expect((await op(denied, "tool_resolve", { name: gated, approval_id: ask.approval_id })).status).toBe(
      403,
    );
    // Invalid arguments.
    expect(await names(denied, "bounce the service")).toContain(`ops${tag}.restart`);
    expect((await op(denied, "tool_resolve", { name: `ops${tag}.restart`, args: {} })).status).toBe(422);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await learning()).merged).toBe(before);
    expect(await learnedTerms(gated)).toEqual([]);

    // Approved: teaches, as of the request.
    const approved = newSid();
    await call("PUT", `/v1/sessions/${approved}`, config);
    await op(approved, "catalog_sync", { tools });
    expect(await names(approved, "flush the stale cache")).toContain(gated);
    const pending = (await op(approved, "tool_resolve", { name: gated })).json;
    await op(approved, "approval_decide", { approval_id: pending.approval_id, decision: "approve" });
    const used = await op(approved, "tool_resolve", { name: gated, approval_id: pending.approval_id });
    expect(used.json.decision).toBe("allow");
    await mergedAtLeast(before, 1);
    expect((await learnedTerms(gated)).map((t) => t.term).sort()).toEqual(["cache", "flush", "stale"]);
  });

  it("learns from reformulations, the user's own message and activations, at a lower weight", async () => {
    const { charge, refund, tools } = catalog();
    const sid = newSid();
    await op(sid, "catalog_sync", { tools });
    const before = (await learning()).merged;
    // The user's message, a search whose results went unused, then the one that found the tool.
    await op(sid, "context", { query: "she was charged twice by mistake, fix it" });
    await names(sid, "undo the duplicate billing");
    expect(await names(sid, "refund a charge")).toContain(refund);
    await op(sid, "tool_resolve", { name: refund });
    await mergedAtLeast(before, 1);
    const terms = Object.fromEntries((await learnedTerms(refund)).map((t) => [t.term, t.support]));
    expect(terms).toMatchObject({ refund: 1, charge: 1, undo: 0.5, duplicate: 0.5, billing: 0.5 });
    expect(terms).toMatchObject({ twice: 0.5, mistake: 0.5, fix: 0.5 });
    // "charged" names a state, not the action of charging: it teaches nothing.
    expect(terms).not.toHaveProperty("charged");

    // An explicit activation after a search stands for that search when the tool is called later.
    const other = newSid();
    await op(other, "catalog_sync", { tools });
    expect(await names(other, "bill the customer for the upgrade")).toContain(charge);
    await op(other, "tool_activate", { names: [charge] });
    for (const q of ["a", "b", "c", "d", "e", "f", "g", "h", "i"]) await names(other, `unrelated ${q}`);
    await op(other, "tool_resolve", { name: charge });
    await mergedAtLeast(before, 2);
    expect((await learnedTerms(charge)).map((t) => t.term)).toContain("upgrade");
  });

  it("counts the people who said a word, whatever its weight: three users' own messages are a habit", async () => {
    const { refund, tools } = catalog();
    const before = (await learning()).merged;
    for (let i = 0; i < 3; i++) {
      const sid = newSid();
      await op(sid, "catalog_sync", { tools });
      await op(sid, "context", { query: "she is furious about it" });
      expect(await names(sid, "refund a charge")).toContain(refund);
      expect((await op(sid, "tool_resolve", { name: refund })).json.decision).toBe("allow");
    }
    await mergedAtLeast(before, 3);
    // The user's words teach at INDIRECT_WEIGHT (support 1.5), but three sources agree (min_support 3).
    const furious = (await learnedTerms(refund)).find((t) => t.term === "furious");
    expect(furious).toMatchObject({ support: 1.5, sources: 3 });
    // What sessions index it with: the agreement the thresholds count, beside its support.
    const served = (await call("GET", "/v1/learning/tools")).json.tools.find(
      (t: { tool: string }) => t.tool === refund,
    );
    expect(served.terms).toContainEqual({ term: "furious", support: 1.5, agreement: 3 });
    expect(await fresh(tools, "furious")).toEqual([refund]);
  });

  it("keeps no personal data: only ordinary words reach anything learning stores", async () => {
    const { refund, tools } = catalog();
    const phrasings = [
      "refund Jenna Ortiz, card 4111 1111 1111 1111, she was double charged",
      "refund card 4111-1111-1111-1111 double charged",
      "customer ssn 123-45-6789 wants money back",
      "wire back to IBAN GB82WEST12345698765432 please",
      "passport X12345678 holder wants a refund",
      "call her back on 4155550142 about the refund",
      "my password is sunshine, refund the customer",
      "refund via https://pay.example/reset/correct-horse-battery-staple for the customer",
      "ask maria garcia whether the refund went out",
      "refund bob@example.com for the duplicate charge",
      "john smith needs his money back",
      "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 refund",
    ];
    const secrets = [
      "jenna",
      "ortiz",
      "4111",
      "6789",
      "gb82",
      "iban",
      "x12345678",
      "4155550142",
      "sunshine",
      "horse",
      "battery",
      "staple",
      "maria",
      "garcia",
      "bob",
      "example",
      "john",
      "smith",
      "ghp",
      "abcdefghijklmnopqrstuvwxyz",
    ];
    const before = (await learning()).merged;
    // Enough sources for anything stored to count: three sessions per phrasing.
    for (const phrasing of phrasings) {
      for (let i = 0; i < 3; i++) {
        const sid = newSid();
        await op(sid, "catalog_sync", { tools });
        await op(sid, "tool_search", { query: phrasing, limit: 10 });
        await op(sid, "tool_resolve", { name: refund });
      }
    }
    await mergedAtLeast(before, phrasings.length);
    await settled();
    // Everything the tenant's learning object stores, every table and column, as text.
    const stub = env.LEARNING.get(env.LEARNING.idFromName("tenant-a"));
    const dump = await runInDurableObject(stub, (_obj, state) => {
      const tables = state.storage.sql
        .exec<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`)
        .toArray();
      return tables
        .map((t) => JSON.stringify(state.storage.sql.exec(`SELECT * FROM "${t.name}"`).toArray()))
        .join("\n")
        .toLowerCase();
    });
    // Compared word by word: a salted hash or a timestamp may hold any digits.
    const stored = new Set(dump.match(/[a-z0-9]+/g));
    const served = new Set(
      JSON.stringify(await learnedTerms(refund))
        .toLowerCase()
        .match(/[a-z0-9]+/g),
    );
    for (const secret of secrets) {
      expect(stored.has(secret), secret).toBe(false);
      expect(served.has(secret), secret).toBe(false);
    }
    expect(served.has("double")).toBe(true);
  });

  it("keeps well-supported words through a flood of new ones", async () => {
    const stub = env.LEARNING.get(env.LEARNING.idFromName(`flood-${crypto.randomUUID()}`));
    await runInDurableObject(stub, (_obj, state) => {
      const store = new LearningStore(createSql(state.storage.sql));
      const now = Date.now();
      store.migrate(now);
      for (let s = 0; s < 5; s++)
        store.record(
          { session: `legit-${s}`, user: null },
          [{ tool: "t", at: now, terms: [["whole", 1]] }],
          now,
        );
      // 60 sessions, each three uses of twelve words no one else uses: far over the tool's bound.
      const word = (n: number) =>
        `flood${[...n.toString(26)].map((d) => String.fromCharCode(97 + Number.parseInt(d, 26))).join("")}`;
      for (let s = 0; s < 60; s++) {
        const uses = [0, 1, 2].map((u) => ({
          tool: "t",
          at: now,
          terms: Array.from({ length: 12 }, (_, w) => [word(s * 36 + u * 12 + w), 1] as const),
        }));
        store.record({ session: `flood-${s}`, user: null }, uses, now);
      }
      const kept = store.tool("t", now);
      expect(kept?.terms.find((t) => t.term === "whole")).toMatchObject({ sources: 5 });
      const rows = state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM learn_evidence`).one().n;
      expect(rows).toBeLessThanOrEqual(400);
    });
  });

  it("converts a first-version store: its queries become terms, the queries are gone", async () => {
    const stub = env.LEARNING.get(env.LEARNING.idFromName(`old-${crypto.randomUUID()}`));
    await runInDurableObject(stub, (_obj, state) => {
      const sql = state.storage.sql;
      sql.exec(`CREATE TABLE learn_pairs (session TEXT, tool TEXT, query TEXT, at INTEGER)`);
      sql.exec(
        `INSERT INTO learn_pairs VALUES ('s1', 'stripe.refund', 'refund Jenna card 4111 1111 1111 1111 double charged', ?)`,
        Date.now(),
      );
      const store = new LearningStore(createSql(sql));
      state.storage.transactionSync(() => store.migrate(Date.now()));
      const tables = sql
        .exec<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`)
        .toArray();
      expect(tables.map((t) => t.name)).not.toContain("learn_pairs");
      // A participle names a state, and teaches nothing (vocabulary.ts taughtTerms).
      expect(store.tool("stripe.refund", Date.now())?.terms.map((t) => t.term)).toEqual(["double", "refund"]);
    });
  });

  it("drops, once, the stored words that learning no longer teaches: a past participle", async () => {
    const stub = env.LEARNING.get(env.LEARNING.idFromName(`rule-${crypto.randomUUID()}`));
    await runInDurableObject(stub, (_obj, state) => {
      const sql = createSql(state.storage.sql);
      const store = new LearningStore(sql);
      const now = Date.now();
      const use = (session: string, terms: [string, number][]) =>
        state.storage.transactionSync(() =>
          store.record({ session, user: null }, [{ tool: "fns.list", at: now, terms }], now),
        );
      state.storage.transactionSync(() => store.migrate(now));
      // A session of today's rule never gets a participle stored, whatever it sends.
      use("s1", [
        ["edge", 1],
        ["deployed", 1],
      ]);
      const terms = () => store.tool("fns.list", now)?.terms.map((t) => t.term);
      expect(terms()).toEqual(["edge"]);
      // Evidence stored before the rule: "deployed" taught to the listing tool and served to
      // sessions, and no rule version recorded.
      state.storage.sql.exec(
        `INSERT INTO learn_evidence (tool, term, source, weight, at)
         SELECT tool, 'deployed', source, 1, at FROM learn_evidence`,
      );
      state.storage.sql.exec(`DELETE FROM learn_meta WHERE key = 'rule'`);
      use("s2", [["edge", 1]]);
      const served = () => store.changedSince(0).tools.flatMap((t) => t.terms.map((x) => x.term));
      expect(served()).toContain("deployed");

      const version = store.state().version;
      state.storage.transactionSync(() => store.migrate(now));
      expect(terms()).toEqual(["edge"]);
      expect(served()).toEqual(["edge"]);
      // Sessions are served the tool anew (a new version), and a second start changes nothing.
      expect(store.state().version).toBe(version + 1);
      const written = sql.stats.rowsWritten;
      state.storage.transactionSync(() => store.migrate(now));
      expect(sql.stats.rowsWritten).toBe(written);
    });
  });

  // Sixty-four sessions at once: a slow machine needs more than the default 30 s.
  it("merges 64 sessions teaching at once: merged equals taught", { timeout: 120_000 }, async () => {
    const { refund, tools } = catalog();
    const before = (await learning()).merged;
    await Promise.all(Array.from({ length: 64 }, () => teach(tools, QUERY, refund)));
    expect(await mergedAtLeast(before, 64)).toBe(before + 64);
    expect((await learnedTerms(refund)).find((t) => t.term === "upset")).toMatchObject({ sources: 64 });
  });

  it("forgets a tool, and a new session ranks it cold again", async () => {
    const { charge, refund, tools } = catalog();
    await teachMany(tools, QUERY, refund, 3);
    expect(await fresh(tools, QUERY)).toEqual([refund, charge]);
    const forgot = await call("DELETE", `/v1/learning/tools/${refund}`);
    expect(forgot.status).toBe(200);
    expect(forgot.json.forgotten).toBe(9);
    expect((await call("GET", `/v1/learning/tools/${refund}`)).json).toEqual({ tool: refund, terms: [] });
    expect(await fresh(tools, QUERY)).toEqual([charge, refund]);
  });

  it("neither learns from nor ranks with use when the session turns learning off", async () => {
    const { charge, refund, tools } = catalog();
    await teachMany(tools, QUERY, refund, 3);
    const config = { learning: { enabled: false } };
    expect(await fresh(tools, QUERY, config)).toEqual([charge, refund]);
    const off = newSid();
    await call("PUT", `/v1/sessions/${off}`, config);
    await op(off, "catalog_sync", { tools });
    const now = (await learning()).merged;
    await names(off, QUERY);
    await op(off, "tool_resolve", { name: charge });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await learning()).merged).toBe(now);
  });

  it("is reachable from the typed client's tenant methods", async () => {
    const trove = new Trove({
      baseUrl: "https://trove.test",
      apiKey: KEY_A,
      fetch: (url, init) => SELF.fetch(url, init),
    });
    const { refund, tools } = catalog();
    const before = (await trove.tenant.learning_get()).merged;
    await teach(tools, "customer refund", refund);
    await mergedAtLeast(before, 1);
    const got = await trove.tenant.learning_tool_get({ name: refund });
    expect(got.terms.map((t) => t.term).sort()).toEqual(["customer", "refund"]);
    expect(await trove.tenant.learning_tool_forget({ name: refund })).toEqual({ forgotten: 2 });
    const error = await trove.tenant.learning_tool_get({ name: "bad name" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TroveApiError);
    expect(error).toMatchObject({ status: 400, code: "invalid_input", details: { field: "name" } });
  });

  it("writes nothing when a tenant that never taught is read", async () => {
    expect((await call("GET", "/v1/learning", undefined, KEY_B)).json).toMatchObject({ rows: 0, merged: 0 });
    expect((await call("GET", "/v1/learning/tools/a.b", undefined, KEY_B)).json).toEqual({
      tool: "a.b",
      terms: [],
    });
    expect((await call("DELETE", "/v1/learning", undefined, KEY_B)).json).toEqual({ forgotten: 0 });
    const stub = env.LEARNING.get(env.LEARNING.idFromName("tenant-b"));
    const tables = await runInDurableObject(stub, (_obj, state) =>
      state.storage.sql.exec(`SELECT name FROM sqlite_master`).toArray(),
    );
    expect(tables).toEqual([]);
  });

  it("answers only with a key, names a bad tool name, and refuses bad thresholds", async () => {
    expect((await call("GET", "/v1/learning", undefined, null)).status).toBe(401);
    const post = await call("POST", "/v1/learning", {});
    expect(post.status).toBe(405);
    expect(post.json.error.details.allow).toEqual(["GET", "DELETE"]);
    const bad = await call("GET", "/v1/learning/tools/bad%20name");
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "invalid_input", details: { field: "name" } });
    const sid = newSid();
    const zero = await call("PUT", `/v1/sessions/${sid}`, { learning: { min_support: 0 } });
    expect(zero.status).toBe(400);
    expect(zero.json.error.details.field).toBe("learning.min_support");
    const near = await call("PUT", `/v1/sessions/${sid}`, { learning: { min_support_near: 0.5 } });
    expect(near.status).toBe(400);
    expect(near.json.error.details.field).toBe("learning.min_support_near");
    const own = await call("PUT", `/v1/sessions/${sid}`, { learning: { min_support_own: 1001 } });
    expect(own.status).toBe(400);
    expect(own.json.error.details.field).toBe("learning.min_support_own");
    const user = await call("PUT", `/v1/sessions/${sid}`, { user: "" });
    expect(user.status).toBe(400);
    expect(user.json.error.details.field).toBe("user");
  });
});
