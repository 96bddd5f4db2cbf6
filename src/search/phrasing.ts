// How everyday requests phrase actions: nouns used as verbs before an object ("file a bug"), phrasal
// verbs ("get rid of"), things spelled out ("pull requests"), and what a query's shape suggests (a
// #channel, an email address). Read by queryTermGroups (text.ts); the words are lexicon.json's.
import { stem } from "porter2";
import { pattern, patterns, phraseMap, wordMap, wordSet } from "./lexicon";
import { ACTION_WORDS, THING_PHRASES } from "./synonyms";

/**
 * Words that are nouns in tool descriptions but verbs in requests: "file a bug", "book a room",
 * "ship the fix", "text the team". Before an article or a possessive (the shape of an object
 * phrase) the word acts: its own term counts only as a related one, and its action terms join it.
 */
export const VERB_SENSES = wordMap("verb_senses");

/**
 * Light verbs: so common in English, and in so many idioms ("go through", "take me to", "give it a
 * ring"), that alone they say little about the action; the words around them say it. A tool that
 * happens to be named with one (go_back, take_screenshot) should not win on it: a light verb's term
 * only stands in, like a related term.
 */
export const LIGHT_VERBS = wordSet("light_verbs");

/**
 * Set phrases that only pace a request and name nothing: "who's said yes so far?" asks nothing
 * about distance, "by the way" nothing about routes. Dropped before a query is read.
 */
export const FILLER_PHRASES = pattern("filler_phrases");

/**
 * Verbs of placing that, before "a" or "an", put something new somewhere: "drop a marker on the
 * dashboard", "leave a note on the ticket", "put an event on my calendar". The action is adding;
 * the verb's other senses ("drop the table", "leave the channel") do not apply.
 */
export const PLACING_VERBS = wordSet("placing_verbs");

/** Words after which a verb-or-noun word reads as a verb: articles and possessives. */
export const OBJECT_STARTERS = wordSet("object_starters");

/**
 * Phrasal verbs: a verb and its particle mean an action neither word says ("get rid of" → delete,
 * "hand over" → assign, "push back" → reschedule). Each found in a query adds a concept of related
 * terms, as a shape hint does.
 */
export const PHRASAL_VERBS = wordMap("phrasal_verbs");

/** The verbs of PHRASAL_VERBS: a text's other words start none, and cost no lookup. */
const PHRASAL_HEADS: ReadonlySet<string> = new Set(
  [...PHRASAL_VERBS.keys()].map((k) => k.split(" ")[0] ?? ""),
);

/** Words a phrasal verb may hold between its verb and particle: "fire it off", "hand PROJ-88 over". */
const MAX_PHRASAL_GAP = 2;

export interface PhrasalVerb {
  /** Where its verb and its particle are among the text's words. */
  verb: number;
  particle: number;
  /** The action it means (PHRASAL_VERBS). */
  meaning: readonly string[];
  /** The phrasal verb written closed, as one word: "setup" for "set up", "lookup" for "look it up". */
  closed: string;
  /** Its verb is in a past form ("who's said yes", "the files we backed up"): a state, not a request. */
  past: boolean;
}

/**
 * Past forms of the phrasal verbs' heads that no suffix rule reaches. Forms that are also the
 * present ("shut", "set", "put") are not here: a request says them in the present.
 */
const IRREGULAR_PAST = phraseMap("irregular_past");

/** The phrasal verbs' heads by their stems: a regular form stems as its head ("handed", "spinning"). */
const HEADS_BY_STEM: ReadonlyMap<string, string> = new Map(
  [...PHRASAL_HEADS].map((head) => [stem(head), head]),
);

/**
 * How the heads' forms begin ("wri" of writing, "go" of going): every document word comes through
 * here, and the others are not stemmed a second time.
 */
const HEAD_STARTS: ReadonlySet<string> = new Set([...PHRASAL_HEADS].map((head) => head.slice(0, 3)));

/**
 * The phrasal verb head a word is a form of: itself, an irregular past ("said", "woke"), or a word
 * that stems as a head does ("hands", "spinning"; "handed" is a past form).
 */
function phrasalHead(word: string): { head: string; past: boolean } | undefined {
  const irregular = IRREGULAR_PAST.get(word);
  if (irregular !== undefined && PHRASAL_HEADS.has(irregular)) return { head: irregular, past: true };
  if (PHRASAL_HEADS.has(word)) return { head: word, past: false };
  if (!HEAD_STARTS.has(word.slice(0, 3)) && !HEAD_STARTS.has(word.slice(0, 2))) return undefined;
  const head = HEADS_BY_STEM.get(stem(word));
  return head === undefined ? undefined : { head, past: word.endsWith("ed") };
}

/** The phrasal verbs of a text's words ("get rid", "fire it off", "handed it over"). */
export function phrasalVerbs(all: readonly string[]): PhrasalVerb[] {
  const found: PhrasalVerb[] = [];
  for (const [verb, form] of all.entries()) {
    const { head: word, past } = phrasalHead(form) ?? {};
    if (word === undefined) continue;
    for (
      let particle = verb + 1;
      particle <= verb + 1 + MAX_PHRASAL_GAP && particle < all.length;
      particle++
    ) {
      const meaning = PHRASAL_VERBS.get(`${word} ${all[particle]}`);
      if (meaning) {
        found.push({ verb, particle, meaning, closed: `${word}${all[particle]}`, past: past === true });
        break;
      }
    }
  }
  return found;
}

/** Where the text spells out a thing an abbreviation stands for ("pull requests" as PRs). */
export function thingWords(all: readonly string[]): Set<number> {
  const at = new Set<number>();
  for (let i = 0; i < all.length; i++)
    for (const phrase of THING_PHRASES) {
      const last = phrase.length - 1;
      const fits = phrase.every((w, k) => all[i + k] === w || (k === last && all[i + k] === `${w}s`));
      if (fits) for (let k = 0; k <= last; k++) at.add(i + k);
    }
  return at;
}

/**
 * Hints from the shape of a query rather than its words: a `#channel`, an email address, setting
 * something to a value, a URL, asking what one belongs to, a 1:1, a time of day, coordinates, a file
 * name, or a question (questions read; they rarely create). Each adds a related-only concept.
 */
export const SHAPE_HINTS = patterns("shape_hints", { actions: ACTION_WORDS });
