// Hostile requests to the operator console's page and the tenant's analytics routes: hostile query
// strings, names, methods and keys. Analytics reads never touch the seeded session.
import { error, type HostileCase, invalid, ok, ROUTE, request } from "./cases";

const html = { kind: "html" as const, status: 200 as const };
const wrongMethod = error(405, "method_not_allowed", "method");
const notFound = error(404, "not_found");
const unauthorized = error(401, "unauthorized", "authorization");
const report = ok((j) => (j?.totals && Array.isArray(j?.buckets) ? undefined : "not the analytics report"));

const consolePage: HostileCase[] = [
  request(ROUTE.console, "GET", "/console?key=%00&<script>=1", "hostile query parameters", html),
  request(ROUTE.console, "GET", "/console#<img src=x onerror=alert(1)>", "a hostile fragment", html),
  request(ROUTE.console, "GET", "/console", "a wrong key is ignored", html, {
    headers: { authorization: "Bearer wrong" },
  }),
  request(ROUTE.console, "POST", "/console", "POST is 405", wrongMethod, { body: {} }),
  request(ROUTE.console, "GET", "/CONSOLE", "an upper-case path is 404", notFound),
];

const a = (query: string, name: string, expect: HostileCase["expect"]) =>
  request(ROUTE.analytics, "GET", `/v1/analytics${query}`, name, expect);

const analytics: HostileCase[] = [
  a("", "no query: the last 30 days", report),
  a("?days=abc", "days that is no number", invalid("days")),
  a("?days=0", "zero days", invalid("days")),
  a("?days=1.5", "a fraction of a day", invalid("days")),
  a("?days=100000", "more days than are kept", invalid("days")),
  a(`?days=${"9".repeat(400)}`, "a 400-digit number of days", invalid("days")),
  a("?to=2026-13-45", "a day that is not in the calendar", invalid("to")),
  a("?to=%3Cscript%3E", "a script as the last day", invalid("to")),
  a("?bucket=month", "a bucket that does not exist", invalid("bucket")),
  a("?threshold=2", "a threshold above 1", invalid("threshold")),
  a("?threshold=NaN", "a threshold that is NaN", invalid("threshold")),
  a("?shoe=1", "an unknown parameter", invalid(/shoe/)),
  a("?__proto__=1", "__proto__ as a parameter", invalid(/__proto__/)),
  request(ROUTE.analytics, "GET", "/v1/analytics", "a wrong key", unauthorized, {
    headers: { authorization: "Bearer wrong" },
  }),
  request(ROUTE.analytics, "GET", "/v1/analytics", "no key", unauthorized, {
    headers: { authorization: null },
  }),
  request(ROUTE.analytics, "POST", "/v1/analytics", "POST is 405", wrongMethod, { body: {} }),
  request(ROUTE.analytics, "DELETE", "/v1/analytics", "DELETE is 405", wrongMethod),
  request(
    ROUTE.analyticsTool,
    "GET",
    `/v1/analytics/tools/${"a".repeat(300)}`,
    "a 300-character tool name",
    invalid("name"),
  ),
  request(ROUTE.analyticsTool, "GET", "/v1/analytics/tools/%00", "a NUL as the tool name", invalid("name")),
  request(
    ROUTE.analyticsTool,
    "GET",
    "/v1/analytics/tools/%3Cscript%3E",
    "a script as the tool name",
    invalid("name"),
  ),
  request(
    ROUTE.analyticsTool,
    "GET",
    "/v1/analytics/tools/gh.create_issue?days=-1",
    "negative days",
    invalid("days"),
  ),
  request(
    ROUTE.analyticsTool,
    "GET",
    "/v1/analytics/tools/never.used",
    "a tool nobody used: its days, all zero",
    ok((j) => (j?.tool === "never.used" && Array.isArray(j?.days) ? undefined : "not the tool's days")),
  ),
  request(
    ROUTE.analyticsTools,
    "GET",
    "/v1/analytics/tools?days=abc",
    "days that is no number",
    invalid("days"),
  ),
  request(ROUTE.analyticsTools, "GET", "/v1/analytics/tools?shoe=1", "an unknown parameter", invalid(/shoe/)),
  request(ROUTE.analyticsTools, "GET", "/v1/analytics/tools?limit=0", "a limit of 0", invalid("limit")),
  request(
    ROUTE.analyticsTools,
    "GET",
    "/v1/analytics/tools?limit=1001",
    "a limit above 1,000",
    invalid("limit"),
  ),
  request(
    ROUTE.analyticsTools,
    "GET",
    "/v1/analytics/tools?to=2026-02-30",
    "February the 30th",
    invalid("to"),
    { regression: "a day the calendar does not have (2026-02-30) was taken as the 2nd of March" },
  ),
  request(
    ROUTE.analyticsTools,
    "GET",
    "/v1/analytics/tools?days=7",
    "a week: the tools and the never-found ones",
    ok((j) =>
      Array.isArray(j?.tools) && Array.isArray(j?.never_found) ? undefined : "not the tools report",
    ),
  ),
  request(ROUTE.analyticsSessions, "POST", "/v1/analytics/sessions", "POST is 405", wrongMethod, {
    body: {},
  }),
  request(
    ROUTE.analyticsSessions,
    "GET",
    "/v1/analytics/sessions",
    "another tenant's key sees its own sessions",
    ok((j) => (Array.isArray(j?.sessions) ? undefined : "no sessions list")),
    { headers: { authorization: "Bearer key-b" } },
  ),
  request(ROUTE.analyticsTool, "DELETE", "/v1/analytics/tools/gh.create_issue", "DELETE is 405", wrongMethod),
  request(ROUTE.analyticsSessions, "GET", "/v1/analytics/sessions?limit=0", "a limit of 0", invalid("limit")),
  request(
    ROUTE.analyticsSessions,
    "GET",
    "/v1/analytics/sessions?limit=101",
    "a limit above 100",
    invalid("limit"),
  ),
  request(
    ROUTE.analyticsSessions,
    "GET",
    "/v1/analytics/sessions?limit=%F0%9F%92%A9",
    "an emoji as the limit",
    invalid("limit"),
  ),
];

export const TENANT_CASES: HostileCase[] = [...consolePage, ...analytics];
