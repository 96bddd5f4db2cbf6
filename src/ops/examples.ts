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

/** How the core pack's find-tools skill is listed. */
export const FIND_TOOLS_LISTED = {
  name: "find-tools",
  id: "core/find-tools",
  title: "Finding tools with tool_search",
  trigger: "Find a tool that is not in your tool list yet with tool_search. Use it when …",
};
