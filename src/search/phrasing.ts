// How everyday requests phrase actions: nouns used as verbs before an object ("file a bug"), phrasal
// verbs ("get rid of"), things spelled out ("pull requests"), and what a query's shape suggests (a
// #channel, an email address). Read by queryTermGroups (text.ts); the word lists are related.ts's.
import { stem } from "porter2";
import { ACTION_WORDS, THING_PHRASES } from "./synonyms";

/**
 * Words that are nouns in tool descriptions but verbs in requests: "file a bug", "book a room",
 * "ship the fix", "text the team". Before an article or a possessive (the shape of an object
 * phrase) the word acts: its own term counts only as a related one, and its action terms join it.
 */
export const VERB_SENSES: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    file: ["create", "submit"],
    open: ["open", "create"],
    book: ["schedule", "create", "reserve"],
    post: ["send", "message", "create"],
    ship: ["deploy", "release"],
    text: ["send", "sms"],
    email: ["send"],
    mail: ["send"],
    message: ["send"],
    ping: ["send", "message"],
    page: ["incident", "oncall", "alert"],
    log: ["create", "record"],
    note: ["create", "comment"],
    tag: ["label", "update"],
    pin: ["pin"],
    bill: ["invoice", "charge"],
    charge: ["charge", "payment", "create"],
    order: ["create", "purchase"],
    table: ["postpone", "update"],
    document: ["create", "write"],
    chart: ["create", "plot"],
    map: ["directions", "geocode"],
    screen: ["screenshot"],
    host: ["deploy"],
    stage: ["deploy", "commit"],
    package: ["build"],
    store: ["save", "upload"],
    back: ["backup", "copy"],
  }),
);

/**
 * Light verbs: so common in English, and in so many idioms ("go through", "take me to", "give it a
 * ring"), that alone they say little about the action; the words around them say it. A tool that
 * happens to be named with one (go_back, take_screenshot) should not win on it: a light verb's term
 * only stands in, like a related term.
 */
export const LIGHT_VERBS: ReadonlySet<string> = new Set(
  (
    "go goes going went gone take takes took taking taken give gives gave giving given keep keeps kept " +
    "keeping bring brings brought bringing come comes came coming hold holds held holding"
  ).split(" "),
);

/**
 * Set phrases that only pace a request and name nothing: "who's said yes so far?" asks nothing
 * about distance, "by the way" nothing about routes. Dropped before a query is read.
 */
export const FILLER_PHRASES =
  /\b(?:so far|thus far|as far as i know|by the way|at the moment|for the time being|in a bit|while you['\u2019]re at it)\b/giu;

/**
 * Verbs of placing that, before "a" or "an", put something new somewhere: "drop a marker on the
 * dashboard", "leave a note on the ticket", "put an event on my calendar". The action is adding;
 * the verb's other senses ("drop the table", "leave the channel") do not apply.
 */
export const PLACING_VERBS: ReadonlySet<string> = new Set(
  "drop drops leave leaves put puts stick pop".split(" "),
);

/** Words after which a verb-or-noun word reads as a verb: articles and possessives. */
export const OBJECT_STARTERS: ReadonlySet<string> = new Set(
  "a an the this that these those my our your his her their its some another".split(" "),
);

/**
 * Phrasal verbs: a verb and its particle mean an action neither word says ("get rid of" → delete,
 * "hand over" → assign, "push back" → reschedule). Each found in a query adds a concept of related
 * terms, as a shape hint does.
 */
export const PHRASAL_VERBS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    "get rid": ["delete"],
    "get into": ["create", "add"],
    "came with": ["attachment"],
    "comes with": ["attachment"],
    "pull down": ["download", "get"],
    "hand over": ["assign"],
    "look over": ["review"],
    "fire off": ["send"],
    "send out": ["send"],
    "write up": ["draft", "create"],
    "set up": ["create", "configure"],
    "shut down": ["stop", "delete"],
    "spin up": ["create", "run"],
    "tear down": ["delete"],
    "roll back": ["rollback", "revert"],
    "kick off": ["run", "start"],
    "sign up": ["create", "register"],
    "check out": ["checkout", "view"],
    "back up": ["backup", "copy"],
    "wake up": ["page", "incident"],
    "put off": ["reschedule", "update"],
    "push back": ["reschedule", "update"],
    "move up": ["reschedule", "update"],
    "bring up": ["get", "show"],
    "pull up": ["get", "show"],
    "look up": ["search", "get"],
    "find out": ["search", "get"],
    "fill in": ["fill", "input"],
    "fill out": ["fill", "input"],
    "turn off": ["disable", "stop"],
    "turn on": ["enable", "start"],
    "clean up": ["delete"],
    "close out": ["close", "resolve", "transition"],
    "sign off": ["approve"],
    "say yes": ["accept", "respond"],
    "say no": ["decline", "respond"],
    "go back": ["back", "previous"],
    "scale down": ["scale", "replicas"],
    "scale up": ["scale", "replicas"],
    "dig up": ["search", "find"],
    "show up": ["appear"],
  }),
);

