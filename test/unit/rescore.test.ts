// BM25F re-scoring of candidates by query concept, the query's mass and what a candidate leaves
// unmatched (src/search/rerank.ts), and how relevance reads them: pure functions, run in workerd.
import { describe, expect, it } from "vitest";
import {
  fieldWeight,
  matches,
  queryMass,
  RELATED_WEIGHT,
  requestConcepts,
  rescore,
} from "../../src/search/rerank";
import { calibratedRelevance } from "../../src/search/scoring";
import { queryTermGroups, type TermGroup } from "../../src/search/text";

describe("rescore", () => {
  const fields = [
    { weight: 3, b: 0.3 },
    { weight: 1, b: 0.75 },
  ];
  const corpus = { size: 100, docFrequency: () => 5 };

  it("matches an abbreviation's words together, each for its share", () => {
    // "PR" is "pull request": a tool that says both beats one that says only one of them, and the
    // concept's full weight needs the whole phrase.
    const [pr] = queryTermGroups("PR");
    expect(pr).toMatchObject({ terms: ["pull", "request"], phrase: true });
    const [both, pull, request] = rescore(
      [
        ["pull request", ""],
        ["pull", ""],
        ["request", ""],
      ],
      [pr as TermGroup],
      [{ weight: 1, b: 0 }],
      corpus,
    );
    expect(both).toBeGreaterThan(pull ?? Infinity);
    expect(pull).toBeCloseTo(request ?? 0);
    expect(pull).toBeCloseTo((both ?? 0) / 2);
    // A shell command is its phrase, with a hint of where it runs beside it (no mass of its own).
    expect(queryTermGroups("mkdir")).toEqual([
      { terms: ["creat", "folder"], related: [], phrase: true },
      { terms: [], related: ["fs", "local"] },
    ]);
    expect(queryTermGroups("ls")).toEqual([
      { terms: ["list"], related: [] },
      { terms: [], related: ["fs", "local"] },
    ]);
  });

  it("ranks a direct match above a related-term match", () => {
    const groups = [{ terms: ["refund"], related: ["money"] }];
    const [direct, related] = rescore(
      [
        ["refund", "a tool"],
        ["money", "a tool"],
      ],
      groups,
      fields,
      corpus,
    );
    expect(direct).toBeGreaterThan(related ?? Infinity);
    expect(related).toBeGreaterThan(0);
  });

  it("measures a field against the index's mean length where it knows it, whatever the rivals", () => {
    const groups = [{ terms: ["refund"], related: [] }];
    const doc = ["refund payment", "refund a card payment to the customer"];
    const rivalsShort = [doc, ["refund other", "refund"]];
    const rivalsLong = [doc, ["refund other", `refund ${"word ".repeat(30)}`]];
    const known = { ...corpus, meanLengths: [undefined, 10] };
    const [alone] = rescore([doc], groups, fields, known);
    expect(rescore(rivalsShort, groups, fields, known)[0]).toBeCloseTo(alone ?? Number.NaN, 10);
    expect(rescore(rivalsLong, groups, fields, known)[0]).toBeCloseTo(alone ?? Number.NaN, 10);
    // Without it, the candidates' mean decides: the same record scores otherwise among longer rivals.
    expect(rescore(rivalsLong, groups, fields, corpus)[0]).not.toBeCloseTo(
      rescore(rivalsShort, groups, fields, corpus)[0] ?? Number.NaN,
      10,
    );
  });

  it("ranks a name match above the same word in a description", () => {
    const [inName, inText] = rescore(
      [
        ["refund", "a tool"],
        ["other", "refund a tool"],
      ],
      [{ terms: ["refund"], related: [] }],
      fields,
      corpus,
    );
    expect(inName).toBeGreaterThan(inText ?? Infinity);
  });

  it("counts a gaps-only field (learned text) only for words the other fields lack", () => {
    const withLearned = [...fields, { weight: 1.5, b: 0.5, gapsOnly: true }];
    const channel = [{ terms: ["channel"], related: [] }];
    // Learned text repeating a word the tool already says lifts it no higher than its sibling.
    const [create, list] = rescore(
      [
        ["creat channel", "", "channel launch"],
        ["list channel", "", ""],
      ],
      channel,
      withLearned,
      corpus,
    );
    expect(create).toBe(list);
    // A word only the learned text has still counts: the gap it fills.
    const [learned, none] = rescore(
      [
        ["cancel subscript", "", "stop charg month"],
        ["list charg", "", ""],
      ],
      [{ terms: ["month"], related: [] }],
      withLearned,
      corpus,
    );
    expect(learned).toBeGreaterThan(0);
    expect(none).toBe(0);
  });

  it("leaves arguments the index has never seen out of the query's mass", () => {
    const corpus = { size: 100, docFrequency: (t: string) => (t === "flight" || t === "lisbon" ? 0 : 5) };
    const mass = (query: string) => queryMass(queryTermGroups(query), corpus);
    // "Lisbon" is an argument: the request is as answerable as without it.
    expect(mass("book a flight to Lisbon")).toBeCloseTo(mass("book a flight"));
    // "flight" is not: a capability the catalog never names still weighs.
    expect(mass("book a flight")).toBeGreaterThan(mass("book"));
  });

  it("counts an argument as a concept only when the index has seen it", () => {
    const unseen = new Set(["lisbon", "ch", "3", "nx8", "lq2e"]);
    const corpus = { size: 100, docFrequency: (t: string) => (unseen.has(t) ? 0 : 5) };
    const concepts = (query: string) => requestConcepts(queryTermGroups(query), corpus);
    // "Lisbon" and the pieces of an id are arguments the index has never seen: no concepts.
    expect(concepts("book a flight to Lisbon")).toBe(concepts("book a flight"));
    expect(concepts("refund charge ch_3Nx8Lq2e")).toBe(concepts("refund charge"));
    // "Porto" is an argument too, but one the index holds: a concept like any other.
    expect(concepts("book a flight to Porto")).toBe(concepts("book a flight") + 1);
  });

  it("weighs a misspelled word as the word it may stand for", () => {
    const corpus = { size: 100, docFrequency: (t: string) => (t === "calendar" ? 5 : 0) };
    const typo = queryMass([{ terms: ["calender"], related: ["calendar"], corrected: true }], corpus);
    const word = queryMass([{ terms: ["calendar"], related: [] }], corpus);
    expect(typo).toBeCloseTo(word);
    // Unknown and not a misspelling: a concept the index never names, at an unseen term's weight.
    expect(queryMass([{ terms: ["calender"], related: [] }], corpus)).toBeGreaterThan(word);
  });

  it("reports the mass of the concepts a candidate leaves wholly unmatched", () => {
    const corpus = { size: 100, docFrequency: (t: string) => (t === "netflix" ? 0 : 5) };
    const groups = queryTermGroups("cancel my netflix subscription");
    const [stripe, other] = matches(
      [
        ["cancel subscript", ""],
        ["list charg", ""],
      ],
      groups,
      fields,
      corpus,
    );
    const netflix = queryMass(queryTermGroups("netflix"), corpus);
    // cancel_subscription matches cancel and subscription; netflix, a word the index lacks, is left.
    expect(stripe?.unmatched).toBeCloseTo(netflix);
    // A candidate matching nothing leaves the whole query.
    expect(other?.unmatched).toBeCloseTo(queryMass(groups, corpus));
    expect(other?.score).toBe(0);
  });

  it("lets a rank-only field (parameter text) order candidates without counting as evidence", () => {
    // Two weather tools; only the second takes coordinates. The request names them: the second
    // ranks first, yet "coordin" stays unmatched for relevance and adds nothing to its evidence.
    const withParams = [...fields, { weight: 0.3, b: 0.75, rankOnly: true }];
    const groups = queryTermGroups("weather at the coordinates 52.52, 13.41");
    const [city, point] = matches(
      [
        ["weather", "current weather", "citi name"],
        ["weather", "current weather", "latitud longitud coordin"],
      ],
      groups,
      withParams,
      corpus,
    );
    expect(point?.score).toBeGreaterThan(city?.score ?? Infinity);
    expect(point?.evidence).toBeCloseTo(city?.evidence ?? 0);
    expect(point?.unmatched).toBeCloseTo(city?.unmatched ?? 0);
    expect(point?.unmatched).toBeGreaterThan(0);
    // Without rank-only fields, evidence is the score.
    const [plain] = matches([["weather", "current weather"]], groups, fields, corpus);
    expect(plain?.evidence).toBe(plain?.score);
  });

  it("counts parameter text up to twice for a record whose description says less than its peers'", () => {
    // The same parameter; one endpoint says little of itself ("Get Suggestions"), the other much.
    const groups = queryTermGroups("dinner ideas with the ingredient salmon");
    const spec = { weight: 0.3, b: 0, rankOnly: true };
    const docs = [
      ["suggest", "get suggest", "ingredi"],
      ["recip", "search recip by name cuisin diet and cook time", "ingredi"],
      ["other", "", "ingredi"],
    ];
    const plain = matches(docs, groups, [...fields, spec], corpus);
    const leaning = matches(docs, groups, [...fields, { ...spec, shortOf: 1 }], corpus);
    // Without it the parameter counts the same for all three.
    expect(plain[0]?.score).toBeCloseTo(plain[1]?.score ?? 0);
    // With it, the terse description leans on its parameters, the long one not at all, and an
    // empty one counts them as if at twice the weight.
    expect(leaning[0]?.score).toBeGreaterThan(leaning[1]?.score ?? Infinity);
    expect(leaning[1]?.score).toBeCloseTo(plain[1]?.score ?? 0);
    const doubled = matches(docs, groups, [...fields, { ...spec, weight: 0.6 }], corpus);
    expect(leaning[2]?.score).toBeCloseTo(doubled[2]?.score ?? 0);
  });

  it("counts parameter text more in a long request, which spells out its arguments", () => {
    const spec = { weight: 0.3, b: 0, rankOnly: true, longRequest: { weight: 4.5, from: 8, to: 15 } };
    expect(fieldWeight(spec, 4)).toBe(0.3);
    expect(fieldWeight(spec, 8)).toBe(0.3);
    expect(fieldWeight(spec, 11.5)).toBeCloseTo(2.4);
    expect(fieldWeight(spec, 30)).toBe(4.5);
    // A tool named for the thing, and one that takes what the long request spells out.
    const docs = [
      ["hotel", "hotel by citi", "citi"],
      ["stay", "list stay", "adult park pool"],
    ];
    const short = queryTermGroups("hotels with a pool");
    const long = queryTermGroups(
      "hotels for two adults arriving friday for three nights with free parking and a pool, sorted by price",
    );
    const [namedShort, takesShort] = matches(docs, short, [...fields, spec], corpus);
    expect(namedShort?.score).toBeGreaterThan(takesShort?.score ?? Infinity);
    const [namedLong, takesLong] = matches(docs, long, [...fields, spec], corpus);
    expect(takesLong?.score).toBeGreaterThan(namedLong?.score ?? Infinity);
    // Without longRequest the name still wins the long request.
    const [namedFlat, takesFlat] = matches(
      docs,
      long,
      [...fields, { ...spec, longRequest: undefined }],
      corpus,
    );
    expect(namedFlat?.score).toBeGreaterThan(takesFlat?.score ?? Infinity);
  });

  it("reads a wholly unmatched concept as weaker evidence than its matched share alone says", () => {
    // Two results matching the same share of the same query: the one that leaves a concept with
    // no match at all (rather than matching every concept partly) is less likely to answer it.
    const partly = calibratedRelevance({ score: 3, unmatched: 0 }, 6, 3);
    const leavesOne = calibratedRelevance({ score: 3, unmatched: 2 }, 6, 3);
    expect(leavesOne).toBeLessThan(partly);
    expect(calibratedRelevance({ score: 6, unmatched: 0 }, 6, 3)).toBeGreaterThan(partly);
  });

  it("gives no credit for terms the index does not contain", () => {
    const scores = rescore([["refund", ""]], [{ terms: ["refund"], related: [] }], fields, {
      size: 100,
      docFrequency: () => 0,
    });
    expect(scores).toEqual([0]);
  });
});

describe("a product named in the context", () => {
  const corpus = { size: 100, docFrequency: () => 5 };

  it("counts fully where a field names the record's system, as a stand-in elsewhere", () => {
    // "i have the outlook message id — reply to the sender": outlook is context, and still says where.
    const groups = queryTermGroups("i have the outlook id — reply to the sender");
    expect(groups[0]).toMatchObject({ terms: [], related: ["outlook"], context: true });
    const fields = [
      { weight: 1, b: 0 },
      { weight: 1, b: 0, names: true },
    ];
    const [named, described] = rescore(
      [
        ["", "outlook"],
        ["outlook", ""],
      ],
      [groups[0] as TermGroup],
      fields,
      corpus,
    );
    expect(described).toBeGreaterThan(0);
    expect((described ?? 0) / (named ?? 1)).toBeCloseTo(RELATED_WEIGHT, 6);
  });
});
