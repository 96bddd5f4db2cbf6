// Hostile input to the rest of an agent turn: approval_decide, context, state and events.
import {
  BAD_RUN_IDS,
  error,
  type HostileCase,
  huge,
  invalid,
  MB,
  ok,
  okWrites,
  post,
  UNICODE,
} from "./cases";

const decide: HostileCase[] = [
  post("approval_decide", "no approval id", { decision: "approve" }, invalid("approval_id")),
  post(
    "approval_decide",
    "an empty approval id",
    { approval_id: "", decision: "approve" },
    invalid("approval_id"),
  ),
  post(
    "approval_decide",
    "a 1 MB approval id",
    { approval_id: huge(MB), decision: "approve" },
    invalid("approval_id"),
  ),
  post(
    "approval_decide",
    "a numeric approval id",
    { approval_id: 1, decision: "approve" },
    invalid("approval_id"),
  ),
  post(
    "approval_decide",
    "an upper-case decision",
    (c) => ({ approval_id: c.approvalId, decision: "APPROVE" }),
    invalid("decision"),
  ),
  post(
    "approval_decide",
    "a boolean decision",
    (c) => ({ approval_id: c.approvalId, decision: true }),
    invalid("decision"),
  ),
  post("approval_decide", "no decision", (c) => ({ approval_id: c.approvalId }), invalid("decision")),
  post(
    "approval_decide",
    "a 201-character decider",
    (c) => ({ approval_id: c.approvalId, decision: "approve", by: huge(201) }),
    invalid("by"),
  ),
  post(
    "approval_decide",
    "a null decider",
    (c) => ({ approval_id: c.approvalId, decision: "approve", by: null }),
    invalid("by"),
  ),
  post(
    "approval_decide",
    "a 1 MB note",
    (c) => ({ approval_id: c.approvalId, decision: "deny", note: huge(MB) }),
    invalid("note"),
  ),
  post(
    "approval_decide",
    "an unknown reason field",
    (c) => ({ approval_id: c.approvalId, decision: "deny", reason: "x" }),
    invalid("reason"),
  ),
  post(
    "approval_decide",
    "an unknown approval",
    { approval_id: "apr_nope", decision: "approve" },
    error(404, "unknown_approval", "approval_id"),
  ),
  post(
    "approval_decide",
    "an approval id with an RTL override",
    { approval_id: "apr_\u202e", decision: "deny" },
    error(404, "unknown_approval", "approval_id"),
  ),
  post(
    "approval_decide",
    "a SQL-shaped approval id",
    { approval_id: "' OR '1'='1", decision: "approve" },
    error(404, "unknown_approval", "approval_id"),
  ),
  post(
    "approval_decide",
    "the denied approval again",
    (c) => ({ approval_id: c.deniedApprovalId, decision: "approve" }),
    error(409, "approval_already_decided", "approval_id"),
  ),
];

const context: HostileCase[] = [
  post("context", "an unknown format", { format: "claude" }, invalid("format")),
  post("context", "a null format", { format: null }, invalid("format")),
  ...BAD_RUN_IDS.slice(0, 3).map(([label, run_id]) =>
    post("context", `a run_id ${label}`, { run_id }, invalid("run_id")),
  ),
  post("context", "a 2,001-character query", { query: huge(2001) }, invalid("query")),
  post("context", "a numeric query", { query: 5 }, invalid("query")),
  post("context", "an unknown model field", { model: "gpt" }, invalid("model")),
  post(
    "context",
    "a 128-character run_id is fine",
    { run_id: huge(128, "r") },
    ok((j) => (Array.isArray(j.tools) ? undefined : "no tools")),
  ),
  post(
    "context",
    "the anthropic format lists only allowed tools",
    { format: "anthropic" },
    ok((j) => (JSON.stringify(j).includes("secret") ? "named the denied tool" : undefined)),
  ),
  ...UNICODE.slice(0, 6).map(([label, query]) =>
    post("context", `a query with ${label}`, { format: "openai", query }, okWrites(), { session: "fresh" }),
  ),
  post(
    "context",
    "an agent tool named like Trove's tool_search keeps the tool names unique",
    { format: "anthropic" },
    ok((j) => {
      const names: string[] = j.tools.map((t: { name: string }) => t.name);
      const twice = names.filter((n, i) => names.indexOf(n) !== i);
      return twice.length > 0 ? `tools named twice: ${twice.join(", ")}` : undefined;
    }),
    {
      session: "fresh",
      setup: [
        {
          op: "catalog_sync",
          body: {
            tools: [{ name: "tool.search", description: "the agent's own search", loading_mode: "always" }],
          },
        },
      ],
      regression:
        "B5: a catalog tool whose provider name is a Trove tool's name (tool.search → tool_search) is listed twice under that name",
    },
  ),
  post("context", "a query of FTS syntax", { format: "mcp", query: 'NEAR("skill" *) name: ^' }, okWrites(), {
    session: "fresh",
  }),
];

const state: HostileCase[] = [
  ...BAD_RUN_IDS.slice(0, 4).map(([label, run_id]) =>
    post("state", `a run_id ${label}`, { run_id }, invalid("run_id")),
  ),
  post("state", "an unknown verbose field", { verbose: true }, invalid("verbose")),
  post(
    "state",
    "a valid odd run_id",
    { run_id: "..:--__" },
    ok((j) =>
      j.pending_approvals.length === 1 && !JSON.stringify(j).includes("secret.wipe")
        ? undefined
        : "wrong state",
    ),
  ),
];

const events: HostileCase[] = [
  post("events", "a negative cursor", { since: -1 }, invalid("since")),
  post("events", "a string cursor", { since: "0" }, invalid("since")),
  post("events", "a fractional cursor", { since: 1.5 }, invalid("since")),
  post("events", "a cursor of 1e300", '{"since":1e300}', invalid("since")),
  post("events", "a limit of 0", { limit: 0 }, invalid("limit")),
  post("events", "a limit of 501", { limit: 501 }, invalid("limit")),
  post("events", "a null limit", { limit: null }, invalid("limit")),
  post("events", "an unknown type filter", { type: "tool_activated" }, invalid("type")),
  post(
    "events",
    "a cursor of -0 is zero",
    '{"since":-0}',
    ok((j) => (j.events.length > 0 ? undefined : "no events")),
  ),
  post(
    "events",
    "the largest safe cursor finds nothing",
    { since: Number.MAX_SAFE_INTEGER },
    ok((j) => (j.events.length === 0 ? undefined : "events past the end")),
  ),
  post(
    "events",
    "the largest page never names the denied tool",
    { limit: 500 },
    ok((j) => (JSON.stringify(j).includes("secret.wipe") ? "named the denied tool" : undefined)),
  ),
];

export const TURN_CASES: HostileCase[] = [...decide, ...context, ...state, ...events];
