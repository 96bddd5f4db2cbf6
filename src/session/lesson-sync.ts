// The session object's exchanges with the tenant's learned-skills object (issue 31). Before a
// request that serves skills it brings the session's copy of the approved lessons up to date, at
// most once a minute and within LEARNING_WAIT_MS; after a response it sends the lessons and
// feedback the session queued, and what the tenant's object does not take stays queued.
import type { LearnedSkillsRpc } from "../lessons/lessons-rpc";
import type { SessionLessons } from "../lessons/session-lessons";
import type { SessionAddress } from "../ops/dispatch";
import { skillPolicy } from "../skills/skill-store";
import type { SessionConfig } from "../state/config";
import { withTimeout } from "../timeout";
import { AfterResponse } from "./after-response";
import { LEARNING_WAIT_MS } from "./learning-sync";

/** What the exchanges need of the session object. */
export interface LessonSyncHost {
  lessons: SessionLessons;
  config(): SessionConfig;
  /** The tenant's learned-skills object; null where the deployment binds none. */
  stub(): DurableObjectStub<LearnedSkillsRpc> | null;
  address(): SessionAddress;
  /** Whether the session's schema is in place (false right after an erase). */
  ready(): boolean;
  /** The session's skills changed: what it lists and searches is read again. */
  skillsChanged(): void;
  transaction<T>(fn: () => T): T;
  waitUntil(promise: Promise<unknown>): void;
}

export class LessonSync {
  // One send at a time: a send waits on the tenant's object, and another would read the same batch.
  readonly #send = new AfterResponse(
    () => this.send(),
    (sent) => this.host.waitUntil(sent),
  );

  constructor(private readonly host: LessonSyncHost) {}

  /**
   * Brings the session's copy of the tenant's approved lessons up to date when it may be more than
   * a minute old. A slow or failed call serves what the session holds and is tried again later.
   */
  async refresh(now: number): Promise<void> {
    const { lessons } = this.host;
    const stub = this.host.stub();
    const project = this.host.config().project_id ?? "";
    if (!stub || !lessons.stale(now, project)) return;
    const version = lessons.version;
    lessons.retryLater(now);
    const answer = stub.changedSince(version, project);
    const apply = (changes: Awaited<typeof answer>) => {
      // The config may have changed while the call was out: its answer is for `project` only.
      if (
        !this.host.ready() ||
        (this.host.config().project_id ?? "") !== project ||
        lessons.version !== version
      )
        return;
      const allowed = skillPolicy(this.host.config());
      const changed = this.host.transaction(() => lessons.apply(changes, allowed, project, now));
      if (changed > 0) this.host.skillsChanged();
    };
    try {
      apply(await withTimeout(answer, LEARNING_WAIT_MS));
    } catch (err) {
      console.error(JSON.stringify({ msg: "learned skills refresh failed", error: String(err) }));
      // A slow answer still lands, after this response: the next request serves it.
      this.host.waitUntil(answer.then(apply).catch(() => undefined));
    }
  }

  /** Sends queued lessons and feedback after the response, when any wait. */
  schedule(): void {
    if (this.host.ready() && this.host.lessons.hasPending()) this.#send.request();
  }

  private async send(): Promise<void> {
    const { lessons } = this.host;
    const stub = this.host.stub();
    if (!stub || !this.host.ready() || !lessons.hasPending()) return;
    const user = this.host.config().user;
    const batch = lessons.pending(user ? `user:${user}` : `session:${this.host.address().sid}`);
    try {
      await stub.ingest(batch.lessons, batch.feedback);
      if (!this.host.ready()) return;
      this.host.transaction(() => lessons.acknowledge(batch.last));
      this.schedule();
    } catch (err) {
      console.error(JSON.stringify({ msg: "lesson send failed", error: String(err) }));
    }
  }
}
