// Turns names and prose into normalized search terms: the same function feeds the index and queries.
import { stem } from "porter2";
import { canonicalJson, sha256Hex } from "./hash";
import { documentEntries, wordSet } from "./lexicon";
import {
  FILLER_PHRASES,
  LIGHT_VERBS,
  OBJECT_STARTERS,
  PHRASAL_VERBS,
  PLACING_VERBS,
  phrasalVerbs,
  SHAPE_HINTS,
  thingWords,
  VERB_SENSES,
} from "./phrasing";
import { QUERY_EXPANSIONS } from "./related";
import { requestSpan } from "./request-span";
import { ABBREVIATIONS, QUERY_STOPWORDS, STOPWORDS, SYNONYMS, THING_ABBREVIATIONS } from "./synonyms";
import { bareToken, isName, words } from "./words";

/**
 * A past participle ("bugs assigned to me", "what's deployed in staging", "the generated report"):
 * it describes a state to look for, not an action to take. A word ending in -ed that stems to
 * something else ("need", "speed" and "embed" stem to themselves).
 */
export function participle(word: string): boolean {
  return word.length >= 5 && word.endsWith("ed") && stem(word) !== word;
}

/** Words that end in "s" without being the plural of the word before it ("news" is not "new"s). */
const NOT_PLURAL = wordSet("not_plural");

function plural(word: string): boolean {
  return word.endsWith("s") && !word.endsWith("ss") && !NOT_PLURAL.has(word);
}

function canonical(word: string): string[] {
  const phrase = ABBREVIATIONS.get(word);
  if (phrase) return phrase.map((w) => stem(SYNONYMS.get(w) ?? w));
  const synonym = SYNONYMS.get(word) ?? (plural(word) ? SYNONYMS.get(word.slice(0, -1)) : undefined);
  return [stem(synonym ?? word)];
}

/** The index terms of one lower-case word as documents index it (none for a stopword). */
export function wordTerms(word: string): string[] {
  return STOPWORDS.has(word) ? [] : canonical(word);
}

/**
 * Bump when `words`, `canonical`, `plural` or the stemmer change how document text becomes terms
 * (the word lists are hashed in `indexTextVersion` on their own), or when a record's search fields
 * change (9: a tool's f_offers, src/tools/tool-index.ts; 10: f_returns, the output schema's text;
 * 11: accents folded as the index folds them, words of scripts written without spaces).
 */
const NORMALIZER_REVISION = 11;
let textVersion: string | undefined;

/**
 * What an index's text was normalized by: the revision above and every word list documents go
 * through. An object whose stored rows carry another version re-normalizes them (src/session/index-text.ts).
 */
export function indexTextVersion(): string {
  textVersion ??= sha256Hex(
    canonicalJson([NORMALIZER_REVISION, documentEntries(), [...PHRASAL_VERBS.keys()]]),
  ).slice(0, 16);
  return textVersion;
}

/**
 * Normalized terms of document text: stopwords dropped, synonyms folded, stemmed; each phrasal verb
 * also as the one word it is written closed ("set up" adds "setup"). Keeps repeats.
 */
export function documentTerms(text: string): string[] {
  const out: string[] = [];
  const all = words(text);
  for (const word of all) out.push(...wordTerms(word));
  for (const { closed } of phrasalVerbs(all)) out.push(...canonical(closed));
  return out;
}

/** Document text as stored in an FTS column: normalized terms joined by spaces. */
export function indexText(text: string): string {
  return documentTerms(text).join(" ");
}

export const MAX_QUERY_TERMS = 32;

