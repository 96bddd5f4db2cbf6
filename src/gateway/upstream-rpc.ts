// What crosses between the worker and a tenant's UpstreamObject (src/upstream-object.ts).
import type { RpcResult } from "../published/catalog-rpc";
import type { GatewayProfile } from "./profile";
import type { UpstreamView } from "./upstream-store";

export type { UpstreamView };

export interface UpstreamPut {
  url: string;
  headers: Record<string, string> | null;
  namespace: string;
  timeout_ms: number;
  watch: boolean;
}

/** Where to forward a call: the URL and the headers still sealed (the worker opens them). */
export interface UpstreamTargetRow {
  name: string;
  namespace: string;
  url: string;
  headers: string | null;
  timeout_ms: number;
}

/** One object per tenant: its upstreams and its gateway profile. */
export interface UpstreamRpc extends Rpc.DurableObjectBranded {
  put(tenant: string, name: string, input: UpstreamPut): Promise<RpcResult<UpstreamView>>;
  get(name: string): Promise<UpstreamView | null>;
  list(): Promise<UpstreamView[]>;
  remove(tenant: string, name: string): Promise<boolean>;
  refresh(tenant: string, name: string): Promise<UpstreamView | null>;
  accept(tenant: string, name: string, tools: string[] | null): Promise<UpstreamView | null>;
  /** Every upstream, by name, with where it is: what the gateway forwards calls to. */
  targets(): Promise<UpstreamTargetRow[]>;
  profile(): Promise<GatewayProfile>;
  setProfile(tenant: string, profile: GatewayProfile): Promise<GatewayProfile>;
}
