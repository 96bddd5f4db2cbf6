// The tenant's analytics routes (issue 32): daily counts of what its sessions did, per tool, and
// what it cost at published prices (src/analytics/). Mounted, documented and typed with the other
// tenant routes (./tenant-routes.ts). Reading writes nothing.
import { z } from "zod";
import { DAY_COUNTERS, dayOf } from "../analytics/analytics-batch";
import { RETENTION_DAYS } from "../analytics/analytics-store";
import { costUsd, PRICES } from "../analytics/prices";
import type { Env } from "../env";
import { TOOL_NAME } from "../tools/tool-record";
import type { TenantRoute } from "./tenant-route";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const Range = {
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(RETENTION_DAYS)
    .default(30)
    .describe(`Days in the range, ending with \`to\` (at most ${RETENTION_DAYS}, what is kept)`),
  to: z
    .string()
    .regex(DAY, "expected a day as YYYY-MM-DD")
    // Date.parse rolls 2026-02-30 over to March: a day of the calendar is one that comes back as written.
    .refine((d) => {
      const at = Date.parse(`${d}T00:00:00Z`);
      return !Number.isNaN(at) && new Date(at).toISOString().startsWith(d);
    }, "not a day of the calendar")
    .optional()
    .describe("Last day of the range (UTC, YYYY-MM-DD); today by default"),
};

const AnalyticsQuery = z.strictObject({
  ...Range,
  bucket: z.enum(["day", "week"]).default("day").describe("One bar per day, or per week (Monday first)"),
  threshold: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      "A search whose first result's relevance is below this counts as low relevance (steps of 0.05)",
    ),
  wording: z.coerce.number().int().min(0).max(200).default(50).describe("Failing wordings listed at most"),
});

const ToolsQuery = z.strictObject({
  ...Range,
  limit: z.coerce.number().int().min(1).max(1000).default(200).describe("Tools listed at most, in each list"),
});

const ToolQuery = z.strictObject(Range);

const counters = Object.fromEntries(DAY_COUNTERS.map((c) => [c, z.number().int()])) as Record<
  (typeof DAY_COUNTERS)[number],
  z.ZodNumber
>;

const BucketFields = z.object({
  ...counters,
  low_relevance: z.number().int().describe("Searches whose first result's relevance was below `threshold`"),
  searches_unused: z.number().int().describe("Searches none of whose results the model then used"),
  analytics_rows_written: z.number().int().describe("Rows the analytics object wrote for these days"),
  cost_usd: z.number().describe("The sessions' requests and rows at `prices`"),
});

const AnalyticsOutput = z.object({
  from: z.string(),
  to: z.string(),
  bucket: z.enum(["day", "week"]),
  threshold: z.number(),
  buckets: z.array(BucketFields.extend({ start: z.string().describe("First day of the bucket") })),
  totals: BucketFields,
  failing_wording: z
    .array(
      z.object({
        words: z.string().describe("The search's ordinary words, sorted; never its text, numbers or names"),
        kind: z.enum(["no_result", "low_relevance"]),
        count: z.number().int(),
      }),
    )
    .describe("Wording of searches that found nothing or nothing relevant, most frequent first"),
  prices: z
    .object({
      requests_per_million: z.number(),
      rows_written_per_million: z.number(),
      rows_read_per_million: z.number(),
    })
    .describe("Cloudflare's published Durable Objects prices (USD) the costs use"),
});

const ToolsOutput = z.object({
  from: z.string(),
  to: z.string(),
  tools: z
    .array(z.object({ tool: z.string(), found: z.number().int(), used: z.number().int() }))
    .describe("Tools searches returned or the model used, most used first"),
  never_found: z
    .array(z.string())
    .describe("Tools of the sessions' catalogs in the range that no search returned"),
});

const ToolOutput = z.object({
  tool: z.string(),
  days: z.array(z.object({ day: z.string(), found: z.number().int(), used: z.number().int() })),
});

/** The tenant's analytics object. */
const analytics = (env: Env, tenant: string) => env.ANALYTICS.get(env.ANALYTICS.idFromName(tenant));

/** The range's first and last day. */
function range(query: { days: number; to?: string | undefined }): { from: string; to: string } {
  const to = query.to ?? dayOf(Date.now());
  const from = dayOf(Date.parse(`${to}T00:00:00Z`) - (query.days - 1) * DAY_MS);
  return { from, to };
}

export const ANALYTICS_ROUTES: readonly TenantRoute[] = [
  {
    name: "analytics_sessions",
    method: "GET",
    tag: "analytics",
    path: "/v1/analytics/sessions",
    summary: "The tenant's most recently active sessions (ids only), for /inspect",
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(20).describe("Sessions listed at most"),
    }),
    output: z.object({
      sessions: z.array(
        z.object({
          sid: z.string(),
          last_at: z.string().describe("When its counts were last sent (ISO 8601)"),
          requests: z.number().int().describe("Requests counted since it was first listed"),
        }),
      ),
    }),
    errors: ["invalid_input"],
    handle: async ({ env, tenant, query }) =>
      analytics(env, tenant).sessions((query as { limit: number }).limit),
  },
  {
    name: "analytics_get",
    method: "GET",
    tag: "analytics",
    path: "/v1/analytics",
    summary:
      "What the tenant's sessions did, per day or week: requests, searches, no-result and low-relevance rates, uses, approvals, rows and cost",
    query: AnalyticsQuery,
    output: AnalyticsOutput,
    errors: ["invalid_input"],
    handle: async ({ env, tenant, query }) => {
      const q = query as z.infer<typeof AnalyticsQuery>;
      const { from, to } = range(q);
      const threshold = Math.round(q.threshold * 20) / 20;
      const series = await analytics(env, tenant).series(from, to, q.bucket, threshold, q.wording);
      return {
        ...series,
        buckets: series.buckets.map((b) => ({ ...b, cost_usd: costUsd(b) })),
        totals: { ...series.totals, cost_usd: costUsd(series.totals) },
        prices: { ...PRICES },
      };
    },
  },
  {
    name: "analytics_tools",
    method: "GET",
    tag: "analytics",
    path: "/v1/analytics/tools",
    summary: "Per tool: how often searches returned it and the model used it; catalog tools never found",
    query: ToolsQuery,
    output: ToolsOutput,
    errors: ["invalid_input"],
    handle: async ({ env, tenant, query }) => {
      const q = query as z.infer<typeof ToolsQuery>;
      const { from, to } = range(q);
      return analytics(env, tenant).tools(from, to, q.limit);
    },
  },
  {
    name: "analytics_tool_get",
    method: "GET",
    tag: "analytics",
    path: "/v1/analytics/tools/{name}",
    summary: "One tool, day by day: how often searches returned it and the model used it",
    param: { description: "A tool name", pattern: TOOL_NAME, what: "a tool name" },
    query: ToolQuery,
    output: ToolOutput,
    errors: ["invalid_input"],
    handle: async ({ env, tenant, name, query }) => {
      const { from, to } = range(query as z.infer<typeof ToolQuery>);
      return analytics(env, tenant).tool(name, from, to);
    },
  },
];
