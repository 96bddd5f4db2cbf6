// Marked sections of bench/RESULTS.md: `npm run bench:load` (name "load") and `npm run
// bench:lessons` ("lessons") write theirs between markers, and `npm run bench` (which rewrites the
// whole file) carries them over untouched.

const markers = (name: string) => {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  return { start, end, section: new RegExp(`${start}[\\s\\S]*?${end}\\n?`) };
};

/** The marked section `name` of a previous RESULTS.md, with its markers, or "" when it has none. */
export function loadSection(results: string, name = "load"): string {
  const found = results.match(markers(name).section)?.[0];
  return found ? `${found.trimEnd()}\n\n` : "";
}

/**
 * `results` with its section `name` replaced by `body` (wrapped in the markers); a file without one
 * gets it just before "## Retrieval quality", or at the end.
 */
export function withLoadSection(results: string, body: string, name = "load"): string {
  const { start, end, section: SECTION } = markers(name);
  const section = `${start}\n${body.trim()}\n${end}\n`;
  if (SECTION.test(results)) return results.replace(SECTION, () => section);
  const quality = results.indexOf("## Retrieval quality");
  if (quality < 0) return `${results.trimEnd()}\n\n${section}`;
  return `${results.slice(0, quality)}${section}\n${results.slice(quality)}`;
}
