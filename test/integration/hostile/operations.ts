// The same hostile shapes against every operation of the registry: a body nesting past the limit,
// an own `constructor` key, a body cut short, and a huge array in an unknown field.
import {
  deepObjectPath,
  type HostileCase,
  invalid,
  invalidJson,
  nestedObject,
  OPERATION_NAMES,
  post,
  tooDeep,
} from "./cases";

/** A body each operation accepts (the names need not exist: these cases fail before lookup). */
export const VALID_BODY: Record<(typeof OPERATION_NAMES)[number], Record<string, unknown>> = {
  session_get: {},
  session_configure: {},
  session_delete: {},
  catalog_sync: { tools: [] },
  tool_search: { query: "x" },
  tool_activate: { names: ["math.add"] },
  tool_deactivate: { names: ["math.add"] },
  tool_resolve: { name: "math.add" },
  approval_decide: { approval_id: "apr_x", decision: "deny" },
  context: {},
  state: {},
  events: {},
  skill_search: { query: "x" },
  skill_get: { names: ["x"] },
  skill_list: {},
  skill_directory: {},
  skill_load: { name: "x" },
  skill_read_file: { skill: "x", path: "y" },
  skill_enable: { name: "x" },
  skill_disable: { name: "x" },
  pack_list: {},
  pack_attach: { pack_id: "x" },
  pack_detach: { pack_id: "x" },
  pack_open_docs: { pack_id: "x" },
  pack_read_file: { pack_id: "x", path: "y" },
  pack_enable_tools: { pack_id: "x" },
};

const withField = (body: Record<string, unknown>, key: string, json: string) => {
  const base = JSON.stringify(body);
  return `${base.slice(0, -1)}${base === "{}" ? "" : ","}"${key}":${json}}`;
};

export const OPERATION_CASES: HostileCase[] = OPERATION_NAMES.flatMap((name) => {
  const body = VALID_BODY[name];
  const text = JSON.stringify(body);
  return [
    post(
      name,
      "a value nested 70 levels deep in an unknown field",
      withField(body, "x", nestedObject(70)),
      tooDeep(deepObjectPath("x")),
    ),
    post(name, "an own constructor key", withField(body, "constructor", "{}"), invalid("constructor")),
    post(name, "a body cut short by one character", text.slice(0, -1), invalidJson),
    post(
      name,
      "100,000 items in an unknown field",
      withField(body, "items", `[${"0,".repeat(99_999)}0]`),
      invalid("items"),
    ),
  ];
});
