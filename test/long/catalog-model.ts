// Arbitrary catalogs, session configs, queries and regex patterns for the long suites. What a
// session makes of them (who is allowed, who is loaded, the documented search order) is the
// reference model in test/support/search-model.ts.
import fc from "fast-check";
import { modelToolNames } from "../../src/ops/builtins";
import { OPERATIONS } from "../../src/ops/registry";
import { type Config, SIDE_EFFECTS, type Tool } from "../support/search-model";

const NAMESPACES = ["gh", "slack", "fs", "db", "zz", "Gh"] as const;
const WORDS = ["get", "list", "create", "issue", "file", "user", "send", "message", "read", "a", "b"];
/** Globs over these names: namespaces, name parts, `?`, and ones that match nothing. */
const GLOBS = [
  "gh.*",
  "slack.*",
  "*issue*",
  "*_?ile",
  "zz*",
  "db.get_*",
  "?s.*",
  "Gh.*",
  "*:*",
  "*__*",
  "nothing.at.all",
];

const joinWords = (words: string[], style: "_" | "-" | "camel") =>
  style === "camel"
    ? words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("")
    : words.join(style);

const wordsArb = fc.tuple(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  fc.constantFrom("_" as const, "-" as const, "camel" as const),
);

/** Tool names: mostly `ns.words`, also bare, `ns:words`, long (up to 128) and any valid name. */
export const nameArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fc.constantFrom(...NAMESPACES), wordsArb)
      .map(([ns, [w, style]]) => `${ns}.${joinWords(w, style)}`),
  },
  { weight: 1, arbitrary: wordsArb.map(([w, style]) => joinWords(w, style)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...NAMESPACES), wordsArb)
      .map(([ns, [w, style]]) => `${ns}:${joinWords(w, style)}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...NAMESPACES), fc.integer({ min: 50, max: 120 }), fc.constantFrom(...WORDS))
      .map(([ns, n, w]) => `${ns}.${"x".repeat(n)}_${w}`.slice(0, 128)),
  },
  {
    weight: 1,
    arbitrary: fc
      .stringMatching(/^[A-Za-z0-9_.:-]{1,128}$/)
      .filter((n) => !modelToolNames(OPERATIONS).includes(n)),
  },
);

/** ASCII prose from the names' vocabulary, so searches hit often. */
const proseArb = fc
  .array(fc.constantFrom(...WORDS, "the", "of", "repository", "channel", "Issue", "FILE"), { maxLength: 8 })
  .map((w) => w.join(" "));

const descriptionArb = fc.oneof(
  { weight: 4, arbitrary: proseArb },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
);

const toolArb: fc.Arbitrary<Tool> = fc.record(
  {
    name: nameArb,
    description: descriptionArb,
    namespace: fc.constantFrom(...NAMESPACES, "other_ns"),
    tags: fc.uniqueArray(fc.constantFrom(...WORDS, "misc", "Tag-1"), { maxLength: 3 }),
    side_effects: fc.constantFrom(...SIDE_EFFECTS),
    loading_mode: fc.constantFrom("always" as const, "deferred" as const),
    input_schema: fc.uniqueArray(fc.constantFrom(...WORDS), { maxLength: 3 }).map((props) => ({
      type: "object",
      properties: Object.fromEntries(props.map((p) => [p, { type: "string" }])),
    })),
  },
  { requiredKeys: ["name", "description"] },
);

export const catalogArb = (maxLength = 20) => fc.uniqueArray(toolArb, { selector: (t) => t.name, maxLength });

export const configArb: fc.Arbitrary<Config> = fc.record({
  default_loading_mode: fc.constantFrom("always" as const, "deferred" as const, "deferred" as const),
  always_loaded_patterns: fc.subarray(GLOBS, { maxLength: 2 }),
  preferred_namespaces: fc.shuffledSubarray([...NAMESPACES, "other_ns"], { maxLength: 3 }),
  policy: fc.record({
    allow: fc.oneof(fc.constant<string[]>(["*"]), fc.subarray(GLOBS, { minLength: 1, maxLength: 4 })),
    deny: fc.subarray(GLOBS, { maxLength: 2 }),
  }),
});

/** Queries of every kind: any text, binary, graphemes, FTS5 syntax, names, very long. */
export const ftsQueryArb = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc
    .array(
      fc.constantFrom(...WORDS, "AND", "OR", "NOT", "NEAR", '"', "*", "(", ")", ":", "^", "-", "+", "{", "}"),
      {
        maxLength: 12,
      },
    )
    .map((w) => w.join(" ")),
  nameArb,
  nameArb.map((n) => ` ${n.toUpperCase()}\t`),
  fc.constantFrom("", " ", "\u0000", "name: get", "f_name:issue", "issue*", "NEAR(get list, 2)"),
  fc.array(fc.constantFrom(...WORDS), { minLength: 20, maxLength: 60 }).map((w) => w.join(" ")),
  fc.string({ minLength: 1500, maxLength: 2000 }),
);

/**
 * Regex patterns from a grammar RE2 accepts: literals, classes, escapes (`\.`, `\x61`, `\d`, `\b`),
 * quantifiers (greedy, lazy, counted), groups, flags, anchors and alternation.
 */
export const patternArb: fc.Arbitrary<string> = fc
  .letrec<{ alt: string; seq: string; atom: string }>((tie) => ({
    atom: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(...WORDS, "e", "ss", "Issue", "USER", "_", "-", " ", ":", "gh", "slack"),
      },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          "\\.",
          ".",
          "[a-f]",
          "[^x]",
          "[_.-]",
          "\\d",
          "\\w",
          "\\s",
          "\\b",
          "\\x61",
          "\\x{65}",
          "\\151",
          "\\Qa.b\\E",
          "\\pL",
          "[[:alpha:]]",
          "\\-",
          "\\:",
        ),
      },
      { weight: 1, arbitrary: tie("alt").map((a) => `(${a})`) },
      { weight: 1, arbitrary: tie("alt").map((a) => `(?:${a})`) },
      { weight: 1, arbitrary: tie("alt").map((a) => `(?i:${a})`) },
    ),
    seq: fc
      .array(
        fc.tuple(tie("atom"), fc.constantFrom("", "", "", "*", "+", "?", "??", "*?", "{1,2}", "{0}", "{2}")),
        { minLength: 1, maxLength: 4 },
      )
      .map((parts) => parts.map(([a, q]) => a + q).join("")),
    alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3 }).map((s) => s.join("|")),
  }))
  .alt.chain((body) =>
    fc.constantFrom(body, `^${body}`, `${body}$`, `^${body}$`, `(?i)${body}`, body.toUpperCase()),
  );
