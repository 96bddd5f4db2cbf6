// A tenant's upstream MCP servers (the gateway, docs/gateway.md): one object per tenant keeps where
// each upstream is, its sealed headers, the tools it last listed and the changes seen since, and
// publishes them as catalogs — `<name>` per upstream, and `_gateway` for the profile's upstreams,
// which gateway sessions use. It imports on PUT, on refresh and on an alarm; calls never pass here.

import { DurableObject } from "cloudflare:workers";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { createSql } from "./db/sql";
import type { Env } from "./env";
import { TroveError } from "./errors";
import { GATEWAY_CATALOG, type GatewayProfile } from "./gateway/profile";
import { openHeaders, sealHeaders } from "./gateway/secrets";
import {
  listUpstreamTools,
  type UpstreamTarget,
  type UpstreamWatch,
  watchUpstream,
} from "./gateway/upstream-client";
import type { UpstreamPut, UpstreamRpc, UpstreamTargetRow } from "./gateway/upstream-rpc";
import { UpstreamStore, type UpstreamView } from "./gateway/upstream-store";
import { checkUpstreamUrl } from "./gateway/upstream-url";
import { modelToolNames } from "./ops/builtins";
import { OPERATIONS } from "./ops/registry";
import type { PublishResult, RpcResult } from "./published/catalog-rpc";
import type { ToolRecordInput } from "./tools/tool-record";

/** How often an alarm re-imports every upstream. */
export const REFRESH_INTERVAL_MS = 60 * 60 * 1000;

export class UpstreamObject extends DurableObject<Env> implements UpstreamRpc {
  readonly #store = new UpstreamStore(createSql(this.ctx.storage.sql));
  /** Open watches by upstream (PUT `watch: true`): in memory, so gone when the object restarts. */
  readonly #watches = new Map<string, UpstreamWatch>();
  /** Imports under way by upstream, and whether another was asked for meanwhile. */
  readonly #importing = new Map<string, { again: boolean }>();