/** One concept of a query: the word's own term(s), plus related terms that may stand in for it. */
export interface TermGroup {
  terms: string[];
  related: string[];
  /**
   * The word is one of the request's arguments rather than its capability: it has a digit or is part
   * of a token that does (PROJ-88, 3pm, 59.91), or is capitalized inside a sentence (Ana, Lisbon).
   */
  argument?: boolean;
  /** The word follows an article or a possessive ("the build", "my checkout"): a thing, not an action. */
  noun?: boolean;
  /**
   * The word counts in the query's mass but matches only at a related term's weight: quoted text
   * and #names spell out what the request acts on ('Sign in', #launch), a light verb (go, take,
   * give) takes its meaning from the words around it, and a past participle ("assigned to me")
   * describes a state rather than an action. Such a word names no action (UNASKED_ACTION).
   */
  weak?: boolean;
  /**
   * The word describes a state to look for, not an action to take: a past participle ("bugs
   * assigned to me", "the generated report") or the word after a subject's copula ("which PRs are
   * still open"). A tool whose action it names does not match it.
   */
  state?: boolean;
  /**
   * The word is only in the request's context: before it ("now that the PR is merged, …") or after
   * it ("… need it for the new ticket"). Its terms only stand in (as related ones).
   */
  context?: boolean;
  /**
   * The word stands for a thing written as several words ("PRs", "CI", "timezone"), or is a word of
   * one spelled out ("pull requests"): it asks for no action of its words ("merge" of MR).
   */
  thing?: boolean;
  /**
   * The word is a verb that asks for something to be done, not read: a phrasal verb ("look over my
   * PR", "wake up whoever's on call") or a verb-or-noun word before its object ("file a bug"). The
   * query names an action whichever words the tools' names use for it (UNASKED_ACTION).
   */
  acts?: boolean;
  /**
   * The word is unknown to the index, and its related terms are the indexed words it may be a
   * misspelling of (set by the search, which knows the index).
   */
  corrected?: boolean;
  /**
   * The word stands for a phrase (an abbreviation: "mkdir" for make directory, "PR" for pull
   * request): its terms match together, each for its share, rather than as alternatives.
   */
  phrase?: boolean;
}

/** Lowercased words of the query's arguments (see TermGroup.argument). */
function argumentWords(query: string): Set<string> {
  const out = new Set<string>();
  const tokens = query.trim().split(/\s+/);
  for (const [i, token] of tokens.entries()) {
    const bare = bareToken(token);
    if (/\p{N}/u.test(bare) || isName(bare, tokens[i - 1])) for (const w of words(bare)) out.add(w);
  }
  return out;
}

/**
 * Words that spell a value the request acts on, not what it asks for: a number ("page 2", "under
 * $200"), the words of a dotted name (a file, "draft.docx"; a collection, "shop.orders") and the
 * words without a digit of a token that has one, split from it (the letters of an id: "sub" of
 * sub_1Pq9, "pay" of PAY-1432). A word that holds its digits ("s3", "oauth2") is a word like any other.
 */
function valueParts(query: string): Set<string> {
  const out = new Set<string>();
  for (const token of query.trim().split(/\s+/)) {
    const bare = bareToken(token);
    const parts = words(bare);
    if (/^\p{N}+$/u.test(bare)) out.add(bare);
    else if (parts.length > 1 && DOTTED.test(bare)) for (const w of parts) out.add(w);
    else if (parts.length > 1 && parts.some((w) => /\p{N}/u.test(w)))
      for (const w of parts) if (!/\p{N}/u.test(w)) out.add(w);
  }
  return out;
}

/** A dotted name without spaces: a file (draft.docx), a collection (shop.orders), a number (52.52). */
const DOTTED = /^[\p{L}\p{N}_-]+(?:\.[\p{L}\p{N}_-]+)+$/u;

