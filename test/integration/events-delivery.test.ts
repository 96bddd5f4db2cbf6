// No acknowledged event is lost (issue 12): not after a later request fails, not after the object
// restarts, not after the session goes idle; and a request cut off by a restart answers 503.
import { runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Trove, TroveApiError } from "../../packages/client/src/index";
import { restart } from "../long/support";
import { GITHUB_SLACK } from "../support/fixtures";
import { newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

/** The event log as stored, read inside the object without running an operation. */
const storedEvents = (sid: string) =>
  runInDurableObject(sessionStub(sid), (obj) =>
    obj.sql.all<{ type: string; data: string }>(`SELECT type, data FROM trove_events ORDER BY id`),
  );

async function seeded(): Promise<string> {
  const sid = newSid();
  expect((await op(sid, "catalog_sync", { tools: GITHUB_SLACK })).status).toBe(200);
  return sid;
}

describe("deferred events", () => {
  it("survive a later request that fails and rolls back", async () => {
    const sid = await seeded();
    expect((await op(sid, "tool_search", { query: "create an issue" })).status).toBe(200);
    // A 422: the failing request's transaction rolls back everything it wrote.
    const bad = await op(sid, "tool_resolve", { name: "github.create_issue", args: { repo: 42 } });
    expect(bad.status).toBe(422);
    const types = (await op(sid, "events", {})).json.events.map((e: { type: string }) => e.type);
    expect(types.filter((t: string) => t === "tool_search_query")).toHaveLength(1);
  });

  it("are stored right after the response, so an idle session keeps them", async () => {
    const sid = await seeded();
    expect((await op(sid, "tool_search", { query: "post a message" })).status).toBe(200);
    // No other request: the object is only looked into.
    const stored = await storedEvents(sid);
    expect(stored.map((e) => e.type)).toEqual(["catalog_synced", "tool_search_query"]);
    expect(JSON.parse(stored[1]?.data ?? "{}")).toMatchObject({ query: "post a message", results_count: 2 });
  });

  it("survive a restart of the object right after the response", async () => {
    const sid = await seeded();
    expect((await op(sid, "tool_search", { query: "list repositories" })).status).toBe(200);
    expect((await op(sid, "skill_list", {})).status).toBe(200);
    await restart(sid);
    const types = (await op(sid, "events", {})).json.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(["catalog_synced", "tool_search_query", "skill_list"]);
  });

  it("keep their order with the events writes record", async () => {
    const sid = await seeded();
    await op(sid, "tool_search", { query: "create an issue" });
    await op(sid, "tool_activate", { names: ["github.create_issue"] });
    await op(sid, "tool_search", { query: "send a message" });
    const types = (await op(sid, "events", {})).json.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(["catalog_synced", "tool_search_query", "tool_activated", "tool_search_query"]);
  });
});

describe("a request cut off by a restart", () => {
  it("answers 503 with Retry-After and the error body, never a 500", async () => {
    const sid = await seeded();
    let seen: Response | undefined;
    // Requests in flight while the object is reset: some land before, some are cut off. Repeat
    // until one is cut off (the first round nearly always has one).
    for (let round = 0; round < 20 && !seen; round++) {
      const inFlight = Array.from({ length: 8 }, () =>
        SELF.fetch(`https://trove.test/v1/sessions/${sid}/tool_search`, {
          method: "POST",
          headers: { authorization: "Bearer key-a", "content-type": "application/json" },
          body: JSON.stringify({ query: "create an issue" }),
        }),
      );
      await restart(sid);
      for (const res of await Promise.all(inFlight)) {
        expect([200, 503]).toContain(res.status);
        if (res.status === 503) seen = res;
        else await res.body?.cancel();
      }
    }
    expect(seen, "no request was cut off in 20 rounds").toBeDefined();
    expect(seen?.headers.get("retry-after")).toBe("1");
    expect(await seen?.json()).toEqual({
      error: {
        code: "unavailable",
        message: "the session was restarting; try again",
        details: { retry_after: 1, retry_safe: true },
      },
    });
  });
});

describe("the typed client", () => {
  /** A fetch that answers the first request to a session route with the worker's own 503 body. */
  function flakyOnce(retrySafe: boolean) {
    let calls = 0;
    const fetcher = async (url: string, init: RequestInit) => {
      calls++;
      if (calls === 1) {
        const body = {
          error: {
            code: "unavailable",
            message: "the session was restarting; try again",
            details: { retry_after: 0, retry_safe: retrySafe },
          },
        };
        return new Response(JSON.stringify(body), {
          status: 503,
          headers: { "content-type": "application/json", "retry-after": "0" },
        });
      }
      return SELF.fetch(url, init);
    };
    return { fetcher, calls: () => calls };
  }

  it("retries an operation that is safe to repeat once after a 503", async () => {
    const flaky = flakyOnce(true);
    const trove = new Trove({ baseUrl: "https://trove.test", apiKey: "key-a", fetch: flaky.fetcher });
    const found = await trove.session(newSid()).tool_search({ query: "anything" });
    expect(found.tools).toEqual([]);
    expect(flaky.calls()).toBe(2);
  });

  it("does not retry one that is not (the server says so in details.retry_safe)", async () => {
    const flaky = flakyOnce(false);
    const trove = new Trove({ baseUrl: "https://trove.test", apiKey: "key-a", fetch: flaky.fetcher });
    const error = await trove
      .session(newSid())
      .tool_resolve({ name: "x.y" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TroveApiError);
    expect(error).toMatchObject({ status: 503, code: "unavailable" });
    expect(flaky.calls()).toBe(1);
  });
});
