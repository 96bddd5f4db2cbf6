// Name globs (`*` any run, `?` one character) compiled to one linear-time RE2 program per list.
import { RE2JS } from "re2js";

export type NameMatcher = (...names: string[]) => boolean;

const cache = new Map<string, NameMatcher>();

/**
 * A matcher that is true when any of `names` matches any of `patterns` in full.
 *
 * @example globMatcher(["github.*", "*_issue"])("github.create_issue") // true
 */
export function globMatcher(patterns: readonly string[]): NameMatcher {
  if (patterns.length === 0) return () => false;
  if (patterns.includes("*")) return () => true;
  const key = patterns.join("\u0000");
  let matcher = cache.get(key);
  if (!matcher) {
    const body = patterns
      .map((p) =>
        p
          .split(/([*?])/)
          .map(globPart)
          .join(""),
      )
      .join("|");
    const re = RE2JS.compile(`^(?:${body})$`);
    matcher = (...names) => names.some((n) => re.matches(n));
    if (cache.size > 256) cache.clear();
    cache.set(key, matcher);
  }
  return matcher;
}

function globPart(part: string): string {
  if (part === "*") return ".*";
  if (part === "?") return ".";
  return part ? RE2JS.quote(part) : "";
}
