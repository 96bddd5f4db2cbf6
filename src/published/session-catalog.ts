// A session's side of a published catalog (its config's `catalog`): the session keeps an indexed
// copy of the catalog's tools in its own SQLite, as source `catalog:<name>`, and brings it up to
// date at most once a minute by asking the catalog's object what changed since the version it
// holds. Between checks a request makes no call to another object.
import type { Sql } from "../db/sql";
import { TroveError } from "../errors";
import { withTimeout } from "../timeout";
import type { CatalogStore, SourceSyncResult } from "../tools/catalog-store";
import type { Visibility } from "../tools/policy";
import type { CatalogRpc, PublishedChanges } from "./catalog-rpc";

/** A session uses what its catalog published up to this long before. */
export const CATALOG_REFRESH_MS = 60_000;
/** How long a session that holds the catalog waits for changes before using its copy as it is. */
const REFRESH_WAIT_MS = 250;
/** How long a session's first use of a catalog waits for it (there is no copy to fall back on). */
const FIRST_WAIT_MS = 10_000;

/** The published catalog whose tools the session holds (trove_meta `published_catalog`). */
export interface HeldCatalog {
  name: string;
  /** Changes when the catalog is deleted and published again. */
  epoch: string;
  version: number;
  fingerprint: string;
}

type Changes = Extract<PublishedChanges, { status: "ok" }>;

/** What a request does to the session's copy, worked out before its transaction. */
export type CatalogStep =
  | { kind: "none" }
  | { kind: "apply"; name: string; changes: Changes; base: HeldCatalog | null }
  /** The session no longer uses the catalog it holds. */
  | { kind: "drop" }
  /** The catalog does not exist (never published, or deleted). */
  | { kind: "missing"; name: string };

/** What applying a step changed, for the catalog_synced event. */
export interface CatalogApplied extends SourceSyncResult {
  catalog: string;
  version: number;
}

const source = (name: string) => `catalog:${name}` as const;

export class SessionCatalog {
  #held: HeldCatalog | null | undefined;
  #checkedAt = 0;
  /** The held catalog's last check found it deleted: the session answers so until the next check. */
  #deleted = false;
  /** Calls this object made to catalog objects since it started (tests and benches count them). */
  calls = 0;

  constructor(private readonly sql: Sql) {}

  held(): HeldCatalog | null {
    if (this.#held === undefined) {
      const row = this.sql.one<{ value: string }>(
        `SELECT value FROM trove_meta WHERE key = 'published_catalog'`,
      );
      this.#held = row ? (JSON.parse(row.value) as HeldCatalog) : null;
    }
    return this.#held;
  }

  /**
   * What a request wanting catalog `wanted` (null: none) must do first. Asks the catalog's object
   * only when the session does not hold it yet or its copy may be more than CATALOG_REFRESH_MS old;
   * a slow or failed refresh keeps the copy and tries again later, a failed first use is a 503.
   */
  async plan(
    wanted: string | null,
    now: number,
    stubFor: (name: string) => DurableObjectStub<CatalogRpc> | null,
  ): Promise<CatalogStep> {
    const held = this.held();
    if (wanted === null) return held ? { kind: "drop" } : { kind: "none" };
    const holds = held?.name === wanted;
    if (holds && now - this.#checkedAt < CATALOG_REFRESH_MS) {
      return this.#deleted ? { kind: "missing", name: wanted } : { kind: "none" };
    }
    const stub = stubFor(wanted);
    if (!stub) return { kind: "missing", name: wanted };
    this.#checkedAt = now;
    let changes: PublishedChanges;
    try {
      changes = await withTimeout(
        this.fetchChanges(stub, holds ? held.epoch : null, holds ? held.version : 0),
        holds ? REFRESH_WAIT_MS : FIRST_WAIT_MS,
      );
    } catch (err) {
      console.error(
        JSON.stringify({ msg: "published catalog check failed", catalog: wanted, error: String(err) }),
      );
      this.#checkedAt = now - CATALOG_REFRESH_MS + 10_000;
      if (holds) return { kind: "none" };
      throw new TroveError("unavailable", 503, `the catalog "${wanted}" did not answer; try again`, {
        field: "catalog",
        retry_after: 1,
        retry_safe: true,
      });
    }
    this.#deleted = holds && changes.status === "missing";
    if (changes.status === "missing") return { kind: "missing", name: wanted };
    const current = holds && changes.epoch === held.epoch && changes.version === held.version;
    return current ? { kind: "none" } : { kind: "apply", name: wanted, changes, base: held };
  }

