// What the compiler reads (a file of the packs directory) and what it reports (a problem with a place).

/** One file under the packs directory; `path` is relative to it, `/`-separated, pack folder first. */
export interface PackFile {
  path: string;
  /** Bytes (what the build script passes, so invalid UTF-8 is detected) or already-decoded text. */
  content: string | Uint8Array;
}

export interface PackProblem {
  file: string;
  line?: number;
  field: string;
  reason: string;
}

/** `file:line — field — reason` (no `:line` when it is unknown). */
export function formatProblem(p: PackProblem): string {
  return `${p.file}${p.line === undefined ? "" : `:${p.line}`} — ${p.field} — ${p.reason}`;
}
