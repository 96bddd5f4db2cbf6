// Hostile input to catalog_sync: every field of a tool record, the limits, unicode, odd but valid
// names (resynced: a second identical sync must write nothing).
import {
  deepArrayPath,
  deepObjectPath,
  error,
  type HostileCase,
  huge,
  invalid,
  invalidJson,
  MB,
  many,
  nestedArray,
  nestedObject,
  okWrites,
  post,
  tooDeep,
  UNICODE,
} from "./cases";

const tool = (fields: Record<string, unknown> = {}) => ({ name: "h.tool", description: "d", ...fields });
/** catalog_sync with one record, refused naming `field`. */
const record = (name: string, fields: Record<string, unknown>, field: string | RegExp): HostileCase =>
  post("catalog_sync", name, { tools: [tool(fields)] }, invalid(field));
const sync = (name: string, body: unknown, field: string | RegExp): HostileCase =>
  post("catalog_sync", name, body as Record<string, unknown>, invalid(field));
const syncRaw = (name: string, body: string, expect: HostileCase["expect"]): HostileCase =>
  post("catalog_sync", name, body, expect);
/** A sync on a fresh session, sent twice: the second must change nothing. */
const resync = (name: string, tools: Record<string, unknown>[]): HostileCase =>
  post(
    "catalog_sync",
    name,
    { tools },
    okWrites((j) =>
      j.added === 0 && j.updated === 0 && j.unchanged === tools.length
        ? undefined
        : `resync changed: ${JSON.stringify(j)}`,
    ),
    { session: "fresh", setup: [{ op: "catalog_sync", body: { tools } }] },
  );

