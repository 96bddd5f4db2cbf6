// The load-test section of bench/RESULTS.md: `npm run bench:load` writes it between markers, and
// `npm run bench` (which rewrites the whole file) carries it over untouched.

const START = "<!-- load:start -->";
const END = "<!-- load:end -->";
const SECTION = new RegExp(`${START}[\\s\\S]*?${END}\\n?`);

/** The marked load section of a previous RESULTS.md, with its markers, or "" when it has none. */
export function loadSection(results: string): string {
  const found = results.match(SECTION)?.[0];
  return found ? `${found.trimEnd()}\n\n` : "";
}

/**
 * `results` with its load section replaced by `body` (wrapped in the markers); a file without one
 * gets it just before "## Retrieval quality", or at the end.
 */
export function withLoadSection(results: string, body: string): string {
  const section = `${START}\n${body.trim()}\n${END}\n`;
  if (SECTION.test(results)) return results.replace(SECTION, () => section);
  const quality = results.indexOf("## Retrieval quality");
  if (quality < 0) return `${results.trimEnd()}\n\n${section}`;
  return `${results.slice(0, quality)}${section}\n${results.slice(quality)}`;
}
