// Material the operations' examples share (the examples are run by test/integration/examples.test.ts
// and shown in OpenAPI and /docs).

/** A one-tool catalog, synced before the examples that act on a tool. */
export const SYNC_CREATE_ISSUE = {
  op: "catalog_sync",
  input: {
    tools: [
      {
        name: "github.create_issue",
        description: "Create an issue in a GitHub repository",
        input_schema: {
          type: "object",
          properties: { repo: { type: "string" }, title: { type: "string" } },
          required: ["repo", "title"],
        },
      },
    ],
  },
};

/** What that sync answers (and what its catalog_synced event holds, with the mode). */
export const SYNCED_CREATE_ISSUE = {
  fingerprint: "5d41402abc4b2a76b9719d911017c592ae5d5e7a4f1b9c2b6b3c1d4e5f6a7b8c",
  added: 1,
  updated: 0,
  removed: 0,
  unchanged: 0,
  total: 1,
};

/** How the core pack's find-tools skill is listed. */
export const FIND_TOOLS_LISTED = {
  name: "find-tools",
  id: "core/find-tools",
  title: "Finding tools with tool_search",
  trigger: "Find a tool that is not in your tool list yet with tool_search. Use it when …",
};
