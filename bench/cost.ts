// The cost part of `npm run bench`: rows read and written, requests and stored bytes of a new
// session, a typical turn and an expiry, measured in-object with the same counters as the
// `trove-rows-read` / `trove-rows-written` headers, and priced at Cloudflare's published Durable
// Objects prices.
import { benchCatalog } from "./catalogs";
import { type startBench, table } from "./harness";
import { argsFor, type CatalogTool } from "./load-mix";

type Bench = Awaited<ReturnType<typeof startBench>>;

/** Cloudflare's published Durable Objects prices (Workers Paid), dollars per million. */
export const PRICES = { requests: 0.15, rowsRead: 0.001, rowsWritten: 1.0 } as const;
const TOOLS = 400;
const TURNS = 10;

interface Counts {
  requests: number;
  rowsRead: number;
  rowsWritten: number;
}

const dollarsPerMillion = (c: Counts) =>
  c.requests * PRICES.requests + c.rowsRead * PRICES.rowsRead + c.rowsWritten * PRICES.rowsWritten;

export async function costModel(bench: Bench): Promise<{ table: string; bytes: number }> {
  const session = await bench.session("cost-new-session");
  const catalog = benchCatalog(TOOLS);
  const counts = (list: { rowsRead: number; rowsWritten: number }[]): Counts => ({
    requests: list.length,
    rowsRead: list.reduce((s, r) => s + r.rowsRead, 0),
    rowsWritten: list.reduce((s, r) => s + r.rowsWritten, 0),
  });

  // A new session: its first request (schema, bundled packs), then the agent's catalog.
  const first = await session.timeOnce("session_get", {});
  const sync = await session.timeOnce("catalog_sync", { tools: catalog });
  const start = counts([first, sync]);

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

  const lifetime: Counts = {
    requests: start.requests + TURNS * turn.requests,
    rowsRead: start.rowsRead + TURNS * turn.rowsRead,
    rowsWritten: start.rowsWritten + TURNS * turn.rowsWritten,
  };
  const row = (what: string, c: Counts) => [
    what,
    c.requests.toFixed(1),
    Math.round(c.rowsRead),
    Math.round(c.rowsWritten),
    `$${dollarsPerMillion(c).toFixed(0)}`,
  ];
  return {
    bytes,
    table: table(
      ["per", "requests", "rows read", "rows written", "$ per million"],
      [
        row(`new session, ${TOOLS}-tool catalog uploaded`, start),
        row("  of which the first request (schema, bundled packs)", counts([first])),
        row("  of which catalog_sync", counts([sync])),
        row("typical turn (context, tool_search, tool_resolve, context)", turn),
        row(`session of ${TURNS} turns`, lifetime),
      ],
    ),
  };
}
