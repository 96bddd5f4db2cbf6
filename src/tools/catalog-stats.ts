// What search reads of a session's catalog as a whole: how many tools it may find, the vocabulary of
// their index (document frequencies, near spellings, the words it knows) and of the learned words it
// leaves out, the words its names start and end with, what each description says it does, and how
// long descriptions are. Each is read once after a write; the counts, the names and the description
// length in one pass over the tools.
import type { Sql } from "../db/sql";
import { OWN_TEXT_COLUMNS_SQL } from "../db/tool-columns";
import { type ActionObject, actionObject, purposeSentence } from "../search/action-object";
import { IndexVocabulary } from "../search/index-vocabulary";
import { indexText } from "../search/text";
import { localTerms } from "./tool-index";

/** A tool's first sentence as search reads it (CatalogStats.purpose). */
export interface Purpose {
  said: ActionObject | null;
  terms: string;
}

/** How many allowed tools a session holds, by loading mode. */
export interface CatalogCounts {
  tools: number;
  deferred: number;
  always: number;
}

/**
 * What one pass over the allowed tools reads: their counts, their names (made NameWords when first
 * asked for) and their descriptions' mean length. At 10,000 tools each pass reads every row (an
 * index would be another row written per tool in every new session), and a session's first search
 * made four of them.
 */
interface Summary {
  counts: CatalogCounts;
  names: { f_name: string; f_namespace: string }[] | null;
  descriptionLength: number;
}

/**
 * Which of `terms` (index terms) some tool's own text says: its name, namespace, tags, description
 * or examples (OWN_TEXT_COLUMNS_SQL), read from the index's vocabulary in one statement. Such a word
 * is the catalog's, whatever people taught: learning counts it against the catalog's own only from
 * min_support_contested (src/learning/session-learning.ts, unindexedFrequencies).
 */
export function saidByOwnText(sql: Sql, terms: readonly string[]): Set<string> {
  const rows = sql.all<{ term: string }>(
    `SELECT DISTINCT term FROM trove_tools_vocab_col
     WHERE term IN (SELECT value FROM json_each(?)) AND col IN (${OWN_TEXT_COLUMNS_SQL})`,
    JSON.stringify(terms),
  );
  return new Set(rows.map((r) => r.term));
}

/** The words names start or end with (nameEnds), and those names of two or more words start with. */
interface NameWords {
  starts: Set<string>;
  ends: Set<string>;
}

export class CatalogStats extends IndexVocabulary {
  /** What each tool's first sentence says, read on first use (purpose). */
  readonly #purposes = new Map<string, Purpose>();
  #summary: Summary | null = null;
  #names: NameWords | null = null;
  #near: Map<string, number> | null = null;

  constructor(sql: Sql) {
    super(sql, "trove_tools");
  }

  /** Forgets what it read: the catalog changed. */
  override invalidate(): void {
    super.invalidate();
    this.#purposes.clear();
    this.#summary = null;
    this.#names = null;
  }

  /** Forgets the vocabulary and the learned words counted beside it (learned text changed). */
  override forgetTerms(): void {
    super.forgetTerms();
    this.#near = null;
  }

