// Normalization, query concepts, literal regex patterns and the depth guard: pure functions, run in workerd.
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { tooDeepPath } from "../../src/http/json-depth";
import { requiredLiterals } from "../../src/search/regex-literals";
import { RELATED_WEIGHT } from "../../src/search/rerank";
import { documentTerms, MAX_QUERY_TERMS, queryTermGroups } from "../../src/search/text";
import { words } from "../../src/search/words";
import { literalAlternatives } from "../../src/tools/tool-search";
import { rawScores } from "../support/pipeline";

describe("words", () => {
  it("splits identifiers in every naming convention", () => {
    for (const name of [
      "createIssue",
      "create_issue",
      "create-issue",
      "github.create_issue",
      "CreateIssue",
    ]) {
      expect(words(name)).toEqual(expect.arrayContaining(["create", "issue"]));
    }
    expect(words("HTTPServer getURLPath")).toEqual(["http", "server", "get", "url", "path"]);
  });

  it("drops single letters but keeps numbers", () => {
    expect(words("what's e-mail v2 3")).toEqual(["what", "mail", "v2", "3"]);
  });
  it("reads the words of scripts written without spaces, and keeps a combining mark in its word", () => {
    expect(words("在仓库中创建一个新问题")).toEqual(["在", "仓库", "中", "创建", "一个", "新", "问题"]);
    expect(words("GitHub上创建issue")).toEqual(["git", "hub", "上", "创建", "issue"]);
    // A lone kana is a particle, as a lone Latin letter carries nothing; a Chinese character is a word.
    expect(words("新しい課題を作成する")).toEqual(["新しい", "課題", "作成", "する"]);
    expect(words("สร้างปัญหาใหม่")).toEqual(["สร้าง", "ปัญหา", "ใหม่"]);
    expect(words("खोज करें")).toEqual(["खोज", "करें"]);
    expect(words("한국어 검색 도구")).toEqual(["한국어", "검색", "도구"]);
  });

  it("folds accents as the full-text index does, composed or not", () => {
    expect(words("Créer un problème über café")).toEqual(["creer", "un", "probleme", "uber", "cafe"]);
    expect(words("cafe\u0301 CRÉER")).toEqual(["cafe", "creer"]);
    expect(words("Ça marche")).toEqual(["ca", "marche"]);
  });
});

describe("documentTerms", () => {
  it("stems so that inflections meet (deploy, deployment, deployed, deploying)", () => {
    const stems = ["deploy", "deployment", "deployed", "deploying"].map((w) => documentTerms(w)[0]);
    expect(new Set(stems).size).toBe(1);
  });

  it("reads an acronym's plural as one word", () => {
    expect(words("open PRs on URLs and IDs")).toEqual(["open", "prs", "on", "urls", "and", "ids"]);
    expect(words("HTTPServer getURLs")).toEqual(["http", "server", "get", "urls"]);
    expect(documentTerms("PRs")).toEqual(documentTerms("pull request"));
    // A compound reads the same written closed or open.
    expect(documentTerms("timezone filenames")).toEqual(documentTerms("time zone file name"));
  });

  it("folds synonyms to one word and expands abbreviations", () => {
    expect(documentTerms("remove")).toEqual(documentTerms("delete"));
    expect(documentTerms("repo")).toEqual(documentTerms("repository"));
    expect(documentTerms("PR")).toEqual(documentTerms("pull request"));
    // Plurals fold too, but a word that only looks like one stays itself: news are not new (create).
    expect(documentTerms("tickets")).toEqual(documentTerms("issue"));
    expect(documentTerms("news")).not.toEqual(documentTerms("new"));
    expect(documentTerms("access")).toEqual(["access"]);
  });

  it("drops stopwords", () => {
    expect(documentTerms("the list of the files")).toEqual(documentTerms("list files"));
  });
});

/** The terms of the query's concepts that carry `flag`. */
function termsOf(query: string, flag: "weak" | "noun"): string[] {
  return queryTermGroups(query)
    .filter((g) => g[flag])
    .flatMap((g) => g.terms);
}

