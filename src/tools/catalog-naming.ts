// Naming in the catalog: the provider names the model sees (unique, never revealing a denied tool)
// and the names reserved for Trove's own tools.
import { z } from "zod";
import { jsonChunks, type Sql } from "../db/sql";
import { validationError } from "../errors";
import { providerNames } from "./provider-names";

/**
 * The names of Trove's own tools are the model's: the agent's catalog may not use one. The same
 * 400 a schema issue gets, naming each offending `tools[i].name`.
 */
export function assertNotReserved(tools: readonly { name: string }[], reserved: readonly string[]): void {
  const issues = tools.flatMap((tool, i) =>
    reserved.includes(tool.name)
      ? [
          {
            code: "custom" as const,
            path: ["tools", i, "name"],
            message: `"${tool.name}" is reserved for Trove`,
            input: tool.name,
          },
        ]
      : [],
  );
  if (issues.length > 0) throw validationError(new z.ZodError(issues));
}

/**
 * Provider names for the tools the policy allows; denied tools get none (a denied tool must not
 * change another tool's name, which would reveal it).
 */
export function desiredProviderNames(
  allowed: readonly string[],
  present: readonly string[],
  reserved: readonly string[],
): Map<string, string | null> {
  const names = providerNames(allowed, reserved);
  return new Map(present.map((name) => [name, names.get(name) ?? null]));
}

/**
 * Provider names stay unique: every stored name that is about to change is cleared first; the
 * desired names are injective, so afterwards nothing can collide.
 */
export function freeProviderNames(
  sql: Sql,
  desired: ReadonlyMap<string, string | null>,
  current: ReadonlyMap<string, { provider: string | null }>,
  ids: ReadonlyMap<string, number>,
): void {
  const changing = [...current]
    .filter(([name, s]) => desired.has(name) && s.provider !== null && s.provider !== desired.get(name))
    .map(([name]) => ids.get(name));
  for (const chunk of jsonChunks(changing)) {
    sql.run(
      `UPDATE trove_tools SET provider_name = NULL WHERE id IN (SELECT value FROM json_each(?))`,
      chunk,
    );
  }
}

/** Writes the provider names that differ from what is stored, except for rows just upserted. */
export function writeProviderNames(
  sql: Sql,
  desired: ReadonlyMap<string, string | null>,
  stored: ReadonlyMap<string, { provider: string | null }>,
  written: ReadonlySet<string>,
  ids: ReadonlyMap<string, number>,
): void {
  const renamed = [...desired]
    .filter(([name, p]) => !written.has(name) && ids.has(name) && (stored.get(name)?.provider ?? null) !== p)
    .map(([name, p]) => ({ id: ids.get(name), provider_name: p }));
  for (const chunk of jsonChunks(renamed)) {
    sql.run(
      `UPDATE trove_tools SET provider_name = j.value->>'provider_name'
       FROM json_each(?) AS j WHERE trove_tools.id = j.value->>'id'`,
      chunk,
    );
  }
}
