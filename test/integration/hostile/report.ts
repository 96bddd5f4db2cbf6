// bench/HOSTILE.md from the corpus: cases by route and expected status class, and the known bugs.
// Written by scripts/hostile-report.ts; test/integration/hostile.test.ts checks the file is current.
import { type HostileCase, OPERATION_NAMES, opRoute, ROUTE } from "./cases";

/**
 * Routes in the order the table lists them: public routes, the console and the tenant's analytics,
 * the session resource, operations, MCP.
 */
export const ROUTE_ORDER: readonly string[] = [
  ROUTE.index,
  ROUTE.health,
  ROUTE.openapi,
  ROUTE.docs,
  ROUTE.inspect,
  ROUTE.console,
  ROUTE.analytics,
  ROUTE.analyticsTools,
  ROUTE.analyticsTool,
  ROUTE.analyticsSessions,
  ROUTE.get,
  ROUTE.put,
  ROUTE.delete,
  ...OPERATION_NAMES.map(opRoute),
  ROUTE.mcp,
  ROUTE.routing,
];

export interface RouteCount {
  route: string;
  cases: number;
  "2xx": number;
  "4xx": number;
  bugs: number;
}

export function countByRoute(cases: readonly HostileCase[]): RouteCount[] {
  const counts = new Map<string, RouteCount>(
    ROUTE_ORDER.map((route) => [route, { route, cases: 0, "2xx": 0, "4xx": 0, bugs: 0 }]),
  );
  for (const c of cases) {
    const row = counts.get(c.route) ?? { route: c.route, cases: 0, "2xx": 0, "4xx": 0, bugs: 0 };
    row.cases++;
    row[c.expect.status < 300 ? "2xx" : "4xx"]++;
    if (c.regression) row.bugs++;
    counts.set(c.route, row);
  }
  return [...counts.values()];
}

/** The markdown of bench/HOSTILE.md. */
export function hostileReport(cases: readonly HostileCase[]): string {
  const rows = countByRoute(cases);
  const total = rows.reduce(
    (t, r) => ({
      cases: t.cases + r.cases,
      ok: t.ok + r["2xx"],
      client: t.client + r["4xx"],
      bugs: t.bugs + r.bugs,
    }),
    { cases: 0, ok: 0, client: 0, bugs: 0 },
  );
  const bugs = new Map<string, number>();
  for (const c of cases) if (c.regression) bugs.set(c.regression, (bugs.get(c.regression) ?? 0) + 1);
  const code = (route: string) => (route.includes("/") ? `\`${route}\`` : route);
  return [
    "# Hostile input corpus",
    "",
    "`test/integration/hostile.test.ts` sends each case of `test/integration/hostile/*.ts` through the",
    "worker (`SELF.fetch` for routing, auth, content-type, size and public-route cases; the fetch",
    "handler directly for the rest) against a seeded session: no answer may be a 5xx, every `/v1`",
    "answer is JSON, a refused request writes nothing, and each case gets the status it expects — a",
    "4xx naming the offending field, or a correct 2xx. The status class is the HTTP status (MCP tool",
    "errors and JSON-RPC errors answered in a 200 count as 2xx). Regenerate with",
    "`npm run report:hostile`; the test fails when this file is stale.",
    "",
    "| Route | Cases | 2xx | 4xx | Regression cases |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...rows.map((r) => `| ${code(r.route)} | ${r.cases} | ${r["2xx"]} | ${r["4xx"]} | ${r.bugs} |`),
    `| **Total** | **${total.cases}** | **${total.ok}** | **${total.client}** | **${total.bugs}** |`,
    "",
    "## Defects found (fixed)",
    "",
    "Each defect below was found by the corpus and fixed in `src`; its cases stay as regression tests.",
    "",
    ...(bugs.size === 0
      ? ["None."]
      : [...bugs]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([bug, n]) => `- ${bug} (${n} case${n === 1 ? "" : "s"})`)),
    "",
  ].join("\n");
}
