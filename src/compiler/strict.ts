// Strict mode of the pack build (`npm run build:packs -- --strict`, or TROVE_PACKS_STRICT=1 for
// `npm start`, `npm run deploy` and wrangler's [build] command): every warning fails the build, for
// operators who want skills held to the letter of their specifications. Read by scripts/build-packs.ts.
import type { PackProblem } from "./problems";

/** The environment variable that turns strict mode on where no flag can be passed. */
export const STRICT_ENV = "TROVE_PACKS_STRICT";

const ON = new Set(["1", "true", "yes", "on"]);
const OFF = new Set(["", "0", "false", "no", "off"]);

/**
 * The build's options from its arguments and environment; throws on an unknown argument or a
 * TROVE_PACKS_STRICT that is neither on nor off (a typo must not silently turn strict mode off).
 *
 * @example
 * buildOptions(["--strict"], {}); // { strict: true }
 * buildOptions([], { TROVE_PACKS_STRICT: "1" }); // { strict: true }
 */
export function buildOptions(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { strict: boolean } {
  const unknown = args.filter((arg) => arg !== "--strict");
  if (unknown.length > 0) throw new Error(`unknown argument ${unknown.join(" ")} (the only one is --strict)`);
  const value = env[STRICT_ENV]?.trim().toLowerCase() ?? "";
  if (!ON.has(value) && !OFF.has(value)) {
    throw new Error(`${STRICT_ENV} must be 1 or 0 (or true/false, yes/no, on/off), not "${env[STRICT_ENV]}"`);
  }
  return { strict: args.includes("--strict") || ON.has(value) };
}

/** In strict mode warnings are errors too (after the errors, in their order); otherwise unchanged. */
export function applyStrict(
  problems: { errors: PackProblem[]; warnings: PackProblem[] },
  strict: boolean,
): { errors: PackProblem[]; warnings: PackProblem[] } {
  return strict
    ? { errors: [...problems.errors, ...problems.warnings], warnings: [] }
    : { errors: problems.errors, warnings: problems.warnings };
}
