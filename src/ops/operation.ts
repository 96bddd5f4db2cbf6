// The shape every operation is declared in, once: name, schemas, handler, and every fact a surface
// needs (REST route, MCP annotations, OpenAPI tag and errors, the model-facing tool, an example).
// REST, MCP, OpenAPI, /docs, the typed client and the model's tool list are all derived from it.
import type { z } from "zod";
import type { Sql } from "../db/sql";
import type { ErrorCode } from "../errors";
import type { SessionLearning } from "../learning/session-learning";
import type { SessionLessons } from "../lessons/session-lessons";
import type { AttachmentStore } from "../packs/attachments";
import type { Bundle } from "../packs/bundle";
import type { HeldCatalog } from "../published/session-catalog";
import type { SkillStore } from "../skills/skill-store";
import type { ConfigStore } from "../state/config";
import type { EventLog } from "../state/events";
import type { ActivationStore } from "../tools/activation";
import type { ApprovalStore } from "../tools/approvals";
import type { CatalogStore } from "../tools/catalog-store";

/** What an operation handler gets: the session's stores, bound to its SQLite, and the clock. */
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
  /** Every operation (the registry), handed down so handlers never import the registry above them. */
  operations: readonly Operation[];
  /** Learning from use: what the model used after a search, and when the catalog changed. */
  learning: Pick<SessionLearning, "observeUse" | "noteRequest" | "noteActivation" | "catalogChanged">;
  /** Learned skills: lessons and feedback queued for the tenant, and how many this session sent. */
  lessons: Pick<SessionLessons, "submitted" | "queueLesson" | "queueFeedback">;
  /** The published catalog whose tools the session holds, and its version (null: none). */
  published(): HeldCatalog | null;
  /** Bytes the session's SQLite database takes (tables, indexes, free pages). */
  storedBytes(): number;
  /** Erases all of this session's storage once the operation's transaction has committed. */
  erase(): void;
}

/** Where OpenAPI and /docs file an operation. */
export type OpTag = "session" | "tools" | "skills" | "packs";

/** What the session has, which decides the model-facing tools worth listing (ops/builtins.ts). */
export interface SessionHas {
  skills: boolean;
  skillsWithFiles: boolean;
  skillsWithTools: boolean;
  enabledSkills: boolean;
  packs: boolean;
  packsWithTools: boolean;
  /** The session offers the model skill_learn and skill_feedback (config skills.learning_tools). */
  learningTools: boolean;
}

/** An operation the model itself may call: Trove lists it beside the agent's tools. */
export interface ModelTool {
  /** What the model reads: when to call it and what comes back. */
  description: string;
  /** What the model may send (trimmed to keep tokens down); the operation's input when omitted. */
  input?: z.ZodType;
  /** Listed only when the session has something for it to act on. */
  shown(has: SessionHas): boolean;
  /** What calling it does to the world, when that differs from `writes` (which is about the session). */
  side_effects?: "read" | "stateful";
}

/** A request and the response it gets, run by the tests against the worker (after `before`). */
export interface OpExample<I extends z.ZodType, O extends z.ZodType> {
  /** Calls that set the session up first, e.g. a catalog_sync before a tool_search. */
  before?: readonly { op: string; input: unknown }[];
  input: z.input<I>;
  output: z.input<O>;
}

export interface HttpBinding {
  /** Besides `POST /v1/sessions/{sid}/{name}`: the session resource itself. */
  method: "GET" | "PUT" | "DELETE";
  path: "";
}

export interface Operation<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  N extends string = string,
> {
  name: N;
  summary: string;
  tag: OpTag;
  /**
   * Whether it may change what the session holds (MCP `readOnlyHint` is its negation). Recording
   * events and usage counts does not count: every operation may do that.
   */
  writes: boolean;
  /**
   * For operations that write: whether sending the same request twice leaves the session as once
   * and answers alike, so a client may retry it when it got no answer (503). Reads always may.
   */
  idempotent?: boolean;
  input: I;
  output: O;
  /** The errors its handler can answer, beyond those every operation can (invalid input, auth…). */
  errors: readonly ErrorCode[];
  http?: HttpBinding;
  /**
   * How it stands to the session's published catalog: "exempt" still answers when that catalog was
   * deleted (it only reads or erases the session); "configures" too, and its input's `catalog` is
   * the one the session is to use (an unknown one is `unknown_catalog`). Omitted: it needs the
   * catalog, and a deleted one answers `catalog_deleted`.
   */
  publishedCatalog?: "exempt" | "configures";
  /** Set when the model is offered this operation as a tool of the same name. */
  model?: ModelTool;
  example: OpExample<I, O>;
  /**
   * It ranks tools: the session first brings its index up to what the tenant learned (at most one
   * call to the tenant's learning object a minute, before the handler's transaction).
   */
  ranksTools?: true;
  /**
   * It serves skills: the session first brings its copy of the tenant's approved lessons up to
   * date (at most one call to the tenant's learned-skills object a minute).
   */
  servesSkills?: true;
  /**
   * Runs inside the session object, synchronously, within one storage transaction: a throw rolls
   * back every write, and no other request for the session can interleave.
   */
  handler(ctx: OpContext, input: z.output<I>): z.input<O>;
}

/** Errors any operation can answer: its input, the request around it, its Host, the key, the session id. */
export const COMMON_ERRORS = [
  "invalid_input",
  "invalid_json",
  "too_deep",
  "invalid_session_id",
  "unknown_host",
  "unauthorized",
  "body_too_large",
  "unavailable",
  "catalog_deleted",
] as const satisfies readonly ErrorCode[];

/** Whether a client may send the request again when it got no answer. */
export const retrySafe = (op: Operation): boolean => !op.writes || op.idempotent === true;

/** Declares an operation; the registry in ./registry.ts lists them all. */
export function defineOp<I extends z.ZodType, O extends z.ZodType, const N extends string>(
  op: Operation<I, O, N>,
): Operation<I, O, N> {
  return op;
}
