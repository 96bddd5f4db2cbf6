// Reading a request's JSON body: empty is undefined, bad JSON and deep nesting are 400s naming why.
import { TroveError } from "../errors";
import { MAX_JSON_DEPTH, tooDeepPath } from "./json-depth";

/** The request's JSON, or undefined when the body is empty (no bytes, or only whitespace). */
export async function readInput(request: Request): Promise<unknown> {
  // Decoded by hand: .text() warns about bodies not labelled as text, which clients often send.
  const text = new TextDecoder().decode(await request.arrayBuffer());
  if (text.trim() === "") return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new TroveError("invalid_json", 400, "request body is not valid JSON", {
      field: "body",
      reason: err instanceof Error ? err.message : String(err),
    });
  }
  const deep = tooDeepPath(body);
  if (deep !== null) {
    throw new TroveError("too_deep", 400, `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, {
      field: deep,
      limit: MAX_JSON_DEPTH,
    });
  }
  return body;
}
