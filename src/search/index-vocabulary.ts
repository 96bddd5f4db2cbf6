// What ftsSearch reads of an FTS5 index as a whole (IndexStats): how many documents it may find and
// its vocabulary, each read once after a write. The tools' and the skills' stores build on it.
import type { Sql } from "../db/sql";
import type { IndexStats } from "./fts-pipeline";
import { frequenciesOf, readVocabulary } from "./fts-query";
import { nearTerms } from "./typos";

/** Each index's FTS5 vocabulary table. */
const VOCABULARIES = {
  trove_tools: "trove_tools_vocab",
  trove_skills: "trove_skills_vocab",
} as const;

export abstract class IndexVocabulary implements IndexStats {
  #vocabulary: Map<string, number> | null = null;

  constructor(
    protected readonly sql: Sql,
    private readonly table: keyof typeof VOCABULARIES,
  ) {}

  /** Forgets what it read: the index changed. */
  invalidate(): void {
    this.forgetTerms();
  }

  /** Forgets the vocabulary alone: indexed text changed, the documents did not (learned text). */
  forgetTerms(): void {
    this.#vocabulary = null;
  }

  /** Documents in the index: those the policy allows (each store counts its own). */
  abstract size(): number;

  /**
   * How many documents contain each normalized term. The whole FTS5 vocabulary is read once after
   * each write (a few ms at 10,000 tools) so that no search pays per-term lookups.
   */
  docFrequencies(terms: readonly string[]): Map<string, number> {
    return frequenciesOf(this.vocabulary(), terms);
  }

  /** Indexed terms an unknown query term may be a misspelling of. */
  nearTerms(term: string): string[] {
    return nearTerms(this.vocabulary(), term);
  }

  protected vocabulary(): Map<string, number> {
    this.#vocabulary ??= readVocabulary(this.sql, VOCABULARIES[this.table]);
    return this.#vocabulary;
  }
}
