// The action a request asks for and the thing it acts on, read from sentence structure alone
// (issue 29): the same reading for a request and for a tool's first sentence.
import { OBJECT_STARTERS } from "./phrasing";
import { QUERY_STOPWORDS, STOPWORDS } from "./synonyms";
import { wordTerms } from "./text";
import { words } from "./words";

/** An action and what it acts on: the object phrase's terms, its last (the head) as `object`. */
export interface ActionObject {
  action: string;
  object: string;
  phrase: readonly string[];
}

/** A description's first sentence ends here, or at its first clause mark, or after this many characters. */
const PURPOSE_CHARS = 160;

/**
 * What a tool says it does: the action and object of its description's first sentence, read as a
 * request's are (actionObject). "Create a github issue, or edit one. …" → creat, issu (phrase
 * github, issu).
 */
export function purposeOf(description: string): ActionObject | null {
  return actionObject(purposeSentence(description));
}

/** A description's first sentence (or clause, or PURPOSE_CHARS characters). */
export function purposeSentence(description: string): string {
  const start = description.slice(0, PURPOSE_CHARS);
  const end = start.search(/[.!?;:](\s|$)/);
  return end < 0 ? start : start.slice(0, end);
}

/**
 * The request's action and what it acts on, read from its structure: its first word that is not a
 * function word, then the run of words after it (past articles and possessives) up to the next
 * function word — the object's phrase, whose last word is its head. "create a github issue" →
 * creat, issu (phrase github, issu).
 */
export function actionObject(text: string): ActionObject | null {
  const all = words(text).filter((w) => !QUERY_STOPWORDS.has(w));
  const i = all.findIndex((w) => !STOPWORDS.has(w));
  if (i < 0) return null;
  let start = i + 1;
  while (start < all.length && OBJECT_STARTERS.has(all[start] as string)) start++;
  let end = start;
  while (end < all.length && !STOPWORDS.has(all[end] as string)) end++;
  if (end === start) return null;
  const action = wordTerms(all[i] as string).at(-1);
  const object = wordTerms(all[end - 1] as string).at(-1);
  const phrase = all.slice(start, end).flatMap(wordTerms);
  return action && object && action !== object ? { action, object, phrase } : null;
}
