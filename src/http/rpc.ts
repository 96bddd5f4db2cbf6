// The service-binding surface (issue 14, item 6): workers of the same account call Trove over RPC,
// `env.TROVE.session(sid).tool_search({ query })`, one method per registered operation. The tenant
// is fixed by the binding's props in the caller's wrangler config, never by the caller's arguments.
// docs/service-binding.md is the user's guide.
import { RpcTarget, WorkerEntrypoint } from "cloudflare:workers";
import type { z } from "zod";
import type { Env } from "../env";
import { type ErrorBody, TroveError } from "../errors";
import type { OpResult, SessionAddress } from "../ops/dispatch";
import type { Operation } from "../ops/operation";
import { OPERATIONS, type OperationName, type Operations } from "../ops/registry";
import { ID_PATTERN, TENANT_PATTERN } from "../schemas";
import { MAX_BODY_BYTES } from "./app";
import { invoke } from "./invoke";
import { MAX_JSON_DEPTH, tooDeepPath } from "./json-depth";

/**
 * What an operation answers over the binding. Trove's errors are values, not exceptions: RPC keeps
 * a thrown error's message but drops its own properties (code, status, details), and a caller that
 * hands the failure to a model needs all of them. The error is REST's error body, with its status.
 */
export type TroveRpcResult<N extends OperationName = OperationName> =
  | { ok: true; value: Wire<z.output<Operations[N]["output"]>> }
  | { ok: false; status: number; error: Wire<ErrorBody["error"]> };

/**
 * A JSON value: what a schema's `unknown` holds on the wire. Arrays and objects stay opaque: the RPC
 * types cannot check a recursive type ("excessively deep").
 */
type Json = null | boolean | number | string | object;

/**
 * `T` as a caller receives it, with every `unknown` read as JSON: the RPC types of
 * @cloudflare/workers-types refuse `unknown` as not serializable, and would type the result `never`.
 */
type Wire<T> = unknown extends T
  ? Json
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

type RpcMethod<N extends OperationName> =
  // An operation whose fields all have defaults can be called without an argument.
  Record<never, never> extends z.input<Operations[N]["input"]>
    ? (input?: z.input<Operations[N]["input"]>) => Promise<TroveRpcResult<N>>
    : (input: z.input<Operations[N]["input"]>) => Promise<TroveRpcResult<N>>;

/** One session over the binding: a method per operation, named as the operation. */
export type TroveRpcSession = { readonly [N in OperationName]: RpcMethod<N> };

/** What the caller's `[[services]]` binding sets (`props = { tenant = "acme" }`). */
interface BindingProps {
  tenant?: unknown;
}

/**
 * The entrypoint a calling worker binds to (`entrypoint = "TroveService"`). Callers type their
 * binding as `Service<TroveService>`.
 *
 * @example
 * const result = await env.TROVE.session("chat-42").tool_search({ query: "open a bug" });
 * if (!result.ok) console.warn(result.status, result.error.code, result.error.details.field);
 */
export class TroveService extends WorkerEntrypoint<Env, BindingProps> {
  /**
   * A handle on session `sid` of the binding's tenant (created by its first call). Nothing is
   * checked but the binding's tenant: a bad `sid` is each call's 400, as in REST.
   */
  session(sid: string): TroveSession & TroveRpcSession {
    return new TroveSession(this.env, { tenant: bindingTenant(this.ctx.props), sid }) as TroveSession &
      TroveRpcSession;
  }
}

/**
 * The session handle `TroveService.session` returns. Its methods are made from the registry, on the
 * prototype (RPC calls only what a class's prototype defines, never an instance's own properties).
 */
class TroveSession extends RpcTarget {
  readonly #env: Env;
  readonly #address: SessionAddress;

  constructor(env: Env, address: SessionAddress) {
    super();
    this.#env = env;
    this.#address = address;
  }

  static {
    for (const op of OPERATIONS as readonly Operation[]) {
      Object.defineProperty(TroveSession.prototype, op.name, {
        value(this: TroveSession, input?: unknown): Promise<OpResult> {
          return runOperation(this.#env, op, input, this.#address);
        },
      });
    }
  }
}

/**
 * The tenant the binding's props name. A binding without a valid one is a misconfigured caller:
 * refused loudly, never given a default tenant.
 */
function bindingTenant(props: BindingProps | undefined): string {
  const tenant = props?.tenant;
  if (typeof tenant === "string" && TENANT_PATTERN.test(tenant)) return tenant;
  const found = tenant === undefined ? "no props.tenant" : `props.tenant ${JSON.stringify(tenant)}`;
  throw new Error(
    `trove: this service binding has ${found.slice(0, 120)}; set props = { tenant = "<tenant>" } on the ` +
      `caller's [[services]] binding, a tenant matching ${TENANT_PATTERN.source} (docs/service-binding.md)`,
  );
}

/**
 * Runs one operation as REST would: the session id's shape, the input's depth, JSON-ness and size
 * (what a REST body is checked for), then `invoke` (schema, session object, 503). An unexpected
 * fault becomes REST's logged 500 without internals, not an exception carrying its message.
 */
async function runOperation(
  env: Env,
  op: Operation,
  raw: unknown,
  address: SessionAddress,
): Promise<OpResult> {
  try {
    if (typeof address.sid !== "string" || !ID_PATTERN.test(address.sid)) {
      return failure(
        new TroveError("invalid_session_id", 400, `session ids match ${ID_PATTERN.source}`, { field: "sid" }),
      );
    }
    const input = asJson(raw === undefined ? {} : raw);
    if (!input.ok) return failure(input.error);
    return await invoke(env, op, input.json, address);
  } catch (err) {
    console.error(
      JSON.stringify({
        msg: "rpc call failed",
        op: op.name,
        error: String(err),
        stack: (err as Error)?.stack,
      }),
    );
    return failure(new TroveError("internal", 500, "internal error"));
  }
}

/**
 * The input as REST would have received it: JSON, within REST's depth and size limits. RPC can
 * carry more than JSON (Dates, Maps, cycles, stubs); round-tripping through JSON gives the handler
 * exactly what an HTTP client's body would have.
 */
function asJson(input: unknown): { ok: true; json: unknown } | { ok: false; error: TroveError } {
  const deep = tooDeepPath(input);
  if (deep !== null) {
    const error = new TroveError("too_deep", 400, `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, {
      field: deep,
      limit: MAX_JSON_DEPTH,
    });
    return { ok: false, error };
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(input);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ok: false, error: notJson(reason) };
  }
  // A value JSON has no text for at all (a function, a symbol).
  if (text === undefined) return { ok: false, error: notJson(typeof input) };
  // At most 3 UTF-8 bytes per UTF-16 unit: shorter texts are not encoded to be measured.
  if (text.length > MAX_BODY_BYTES / 3 && new TextEncoder().encode(text).byteLength > MAX_BODY_BYTES) {
    const error = new TroveError(
      "body_too_large",
      413,
      `inputs are limited to ${MAX_BODY_BYTES} bytes of JSON`,
      {
        field: "input",
        limit: MAX_BODY_BYTES,
      },
    );
    return { ok: false, error };
  }
  return { ok: true, json: JSON.parse(text) };
}

const notJson = (reason: string) =>
  new TroveError("invalid_json", 400, "the input is not JSON", { field: "input", reason });

function failure(err: TroveError): OpResult {
  return { ok: false, status: err.status, error: err.toBody().error };
}
