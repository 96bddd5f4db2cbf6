// A session's side of the tenant's analytics (issue 32). Each operation is counted in memory from
// its input, its answer and its storage cost — the request writes nothing for it. After the
// response the counts go to the tenant's analytics object as one batch per day (the session object
// sends them, as it sends learned uses); a batch the object did not take waits in trove_meta and
// goes with the next send. Search wording is kept only as the ordinary words learning keeps
// (learning/vocabulary.ts), read after the response.
import type { Sql } from "../db/sql";
import { learnedTerms } from "../learning/vocabulary";
import {
  combineDays,
  type DayBatch,
  dayOf,
  emptyDay,
  type FailingKind,
  relevanceBin,
  WORDING_RELEVANCE,
} from "./analytics-batch";

/** A use credits the newest search that returned the tool this recently… */
const SEARCH_WINDOW_MS = 10 * 60_000;
/** …among the session's last few searches (kept in memory only). */
const SEARCHES_KEPT = 8;
/** Failing queries held for one send; more are counted but their wording is dropped. */
const WORDING_PER_SEND = 50;
/** Days a stored outbox holds at most: a session that cannot reach the object for longer loses the oldest. */
const OUTBOX_DAYS = 7;
/** Tool names a once-a-day catalog report carries at most. */
const CATALOG_REPORT = 2_000;

interface RecentSearch {
  at: number;
  results: ReadonlySet<string>;
  credited: boolean;
}

/** What the session object tells about one finished operation. */
export interface ObservedOp {
  name: string;
  input: unknown;
  /** The answer, or undefined when the operation failed. */
  value?: unknown;
  rowsRead: number;
  rowsWritten: number;
  at: number;
}

export class SessionAnalytics {
  readonly #days = new Map<string, DayBatch>();
  /** Queries of failing searches, turned into words when the batch is taken. */
  #failing: { day: string; query: string; kind: FailingKind }[] = [];
  #searches: RecentSearch[] = [];
  /** The last day this object reported its catalog's names. */
  #reportedDay = "";
  /** The catalog changed since its names were last reported: the next batch reports them. */
  #catalogChanged = false;
  /** Whether a batch waits in trove_meta `analytics_outbox`, once read. */
  #outbox: boolean | null = null;
  /** Each pending day's tools by name, so counting a search's results is a lookup per result. */
  readonly #tools = new Map<string, Map<string, [string, number, number]>>();

  constructor(
    /** A connection of its own: what analytics writes never shows in a request's cost. */
    private readonly sql: Sql,
    private readonly known: (word: string) => boolean,
  ) {}

  /** Counts one finished operation; touches no storage. */
  observe(op: ObservedOp): void {
    const day = this.day(op.at);
    day.counts.requests++;
    day.counts.rows_read += op.rowsRead;
    day.counts.rows_written += op.rowsWritten;
    if (op.value === undefined) {
      day.counts.errors++;
      return;
    }
    const input = (op.input ?? {}) as Record<string, unknown>;
    const value = op.value as Record<string, unknown>;
    switch (op.name) {
      case "tool_search":
        this.search(day, op.at, input, value);
        break;
      case "tool_resolve":
        if (value.decision === "allow" && typeof value.name === "string") this.use(day, value.name, op.at);
        else if (value.decision === "needs_approval" && input.approval_id === undefined)
          day.counts.approvals_asked++;
        break;
      case "catalog_sync":
        this.#catalogChanged = true;
        break;
      case "approval_decide":
        if (value.status === "approved") day.counts.approvals_granted++;
        else if (value.status === "denied") day.counts.approvals_denied++;
        break;
    }
  }

  private search(day: DayBatch, at: number, input: Record<string, unknown>, value: Record<string, unknown>) {
    const tools = Array.isArray(value.tools) ? (value.tools as { name: string; relevance: number }[]) : [];
    day.counts.searches++;
    for (const t of tools) this.addTool(day, t.name, 1, 0);
    this.#searches = [
      { at, results: new Set(tools.map((t) => t.name)), credited: false },
      ...this.#searches,
    ].slice(0, SEARCHES_KEPT);
    const query = typeof input.query === "string" ? input.query : "";
    const top = tools[0]?.relevance;
    if (top === undefined) day.counts.no_result++;
    else day.relevance[relevanceBin(top)] = (day.relevance[relevanceBin(top)] ?? 0) + 1;
    // Regex and exact-name searches say nothing about wording.
    const fts = value.search_type === "fts";
    const kind: FailingKind | null =
      top === undefined ? "no_result" : top < WORDING_RELEVANCE ? "low_relevance" : null;
    if (fts && kind && query.trim() !== "" && this.#failing.length < WORDING_PER_SEND)
      this.#failing.push({ day: day.day, query, kind });
  }

