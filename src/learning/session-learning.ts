// A session's side of learning from use (issue 27). When the model really uses a tool — allowed,
// or approved by a person — the session gathers the words that led there: the search that found
// the tool, the searches just before it whose results went unused (the same request in other
// words), and the user's own message to `context`. It keeps only their ordinary words
// (./vocabulary.ts) and queues them for the tenant's learning object. It also keeps the tenant's
// learned terms in the tools' index (field f_learned), no more than REFRESH_MS out of date, counting
// only terms with enough independent support (LearningThresholds).
import type { Sql } from "../db/sql";
import { indexText } from "../search/text";
import type { EventLog, RecentEvent } from "../state/events";
import { saidByOwnText } from "../tools/catalog-stats";
import type { LearnedUse, ServedTool } from "./learning-store";
import { taughtTerms } from "./vocabulary";

export type { LearnedUse };

/** A session ranks with what its tenant learned up to this long before. */
export const REFRESH_MS = 60_000;
/** A use teaches the search it came from when that search is this recent… */
const SEARCH_WINDOW_MS = 10 * 60_000;
/** …among the session's last few searches. */
const SEARCHES_LOOKED_AT = 8;
/**
 * Searches this shortly before the one that found the tool, whose own results went unused, asked
 * for the same thing in other words ("reformulations"); at most REFORMULATIONS per use.
 */
const REFORMULATION_WINDOW_MS = 3 * 60_000;
const REFORMULATIONS = 2;
/** An explicit tool_activate after a search stands for that search this long. */
const ACTIVATION_WINDOW_MS = 60 * 60_000;
/** User messages (context's `query`) remembered, newest last. */
const REQUESTS_KEPT = 4;

/**
 * How much words count that did not themselves find the tool — a reformulated search, the user's
 * message: they were said about the same need, but less directly than the search that found it.
 */
export const INDIRECT_WEIGHT = 0.5;

/** How much support a learned term needs before this session's index counts it (SessionConfig.learning). */
export interface LearningThresholds {
  /** A word no other tool of the catalog uses, for a tool that only reads. */
  min_support: number;
  /** The same for a tool that writes or acts outside (side effects not read or pure). */
  min_support_write: number;
  /** A word another tool's own name, description, tags or examples use: the catalog's own claim. */
  min_support_contested: number;
  /**
   * A word short of its threshold (min_support, or min_support_contested), for a tool that only
   * reads: it goes to the contender field (f_learned_near) and orders only the tools a request
   * already fits.
   */
  min_support_near: number;
  /**
   * A word the tool's own fields already hold: it goes to the contender field f_learned_own and
   * orders the tool among the tools a request already fits, which say the word too.
   */
  min_support_own: number;
}

/** Repetitions of a term in f_learned, the index's measure of its strength: 1 at its threshold, 3 at most. */
const MAX_LEVEL = 3;

interface Search {
  at: number;
  query: string;
  results: readonly string[];
}

export class SessionLearning {
  /** Uses noted, with the texts (and their weights) that led to each, until `take`. */
  #pending: { tool: string; at: number; texts: [string, number][] }[] = [];
  /** (tool, words) this object already taught: a session teaches each once. */
  readonly #taught = new Set<string>();
  /** Searches whose results were used: they are no one's reformulation. */
  readonly #used = new Set<string>();
  #requests: { query: string; at: number }[] = [];
  readonly #activated = new Map<string, Search>();
  /** The tenant's version this session's index holds; -1 when learned text was cleared. */
  #version = 0;
  #checkedAt = 0;
  /** The thresholds the index's learned text was computed with. */
  #thresholds = "";

  constructor(
    private readonly sql: Sql,
    private readonly events: EventLog,
    /** Whether a word is one of the session's catalog words (it may be learned even if not ordinary). */
    private readonly known: (word: string) => boolean,
  ) {}

  /** The user's message, sent with `context`: the next use teaches its words too, at INDIRECT_WEIGHT. */
  noteRequest(query: string, now: number): void {
    if (query.trim() === "") return;
    this.#requests = [...this.#requests, { query, at: now }].slice(-REQUESTS_KEPT);
  }

  /** A tool_activate: the recent search that returned the tool stands for it when the tool is used. */
  noteActivation(tool: string, now: number): void {
    const search = this.searches(now).find((s) => s.results.includes(tool));
    if (search) this.#activated.set(tool, search);
  }

