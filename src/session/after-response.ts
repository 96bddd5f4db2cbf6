// Work a session object does right after a response goes out (events, the index's tidy-up, sends
// to the tenant's objects): the request never waits for it.

/**
 * Runs a task once after the current response, however often it is asked for before it runs. A task
 * that returns a promise (a send that waits on another object) runs one at a time: asked for while
 * it runs, it runs again once it is done, so two runs never read the same pending rows. Its
 * promise goes to `keepAlive` (the object's waitUntil), so the send outlives the event.
 */
export class AfterResponse {
  #scheduled = false;
  #running = false;
  #again = false;

  constructor(
    private readonly task: () => unknown,
    private readonly keepAlive: (promise: Promise<unknown>) => void = () => undefined,
  ) {}

  request(): void {
    if (this.#running) {
      this.#again = true;
      return;
    }
    if (this.#scheduled) return;
    this.#scheduled = true;
    // A timer of 0 fires once the object's current work has yielded: after the response is sent.
    setTimeout(() => this.run(), 0);
  }

  private run(): void {
    this.#scheduled = false;
    const pending = this.task();
    if (!(pending instanceof Promise)) return;
    this.keepAlive(pending);
    this.#running = true;
    const done = () => {
      this.#running = false;
      if (!this.#again) return;
      this.#again = false;
      this.request();
    };
    pending.then(done, done);
  }
}
