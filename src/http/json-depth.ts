// Bounds how deeply a request body nests, before anything recurses over it (hashing, RPC cloning).
import { formatPath } from "../errors";

export const MAX_JSON_DEPTH = 64;

interface Frame {
  value: unknown;
  depth: number;
  key: PropertyKey;
  parent: Frame | null;
}

/**
 * The path of the first value nested deeper than `maxDepth`, or null. Iterative, so a hostile body
 * cannot exhaust the stack here; paths are rebuilt only for the offending value.
 */
export function tooDeepPath(value: unknown, maxDepth = MAX_JSON_DEPTH): string | null {
  const stack: Frame[] = [{ value, depth: 0, key: "", parent: null }];
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const node = frame.value;
    if (node === null || typeof node !== "object") continue;
    if (frame.depth >= maxDepth) return formatPath(pathOf(frame));
    const depth = frame.depth + 1;
    const entries: Iterable<[PropertyKey, unknown]> = Array.isArray(node)
      ? node.entries()
      : Object.entries(node);
    for (const [key, child] of entries) stack.push({ value: child, depth, key, parent: frame });
  }
  return null;
}

function pathOf(frame: Frame): PropertyKey[] {
  const path: PropertyKey[] = [];
  for (let f: Frame | null = frame; f?.parent; f = f.parent) path.unshift(f.key);
  return path;
}
