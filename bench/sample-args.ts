// Arguments a model would send a catalog tool, valid against its input schema: for benches and tests
// that call tools (no file system, so tests in workerd may import it too).
import { Validator } from "@cfworker/json-schema";
import type { OperationInput } from "../packages/client/src/index";

export type CatalogTool = OperationInput<"catalog_sync">["tools"][number];

type Schema = { type?: string; enum?: unknown[]; required?: string[]; properties?: Record<string, Schema> };

/** The smallest value of a schema's type, with every required property filled in. */
function minimalValue(schema: Schema): unknown {
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case "string":
      return "x";
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    default:
      return Object.fromEntries(
        (schema.required ?? []).map((k) => [k, minimalValue(schema.properties?.[k] ?? {})]),
      );
  }
}

const argsCache = new Map<string, Record<string, unknown>>();

/**
 * Arguments a model would send: the tool's first example when it is valid, else the required
 * fields with minimal values. Checked here so that a 422 in the run is Trove's, not the mix's.
 */
export function argsFor(tool: CatalogTool): Record<string, unknown> {
  const schema = (tool.input_schema ?? {}) as Schema;
  const key = JSON.stringify(schema) + JSON.stringify(tool.examples?.[0]?.args ?? null);
  const cached = argsCache.get(key);
  if (cached) return cached;
  const validator = new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12", false);
  const example = tool.examples?.[0]?.args as Record<string, unknown> | undefined;
  const args =
    example && validator.validate(example).valid
      ? example
      : (minimalValue(schema) as Record<string, unknown>);
  if (!validator.validate(args).valid) throw new Error(`no valid arguments for ${tool.name}`);
  argsCache.set(key, args);
  return args;
}
