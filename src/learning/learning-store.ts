// What a tenant learned from use: (query → tool) pairs from all its sessions, merged into one text
// per tool that sessions index as a search field of its own (src/learning/session-learning.ts).
//
// Each pair is evidence that a person or model asked for something in these words and then used
// the tool. Evidence decays (half-life LEARNING.halfLifeDays) and is dropped when too old; one
// session counts at most LEARNING.perSessionPerTool queries per tool and LEARNING.perSession in
// all, so no single conversation can steer a tenant's ranking. Queries are redacted of personal
// data before they are stored.
import type { Sql } from "../db/sql";
import { bareToken, isName } from "../search/text";
import { redactPii } from "../skills/pii";

export const LEARNING = {
  /** Evidence loses half its weight in this many days. */
  halfLifeDays: 30,
  /** Pairs older than this are forgotten. */
  maxAgeDays: 180,
  /** Distinct queries one session may teach for one tool. */
  perSessionPerTool: 3,
  /** Pairs one session may teach in all. */
  perSession: 60,
  /** Distinct queries that make up a tool's learned text, heaviest first. */
  queriesPerTool: 24,
  /** Characters of one query kept. */
  maxQueryChars: 200,
} as const;

const DAY = 86_400_000;

export interface LearnedPair {
  query: string;
  tool: string;
  /** When the tool was used (ms since the epoch). */
  at: number;
}

export interface LearningState {
  /** Pairs held (after caps, redaction and expiry). */
  pairs: number;
  /** Pairs merged since the store began (or was last told to forget everything). */
  merged: number;
  /** Tools with learned text. */
  tools: number;
  /** Sessions that contributed. */
  sessions: number;
  /** Increases with every merge that changed a tool's text. */
  version: number;
  /** When pairs were last merged (ISO 8601), null before the first. */
  last_merge_at: string | null;
}

