// What a tenant learned from use (issue 27): for each tool, the ordinary words people used when they
// went on to use it, with how many independent sources taught each word. Sessions index the words
// whose support passes their thresholds (src/learning/session-learning.ts).
//
// Stored is vocabulary, never text: a term is a word taughtTerms (./vocabulary.ts) let through, a
// source is a salted hash of an end user (when the host names one) or else of a session. Each
// (tool, term, source) is one row, so a source adds at most its weight (≤ 1) to a term's support
// and 1 to its agreement: both grow with distinct sources, not with repetition. A source counts at most
// LEARNING.usesPerSourcePerTool uses of a tool and LEARNING.usesPerSource in all. Evidence decays
// (half-life LEARNING.halfLifeDays) and is dropped when too old; a tool keeps at most
// LEARNING.rowsPerTool rows, and when over, the least supported terms go first — a burst of new
// evidence cannot push out well-supported terms.
import type { Sql } from "../db/sql";
import { sha256Hex } from "../search/hash";
import { TERM, taughtTerms, teaches } from "./vocabulary";

/** Every bound of the tenant's store, with the reason for its value (docs/search.md#learning-from-use). */
export const LEARNING = {
  /** Evidence loses half its weight in this many days: a month keeps up with a changing catalog. */
  halfLifeDays: 30,
  /** Evidence older than this is deleted: past six half-lives it weighs under 2 %. */
  maxAgeDays: 180,
  /** Uses of one tool one source (user or session) may teach: a conversation repeats itself. */
  usesPerSourcePerTool: 3,
  /** Uses one source may teach in all (each term counts once per source anyway): bounds its rows. */
  usesPerSource: 200,
  /** Rows (term × source) kept per tool: storage stays bounded whatever the traffic. */
  rowsPerTool: 400,
  /** Rows kept for the whole tenant: 100 tools at their bound, 20 MB at most. */
  rows: 40_000,
  /** Terms per tool sent to sessions, best supported first: more never changes a ranking. */
  termsServed: 32,
} as const;

const DAY = 86_400_000;

/**
 * The version of what taughtTerms lets through that the stored evidence follows (learn_meta
 * `rule`); a store below it drops what the rule now leaves out on its next start. 1: past
 * participles left out.
 */
const TAUGHT_RULE = 1;

/** One use of a tool, as a session reports it: the terms it teaches and how strongly. */
export interface LearnedUse {
  tool: string;
  /** When the tool was used (ms since the epoch). */
  at: number;
  /** Each term once, with its weight: 1 for the search the tool came from, less for other words. */
  terms: readonly (readonly [term: string, weight: number])[];
}

/** Who taught: the session, and the end user when the host names one (SessionConfig.user). */
export interface LearningSource {
  session: string;
  user: string | null;
}

/** A tool's learned terms as sessions receive them, best supported first. */
export interface ServedTool {
  tool: string;
  /**
   * `support`: the decayed weights of the term's sources (how strongly it was taught);
   * `agreement`: the decayed count of those sources, each counting 1 whatever its weight (how many
   * independent people or sessions taught it). Thresholds read agreement; the strength of a counted
   * term reads support. Served before agreement existed, a term has support only (read as both).
   */
  terms: { term: string; support: number; agreement?: number }[];
}

export interface LearningState {
  /** Rows held: one per (tool, term, source), after caps and expiry. */
  rows: number;
  /** Uses merged since the store began (or was last told to forget everything). */
  merged: number;
  /** Tools with learned terms. */
  tools: number;
  /** Distinct sources (end users, or sessions without one) behind the rows held. */
  sources: number;
  /** Increases with every merge that changed what sessions index. */
  version: number;
  /** When uses were last merged (ISO 8601), null before the first. */
  last_merge_at: string | null;
}

