// The worker as deployed plus bench-only object methods that time operations in-object.
import { OPERATIONS_BY_NAME } from "../src/ops/registry";
import { type OpResult, SessionObject } from "../src/session-object";

export { default } from "../src";
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
   * Puts learned text in the index as a refresh from the tenant's learning object would, then
   * tidies the index as the session does right after that request's response.
   */
  async learn(json: string): Promise<number> {
    const tools = JSON.parse(json) as { tool: string; text: string }[];
    const changed = this.ctx.storage.transactionSync(() =>
      this.learning.apply(1, tools, this.catalog.ids(), Date.now()),
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

  async profile(query: string, repeat: number) {
    const { queryTermGroups } = await import("../src/search/text");
    const { rescore } = await import("../src/search/rerank");
    const t: Record<string, number> = {};
    const time = (k: string, fn: () => unknown) => {
      const s0 = performance.now();
      let r: unknown;
      for (let i = 0; i < repeat; i++) r = fn();
      t[k] = (performance.now() - s0) / repeat;
      return r;
    };
    const groups = time("groups", () => queryTermGroups(query)) as ReturnType<typeof queryTermGroups>;
    const terms = groups.flatMap((g) => [...g.terms, ...g.related]);
    const df = time("df", () => this.catalog.docFrequencies(terms)) as Map<string, number>;
    const expr = terms
      .filter((x) => (df.get(x) ?? 0) > 0)
      .sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0))
      .slice(0, 3)
      .map((x) => `"${x}"`)
      .join(" OR ");
    const rows = time("sql", () =>
      this.sql.all<Record<string, string>>(
        `SELECT t.f_name, t.f_namespace, t.f_tags, t.f_description, t.f_params, t.f_examples FROM (SELECT rowid AS id, bm25(trove_tools_fts) AS raw FROM trove_tools_fts WHERE trove_tools_fts MATCH ?1 ORDER BY raw LIMIT 50) AS m CROSS JOIN trove_tools AS t ON t.id = m.id`,
        expr,
      ),
    ) as Record<string, string>[];
    time("sqlIdsOnly", () =>
      this.sql.all(
        `SELECT rowid AS id, bm25(trove_tools_fts) AS raw FROM trove_tools_fts WHERE trove_tools_fts MATCH ?1 ORDER BY raw LIMIT 50`,
        expr,
      ),
    );
    time("rescore", () =>
      rescore(
        rows.map((r) => [
          r.f_name ?? "",
          r.f_namespace ?? "",
          r.f_tags ?? "",
          r.f_description ?? "",
          r.f_params ?? "",
          r.f_examples ?? "",
        ]),
        groups,
        [
          { weight: 3, b: 0.3 },
          { weight: 1.5, b: 0 },
          { weight: 1.5, b: 0.3 },
          { weight: 1, b: 0.75 },
          { weight: 0.4, b: 0.75 },
          { weight: 0.6, b: 0.5 },
        ],
        { size: 10000, docFrequency: (x) => df.get(x) ?? 0 },
      ),
    );
    time("counts", () => this.catalog.counts());
    time("full", () =>
      this.run("tool_search", { query, search_type: "fts", limit: 8, include_always_loaded: false }, ADDRESS),
    );
    return JSON.stringify({ expr, ...t });
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
