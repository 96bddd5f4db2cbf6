// The skill text budget: it holds for any input, and compression happens in the documented order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BundledSkill } from "../../src/packs/bundle";
import { estimateTokens } from "../../src/search/tokens";
import { formatSkills, TRUNCATION_MARKER } from "../../src/skills/budget";

const skill = (over: Partial<BundledSkill> = {}): BundledSkill => ({
  id: "core/paginate",
  name: "paginate",
  pack: "core",
  title: "Cursor pagination loop",
  description: "Read every page of a cursor-paginated API",
  trigger: "Retrieve all items from a cursor-paginated API",
  task_type: "api",
  tags: ["pagination"],
  steps: ["Call with no cursor", "Collect the items", "Repeat with next_cursor until it is empty"],
  body: null,
  preconditions: ["The API returns a next cursor"],
  failure_modes: ["The cursor expires between calls"],
  files: [],
  origin: "penguiflow",
  tools: [],
  source: "core/paginate.skill.yaml",
  extra: {},
  content_hash: "x",
  ...over,
});

describe("formatSkills", () => {
  it("renders every section when the budget allows", () => {
    const text = formatSkills([skill()], 1500);
    for (const part of [
      "Cursor pagination loop",
      "Preconditions:",
      "Steps:",
      "3. Repeat",
      "Failure modes:",
    ]) {
      expect(text).toContain(part);
    }
  });

  it("drops failure modes first, then preconditions, then trailing steps, then truncates", () => {
    const s = skill();
    const full = estimateTokens(formatSkills([s], 6000));
    const noFailure = formatSkills([s], full - 1);
    expect(noFailure).not.toContain("Failure modes:");
    expect(noFailure).toContain("Preconditions:");
    const noPre = formatSkills([s], estimateTokens(noFailure) - 1);
    expect(noPre).not.toContain("Preconditions:");
    expect(noPre).toContain("3. Repeat");
    const fewerSteps = formatSkills([s], estimateTokens(noPre) - 1);
    expect(fewerSteps).not.toContain("3. Repeat");
    expect(fewerSteps).toContain("1. Call");
    const long = skill({ body: "word ".repeat(3000) });
    expect(formatSkills([long], 200).endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it("never exceeds max_tokens, whatever the skills", () => {
    const text = fc.string({ maxLength: 400, unit: "grapheme" });
    const anySkill = fc.record({
      title: text,
      trigger: text,
      body: fc.option(fc.string({ maxLength: 5000 }), { nil: null }),
      steps: fc.array(text, { maxLength: 30 }),
      preconditions: fc.array(text, { maxLength: 10 }),
      failure_modes: fc.array(text, { maxLength: 10 }),
    });
    fc.assert(
      fc.property(
        fc.array(anySkill, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 200, max: 6000 }),
        (skills, max) => {
          const out = formatSkills(
            skills.map((s) => skill(s)),
            max,
          );
          expect(estimateTokens(out)).toBeLessThanOrEqual(max);
        },
      ),
      { numRuns: 200 },
    );
  });
});