describe("queryTermGroups", () => {
  it("keeps one concept per meaningful word, with related terms for everyday words", () => {
    const groups = queryTermGroups("please show a bug");
    expect(groups.map((g) => g.terms)).toEqual([documentTerms("show"), documentTerms("issue")]);
    expect(groups[0]?.related).toEqual(documentTerms("get list"));
  });

  it("reads abbreviations people type, and days and times", () => {
    const related = (query: string) => queryTermGroups(query).flatMap((g) => g.related);
    expect(related("gh issue")).toContain("github");
    expect(related("pg slow queries")).toContain("postgr");
    expect(related("utc to pst")).toEqual(expect.arrayContaining(["time", "zone"]));
    // One thing to another and nothing more is a conversion, unless its first word is an action.
    expect(related("utc to pst")).toContain("convert");
    expect(related("usd → eur")).toContain("convert");
    expect(related("upload to s3")).not.toContain("convert");
    expect(related("send the report to Bob")).not.toContain("convert");
    // A video call is a meeting; pushing a file up is uploading it.
    expect(related("get me a video call link")).toEqual(
      expect.arrayContaining(documentTerms("meeting online")),
    );
    expect(related("push report.csv to the bucket")).toContain("upload");
    // Saving work is committing it; marking something is setting it.
    expect(related("save my work in git")).toContain("commit");
    expect(related("mark it closed won")).toEqual(expect.arrayContaining(documentTerms("update set")));
    // Days and times ask about what happens then: events as much as forecasts.
    expect(related("anything on tomorrow?")).toEqual(expect.arrayContaining(["event", "forecast"]));
    expect(related("move my 1:1 to Friday")).toEqual(expect.arrayContaining(["event", "schedul"]));
  });

  it("never counts a related term that the query also says directly", () => {
    const groups = queryTermGroups("read a file");
    const direct = groups.flatMap((g) => g.terms);
    for (const g of groups) for (const t of g.related) expect(direct).not.toContain(t);
  });

  it("adds hints from the query's shape: a #channel, a question", () => {
    expect(
      queryTermGroups("post in #releases").some((g) => g.related.includes(documentTerms("channel")[0] ?? "")),
    ).toBe(true);
    expect(queryTermGroups("how many open pull requests").at(-1)?.related).toEqual(
      expect.arrayContaining(documentTerms("list")),
    );
    // Asking what one belongs to suggests membership.
    expect(queryTermGroups("which teams am I in?").flatMap((g) => g.related)).toEqual(
      expect.arrayContaining(documentTerms("joined member")),
    );
    expect(queryTermGroups("channels I'm a member of").flatMap((g) => g.related)).toEqual(
      expect.arrayContaining(documentTerms("joined")),
    );
    expect(queryTermGroups("I'm in Berlin, what's the weather").flatMap((g) => g.related)).not.toContain(
      documentTerms("member")[0],
    );
    // Setting something to a value ("to In Review", "to 3", "to 'Done'") suggests updating; a
    // range ("from Boston to Denver") or a destination in lowercase does not.
    const hinted = (query: string) =>
      queryTermGroups(query).some((g) => g.terms.length === 0 && g.related.includes("set"));
    expect(hinted("move ENG-142 to In Review")).toBe(true);
    expect(hinted("take the api back down to 2 replicas")).toBe(true);
    expect(hinted("how long is the drive from Denver to Boulder")).toBe(false);
    expect(hinted("send the report to the team")).toBe(false);
    // A time of day suggests time.
    expect(
      queryTermGroups("if it's 9am in Chicago, what is it for the folks in Sydney?").at(-1)?.related,
    ).toContain("time");
    // A latitude and longitude suggest coordinates.
    expect(queryTermGroups("it gave me 59.91, 10.75 — what street is that?").at(-1)?.related).toEqual(
      documentTerms("coordinates latitude longitude"),
    );
    // #42 is an issue or pull request number, not a channel.
    expect(queryTermGroups("gh issue #42").flatMap((g) => g.related)).not.toContain("channel");
    // Adding people to a channel invites them; adding a thing to one does not.
    const invites = (query: string) =>
      queryTermGroups(query)
        .flatMap((g) => g.related)
        .includes("invit");
    expect(invites("add Bob and Carla to #launch")).toBe(true);
    expect(invites("add @bob, @carla to #launch")).toBe(true);
    expect(invites("add the report to #launch")).toBe(false);
    // A terse reference to one numbered thing asks to see it; a request about one says what it does.
    expect(queryTermGroups("gh issue #42").flatMap((g) => g.related)).toContain("get");
    expect(queryTermGroups("comment on GitHub issue #512").flatMap((g) => g.related)).not.toContain("get");
  });

  it("reads a noun-or-verb word before an object as the action: file a bug, book a room", () => {
    expect(queryTermGroups("file a bug in jira")[0]).toEqual({
      terms: ["creat", "submit"],
      related: ["file"],
      acts: true,
    });
    expect(queryTermGroups("book the big room")[0]?.terms).toContain("reserv");
    // Not before an object: the noun it is.
    expect(queryTermGroups("read the file")[1]).toEqual({ terms: ["file"], related: [], noun: true });
    expect(queryTermGroups("profile a query")[0]?.terms).toEqual(["profil"]);
  });

  it("reads a phrasal verb as the action it means: get rid of, hand over, fire it off", () => {
    // The phrasal verb written as one word, then the action it means (see documentTerms).
    const action = (query: string, terms: string[]) =>
      expect(queryTermGroups(query)).toContainEqual({ terms, related: [], acts: true });
    action("get him into hubspot", ["getinto", "creat"]);
    action("save the pdf that came with the email", ["camewith", "attach"]);
    action("get rid of the stale lock file", ["getrid", "delet"]);
    action("hand over PROJ-88 to Mei", ["handov", "assign"]);
    // Up to two words may sit between the verb and its particle.
    action("write up a reply but don't fire it off yet", ["fireoff", "send"]);
    action("hand PROJ-88 over to Mei", ["handov", "assign"]);
    action("wait for the results table to show up", ["showup", "appear"]);
    expect(queryTermGroups("hand the old PROJ-88 ticket over").flatMap((g) => g.terms)).not.toContain(
      "assign",
    );
    // The verb and its particle make no concepts of their own ("fire" is not an incident).
    const terms = queryTermGroups("fire it off").flatMap((g) => [...g.terms, ...g.related]);
    expect(terms).toEqual(["fireoff", "send"]);
    // Any form of its verb: -s, -ing, a doubled consonant, …
    action("she hands it over to Mei", ["handov", "assign"]);
    action("spinning up a redis", ["spinup", "creat", "run"]);
    action("getting rid of the lock file", ["getrid", "delet"]);
    action("scaling up the api", ["scaleup", "scale", "replica"]);
    // … and in a past form it describes a state, as a past participle does.
    const state = (query: string, terms: string[]) =>
      expect(queryTermGroups(query)).toContainEqual({ terms, related: [], weak: true, state: true });
    state("who's said yes so far?", ["sayy", "accept", "respond"]);
    state("the files we backed up last night", ["backup", "copi"]);
    state("who woke up the on-call", ["wakeup", "page", "incid"]);
    action("shutting down the old server", ["shutdown", "stop", "delet"]);
    // A past form that is also the present is read as the present: a request.
    action("shut down the staging server", ["shutdown", "stop", "delet"]);
  });

  it("drops set phrases that name nothing: so far, by the way; and 'got'", () => {
    const said = (query: string) => queryTermGroups(query).flatMap((g) => [...g.terms, ...g.related]);
    expect(said("got the event id, who accepted?")).not.toContain("got");
    expect(said("who's accepted so far?")).not.toEqual(expect.arrayContaining(documentTerms("far")));
    expect(said("by the way, list my repos")).not.toContain(documentTerms("way")[0]);
    expect(said("how far is the airport")).toEqual(expect.arrayContaining(documentTerms("far")));
  });

  it("reads a phrasal verb written closed as the same phrasal verb: setup, set up", () => {
    const closed = queryTermGroups("setup a meeting with Ana")[0]?.terms ?? [];
    expect(closed).toEqual(documentTerms("setup"));
    expect(documentTerms("Set up a meeting in the calendar")).toEqual(expect.arrayContaining(closed));
    expect(queryTermGroups("set up a meeting").flatMap((g) => g.terms)).toEqual(
      expect.arrayContaining(closed),
    );
    expect(documentTerms("sign up")).toEqual(expect.arrayContaining(documentTerms("signup")));
    expect(documentTerms("you can set up alerts")).toContain(documentTerms("setup")[0]);
  });

  it("lets quoted text, #names, light verbs and participles match only as stand-ins", () => {
    const weak = (query: string) => termsOf(query, "weak");
    expect(weak("hit the 'Sign in' button")).toEqual(["sign"]);
    expect(weak('commit with the message "fix login"')).toEqual(["fix", "login"]);
    expect(weak("add Bob to #launch")).toEqual(["run"]);
    expect(weak("take me to the page I was on before")).toEqual(["take"]);
    expect(weak("open https://github.com/acme/web/pull/3")).toEqual([
      "https",
      "github",
      "com",
      "acm",
      "web",
      "pull",
      "3",
    ]);
    // Past participles describe a state to look for: "bugs assigned to me" asks for no assigning.
    expect(weak("list the open bugs assigned to me")).toEqual(["assign"]);
    expect(weak("what's deployed in staging")).toEqual(["deploy"]);
    expect(weak("I need more speed")).toEqual([]);
    // What a third party can or will do describes; it does not ask ("a link folks can click").
    expect(weak("I need a link folks can click to pay")).toEqual(["click"]);
    expect(weak("share the doc so she can leave comments")).toEqual(["leav"]);
    expect(weak("I can't find the invoice")).toEqual([]);
    expect(weak("can you click the button")).toEqual([]);
    // Apostrophes are not quotes.
    expect(weak("what's on Maria's plate, don't guess")).toEqual([]);
  });

  it("scores a stand-in word at RELATED_WEIGHT of the same match by a plain word", () => {
    const docs = [
      { name: "take_screenshot", text: "take screenshot" },
      { name: "snap_screenshot", text: "snap screenshot" },
      { name: "go_back", text: "go back" },
    ];
    const fields = [{ weight: 1, b: 0 }];
    const light = rawScores(docs, "take", fields).get("take_screenshot") ?? 0;
    const plain = rawScores(docs, "snap", fields).get("snap_screenshot") ?? 0;
    expect(plain).toBeGreaterThan(0);
    expect(light / plain).toBeCloseTo(RELATED_WEIGHT, 6);
  });

  it("leaves out the words of paths and email addresses: names, not capabilities", () => {
    const terms = (query: string) => queryTermGroups(query).flatMap((g) => g.terms);
    // "acme/web" is not about the web, "dana@example.com" not about examples.
    expect(terms("list open PRs on acme/web")).toEqual(["list", "open", "pull", "request"]);
    expect(terms("make my own copy of facebook/react")).not.toContain("react");
    expect(terms("email the summary to dana@example.com")).toEqual(["send", "summari"]);
    // A URL's path is a literal; a scheme other than the web's names the service (s3://, gs://).
    const weak = (query: string) =>
      queryTermGroups(query)
        .filter((g) => g.weak)
        .flatMap((g) => g.terms);
    expect(weak("push it up to s3://reports/2024/")).toEqual(["report", "2024"]);
    expect(terms("push it up to s3://reports/2024/")).toContain("s3");
    expect(weak("fetch https://example.com/docs")).toEqual(expect.arrayContaining(["https", "exampl"]));
    // A query of identifiers alone is searched for them, as stand-ins.
    expect(queryTermGroups("acme/web")).toEqual([
      { terms: ["acm"], related: [], weak: true },
      { terms: ["web"], related: [], weak: true },
    ]);
  });

  it("reads the word after a copula as a state, and states as stand-ins", () => {
    const states = (query: string) =>
      queryTermGroups(query)
        .filter((g) => g.state)
        .flatMap((g) => g.terms);
    expect(states("which pull requests are open?")).toEqual(["open"]);
    expect(states("deploy went out; check which monitors are red now")).toEqual(["red"]);
    expect(states("the query has been running 40 minutes")).toEqual(["run"]);
    expect(states("list the open bugs assigned to me")).toEqual(["assign"]);
    // A copula followed by a function word marks nothing; a past participle is a state anywhere.
    expect(states("what is deployed")).toEqual(["deploy"]);
    expect(states("is redis up? are there open PRs?")).toEqual([]);
    expect(states("which calendar is the team one")).toEqual([]);
    expect(queryTermGroups("which PRs are open").find((g) => g.state)?.weak).toBe(true);
  });

  it("keeps a name that is a thing to itself: 'the Archive folder' is not about archiving", () => {
    const archive = queryTermGroups("move the invoices into the Archive folder").find((g) =>
      g.terms.includes("archiv"),
    );
    expect(archive).toMatchObject({ related: [], argument: true, noun: true });
    expect(queryTermGroups("archive the invoices")[0]?.related).not.toEqual([]);
  });

  it("drops pronouns and what contractions leave of a word", () => {
    expect(documentTerms("we're done with him; don't wait, we've shipped")).toEqual(
      documentTerms("done with; wait, shipped"),
    );
  });

  it("marks the head of a phrase after an article or a possessive as a noun", () => {
    const nouns = (query: string) => termsOf(query, "noun");
    expect(nouns("the build is green")).toEqual(["build"]);
    // One word may sit between; it names the thing too ("the tracking spreadsheet" is not about
    // tracking), unless it folds to another word ("a new page": new is create, and adjectives
    // like it say what to do with the thing).
    expect(nouns("git log of my local checkout")).toEqual(["local", "checkout"]);
    expect(nouns("add a row to the tracking spreadsheet")).toEqual(["row", "track", "spreadsheet"]);
    expect(nouns("jot it down as a new page in the wiki")).toEqual(["page", "wiki"]);
    expect(nouns("build an image")).toEqual(["imag"]);
    // A verb-or-noun word before an object acts.
    expect(nouns("file a bug")).toEqual(["issu"]);
  });

  it("reads a verb of placing before 'a' or 'an' as adding something: drop a marker, leave a note", () => {
    const first = (query: string) => queryTermGroups(query)[0];
    expect(first("drop a marker on the dashboard")).toEqual({ terms: ["creat"], related: [], acts: true });
    expect(first("leave a comment on the ticket")).toEqual({ terms: ["creat"], related: [], acts: true });
    // Other objects keep the verb's own sense.
    expect(first("drop the old table")?.terms).toEqual(["delet"]);
    expect(first("leave the #random channel")?.terms).toEqual(["leav"]);
  });

  it("gives 'open' the sense of creating only before an object", () => {
    const related = (query: string) => queryTermGroups(query).flatMap((g) => [...g.terms, ...g.related]);
    expect(related("open a bug in jira")).toContain("creat");
    expect(related("which pull requests are still open?")).not.toContain("creat");
    expect(related("list the open bugs")).not.toContain("creat");
  });

  it("gives 'page' the sense of paging someone only as a verb", () => {
    const related = (query: string) => queryTermGroups(query).flatMap((g) => [...g.terms, ...g.related]);
    expect(related("page the database on-call")).toContain("incid");
    expect(related("make a new page in the notion wiki")).not.toContain("incid");
  });

  it("lets the context of a mid-task request only stand in for its words", () => {
    const groups = queryTermGroups("now that the PR is merged, close out the ticket in jira");
    expect(groups.find((g) => g.related.includes("merg"))?.terms).toEqual([]);
    expect(groups.find((g) => g.terms.includes("issu"))).toBeDefined();
    expect(queryTermGroups("the deploy failed — grab the pod logs")[0]).toEqual({
      terms: [],
      related: ["deploy"],
      context: true,
    });
    // A clause of what comes before or after, up to the request's subject.
    const before = queryTermGroups("before creating the ticket I need the id of the team in linear");
    expect(before.find((g) => g.related.includes("creat"))).toMatchObject({ terms: [], context: true });
    expect(queryTermGroups("after deploying, we need the logs")[0]).toMatchObject({ context: true });
    // What the answer is for, said after the request, is context too.
    const forTicket = queryTermGroups(
      "what's the key of the mobile project in jira? need it for the new ticket",
    );
    expect(forTicket.find((g) => g.related.includes("issu"))).toMatchObject({ terms: [], context: true });
    expect(forTicket.find((g) => g.terms.includes("project"))).toBeDefined();
    // No context: every word is the request.
    expect(queryTermGroups("merge the PR")[0]?.terms).toEqual(["merg"]);
  });

  it("lets the content a request spells out after a colon only stand in", () => {
    const groups = queryTermGroups("add to the insights memo: churn spiked in february");
    expect(groups.find((g) => g.terms.includes("memo"))?.context).toBeUndefined();
    expect(groups.find((g) => g.related.includes("churn"))).toMatchObject({ terms: [], context: true });
    // An id before the colon is still the request's ("on P9ZK21M: …").
    const note = queryTermGroups("drop a note on P9ZK21M: rolled back the deploy");
    expect(note.find((g) => g.related.includes("deploy"))).toMatchObject({ terms: [], context: true });
    // A colon inside a name ("Magic: The Gathering") and a lone label ("Note: …") end nothing.
    const title = queryTermGroups("find a card from Magic: The Gathering");
    expect(title.find((g) => g.terms.includes("gather"))?.context).toBeUndefined();
    expect(queryTermGroups("Note: list the open issues").some((g) => g.context)).toBe(false);
    // Context before a dash comes first: the request after it keeps its words up to its own colon.
    const after = queryTermGroups("the deploy failed: rolled back — post in the incident channel");
    expect(after.find((g) => g.terms.includes("post"))?.context).toBeUndefined();
  });

  it("marks the request's arguments: names inside a sentence and words of tokens with digits", () => {
    const args = (query: string) =>
      queryTermGroups(query)
        .filter((g) => g.argument)
        .flatMap((g) => g.terms);
    expect(args("hand PROJ-88 over to Mei in jira")).toEqual(["proj", "88", "mei"]);
    expect(args("Setup a call with Ana")).toEqual(["ana"]);
    // A capital that starts the request or a sentence is no name.
    expect(args("Cancel it. Then email the team")).toEqual([]);
  });

  it("reads numbers, the letters of an id and the words of a file name as values, not as what is asked", () => {
    const group = (query: string, term: string) => queryTermGroups(query).find((g) => g.terms.includes(term));
    // "sub" of sub_1Pq9 and "pay" of PAY-1432 spell ids: they only stand in.
    expect(group("cancel sub_1Pq9 for the customer", "sub")).toMatchObject({ weak: true, argument: true });
    expect(group("whats the status of PAY-1432?", "payment")).toMatchObject({ weak: true, argument: true });
    // So do numbers, and the words of a dotted name: a file, a collection.
    expect(group("show me page 2 of the results", "2")).toMatchObject({ weak: true });
    expect(group("rename draft.docx to final.docx", "draft")).toMatchObject({ weak: true });
    expect(group("rename draft.docx to final.docx", "renam")?.weak).toBeUndefined();
    // A word that holds its digits is a word: the s3 of "s3 bucket", oauth2.
    expect(group("list my s3 buckets", "s3")?.weak).toBeUndefined();
    expect(group("refresh the oauth2 token", "oauth2")?.weak).toBeUndefined();
    expect(group("cancel sub_1Pq9 for the customer", "cancel")?.weak).toBeUndefined();
  });

  it("returns nothing for text without a searchable word", () => {
    expect(queryTermGroups('"" * AND ( ) -- ^ 🙂')).toEqual([]);
  });

  it("caps the number of distinct terms", () => {
    const many = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
    expect(queryTermGroups(many).flatMap((g) => g.terms)).toHaveLength(MAX_QUERY_TERMS);
  });
});

