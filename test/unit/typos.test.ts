// Typo tolerance (src/search/typos.ts): an unknown query word stands in with the indexed terms it
// is one slip away from, and a misspelled request still finds its tool through the real pipeline.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nearTerms, oneEditApart } from "../../src/search/typos";
import { newSid, op } from "../support/http";

describe("oneEditApart", () => {
  it("accepts one insertion, deletion, change or adjacent swap, and nothing else", () => {
    expect(oneEditApart("spreadsheat", "spreadsheet")).toBe(true); // change
    expect(oneEditApart("pipline", "pipeline")).toBe(true); // insertion
    expect(oneEditApart("mesage", "message")).toBe(true); // insertion
    expect(oneEditApart("messagge", "message")).toBe(true); // deletion
    expect(oneEditApart("webist", "websit")).toBe(true); // swap
    expect(oneEditApart("message", "message")).toBe(false);
    expect(oneEditApart("mesages", "message")).toBe(false); // two edits
    expect(oneEditApart("calender", "calendars")).toBe(false);
  });

  it("agrees with a plain optimal-string-alignment distance of 1 on random words", () => {
    const osa = (a: string, b: string) => {
      const w = b.length + 1;
      const d = new Array<number>((a.length + 1) * w).fill(0);
      const at = (i: number, j: number) => d[i * w + j] ?? 0;
      for (let i = 0; i <= a.length; i++) d[i * w] = i;
      for (let j = 0; j <= b.length; j++) d[j] = j;
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          let best = Math.min(
            at(i - 1, j) + 1,
            at(i, j - 1) + 1,
            at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            best = Math.min(best, at(i - 2, j - 2) + 1);
          d[i * w + j] = best;
        }
      return at(a.length, b.length);
    };
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c"), maxLength: 6 });
    fc.assert(fc.property(word, word, (a, b) => oneEditApart(a, b) === (osa(a, b) === 1)));
  });
});

describe("nearTerms", () => {
  const vocabulary = new Map([
    ["calendar", 4],
    ["calendly", 1],
    ["spreadsheet", 3],
    ["pipelin", 5],
    ["websit", 2],
    ["cancel", 2],
  ]);

  it("finds the indexed terms an unknown term is one slip from (or cut short of), most frequent first", () => {
    expect(nearTerms(vocabulary, "spreadsheat")).toEqual(["spreadsheet"]);
    expect(nearTerms(vocabulary, "piplin")).toEqual(["pipelin"]);
    expect(nearTerms(vocabulary, "webist")).toEqual(["websit"]);
    expect(nearTerms(vocabulary, "calend")).toEqual(["calendar", "calendly"]);
  });

  it("leaves known, short, numeric and far terms alone", () => {
    expect(nearTerms(vocabulary, "calendar")).toEqual([]);
    expect(nearTerms(vocabulary, "cance")).toEqual(["cancel"]);
    expect(nearTerms(vocabulary, "canc")).toEqual([]);
    expect(nearTerms(vocabulary, "v2pipelin")).toEqual([]);
    expect(nearTerms(vocabulary, "xalendar")).toEqual([]);
    expect(nearTerms(vocabulary, "spreadsheetsxx")).toEqual([]);
  });
});

describe("a misspelled request", () => {
  it("still finds its tool, below what the same request spelled right scores", async () => {
    const sid = newSid();
    await op(sid, "catalog_sync", {
      tools: [
        { name: "calendar.create_event", description: "Create an event in the user's calendar" },
        { name: "s3.put_object", description: "Put an object into an S3 bucket" },
        { name: "sheets.append_rows", description: "Append rows to a spreadsheet" },
      ],
    });
    const search = async (query: string) => (await op(sid, "tool_search", { query })).json.tools;
    const typo = await search("add a dentist appointment to my calender");
    const right = await search("add a dentist appointment to my calendar");
    expect(typo[0]?.name).toBe("calendar.create_event");
    expect(typo[0].relevance).toBeLessThan(right[0].relevance);
    expect((await search("tack the numbers onto the spreadsheat"))[0]?.name).toBe("sheets.append_rows");
  });
});