export interface LearnedTool {
  tool: string;
  /** The text sessions index for the tool. */
  text: string;
  queries: { query: string; weight: number; sessions: number; last_at: string }[];
}

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS learn_pairs (
    session TEXT NOT NULL,
    tool TEXT NOT NULL,
    query TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (session, tool, query)
  )`,
  `CREATE INDEX IF NOT EXISTS learn_pairs_tool ON learn_pairs (tool)`,
  `CREATE INDEX IF NOT EXISTS learn_pairs_at ON learn_pairs (at)`,
  `CREATE TABLE IF NOT EXISTS learn_tools (
    tool TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    version INTEGER NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS learn_tools_version ON learn_tools (version)`,
  `CREATE TABLE IF NOT EXISTS learn_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL)`,
];

/**
 * A query as it is kept: personal data redacted, then names dropped — a capitalized word inside a
 * sentence (Jenna, Sydney, Acme) and the redaction marks — since a name is personal data, belongs to
 * one request, and would match the next request that names the same person or place; whitespace
 * collapsed, bounded. Product names go too ("in Stripe"): learned text counts only for words a
 * tool's own fields lack, and a tool's fields name its product.
 *
 * @example cleanQuery("what time is it in Sydney right now?") // "what time is it in right now?"
 */
export function cleanQuery(query: string): string {
  const words = redactPii(query).text.trim().split(/\s+/);
  const kept = words.filter((word, i) => {
    const bare = bareToken(word);
    return !REDACTION_MARK.test(bare) && !isName(bare, words[i - 1]);
  });
  return kept.join(" ").trim().slice(0, LEARNING.maxQueryChars);
}

const REDACTION_MARK = /^\[REDACTED_[A-Z]+\]$/;

export class LearningStore {
  constructor(private readonly sql: Sql) {
    for (const statement of SCHEMA) sql.run(statement);
  }

  /**
   * Merges a session's pairs; returns how many were new. Pairs over the session's caps, and
   * queries that are empty once redacted, are dropped.
   */
  record(session: string, pairs: readonly LearnedPair[], now: number): number {
    const touched = new Set<string>();
    let accepted = 0;
    for (const pair of pairs) {
      const query = cleanQuery(pair.query);
      if (query === "" || pair.tool === "") continue;
      const counts = this.sql.one<{ all: number; tool: number }>(
        `SELECT count(*) AS "all", count(*) FILTER (WHERE tool = ?2) AS tool FROM learn_pairs WHERE session = ?1`,
        session,
        pair.tool,
      ) ?? { all: 0, tool: 0 };
      if (counts.all >= LEARNING.perSession || counts.tool >= LEARNING.perSessionPerTool) continue;
      const at = Math.min(pair.at, now);
      const { rowsWritten } = this.sql.run(
        `INSERT INTO learn_pairs (session, tool, query, at) VALUES (?, ?, ?, ?)
         ON CONFLICT (session, tool, query) DO NOTHING`,
        session,
        pair.tool,
        query,
        at,
      );
      if (rowsWritten > 0) {
        accepted++;
        touched.add(pair.tool);
      }
    }
    for (const tool of this.expire(now)) touched.add(tool);
    this.setMeta("last_merge_at", now);
    this.setMeta("pairs_merged", this.meta("pairs_merged") + accepted);
    if (touched.size > 0) this.rewrite([...touched], now);
    return accepted;
  }

  /** Tools whose text changed after `since` (a version), and the version to ask from next. */
  changedSince(since: number): { version: number; tools: { tool: string; text: string }[] } {
    const version = this.meta("version");
    if (since >= version) return { version, tools: [] };
    return {
      version,
      tools: this.sql.all<{ tool: string; text: string }>(
        `SELECT tool, text FROM learn_tools WHERE version > ? ORDER BY tool`,
        since,
      ),
    };
  }

  state(): LearningState {
    const counts = this.sql.one<{ pairs: number; sessions: number }>(
      `SELECT count(*) AS pairs, count(DISTINCT session) AS sessions FROM learn_pairs`,
    ) ?? { pairs: 0, sessions: 0 };
    const tools =
      this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM learn_tools WHERE text != ''`)?.n ?? 0;
    const last = this.meta("last_merge_at");
    return {
      pairs: counts.pairs,
      merged: this.meta("pairs_merged"),
      tools,
      sessions: counts.sessions,
      version: this.meta("version"),
      last_merge_at: last === 0 ? null : new Date(last).toISOString(),
    };
  }

  /** What was learned for one tool; null when nothing was. */
  tool(name: string, now: number): LearnedTool | null {
    const text =
      this.sql.one<{ text: string }>(`SELECT text FROM learn_tools WHERE tool = ?`, name)?.text ?? "";
    const queries = this.weighted(name, now);
    if (text === "" && queries.length === 0) return null;
    return {
      tool: name,
      text,
      queries: queries.map((q) => ({
        query: q.query,
        weight: Math.round(q.weight * 1000) / 1000,
        sessions: q.sessions,
        last_at: new Date(q.last).toISOString(),
      })),
    };
  }

  /** Forgets everything learned (tool: for that tool only); returns the pairs removed. */
  forget(tool: string | null, now: number): number {
    const tools =
      tool === null
        ? this.sql.all<{ tool: string }>(`SELECT tool FROM learn_tools WHERE text != ''`).map((r) => r.tool)
        : [tool];
    const { rowsWritten } =
      tool === null
        ? this.sql.run(`DELETE FROM learn_pairs`)
        : this.sql.run(`DELETE FROM learn_pairs WHERE tool = ?`, tool);
    if (tool === null) this.setMeta("pairs_merged", 0);
    this.rewrite(tools, now);
    return rowsWritten;
  }

  /** Drops pairs past the maximum age; returns the tools they taught. */
  private expire(now: number): string[] {
    const cutoff = now - LEARNING.maxAgeDays * DAY;
    return this.sql
      .all<{ tool: string }>(`DELETE FROM learn_pairs WHERE at < ? RETURNING tool`, cutoff)
      .map((r) => r.tool);
  }

  /** Distinct queries for a tool, weighed by decayed evidence from each session, heaviest first. */
  private weighted(
    tool: string,
    now: number,
  ): { query: string; weight: number; sessions: number; last: number }[] {
    const rows = this.sql.all<{ query: string; at: number; session: string }>(
      `SELECT query, at, session FROM learn_pairs WHERE tool = ?`,
      tool,
    );
    const byQuery = new Map<string, { query: string; weight: number; sessions: Set<string>; last: number }>();
    for (const r of rows) {
      const key = r.query.toLowerCase();
      const entry = byQuery.get(key) ?? { query: r.query, weight: 0, sessions: new Set(), last: 0 };
      entry.weight += 0.5 ** (Math.max(0, now - r.at) / (LEARNING.halfLifeDays * DAY));
      entry.sessions.add(r.session);
      entry.last = Math.max(entry.last, r.at);
      byQuery.set(key, entry);
    }
    return [...byQuery.values()]
      .map((e) => ({ query: e.query, weight: e.weight, sessions: e.sessions.size, last: e.last }))
      .sort((a, b) => b.weight - a.weight || (a.query < b.query ? -1 : 1));
  }

  /** Recomputes the learned text of `tools` under a new version. */
  private rewrite(tools: readonly string[], now: number): void {
    const version = this.meta("version") + 1;
    let changed = false;
    for (const tool of tools) {
      const text = this.weighted(tool, now)
        .slice(0, LEARNING.queriesPerTool)
        .map((q) => q.query)
        .join("\n");
      const current = this.sql.one<{ text: string }>(`SELECT text FROM learn_tools WHERE tool = ?`, tool);
      if (current?.text === text || (current === undefined && text === "")) continue;
      this.sql.run(
        `INSERT INTO learn_tools (tool, text, version) VALUES (?, ?, ?)
         ON CONFLICT (tool) DO UPDATE SET text = excluded.text, version = excluded.version`,
        tool,
        text,
        version,
      );
      changed = true;
    }
    if (changed) this.setMeta("version", version);
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
