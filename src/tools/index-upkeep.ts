// Keeps the tools' FTS5 index compact. FTS5 writes each transaction's changes as a new segment and
// marks replaced rows deleted instead of rewriting old segments; its automatic merging keeps the
// segment count bounded but leaves the index fragmented after a bulk rewrite (learned text for every
// tool, a catalog re-sync that changes most descriptions), and every later search then reads the
// deleted entries too: at 10,000 tools such an index searched ~30 % slower (bench/RESULTS.md).

/** A tidy is due once rewritten rows reach this share of the index… */
const TIDY_SHARE = 0.1;
/** …and at least this many rows: small indexes and small changes are left to FTS5's merging. */
const TIDY_MIN = 100;

export class IndexUpkeep {
  /** Index rows updated or deleted since the index was last merged into one segment. */
  #churn = 0;
  /** The churn when the open transaction began, or null when none is open (begin, rollback). */
  #atBegin: number | null = null;

  /** Records rows that a write replaced or deleted in the index. */
  note(rows: number): void {
    this.#churn += rows;
  }

  /** Whether a tidy may be due whatever the index's size (no SQL needed to tell). */
  pending(): boolean {
    return this.#churn >= TIDY_MIN;
  }

  /** Whether rewrites since the last tidy call for one, for an index of `size` documents. */
  due(size: number): boolean {
    return this.#churn >= Math.max(TIDY_MIN, TIDY_SHARE * size);
  }

  /** Merges the index into one segment, dropping deleted entries (FTS5 'optimize'). */
  tidy(run: (statement: string) => void): void {
    run(`INSERT INTO trove_tools_fts (trove_tools_fts) VALUES ('optimize')`);
    this.#churn = 0;
  }

  /** A transaction begins: what it notes is undone by `rollback`, kept by `commit`. */
  begin(): void {
    this.#atBegin = this.#churn;
  }

  commit(): void {
    this.#atBegin = null;
  }

  /** The index was dropped: nothing is left to merge. */
  reset(): void {
    this.#churn = 0;
    this.#atBegin = null;
  }

  /** The open transaction rolled back: its rewrites never happened. */
  rollback(): void {
    if (this.#atBegin !== null) this.#churn = this.#atBegin;
    this.#atBegin = null;
  }
}
