// A session's lifetime: it lives `ttl_seconds` after its last request, then its object erases
// everything. Requests stay free of writes: `last_seen` and the alarm move only when they have
// drifted by more than 1 % of the TTL (between 1 s and 10 min), or when the TTL itself changed.
import type { Sql } from "../db/sql";

const LAST_SEEN = `SELECT value FROM trove_meta WHERE key = 'last_seen'`;
const SET_LAST_SEEN = `INSERT INTO trove_meta (key, value) VALUES ('last_seen', ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value`;

/** What moving the deadline needs from the object: its storage's transaction and alarm. */
export interface LifetimeHost {
  sql: Sql;
  transaction(fn: () => void): void;
  setAlarm(at: number): Promise<void>;
  /** The session's TTL now, in seconds (from its config). */
  ttlSeconds(): number;
  /** Cleanup done whenever `last_seen` moves (expired run activations). */
  prune(now: number): void;
}

export class Lifetime {
  /** When a request last moved `last_seen` (ms); NaN when never; undefined until read. */
  #lastSeen: number | undefined;
  /** The erase deadline the alarm is set for. */
  #deadline = Number.NaN;

  constructor(private readonly host: LifetimeHost) {}

  /** The stored erase deadline, or null for a session that never served a request. */
  idleDeadline(): number | null {
    const lastSeen = this.host.sql.one<{ value: string }>(LAST_SEEN);
    return lastSeen ? Number(lastSeen.value) + this.host.ttlSeconds() * 1000 : null;
  }

  /** Idle past its TTL: the session is gone even when its alarm has not run yet (alarms can be late). */
  expired(now: number): boolean {
    const deadline =
      this.#lastSeen === undefined ? this.idleDeadline() : this.#lastSeen + this.host.ttlSeconds() * 1000;
    return deadline !== null && Number.isFinite(deadline) && now > deadline;
  }

  /**
   * Any request extends the session's life. Expired run activations are invisible from the moment
   * they expire; deleting them is cleanup, done whenever `last_seen` moves and by the alarm.
   */
  async extend(now: number): Promise<void> {
    const ttl = this.host.ttlSeconds() * 1000;
    if (this.#lastSeen === undefined) {
      const stored = this.host.sql.one<{ value: string }>(LAST_SEEN);
      this.#lastSeen = stored ? Number(stored.value) : Number.NaN;
      this.#deadline = this.#lastSeen + ttl;
    }
    const slack = Math.min(600_000, Math.max(1_000, ttl / 100));
    if (now - this.#lastSeen <= slack && this.#deadline === this.#lastSeen + ttl) return;
    this.host.transaction(() => {
      this.host.sql.run(SET_LAST_SEEN, String(now));
      this.host.prune(now);
    });
    this.#lastSeen = now;
    this.#deadline = now + ttl;
    await this.host.setAlarm(this.#deadline);
  }

  /** Forgets what it knew: the storage was erased. */
  reset(): void {
    this.#lastSeen = undefined;
    this.#deadline = Number.NaN;
  }
}
