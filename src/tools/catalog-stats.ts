// What search reads of a session's catalog as a whole: how many tools it may find, the vocabulary of
// their index (document frequencies, near spellings, the words it knows), the words its names start
// and end with, and what each description says it does. Each is read once after a write.
import type { Sql } from "../db/sql";
import { type ActionObject, purposeOf, purposeSentence } from "../search/action-object";
import { IndexVocabulary } from "../search/index-vocabulary";
import { indexText } from "../search/text";
import { localTerms } from "./tool-index";

export class CatalogStats extends IndexVocabulary {
  /** What each tool's description says it does, read on first use (purposeOf). */
  readonly #purposes = new Map<string, ActionObject | null>();
  /** The terms of each tool's first sentence, read on first use (purposeTerms). */
  readonly #purposeTerms = new Map<string, string>();
  #nameEnds: Set<string> | null = null;

  constructor(sql: Sql) {
    super(sql, "trove_tools");
  }

  /** Forgets what it read: the catalog changed. */
  override invalidate(): void {
    super.invalidate();
    this.#purposes.clear();
    this.#purposeTerms.clear();
    this.#nameEnds = null;
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

  /** What a tool's description says it does (src/search/action-object.ts purposeOf), cached until the next write. */
  purposeOf(name: string, description: string): ActionObject | null {
    let said = this.#purposes.get(name);
    if (said === undefined) {
      said = purposeOf(description);
      this.#purposes.set(name, said);
    }
    return said;
  }

  /**
   * The normalized terms of a tool's first sentence when its description says more than that
   * sentence ("" otherwise: a one-sentence description is all purpose already), cached until the
   * next write.
   */
  purposeTerms(name: string, description: string): string {
    let terms = this.#purposeTerms.get(name);
    if (terms === undefined) {
      const sentence = purposeSentence(description).trim();
      terms = sentence.length < description.trim().length - 1 ? indexText(sentence) : "";
      this.#purposeTerms.set(name, terms);
    }
    return terms;
  }

  /**
   * The terms searchable tools' names start or end with, their namespaces' terms left out (`creat`
   * and `bucket` of s3.create_bucket): the words this catalog names operations and things by. Read
   * once after each write, and only when a search meets a tool that offers operations (f_offers).
   */
  nameEnds(): ReadonlySet<string> {
    if (!this.#nameEnds) {
      const ends = new Set<string>();
      const rows = this.sql.all<{ f_name: string; f_namespace: string }>(
        `SELECT f_name, f_namespace FROM trove_tools WHERE allowed = 1`,
      );
      for (const row of rows) {
        const terms = localTerms(row.f_name, row.f_namespace);
        if (terms.length === 0) continue;
        ends.add(terms[0] as string);
        ends.add(terms[terms.length - 1] as string);
      }
      this.#nameEnds = ends;
    }
    return this.#nameEnds;
  }
}