export interface LearnedTool {
  tool: string;
  /** Every term stored for the tool, best supported first: this is all learning keeps of it. */
  terms: { term: string; support: number; sources: number; last_at: string }[];
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS learn_evidence (
    tool TEXT NOT NULL,
    term TEXT NOT NULL,
    source TEXT NOT NULL,
    weight REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (tool, term, source)
  )`,
  `CREATE INDEX IF NOT EXISTS learn_evidence_at ON learn_evidence (at)`,
  `CREATE TABLE IF NOT EXISTS learn_uses (
    source TEXT NOT NULL,
    tool TEXT NOT NULL,
    uses INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (source, tool)
  )`,
  `CREATE TABLE IF NOT EXISTS learn_served (
    tool TEXT PRIMARY KEY,
    terms TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS learn_served_version ON learn_served (version)`,
  `CREATE TABLE IF NOT EXISTS learn_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
];

/** How much a row of evidence still counts: SQL binding now as ?1, the half-life (ms) as ?2. */
const DECAY = `pow(0.5, max(0, ?1 - at) / ?2)`;
/** A term's support, the decayed weights of its sources. */
const SUPPORT = `sum(weight * ${DECAY})`;
/** A term's agreement, its sources decayed as support is but each counting 1 (ServedTool). */
const AGREEMENT = `sum(${DECAY})`;
const HALF_LIFE_MS = LEARNING.halfLifeDays * DAY;

export class LearningStore {
  constructor(private readonly sql: Sql) {}

  /** Whether this object holds a store at all (of this version or the first). */
  exists(): boolean {
    return (
      this.sql.one(`SELECT 1 AS x FROM sqlite_master WHERE name IN ('learn_meta', 'learn_pairs') LIMIT 1`) !==
      undefined
    );
  }

  /**
   * Creates the schema; a store of the first version (whole queries, issue 15) is converted once:
   * each query keeps only the terms taughtTerms lets through, taught by its session, and the
   * queries themselves are deleted. A store whose evidence predates the rule taughtTerms follows
   * now (TAUGHT_RULE) drops what it leaves out, once. Run inside a transaction.
   */
  migrate(now: number): void {
    for (const statement of SCHEMA) this.sql.run(statement);
    if (this.meta("salt") === 0) this.setMeta("salt", 1 + Math.floor(Math.random() * 2 ** 52));
    if (this.meta("rule") < TAUGHT_RULE) {
      this.dropUntaught(now);
      this.setMeta("rule", TAUGHT_RULE);
    }
    const old = this.sql.one(`SELECT 1 AS x FROM sqlite_master WHERE name = 'learn_pairs'`);
    if (!old) return;
    const pairs = this.sql.all<{ session: string; tool: string; query: string; at: number }>(
      `SELECT session, tool, query, at FROM learn_pairs ORDER BY at`,
    );
    for (const pair of pairs) {
      const terms = taughtTerms(pair.query, () => false).map((t) => [t, 1] as const);
      this.merge({ session: pair.session, user: null }, { tool: pair.tool, at: pair.at, terms }, now);
    }
    this.sql.run(`DROP TABLE learn_pairs`);
    this.sql.run(`DROP TABLE IF EXISTS learn_tools`);
    this.rewrite(this.learnedTools(), now);
  }

  /** Merges a session's uses; returns how many were taken (not over their source's caps). */
  record(from: LearningSource, uses: readonly LearnedUse[], now: number): number {
    const touched = new Set<string>();
    let taken = 0;
    for (const use of uses) {
      if (this.merge(from, use, now)) {
        taken++;
        touched.add(use.tool);
      }
    }
    for (const tool of this.expire(now)) touched.add(tool);
    for (const tool of touched) this.bound(tool, now);
    this.boundTenant(now);
    this.setMeta("last_merge_at", now);
    this.setMeta("merged", this.meta("merged") + taken);
    // Support decays with time: once a day every tool's served terms are recomputed.
    const everything = now - this.meta("rewritten_at") >= DAY;
    if (everything) this.setMeta("rewritten_at", now);
    const tools = everything ? this.learnedTools() : [...touched];
    if (tools.length > 0) this.rewrite(tools, now);
    return taken;
  }

  /** Tools whose served terms changed after `since` (a version), and the version to ask from next. */
  changedSince(since: number): { version: number; tools: ServedTool[] } {
    const version = this.meta("version");
    if (since >= version) return { version, tools: [] };
    const rows = this.sql.all<{ tool: string; terms: string }>(
      `SELECT tool, terms FROM learn_served WHERE version > ? ORDER BY tool`,
      since,
    );
    return {
      version,
      tools: rows.map((r) => ({
        tool: r.tool,
        terms: (JSON.parse(r.terms) as [string, number, number?][]).map(([term, support, agreement]) =>
          agreement === undefined ? { term, support } : { term, support, agreement },
        ),
      })),
    };
  }

