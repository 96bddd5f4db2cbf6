// The tenant's published catalogs: publish a catalog once, and every session configured with
// `catalog: "<name>"` uses its tools without uploading them (src/published/). Same records,
// limits, incremental semantics and fingerprint as catalog_sync. Each catalog is an object of its
// own (`{tenant}/{name}`); the tenant's list is another, written after each publish and delete.
import { z } from "zod";
import type { Env } from "../env";
import { type ErrorCode, TroveError } from "../errors";
import { modelToolNames } from "../ops/builtins";
import { OPERATIONS } from "../ops/registry";
import { CatalogSyncInput, CatalogSyncOutput } from "../ops/tool-ops";
import type { PublishedInfo, PublishResult, RpcResult } from "../published/catalog-rpc";
import { CATALOG_NAME_PATTERN } from "../schemas";
import type { TenantRoute } from "./tenant-route";

const CatalogInfo = z.object({
  name: z.string(),
  version: z.number().int().describe("Increases with every publish that changed a tool"),
  fingerprint: z.string().describe("sha256 over the sorted record hashes, as catalog_sync's"),
  tools: z.number().int(),
  namespaces: z.number().int(),
  published_at: z.string().describe("When a publish last changed it (ISO 8601)"),
});

const CatalogPublishOutput = CatalogSyncOutput.extend({
  version: z
    .number()
    .int()
    .describe("The catalog's version after this publish (unchanged when nothing changed)"),
});

const CATALOG_PARAM = {
  description: "A catalog name",
  pattern: CATALOG_NAME_PATTERN,
  what: `a catalog name (${CATALOG_NAME_PATTERN.source})`,
};

const catalog = (env: Env, tenant: string, name: string) =>
  env.CATALOGS.get(env.CATALOGS.idFromName(`${tenant}/${name}`));
const catalogList = (env: Env, tenant: string) => env.CATALOG_LISTS.get(env.CATALOG_LISTS.idFromName(tenant));

function unknownCatalog(name: string): TroveError {
  return new TroveError("unknown_catalog", 404, `no catalog named "${name}" was published`, {
    field: "name",
  });
}

export const CATALOG_ROUTES: readonly TenantRoute[] = [
  {
    name: "catalog_list",
    method: "GET",
    tag: "catalogs",
    path: "/v1/catalogs",
    summary: "The tenant's published catalogs: name, version, fingerprint and counts of each",
    output: z.object({ catalogs: z.array(CatalogInfo) }),
    errors: [],
    handle: async ({ env, tenant }) => ({ catalogs: await catalogList(env, tenant).list() }),
  },
  {
    name: "catalog_publish",
    method: "PUT",
    tag: "catalogs",
    path: "/v1/catalogs/{name}",
    summary:
      "Publish a tool catalog under a name (catalog_sync's records and semantics); sessions configured with it pick up changes within a minute",
    param: CATALOG_PARAM,
    input: CatalogSyncInput,
    output: CatalogPublishOutput,
    errors: ["invalid_input", "invalid_json", "too_deep", "body_too_large", "catalog_too_large"],
    async handle({ env, tenant, name, input }) {
      const { tools, mode } = input as z.output<typeof CatalogSyncInput>;
      const stub = catalog(env, tenant, name);
      // Typed as sent: RPC's stub types lose the union's narrowing.
      const result = (await stub.publish(
        name,
        tools,
        mode,
        modelToolNames(OPERATIONS),
      )) as RpcResult<PublishResult>;
      if (!result.ok) {
        const { code, message, details } = result.error;
        throw new TroveError(code as ErrorCode, result.status as never, message, details);
      }
      const info: PublishedInfo | null = await stub.info();
      if (info) await catalogList(env, tenant).put(info);
      return result.value;
    },
  },
  {
    name: "catalog_get",
    method: "GET",
    tag: "catalogs",
    path: "/v1/catalogs/{name}",
    summary: "One published catalog: version, fingerprint, tool and namespace counts",
    param: CATALOG_PARAM,
    output: CatalogInfo,
    errors: ["invalid_input", "unknown_catalog"],
    async handle({ env, tenant, name }) {
      const info = await catalog(env, tenant, name).info();
      if (!info) throw unknownCatalog(name);
      return info;
    },
  },
  {
    name: "catalog_delete",
    method: "DELETE",
    tag: "catalogs",
    path: "/v1/catalogs/{name}",
    summary:
      "Delete a published catalog; sessions that use it answer catalog_deleted until configured without it",
    param: CATALOG_PARAM,
    output: z.object({ deleted: z.literal(true) }),
    errors: ["invalid_input", "unknown_catalog"],
    async handle({ env, tenant, name }) {
      const existed = await catalog(env, tenant, name).remove();
      await catalogList(env, tenant).remove(name);
      if (!existed) throw unknownCatalog(name);
      return { deleted: true as const };
    },
  },
];
