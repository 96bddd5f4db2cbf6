// Keeps skill text from naming tools this session may not use (Penguiflow RFC v0.3 §3.12), without
// rewriting words that only spell a tool's name: "Then Read the file" is prose, `Read` is a tool.

/** A name-shaped run: `my_tool` is one token, so hiding it does not hide `my_tool_v2`. */
const NAME_LIKE = /[A-Za-z0-9_][A-Za-z0-9_.:-]*[A-Za-z0-9_]|[A-Za-z0-9_]/g;
/** Fenced code block lines (CommonMark: up to 3 spaces, then 3 or more ` or ~, then the info string). */
const FENCE = /^ {0,3}(`{3,}|~{3,})([^\n]*)$/gm;
const BACKTICKS = /`+/g;
const BACKTICKS_CLOSE = /`+/g;
const BLANK_LINE = /\n[ \t]*\n/g;

/** Where a tool reference stands, which decides the rules that may hide it. */
export interface TokenSite {
  /** Contains `_ . : -` or a lower-to-upper case change: shaped like a tool name, not a word. */
  identifier: boolean;
  /** In a URL's host or an email address: it names a place, not a tool (`github.com`). */
  address: boolean;
}

/**
 * Rewrites every reference to a hidden tool as `replacement`. A token is a reference when it is in
 * a code span or fenced code block (`Read`), when it is identifier-shaped (`admin.restart`,
 * `createIssue`) or when it is written as a call (`Bash(git:*)`); in a URL, link destination or
 * email address only identifier-shaped tokens are. Other words of prose are never references.
 * `hidden` decides for each reference.
 *
 * @example redactToolNames("Read `Read`.", (t) => t === "Read", "a tool") // "Read `a tool`."
 */
export function redactToolNames(
  text: string,
  hidden: (token: string, site: TokenSite) => boolean,
  replacement: string,
): string {
  let out = "";
  for (const [part, code] of segments(text)) out += redactPart(part, code, hidden, replacement);
  return out;
}

function redactPart(
  text: string,
  code: boolean,
  hidden: (token: string, site: TokenSite) => boolean,
  replacement: string,
): string {
  const { links, addresses } =
    text.includes("://") || text.includes("](") || text.includes("@") ? linkRanges(text) : NO_LINKS;
  return text.replace(NAME_LIKE, (token: string, offset: number) => {
    const identifier = identifierShaped(token);
    const link = links.length > 0 && inRanges(links, offset);
    // In prose a word is a reference only when called: `Bash(git:*)`, not "Run Bash to build".
    const reference = identifier || (!link && (code || text.charCodeAt(offset + token.length) === 40));
    if (!reference) return token;
    const address = addresses.length > 0 && inRanges(addresses, offset);
    return hidden(token, { identifier, address }) ? replacement : token;
  });
}

/** Shaped like a tool name rather than a word: `github.delete_repository`, `create-issue`, `createIssue`. */
function identifierShaped(token: string): boolean {
  let lower = false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c === 95 || c === 46 || c === 58 || c === 45) return true;
    if (lower && c >= 65 && c <= 90) return true;
    lower = c >= 97 && c <= 122;
  }
  return false;
}

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isWord = (c: number) => isAlnum(c) || c === 95;
/** Scheme characters: letters, digits, `+ . -`. */
const SCHEME = (c: number) => isAlnum(c) || c === 43 || c === 46 || c === 45;
/** Anything but white space and `< > " ' \` ( ) [ ]`, which end a URL in prose and markdown. */
const URL_CHAR = (c: number) =>
  c > 32 &&
  c !== 60 &&
  c !== 62 &&
  c !== 34 &&
  c !== 39 &&
  c !== 96 &&
  c !== 40 &&
  c !== 41 &&
  c !== 91 &&
  c !== 93;
/** A URL's host (with user and port) runs to `/ ? #`. */
const HOST_CHAR = (c: number) => URL_CHAR(c) && c !== 47 && c !== 63 && c !== 35;
/** A markdown link destination runs to `)` or white space. */
const DESTINATION = (c: number) => c > 32 && c !== 41;
const EMAIL_LOCAL = (c: number) => isWord(c) || c === 46 || c === 37 || c === 43 || c === 45;
const EMAIL_DOMAIN = (c: number) => isWord(c) || c === 46 || c === 45;

type Ranges = [number, number][];
const NO_LINKS: { links: Ranges; addresses: Ranges } = { links: [], addresses: [] };

/**
 * [start, end) of each URL (`scheme://…`), markdown link destination (`](…)`) and email address in
 * `text` (`links`), and of each URL host and email address (`addresses`), in order and merged.
 * Found from their anchors (`://`, `](`, `@`) outwards: one regex over the whole text cost more
 * than the rest of the redaction (it backtracks at every word).
 */
function linkRanges(text: string): { links: Ranges; addresses: Ranges } {
  const links: Ranges = [];
  const addresses: Ranges = [];
  for (let at = text.indexOf("://"); at >= 0; at = text.indexOf("://", at + 3)) {
    let start = grow(text, at, -1, SCHEME);
    // A scheme starts with a letter.
    while (start < at && !isLetter(text.charCodeAt(start))) start++;
    if (start === at) continue;
    const end = grow(text, at + 2, 1, URL_CHAR) + 1;
    links.push([start, end]);
    addresses.push([at + 3, grow(text, at + 2, 1, HOST_CHAR) + 1]);
  }
  for (let at = text.indexOf("]("); at >= 0; at = text.indexOf("](", at + 2))
    links.push([at + 2, grow(text, at + 1, 1, DESTINATION) + 1]);
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    const end = grow(text, at, 1, EMAIL_DOMAIN) + 1;
    const start = grow(text, at, -1, EMAIL_LOCAL);
    if (start < at && text.slice(at + 1, end).includes(".")) {
      links.push([start, end]);
      addresses.push([start, end]);
    }
  }
  return { links: merged(links), addresses: merged(addresses) };
}