  /** Every page of what changed since `version` of `epoch` (one call when it fits one page). */
  private async fetchChanges(
    stub: DurableObjectStub<CatalogRpc>,
    epoch: string | null,
    version: number,
  ): Promise<PublishedChanges> {
    this.calls++;
    const first = (await stub.changesSince(epoch, version)) as PublishedChanges;
    if (first.status !== "ok") return first;
    for (let next = first.next; next !== null; ) {
      this.calls++;
      const page = (await stub.changesSince(epoch, version, next)) as PublishedChanges;
      if (page.status !== "ok" || page.epoch !== first.epoch)
        throw new Error("the catalog changed while paging");
      first.tools.push(...page.tools);
      first.removed.push(...page.removed);
      next = page.next;
    }
    return { ...first, next: null };
  }

  /**
   * Applies a planned step inside the request's transaction. `missing` fails the request (`configuring`
   * asks for a catalog that does not exist; otherwise the session's catalog was deleted), except for
   * requests that only read or fix the session. A step planned against a copy another request has
   * changed since is skipped: the next check plans again.
   */
  apply(
    step: CatalogStep,
    catalog: CatalogStore,
    visibility: Visibility,
    request: { configuring: boolean; exempt: boolean },
  ): CatalogApplied | null {
    switch (step.kind) {
      case "none":
        return null;
      case "missing":
        if (request.configuring) {
          throw new TroveError("unknown_catalog", 404, `no catalog named "${step.name}" was published`, {
            field: "catalog",
          });
        }
        if (request.exempt) return null;
        throw new TroveError(
          "catalog_deleted",
          409,
          `the catalog "${step.name}" this session uses was deleted; publish it again, or configure the session with another catalog or none`,
          { field: "catalog", catalog: step.name },
        );
      case "drop": {
        const held = this.held();
        if (held)
          catalog.syncPublished(source(held.name), { full: true, tools: [], removed: [] }, visibility);
        this.write(null);
        return null;
      }
      case "apply": {
        const held = this.held();
        if (!sameCopy(held, step.base)) return null;
        if (held && held.name !== step.name) {
          catalog.syncPublished(source(held.name), { full: true, tools: [], removed: [] }, visibility);
        }
        const { changes } = step;
        const result = catalog.syncPublished(source(step.name), changes, visibility);
        this.write({
          name: step.name,
          epoch: changes.epoch,
          version: changes.version,
          fingerprint: changes.fingerprint,
        });
        // The catalog's fingerprint, not the session's own (catalog_sync's) that the store reports.
        return { ...result, fingerprint: changes.fingerprint, catalog: step.name, version: changes.version };
      }
    }
  }

  private write(held: HeldCatalog | null): void {
    if (held) {
      this.sql.run(
        `INSERT INTO trove_meta (key, value) VALUES ('published_catalog', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        JSON.stringify(held),
      );
    } else {
      this.sql.run(`DELETE FROM trove_meta WHERE key = 'published_catalog'`);
    }
    this.#held = held;
  }

  /** A transaction rolled back: what it wrote of the copy is gone, so read it again. */
  rollback(): void {
    this.#held = undefined;
  }

  /** The session's storage was erased (or the object restarts): forget everything. */
  reset(): void {
    this.#held = undefined;
    this.#checkedAt = 0;
    this.#deleted = false;
  }
}

function sameCopy(a: HeldCatalog | null, b: HeldCatalog | null): boolean {
  return a?.name === b?.name && a?.epoch === b?.epoch && a?.version === b?.version;
}
