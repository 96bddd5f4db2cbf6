// The shape every operation is declared in, once: name, schemas, handler, and how HTTP reaches it.
import type { z } from "zod";
import type { OpContext } from "./context";

export interface HttpBinding {
  /** `POST /v1/sessions/{sid}/{name}` unless given: the session resource itself. */
  method: "GET" | "PUT" | "DELETE" | "POST";
  path: "" | `/${string}`;
}

export interface Operation<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  N extends string = string,
> {
  name: N;
  summary: string;
  input: I;
  output: O;
  http?: HttpBinding;
  /**
   * Runs inside the session object, synchronously, within one storage transaction: a throw rolls
   * back every write, and no other request for the session can interleave.
   */
  handler(ctx: OpContext, input: z.output<I>): z.input<O>;
}

/** Declares an operation; the registry in ./registry.ts lists them all. */
export function defineOp<I extends z.ZodType, O extends z.ZodType, const N extends string>(
  op: Operation<I, O, N>,
): Operation<I, O, N> {
  return op;
}
