// Reading bundled files a page at a time, shared by skill_read_file and pack_read_file: safe
// relative paths, paging that never splits a character, and a MIME type by extension.
import { z } from "zod";
import { type ErrorCode, TroveError } from "../errors";

export const MAX_READ_LENGTH = 64_000;

/** The paging fields of a read: where to start and how much. */
/** What reading a file a page at a time can answer besides a 200 (with the owner's own lookups). */
export const PAGE_ERRORS = [
  "unknown_file",
  "invalid_path",
  "invalid_offset",
  "unsupported_file",
] as const satisfies readonly ErrorCode[];

export const PageInput = {
  offset: z.number().int().min(0).default(0).describe("Where to start, in characters (UTF-16 code units)"),
  length: z.number().int().min(1).max(MAX_READ_LENGTH).default(16_000),
};

export const PageOutput = {
  path: z.string(),
  content: z.string(),
  offset: z.number().int(),
  length: z.number().int().describe("Characters returned"),
  total: z.number().int().describe("Characters in the file"),
  truncated: z.boolean().describe("Whether the file continues after this page"),
  next_offset: z.number().int().nullable().describe("Offset of the next page; null at the end"),
  mime: z.string(),
};

const MIME: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  ts: "text/typescript",
  js: "text/javascript",
  mjs: "text/javascript",
  sh: "application/x-sh",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
};

export const mimeOf = (path: string) => {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return (dot > 0 && MIME[base.slice(dot + 1).toLowerCase()]) || "text/plain";
};

const invalidPath = (reason: string) =>
  new TroveError("invalid_path", 400, `path ${reason}`, { field: "path" });

/**
 * A path inside a folder (`within`: "the skill's folder", "the pack"), with `.` and empty segments
 * dropped. Anything that could point outside it — absolute, `..`, backslashes, NUL, or any of these
 * percent-encoded — is refused.
 */
export function relativeFilePath(raw: string, within: string): string {
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Not percent-encoded (a bare %): only the raw form is checked.
  }
  for (const path of raw === decoded ? [raw] : [raw, decoded]) {
    if (path.includes("\0")) throw invalidPath("contains NUL");
    if (path.includes("\\")) throw invalidPath("contains a backslash: separate folders with /");
    if (path.startsWith("/") || /^[A-Za-z]:/.test(path))
      throw invalidPath(`is absolute: give it relative to ${within}`);
    if (path.split("/").includes("..")) throw invalidPath(`must stay inside ${within} (no ..)`);
  }
  const normalized = raw
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");
  if (normalized === "") throw invalidPath("names no file");
  return normalized;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** One page of `text`; 400 invalid_offset past the end. A surrogate pair is never split. */
export function readPage(path: string, text: string, offset: number, length: number) {
  const total = text.length;
  if (offset > total) {
    throw new TroveError("invalid_offset", 400, `offset is past the end of the file (${total} characters)`, {
      field: "offset",
      total,
    });
  }
  let end = Math.min(total, offset + length);
  if (end < total && end - 1 > offset && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const content = text.slice(offset, end);
  return {
    path,
    content,
    offset,
    length: content.length,
    total,
    truncated: end < total,
    next_offset: end < total ? end : null,
    mime: mimeOf(path),
  };
}

/** 415 for a listed file whose text was not bundled (binary or over the size limit). */
export function unsupportedFile(path: string, bytes: number): TroveError {
  return new TroveError(
    "unsupported_file",
    415,
    `"${path}" (${bytes} bytes) is too large or not UTF-8 text, so it was not bundled`,
    { field: "path", bytes },
  );
}
