// Checks call arguments against a tool's input_schema with a JSON Schema validator that runs on Workers.
import { Validator } from "@cfworker/json-schema";
import { TroveError } from "../errors";

const cache = new Map<string, Validator | null>();

/** A compiled validator for a schema (cached by its JSON), or null when it cannot be compiled. */
export function validatorFor(schema: Record<string, unknown>): Validator | null {
  const key = JSON.stringify(schema);
  let validator = cache.get(key);
  if (validator === undefined) {
    try {
      validator = new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12", false);
    } catch {
      validator = null; // a schema the validator cannot compile constrains nothing we can check
    }
    if (cache.size > 500) cache.clear();
    cache.set(key, validator);
  }
  return validator;
}

/**
 * The validator's verdict, or null when the schema cannot be used (it does not compile, or it
 * fails while validating, e.g. an unresolvable $ref): such a schema constrains nothing we can check.
 */
export function validateSafely(
  schema: Record<string, unknown>,
  value: unknown,
): ReturnType<Validator["validate"]> | null {
  try {
    return validatorFor(schema)?.validate(value) ?? null;
  } catch {
    return null;
  }
}

/** Keywords whose errors only say "a nested value failed"; the nested error says which. */
const WRAPPERS = new Set(["properties", "items", "$ref", "allOf", "anyOf", "oneOf"]);

/** Throws 422 `invalid_arguments` listing every violation (path, keyword, message). */
export function assertValidArgs(
  schema: Record<string, unknown> | undefined,
  args: Record<string, unknown>,
): void {
  if (!schema) return;
  const result = validateSafely(schema, args);
  if (!result || result.valid) return;
  // `additionalProperties: false` reports the extra key twice: as itself and as a failed `false`
  // schema; the first says what is wrong.
  const leaves = result.errors.filter((e) => !WRAPPERS.has(e.keyword) && e.keyword !== "false");
  const violations = (leaves.length > 0 ? leaves : result.errors).slice(0, 50).map((e) => ({
    path: e.instanceLocation.replace(/^#/, "") || "/",
    keyword: e.keyword,
    message: e.error,
  }));
  throw new TroveError("invalid_arguments", 422, "arguments do not match the tool's input_schema", {
    field: "args",
    violations,
  });
}