  /**
   * The model used `tool` for real (allowed, or approved by a person) having chosen it at `at`:
   * the words that led there become a use to teach.
   */
  observeUse(tool: string, at: number): void {
    // Only the texts are noted here: their words are read after the response (take).
    const texts: [string, number][] = [];
    const add = (text: string, weight: number) => texts.push([text, weight]);
    const searches = this.searches(at);
    const activation = this.#activated.get(tool);
    const found =
      searches.find((s) => s.results.includes(tool)) ??
      (activation && at - activation.at <= ACTIVATION_WINDOW_MS ? activation : undefined);
    if (found && this.once(tool, found.query)) {
      add(found.query, 1);
      this.#used.add(key(found.query));
      const earlier = searches
        .filter(
          (s) =>
            s.at < found.at &&
            found.at - s.at <= REFORMULATION_WINDOW_MS &&
            !this.#used.has(key(s.query)) &&
            !s.results.includes(tool),
        )
        .slice(0, REFORMULATIONS);
      for (const s of earlier) {
        add(s.query, INDIRECT_WEIGHT);
        this.#used.add(key(s.query));
      }
    }
    const request = this.#requests.findLast((r) => r.at <= at && at - r.at <= SEARCH_WINDOW_MS);
    if (request && this.once(tool, `\u0001${request.query}`)) add(request.query, INDIRECT_WEIGHT);
    if (texts.length > 0) this.#pending.push({ tool, at, texts });
  }

  /** The session's recent full-text searches before `until`, newest first. */
  private searches(until: number): Search[] {
    return this.events
      .recent("tool_search_query", SEARCHES_LOOKED_AT, until - SEARCH_WINDOW_MS, until)
      .flatMap(({ at, data }: RecentEvent) => {
        const { query, results, effective_search_type: type } = data;
        if (type !== "fts" || typeof query !== "string" || query.trim() === "" || !Array.isArray(results))
          return [];
        return [{ at, query, results: results.filter((r): r is string => typeof r === "string") }];
      });
  }

