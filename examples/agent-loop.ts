// One complete agent turn against a local Trove, with a scripted model instead of an LLM (no
// network besides Trove): context → the model searches → Trove answers → the model calls a tool →
// Trove asks for approval → a person approves → the call runs → the next context lists the tool.
//
//   npm start                       # Trove on http://localhost:8787 with the bundled packs
//   npx tsx examples/agent-loop.ts  # in another terminal
//
// TROVE_URL and TROVE_KEY override the address and the key (the dev key from .dev.vars.example).
// Outside this repository the client is the package `@trove/client`: `import { Trove } from "@trove/client"`.
import { Trove, type TroveSession } from "../packages/client/src/index";

const TOOLS = [
  {
    name: "github.create_issue",
    description: "Create an issue in a GitHub repository",
    side_effects: "write" as const,
    input_schema: {
      type: "object",
      properties: { repo: { type: "string" }, title: { type: "string" }, body: { type: "string" } },
      required: ["repo", "title"],
    },
  },
  {
    name: "github.list_issues",
    description: "List open issues of a GitHub repository",
    side_effects: "read" as const,
    input_schema: { type: "object", properties: { repo: { type: "string" } }, required: ["repo"] },
  },
  {
    name: "calendar.create_event",
    description: "Create a calendar event with a title, start and end time",
    side_effects: "write" as const,
  },
  { name: "weather.now", description: "Current weather for a city", loading_mode: "always" as const },
];

/** A model call as the agent sees it: the name the model used and its arguments. */
interface ModelCall {
  name: string;
  args: Record<string, unknown>;
}

/**
 * The scripted model: it reads what it was given and decides like a model would. First it looks
 * for a tool to file an issue; once the search result names one, it calls it.
 */
function scriptedModel(tools: { name: string }[], lastResult: unknown): ModelCall | null {
  const found = (lastResult as { tools?: { name: string }[] } | null)?.tools?.[0];
  if (!found) return { name: "tool_search", args: { query: "create an issue in a github repository" } };
  const listed = tools.find((t) => t.name.replace(/[^A-Za-z0-9_-]/g, "_") === found.name.replace(/\./g, "_"));
  return {
    name: listed?.name ?? found.name,
    args: { repo: "acme/web", title: "Login page returns 500", body: "Seen since 09:12 UTC." },
  };
}

/** Runs the turn; `log` receives one line per step. Returns the decisions, for tests. */
export async function agentTurn(session: TroveSession, log: (line: string) => void): Promise<string[]> {
  const steps: string[] = [];
  const step = (name: string, detail: string) => {
    steps.push(name);
    log(`${String(steps.length).padStart(2)}. ${name.padEnd(16)} ${detail}`);
  };

  await session.session_configure({ policy: { approval: ["github.create_*"] } });
  const synced = await session.catalog_sync({ tools: TOOLS });
  step("catalog_sync", `${synced.total} tools (${synced.added} new)`);

  let ctx = await session.context({ format: "anthropic" });
  step(
    "context",
    `${ctx.tools.length} tools listed, ${ctx.deferred_count} deferred, ~${ctx.token_estimate.total} tokens`,
  );

  // The model asks for a tool it cannot see; the agent forwards the call to Trove.
  const search = scriptedModel(ctx.tools as { name: string }[], null);
  if (search?.name !== "tool_search") throw new Error("the script starts with a search");
  const found = await session.tool_search({ ...(search.args as { query: string }), format: "anthropic" });
  step(
    "tool_search",
    `"${search.args.query}" → ${found.tools.map((t) => `${t.name} (${t.score.toFixed(2)})`).join(", ")}`,
  );

  // The model calls the tool it found (by its provider name); the agent checks the call first.
  const call = scriptedModel(ctx.tools as { name: string }[], {
    tools: found.tool_references?.map((r) => ({ name: r.tool_name })),
  });
  if (!call) throw new Error("the script calls a tool");
  let resolved = await session.tool_resolve({ name: call.name, args: call.args });
  step(
    "tool_resolve",
    `${call.name} → ${resolved.decision}${resolved.activated ? " (activated on first use)" : ""}`,
  );

  if (resolved.decision === "needs_approval" && resolved.approval_id) {
    // A person looks at the pending call (GET /inspect shows it too) and approves it.
    const decided = await session.approval_decide({
      approval_id: resolved.approval_id,
      decision: "approve",
      by: "ops@example",
    });
    step("approval_decide", `${decided.approval_id} → ${decided.status}`);
    resolved = await session.tool_resolve({
      name: call.name,
      args: call.args,
      approval_id: resolved.approval_id,
    });
    step("tool_resolve", `${call.name} with the approval → ${resolved.decision}`);
  }
  if (resolved.decision === "allow") {
    // Trove never runs tools: the agent does, with the definition Trove returned.
    step("run", `the agent runs ${resolved.name}(${JSON.stringify(call.args)})`);
  }

  ctx = await session.context({ format: "anthropic" });
  step("context", `${ctx.tools.length} tools listed: ${Object.keys(ctx.name_map).join(", ")}`);
  return steps;
}

// Run directly: `npx tsx examples/agent-loop.ts`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const trove = new Trove({
    baseUrl: process.env.TROVE_URL ?? "http://localhost:8787",
    apiKey: process.env.TROVE_KEY ?? "dev-key",
  });
  const sid = `example-${Date.now()}`;
  console.log(`Trove ${(await trove.health()).version} — session ${sid}\n`);
  await agentTurn(trove.session(sid), console.log);
}
