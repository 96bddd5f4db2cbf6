// User-supplied regular expressions: RE2 (linear time), bounded length, errors that name the field.
import { RE2JS } from "re2js";
import { TroveError } from "../errors";
import type { NameTests } from "./scoring";

export const MAX_PATTERN_LENGTH = 200;

/** Compiles a user pattern with RE2 (linear time, no backtracking blow-ups). */
export function compileUserPattern(pattern: string): RE2JS {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new TroveError(
      "pattern_too_long",
      400,
      `regex patterns are limited to ${MAX_PATTERN_LENGTH} characters`,
      {
        field: "query",
        limit: MAX_PATTERN_LENGTH,
        length: pattern.length,
      },
    );
  }
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (err) {
    throw new TroveError("invalid_pattern", 400, "query is not a valid regular expression", {
      field: "query",
      reason: err instanceof Error ? err.message : String(err),
    });
  }
}

/** The name tests of a compiled pattern, for `nameScore`. */
export function patternTests(re: RE2JS): NameTests<string> {
  return {
    found: (name) => re.test(name),
    whole: (name) => re.matches(name),
    prefix: (name) => re.matcher(name).lookingAt(),
  };
}