  /**
   * How many allowed tools hold each term among their learned words short of their threshold
   * (f_learned_near: not in the full-text index, so its vocabulary does not count them), for the
   * terms no tool's own text says. A word the catalog says keeps the weight the catalog gives it:
   * otherwise two people teaching "refund" to a dozen other tools would make it count for little,
   * and a tool that matches the request's other words would pass the refund tool (learning asks
   * min_support_contested, not two people, before such a word counts against the catalog's). Read
   * through the partial index of the tools that have such words, once after learned text changes.
   */
  unindexedFrequencies(): ReadonlyMap<string, number> {
    if (this.#near) return this.#near;
    const near = new Map<string, number>();
    const rows = this.sql.all<{ terms: string }>(
      `SELECT f_learned_near AS terms FROM trove_tools INDEXED BY trove_tools_learned_near
       WHERE f_learned_near != '' AND allowed = 1`,
    );
    for (const { terms } of rows)
      for (const term of new Set(terms.split(" ")))
        if (term !== "") near.set(term, (near.get(term) ?? 0) + 1);
    if (near.size > 0) for (const term of saidByOwnText(this.sql, [...near.keys()])) near.delete(term);
    this.#near = near;
    return near;
  }

  /** Documents in the index: the tools the policy allows (from the one pass). */
  size(): number {
    return this.summary().counts.tools;
  }

  /** Allowed tools by loading mode. */
  counts(): CatalogCounts {
    return this.summary().counts;
  }

  /**
   * Whether the session's tools use `word` (any field, normalized as the index is): a catalog's
   * own words may be learned even when no dictionary has them (src/learning/vocabulary.ts).
   */
  knows(word: string): boolean {
    const vocabulary = this.vocabulary();
    const terms = indexText(word).split(" ");
    return terms.length > 0 && terms.every((term) => term !== "" && (vocabulary.get(term) ?? 0) > 0);
  }

  /**
   * What a tool's description's first sentence says, read once until the next write: its action
   * and object (src/search/action-object.ts purposeOf), and its normalized terms when the
   * description says more than that sentence ("" otherwise: a one-sentence description is all
   * purpose already; tool-search's purpose field).
   */
  purpose(name: string, description: string): Purpose {
    let read = this.#purposes.get(name);
    if (read === undefined) {
      const sentence = purposeSentence(description);
      const more = sentence.trim().length < description.trim().length - 1;
      read = { said: actionObject(sentence), terms: more ? indexText(sentence.trim()) : "" };
      this.#purposes.set(name, read);
    }
    return read;
  }

  /**
   * The mean length in index terms of the searchable tools' descriptions (0 for an empty catalog):
   * what a description's length is measured against in re-scoring, as BM25 measures a document
   * against its whole collection (tool-search's meanLengths).
   */
  descriptionLength(): number {
    return this.summary().descriptionLength;
  }

  /**
   * The terms searchable tools' names start or end with, their namespaces' terms left out (`creat`
   * and `bucket` of s3.create_bucket): the words this catalog names operations and things by. Read
   * once after each write, and only when a search meets a tool that offers operations (f_offers).
   */
  nameEnds(): ReadonlySet<string> {
    return this.names().ends;
  }

  /**
   * The terms searchable tools' names of two or more words lead with, their namespaces' terms left
   * out (`creat` of s3.create_bucket, `issu` of issue_write): where names lead with a verb, the
   * actions this catalog offers (action-rules' ACTION_CONFLICT). Read with nameEnds.
   */
  nameStarts(): ReadonlySet<string> {
    return this.names().starts;
  }

  private names(): NameWords {
    if (!this.#names) {
      const names: NameWords = { starts: new Set(), ends: new Set() };
      for (const row of this.summary().names ?? []) {
        const terms = localTerms(row.f_name, row.f_namespace);
        if (terms.length === 0) continue;
        names.ends.add(terms[0] as string);
        names.ends.add(terms[terms.length - 1] as string);
        if (terms.length > 1) names.starts.add(terms[0] as string);
      }
      this.#names = names;
      // Read into NameWords: the rows are not needed again until the next write.
      if (this.#summary) this.#summary.names = null;
    }
    return this.#names;
  }

  private summary(): Summary {
    if (!this.#summary) {
      const rows = this.sql.all<{
        f_name: string;
        f_namespace: string;
        effective_mode: string;
        words: number;
      }>(
        `SELECT f_name, f_namespace, effective_mode,
                CASE WHEN f_description = '' THEN 0
                ELSE length(f_description) - length(replace(f_description, ' ', '')) + 1 END AS words
         FROM trove_tools WHERE allowed = 1`,
      );
      let deferred = 0;
      let always = 0;
      let words = 0;
      for (const row of rows) {
        if (row.effective_mode === "deferred") deferred++;
        else if (row.effective_mode === "always") always++;
        words += row.words;
      }
      this.#summary = {
        // Every allowed tool is deferred or always loaded (LoadingMode): the index holds them all.
        counts: { tools: rows.length, deferred, always },
        names: rows,
        descriptionLength: rows.length > 0 ? words / rows.length : 0,
      };
    }
    return this.#summary;
  }
}
