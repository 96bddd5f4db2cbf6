// The typed client (packages/client, `@trove/client`) against the real worker, and the runnable example built on it.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { agentTurn } from "../../examples/agent-loop";
import { OPERATION_NAMES, Trove, TroveApiError } from "../../packages/client/src/index";
import { OPERATIONS } from "../../src/ops/registry";
import { KEY_A, KEY_B, newSid } from "../support/http";

const client = (apiKey = KEY_A) =>
  new Trove({ baseUrl: "https://trove.test", apiKey, fetch: (url, init) => SELF.fetch(url, init) });

describe("the typed client", () => {
  it("lists exactly the registered operations, in the registry's order", () => {
    expect(OPERATION_NAMES).toEqual(OPERATIONS.map((op) => op.name));
  });

  it("has a working method for every registered operation", async () => {
    const session = client().session(newSid());
    // Every operation answers on POST /v1/sessions/{sid}/{name}: a call with bad input reaches the
    // operation (a 400 naming a field, or success), never a 404 route miss.
    for (const op of OPERATIONS) {
      const method = (session as unknown as Record<string, (input: unknown) => Promise<unknown>>)[op.name];
      try {
        if (typeof method !== "function") throw new Error(`the client has no method ${op.name}`);
        await method({ "not-a-field": 1 });
      } catch (err) {
        expect(err).toBeInstanceOf(TroveApiError);
        const e = err as TroveApiError;
        expect(e.status, op.name).toBe(400);
        expect(e.details.field, op.name).toEqual(expect.any(String));
        continue;
      }
      throw new Error(`${op.name} accepted an unknown field`);
    }
  });

  it("has no method for a name that is not an operation: a type error, and unknown_operation if forced", async () => {
    const session = client().session(newSid());
    // @ts-expect-error tool_serach is not an operation (a typo of tool_search)
    const call = () => session.tool_serach({ query: "x" });
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TroveApiError);
    expect(error).toMatchObject({ status: 404, code: "unknown_operation", details: { field: "operation" } });
  });

  it("hands a session through await and async functions (it is not a thenable)", async () => {
    const open = async () => client().session(newSid());
    const session = await open();
    expect((await session.tool_search({ query: "anything" })).tools).toEqual([]);
    expect(JSON.parse(JSON.stringify({ session }))).toEqual({ session: { id: session.id } });
  });

  it("runs a turn with typed results and typed errors", async () => {
    const trove = client();
    expect((await trove.health()).ok).toBe(true);
    const s = trove.session(newSid());
    const synced = await s.catalog_sync({
      tools: [
        { name: "github.create_issue", description: "Create an issue in a GitHub repository" },
        { name: "weather.now", description: "Current weather", loading_mode: "always" },
      ],
    });
    expect(synced).toMatchObject({ added: 2, total: 2 });
    const config = await s.session_get();
    expect(config.catalog.tools).toBe(2);
    const found = await s.tool_search({ query: "open a github issue" });
    expect(found.tools[0]?.name).toBe("github.create_issue");
    const ctx = await s.context({ format: "openai" });
    expect(ctx.name_map.weather_now).toBe("weather.now");

    const error = await s.tool_resolve({ name: "no.such_tool" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TroveApiError);
    expect(error).toMatchObject({ status: 404, code: "unknown_tool", details: { field: "name" } });
    // Another tenant's key reaches another tenant's session of the same id.
    const other = await client(KEY_B).session(s.id).session_get();
    expect(other.catalog.tools).toBe(0);
  });

  it("answers 401 with a typed error for a wrong key", async () => {
    const error = await client("wrong")
      .session(newSid())
      .session_get()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: "unauthorized" });
  });
});

describe("examples/agent-loop.ts", () => {
  it("runs one complete turn: search, resolve, approval, run, context", async () => {
    const lines: string[] = [];
    const steps = await agentTurn(client().session(newSid()), (line) => lines.push(line));
    expect(steps).toEqual([
      "catalog_sync",
      "context",
      "tool_search",
      "tool_resolve",
      "approval_decide",
      "tool_resolve",
      "run",
      "context",
    ]);
    expect(lines.join("\n")).toContain("github_create_issue → needs_approval (activated on first use)");
    expect(lines.join("\n")).toContain("with the approval → allow");
    expect(lines.at(-1)).toContain("github_create_issue");
  });
});
