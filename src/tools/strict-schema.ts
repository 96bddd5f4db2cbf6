// Whether a tool's input schema already qualifies for OpenAI's strict function calling, read as
// it is: Trove never rewrites a schema to make it strict (closing objects or requiring optional
// fields would change what the tool accepts), it only says whether `strict: true` is safe.
//
// The rules are OpenAI's Structured Outputs "Supported schemas" section
// (developers.openai.com/api/docs/guides/structured-outputs#supported-schemas), which strict
// function calling shares. They are applied so that a doubt answers "not strict": `strict: true`
// on a schema OpenAI rejects fails the whole request, while `strict: false` only gives up the
// guarantee. So only the keywords the guide lists pass; `minLength`/`maxLength` (mentioned only as
// unsupported for fine-tuned models), `default`, `examples`, `$schema` and the like make a schema
// non-strict, as do `allOf`, `not`, `oneOf`, `if`/`then`/`else`, `patternProperties`…

/** OpenAI's documented size limits for one schema. */
const LIMITS = {
  /** "up to 10 levels of nesting": a property's or an array item's schema is one level down. */
  depth: 10,
  /** "up to 5000 object properties total". */
  properties: 5000,
  /** "total string length of all property names, definition names, enum values, and const values". */
  stringChars: 120_000,
  /** "up to 1000 enum values across all enum properties". */
  enumValues: 1000,
  /** "…cannot exceed 15,000 characters when there are more than 250 enum values" (one string enum). */
  bigEnum: 250,
  bigEnumChars: 15_000,
};

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const FORMATS = new Set([
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
]);

const ANNOTATIONS = new Set(["description", "title"]);
/** Keywords that only make sense for one kind of value, and the kind. */
const KIND_OF: Record<string, string> = {
  properties: "object",
  required: "object",
  additionalProperties: "object",
  items: "array",
  minItems: "array",
  maxItems: "array",
  pattern: "string",
  format: "string",
  multipleOf: "number",
  maximum: "number",
  exclusiveMaximum: "number",
  minimum: "number",
  exclusiveMinimum: "number",
};
const VALUE_KEYWORDS = new Set(["type", "enum", "const"]);

type Node = Record<string, unknown>;

interface Walk {
  defs: { $defs: Set<string>; definitions: Set<string> };
  properties: number;
  stringChars: number;
  enumValues: number;
}

const isNode = (value: unknown): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isPrimitive = (value: unknown) =>
  value === null || ["string", "number", "boolean"].includes(typeof value);
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

/**
 * True when OpenAI accepts `schema` as it is with `strict: true`: the root is an object, every
 * object sets `additionalProperties: false` and lists every property in `required`, only
 * supported keywords appear, every `$ref` points into the root's `$defs`/`definitions` (or is
 * `#`), and the documented size limits hold.
 *
 * @example
 * isStrictCompatible({ type: "object", properties: { q: { type: "string" } }, required: ["q"], additionalProperties: false }); // true
 * isStrictCompatible({ type: "object", properties: { q: { type: "string" } } }); // false: open, q optional
 */
export function isStrictCompatible(schema: unknown): boolean {
  return strictProblem(schema) === null;
}

/** The first reason `schema` is not strict-compatible, or null. */
function strictProblem(schema: unknown): string | null {
  if (!isNode(schema) || schema.type !== "object") return "the root must be an object schema";
  const walk: Walk = {
    defs: { $defs: new Set(), definitions: new Set() },
    properties: 0,
    stringChars: 0,
    enumValues: 0,
  };
  const { $defs, definitions, ...root } = schema;
  const defs: [string, unknown][] = [];
  for (const [key, value] of [
    ["$defs", $defs],
    ["definitions", definitions],
  ] as const) {
    if (value === undefined) continue;
    if (!isNode(value)) return `${key} must be an object`;
    for (const [name, def] of Object.entries(value)) {
      walk.defs[key].add(name);
      walk.stringChars += name.length;
      defs.push([`#/${key}/${name}`, def]);
    }
  }
  const problem =
    checkNode(root, "#", 1, walk) ??
    defs.reduce<string | null>((found, [path, def]) => found ?? checkNode(def, path, 1, walk), null);
  if (problem) return problem;
  if (walk.properties > LIMITS.properties) return `more than ${LIMITS.properties} properties`;
  if (walk.enumValues > LIMITS.enumValues) return `more than ${LIMITS.enumValues} enum values`;
  if (walk.stringChars > LIMITS.stringChars) return `names and values over ${LIMITS.stringChars} characters`;
  return null;
}