  async put(tenant: string, name: string, input: UpstreamPut): Promise<RpcResult<UpstreamView>> {
    try {
      checkUpstreamUrl(input.url, this.env.TROVE_GATEWAY_DEV === "1");
      let sealed: string | null = null;
      if (input.headers && Object.keys(input.headers).length > 0) {
        const key = this.env.TROVE_SECRETS_KEY;
        if (!key) {
          throw new TroveError(
            "secrets_unconfigured",
            409,
            "upstream headers need the TROVE_SECRETS_KEY secret, which this deployment does not set",
            { field: "headers" },
          );
        }
        sealed = await sealHeaders(key, tenant, name, input.headers);
      }
      this.#store.setMeta("tenant", tenant);
      this.#store.put({
        name,
        url: input.url,
        namespace: input.namespace,
        headers: sealed,
        timeout_ms: input.timeout_ms,
        updated_at: new Date().toISOString(),
        watch: input.watch ? 1 : 0,
      });
    } catch (err) {
      if (!(err instanceof TroveError)) throw err;
      return { ok: false, status: err.status, ...err.toBody() };
    }
    await this.#watchClosed(name);
    await this.#import(tenant, name);
    await this.#watch(tenant, name);
    await this.#schedule();
    return { ok: true, value: this.#view(name) as UpstreamView };
  }

  async get(name: string): Promise<UpstreamView | null> {
    return this.#view(name);
  }

  async list(): Promise<UpstreamView[]> {
    return this.#store.names().map((n) => this.#view(n) as UpstreamView);
  }

  /** The stored view, with whether its watch is open now. */
  #view(name: string): UpstreamView | null {
    const view = this.#store.view(name);
    return view && { ...view, watching: this.#watches.has(name) };
  }

  async remove(tenant: string, name: string): Promise<boolean> {
    const existed = this.#store.remove(name);
    if (!existed) return false;
    await this.#watchClosed(name);
    await this.#catalog(tenant, name).remove();
    await this.#catalogList(tenant).remove(name);
    await this.#publishGateway(tenant);
    return true;
  }

  async refresh(tenant: string, name: string): Promise<UpstreamView | null> {
    if (!this.#store.get(name)) return null;
    await this.#import(tenant, name);
    return this.#view(name);
  }

  async accept(tenant: string, name: string, tools: string[] | null): Promise<UpstreamView | null> {
    if (!this.#store.get(name)) return null;
    const accepted = this.#store.acceptChanges(name, tools, new Date().toISOString());
    if (accepted > 0) await this.#publish(tenant, name);
    return this.#view(name);
  }

  async targets(): Promise<UpstreamTargetRow[]> {
    return this.#store.names().flatMap((name) => {
      const row = this.#store.get(name);
      return row
        ? [{ name, namespace: row.namespace, url: row.url, headers: row.headers, timeout_ms: row.timeout_ms }]
        : [];
    });
  }

  async profile(): Promise<GatewayProfile> {
    return this.#store.profile();
  }

  async setProfile(tenant: string, profile: GatewayProfile): Promise<GatewayProfile> {
    this.#store.setMeta("tenant", tenant);
    this.#store.setProfile(profile);
    await this.#publishGateway(tenant);
    return this.#store.profile();
  }

  /** Re-imports every upstream, then comes back in REFRESH_INTERVAL_MS. */
  override async alarm(): Promise<void> {
    const tenant = this.#store.meta("tenant");
    if (!tenant) return;
    for (const name of this.#store.names()) {
      await this.#import(tenant, name);
      // A watch lost with the object (a restart, a deploy) or with its stream is opened again.
      await this.#watch(tenant, name);
    }
    await this.#schedule();
  }

  /** Opens a watch of `name` when its row asks for one and none is open. */
  async #watch(tenant: string, name: string): Promise<void> {
    const row = this.#store.get(name);
    if (!row?.watch || this.#watches.has(name)) return;
    const target = await this.#target(tenant, name);
    if (!target.ok) return;
    let opened: UpstreamWatch | undefined;
    const watch = await watchUpstream(
      target.value,
      () => this.ctx.waitUntil(this.#reimport(tenant, name)),
      () => {
        if (opened && this.#watches.get(name) === opened) this.#watches.delete(name);
      },
    );
    if (!watch.ok) return;
    opened = watch.value;
    // The row may have changed while the watch opened.
    if (!opened.closed && this.#store.get(name)?.watch && !this.#watches.has(name))
      this.#watches.set(name, opened);
    else await opened.close();
  }

  async #watchClosed(name: string): Promise<void> {
    const watch = this.#watches.get(name);
    this.#watches.delete(name);
    await watch?.close();
  }

  /** An import the upstream asked for (list_changed): one at a time, one more if asked meanwhile. */
  async #reimport(tenant: string, name: string): Promise<void> {
    const running = this.#importing.get(name);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.#importing.set(name, state);
    try {
      while (state.again) {
        state.again = false;
        await this.#import(tenant, name);
      }
    } finally {
      this.#importing.delete(name);
    }
  }

  async #schedule(): Promise<void> {
    if (this.#store.names().length === 0) return;
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + REFRESH_INTERVAL_MS);
    }
  }

  /** Lists the upstream's tools and publishes what changed; a failure is kept as its last error. */
  async #import(tenant: string, name: string): Promise<void> {
    const row = this.#store.get(name);
    if (!row) return;
    const target = await this.#target(tenant, name);
    if (!target.ok) {
      this.#store.failed(name, target.reason, new Date().toISOString());
      return;
    }
    const listed = await listUpstreamTools(target.value);
    // The list took a while: the upstream may have been replaced or removed meanwhile.
    const now = this.#store.get(name);
    if (!now || now.updated_at !== row.updated_at) return;
    if (!listed.ok) {
      this.#store.failed(name, listed.reason, new Date().toISOString());
      return;
    }
    const review = this.#store.profile().review_changes;
    const { changed } = this.ctx.storage.transactionSync(() =>
      this.#store.applyImport(name, listed.value as Tool[], review, new Date().toISOString()),
    );
    if (changed > 0) {
      // Never the headers: the upstream, which tools changed, and whether they wait for review.
      console.log(JSON.stringify({ msg: "upstream tools changed", upstream: name, changed, review }));
    }
    const error = await this.#publish(tenant, name);
    if (error) this.#store.failed(name, error, new Date().toISOString());
  }

  /** Where `name` is and its headers, opened; why not when they cannot be opened. */
  async #target(
    tenant: string,
    name: string,
  ): Promise<{ ok: true; value: UpstreamTarget } | { ok: false; reason: string }> {
    const row = this.#store.get(name);
    if (!row) return { ok: false, reason: "it was removed" };
    let headers: Record<string, string> = {};
    if (row.headers !== null) {
      const key = this.env.TROVE_SECRETS_KEY;
      if (!key) return { ok: false, reason: "its headers cannot be opened: TROVE_SECRETS_KEY is not set" };
      try {
        headers = await openHeaders(key, tenant, name, row.headers);
      } catch {
        return {
          ok: false,
          reason: "its headers cannot be opened: they were sealed under another TROVE_SECRETS_KEY",
        };
      }
    }
    return { ok: true, value: { url: new URL(row.url), headers, timeoutMs: row.timeout_ms } };
  }

  /** Publishes the upstream's catalog and the gateway's; the first failure's message, or null. */
  async #publish(tenant: string, name: string): Promise<string | null> {
    return (
      (await this.#publishCatalog(tenant, name, this.#store.records([name]))) ??
      (await this.#publishGateway(tenant))
    );
  }

  #publishGateway(tenant: string): Promise<string | null> {
    const profile = this.#store.profile();
    const names = profile.upstreams ?? this.#store.names();
    return this.#publishCatalog(tenant, GATEWAY_CATALOG, this.#store.records(names));
  }

  async #publishCatalog(tenant: string, name: string, tools: ToolRecordInput[]): Promise<string | null> {
    const stub = this.#catalog(tenant, name);
    const result = (await stub.publish(
      name,
      tools,
      "replace",
      modelToolNames(OPERATIONS),
    )) as RpcResult<PublishResult>;
    if (!result.ok) return `publishing its catalog failed: ${result.error.message}`;
    const info = await stub.info();
    if (info) await this.#catalogList(tenant).put(info);
    return null;
  }

  #catalog(tenant: string, name: string) {
    return this.env.CATALOGS.get(this.env.CATALOGS.idFromName(`${tenant}/${name}`));
  }

  #catalogList(tenant: string) {
    return this.env.CATALOG_LISTS.get(this.env.CATALOG_LISTS.idFromName(tenant));
  }
}
