// The catalog's tool record: its schema, limits, normalization and content hash.
import { z } from "zod";
import { canonicalJson, sha256Hex } from "../search/hash";
import { SIDE_EFFECTS } from "../search/scoring";

export const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;
export const MAX_TOOLS = 10_000;
export const MAX_DESCRIPTION_BYTES = 4096;

export const SideEffects = z.enum(SIDE_EFFECTS);
export type SideEffects = z.infer<typeof SideEffects>;

export const LoadingMode = z.enum(["always", "deferred"]);
export type LoadingMode = z.infer<typeof LoadingMode>;

const encoder = new TextEncoder();
// Three bytes per UTF-16 unit is the worst case, so short strings skip the encode.
const utf8Length = (s: string) =>
  s.length * 3 <= MAX_DESCRIPTION_BYTES ? s.length : encoder.encode(s).length;

const JsonObject = z.record(z.string(), z.unknown());

/**
 * A tool's input or output schema: a JSON Schema for an object, as every provider requires
 * (`type` "object", or no `type`, which is read as "object").
 */
const ObjectSchema = JsonObject.refine((schema) => schema.type === undefined || schema.type === "object", {
  message: 'must be a JSON Schema with type "object"',
  path: ["type"],
});

export const ToolExample = z.strictObject({
  args: JsonObject.describe("Arguments of one example call, valid against input_schema"),
  description: z.string().max(1000).optional().describe("When this call is the right one"),
  tags: z.array(z.string().max(64)).max(16).optional(),
});

export const ToolRecord = z.strictObject({
  name: z
    .string()
    .regex(TOOL_NAME, "must match ^[A-Za-z0-9_.:-]{1,128}$")
    .describe("Unique in the catalog, e.g. github.create_issue; the model may see a provider-safe form"),
  description: z
    .string()
    .refine((s) => utf8Length(s) <= MAX_DESCRIPTION_BYTES, `must be at most ${MAX_DESCRIPTION_BYTES} bytes`)
    .describe(`What the tool does, for the model and for search (at most ${MAX_DESCRIPTION_BYTES} bytes)`),
  namespace: z
    .string()
    .regex(/^[A-Za-z0-9_:-]{1,64}$/, "must match ^[A-Za-z0-9_:-]{1,64}$")
    .optional()
    .describe("The product or server it belongs to; defaults to the name's part before the first dot"),
  tags: z.array(z.string().min(1).max(64)).max(32).optional().describe("Words search should match too"),
  side_effects: SideEffects.optional().describe(
    "What calling it does, from none to the outside world; defaults to read",
  ),
  loading_mode: LoadingMode.optional().describe(
    "always: listed in every context; deferred: found with tool_search first. Defaults to the session's",
  ),
  input_schema: ObjectSchema.optional().describe(
    "JSON Schema of its arguments (an object); tool_resolve checks calls against it",
  ),
  output_schema: ObjectSchema.optional().describe(
    "JSON Schema of what it returns, passed on to providers that take one",
  ),
  examples: z
    .array(ToolExample)
    .max(20)
    .optional()
    .describe("Example calls, rendered for the model when the session's examples are on"),
  extra: JsonObject.optional().describe(
    "Anything else the agent keeps with the tool; stored and returned, never interpreted",
  ),
});
export type ToolRecordInput = z.infer<typeof ToolRecord>;

/** A record with defaults applied: what is hashed and stored. */
export interface NormalizedTool extends Omit<ToolRecordInput, "namespace" | "side_effects"> {
  namespace: string;
  side_effects: SideEffects;
}

/** The namespace defaults to the part of the name before its first `.` (or the whole name). */
export function defaultNamespace(name: string): string {
  const dot = name.indexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

export function normalizeTool(input: ToolRecordInput): NormalizedTool {
  const tool: NormalizedTool = {
    ...input,
    namespace: input.namespace ?? defaultNamespace(input.name),
    side_effects: input.side_effects ?? "read",
  };
  // Providers need the type spelled out; an untyped object schema means the same thing.
  if (input.input_schema && input.input_schema.type === undefined) {
    tool.input_schema = { type: "object", ...input.input_schema };
  }
  if (input.output_schema && input.output_schema.type === undefined) {
    tool.output_schema = { type: "object", ...input.output_schema };
  }
  return tool;
}

/** `namespace.name` unless the name already starts with its namespace. */
export function qualifiedName(tool: Pick<NormalizedTool, "name" | "namespace">): string {
  return tool.name.startsWith(`${tool.namespace}.`) || tool.name === tool.namespace
    ? tool.name
    : `${tool.namespace}.${tool.name}`;
}

/** The name without its namespace prefix: `github.create_issue` → `create_issue`. */
export function localName(tool: Pick<NormalizedTool, "name" | "namespace">): string {
  return tool.name.startsWith(`${tool.namespace}.`) ? tool.name.slice(tool.namespace.length + 1) : tool.name;
}

/** Canonical JSON of the normalized record and its sha256 (Penguiflow RFC v0.3 Appendix B). */
export function hashTool(tool: NormalizedTool): { json: string; hash: string } {
  const json = canonicalJson(tool);
  return { json, hash: sha256Hex(json) };
}