/** Meanings of verbs that read rather than act ("pull up", "look up"): they name no action. */
const READINGS: ReadonlySet<string> = new Set("get show search find view read list".split(" "));

/** Whether a verb of these meanings asks for something to be done rather than read (TermGroup.acts). */
export function doesSomething(meanings: readonly string[]): boolean {
  return !meanings.some((m) => READINGS.has(m));
}

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
const IRREGULAR_PAST: ReadonlyMap<string, string> = new Map(
  Object.entries({
    got: "get",
    gotten: "get",
    said: "say",
    woke: "wake",
    woken: "wake",
    spun: "spin",
    tore: "tear",
    torn: "tear",
    wrote: "write",
    written: "write",
    sent: "send",
    brought: "bring",
    found: "find",
    dug: "dig",
    went: "go",
    gone: "go",
    shown: "show",
  }),
);

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
export const SHAPE_HINTS: readonly { pattern: RegExp; related: readonly string[] }[] = [
  // A #name is a chat channel; #42 is an issue or pull request number.
  { pattern: /(^|\s)#\p{L}[\p{L}\p{N}_-]*/u, related: ["channel", "message"] },
  // Adding people (names, @handles) to a channel is inviting them: "add Bob and Carla to #launch".
  {
    pattern: /\b[Aa]dd\s+(?:(?:\p{Lu}[\p{L}'-]*|@[\w.-]+)(?:,?\s+(?:and\s+)?)?)+to\s+#\p{L}/u,
    related: ["invite", "member"],
  },
  // A terse reference to one numbered thing asks to see it: "gh issue #42", "PR #17?".
  { pattern: /^\s*(?:\S+\s+){0,2}#\d+[?!.]?\s*$/u, related: ["get"] },
  { pattern: /[\w.+-]+@[\w-]+\.[\w.]+/u, related: ["email"] },
  // Setting something to a value: "move ENG-142 to In Review", "bump the priority to High".
  { pattern: /^(?!.*\bfrom\b).*\bto\s+(?:\p{Lu}\p{Ll}|\d|['"])/u, related: ["update", "set"] },
  { pattern: /https?:\/\/\S+/u, related: ["url"] },
  // Asking what one belongs to: "which teams am I in?", "channels I'm a member of" (not "I'm in
  // Berlin").
  {
    pattern:
      /\b(?:am i\s+(?:in|on|part of|a member of)|(?:i['\u2019]m|i am)\s+(?:part of|a member of)|i belong to)\b/iu,
    related: ["joined", "member"],
  },
  // A 1:1 is a meeting.
  { pattern: /(^|\s)1:1s?\b/u, related: ["meeting"] },
  // Just one thing to another, and no more: a conversion ("utc to pst", "usd to eur"); not when
  // the first word is an action ("upload to s3" says what it does).
  {
    pattern: new RegExp(
      `^\\s*(?!(?:${[...ACTION_WORDS].join("|")})\\s)\\S+\\s+(?:to|into|->|\u2192)\\s+\\S+\\s*\\??\\s*$`,
      "iu",
    ),
    related: ["convert"],
  },
  // An amount of money: "$49", "€12.50", "300 USD".
  {
    pattern: /(?:[$€£¥]\s?\d|\b\d[\d,.]*\s?(?:usd|eur|gbp|jpy|dollars?|euros?|bucks)\b)/iu,
    related: ["amount"],
  },
  // A time of day: "9am", "3:30 pm".
  { pattern: /\b\d{1,2}(:\d{2})?\s?(am|pm)\b/iu, related: ["time"] },
  // A latitude and longitude: "59.91, 10.75".
  {
    pattern: /(^|[\s(])-?\d{1,2}\.\d+,\s*-?\d{1,3}\.\d+\b/u,
    related: ["coordinates", "latitude", "longitude"],
  },
  { pattern: /\b[\w-]+\.(csv|json|ya?ml|toml|txt|md|pdf|log|py|ts|js|sql|xml|html)\b/iu, related: ["file"] },
  {
    pattern:
      /^\s*(how many|how much|which|what|who|whom|where|when|is|are|was|were|do|does|did|has|have|any)\b/iu,
    related: ["list", "get", "search"],
  },
];
