// What an operation handler gets: the session's stores, bound to its SQLite, and the clock.
import type { Sql } from "../db/sql";
import type { AttachmentStore } from "../packs/attachments";
import type { Bundle } from "../packs/bundle";
import type { SkillStore } from "../skills/skill-store";
import type { ConfigStore } from "../state/config";
import type { EventLog } from "../state/events";
import type { ActivationStore } from "../tools/activation";
import type { ApprovalStore } from "../tools/approvals";
import type { CatalogStore } from "../tools/catalog-store";

export interface OpContext {
  sql: Sql;
  config: ConfigStore;
  catalog: CatalogStore;
  activations: ActivationStore;
  approvals: ApprovalStore;
  events: EventLog;
  skills: SkillStore;
  /** Attached packs and enabled skills. */
  attachments: AttachmentStore;
  /** The packs this session's skills were loaded from (pins, bundled file texts). */
  bundle: Bundle;
  /** The tenant that owns this session (the first half of the object's name). */
  tenant: string;
  /** Milliseconds since the epoch, fixed for the whole operation. */
  now: number;
  /** Erases all of this session's storage once the operation's transaction has committed. */
  erase(): void;
}
