// Learned skills from the harness (issue 31): a finished run's lesson (skill_learn) and a verdict on
// a lesson a run used (skill_feedback). The host reflects on its runs and calls them; the model is
// offered them as tools only when the session's config says so (skills.learning_tools). Both queue what they take for the tenant's learned-skills object, sent after the
// response; the lesson is depersonalized before it is queued, so nothing else ever holds its raw text.
import { z } from "zod";
import { TroveError } from "../errors";
import { depersonalize } from "../learning/vocabulary";
import { LESSON_NAME, LessonInput, lessonName, lessonTerms } from "../lessons/lesson";
import { LEARNED_PACK, LESSONS_PER_SESSION } from "../lessons/session-lessons";
import { sha256Hex } from "../search/hash";
import { skillPolicy } from "../skills/skill-store";
import { defineOp } from "./operation";

/**
 * Lesson text with no angle brackets: a lesson is served inside a `<skill>` block, and untrusted
 * text must not close it (`</skill>`) or open a block of its own (`<system>`).
 */
const unmarked = (text: string) => text.replaceAll("<", "‹").replaceAll(">", "›");

/** A run id as lineage keeps it: a hash, so whatever the harness put in its ids is not stored. */
const runRef = (runId: string | undefined) => (runId === undefined ? null : sha256Hex(runId).slice(0, 16));

const Depersonalized = z.object({
  text: z.string().describe("The text as stored: personal data, secrets, ids and unknown words replaced"),
  replaced: z.number().int().describe("Tokens replaced"),
});

export const skillLearn = defineOp({
  name: "skill_learn",
  summary:
    "Submit a lesson from a finished run: depersonalized, then merged into the tenant's learned skills",
  tag: "skills",
  writes: true,
  input: LessonInput,
  output: z.object({
    name: z
      .string()
      .describe("learned.<task_type>.<hash>: the lesson's name, unless it merges into an existing one"),
    queued: z
      .literal(true)
      .describe("Sent to the tenant after the response; GET /v1/learned-skills shows it"),
    trigger: Depersonalized,
    body: Depersonalized,
    tools: z.array(z.string()).describe("The tools kept: those this session may use"),
  }),
  errors: ["too_many_lessons"],
  model: {
    description:
      "When a task is done, record one lesson a later run of the same kind should know: when it applies, " +
      "the steps or the rule, the tools, how it ended. No names, ids or secrets: they are removed.",
    shown: (has) => has.learningTools,
  },
  example: {
    input: {
      task_type: "api",
      trigger: "Listing every invoice of a customer",
      body: "Call the list tool with a page size of one hundred and follow the cursor until it is empty.",
      outcome: "success",
      kind: "do",
    },
    output: {
      name: "learned.api.6f1c0a2e",
      queued: true,
      trigger: { text: "Listing every invoice of a customer", replaced: 0 },
      body: {
        text: "Call the list tool with a page size of one hundred and follow the cursor until it is empty.",
        replaced: 0,
      },
      tools: [],
    },
  },
  handler(ctx, input) {
    if (ctx.lessons.submitted() >= LESSONS_PER_SESSION) {
      throw new TroveError(
        "too_many_lessons",
        429,
        `a session may submit at most ${LESSONS_PER_SESSION} lessons`,
        {
          field: "body",
          limit: LESSONS_PER_SESSION,
        },
      );
    }
    // A tool the session may not use is left out as if it did not exist.
    const tools = [...new Set(input.tools)].filter((t) => ctx.catalog.allows(t)).sort();
    const names = new Set(tools);
    const known = (word: string) => ctx.catalog.stats.knows(word);
    const trigger = depersonalize(unmarked(input.trigger), names, known);
    const body = depersonalize(unmarked(input.body), names, known);
    for (const [field, text] of [
      ["trigger", trigger.text],
      ["body", body.text],
    ] as const) {
      if (lessonTerms(text, "").length === 0) {
        throw new TroveError("invalid_input", 400, `nothing of the ${field} is left once depersonalized`, {
          field,
        });
      }
    }
    const project = input.scope === "project" ? (ctx.config.get().project_id ?? "") : "";
    const lesson = {
      task_type: input.task_type,
      kind: input.kind,
      outcome: input.outcome,
      project,
      trigger: trigger.text,
      body: body.text,
      tools,
      replaced: trigger.replaced + body.replaced,
      run_id: runRef(input.run_id),
      at: ctx.now,
    };
    const name = lessonName(lesson);
    ctx.lessons.queueLesson({ ...lesson, name });
    return { name, queued: true as const, trigger, body, tools };
  },
});

export const skillFeedback = defineOp({
  name: "skill_feedback",
  summary: "Say whether a learned skill a run used helped or harmed: its rank follows its record",
  tag: "skills",
  writes: true,
  idempotent: true,
  input: z.strictObject({
    name: z.string().regex(LESSON_NAME, "a learned skill's name, learned.<task_type>.<hash>"),
    verdict: z.enum(["helpful", "harmful"]),
    run_id: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe("The run that used it: a run counts once per lesson"),
  }),
  output: z.object({
    name: z.string(),
    verdict: z.enum(["helpful", "harmful"]),
    queued: z.literal(true),
  }),
  errors: [],
  model: {
    description:
      "Say whether a learned skill (learned.<task_type>.<hash>) you used in this task helped or harmed.",
    shown: (has) => has.learningTools,
  },
  example: {
    input: { name: "learned.api.6f1c0a2e", verdict: "helpful" },
    output: { name: "learned.api.6f1c0a2e", verdict: "helpful", queued: true },
  },
  handler(ctx, input) {
    // Every name answers alike, so feedback tells nothing about which lessons exist. A lesson the
    // session's skills policy hides takes none from it; the tenant takes it only for an approved
    // lesson of the session's project (or the tenant's).
    const config = ctx.config.get();
    if (skillPolicy(config)(input.name, `${LEARNED_PACK}/${input.name}`)) {
      ctx.lessons.queueFeedback({
        name: input.name,
        verdict: input.verdict,
        run_id: runRef(input.run_id),
        project: config.project_id ?? "",
        at: ctx.now,
      });
    }
    return { name: input.name, verdict: input.verdict, queued: true as const };
  },
});
