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
