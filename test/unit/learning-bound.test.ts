// Learned text never lifts a tool that changes something above a read tool that matches better by
// its own fields (issue 27): boundLearning in src/search/fts-pipeline.ts.
import { describe, expect, it } from "vitest";
import { boundLearning, CONTENDER, contenders } from "../../src/search/fts-pipeline";

const match = (score: number, direct: number, near = score) => ({
  score,
  direct,
  unmatched: 0,
  evidence: score,
  near,
});

describe("boundLearning", () => {
  it("caps a write tool lifted by learned text at the better read tool's score", () => {
    const [read, write] = boundLearning([match(2, 2), match(3, 1)], [true, false]);
    expect(write?.score).toBe(2);
    expect(read?.score).toBe(2);
  });

  it("caps at the weakest of several better read tools, so it passes none of them", () => {
    const out = boundLearning([match(2.5, 2.5), match(1.8, 1.5), match(3, 1)], [true, true, false]);
    expect(out[2]?.score).toBe(1.8);
  });

  it("leaves a write tool alone when no read tool matches better by its own fields", () => {
    const out = boundLearning([match(1, 0.5), match(3, 1)], [true, false]);
    expect(out[1]?.score).toBe(3);
  });

  it("leaves a write tool's own match alone, and read tools whatever learned text adds", () => {
    const out = boundLearning([match(2, 2), match(2.5, 2.5), match(4, 0.5)], [true, false, true]);
    expect(out.map((m) => m.score)).toEqual([2, 2.5, 4]);
  });
});

describe("contenders", () => {
  it("scores a row with its contender fields when its own match is close to the best", () => {
    const out = contenders([match(2, 2), match(1.8, 1.8, 2.6)]);
    expect(out.map((m) => m.score)).toEqual([2, 2.6]);
  });

  it("gives a row the request does not already fit nothing from them, however much they add", () => {
    const weak = CONTENDER * 2 * 0.99;
    const out = contenders([match(2, 2), match(weak, weak, 50), match(0, 0, 50)]);
    expect(out.map((m) => m.score)).toEqual([2, weak, 0]);
  });

  it("lifts no row that fits half as well as the best: only close contenders are ordered by use", () => {
    const out = contenders([match(2, 2), match(1, 1, 50), match(1.4, 1.4, 2.5)]);
    expect(out.map((m) => m.score)).toEqual([2, 1, 2.5]);
  });

  it("changes nothing when no row matches by its own fields", () => {
    const out = contenders([match(0.5, 0, 3), match(0, 0, 1)]);
    expect(out.map((m) => m.score)).toEqual([0.5, 0]);
  });
});