/** Quoted text ('Sign in', "fix login") and #names: what the request acts on, spelled out. */
const LITERAL =
  /(?:^|\s)(?:(['"`\u2018\u201c])([^'"`\u2019\u201d]+)['"`\u2019\u201d](?=$|[\s.,!?;:)])|#([\p{L}\p{N}_-]+))/gu;

/** Words of the query's literals: quoted text, #names (channels, tags) and URLs. */
function literalWords(query: string): Set<string> {
  const out = new Set<string>();
  for (const m of query.matchAll(LITERAL)) for (const w of words(m[2] ?? m[3] ?? "")) out.add(w);
  // A URL says what the request acts on, and its host may say where (github.com).
  // A scheme other than the web's names the service itself (s3://, gs://): a word like any other.
  for (const token of query.split(/\s+/)) {
    if (!URL.test(token)) continue;
    const [scheme, ...rest] = words(token);
    if (scheme !== undefined && WEB_SCHEME.test(scheme)) out.add(scheme);
    for (const w of rest) out.add(w);
  }
  return out;
}

/** A URL: a scheme (letters, digits, +, -, .) and "://": https://…, s3://bucket/key. */
const URL = /^\p{L}[\p{L}\p{N}+.-]*:\/\//u;
const WEB_SCHEME = /^(?:https?|ftp|file|wss?)$/;

/**
 * Words of the query's identifiers: paths (owner/repo, feature/login, out/reports/2025) and email
 * addresses (dana@example.com). They name what the request acts on, and their words are names, not
 * capabilities: "acme/web" is not about the web, "dana@example.com" not about examples.
 */
function identifierWords(query: string): Set<string> {
  const out = new Set<string>();
  for (const token of query.split(/\s+/))
    if (!URL.test(token) && /[\p{L}\p{N}][/@][\p{L}\p{N}]/u.test(token))
      for (const w of words(token)) out.add(w);
  return out;
}

/** The concepts relevance counts (RELEVANCE_CURVE): those with terms of their own, not only stand-ins. */
export function conceptCount(groups: readonly TermGroup[]): number {
  return groups.filter((g) => g.terms.length > 0).length;
}

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const INDEFINITE = wordSet("indefinite");

/** Where `word` stands as a whole word in `lower` (a lowercased query). */
function* occurrences(lower: string, word: string): Generator<number> {
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
    if (!WORD_CHAR.test(lower[at - 1] ?? "") && !WORD_CHAR.test(lower[at + word.length] ?? "")) yield at;
  }
}

/** Whether `word` comes right before one of `next` somewhere in `query` ("file a …", "drop an …"). */
function followedBy(query: string, word: string, next: ReadonlySet<string>): boolean {
  const lower = query.toLowerCase();
  for (const at of occurrences(lower, word)) {
    const following = /^\s+([\p{L}]+)/u.exec(lower.slice(at + word.length))?.[1];
    if (following !== undefined && next.has(following)) return true;
  }
  return false;
}

/**
 * Whether `word` names a thing somewhere in `query`: the head of a phrase after an article or a
 * possessive, right after it or with one word between ("the build", "the broken checkout"), or the
 * word between ("the tracking spreadsheet", "the checkout service") unless it folds to another word
 * ("a new page": new is create).
 */
function namedAsThing(query: string, word: string): boolean {
  const lower = query.toLowerCase();
  for (const at of occurrences(lower, word)) {
    const before = lower.slice(0, at).match(/[\p{L}\p{N}_]+/gu) ?? [];
    // The phrase's head: what follows is not another word of the phrase ("a new page": page).
    const rest = lower.slice(at + word.length);
    const after = /^\s*([\p{L}\p{N}_]+)/u.exec(rest)?.[1];
    const head = after === undefined || /^[^\s\p{L}\p{N}_]/u.test(rest) || STOPWORDS.has(after);
    if (head && before.slice(-2).some((w) => OBJECT_STARTERS.has(w))) return true;
    if (!SYNONYMS.has(word) && OBJECT_STARTERS.has(before.at(-1) ?? "")) return true;
  }
  return false;
}

const MODALS = wordSet("modals");

/**
 * Where a query's words say what someone can or will do: the verb after a modal that follows a
 * word ("a link folks can click", "so she can leave comments"). It describes, it does not ask.
 */
function describedWords(all: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (let i = 1; i + 1 < all.length; i++) {
    if (!MODALS.has(all[i] as string)) continue;
    if (!STOPWORDS.has(all[i + 1] as string)) out.add(i + 1);
  }
  return out;
}

const COPULAS = wordSet("copulas");

/**
 * Where a query's words say what state something is in: the word after a copula that follows a
 * word ("the build is green", "statements are executing").
 */
function predicateWords(all: readonly string[]): Set<number> {
  const out = new Set<number>();
  for (let i = 1; i < all.length; i++) {
    if (!COPULAS.has(all[i] as string)) continue;
    const j = i + 1;
    if (j < all.length && !STOPWORDS.has(all[j] as string)) out.add(j);
  }
  return out;
}

/**
 * The concepts of a query, in order, with stopwords dropped and at most MAX_QUERY_TERMS distinct
 * terms in all. A word whose terms all appeared earlier adds no group.
 *
 * @example queryTermGroups("open a bug") // [{terms:["open", "creat"], related:[]}, {terms:["issu"], related:[], noun: true}]
 */
export function queryTermGroups(text: string): TermGroup[] {
  const query = text.replace(FILLER_PHRASES, " ");
  const seen = new Set<string>();
  const groups: TermGroup[] = [];
  const { start: cut, end } = requestSpan(query);
  const context = new Set([...(cut > 0 ? words(query.slice(0, cut)) : []), ...words(query.slice(end))]);
  const request = new Set(words(query.slice(cut, end)));
  const args = argumentWords(query);
  const values = valueParts(query);
  const literals = literalWords(query);
  const identifiers = identifierWords(query);
  const all = words(query);
  // A query that is only identifiers ("acme/web") is searched for them, as literals.
  const said = all.filter((w) => !STOPWORDS.has(w) && !QUERY_STOPWORDS.has(w));
  if (said.every((w) => identifiers.has(w))) {
    for (const w of identifiers) literals.add(w);
    identifiers.clear();
  }
  const phrasal = phrasalVerbs(all);
  const inPhrasal = new Set(phrasal.flatMap((p) => [p.verb, p.particle]));
  const predicates = predicateWords(all);
  const described = describedWords(all);
  const things = thingWords(all);
  for (const [i, word] of all.entries()) {
    if (STOPWORDS.has(word) || QUERY_STOPWORDS.has(word) || inPhrasal.has(i) || identifiers.has(word))
      continue;
    const own = canonical(word).filter((t) => !seen.has(t));
    if (own.length === 0) continue;
    for (const t of own) seen.add(t);
    const placing = PLACING_VERBS.has(word) && followedBy(query, word, INDEFINITE);
    const senses = placing ? ["add"] : VERB_SENSES.get(word);
    const verb = senses !== undefined && followedBy(query, word, OBJECT_STARTERS);
    // A verb-or-noun word acting on an object: the action leads, the noun only stands in.
    const terms = verb ? [...new Set(senses.flatMap(canonical))] : own;
    const expansions = verb ? own : (QUERY_EXPANSIONS.get(word) ?? []).flatMap(canonical);
    // Placing something new is adding, nothing else: "drop a marker" has no delete in it.
    const related = placing ? [] : [...new Set(expansions)].filter((t) => !terms.includes(t));
    for (const t of terms) seen.add(t);
    // Words only in the context of a mid-task request ("now that the PR is merged, …") stand in.
    if (context.has(word) && !request.has(word))
      groups.push({ terms: [], related: [...terms, ...related], context: true });
    else if (participle(word) || predicates.has(i)) groups.push({ terms, related, weak: true, state: true });
    else if (values.has(word)) groups.push({ terms, related, weak: true, argument: true });
    else if (literals.has(word) || LIGHT_VERBS.has(word) || described.has(i))
      groups.push({ terms, related, weak: true });
    else {
      const group: TermGroup = args.has(word) ? { terms, related, argument: true } : { terms, related };
      if (!verb && namedAsThing(query, word)) group.noun = true;
      if (verb) group.acts = true;
      if (THING_ABBREVIATIONS.has(word) || things.has(i)) group.thing = true;
      // A name that is a thing ("the Archive folder") stands for itself, not for what its word does.
      if (group.argument && group.noun) group.related = [];
      if (!verb && ABBREVIATIONS.has(word)) {
        // An abbreviation's related words say where it belongs ("mkdir", "ls": a local disk), a
        // hint beside it rather than an alternative to it.
        groups.push(terms.length > 1 ? { ...group, related: [], phrase: true } : { ...group, related: [] });
        if (related.length > 0) groups.push({ terms: [], related });
      } else groups.push(group);
    }
    if (seen.size >= MAX_QUERY_TERMS) break;
  }
  // A phrasal verb is one concept, the action it means; its words make none of their own.
  // Its closed form ("setup") comes first: learned text and documents may say the phrase itself.
  for (const { closed, meaning, past } of phrasal) {
    const terms = [...new Set([...canonical(closed), ...meaning.flatMap(canonical)])].filter(
      (t) => !seen.has(t),
    );
    for (const t of terms) seen.add(t);
    if (terms.length === 0) continue;
    // In a past form it describes a state, as a past participle does ("who's said yes so far?").
    if (past) groups.push({ terms, related: [], weak: true, state: true });
    else groups.push({ terms, related: [], acts: true });
  }
  // A related term stands in for a missing word; when the query has that word itself, the term
  // belongs to that word's concept only (no double credit).
  const direct = new Set(groups.flatMap((g) => g.terms));
  for (const g of groups) g.related = g.related.filter((t) => !direct.has(t));
  for (const hint of SHAPE_HINTS) {
    if (!hint.pattern.test(query)) continue;
    const related = hint.related.flatMap(canonical).filter((t) => !seen.has(t));
    if (related.length > 0) groups.push({ terms: [], related });
  }
  return groups;
}
