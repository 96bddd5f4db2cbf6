// A typed client for Trove's HTTP API. Every operation of the registry is a method of a session,
// with the operation's name and its zod input and output types; nothing here is written by hand
// per operation, so a new operation is in the client as soon as it is registered.
//
//   const trove = new Trove({ baseUrl: "http://localhost:8787", apiKey: "dev:dev-key" });
//   const s = trove.session("chat-42");
//   await s.catalog_sync({ tools });
//   const { system, tools: visible } = await s.context({ format: "anthropic" });
import type { z } from "zod";
import type { OperationName, Operations } from "./ops/registry";

export type { OperationName } from "./ops/registry";
/** What an operation accepts (defaults may be omitted). */
export type OperationInput<N extends OperationName> = z.input<Operations[N]["input"]>;
/** What an operation answers. */
export type OperationOutput<N extends OperationName> = z.output<Operations[N]["output"]>;

type Method<N extends OperationName> =
  // An operation whose fields all have defaults can be called without an argument.
  Record<never, never> extends OperationInput<N>
    ? (input?: OperationInput<N>) => Promise<OperationOutput<N>>
    : (input: OperationInput<N>) => Promise<OperationOutput<N>>;

/** One Trove session: a method per operation. */
export type TroveSession = { readonly [N in OperationName]: Method<N> } & { readonly id: string };

/** A 4xx/5xx answer, with Trove's error body (`details.field` names the offending input). */
export class TroveApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
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
  /** Defaults to the global fetch; tests pass the worker's own. */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

export class Trove {
  readonly #base: string;
  readonly #key: string;
  readonly #fetch: NonNullable<TroveOptions["fetch"]>;

  constructor(options: TroveOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, "");
    this.#key = options.apiKey;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The deployment's version, bundle hash and pack counts (no auth needed). */
  async health(): Promise<{
    ok: boolean;
    version: string;
    bundle_hash: string;
    packs: number;
    skills: number;
  }> {
    return this.request("GET", "/v1/health");
  }

  /** A handle on session `sid`; the session exists from its first call. */
  session(sid: string): TroveSession {
    const path = `/v1/sessions/${encodeURIComponent(sid)}`;
    return new Proxy({ id: sid } as TroveSession, {
      get: (target, name) => {
        if (name === "id" || typeof name !== "string") return Reflect.get(target, name);
        // Every operation answers POST /v1/sessions/{sid}/{name} (a few also have REST routes).
        return (input: unknown = {}) => this.request("POST", `${path}/${name}`, input);
      },
    });
  }

  /**
   * Sends a request; a 503 whose body says the operation is safe to repeat (`retry_safe`: it reads,
   * or repeating it changes nothing) is retried once after `Retry-After`.
   */
  private async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    try {
      return await this.send<T>(method, path, body);
    } catch (err) {
      if (!(err instanceof TroveApiError) || err.status !== 503 || err.details.retry_safe !== true) throw err;
      const wait = Math.min(Number(err.details.retry_after) || 1, 5);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      return this.send<T>(method, path, body);
    }
  }

  private async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.#key}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await this.#fetch(`${this.#base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
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
