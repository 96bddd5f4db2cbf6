// Checks call arguments against a tool's input_schema with a JSON Schema validator that runs on Workers.
import { Validator } from "@cfworker/json-schema";
import { RE2JS } from "re2js";
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
    const validator = validatorFor(schema);
    if (!validator) return null;
    const long = uniqueItemsTooLong(schema, value);
    if (long) return long;
    return withLinearRegExp(() => validator.validate(value));
  } catch {
    return null;
  }
}

// ── Bounded `uniqueItems` ─────────────────────────────────────────────────────────────────────────
// The validator compares every pair of items (n², with deep comparison of objects): 20,000 items
// take seconds. Arguments a model sends hold far fewer; when the schema asks for unique items
// anywhere, an array longer than this is refused instead of compared.

export const MAX_UNIQUE_ITEMS = 500;

function uniqueItemsTooLong(schema: Record<string, unknown>, value: unknown) {
  if (!JSON.stringify(schema).includes('"uniqueItems":true')) return null;
  const found = arrayLongerThan(value, MAX_UNIQUE_ITEMS, "");
  if (found === null) return null;
  return {
    valid: false,
    errors: [
      {
        instanceLocation: `#${found.path}`,
        keyword: "uniqueItems",
        keywordLocation: "#",
        error: `${found.length} items are too many to check for uniqueness (at most ${MAX_UNIQUE_ITEMS})`,
      },
    ],
  };
}

/** The first array below `value` with more than `max` items, by JSON pointer. */
function arrayLongerThan(value: unknown, max: number, path: string): { path: string; length: number } | null {
  if (Array.isArray(value)) {
    if (value.length > max) return { path: path || "/", length: value.length };
    for (let i = 0; i < value.length; i++) {
      const found = arrayLongerThan(value[i], max, `${path}/${i}`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) {
      const found = arrayLongerThan(child, max, `${path}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`);
      if (found) return found;
    }
  }
  return null;
}

// ── Linear-time `pattern` ─────────────────────────────────────────────────────────────────────────
// The validator matches `pattern` and `patternProperties` with `new RegExp(…).test(…)`: JavaScript's
// backtracking engine, on schemas from the catalog and strings from the model. `^(a+)+$` against 30
// characters takes seconds. While it validates, `RegExp` is an RE2 (re2js) stand-in: linear time,
// same syntax for what RE2 supports. A pattern RE2 cannot compile (lookaround, backreferences) but
// JavaScript can is not enforced — a constraint we cannot check in bounded time checks nothing.

const NativeRegExp = RegExp;
const compiled = new Map<string, RE2JS | null>();

class LinearRegExp {
  readonly #re: RE2JS | null;

  constructor(pattern: string, flags?: string) {
    let re = compiled.get(pattern);
    if (re === undefined) {
      try {
        re = RE2JS.compile(pattern);
      } catch {
        new NativeRegExp(pattern, flags); // invalid for JavaScript too: throw its SyntaxError
        re = null;
      }
      if (compiled.size > 500) compiled.clear();
      compiled.set(pattern, re);
    }
    this.#re = re;
  }

  test(text: string): boolean {
    return this.#re === null || this.#re.matcher(text).find();
  }
}

/** Runs `fn` (synchronous) with the global RegExp constructor replaced by LinearRegExp. */
function withLinearRegExp<T>(fn: () => T): T {
  const global = globalThis as { RegExp: RegExpConstructor };
  global.RegExp = LinearRegExp as unknown as RegExpConstructor;
  try {
    return fn();
  } finally {
    global.RegExp = NativeRegExp;
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