describe("tooDeepPath", () => {
  it("names the first value nested deeper than the limit", () => {
    expect(tooDeepPath({ a: [{ b: 1 }] }, 3)).toBeNull();
    expect(tooDeepPath({ a: [{ b: { c: 1 } }] }, 3)).toBe("a[0].b");
  });

  it("walks a very deep value without exhausting the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(tooDeepPath(deep)).toMatch(/^(\[0\]){64}$/);
  });
});

describe("literal regex patterns", () => {
  const ci = (p: string) => RE2JS.compile(p, RE2JS.CASE_INSENSITIVE);

  it("recognizes literal text and alternations, and nothing with regex syntax", () => {
    expect(literalAlternatives("Webhook")).toEqual(["webhook"]);
    expect(literalAlternatives("refund|charge")).toEqual(["refund", "charge"]);
    expect(literalAlternatives("s3\\.get_object")).toEqual(["s3.get_object"]);
    for (const p of ["a.b", "^a", "a$", "a+", "(a|b)", "[ab]", "a|", "\\d", "a?"])
      expect(literalAlternatives(p)).toBeNull();
  });

  it("gives RE2's case-insensitive answer on ASCII text (find, full match, prefix)", () => {
    const piece = fc.stringMatching(/^[A-Za-z0-9_:-]{1,4}$/);
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 3 }),
        fc.stringMatching(/^[ -~]{0,30}$/),
        (alts, text) => {
          const pattern = alts.join("|");
          const literals = literalAlternatives(pattern) ?? [];
          const lower = text.toLowerCase();
          const re = ci(pattern);
          expect(literals.some((l) => lower.includes(l))).toBe(re.test(text));
          expect(literals.includes(lower)).toBe(re.matches(text));
          expect(literals.some((l) => lower.startsWith(l))).toBe(re.matcher(text).lookingAt());
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("requiredLiterals", () => {
  it("finds the literal runs every match contains", () => {
    expect(requiredLiterals("^k8s.*pod")).toEqual(["k8s", "pod"]);
    expect(requiredLiterals("s3\\.(get|put)_Object")).toEqual(["s3.", "_object"]);
    expect(requiredLiterals("logs?")).toEqual(["log"]);
    expect(requiredLiterals("[a-z]+_file$")).toEqual(["_file"]);
    expect(requiredLiterals("a|b")).toEqual([]);
    expect(requiredLiterals("\\Qa.b\\E")).toEqual([]);
  });

  it("never rules out a text that RE2 matches", () => {
    const atom = fc.constantFrom(
      "a",
      "b",
      "k8s",
      "_",
      ".",
      "\\.",
      "x?",
      "y*",
      "z+",
      "(a|b)",
      "[ab]",
      "^",
      "$",
      "\\d",
      "c{2}",
      "(?i)",
      "-",
    );
    fc.assert(
      fc.property(
        fc.array(atom, { minLength: 1, maxLength: 6 }),
        fc.stringMatching(/^[abxyzck8s_.0-9-]{0,16}$/),
        (atoms, text) => {
          const pattern = atoms.join("");
          let re: RE2JS;
          try {
            re = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
          } catch {
            return;
          }
          if (re.test(text)) {
            for (const literal of requiredLiterals(pattern)) expect(text.toLowerCase()).toContain(literal);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
