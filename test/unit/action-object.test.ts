// The action-and-object rule of tool ranking (src/search/action-rules.ts, PAIR_BOOST): a request
// names an action and what it acts on ("create a github issue"); a tool whose name is that action
// and that object, in either naming convention (create_issue, issue_create), ranks above one that
// only shares the words (add_issue_comment acts on a comment). Read from structure, not word lists.
import { describe, expect, it } from "vitest";
import { actionObject, purposeOf } from "../../src/search/action-object";
import type { FtsIndex } from "../../src/search/fts-pipeline";
import { indexText } from "../../src/search/text";
import { pipelineSearch } from "../support/pipeline";

interface Doc {
  name: string;
  namespace: string;
  text: string;
}

const terms = (text: string) =>
  indexText(text)
    .split(" ")
    .filter((t) => t !== "");
const INDEX: FtsIndex<Doc, Doc> = {
  fields: (d) => [indexText(`${d.name} ${d.text}`)],
  rescoreFields: [{ weight: 1, b: 0.5 }],
  key: (d) => d.name,
  rankable: (d) => ({ name: d.name, namespace: d.namespace }),
  termOrder: "direct-first",
  exactAbove: "all-candidates",
  identity: (d) => terms(d.name),
  nameTerms: (d) => terms(`${d.namespace} ${d.name}`),
};
/** The same index without names read as action and object: what the rule changes. */
const LOOSE: FtsIndex<Doc, Doc> = { ...INDEX, identity: undefined, nameTerms: undefined };

const GITHUB: Doc[] = [
  {
    name: "add_issue_comment",
    namespace: "github",
    text: "Add a comment to an issue, under the issue's thread.",
  },
  { name: "get_issue", namespace: "github", text: "Read an issue." },
  { name: "create_issue", namespace: "github", text: "Open a new one in a repository." },
];

describe("actionObject", () => {
  it("reads the first word as the action and the end of the phrase after it as the object", () => {
    expect(actionObject("create a github issue")).toEqual({
      action: "creat",
      object: "issu",
      phrase: ["github", "issu"],
    });
    // The phrase ends at the first function word.
    expect(actionObject("delete the file from the bucket")).toMatchObject({
      action: "delet",
      object: "file",
    });
    expect(actionObject("please")).toBeNull();
    expect(actionObject("issues")).toBeNull();
  });
});

describe("the pair in a name", () => {
  it("ranks the name that is the action and its object above one that only shares the words", () => {
    const loose = pipelineSearch(LOOSE, GITHUB, "create a github issue").map((d) => d.name);
    const paired = pipelineSearch(INDEX, GITHUB, "create a github issue").map((d) => d.name);
    expect(loose.indexOf("add_issue_comment")).toBeLessThan(loose.indexOf("create_issue"));
    expect(paired[0]).toBe("create_issue");
    expect(paired.indexOf("create_issue")).toBeLessThan(paired.indexOf("add_issue_comment"));
  });

  it("reads a noun_verb name as well as a verb_noun one", () => {
    const docs: Doc[] = [
      {
        name: "comment_create",
        namespace: "tracker",
        text: "Create a comment on an issue, in the issue's thread.",
      },
      { name: "issue_create", namespace: "tracker", text: "Make one in a project." },
    ];
    expect(pipelineSearch(LOOSE, docs, "create an issue")[0]?.name).toBe("comment_create");
    expect(pipelineSearch(INDEX, docs, "create an issue")[0]?.name).toBe("issue_create");
  });

  it("asks for the whole object: a name with only its head is not lifted", () => {
    const docs: Doc[] = [
      { name: "get_workspace_details", namespace: "tfc", text: "Get the details of a workspace." },
      { name: "get_issue", namespace: "tracker", text: "Get an issue with its details." },
    ];
    const loose = pipelineSearch(LOOSE, docs, "get issue details").map((d) => d.name);
    expect(pipelineSearch(INDEX, docs, "get issue details").map((d) => d.name)).toEqual(loose);
  });

  it("asks only for the object's words some name holds: a value no name has does not stop it", () => {
    const docs: Doc[] = [
      { name: "plugins", namespace: "grafana", text: "The installed plugins: what was installed." },
      { name: "install_plugin", namespace: "grafana", text: "Install a plugin." },
    ];
    // "polystat" names the plugin to install: no tool's name holds it, so no name can pair with it.
    const query = "install the polystat plugin";
    expect(pipelineSearch(LOOSE, docs, query)[0]?.name).toBe("plugins");
    expect(pipelineSearch(INDEX, docs, query)[0]?.name).toBe("install_plugin");
  });
});

describe("the pair in a first sentence", () => {
  // A name without a verb (issue_write) says its action and object in its description.
  const docs: Doc[] = [
    {
      name: "add_issue_comment",
      namespace: "github",
      text: "Add a comment to a github issue.",
    },
    {
      name: "issue_write",
      namespace: "github",
      text: "Create a github issue, or edit one.",
    },
  ];
  const said = (d: Doc) => purposeOf(d.text);

  it("reads the first sentence as a request is read", () => {
    expect(purposeOf("Create an issue in a repository, or edit one. Then more.")).toEqual({
      action: "creat",
      object: "issu",
      phrase: ["issu"],
    });
    // The first sentence only, cut at its first clause mark.
    expect(purposeOf("Lists pull requests; create one with another tool.")).toMatchObject({
      object: "request",
    });
    expect(purposeOf("")).toBeNull();
  });

  it("lifts the tool whose first sentence is the request's action and object", () => {
    const without = pipelineSearch(INDEX, docs, "create a github issue").map((d) => d.name);
    const withSentence = pipelineSearch(INDEX, docs, "create a github issue", [], said).map((d) => d.name);
    expect(without[0]).toBe("add_issue_comment");
    expect(withSentence[0]).toBe("issue_write");
  });

  it("lifts nothing when the sentence acts on another object", () => {
    const query = "create a comment";
    expect(pipelineSearch(INDEX, docs, query, [], said).map((d) => d.name)).toEqual(
      pipelineSearch(INDEX, docs, query).map((d) => d.name),
    );
  });
});
