// The worker as deployed plus bench-only object methods that time operations in-object.
import { learnedTerms } from "../src/learning/vocabulary";
import { OPERATIONS_BY_NAME } from "../src/ops/registry";
import { type OpResult, SessionObject } from "../src/session-object";

export { default } from "../src";
export { AnalyticsObject } from "../src/analytics-object";
export { CatalogListObject, CatalogObject } from "../src/catalog-object";

const ADDRESS = { tenant: "bench", sid: "bench" };

export class BenchSession extends SessionObject {
  /** Rows read and written through this object's SQL so far (deferred writes included). */
  async stats(): Promise<string> {
    return JSON.stringify(this.sql.stats);
  }

  /** Calls this session made to published catalogs' objects since it started. */
  async catalogCalls(): Promise<number> {
    return this.published.calls;
  }

  /**
   * Puts learned terms in the index as a refresh from the tenant's learning object would — the
   * ordinary words of each text, each supported past every threshold (the heaviest case) — then
   * tidies the index as the session does right after that request's response.
   */
  async learn(json: string): Promise<number> {
    const texts = JSON.parse(json) as { tool: string; text: string }[];
    const tools = texts.map(({ tool, text }) => ({
      tool,
      terms: learnedTerms(text, () => false).map((term) => ({ term, support: 1000 })),
    }));
    const { enabled: _, ...thresholds } = this.config.get().learning;
    const changed = this.ctx.storage.transactionSync(() =>
      this.learning.apply(1, tools, this.catalog.ids(), thresholds, Date.now()),
    );
    this.learnedChanged(changed);
    this.ctx.storage.transactionSync(() => this.catalog.tidyIndex());
    return changed;
  }

  /** Validates like the worker does, then runs the operation in this object. */
  async call(name: string, input: unknown): Promise<OpResult> {
    const parsed = OPERATIONS_BY_NAME.get(name)?.input.parse(input);
    return this.run(name, parsed, ADDRESS);
  }

  /**
   * `call`, its result as JSON: an object returned over Miniflare's Node-side proxy is itself a
   * proxy, whose every property read is a synchronous round trip to the runtime, and Miniflare
   * sometimes misses that reply on a busy machine (an assertion in its SynchronousFetcher).
   */
  async callJson(name: string, input: unknown): Promise<string> {
    return JSON.stringify(await this.call(name, input));
  }

  /**
   * Times each input in-object. workerd coarsens timers to 1 ms, so every input runs `repeat`
   * times back to back and its figure is the mean of those runs; percentiles are then taken over
   * inputs, where the real spread (cheap vs expensive queries) lives.
   */
  async timeEach(name: string, inputs: unknown[], repeat: number) {
    const op = OPERATIONS_BY_NAME.get(name);
    if (!op) throw new Error(`no operation ${name}`);
    const parsed = inputs.map((input) => op.input.parse(input));
    const before = { ...this.sql.stats };
    const perInput: number[] = [];
    let failures = 0;
    for (const input of parsed) {
      const start = performance.now();
      for (let i = 0; i < repeat; i++) {
        const result = await this.run(name, input, ADDRESS);
        if (!result.ok) failures++;
      }
      perInput.push((performance.now() - start) / repeat);
    }
    // Returned as JSON: Miniflare's Node-side proxy hands back plain values most reliably that way.
    return JSON.stringify({
      perInput,
      failures,
      rowsRead: this.sql.stats.rowsRead - before.rowsRead,
      rowsWritten: this.sql.stats.rowsWritten - before.rowsWritten,
    });
  }

  /** The query plan of a statement, for investigating slow searches. */
  async explain(query: string, ...params: (string | number)[]) {
    return JSON.stringify(this.sql.all(`EXPLAIN QUERY PLAN ${query}`, ...params));
  }

  /** Rows read and mean milliseconds of one statement run `repeat` times. */
  async probe(query: string, params: (string | number)[], repeat: number) {
    const before = this.sql.stats.rowsRead;
    const start = performance.now();
    for (let i = 0; i < repeat; i++) this.sql.all(query, ...params);
    return JSON.stringify({
      ms: (performance.now() - start) / repeat,
      rowsRead: (this.sql.stats.rowsRead - before) / repeat,
    });
  }

  /** Points this session at another pack bundle (a deploy with other packs). */
  async setBundle(json: string) {
    this.bundle = JSON.parse(json);
  }

  /** Ends this object instance, as a deploy does; the next call starts a new one. */
  async restart() {
    this.ctx.abort("bench restart");
  }

  /** One timed call (for operations too slow to repeat, like a cold sync). */
  async timeOnce(name: string, input: unknown) {
    const parsed = OPERATIONS_BY_NAME.get(name)?.input.parse(input);
    const before = { ...this.sql.stats };
    const start = performance.now();
    const result = await this.run(name, parsed, ADDRESS);
    const ms = performance.now() - start;
    return JSON.stringify({
      ms,
      result,
      rowsRead: this.sql.stats.rowsRead - before.rowsRead,
      rowsWritten: this.sql.stats.rowsWritten - before.rowsWritten,
    });
  }
}
