// Session configuration: its schema with defaults, and where it is stored.
import { z } from "zod";
import type { Sql } from "../db/sql";
import { CatalogName, Id } from "../schemas";
import { LoadingMode } from "../tools/tool-record";

export const Glob = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:*?/-]+$/, "globs use name characters, * and ?");
const GlobList = z.array(Glob).max(200);

/** Skill permissions (Codelia §8.1): globs over skill names and qualified ids; deny wins. */
export const SkillPolicy = z.strictObject({
  allow: GlobList.default(["*"]).describe("Skill names or <pack>/<name> ids the session may see"),
  deny: GlobList.default([]).describe("Skills hidden everywhere, as if they did not exist; deny wins"),
});

export const Policy = z.strictObject({
  allow: GlobList.default(["*"]).describe("Tool names (or namespace-qualified names) the session may use"),
  deny: GlobList.default([]).describe(
    "Tools that do not exist for this session, in every answer; deny wins over allow",
  ),
  approval: GlobList.default([]).describe(
    "Tools whose calls need a person's approval (tool_resolve answers needs_approval)",
  ),
  skills: SkillPolicy.default({ allow: ["*"], deny: [] }),
});

export const SessionConfigInput = z.strictObject({
  project_id: Id.nullable()
    .default(null)
    .describe("Loads the packs scoped to this project of the tenant too"),
  catalog: CatalogName.nullable()
    .default(null)
    .describe(
      "A catalog the tenant published (PUT /v1/catalogs/{name}): its tools are the session's without uploading them",
    ),
  activation_scope: z
    .enum(["session", "run"])
    .default("session")
    .describe("session: activations last; run: they apply to one run_id and expire"),
  default_loading_mode: LoadingMode.default("deferred").describe(
    "For tools whose record sets no loading_mode",
  ),
  always_loaded_patterns: GlobList.default([]).describe(
    "Tools listed in every context whatever their record says",
  ),
  preferred_namespaces: z
    .array(z.string().min(1).max(64))
    .max(100)
    .default([])
    .describe("Namespaces that win ties in search results, first one first"),
  policy: Policy.default({ allow: ["*"], deny: [], approval: [], skills: { allow: ["*"], deny: [] } }),
  /** Tool use examples in rendered tool definitions (RFC v0.1 Part 2). */
  examples: z
    .strictObject({
      enabled: z.boolean().default(true).describe("Render tools' examples for the model"),
      max_per_tool: z.number().int().min(0).max(10).default(3),
    })
    .default({ enabled: true, max_per_tool: 3 }),
  /**
   * Skills (Penguiflow RFC v0.3 §3.6–3.7): token budget and count for fetched skills, and the
   * bounded directory of skill names for the system prompt.
   */
  skills: z
    .strictObject({
      enabled: z.boolean().default(true).describe("Offer skills at all (directory, pre-flight, skill tools)"),
      max_tokens: z
        .number()
        .int()
        .min(200)
        .max(6000)
        .default(2000)
        .describe("Token budget of the skills context injects for a query"),
      top_k: z
        .number()
        .int()
        .min(1)
        .max(10)
        .default(3)
        .describe("At most this many skills injected for a query"),
      /** Emails, phone numbers, tokens and URL query strings in rendered skill and pack text (RFC v0.3 App. C). */
      redact_pii: z
        .boolean()
        .default(true)
        .describe("Redact emails, phone numbers, secrets and URL query strings in rendered skill text"),
      /** skill_learn and skill_feedback are for the harness (docs/learned-skills.md); a model gets them only when asked. */
      learning_tools: z
        .boolean()
        .default(false)
        .describe(
          "Offer the model skill_learn and skill_feedback as tools (off: only the harness calls them)",
        ),
      directory: z
        .strictObject({
          enabled: z.boolean().default(true).describe("List skill names in the system prompt"),
          max_entries: z.number().int().min(1).max(200).default(30),
          selection_strategy: z
            .enum(["pinned_then_recent", "pinned_then_top"])
            .default("pinned_then_recent")
            .describe("After pinned skills: the most recently used, or the most used"),
        })
        .default({ enabled: true, max_entries: 30, selection_strategy: "pinned_then_recent" }),
    })
    .default({
      enabled: true,
      max_tokens: 2000,
      top_k: 3,
      redact_pii: true,
      learning_tools: false,
      directory: { enabled: true, max_entries: 30, selection_strategy: "pinned_then_recent" },
    }),
  /**
   * The session's budget for what `context` returns (system blocks plus tool definitions, by the
   * token estimator). Over it, `context` still answers and warns what to drop.
   */
  context: z
    .strictObject({
      max_tokens: z
        .number()
        .int()
        .min(100)
        .max(2_000_000)
        .nullable()
        .default(null)
        .describe("Budget of what context returns; over it, context warns what to drop"),
    })
    .default({ max_tokens: null }),
  /**
   * The end user this session serves, as an opaque id of the host's (a hash of its own user id,
   * never an email or a name). Learning counts each end user once however many sessions they open.
   */
  user: z
    .string()
    .min(1)
    .max(128)
    .nullable()
    .default(null)
    .describe(
      "An opaque, stable id of the session's end user (send a hash of your own id): learning counts each user once",
    ),
  /**
   * Learning from use (src/learning/, docs/search.md#learning-from-use): the words people used
   * before they used a tool, and how much independent support a word needs before this session's
   * ranking counts it. Support is the number of distinct end users (or sessions without one) that
   * taught the word, decayed with a 30-day half-life.
   */
  learning: z
    .strictObject({
      enabled: z
        .boolean()
        .default(true)
        .describe(
          "Teach the tenant's ranking the words that led this session to each tool it used, and rank with what it learned",
        ),
      min_support: z
        .number()
        .min(1)
        .max(1000)
        .default(3)
        .describe(
          "Support a learned word needs to count for a tool that only reads: three people agreeing is a habit of the tenant, not one person's wording",
        ),
      min_support_write: z
        .number()
        .min(1)
        .max(1000)
        .default(5)
        .describe(
          "The same for a tool that changes something (side effects not read or pure): a wrong lift there costs more",
        ),
      min_support_contested: z
        .number()
        .min(1)
        .max(1000)
        .default(50)
        .describe(
          "The same for a word another tool's own name, description, tags or examples use: overruling the catalog takes a crowd",
        ),
      min_support_near: z
        .number()
        .min(1)
        .max(1000)
        .default(2)
        .describe(
          "Support a word short of those thresholds needs to order the tools a request already fits, for a tool that only reads (at most min_support; a tool that changes something still needs min_support_write): it never brings in a tool the request does not fit",
        ),
      min_support_own: z
        .number()
        .min(1)
        .max(1000)
        .default(5)
        .describe(
          "Support a word the tool's own text already uses needs to order it among the tools a request already fits: its siblings say the word too, so preferring one of them takes more people than filling a gap",
        ),
    })
    .default({
      enabled: true,
      min_support: 3,
      min_support_write: 5,
      min_support_contested: 50,
      min_support_near: 2,
      min_support_own: 5,
    }),
  /** An idle session's storage is erased after this long (the alarm); any request extends it. */
  ttl_seconds: z
    .number()
    .int()
    .min(60)
    .max(365 * 86_400)
    .default(7 * 86_400)
    .describe("An idle session is erased after this many seconds; any request extends it"),
  /** How long a run-scoped activation lasts. */
  run_activation_ttl_seconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(3_600)
    .describe("How long a run-scoped activation lasts, in seconds"),
});
export type SessionConfig = z.output<typeof SessionConfigInput>;

export const DEFAULT_CONFIG: SessionConfig = SessionConfigInput.parse({});

/** Reads and writes the session config in trove_meta; parsed on read, never trusted. */
export class ConfigStore {
  #cached: SessionConfig | null = null;

  constructor(private readonly sql: Sql) {}

  get(): SessionConfig {
    if (this.#cached) return this.#cached;
    const row = this.sql.one<{ value: string }>(`SELECT value FROM trove_meta WHERE key = 'config'`);
    const parsed = row ? SessionConfigInput.safeParse(JSON.parse(row.value)) : null;
    this.#cached = parsed?.success ? parsed.data : DEFAULT_CONFIG;
    return this.#cached;
  }

  set(config: SessionConfig): void {
    this.#cached = null;
    this.sql.run(
      `INSERT INTO trove_meta (key, value) VALUES ('config', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value <> excluded.value`,
      JSON.stringify(config),
    );
    this.#cached = config;
  }

  reset(): void {
    this.#cached = null;
  }
}
