// A learned skill (issue 31): what a finished run submits, its name, how two lessons compare, and
// how its record and age weigh in ranking. Pure functions; the stores call them.
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../search/hash";
import { documentTerms } from "../search/text";
import { TOOL_NAME } from "../tools/tool-record";

/** A task type as lessons name it: `browser`, `api`, `code_review`. */
export const TASK_TYPE = /^(?=.{1,32}$)[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
/** `learned.<task_type>.<8 hex>`: the name every lesson gets (Penguiflow RFC v0.3 §3.2). */
export const LESSON_NAME = /^learned\.[a-z][a-z0-9_]{0,31}\.[0-9a-f]{8}$/;

/**
 * A lesson's name as the Agent Skills specification allows a skill's name (lower case letters,
 * digits and single hyphens), which the MCP Skills extension requires of the last segment of a
 * skill's URI: `learned.deploy_web.1a2b3c4d` → `learned-deploy-web-1a2b3c4d`. Null for a name whose
 * task type does not map one to one (a double or trailing `_`, allowed before task types were
 * checked for it).
 */
export function lessonAgentName(name: string): string | null {
  const [, type, hash] = /^learned\.([a-z0-9_]+)\.([0-9a-f]{8})$/.exec(name) ?? [];
  if (!type || !hash || !TASK_TYPE.test(type)) return null;
  return `learned-${type.replaceAll("_", "-")}-${hash}`;
}

/** The lesson named `agentName` by lessonAgentName, or null when it names none. */
export function lessonNameOfAgentName(agentName: string): string | null {
  const [, type, hash] = /^learned-([a-z0-9-]+)-([0-9a-f]{8})$/.exec(agentName) ?? [];
  if (!type || !hash) return null;
  const name = `learned.${type.replaceAll("-", "_")}.${hash}`;
  return lessonAgentName(name) === agentName ? name : null;
}

/** What a finished run submits (skill_learn's input). */
export const LessonInput = z.strictObject({
  task_type: z
    .string()
    .regex(
      TASK_TYPE,
      "lower case letters and digits, words joined by single _, starting with a letter, at most 32",
    )
    .describe("What kind of task the run did: browser, api, code, … (decides how fast the lesson ages)"),
  trigger: z.string().trim().min(3).max(300).describe("When the lesson applies, in one sentence"),
  body: z.string().trim().min(3).max(4000).describe("The steps or the rule, in markdown"),
  tools: z
    .array(z.string().regex(TOOL_NAME, "a tool name"))
    .max(20)
    .default([])
    .describe("Tools the run used for it"),
  outcome: z.enum(["success", "failure"]).describe("How the run ended"),
  kind: z.enum(["do", "avoid"]).default("do").describe("do: a way that works; avoid: a way that fails"),
  scope: z
    .enum(["tenant", "project"])
    .default("project")
    .describe("project: only sessions of this session's project see it (tenant when it has none)"),
  run_id: z.string().min(1).max(128).optional().describe("The run it came from, kept in its lineage"),
});
export type LessonInput = z.output<typeof LessonInput>;

/** A lesson after depersonalization, as the session sends it to its tenant's store. */
export interface LessonSubmission {
  name: string;
  task_type: string;
  kind: "do" | "avoid";
  outcome: "success" | "failure";
  /** "" for a tenant-wide lesson. */
  project: string;
  trigger: string;
  body: string;
  tools: string[];
  /** Tokens depersonalization replaced: fewer is better text. */
  replaced: number;
  run_id: string | null;
  /** Who sent it, for the per-end-user cap: the session's end user, else the session. */
  source: string;
  at: number;
}

export interface FeedbackSubmission {
  name: string;
  /** The sending session's project ("" for none): feedback reaches lessons it may see only. */
  project: string;
  verdict: "helpful" | "harmful";
  run_id: string | null;
  source: string;
  at: number;
}

/** Normalized terms of a lesson's words (stopwords out, stemmed), placeholders left out. */
export function lessonTerms(trigger: string, body: string): string[] {
  return documentTerms(`${trigger}\n${body}`.replaceAll(/\[REDACTED_[A-Z]+\]/g, " "));
}

/** The lesson's name: its task type and a hash of what it says, where, and with which tools. */
export function lessonName(
  s: Pick<LessonSubmission, "task_type" | "kind" | "project" | "trigger" | "body" | "tools">,
): string {
  const hash = sha256Hex(
    canonicalJson([s.kind, s.project, lessonTerms(s.trigger, s.body), [...s.tools].sort()]),
  ).slice(0, 8);
  return `learned.${s.task_type}.${hash}`;
}

/**
 * When two lessons say the same thing (docs/learned-skills.md#dedup): TEXT_WEIGHT of the Jaccard
 * similarity of their word 2-shingles (over normalized terms) plus TOOLS_WEIGHT of the Jaccard
 * similarity of their tool sets; at MERGE_AT or more they merge. A lesson without tools compares
 * by text alone. Two-word shingles keep word order without needing long texts to overlap.
 */
export const SIMILARITY = { TEXT_WEIGHT: 0.75, TOOLS_WEIGHT: 0.25, MERGE_AT: 0.6, CONTRADICTS_AT: 0.45 };

export function shingles(terms: readonly string[]): Set<string> {
  if (terms.length === 1) return new Set(terms);
  const out = new Set<string>();
  for (let i = 0; i + 1 < terms.length; i++) out.add(`${terms[i]} ${terms[i + 1]}`);
  return out;
}

export function jaccard<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

/** The similarity of two lessons from their terms and tools, in [0, 1]. */
export function similarity(
  a: { terms: readonly string[]; tools: readonly string[] },
  b: { terms: readonly string[]; tools: readonly string[] },
): number {
  const text = jaccard(shingles(a.terms), shingles(b.terms));
  if (a.tools.length === 0 && b.tools.length === 0) return text;
  return (
    SIMILARITY.TEXT_WEIGHT * text + SIMILARITY.TOOLS_WEIGHT * jaccard(new Set(a.tools), new Set(b.tools))
  );
}

/**
 * Which of two texts a merged lesson keeps: the one whose outcome fits its kind (a `do` that
 * succeeded, an `avoid` that failed), then the one depersonalization took less out of, then the
 * longer. The existing text wins ties, so a re-submission changes nothing.
 */
export function textQuality(
  s: Pick<LessonSubmission, "kind" | "outcome" | "replaced" | "trigger" | "body">,
): number {
  const fits = (s.kind === "do") === (s.outcome === "success") ? 1 : 0;
  return fits * 1_000_000 - s.replaced * 1_000 + Math.min(999, s.body.length + s.trigger.length);
}

/** How lessons age and when they disappear: the tenant's settings (PUT /v1/learned-skills/policy). */
export interface RankSettings {
  /** Half-life in days by task type; `default` for any other. */
  half_life_days: Record<string, number>;
  /** A lesson whose weight falls below this is not served. */
  min_weight: number;
}

export const DEFAULT_RANK: RankSettings = {
  // Pages and UIs change under a lesson; an API's or a codebase's ways last longer.
  half_life_days: { browser: 14, ui: 14, default: 90 },
  min_weight: 0.25,
};

/** What ranking needs of a lesson's record. */
export interface LessonRecord {
  helpful: number;
  harmful: number;
  /** The last time the lesson was confirmed: submitted again, or found helpful. */
  confirmed_at: number;
  task_type: string;
}

const DAY_MS = 86_400_000;

/**
 * A lesson's weight in ranking: its record, `2·(helpful+1)/(helpful+harmful+2)` (1 for a new
 * lesson, towards 2 when it keeps helping, towards 0 when it keeps harming), times `0.5^(age/half-life)`
 * with age counted from its last confirmation. Search multiplies its text match by it.
 *
 * @example lessonWeight({ helpful: 0, harmful: 3, confirmed_at: now, task_type: "api" }, DEFAULT_RANK, now) // 0.4
 */
export function lessonWeight(r: LessonRecord, settings: RankSettings, now: number): number {
  const record = (2 * (r.helpful + 1)) / (r.helpful + r.harmful + 2);
  const halfLife = settings.half_life_days[r.task_type] ?? settings.half_life_days.default ?? 90;
  const age = Math.max(0, now - r.confirmed_at) / DAY_MS;
  return record * 0.5 ** (age / halfLife);
}
