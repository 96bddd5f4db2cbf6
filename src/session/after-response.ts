// Work a session object does right after a response goes out (events, the index's tidy-up, sends
// to the tenant's objects): the request never waits for it.

/** Runs a task once after the current response, however often it is asked for before it runs. */
export class AfterResponse {
  #scheduled = false;

  constructor(private readonly task: () => void) {}

  request(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    // A timer of 0 fires once the object's current work has yielded: after the response is sent.
    setTimeout(() => {
      this.#scheduled = false;
      this.task();
    }, 0);
  }
}
