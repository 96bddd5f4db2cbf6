// Literal text a regex match must contain, so most texts can be ruled out with a plain substring
// search before RE2 runs (RE2 in JavaScript is linear but slow per character).

const LITERAL = /[A-Za-z0-9_ :-]/;
const ESCAPED_LITERAL = /[.\-:/_ *+?()[\]{}|^$\\]/;
const SINGLE_ESCAPES = "dDwWsSbBAzfnrtv";

/**
 * Lowercased literal runs that every match of `pattern` contains (case-insensitive), or [] when
 * none can be proven (top-level alternation, unusual escapes). Conservative: a text lacking any of
 * them cannot match.
 *
 * @example requiredLiterals("^k8s.*pod") // ["k8s", "pod"]
 */
export function requiredLiterals(pattern: string): string[] {
  const runs: string[] = [];
  let run = "";
  const flush = () => {
    if (run) runs.push(run.toLowerCase());
    run = "";
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "|") return []; // a top-level alternative may avoid every run
    if (c === "\\") {
      const next = pattern[i + 1] ?? "";
      if (!ESCAPED_LITERAL.test(next)) {
        // One-character classes and assertions (\d, \w, \b, \n …) end a run. Anything else — hex
        // (\x68), octal (\141), Unicode classes, \Q…\E quoting — spells text we do not decode: no guess.
        if (!SINGLE_ESCAPES.includes(next)) return [];
        flush();
        i++;
        continue;
      }
      run += next;
      i++;
    } else if (LITERAL.test(c)) {
      run += c;
    } else if (c === "?" || c === "*" || c === "{") {
      run = run.slice(0, -1); // the quantified character is optional
      flush();
      if (c === "{") i = skipTo(pattern, i, "}");
    } else if (c === "(") {
      flush();
      i = skipGroup(pattern, i);
    } else if (c === "[") {
      flush();
      i = skipClass(pattern, i);
    } else {
      flush(); // . ^ $ + and anything else
    }
  }
  flush();
  return runs.filter((r) => r.length > 0);
}

function skipTo(pattern: string, from: number, end: string): number {
  const at = pattern.indexOf(end, from);
  return at === -1 ? pattern.length : at;
}

function skipClass(pattern: string, from: number): number {
  let i = from + 1;
  if (pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]") return i;
  }
  return pattern.length;
}

function skipGroup(pattern: string, from: number): number {
  let depth = 0;
  for (let i = from; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (c === "[") i = skipClass(pattern, i);
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return pattern.length;
}