  state(): LearningState {
    const counts = this.sql.one<{ rows: number; sources: number; tools: number }>(
      `SELECT count(*) AS rows, count(DISTINCT source) AS sources, count(DISTINCT tool) AS tools
       FROM learn_evidence`,
    ) ?? { rows: 0, sources: 0, tools: 0 };
    const last = this.meta("last_merge_at");
    return {
      ...counts,
      merged: this.meta("merged"),
      version: this.meta("version"),
      last_merge_at: last === 0 ? null : new Date(last).toISOString(),
    };
  }

  /** Everything stored for one tool; null when nothing is. */
  tool(name: string, now: number): LearnedTool | null {
    const terms = this.supports(name, now);
    if (terms.length === 0) return null;
    return {
      tool: name,
      terms: terms.map((t) => ({
        term: t.term,
        support: Math.round(t.support * 1000) / 1000,
        sources: t.sources,
        last_at: new Date(t.last).toISOString(),
      })),
    };
  }

  /** Forgets everything learned (tool: for that tool only); returns the rows removed. */
  forget(tool: string | null, now: number): number {
    const tools = tool === null ? this.servedTools() : [tool];
    const { rowsWritten } =
      tool === null
        ? this.sql.run(`DELETE FROM learn_evidence`)
        : this.sql.run(`DELETE FROM learn_evidence WHERE tool = ?`, tool);
    if (tool === null) {
      this.sql.run(`DELETE FROM learn_uses`);
      this.setMeta("merged", 0);
    } else this.sql.run(`DELETE FROM learn_uses WHERE tool = ?`, tool);
    this.rewrite(tools, now);
    return rowsWritten;
  }

  /** One use into the evidence, unless its source is over a cap. Terms are checked again here. */
  private merge(from: LearningSource, use: LearnedUse, now: number): boolean {
    const terms = use.terms.filter(([term, weight]) => TERM.test(term) && teaches(term) && weight > 0);
    if (use.tool === "" || terms.length === 0) return false;
    const source = this.source(from);
    const counts = this.sql.one<{ all: number; tool: number }>(
      `SELECT coalesce(sum(uses), 0) AS "all", coalesce(sum(uses) FILTER (WHERE tool = ?2), 0) AS tool
       FROM learn_uses WHERE source = ?1`,
      source,
      use.tool,
    ) ?? { all: 0, tool: 0 };
    if (counts.all >= LEARNING.usesPerSource || counts.tool >= LEARNING.usesPerSourcePerTool) return false;
    const at = Math.min(use.at, now);
    this.sql.run(
      `INSERT INTO learn_uses (source, tool, uses, at) VALUES (?, ?, 1, ?)
       ON CONFLICT (source, tool) DO UPDATE SET uses = uses + 1, at = max(at, excluded.at)`,
      source,
      use.tool,
      at,
    );
    this.sql.run(
      `INSERT INTO learn_evidence (tool, term, source, weight, at)
         SELECT ?1, value ->> 0, ?2, min(1, value ->> 1), ?3 FROM json_each(?4) WHERE true
       ON CONFLICT (tool, term, source) DO UPDATE SET
         weight = max(weight, excluded.weight), at = max(at, excluded.at)`,
      use.tool,
      source,
      at,
      JSON.stringify(terms),
    );
    return true;
  }

  /** A salted hash: sources can be counted apart, never named. */
  private source(from: LearningSource): string {
    const who = from.user === null ? `session:${from.session}` : `user:${from.user}`;
    return sha256Hex(`${this.meta("salt")}:${who}`).slice(0, 24);
  }

  /** Drops evidence past the maximum age; returns the tools it taught. */
  private expire(now: number): string[] {
    const cutoff = now - LEARNING.maxAgeDays * DAY;
    this.sql.run(`DELETE FROM learn_uses WHERE at < ?`, cutoff);
    return [
      ...new Set(
        this.sql
          .all<{ tool: string }>(`DELETE FROM learn_evidence WHERE at < ? RETURNING tool`, cutoff)
          .map((r) => r.tool),
      ),
    ];
  }