/** `ranges` sorted, overlapping ones joined. */
function merged(ranges: Ranges): Ranges {
  if (ranges.length < 2) return ranges;
  ranges.sort((x, y) => x[0] - y[0]);
  const out: Ranges = [];
  for (const range of ranges) {
    const prev = out[out.length - 1];
    if (prev && range[0] <= prev[1]) prev[1] = Math.max(prev[1], range[1]);
    else out.push(range);
  }
  return out;
}

/** The last index from `from` in direction `step` whose characters are all `allowed`. */
function grow(text: string, from: number, step: 1 | -1, allowed: (c: number) => boolean): number {
  let i = from;
  while (i + step >= 0 && i + step < text.length && allowed(text.charCodeAt(i + step))) i += step;
  return i;
}

function inRanges(ranges: Ranges, at: number): boolean {
  for (const [start, end] of ranges) {
    if (at < start) return false;
    if (at < end) return true;
  }
  return false;
}

/** `text` cut into [part, isCode] pieces: fenced code blocks and code spans are code. */
function segments(text: string): [string, boolean][] {
  if (!text.includes("`") && !text.includes("~~~")) return [[text, false]];
  if (!text.includes("```") && !text.includes("~~~")) return inlineSegments(text);
  const out: [string, boolean][] = [];
  let pos = 0;
  FENCE.lastIndex = 0;
  for (let open = FENCE.exec(text); open; open = FENCE.exec(text)) {
    const [, marks = "", info = ""] = open;
    // A backtick fence's info string has no backticks; otherwise the line holds code spans.
    if (marks[0] === "`" && info.includes("`")) continue;
    // The opening line, info string included, is prose: a language names no tool.
    const lineEnd = open.index + open[0].length;
    const codeStart = text[lineEnd] === "\n" ? lineEnd + 1 : lineEnd;
    out.push(...inlineSegments(text.slice(pos, codeStart)));
    let close = FENCE.exec(text);
    while (close && !closes(close, marks)) close = FENCE.exec(text);
    // An unclosed fence runs to the end of the text (CommonMark).
    if (!close) {
      out.push([text.slice(codeStart), true]);
      return out;
    }
    out.push([text.slice(codeStart, close.index), true]);
    pos = close.index;
  }
  out.push(...inlineSegments(text.slice(pos)));
  return out;
}

/** A closing fence: the opening's character, at least as many, and nothing after them. */
function closes(line: RegExpExecArray, marks: string): boolean {
  const [, run = "", rest = ""] = line;
  return run[0] === marks[0] && run.length >= marks.length && rest.trim() === "";
}

/** Code spans: a run of n backticks up to the next run of exactly n, within one paragraph. */
function inlineSegments(text: string): [string, boolean][] {
  if (!text.includes("`")) return [[text, false]];
  const out: [string, boolean][] = [];
  let last = 0;
  let paragraphEnd = -1;
  BACKTICKS.lastIndex = 0;
  for (let open = BACKTICKS.exec(text); open; open = BACKTICKS.exec(text)) {
    // An escaped backtick is a literal one (outside code spans only, where we are).
    if (open.index > 0 && text[open.index - 1] === "\\") continue;
    const start = open.index + open[0].length;
    if (start > paragraphEnd) {
      BLANK_LINE.lastIndex = start;
      paragraphEnd = BLANK_LINE.exec(text)?.index ?? text.length;
    }
    BACKTICKS_CLOSE.lastIndex = start;
    let end = -1;
    for (let close = BACKTICKS_CLOSE.exec(text); close; close = BACKTICKS_CLOSE.exec(text)) {
      if (close.index >= paragraphEnd) break;
      if (close[0].length === open[0].length) {
        end = close.index;
        break;
      }
    }
    if (end < 0) continue;
    out.push([text.slice(last, start), false], [text.slice(start, end), true]);
    last = end;
    BACKTICKS.lastIndex = end + open[0].length;
  }
  out.push([text.slice(last), false]);
  return out;
}
