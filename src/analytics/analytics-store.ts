// The tenant's analytics store (issue 32): daily buckets kept RETENTION_DAYS, merged from the
// batches sessions send after their responses. Bounded per tenant: one row per day, at most
// TOOLS_PER_DAY tool rows and WORDING_PER_DAY wording rows a day, and at most CATALOG_TOOLS names
// of catalog tools (to tell the tools never found). Reading it writes nothing.
import type { Sql } from "../db/sql";
import {
  DAY_COUNTERS,
  type DayBatch,
  type DayCounter,
  dayOf,
  type FailingKind,
  RELEVANCE_BINS,
} from "./analytics-batch";

export const RETENTION_DAYS = 90;
export const TOOLS_PER_DAY = 1_000;
export const WORDING_PER_DAY = 200;
export const CATALOG_TOOLS = 5_000;
/**
 * Sessions kept (ids only, no content): the record that counts each session once a day, and the
 * console's links to /inspect. Trimmed to this when a fifth more are held.
 */
export const RECENT_SESSIONS = 10_000;
const DAY_MS = 86_400_000;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS analytics_days (
     day TEXT PRIMARY KEY,
     ${DAY_COUNTERS.map((c) => `${c} INTEGER NOT NULL DEFAULT 0`).join(",\n     ")},
     relevance TEXT NOT NULL,
     own_rows_written INTEGER NOT NULL DEFAULT 0
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS analytics_tools (
     day TEXT NOT NULL, tool TEXT NOT NULL, found INTEGER NOT NULL, used INTEGER NOT NULL,
     PRIMARY KEY (day, tool)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS analytics_wording (
     day TEXT NOT NULL, kind TEXT NOT NULL, words TEXT NOT NULL, count INTEGER NOT NULL,
     PRIMARY KEY (day, kind, words)
   ) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS analytics_catalog (tool TEXT PRIMARY KEY, last_day TEXT NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS analytics_sessions (
     sid TEXT PRIMARY KEY, last_at INTEGER NOT NULL, requests INTEGER NOT NULL
   ) WITHOUT ROWID`,
];

/** A row of analytics_days as read back. */
type DayRow = Record<DayCounter, number> & { day: string; relevance: string; own_rows_written: number };

export interface Bucket extends Record<DayCounter, number> {
  /** First day of the bucket (`YYYY-MM-DD`). */
  start: string;
  /** Searches whose first result's relevance was below the threshold (no-result searches not included). */
  low_relevance: number;
  /** Searches none of whose results the model then used. */
  searches_unused: number;
  /** Rows the analytics object itself wrote for these days. */
  analytics_rows_written: number;
}

export interface Series {
  from: string;
  to: string;
  bucket: "day" | "week";
  threshold: number;
  buckets: Bucket[];
  totals: Omit<Bucket, "start">;
  failing_wording: { words: string; kind: FailingKind; count: number }[];
}

export interface ToolStats {
  from: string;
  to: string;
  tools: { tool: string; found: number; used: number }[];
  never_found: string[];
}

/** What one session sent since the last write: its requests, and the days they were on. */
export interface SessionActivity {
  requests: number;
  days: ReadonlySet<string>;
}

export interface RecentSessions {
  sessions: { sid: string; last_at: string; requests: number }[];
}

export interface ToolDays {
  tool: string;
  days: { day: string; found: number; used: number }[];
}

export class AnalyticsStore {
  #prunedOn = "";

  constructor(private readonly sql: Sql) {}

  exists(): boolean {
    return this.sql.one(`SELECT 1 AS x FROM sqlite_master WHERE name = 'analytics_days'`) !== undefined;
  }

  migrate(): void {
    for (const statement of SCHEMA) this.sql.run(statement);
  }

  /** Merges one session's batch; returns the rows written. Call inside a transaction. */
  record(
    batch: readonly DayBatch[],
    now: number,
    sessions: ReadonlyMap<string, SessionActivity> = new Map(),
  ): number {
    const before = this.sql.stats.rowsWritten;
    this.countSessions(batch, sessions);
    for (const [sid, { requests }] of sessions) this.noteSession(sid, requests, now);
    this.trimSessions();
    const oldest = dayOf(now - (RETENTION_DAYS - 1) * DAY_MS);
    for (const day of batch) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day.day) || day.day < oldest) continue;
      this.recordDay(day);
    }
    this.prune(now);
    const written = this.sql.stats.rowsWritten - before;
    const today = batch.at(-1)?.day;
    if (today && today >= oldest)
      this.sql.run(
        `UPDATE analytics_days SET own_rows_written = own_rows_written + ? WHERE day = ?`,
        written + 1,
        today,
      );
    return this.sql.stats.rowsWritten - before;
  }

  private recordDay(day: DayBatch): void {
    const old = this.sql.one<{ relevance: string }>(
      `SELECT relevance FROM analytics_days WHERE day = ?`,
      day.day,
    );
    const relevance = parseBins(old?.relevance).map((n, i) => n + (Number(day.relevance[i]) || 0));
    const counts = DAY_COUNTERS.map((c) => Math.max(0, Math.trunc(Number(day.counts[c]) || 0)));
    this.sql.run(
      `INSERT INTO analytics_days (day, ${DAY_COUNTERS.join(", ")}, relevance)
       SELECT ?1, ${DAY_COUNTERS.map((_, i) => `value ->> ${i}`).join(", ")}, ?3 FROM (SELECT json(?2) AS value)
       WHERE true
       ON CONFLICT (day) DO UPDATE SET ${DAY_COUNTERS.map((c) => `${c} = ${c} + excluded.${c}`).join(", ")},
         relevance = excluded.relevance`,
      day.day,
      JSON.stringify(counts),
      JSON.stringify(relevance),
    );
    this.upsertCapped(
      "analytics_tools",
      day.day,
      day.tools.map(([tool, found, used]) => [String(tool), Number(found) || 0, Number(used) || 0]),
      TOOLS_PER_DAY,
      `INSERT INTO analytics_tools (day, tool, found, used)
       SELECT ?1, value ->> 0, value ->> 1, value ->> 2 FROM json_each(?2) WHERE true
       ON CONFLICT (day, tool) DO UPDATE SET found = found + excluded.found, used = used + excluded.used`,
      `SELECT value ->> 0 AS k FROM json_each(?2)
       WHERE EXISTS (SELECT 1 FROM analytics_tools WHERE day = ?1 AND tool = value ->> 0)`,
    );
    this.upsertCapped(
      "analytics_wording",
      day.day,
      day.wording
        .filter(([words, kind]) => isWording(words) && (kind === "no_result" || kind === "low_relevance"))
        .map(([words, kind, count]) => [`${kind}|${words}`, kind, words, Number(count) || 0]),
      WORDING_PER_DAY,
      `INSERT INTO analytics_wording (day, kind, words, count)
       SELECT ?1, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?2) WHERE true
       ON CONFLICT (day, kind, words) DO UPDATE SET count = count + excluded.count`,
      `SELECT value ->> 0 AS k FROM json_each(?2)
       WHERE EXISTS (SELECT 1 FROM analytics_wording WHERE day = ?1 AND kind = value ->> 1 AND words = value ->> 2)`,
    );
    if (day.catalog && day.catalog.length > 0) {
      const names = day.catalog.filter((n) => typeof n === "string" && n.length <= 256);
      const held = this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM analytics_catalog`)?.n ?? 0;
      this.sql.run(
        `INSERT INTO analytics_catalog (tool, last_day)
         SELECT value, ?1 FROM json_each(?2)
         WHERE ?3 OR EXISTS (SELECT 1 FROM analytics_catalog WHERE tool = value)
         ON CONFLICT (tool) DO UPDATE SET last_day = excluded.last_day WHERE last_day < excluded.last_day`,
        day.day,
        JSON.stringify(names.slice(0, CATALOG_TOOLS)),
        held + names.length <= CATALOG_TOOLS ? 1 : 0,
      );
    }
  }

  /**
   * Upserts keyed rows of one day, adding new keys only while the day holds fewer than `cap`:
   * `rows[i][0]` is the key, the rest what `upsert` reads; `existing` lists the keys already held.
   */
  private upsertCapped(
    table: "analytics_tools" | "analytics_wording",
    day: string,
    rows: (string | number)[][],
    cap: number,
    upsert: string,
    existing: string,
  ): void {
    if (rows.length === 0) return;
    const held = this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM ${table} WHERE day = ?`, day)?.n ?? 0;
    let keep = rows;
    if (held + rows.length > cap) {
      const known = new Set(
        this.sql.all<{ k: string }>(`${existing}`, day, JSON.stringify(rows)).map((r) => r.k),
      );
      let room = Math.max(0, cap - held);
      keep = rows.filter((r) => known.has(String(r[0])) || room-- > 0);
    }
    // The tool table's rows carry no key column apart from the tool; wording's key is dropped by position.
    if (keep.length > 0) this.sql.run(upsert, day, JSON.stringify(keep));
  }

  /** The session as one of the tenant's recent ones; the oldest beyond RECENT_SESSIONS are dropped. */
  /**
   * Counts each session once a day: a session whose last activity on record is before a day of the
   * batch is one more session that day. Sessions hold no storage for it; the recent-sessions table
   * (RECENT_SESSIONS, kept in steps) is the record, so a tenant with more sessions a day than it
   * keeps may count one twice.
   */
  private countSessions(batch: readonly DayBatch[], sessions: ReadonlyMap<string, SessionActivity>): void {
    if (sessions.size === 0) return;
    const last = new Map(
      this.sql
        .all<{ sid: string; last_at: number }>(
          `SELECT sid, last_at FROM analytics_sessions WHERE sid IN (SELECT value FROM json_each(?))`,
          JSON.stringify([...sessions.keys()]),
        )
        .map((r) => [r.sid, dayOf(r.last_at)]),
    );
    const byDay = new Map(batch.map((d) => [d.day, d]));
    for (const [sid, { days }] of sessions) {
      const since = last.get(sid) ?? "";
      for (const day of days) {
        const into = byDay.get(day);
        if (into && day > since) into.counts.sessions++;
      }
    }
  }

  private noteSession(sid: string, requests: number, now: number): void {
    this.sql.run(
      `INSERT INTO analytics_sessions (sid, last_at, requests) VALUES (?, ?, ?)
       ON CONFLICT (sid) DO UPDATE SET last_at = excluded.last_at, requests = requests + excluded.requests`,
      sid,
      now,
      requests,
    );
  }

  /** Keeps RECENT_SESSIONS, trimmed in steps of a fifth so most merges delete nothing. */
  private trimSessions(): void {
    const held = this.sql.one<{ n: number }>(`SELECT count(*) AS n FROM analytics_sessions`)?.n ?? 0;
    if (held > RECENT_SESSIONS * 1.2)
      this.sql.run(
        `DELETE FROM analytics_sessions WHERE sid NOT IN
           (SELECT sid FROM analytics_sessions ORDER BY last_at DESC LIMIT ?)`,
        RECENT_SESSIONS,
      );
  }

  /** The tenant's most recently active sessions, newest first. */
  sessions(limit: number): RecentSessions {
    const rows = this.sql.all<{ sid: string; last_at: number; requests: number }>(
      `SELECT sid, last_at, requests FROM analytics_sessions ORDER BY last_at DESC, sid LIMIT ?`,
      limit,
    );
    return {
      sessions: rows.map((r) => ({
        sid: r.sid,
        last_at: new Date(r.last_at).toISOString(),
        requests: r.requests,
      })),
    };
  }

  /** Drops what is older than RETENTION_DAYS, once a day. */
  private prune(now: number): void {
    const today = dayOf(now);
    if (this.#prunedOn === today) return;
    const oldest = dayOf(now - (RETENTION_DAYS - 1) * DAY_MS);
    this.sql.run(`DELETE FROM analytics_days WHERE day < ?`, oldest);
    this.sql.run(`DELETE FROM analytics_tools WHERE day < ?`, oldest);
    this.sql.run(`DELETE FROM analytics_wording WHERE day < ?`, oldest);
    this.sql.run(`DELETE FROM analytics_catalog WHERE last_day < ?`, oldest);
    this.sql.run(`DELETE FROM analytics_sessions WHERE last_at < ?`, now - RETENTION_DAYS * DAY_MS);
    this.#prunedOn = today;
  }

  series(from: string, to: string, bucket: "day" | "week", threshold: number, wordingLimit: number): Series {
    const rows = this.sql.all<DayRow>(
      `SELECT * FROM analytics_days WHERE day >= ? AND day <= ? ORDER BY day`,
      from,
      to,
    );
    const below = Math.round(threshold * RELEVANCE_BINS);
    // Every bucket of the range, empty ones too: a chart's time axis has no holes.
    const buckets = new Map<string, Bucket>();
    for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) {
      const start = bucket === "week" ? weekStart(dayOf(at)) : dayOf(at);
      if (!buckets.has(start)) buckets.set(start, emptyBucket(start));
    }
    const totals = emptyBucket("");
    for (const row of rows) {
      const start = bucket === "week" ? weekStart(row.day) : row.day;
      let b = buckets.get(start);
      if (!b) {
        b = emptyBucket(start);
        buckets.set(start, b);
      }
      const low = parseBins(row.relevance)
        .slice(0, below)
        .reduce((a, n) => a + n, 0);
      for (const into of [b, totals]) {
        for (const c of DAY_COUNTERS) into[c] += row[c];
        into.low_relevance += low;
        into.searches_unused += Math.max(0, row.searches - row.searches_used);
        into.analytics_rows_written += row.own_rows_written;
      }
    }
    const { start: _, ...total } = totals;
    const failing = this.sql.all<{ words: string; kind: FailingKind; count: number }>(
      `SELECT words, kind, sum(count) AS count FROM analytics_wording WHERE day >= ? AND day <= ?
       GROUP BY kind, words ORDER BY count DESC, words LIMIT ?`,
      from,
      to,
      wordingLimit,
    );
    return {
      from,
      to,
      bucket,
      threshold,
      buckets: [...buckets.values()],
      totals: total,
      failing_wording: failing,
    };
  }

  tools(from: string, to: string, limit: number): ToolStats {
    const tools = this.sql.all<{ tool: string; found: number; used: number }>(
      `SELECT tool, sum(found) AS found, sum(used) AS used FROM analytics_tools
       WHERE day >= ? AND day <= ? GROUP BY tool ORDER BY used DESC, found DESC, tool LIMIT ?`,
      from,
      to,
      limit,
    );
    const never = this.sql
      .all<{ tool: string }>(
        `SELECT c.tool FROM analytics_catalog c WHERE c.last_day >= ?1
         AND NOT EXISTS (SELECT 1 FROM analytics_tools t WHERE t.tool = c.tool AND t.day >= ?1 AND t.day <= ?2 AND t.found > 0)
         ORDER BY c.tool LIMIT ?3`,
        from,
        to,
        limit,
      )
      .map((r) => r.tool);
    return { from, to, tools, never_found: never };
  }

  tool(name: string, from: string, to: string): ToolDays {
    const days = this.sql.all<{ day: string; found: number; used: number }>(
      `SELECT day, found, used FROM analytics_tools WHERE tool = ? AND day >= ? AND day <= ? ORDER BY day`,
      name,
      from,
      to,
    );
    return { tool: name, days };
  }
}

/** The series of a tenant that has recorded nothing: reading it writes nothing. */
export function emptySeries(from: string, to: string, bucket: "day" | "week", threshold: number): Series {
  const { start: _, ...totals } = emptyBucket("");
  return { from, to, bucket, threshold, buckets: [], totals, failing_wording: [] };
}

function emptyBucket(start: string): Bucket {
  return {
    start,
    ...(Object.fromEntries(DAY_COUNTERS.map((c) => [c, 0])) as Record<DayCounter, number>),
    low_relevance: 0,
    searches_unused: 0,
    analytics_rows_written: 0,
  };
}

function parseBins(json: string | undefined): number[] {
  let bins: unknown = [];
  try {
    bins = json ? JSON.parse(json) : [];
  } catch {
    bins = [];
  }
  const list = Array.isArray(bins) ? bins : [];
  return Array.from({ length: RELEVANCE_BINS }, (_, i) => Math.max(0, Number(list[i]) || 0));
}

/** Wording as stored: ordinary lower-case words, a space between them. */
function isWording(words: unknown): words is string {
  return typeof words === "string" && /^\p{Ll}{2,24}( \p{Ll}{2,24}){0,11}$/u.test(words);
}

/** The Monday of a day's ISO week. */
function weekStart(day: string): string {
  const at = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(at).getUTCDay() + 6) % 7;
  return dayOf(at - weekday * DAY_MS);
}