  /** True the first time this session teaches `tool` these words. */
  private once(tool: string, words: string): boolean {
    const k = `${tool}\u0000${key(words)}`;
    if (this.#taught.has(k)) return false;
    this.#taught.add(k);
    return true;
  }

  hasPending(): boolean {
    return this.#pending.length > 0;
  }

  /**
   * The uses waiting to be sent, as the terms they teach; they are the caller's now. Called after
   * the response: reading words against the dictionary is no request's cost.
   */
  take(): LearnedUse[] {
    const pending = this.#pending;
    this.#pending = [];
    return pending.flatMap(({ tool, at, texts }) => {
      const terms = new Map<string, number>();
      for (const [text, weight] of texts)
        for (const term of taughtTerms(text, this.known))
          terms.set(term, Math.max(terms.get(term) ?? 0, weight));
      return terms.size === 0 ? [] : [{ tool, at, terms: [...terms] }];
    });
  }

  /** Whether the index's learned text may be more than REFRESH_MS old, or was computed otherwise. */
  stale(now: number, thresholds: LearningThresholds): boolean {
    if (this.#version !== -1 && this.#thresholds !== JSON.stringify(thresholds)) {
      // Other thresholds count other terms: every tool's learned text is fetched and computed again.
      this.#version = 0;
      this.#checkedAt = 0;
    }
    return now - this.#checkedAt >= REFRESH_MS;
  }

  /** The version to ask the tenant for changes after. */
  get version(): number {
    return Math.max(0, this.#version);
  }

  /**
   * Puts the tenant's learned terms in the tools' index; returns the tools changed. A term counts
   * when its agreement (the sources that taught it) reaches the threshold that applies to it,
   * repeated once more each time its support (their weights) doubles past that threshold (at most
   * MAX_LEVEL times); a term the tool's own fields hold only orders it among contenders
   * (learnedText). A tool this session does not hold is skipped (it gets its text when a later full
   * refresh finds it).
   */
  apply(
    version: number,
    tools: readonly ServedTool[],
    ids: ReadonlyMap<string, number>,
    thresholds: LearningThresholds,
    now: number,
  ): number {
    const held = tools.flatMap((t) => {
      const id = ids.get(t.tool);
      return id === undefined ? [] : [{ id, terms: t.terms }];
    });
    const rows = new Map(
      this.sql
        .all<DirectFields>(
          `SELECT id, side_effects, f_name, f_namespace, f_tags, f_description, f_examples
           FROM trove_tools WHERE id IN (SELECT value FROM json_each(?))`,
          JSON.stringify(held.map((t) => t.id)),
        )
        .map((r) => [r.id, r]),
    );
    const contested = new Map<string, boolean>();
    const elsewhere = (stem: string) => {
      let known = contested.get(stem);
      if (known === undefined) {
        known = saidByOwnText(this.sql, [stem]).has(stem);
        contested.set(stem, known);
      }
      return known;
    };
    let changed = 0;
    for (const { id, terms } of held) {
      const row = rows.get(id);
      if (!row) continue;
      const { learned, near, own } = learnedText(row, terms, thresholds, elsewhere);
      const { rowsWritten } = this.sql.run(
        `UPDATE trove_tools SET f_learned = ?1, f_learned_near = ?2, f_learned_own = ?3
         WHERE id = ?4 AND (f_learned != ?1 OR f_learned_near != ?2 OR f_learned_own != ?3)`,
        learned,
        near,
        own,
        id,
      );
      if (rowsWritten > 0) changed++;
    }
    this.#version = version;
    this.#checkedAt = now;
    this.#thresholds = JSON.stringify(thresholds);
    return changed;
  }

  /** A failed refresh: try again in a while, ranking with what the index holds meanwhile. */
  retryLater(now: number): void {
    this.#checkedAt = now - REFRESH_MS + 10_000;
  }

  /** Learning is off for this session: no learned text in its index. Returns the tools changed. */
  clear(): number {
    if (this.#version === -1) return 0;
    this.#version = -1;
    this.#checkedAt = 0;
    this.#pending = [];
    return this.sql.run(
      `UPDATE trove_tools SET f_learned = '', f_learned_near = '', f_learned_own = ''
       WHERE f_learned != '' OR f_learned_near != '' OR f_learned_own != ''`,
    ).rowsWritten;
  }

  /** Tools were added or changed: the next search fetches every learned term again. */
  catalogChanged(): void {
    if (this.#version !== -1) this.#version = 0;
    this.#checkedAt = 0;
  }

  /** The session's storage was erased. */
  reset(): void {
    this.#pending = [];
    this.#taught.clear();
    this.#used.clear();
    this.#requests = [];
    this.#activated.clear();
    this.#version = 0;
    this.#checkedAt = 0;
    this.#thresholds = "";
  }
}

interface DirectFields {
  id: number;
  side_effects: string;
  f_name: string;
  f_namespace: string;
  f_tags: string;
  f_description: string;
  f_examples: string;
}

/**
 * The learned text of one tool (see SessionLearning.apply): `learned`, the terms its own fields
 * lack that passed their threshold; `near`, those short of it that have min_support_near's
 * agreement (a read tool) or min_support_write's (a tool that changes something); `own`, the terms
 * its own fields hold that have min_support_own's (and, for a tool that changes something,
 * min_support_write's). `near` and `own` count only where the request already fits the tool
 * (fts-pipeline's contenders), so they reorder the tools a request fits and lift no other: of the
 * tools that all say "forecast", the one this tenant's people use when they say it.
 */
function learnedText(
  row: DirectFields,
  terms: ServedTool["terms"],
  thresholds: LearningThresholds,
  elsewhere: (stem: string) => boolean,
): { learned: string; near: string; own: string } {
  const says = new Set(
    [row.f_name, row.f_namespace, row.f_tags, row.f_description, row.f_examples].join(" ").split(" "),
  );
  const reads = row.side_effects === "read" || row.side_effects === "pure";
  const alone = reads ? thresholds.min_support : thresholds.min_support_write;
  const nearly = reads ? Math.min(thresholds.min_support_near, alone) : alone;
  // A word the tool says itself: the agreement it takes to prefer the tool to siblings that say it.
  const said = reads ? thresholds.min_support_own : Math.max(thresholds.min_support_own, alone);
  const out = { learned: [] as string[], near: [] as string[], own: [] as string[] };
  // Counted by agreement, strengthened by support: words that did not themselves find the tool
  // (INDIRECT_WEIGHT) need twice the sources for each further level.
  const add = (field: string[], stems: readonly string[], support: number, threshold: number) => {
    const level = Math.min(MAX_LEVEL, Math.max(1, 1 + Math.floor(Math.log2(support / threshold))));
    for (let i = 0; i < level; i++) field.push(...stems);
  };
  for (const { term, support, agreement = support } of terms) {
    const stems = indexText(term)
      .split(" ")
      .filter((s) => s !== "");
    const held = stems.filter((s) => says.has(s));
    if (held.length > 0 && agreement >= said) add(out.own, held, support, said);
    const gaps = stems.filter((s) => !says.has(s));
    if (gaps.length === 0) continue;
    const required = gaps.some(elsewhere) ? thresholds.min_support_contested : alone;
    // Short of its threshold, a word with the agreement `nearly` asks for counts as near.
    if (agreement >= required) add(out.learned, gaps, support, required);
    else if (agreement >= nearly) add(out.near, gaps, support, nearly);
  }
  return { learned: out.learned.join(" "), near: out.near.join(" "), own: out.own.join(" ") };
}

/** A query as the session compares it: trimmed, lower case. */
function key(query: string): string {
  return query.trim().toLowerCase();
}
