// The token economy part of `npm run bench`: what `context` costs with everything loaded vs deferred.

import { readFileSync } from "node:fs";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { type startBench, table } from "./harness";

interface ContextOut {
  system: string;
  tools: unknown[];
  token_estimate: { total: number };
}

type Bench = Awaited<ReturnType<typeof startBench>>;

const catalog = JSON.parse(readFileSync("bench/search-eval/catalog.json", "utf8")) as { name: string }[];

/** Rows for the three cases, in Anthropic format, with Trove's estimate and a real BPE count. */
export async function tokenEconomy(bench: Bench): Promise<{ table: string; savedPct: number }> {
  const measure = async (
    label: string,
    setup: (s: Awaited<ReturnType<Bench["session"]>>) => Promise<void>,
  ) => {
    const session = await bench.session(`tokens-${label}`);
    await setup(session);
    const out = await bench.op<ContextOut>(session, "context", { format: "anthropic" });
    const real = encode(out.system).length + encode(JSON.stringify(out.tools)).length;
    return { label, tools: out.tools.length, estimate: out.token_estimate.total, real };
  };
  const all = await measure("always", async (s) => {
    await bench.op(s, "session_configure", { default_loading_mode: "always" });
    await bench.op(s, "catalog_sync", { tools: catalog });
  });
  const deferred = await measure("deferred", async (s) => {
    await bench.op(s, "catalog_sync", { tools: catalog });
  });
  const three = await measure("three", async (s) => {
    await bench.op(s, "catalog_sync", { tools: catalog });
    await bench.op(s, "tool_activate", {
      names: ["github.create_issue", "slack.postMessage", "stripe:refund_charge"],
    });
  });
  const pct = (n: number) => `${((100 * (all.real - n)) / all.real).toFixed(1)} %`;
  const rows = [
    ["every tool always loaded", all.tools, all.estimate, all.real, "—"],
    [
      "default (deferred, none activated)",
      deferred.tools,
      deferred.estimate,
      deferred.real,
      pct(deferred.real),
    ],
    ["after activating 3 tools", three.tools, three.estimate, three.real, pct(three.real)],
  ];
  return {
    table: table(
      ["context (anthropic format)", "tools listed", "Trove estimate", "o200k tokens", "saved"],
      rows,
    ),
    savedPct: (100 * (all.real - deferred.real)) / all.real,
  };
}
