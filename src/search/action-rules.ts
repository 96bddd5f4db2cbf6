// How a candidate's name meets the request's action and object (issue 29): a name that is the pair
// counts stronger (PAIR_BOOST), a name that leads with another of the catalog's actions is less
// relevant (ACTION_CONFLICT). Names, statistics and sentence structure only, no word list.
import type { ActionObject } from "./action-object";

/** What these rules read of a candidate, each read once per search (fts-pipeline). */
export interface RowNames {
  /** The terms that name the row itself, its namespace's left out (FtsIndex.identity). */
  identity: readonly string[];
  /** The terms of its whole name, its namespace's included (FtsIndex.nameTerms). */
  names: readonly string[];
  /** The operations it offers through a parameter (FtsIndex.offers). */
  offers: readonly string[];
  /** What its first sentence says it does (FtsSearch.purpose). */
  said: ActionObject | null;
}

/**
 * How much stronger a row's match counts when it is the request's action and object: by its name,
 * in either order of naming conventions — `create_issue` (verb first, the head noun last) or
 * `issue_create` (the noun, then the verb) for "create a github issue", every word of the object's
 * phrase in the name or its namespace (`add_issue_comment` acts on a comment, not on an issue) — or
 * by its description's first sentence (saysPair).
 */
export const PAIR_BOOST = 0.2;

/** Per row, 1 + PAIR_BOOST when it is the request's pair, 1 otherwise. */
export function pairFactors(request: ActionObject | null, rows: readonly RowNames[]): number[] {
  const pair = pairAmong(
    request,
    rows.map((r) => r.names),
  );
  if (!pair) return rows.map(() => 1);
  return rows.map(({ identity, names, offers, said }) => {
    const paired =
      namesPair(identity, names, pair) || offersPair(offers, names, pair) || saysPair(said, names, pair);
    return paired ? 1 + PAIR_BOOST : 1;
  });
}

/**
 * How much lower a row's relevance is when the request asks for one of the catalog's actions and
 * the row's name leads with another: "list the open issues" against gitlab.create_issue, in a
 * catalog without a tool that lists them. A row whose name holds the request's action anywhere
 * (issue_list), that offers it through a parameter, or whose first sentence says it, does not
 * contradict it. Relevance only: the order stays as it was. Fitted on the suite's macro AUROC
 * (0.852 → 0.857 at 0.3; 0.856 at 0.2, 0.857 at 0.4, 0.855 at 0.5); taking the actions from every
 * name end, or from one-word names too, read nouns as actions and measured lower.
 */
export const ACTION_CONFLICT = 0.3;

/** Per row, whether its name leads with an action of the catalog other than the one asked for. */
export function contradictions(
  asked: ActionObject | null,
  actions: ReadonlySet<string> | undefined,
  rows: readonly RowNames[],
): boolean[] {
  if (!asked || !actions?.has(asked.action)) return rows.map(() => false);
  return rows.map(({ identity, offers, said }) => {
    const lead = identity[0];
    if (lead === undefined || lead === asked.action || !actions.has(lead)) return false;
    return (
      !identity.includes(asked.action) && !offers.includes(asked.action) && said?.action !== asked.action
    );
  });
}

/**
 * The request's pair with only the object's words that some candidate's name holds: a word no name
 * has (a value, "install the polystat plugin"; a kind said only in descriptions) cannot tell names
 * apart, so it does not stop a name from being the pair.
 */
function pairAmong(pair: ActionObject | null, names: readonly (readonly string[])[]): ActionObject | null {
  if (!pair) return null;
  const named = new Set(names.flat());
  return { ...pair, phrase: pair.phrase.filter((t) => named.has(t)) };
}

function namesPair(terms: readonly string[], whole: readonly string[], pair: ActionObject): boolean {
  if (terms.length < 2) return false;
  const first = terms[0];
  const last = terms[terms.length - 1];
  const positioned =
    (first === pair.action && last === pair.object) ||
    (last === pair.action && terms[terms.length - 2] === pair.object);
  // The whole object, not its head alone: "get issue details" is not get_workspace_details.
  return positioned && pair.phrase.every((t) => whole.includes(t));
}

/** Whether a row offers the request's action and its name holds every word of the object's phrase. */
function offersPair(offers: readonly string[], whole: readonly string[], pair: ActionObject): boolean {
  return offers.includes(pair.action) && pair.phrase.every((t) => whole.includes(t));
}

/**
 * Whether a row that says what it does (`said`, from its first sentence) says the request's action
 * and head, with every word of the request's object phrase in its phrase or its name: a name that
 * holds no verb (`issue_write`, `fetch`) still states its action and object in its description.
 */
function saysPair(said: ActionObject | null, names: readonly string[], pair: ActionObject): boolean {
  if (!said || said.action !== pair.action || said.object !== pair.object) return false;
  return pair.phrase.every((t) => said.phrase.includes(t) || names.includes(t));
}