  /** Keeps a tool under LEARNING.rowsPerTool rows: its least supported terms go first. */
  private bound(tool: string, now: number): void {
    const rows =
      this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM learn_evidence WHERE tool = ?`, tool)?.n ?? 0;
    if (rows <= LEARNING.rowsPerTool) return;
    const weakest = this.supports(tool, now).reverse();
    const drop: string[] = [];
    let left = rows;
    for (const t of weakest) {
      if (left <= LEARNING.rowsPerTool) break;
      drop.push(t.term);
      left -= t.sources;
    }
    this.sql.run(
      `DELETE FROM learn_evidence WHERE tool = ? AND term IN (SELECT value FROM json_each(?))`,
      tool,
      JSON.stringify(drop),
    );
  }

  /** Keeps the tenant under LEARNING.rows: the least supported (tool, term) pairs go first. */
  private boundTenant(now: number): void {
    const rows = this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM learn_evidence`)?.n ?? 0;
    if (rows <= LEARNING.rows) return;
    this.sql.run(
      `DELETE FROM learn_evidence WHERE (tool, term) IN (
         SELECT tool, term FROM learn_evidence GROUP BY tool, term
         ORDER BY ${SUPPORT} ASC, max(at) ASC LIMIT ?3)`,
      now,
      HALF_LIFE_MS,
      rows - LEARNING.rows,
    );
  }

  /** A tool's terms with their support and sources, best supported first. */
  private supports(
    tool: string,
    now: number,
  ): { term: string; support: number; agreement: number; sources: number; last: number }[] {
    return this.sql.all<{ term: string; support: number; agreement: number; sources: number; last: number }>(
      `SELECT term, ${SUPPORT} AS support, ${AGREEMENT} AS agreement, count(*) AS sources, max(at) AS last
       FROM learn_evidence WHERE tool = ?3 GROUP BY term ORDER BY support DESC, term`,
      now,
      HALF_LIFE_MS,
      tool,
    );
  }

  private learnedTools(): string[] {
    return this.sql.all<{ tool: string }>(`SELECT DISTINCT tool FROM learn_evidence`).map((r) => r.tool);
  }

  private servedTools(): string[] {
    return this.sql
      .all<{ tool: string }>(`SELECT tool FROM learn_served WHERE terms != '[]'`)
      .map((r) => r.tool);
  }

  /** Recomputes what sessions index for `tools`, under a new version when anything changed. */
  private rewrite(tools: readonly string[], now: number): void {
    const version = this.meta("version") + 1;
    let changed = false;
    for (const tool of tools) {
      const terms = JSON.stringify(
        this.supports(tool, now)
          .slice(0, LEARNING.termsServed)
          .map((t) => [t.term, Math.round(t.support * 100) / 100, Math.round(t.agreement * 100) / 100]),
      );
      const current = this.sql.one<{ terms: string }>(`SELECT terms FROM learn_served WHERE tool = ?`, tool);
      if (current?.terms === terms || (current === undefined && terms === "[]")) continue;
      this.sql.run(
        `INSERT INTO learn_served (tool, terms, version) VALUES (?, ?, ?)
         ON CONFLICT (tool) DO UPDATE SET terms = excluded.terms, version = excluded.version`,
        tool,
        terms,
        version,
      );
      changed = true;
    }
    if (changed) this.setMeta("version", version);
  }

  /**
   * Deletes the evidence for terms that taughtTerms no longer lets through (past participles,
   * stored before it left them out), and serves the tools that held them anew: what is stored
   * follows the rule that stores it. Reads each distinct term once.
   */
  private dropUntaught(now: number): void {
    const terms = this.sql
      .all<{ term: string }>(`SELECT DISTINCT term FROM learn_evidence`)
      .map((r) => r.term)
      .filter((term) => !teaches(term));
    if (terms.length === 0) return;
    const list = JSON.stringify(terms);
    const tools = this.sql
      .all<{ tool: string }>(
        `SELECT DISTINCT tool FROM learn_evidence WHERE term IN (SELECT value FROM json_each(?))`,
        list,
      )
      .map((r) => r.tool);
    this.sql.run(`DELETE FROM learn_evidence WHERE term IN (SELECT value FROM json_each(?))`, list);
    this.rewrite(tools, now);
  }

  private meta(key: string): number {
    return this.sql.one<{ value: number }>(`SELECT value FROM learn_meta WHERE key = ?`, key)?.value ?? 0;
  }

  private setMeta(key: string, value: number): void {
    this.sql.run(
      `INSERT INTO learn_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      key,
      value,
    );
  }
}
