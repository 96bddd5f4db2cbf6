// Names of Trove's own tools, which the model calls and the agent forwards to the operation of the
// same name (definitions in builtins.ts). The agent's catalog may not use them.
export const BUILTIN_NAMES = [
  "tool_search",
  "skill_search",
  "skill_load",
  "skill_read_file",
  "skill_enable",
  "skill_disable",
  "pack_open_docs",
  "pack_read_file",
  "pack_enable_tools",
] as const;

export type BuiltinName = (typeof BUILTIN_NAMES)[number];

/**
 * Every operation's name (the registry's, kept here so rendering code can use it without importing
 * the registry; a test checks the two agree). Skill text naming them talks about Trove's API, not
 * about a tool the session might be denied.
 */
export const OPERATION_NAMES = [
  "session_get",
  "session_configure",
  "session_delete",
  "catalog_sync",
  "tool_search",
  "tool_activate",
  "tool_deactivate",
  "tool_resolve",
  "approval_decide",
  "context",
  "state",
  "events",
  "skill_search",
  "skill_get",
  "skill_list",
  "skill_directory",
  "skill_load",
  "skill_read_file",
  "skill_enable",
  "skill_disable",
  "pack_list",
  "pack_attach",
  "pack_detach",
  "pack_open_docs",
  "pack_read_file",
  "pack_enable_tools",
] as const;
