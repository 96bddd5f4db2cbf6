// What an operation handler gets: the session's stores, bound to its SQLite.
import type { Sql } from "../db/sql";
import type { ConfigStore } from "../state/config";
import type { CatalogStore } from "../tools/catalog-store";

export interface OpContext {
  sql: Sql;
  config: ConfigStore;
  catalog: CatalogStore;
  /** The tenant that owns this session (the first half of the object's name). */
  tenant: string;
  /** Erases all of this session's storage once the operation's transaction has committed. */
  erase(): void;
}