const catalogSync: HostileCase[] = [
  sync("tools as a string", { tools: "github" }, "tools"),
  sync("null tools", { tools: null }, "tools"),
  sync("an upper-case mode", { tools: [], mode: "REPLACE" }, "mode"),
  sync("a null mode", { tools: [], mode: null }, "mode"),
  // Over the limit is the documented catalog_too_large (issue 28), naming the field.
  post(
    "catalog_sync",
    "10,001 tools",
    { tools: many(10_001, (i) => ({ name: `t.n${i}`, description: "" })) },
    error(400, "catalog_too_large", "tools"),
  ),
  sync(
    "one bad record after 9,999 good ones rejects them all",
    {
      tools: [
        ...many(9_999, (i) => ({ name: `t.n${i}`, description: "d" })),
        { name: "bad name", description: "d" },
      ],
    },
    "tools[9999].name",
  ),
  sync("a null record", { tools: [null] }, "tools[0]"),
  sync("a string record", { tools: ["github.create_issue"] }, "tools[0]"),
  record("a 1 MB name", { name: huge(MB) }, "tools[0].name"),
  ...UNICODE.map(([label, text]) => record(`a name with ${label}`, { name: `h.${text}` }, "tools[0].name")),
  record("a path-traversal name", { name: "../../etc/passwd" }, "tools[0].name"),
  record("a name reserved for Trove", { name: "tool_search" }, "tools[0].name"),
  sync("two records with the same name", { tools: [tool(), tool()] }, "tools[1].name"),
  record("a description one byte over 4 KB", { description: huge(4097) }, "tools[0].description"),
  record("a 1 MB description", { description: huge(MB) }, "tools[0].description"),
  record(
    "a description of 1,366 euro signs (4,098 bytes)",
    { description: "€".repeat(1366) },
    "tools[0].description",
  ),
  record("a null description", { description: null }, "tools[0].description"),
  sync("a record without a description", { tools: [{ name: "h.tool" }] }, "tools[0].description"),
  record("a namespace with a dot", { namespace: "a.b" }, "tools[0].namespace"),
  record("a 65-character namespace", { namespace: huge(65) }, "tools[0].namespace"),
  record("an empty namespace", { namespace: "" }, "tools[0].namespace"),
  record("tags as a string", { tags: "git" }, "tools[0].tags"),
  record("33 tags", { tags: many(33, (i) => `t${i}`) }, "tools[0].tags"),
  record("an empty tag", { tags: [""] }, "tools[0].tags[0]"),
  record("a 1 MB tag", { tags: [huge(MB)] }, "tools[0].tags[0]"),
  record("an unknown side effect", { side_effects: "delete" }, "tools[0].side_effects"),
  record("a null side effect", { side_effects: null }, "tools[0].side_effects"),
  record("an unknown loading mode", { loading_mode: "lazy" }, "tools[0].loading_mode"),
  record("a string input_schema", { input_schema: "string" }, "tools[0].input_schema"),
  record(
    "an input_schema of type string",
    { input_schema: { type: "string" } },
    "tools[0].input_schema.type",
  ),
  record("an array input_schema", { input_schema: [] }, "tools[0].input_schema"),
  record("a null input_schema", { input_schema: null }, "tools[0].input_schema"),
  record(
    "an output_schema of type array",
    { output_schema: { type: "array" } },
    "tools[0].output_schema.type",
  ),
  record("examples as an object", { examples: {} }, "tools[0].examples"),
  record("21 examples", { examples: many(21, () => ({ args: {} })) }, "tools[0].examples"),
  record("an example without args", { examples: [{ description: "x" }] }, "tools[0].examples[0].args"),
  record("an example with array args", { examples: [{ args: [] }] }, "tools[0].examples[0].args"),
  record(
    "an example with 17 tags",
    { examples: [{ args: {}, tags: many(17, (i) => `t${i}`) }] },
    "tools[0].examples[0].tags",
  ),
  record(
    "a 1,001-character example description",
    { examples: [{ args: {}, description: huge(1001) }] },
    "tools[0].examples[0].description",
  ),
  record(
    "an unknown field in an example",
    { examples: [{ args: {}, expected: 1 }] },
    "tools[0].examples[0].expected",
  ),
  record("extra as a string", { extra: "x" }, "tools[0].extra"),
  record("extra as an array", { extra: [] }, "tools[0].extra"),
  record("an OpenAI-style parameters field", { parameters: {} }, "tools[0].parameters"),
  syncRaw(
    "an own __proto__ key in a record",
    '{"tools":[{"name":"h.tool","description":"d","__proto__":{"x":1}}]}',
    invalid("tools[0].__proto__"),
  ),
  record("a constructor field in a record", { constructor: 1 }, "tools[0].constructor"),
  sync("an unknown top-level field", { tools: [], fingerprint: "x" }, "fingerprint"),
  syncRaw(
    "extra nested 70 levels deep",
    `{"tools":[{"name":"h.tool","description":"d","extra":${nestedObject(70)}}]}`,
    error(400, "too_deep", deepObjectPath("tools[0].extra")),
  ),
  syncRaw(
    "example args nested in 100 arrays",
    `{"tools":[{"name":"h.tool","description":"d","examples":[{"args":{"a":${nestedArray(100)}}}]}]}`,
    tooDeep(deepArrayPath("tools[0].examples[0].args.a")),
  ),
  syncRaw("a record truncated mid-string", '{"tools":[{"name":"h.to', invalidJson),
  syncRaw(
    "a NaN in a record",
    '{"tools":[{"name":"h.tool","description":"d","extra":{"n":NaN}}]}',
    invalidJson,
  ),
  syncRaw(
    "duplicate mode keys, the last one wrong",
    '{"tools":[],"mode":"merge","mode":"upsert"}',
    invalid("mode"),
  ),
  // Odd but valid catalogs, on fresh sessions: accepted, and a resync writes nothing.
  ...UNICODE.map(([label, text]) =>
    resync(`a description with ${label} resyncs unchanged`, [tool({ description: text, tags: [text] })]),
  ),
  resync(
    "names made only of punctuation get distinct provider names",
    [".", "_", ":", "-", "..", "a.b", "a_b", "a:b"].map((name) => ({ name, description: name })),
  ),
  resync("names differing only in case", [tool({ name: "Case.Tool" }), tool({ name: "case.tool" })]),
  resync("a description of exactly 4 KB of multibyte text", [tool({ description: `${"€".repeat(1365)}a` })]),
  resync("extra with hostile keys", [
    tool({ extra: { "": 1, constructor: {}, toString: "x", "\u0000": null } }),
  ]),
  resync("an input_schema with a catastrophic pattern and a recursive $ref", [
    tool({
      input_schema: { type: "object", properties: { s: { type: "string", pattern: "(a+)+$" } }, $ref: "#" },
    }),
  ]),
  post(
    "catalog_sync",
    "an empty merge changes nothing",
    { tools: [], mode: "merge" },
    okWrites((j) => (j.total === 0 ? undefined : "not empty")),
    { session: "fresh" },
  ),
];

export const CATALOG_CASES: HostileCase[] = catalogSync;
