// An upstream's MCP tools as catalog records: `<namespace>.<tool>`, the input schema as given, MCP
// annotations mapped to side_effects, and what Trove needs to forward a call kept in `extra`.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { canonicalJson, sha256Hex } from "../search/hash";
import {
  MAX_DESCRIPTION_BYTES,
  type SideEffects,
  TOOL_NAME,
  type ToolRecordInput,
} from "../tools/tool-record";

/** What a record's `extra` holds for the gateway: which upstream owns it, under which name. */
export interface UpstreamRef {
  upstream: string;
  tool: string;
}

/**
 * MCP's hints (2025-11-25, ToolAnnotations) in Trove's words: a read-only tool reads; one that
 * touches only its own server's state writes; anything else (openWorldHint defaults to true)
 * reaches the outside world.
 */
export function sideEffectsOf(tool: Tool): SideEffects {
  const hints = tool.annotations ?? {};
  if (hints.readOnlyHint === true) return "read";
  if (hints.openWorldHint === false) return "write";
  return "external";
}

const encoder = new TextEncoder();

/** The description cut to the catalog's byte limit, on a character boundary. */
export function fitDescription(text: string): string {
  if (encoder.encode(text).length <= MAX_DESCRIPTION_BYTES) return text;
  let cut = text.slice(0, MAX_DESCRIPTION_BYTES);
  while (encoder.encode(cut).length > MAX_DESCRIPTION_BYTES - 1) cut = cut.slice(0, -16);
  return `${cut}…`;
}

/** What a rug pull changes: the text and schemas the model reads and the hints Trove gates on. */
export function toolFingerprint(tool: Tool): string {
  return sha256Hex(
    canonicalJson({
      description: tool.description ?? "",
      title: tool.title ?? null,
      input: tool.inputSchema,
      output: tool.outputSchema ?? null,
      annotations: tool.annotations ?? null,
    }),
  );
}

/** The catalog record of an upstream tool, or null when its name cannot be a catalog name. */
export function recordOf(upstream: string, namespace: string, tool: Tool): ToolRecordInput | null {
  const name = `${namespace}.${tool.name}`;
  if (!TOOL_NAME.test(name)) return null;
  const destructive = tool.annotations?.destructiveHint === true && tool.annotations?.readOnlyHint !== true;
  const ref: UpstreamRef = { upstream, tool: tool.name };
  return {
    name,
    namespace,
    description: fitDescription(tool.description ?? tool.title ?? tool.name),
    side_effects: sideEffectsOf(tool),
    ...(destructive ? { tags: ["destructive"] } : {}),
    input_schema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { output_schema: tool.outputSchema as Record<string, unknown> } : {}),
    extra: { upstream: ref },
  };
}
