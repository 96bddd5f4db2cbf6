// What a tenant keeps of a query it learns from (src/learning/learning-store.ts, cleanQuery):
// personal data redacted and names left out, the words that describe the task kept.
import { describe, expect, it } from "vitest";
import { cleanQuery, LEARNING } from "../../src/learning/learning-store";

describe("cleanQuery", () => {
  it("leaves out names inside a sentence, keeps a capitalized first word", () => {
    expect(cleanQuery("Stop charging Jenna every month, she's leaving us")).toBe(
      "Stop charging every month, she's leaving us",
    );
    expect(cleanQuery("what time is it in Sydney right now?")).toBe("what time is it in right now?");
    expect(cleanQuery("share the doc with Priya's team. Then ping the channel")).toBe(
      "share the doc with team. Then ping the channel",
    );
  });

  it("keeps acronyms, identifiers and words with inner capitals", () => {
    expect(cleanQuery("merge PR #42 on GitHub via the API")).toBe("merge PR #42 on GitHub via the API");
    expect(cleanQuery("run setChannelTopic for ENG-142")).toBe("run setChannelTopic for ENG-142");
  });

  it("redacts personal data and drops the marks", () => {
    expect(cleanQuery("email bob@example.com or call +1 415 555 0100 about it")).toBe(
      "email or call about it",
    );
  });

  it("collapses whitespace and bounds the length", () => {
    expect(cleanQuery("  list\n\tfiles  ")).toBe("list files");
    expect(cleanQuery("  Refund the charge")).toBe("Refund the charge");
    expect(cleanQuery("word ".repeat(1000)).length).toBeLessThanOrEqual(LEARNING.maxQueryChars);
  });
});
