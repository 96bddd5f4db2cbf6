// The agent's catalog the integration tests seed sessions with (GitHub, Slack, an always-loaded tool
// and a dangerous one), each record written once: a test lists the records it needs, in its order.

/** A strict schema: `repo` is `owner/name`, `title` is required, `labels` are strings. */
export const ISSUE_SCHEMA = {
  type: "object",
  properties: {
    repo: { type: "string", pattern: "^[^/]+/[^/]+$" },
    title: { type: "string", minLength: 1 },
    labels: { type: "array", items: { type: "string" } },
  },
  required: ["repo", "title"],
};

export const CREATE_ISSUE = {
  name: "github.create_issue",
  description: "Create an issue in a GitHub repository",
  side_effects: "write",
  input_schema: ISSUE_SCHEMA,
};

export const CREATE_PR = {
  name: "github.create_pr",
  description: "Open a pull request on GitHub",
  side_effects: "write",
};

/** No input_schema: any arguments are valid. */
export const LIST_REPOS = {
  name: "github.list_repos",
  description: "List the repositories of a GitHub owner",
};

export const SEND_MESSAGE = {
  name: "slack.send_message",
  description: "Post a message to a Slack channel",
  side_effects: "external",
};

/** Loaded in every context by its own record, whatever the session's default. */
export const WEATHER_NOW = {
  name: "weather.now",
  description: "Current weather for a city",
  loading_mode: "always",
};

/** The tool a policy denies. */
export const WIPE_DISK = {
  name: "secret.wipe_disk",
  description: "Erase every disk in the fleet",
  side_effects: "stateful",
};

/** The catalog most sessions start from: two GitHub tools and one Slack tool, all deferred. */
export const GITHUB_SLACK = [CREATE_ISSUE, LIST_REPOS, SEND_MESSAGE];

/** The fingerprint of an empty catalog: SHA-256 of the empty string. */
export const EMPTY_FINGERPRINT = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/**
 * An object schema OpenAI's strict mode accepts as written: every property required, nothing else
 * allowed.
 */
export const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
  ...extra,
});