function checkNode(node: unknown, path: string, depth: number, walk: Walk): string | null {
  if (depth > LIMITS.depth) return `${path}: nested deeper than ${LIMITS.depth} levels`;
  if (!isNode(node)) return `${path}: a schema must be an object`;
  if ([...ANNOTATIONS].some((key) => key in node && typeof node[key] !== "string")) {
    return `${path}: description and title must be strings`;
  }
  if ("$ref" in node) return checkRef(node, path, walk);
  if ("anyOf" in node) return checkAnyOf(node, path, depth, walk);
  const kinds = kindsOf(node.type);
  if (kinds === null) return `${path}: type must be one of ${[...TYPES].join(", ")}, or a list of them`;
  if (kinds.size === 0 && !("enum" in node) && !("const" in node)) return `${path}: no type`;
  for (const key of Object.keys(node)) {
    if (ANNOTATIONS.has(key) || VALUE_KEYWORDS.has(key)) continue;
    const kind = KIND_OF[key];
    if (kind === undefined) return `${path}: unsupported keyword ${key}`;
    // `integer` takes the number keywords; a keyword for another kind is a schema we do not read.
    if (!kinds.has(kind) && !(kind === "number" && kinds.has("integer"))) {
      return `${path}: ${key} on a schema that is not of type ${kind}`;
    }
  }
  return (
    checkValues(node, path, walk) ??
    checkBounds(node, path) ??
    (kinds.has("object") ? checkObject(node, path, depth, walk) : null) ??
    (kinds.has("array") ? checkNode(node.items, `${path}/items`, depth + 1, walk) : null)
  );
}

/** The set of types `type` names; empty when absent; null when it is not a supported type. */
function kindsOf(type: unknown): Set<string> | null {
  if (type === undefined) return new Set();
  const list = Array.isArray(type) ? type : [type];
  if (list.length === 0 || !list.every((t) => typeof t === "string" && TYPES.has(t))) return null;
  return new Set(list as string[]);
}

function checkRef(node: Node, path: string, walk: Walk): string | null {
  if (Object.keys(node).some((key) => key !== "$ref" && !ANNOTATIONS.has(key))) {
    return `${path}: $ref with other keywords`;
  }
  const ref = node.$ref;
  if (ref === "#") return null;
  const match = typeof ref === "string" ? /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref) : null;
  const [, key, name] = match ?? [];
  if ((key === "$defs" || key === "definitions") && name !== undefined && walk.defs[key].has(name))
    return null;
  return `${path}: $ref must point into the root's $defs or definitions`;
}

function checkAnyOf(node: Node, path: string, depth: number, walk: Walk): string | null {
  if (Object.keys(node).some((key) => key !== "anyOf" && !ANNOTATIONS.has(key))) {
    return `${path}: anyOf with other keywords`;
  }
  const branches = node.anyOf;
  if (!Array.isArray(branches) || branches.length === 0) return `${path}: anyOf must be a non-empty list`;
  for (const [i, branch] of branches.entries()) {
    const problem = checkNode(branch, `${path}/anyOf/${i}`, depth, walk);
    if (problem) return problem;
  }
  return null;
}

function checkValues(node: Node, path: string, walk: Walk): string | null {
  if ("const" in node) {
    if (!isPrimitive(node.const)) return `${path}: const must be a string, number, boolean or null`;
    if (typeof node.const === "string") walk.stringChars += node.const.length;
  }
  if (!("enum" in node)) return null;
  const values = node.enum;
  if (!Array.isArray(values) || values.length === 0 || !values.every(isPrimitive)) {
    return `${path}: enum must be a non-empty list of strings, numbers, booleans or null`;
  }
  const chars = values.reduce<number>((n, v) => n + (typeof v === "string" ? v.length : 0), 0);
  if (values.length > LIMITS.bigEnum && chars > LIMITS.bigEnumChars) {
    return `${path}: more than ${LIMITS.bigEnum} enum values totalling over ${LIMITS.bigEnumChars} characters`;
  }
  walk.enumValues += values.length;
  walk.stringChars += chars;
  return null;
}

function checkBounds(node: Node, path: string): string | null {
  if ("pattern" in node && typeof node.pattern !== "string") return `${path}: pattern must be a string`;
  if ("format" in node && !FORMATS.has(node.format as string)) return `${path}: unsupported format`;
  for (const key of ["multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"]) {
    if (key in node && typeof node[key] !== "number") return `${path}: ${key} must be a number`;
  }
  for (const key of ["minItems", "maxItems"]) {
    if (key in node && !isCount(node[key])) return `${path}: ${key} must be a non-negative integer`;
  }
  return null;
}

/** Closed, every property required (an optional one is written as a union with null). */
function checkObject(node: Node, path: string, depth: number, walk: Walk): string | null {
  if (node.additionalProperties !== false) return `${path}: additionalProperties must be false`;
  const properties = node.properties ?? {};
  if (!isNode(properties)) return `${path}: properties must be an object`;
  const names = Object.keys(properties);
  const required = node.required;
  if (!Array.isArray(required) || !required.every((r) => typeof r === "string")) {
    return `${path}: required must list every property`;
  }
  const listed = new Set(required);
  if (listed.size !== required.length || listed.size !== names.length || !names.every((n) => listed.has(n))) {
    return `${path}: required must list every property, once`;
  }
  walk.properties += names.length;
  for (const name of names) {
    walk.stringChars += name.length;
    const problem = checkNode(properties[name], `${path}/properties/${name}`, depth + 1, walk);
    if (problem) return problem;
  }
  return null;
}
