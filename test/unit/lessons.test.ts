// Learned skills' pure parts (issue 31): what depersonalization keeps of a lesson, when two lessons
// are near-duplicates (the thresholds docs/learned-skills.md states), and how record and age weigh.
import { describe, expect, it } from "vitest";
import { depersonalize, MARKS } from "../../src/learning/vocabulary";
import {
  DEFAULT_RANK,
  LessonInput,
  lessonAgentName,
  lessonName,
  lessonNameOfAgentName,
  lessonTerms,
  lessonWeight,
  SIMILARITY,
  similarity,
  textQuality,
} from "../../src/lessons/lesson";

const none = () => false;
const tools = new Set(["billing.list_invoices"]);

describe("depersonalize", () => {
  it("keeps ordinary words, markdown and the lesson's tools, and replaces names, ids, secrets and addresses", () => {
    const { text, replaced } = depersonalize(
      "1. Ask Jenna Ortiz (jenna@acme.io) for account 4111-2222.\n" +
        "2. Call `billing.list_invoices` with the cursor; my password is hunter2, then retry.\n" +
        "- See https://acme.example.com/a?token=abc for the zorblax.",
      tools,
      none,
    );
    expect(text).toBe(
      "1. Ask [REDACTED_NAME] [REDACTED_NAME] ([REDACTED_EMAIL]) for account [REDACTED_ID].\n" +
        "2. Call `billing.list_invoices` with the cursor; my password [REDACTED_SECRET] [REDACTED_SECRET], then retry.\n" +
        "- See [REDACTED_ID] for the [REDACTED_WORD].",
    );
    expect(replaced).toBe(9);
  });

  it("keeps a word the tenant's catalog knows, and a capitalized ordinary word that is no name", () => {
    expect(
      depersonalize("Then click Save and open the zorblax panel", new Set(), (w) => w === "zorblax").text,
    ).toBe("Then click Save and open the zorblax panel");
    expect(depersonalize("Then ask Mark about it", new Set(), none).text).toBe(
      `Then ask ${MARKS.name} about it`,
    );
  });

  it("is idempotent", () => {
    const once = depersonalize(
      "Ask maria at 555 867 5309 with key sk_live_4eC39HqLyjWDarjtT1zdp7dc",
      tools,
      none,
    ).text;
    expect(depersonalize(once, tools, none)).toEqual({ text: once, replaced: 0 });
  });
});

describe("similarity", () => {
  const lesson = (trigger: string, body: string, tools: string[] = []) => ({
    terms: lessonTerms(trigger, body),
    tools,
  });
  const base = lesson(
    "Exporting the monthly billing report for finance",
    "Call the export tool with the month and the csv format, then send the file link to the team.",
    ["billing.export_report"],
  );

  it("merges a lesson that says the same in nearly the same words and tools", () => {
    const near = lesson(
      "Exporting the monthly billing report for the finance team",
      "Call the export tool with the month and the csv format, then send the file link to the team.",
      ["billing.export_report"],
    );
    expect(similarity(base, near)).toBeGreaterThanOrEqual(SIMILARITY.MERGE_AT);
  });

  it("keeps apart lessons about the same tool that say different things", () => {
    const other = lesson(
      "Exporting a report when the export times out",
      "Split the range into weeks and export each week on its own before joining them.",
      ["billing.export_report"],
    );
    expect(similarity(base, other)).toBeLessThan(SIMILARITY.MERGE_AT);
  });

  it("weighs tools: the same words with other tools are less alike", () => {
    const sameWords = lesson(
      "Exporting the monthly billing report for finance",
      "Call the export tool with the month and the csv format, then send the file link to the team.",
      ["sheets.export"],
    );
    expect(similarity(base, sameWords)).toBeCloseTo(SIMILARITY.TEXT_WEIGHT, 5);
  });
});

