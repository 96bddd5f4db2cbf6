// Every operation's declared example, run against the worker: a new session, the example's `before`
// steps (each must answer 200), then its request. The answer must be a 200 that fits the
// operation's output schema, with the top-level keys of the declared example output. These are the
// examples OpenAPI and /docs show, so an example that stops running is a reference that lies.
//
// The session is pointed at a bundle holding what the examples name: the bundled core pack
// (switched on), a capability pack `incident` (entry doc SKILL.md, runbooks/sev1.md, a
// create_ticket tool) and a pack `ops` with the skill `incident-triage`, which brings page_oncall.
//
// A value only known at run time (an approval id) is written in the example's input, or in a later
// `before` step's input, as the whole string "{{before[N].path}}": the value at `path` in the
// answer to before step N, e.g. "{{before[2].approval_id}}".
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compilePacks } from "../../src/compiler/compile";
import { OPERATIONS } from "../../src/ops/registry";
import type { Bundle } from "../../src/packs/bundle";
import type { SessionObject } from "../../src/session-object";
import { newSid, op } from "../support/http";
import { sessionStub } from "../support/session";

const CORE = import.meta.glob<string>("../../packs/core/**/*", {
  query: "?raw",
  import: "default",
  eager: true,
});

/** The core pack's files, switched on (it ships off), as test/support/core-pack.ts does. */
const coreFiles = () =>
  Object.entries(CORE).map(([path, content]) => ({
    path: path.replace("../../packs/", ""),
    content: path.endsWith("/pack.yaml") ? content.replace(/^enabled: false$/m, "enabled: true") : content,
  }));

const INCIDENT_TOOLS = [
  {
    name: "create_ticket",
    description: "Open an incident ticket",
    side_effects: "write",
    input_schema: {
      type: "object",
      properties: { title: { type: "string" }, severity: { type: "string", enum: ["sev1", "sev2", "sev3"] } },
      required: ["title", "severity"],
    },
  },
];

const TRIAGE_TOOLS = [
  {
    name: "page_oncall",
    description: "Page the on-call engineer",
    side_effects: "external",
    input_schema: { type: "object", properties: { service: { type: "string" } }, required: ["service"] },
  },
];

const FIXTURES = [
  {
    path: "incident/SKILL.md",
    content:
      "---\nname: incident-response\ndescription: Runbooks and tools for production incidents\n---\n" +
      "# Incident response\n\n1. Open a ticket with `create_ticket`.\n2. Follow runbooks/sev1.md for a SEV1.\n",
  },
  {
    path: "incident/runbooks/sev1.md",
    content: "# SEV1\n\nPage the incident commander, then post a status update every 30 minutes.\n",
  },
  { path: "incident/tools.json", content: JSON.stringify(INCIDENT_TOOLS, null, 2) },
  { path: "ops/pack.yaml", content: "name: ops\n" },
  {
    path: "ops/incident-triage/SKILL.md",
    content:
      "---\nname: incident-triage\ndescription: Triage an incident and page the right person.\n---\n" +
      "# Incident triage\n\n1. Check the error rate.\n2. Page the on-call engineer with `page_oncall`.\n",
  },
  { path: "ops/incident-triage/tools.json", content: JSON.stringify(TRIAGE_TOOLS, null, 2) },
];

let bundle: Bundle | undefined;

function examplesBundle(): Bundle {
  if (bundle) return bundle;
  const compiled = compilePacks([...coreFiles(), ...FIXTURES]);
  expect(compiled.errors).toEqual([]);
  bundle = compiled.bundle;
  return bundle;
}

const PLACEHOLDER = /^\{\{before\[(\d+)\]((?:\.[A-Za-z0-9_]+|\[\d+\])*)\}\}$/;

/**
 * `value` with every "{{before[N].path}}" string replaced by the value at `path` in the answer to
 * before step N. Throws when the step or the path does not exist, naming both.
 */
function substitute(value: unknown, answers: readonly unknown[]): unknown {
  if (typeof value === "string") {
    const match = PLACEHOLDER.exec(value);
    if (!match) return value;
    const step = Number(match[1]);
    if (step >= answers.length) throw new Error(`${value}: there are only ${answers.length} earlier steps`);
    let at: unknown = answers[step];
    for (const key of (match[2] ?? "").match(/[A-Za-z0-9_]+/g) ?? []) {
      at = typeof at === "object" && at !== null ? (at as Record<string, unknown>)[key] : undefined;
    }
    if (at === undefined) {
      throw new Error(`${value}: before step ${step} answered ${JSON.stringify(answers[step])}`);
    }
    return at;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, answers));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, answers)]));
  }
  return value;
}

describe("the placeholder of a run-time value", () => {
  it("is replaced by the value at its path in an earlier step's answer, or fails naming it", () => {
    const answers = [{ tools: [{ name: "a" }] }, { approval_id: "apr_1" }];
    expect(
      substitute({ id: "{{before[1].approval_id}}", n: ["{{before[0].tools[0].name}}"] }, answers),
    ).toEqual({
      id: "apr_1",
      n: ["a"],
    });
    expect(substitute("not {{before[1].approval_id}}", answers)).toBe("not {{before[1].approval_id}}");
    expect(() => substitute("{{before[1].nope}}", answers)).toThrow(/before step 1 answered/);
    expect(() => substitute("{{before[5].approval_id}}", answers)).toThrow(/only 2 earlier steps/);
  });
});

describe("every operation's declared example", () => {
  for (const operation of OPERATIONS) {
    it(`${operation.name}: runs against the worker and answers what its output schema declares`, async () => {
      const sid = newSid();
      await runInDurableObject(sessionStub(sid), (obj: SessionObject) => {
        obj.bundle = examplesBundle();
      });
      const answers: unknown[] = [];
      for (const [i, step] of (operation.example.before ?? []).entries()) {
        expect(
          OPERATIONS.some((o) => o.name === step.op),
          `${operation.name}: before[${i}] names no operation "${step.op}"`,
        ).toBe(true);
        const res = await op(sid, step.op, substitute(step.input, answers));
        expect(
          res.status,
          `${operation.name}: before[${i}] ${step.op} answered ${res.status} ${JSON.stringify(res.json)}`,
        ).toBe(200);
        answers.push(res.json);
      }
      const res = await op(sid, operation.name, substitute(operation.example.input, answers));
      expect(
        res.status,
        `${operation.name}: the example's request answered ${res.status} ${JSON.stringify(res.json)}`,
      ).toBe(200);
      const parsed = operation.output.safeParse(res.json);
      expect(
        parsed.success,
        `${operation.name}: the answer does not fit the output schema: ${JSON.stringify(parsed.error?.issues)}`,
      ).toBe(true);
      expect(
        Object.keys(res.json).sort(),
        `${operation.name}: the answer's keys differ from the declared example output's`,
      ).toEqual(Object.keys(operation.example.output as object).sort());
    });
  }
});
