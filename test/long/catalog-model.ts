// Arbitrary catalogs and session configs, and a model of what a session makes of them (who is
// allowed, who is loaded, the documented search order), written from docs/api.md: the oracle of
// the long suites. It shares no code with src/ except the RE2 engine the docs name for regex search.
import fc from "fast-check";
import { RE2JS } from "re2js";
import { BUILTIN_NAMES } from "../../src/ops/builtin-names";

export const NAMESPACES = ["gh", "slack", "fs", "db", "zz", "Gh"] as const;
export const WORDS = ["get", "list", "create", "issue", "file", "user", "send", "message", "read", "a", "b"];
export const SIDE_EFFECTS = ["pure", "read", "write", "external", "stateful"] as const;
export const REGEX_SCORES = [0.95, 0.9, 0.85, 0.75];
/** Globs over these names: namespaces, name parts, `?`, and ones that match nothing. */
export const GLOBS = [
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

export interface Tool {
  name: string;
  description: string;
  namespace?: string;
  tags?: string[];
  side_effects?: (typeof SIDE_EFFECTS)[number];
  loading_mode?: "always" | "deferred";
  input_schema?: Record<string, unknown>;
}

export interface Config {
  default_loading_mode: "always" | "deferred";
  always_loaded_patterns: string[];
  preferred_namespaces: string[];
  policy: { allow: string[]; deny: string[]; approval?: string[] };
}

export interface Hit {
  name: string;
  description: string;
  score: number;
  match_type: string;
  loading_mode: string;
}

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
      .filter((n) => !(BUILTIN_NAMES as readonly string[]).includes(n)),
  },
);

/** ASCII prose from the names' vocabulary, so searches hit often. */
export const proseArb = fc
  .array(fc.constantFrom(...WORDS, "the", "of", "repository", "channel", "Issue", "FILE"), { maxLength: 8 })
  .map((w) => w.join(" "));

export const descriptionArb = fc.oneof(
  { weight: 4, arbitrary: proseArb },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
);

export const toolArb: fc.Arbitrary<Tool> = fc.record(
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

/** `*` any run of characters, `?` one; the whole name must match (api.md "policy"). */
export function globOracle(patterns: readonly string[]): (...names: string[]) => boolean {
  const res = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split(/([*?])/)
          .map((part) =>
            part === "*"
              ? "[\\s\\S]*"
              : part === "?"
                ? "[\\s\\S]"
                : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
          )
          .join("")}$`,
      ),
  );
  return (...names) => names.some((n) => res.some((re) => re.test(n)));
}

/** What the session should make of each tool under a config. */
export class Model {
  readonly byName: Map<string, Tool>;
  readonly #allow: (...n: string[]) => boolean;
  readonly #deny: (...n: string[]) => boolean;
  readonly #always: (...n: string[]) => boolean;

  constructor(
    readonly tools: Tool[],
    readonly config: Config,
  ) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.#allow = globOracle(config.policy.allow);
    this.#deny = globOracle(config.policy.deny);
    this.#always = globOracle(config.always_loaded_patterns);
  }

  /** api.md: the namespace defaults to the part of the name before its first `.`. */
  namespace(name: string): string {
    const t = this.byName.get(name);
    if (t?.namespace) return t.namespace;
    const dot = name.indexOf(".");
    return dot > 0 ? name.slice(0, dot) : name;
  }

  qualified(name: string): string {
    const ns = this.namespace(name);
    return name.startsWith(`${ns}.`) || name === ns ? name : `${ns}.${name}`;
  }

  local(name: string): string {
    const ns = this.namespace(name);
    return name.startsWith(`${ns}.`) ? name.slice(ns.length + 1) : name;
  }

  allowed(name: string): boolean {
    const q = this.qualified(name);
    return this.byName.has(name) && this.#allow(name, q) && !this.#deny(name, q);
  }

  mode(name: string): "always" | "deferred" {
    if (this.#always(name, this.qualified(name))) return "always";
    return this.byName.get(name)?.loading_mode ?? this.config.default_loading_mode;
  }

  searchable(name: string, includeAlways: boolean): boolean {
    return this.allowed(name) && (includeAlways || this.mode(name) === "deferred");
  }

  allowedNames(): string[] {
    return this.tools.filter((t) => this.allowed(t.name)).map((t) => t.name);
  }

  deferredCount(): number {
    return this.tools.filter((t) => this.allowed(t.name) && this.mode(t.name) === "deferred").length;
  }

  /** The documented order: score desc, preferred namespace, side effects, shorter name, name. */
  compare = (a: { name: string; score: number }, b: { name: string; score: number }): number => {
    const pref = this.config.preferred_namespaces;
    const ns = (n: string) => {
      const i = pref.indexOf(this.namespace(n));
      return i === -1 ? pref.length : i;
    };
    const se = (n: string) => SIDE_EFFECTS.indexOf(this.byName.get(n)?.side_effects ?? "read");
    return (
      b.score - a.score ||
      ns(a.name) - ns(b.name) ||
      se(a.name) - se(b.name) ||
      a.name.length - b.name.length ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
    );
  };

  /** exact search: the name, the qualified name or the local name, ASCII case-insensitively. */
  exact(query: string, includeAlways: boolean): { name: string; score: number }[] {
    const q = query.trim();
    if (!/^[A-Za-z0-9_.:-]{1,128}$/.test(q)) return [];
    const fold = (s: string) => s.toLowerCase();
    return this.tools
      .filter((t) => this.searchable(t.name, includeAlways))
      .filter((t) => [t.name, this.qualified(t.name), this.local(t.name)].some((n) => fold(n) === fold(q)))
      .map((t) => ({ name: t.name, score: 1 }))
      .sort(this.compare);
  }

  /** regex search by plain RE2 over every searchable tool, scored as api.md says. */
  regex(pattern: string, includeAlways: boolean): { name: string; score: number }[] {
    const re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
    return this.tools
      .filter((t) => this.searchable(t.name, includeAlways))
      .flatMap((t) => {
        const score = re.matches(t.name)
          ? 0.95
          : re.matcher(t.name).lookingAt()
            ? 0.9
            : re.matcher(t.name).find()
              ? 0.85
              : re.matcher(t.description).find() ||
                  ((t.tags ?? []).length > 0 && re.matcher((t.tags ?? []).join(" ")).find())
                ? 0.75
                : null;
        return score === null ? [] : [{ name: t.name, score }];
      })
      .sort(this.compare);
  }
}

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
