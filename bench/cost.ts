// The cost part of `npm run bench`: rows read and written, requests and stored bytes of a new
// session, a typical turn and an expiry, measured in-object with the same counters as the
// `trove-rows-read` / `trove-rows-written` headers, and priced at Cloudflare's published Durable
// Objects prices.
import { benchCatalog } from "./catalogs";
import { percentile, type startBench, table } from "./harness";
import { argsFor, type CatalogTool } from "./load-mix";

type Bench = Awaited<ReturnType<typeof startBench>>;

/** Cloudflare's published Durable Objects prices (Workers Paid), dollars per million. */
export const PRICES = { requests: 0.15, rowsRead: 0.001, rowsWritten: 1.0 } as const;
const TOOLS = 400;
const TURNS = 10;
const READY_SAMPLES = 15;

interface Counts {
  requests: number;
  rowsRead: number;
  rowsWritten: number;
}

const dollarsPerMillion = (c: Counts) =>
  c.requests * PRICES.requests + c.rowsRead * PRICES.rowsRead + c.rowsWritten * PRICES.rowsWritten;

export interface CostFigures {
  table: string;
  /** What the uploaded-catalog session stores after its turns. */
  bytes: number;
  /** In-object time of a new session's first request with a published catalog (schema, packs, copy). */
  readyMs: number;
  /** Calls that session made to its catalog's object over the first request and all its turns. */
  catalogCalls: number;
  /** Rows written per tool by a new session's catalog: uploaded, published. */
  rowsPerTool: { uploaded: number; published: number };
}

export async function costModel(bench: Bench): Promise<CostFigures> {
  const session = await bench.session("cost-new-session");
  const catalog = benchCatalog(TOOLS);
  const counts = (list: { rowsRead: number; rowsWritten: number }[], extraRequests = 0): Counts => ({
    requests: list.length + extraRequests,
    rowsRead: list.reduce((s, r) => s + r.rowsRead, 0),
    rowsWritten: list.reduce((s, r) => s + r.rowsWritten, 0),
  });

  // A new session: its first request (schema, bundled packs), then the agent's catalog.
  const first = await session.timeOnce("session_get", {});
  const sync = await session.timeOnce("catalog_sync", { tools: catalog });
  const start = counts([first, sync]);

  // The same catalog published once: a new session's first request configures it and takes its
  // copy (one call to the catalog's object, a billed request of its own). Timed over several new
  // sessions (workerd's timer is coarse, the machine noisy): the median is "ready".
  await bench.publish("cost", catalog);
  const attaches: number[] = [];
  for (let i = 0; i < READY_SAMPLES; i++) {
    const fresh = await bench.session(`cost-ready-${i}`);
    attaches.push((await fresh.timeOnce("session_configure", { catalog: "cost" })).ms);
  }
  const publishedSession = await bench.session("cost-published-session");
  const attach = await publishedSession.timeOnce("session_configure", { catalog: "cost" });
  if (!attach.result.ok) throw new Error(`session_configure failed: ${JSON.stringify(attach.result)}`);
  const empty = await (await bench.session("cost-empty-session")).timeOnce("session_configure", {});
  const publishedStart = counts([attach], await publishedSession.catalogCalls());

  // A turn: context for the model call, a search, the model's call resolved, context again. Rows
  // are counted over all turns, so the telemetry a search writes after its response is in.
  const turns: { rowsRead: number; rowsWritten: number }[] = [];
  const before = await session.stats();
  const queries = ["open a bug", "send a message to the team", "refund a payment", "list pull requests"];
  for (let t = 0; t < TURNS; t++) {
    const query = queries[t % queries.length] as string;
    turns.push(await session.timeOnce("context", { format: "anthropic", query }));
    const search = await session.timeOnce("tool_search", { query });
    turns.push(search);
    const found = (search.result as { ok: true; value: { tools: { name: string }[] } }).value.tools[0]?.name;
    const tool = catalog.find((c) => c.name === found);
    if (tool) {
      turns.push(
        await session.timeOnce("tool_resolve", { name: tool.name, args: argsFor(tool as CatalogTool) }),
      );
    }
    turns.push(await session.timeOnce("context", { format: "anthropic" }));
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  const after = await session.stats();
  const all = {
    requests: turns.length,
    rowsRead: after.rowsRead - before.rowsRead,
    rowsWritten: after.rowsWritten - before.rowsWritten,
  };
  const turn: Counts = {
    requests: all.requests / TURNS,
    rowsRead: all.rowsRead / TURNS,
    rowsWritten: all.rowsWritten / TURNS,
  };
  const view = await session.timeOnce("session_get", {});
  const bytes = (view.result as { ok: true; value: { storage: { bytes: number } } }).value.storage.bytes;

  // The published session's turns: the same work, and no call to the catalog's object.
  for (let t = 0; t < TURNS; t++) {
    await publishedSession.timeOnce("context", { format: "anthropic", query: queries[t % queries.length] });
    await publishedSession.timeOnce("tool_search", { query: queries[t % queries.length] });
  }
  const catalogCalls = await publishedSession.catalogCalls();

  const withTurns = (s: Counts): Counts => ({
    requests: s.requests + TURNS * turn.requests,
    rowsRead: s.rowsRead + TURNS * turn.rowsRead,
    rowsWritten: s.rowsWritten + TURNS * turn.rowsWritten,
  });
  const row = (what: string, c: Counts) => [
    what,
    c.requests.toFixed(1),
    Math.round(c.rowsRead),
    Math.round(c.rowsWritten),
    `$${dollarsPerMillion(c).toFixed(0)}`,
  ];
  return {
    bytes,
    readyMs: percentile(attaches, 50),
    catalogCalls,
    rowsPerTool: {
      uploaded: sync.rowsWritten / TOOLS,
      published: (attach.rowsWritten - empty.rowsWritten) / TOOLS,
    },
    table: table(
      ["per", "requests", "rows read", "rows written", "$ per million"],
      [
        row(`new session, ${TOOLS}-tool catalog uploaded`, start),
        row("  of which the first request (schema, bundled packs)", counts([first])),
        row("  of which catalog_sync", counts([sync])),
        row(
          `new session, ${TOOLS}-tool published catalog (first request + its catalog's object)`,
          publishedStart,
        ),
        row("typical turn (context, tool_search, tool_resolve, context)", turn),
        row(`session of ${TURNS} turns, catalog uploaded`, withTurns(start)),
        row(`session of ${TURNS} turns, catalog published`, withTurns(publishedStart)),
      ],
    ),
  };
}
