// @trove/client: a typed client for Trove's HTTP API. Every operation of Trove's registry is a method
// of a session, typed with the operation's input and output; the types are generated from the
// registry (./operations.ts, by scripts/build-client.ts), so nothing here is written per operation.
// Only `fetch`: Node ≥ 20, browsers, Workers and Deno alike, and no dependencies.
import {
  type OperationName,
  type Operations,
  type SessionMethods,
  TENANT_ROUTES,
  type TenantMethods,
  type TroveErrorCode,
} from "./operations.js";

export type {
  OperationName,
  Operations,
  SessionMethods,
  TenantMethods,
  TroveErrorCode,
} from "./operations.js";
export { OPERATION_NAMES } from "./operations.js";

/** What an operation accepts (fields with defaults may be omitted). */
export type OperationInput<N extends OperationName> = Operations[N]["input"];
/** What an operation answers. */
export type OperationOutput<N extends OperationName> = Operations[N]["output"];

/** One Trove session: a method per operation, and the session's id. */
export type TroveSession = SessionMethods & { readonly id: string };

/** What `GET /v1/health` answers. */
export interface Health {
  ok: boolean;
  /** Trove's version. */
  version: string;
  /** Content hash of the packs bundled into this deployment. */
  bundle_hash: string;
  /** Enabled packs a new session sees: global ones, and the key's tenant's. */
  packs: number;
  /** Skills of those packs: what a new session can list and load. */
  skills: number;
  /** Everything bundled, enabled or not and whatever its scope. */
  bundled: { packs: number; skills: number };
}

/** The request the client sends: what any `fetch` accepts. */
export interface TroveRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** What the client reads of a response: what any `fetch` answers. */
export interface TroveResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  text(): Promise<string>;
}

/** A `fetch`: the global one, a Worker's service binding (`env.TROVE.fetch`), a test double. */
export type TroveFetch = (url: string, init: TroveRequest) => Promise<TroveResponse>;

/**
 * A code of Trove's (a newer deployment may answer codes this version does not list), or the
 * client's own: `invalid_response` for a body that is not JSON, `http_error` for one without a code.
 */
export type TroveApiErrorCode = TroveErrorCode | "invalid_response" | "http_error" | (string & {});

/**
 * A 4xx or 5xx answer, with Trove's error body: `code` is stable, `details.field` names the
 * offending input path (e.g. `tools[3].name`). A body that is not JSON is `invalid_response`.
 *
 * @example
 * try {
 *   await session.tool_resolve({ name: "github.create_issue", args: {} });
 * } catch (err) {
 *   if (err instanceof TroveApiError && err.code === "invalid_arguments") console.log(err.details.field);
 * }
 */
/** Property names the language itself looks up on objects. */
const NOT_OPERATIONS = new Set(["then", "toJSON"]);

export class TroveApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: TroveApiErrorCode,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = "TroveApiError";
  }
}

export interface TroveOptions {
  /** Where the worker runs, e.g. `https://trove.example.workers.dev` or `http://localhost:8787`. */
  baseUrl: string;
  /** The tenant's API key (the part after `tenant:` in TROVE_API_KEYS). */
  apiKey: string;
  /** Defaults to the global `fetch`. */
  fetch?: TroveFetch;
}

/** The globals this package uses, typed here so its types need neither the DOM nor Node's. */
const runtime = globalThis as unknown as {
  fetch: TroveFetch;
  setTimeout(callback: () => void, ms: number): unknown;
};

/** The longest wait before the one retry of a 503, in seconds, whatever `retry_after` says. */
const MAX_RETRY_WAIT = 5;

/**
 * A client for one Trove deployment and tenant.
 *
 * @example
 * const trove = new Trove({ baseUrl: "http://localhost:8787", apiKey: "dev-key" });
 * const session = trove.session("chat-42");
 * await session.catalog_sync({ tools: [{ name: "github.create_issue", description: "Create an issue" }] });
 * const { tools } = await session.tool_search({ query: "open a bug" });
 */
export class Trove {
  readonly #base: string;
  readonly #key: string;
  readonly #fetch: TroveFetch;

  constructor(options: TroveOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, "");
    this.#key = options.apiKey;
    // Called through globalThis at call time: an unbound fetch throws in Workers and browsers.
    this.#fetch = options.fetch ?? ((url, init) => runtime.fetch(url, init));
  }

  /**
   * The tenant's own routes (no session): its published catalogs, and what its sessions taught the
   * ranking. A route's `{name}` is the argument's `name`; the rest of it is the body.
   *
   * @example await trove.tenant.catalog_publish({ name: "main", tools });
   * @example const { merged } = await trove.tenant.learning_get();
   */
  readonly tenant: TenantMethods = Object.fromEntries(
    Object.entries(TENANT_ROUTES).map(([method, route]) => [
      method,
      (input: { name?: string } = {}) => {
        const { name = "", ...body } = input;
        const path = route.path.replace("{name}", encodeURIComponent(name));
        if (route.body) return this.#request(route.method, path, body);
        const query = Object.entries(body)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
          .join("&");
        return this.#request(route.method, route.query && query !== "" ? `${path}?${query}` : path);
      },
    ]),
  ) as unknown as TenantMethods;

  /** The deployment's version, bundle hash and pack counts (no key needed). */
  health(): Promise<Health> {
    return this.#request("GET", "/v1/health");
  }

  /**
   * A handle on session `sid`; the session exists from its first call. Each operation is a method:
   * `session.tool_search(input)` sends `POST /v1/sessions/{sid}/tool_search`.
   */
  session(sid: string): TroveSession {
    const path = `/v1/sessions/${encodeURIComponent(sid)}`;
    return new Proxy({ id: sid } as TroveSession, {
      get: (target, name) => {
        // `then` and `toJSON` are asked by await and JSON.stringify, never operations: a session
        // returned from an async function must not look like a promise.
        if (name === "id" || typeof name !== "string" || NOT_OPERATIONS.has(name))
          return Reflect.get(target, name);
        // A name that is not an operation is a type error; forced, Trove answers unknown_operation.
        return (input: unknown = {}) => this.#request("POST", `${path}/${name}`, input);
      },
    });
  }

  /**
   * Sends a request; a 503 whose body says the operation is safe to repeat (`retry_safe`: it reads,
   * or repeating it changes nothing) is retried once after `retry_after` seconds.
   */
  async #request<T>(method: string, path: string, body?: unknown): Promise<T> {
    try {
      return await this.#send<T>(method, path, body);
    } catch (err) {
      if (!(err instanceof TroveApiError) || err.status !== 503 || err.details.retry_safe !== true) throw err;
      const wait = Math.min(Number(err.details.retry_after) || 1, MAX_RETRY_WAIT);
      await new Promise<void>((resolve) => runtime.setTimeout(resolve, wait * 1000));
      return this.#send<T>(method, path, body);
    }
  }

  async #send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: TroveRequest = { method, headers: { authorization: `Bearer ${this.#key}` } };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const res = await this.#fetch(`${this.#base}${path}`, init);
    const text = await res.text();
    let json: unknown;
    try {
      json = text === "" ? null : JSON.parse(text);
    } catch {
      throw new TroveApiError(res.status, "invalid_response", `not JSON: ${text.slice(0, 200)}`, {});
    }
    if (!res.ok) {
      const error = (
        json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } }
      )?.error;
      throw new TroveApiError(
        res.status,
        error?.code ?? "http_error",
        error?.message ?? res.statusText,
        error?.details ?? {},
      );
    }
    return json as T;
  }
}
