// Marked sections of bench/RESULTS.md: `npm run bench:load` and `npm run bench:gateway` each write
// theirs between markers, and `npm run bench` (which rewrites the whole file) carries them over.

const marks = (name: string) => {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  return { start, end, section: new RegExp(`${start}[\\s\\S]*?${end}\\n?`) };
};

/** The marked section `name` of a previous RESULTS.md, with its markers, or "" when it has none. */
export function markedSection(results: string, name: string): string {
  const found = results.match(marks(name).section)?.[0];
  return found ? `${found.trimEnd()}\n\n` : "";
}

/** The marked load section of a previous RESULTS.md, with its markers, or "" when it has none. */
export const loadSection = (results: string) => markedSection(results, "load");

/**
 * `results` with its section `name` replaced by `body` (wrapped in the markers); a file without
 * one gets it just before "## Retrieval quality", or at the end.
 */
export function withMarkedSection(results: string, name: string, body: string): string {
  const { start, end, section: pattern } = marks(name);
  const section = `${start}\n${body.trim()}\n${end}\n`;
  if (pattern.test(results)) return results.replace(pattern, () => section);
  const quality = results.indexOf("## Retrieval quality");
  if (quality < 0) return `${results.trimEnd()}\n\n${section}`;
  return `${results.slice(0, quality)}${section}\n${results.slice(quality)}`;
}

/** `results` with its load section replaced by `body`. */
export const withLoadSection = (results: string, body: string) => withMarkedSection(results, "load", body);
