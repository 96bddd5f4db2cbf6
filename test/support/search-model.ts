// The reference model of tool_search, written from docs/api.md: who a config allows, who is loaded,
// which tools exact and regex search find and the documented order of hits. The oracle of the
// search properties in test/unit/ and the contract suites in test/long/. It shares no code with
// src/ except the RE2 engine the docs name for regex search.
import { RE2JS } from "re2js";

export const SIDE_EFFECTS = ["pure", "read", "write", "external", "stateful"] as const;
/** Regex scores (api.md): the whole name, a name prefix, inside the name, the description or tags. */
export const REGEX_SCORES = [0.95, 0.9, 0.85, 0.75];

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
  /** api.md: `allow` defaults to `["*"]`. */
  policy: { allow?: string[]; deny: string[]; approval?: string[] };
}

export interface Hit {
  name: string;
  description: string;
  score: number;
  relevance: number;
  match_type: string;
  loading_mode: string;
}

/** `*` any run of characters, `?` one; the whole name must match (api.md "policy"). */
function globOracle(patterns: readonly string[]): (...names: string[]) => boolean {
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

  /**
   * @param providers the provider name the session shows for each allowed tool, when the caller
   *   read them (exact search matches a provider name as written, api.md); without it, names only.
   */
  constructor(
    readonly tools: Tool[],
    readonly config: Config,
    readonly providers: ReadonlyMap<string, string> = new Map(),
  ) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.#allow = globOracle(config.policy.allow ?? ["*"]);
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
      .filter(
        (t) =>
          [t.name, this.qualified(t.name), this.local(t.name)].some((n) => fold(n) === fold(q)) ||
          this.providers.get(t.name) === q,
      )
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