describe("naming and text quality", () => {
  it("writes a lesson's name as an Agent Skills name and reads it back, one to one", () => {
    expect(lessonAgentName("learned.billing_api.0a1b2c3d")).toBe("learned-billing-api-0a1b2c3d");
    expect(lessonNameOfAgentName("learned-billing-api-0a1b2c3d")).toBe("learned.billing_api.0a1b2c3d");
    expect(lessonAgentName("learned.api.0a1b2c3d")).toBe("learned-api-0a1b2c3d");
    // Stored before task types were checked for doubled or trailing _: no name maps to them.
    expect(lessonAgentName("learned.a__b.0a1b2c3d")).toBeNull();
    expect(lessonAgentName("learned.api_.0a1b2c3d")).toBeNull();
    for (const agent of ["learned-a--b-0a1b2c3d", "learned-api-0a1b2c3", "refunds", "learned--0a1b2c3d"]) {
      expect(lessonNameOfAgentName(agent), agent).toBeNull();
    }
    const input = { trigger: "When it applies", body: "What to do", outcome: "success" };
    expect(LessonInput.safeParse({ ...input, task_type: "billing_api" }).success).toBe(true);
    for (const task_type of ["a__b", "api_", "_api", "Api", "a".repeat(33)]) {
      expect(LessonInput.safeParse({ ...input, task_type }).success, task_type).toBe(false);
    }
  });

  it("names a lesson by its task type and a hash of what it says, not of its wording's case or spacing", () => {
    const a = {
      task_type: "api",
      kind: "do" as const,
      project: "",
      trigger: "List invoices",
      body: "Follow the cursor.",
      tools: [],
    };
    expect(lessonName(a)).toMatch(/^learned\.api\.[0-9a-f]{8}$/);
    expect(lessonName({ ...a, body: "follow  the CURSOR" })).toBe(lessonName(a));
    expect(lessonName({ ...a, kind: "avoid" })).not.toBe(lessonName(a));
    expect(lessonName({ ...a, project: "p1" })).not.toBe(lessonName(a));
  });

  it("prefers a text whose outcome fits its kind, then one with fewer redactions", () => {
    const t = { kind: "do" as const, trigger: "t", body: "b" };
    expect(textQuality({ ...t, outcome: "success", replaced: 3 })).toBeGreaterThan(
      textQuality({ ...t, outcome: "failure", replaced: 0 }),
    );
    expect(textQuality({ ...t, outcome: "success", replaced: 0 })).toBeGreaterThan(
      textQuality({ ...t, outcome: "success", replaced: 1 }),
    );
  });
});

describe("lessonWeight", () => {
  const now = Date.UTC(2026, 10, 27);
  const day = 86_400_000;

  it("is 1 for a new lesson, grows with helpful verdicts and shrinks with harmful ones", () => {
    const fresh = { helpful: 0, harmful: 0, confirmed_at: now, task_type: "api" };
    expect(lessonWeight(fresh, DEFAULT_RANK, now)).toBe(1);
    expect(lessonWeight({ ...fresh, helpful: 2 }, DEFAULT_RANK, now)).toBe(1.5);
    expect(lessonWeight({ ...fresh, harmful: 3 }, DEFAULT_RANK, now)).toBe(0.4);
    expect(lessonWeight({ ...fresh, harmful: 6 }, DEFAULT_RANK, now)).toBe(0.25);
  });

  it("halves per half-life of its task type: browser lessons age faster than api ones", () => {
    const at = now - 14 * day;
    expect(
      lessonWeight({ helpful: 0, harmful: 0, confirmed_at: at, task_type: "browser" }, DEFAULT_RANK, now),
    ).toBe(0.5);
    expect(
      lessonWeight({ helpful: 0, harmful: 0, confirmed_at: at, task_type: "api" }, DEFAULT_RANK, now),
    ).toBeCloseTo(0.5 ** (14 / 90), 10);
    const custom = { ...DEFAULT_RANK, half_life_days: { ...DEFAULT_RANK.half_life_days, api: 7 } };
    expect(lessonWeight({ helpful: 0, harmful: 0, confirmed_at: at, task_type: "api" }, custom, now)).toBe(
      0.25,
    );
  });
});