  /** The model used `tool` for real: counted, and the newest search that returned it is credited. */
  private use(day: DayBatch, tool: string, at: number): void {
    day.counts.uses++;
    this.addTool(day, tool, 0, 1);
    const search = this.#searches.find(
      (s) => !s.credited && at - s.at <= SEARCH_WINDOW_MS && s.results.has(tool),
    );
    if (search) {
      search.credited = true;
      day.counts.searches_used++;
    }
  }

  private addTool(day: DayBatch, name: string, found: number, used: number): void {
    let tools = this.#tools.get(day.day);
    if (!tools) {
      tools = new Map();
      this.#tools.set(day.day, tools);
    }
    const t = tools.get(name);
    if (t) {
      t[1] += found;
      t[2] += used;
    } else {
      const row: [string, number, number] = [name, found, used];
      tools.set(name, row);
      day.tools.push(row);
    }
  }

  private day(at: number): DayBatch {
    const key = dayOf(at);
    let day = this.#days.get(key);
    if (!day) {
      day = emptyDay(key);
      this.#days.set(key, day);
    }
    return day;
  }

  hasPending(): boolean {
    this.#outbox ??=
      this.sql.one(`SELECT 1 AS x FROM trove_meta WHERE key = 'analytics_outbox'`) !== undefined;
    return this.#days.size > 0 || this.#outbox;
  }

  /**
   * The batch to send: what the outbox holds and what was counted since, with the failing wording
   * as words and, on the first batch of a day or after a catalog change, the catalog's names.
   * Called after the response; it only reads (the tenant's object counts the session once a day).
   */
  take(): DayBatch[] {
    for (const { day, query, kind } of this.#failing) {
      const words = learnedTerms(query, this.known).sort().join(" ");
      if (words !== "") this.day(Date.parse(`${day}T00:00:00Z`)).wording.push([words, kind, 1]);
    }
    this.#failing = [];
    const fresh = [...this.#days.values()];
    this.#days.clear();
    this.#tools.clear();
    const newest = fresh
      .map((d) => d.day)
      .sort()
      .at(-1);
    const day = fresh.find((d) => d.day === newest);
    if (day && (day.day > this.#reportedDay || this.#catalogChanged)) {
      // Reported again after a restart: the tenant's upsert writes nothing for a name it has that day.
      this.#catalogChanged = false;
      this.#reportedDay = day.day;
      day.catalog = this.sql
        .all<{ name: string }>(
          `SELECT name FROM trove_tools WHERE allowed = 1 AND effective_mode = 'deferred' ORDER BY name LIMIT ?`,
          CATALOG_REPORT,
        )
        .map((r) => r.name);
    }
    return combineDays([...this.stored(), ...fresh]);
  }

  /** The object took the batch: nothing waits any more. */
  sent(): void {
    if (this.#outbox !== false) this.sql.run(`DELETE FROM trove_meta WHERE key = 'analytics_outbox'`);
    this.#outbox = false;
  }

  /** The object did not take the batch: it waits in the outbox (the newest OUTBOX_DAYS days). */
  failed(batch: DayBatch[]): void {
    const kept = combineDays(batch).slice(-OUTBOX_DAYS);
    this.sql.run(
      `INSERT INTO trove_meta (key, value) VALUES ('analytics_outbox', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      JSON.stringify(kept),
    );
    this.#outbox = true;
  }

  private stored(): DayBatch[] {
    if (this.#outbox === false) return [];
    const row = this.sql.one<{ value: string }>(
      `SELECT value FROM trove_meta WHERE key = 'analytics_outbox'`,
    );
    if (!row) return [];
    try {
      return JSON.parse(row.value) as DayBatch[];
    } catch {
      return [];
    }
  }

  /** The session's storage was erased. */
  reset(): void {
    this.#days.clear();
    this.#tools.clear();
    this.#failing = [];
    this.#searches = [];
    this.#reportedDay = "";
    this.#catalogChanged = false;
    this.#outbox = null;
  }
}
