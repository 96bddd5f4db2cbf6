// The same hostile shapes against every operation of the registry: a body nesting past the limit,
// an own `constructor` key, a body cut short, and a huge array in an unknown field.

import { OPERATIONS } from "../../../src/ops/registry";
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

/** A body each operation accepts: its declared example (these cases fail before any lookup). */
export const VALID_BODY = new Map<string, Record<string, unknown>>(
  OPERATIONS.map((op) => [op.name, op.example.input as Record<string, unknown>]),
);

const withField = (body: Record<string, unknown>, key: string, json: string) => {
  const base = JSON.stringify(body);
  return `${base.slice(0, -1)}${base === "{}" ? "" : ","}"${key}":${json}}`;
};

export const OPERATION_CASES: HostileCase[] = OPERATION_NAMES.flatMap((name) => {
  const body = VALID_BODY.get(name) ?? {};
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
