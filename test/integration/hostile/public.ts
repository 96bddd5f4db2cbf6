// Hostile requests to the public routes: /, /v1/health, /v1/openapi.json, /docs and /inspect (no
// key needed: wrong ones are ignored), with hostile query strings, headers and methods.
import { error, type HostileCase, ok, ROUTE, request } from "./cases";

const notFound = error(404, "not_found");
/** A public route with another method than GET (or HEAD): 405 with Allow. */
const wrongMethod = error(405, "method_not_allowed", "method");

const health = (check?: (j: any) => string | undefined) =>
  ok((j) => (j?.ok === true ? check?.(j) : "not ok"));
const html = { kind: "html" as const, status: 200 as const };
/** The index as JSON: its links, whatever the request's Accept says beyond preferring HTML. */
const indexJson = ok((j) => (j?.links?.docs === "/docs" ? undefined : "not the index"));
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const publicRoutes: HostileCase[] = [
  request(ROUTE.index, "GET", "/", "no Accept header answers JSON", indexJson, {
    headers: { "content-type": null },
  }),
  request(ROUTE.index, "GET", "/", "any type (*/*) answers JSON", indexJson, { headers: { accept: "*/*" } }),
  request(ROUTE.index, "GET", "/", "a browser's Accept answers HTML", html, {
    headers: { accept: BROWSER_ACCEPT },
  }),
  request(ROUTE.index, "GET", "/", "HTML weighted above JSON answers HTML", html, {
    headers: { accept: "application/json;q=0.1, text/html;q=0.9" },
  }),
  request(ROUTE.index, "GET", "/", "a hostile Accept header answers JSON", indexJson, {
    headers: { accept: "\u00ff/*;q=NaN, text/html;q=NaN, ;;;, application/json;q=7" },
  }),
  request(ROUTE.index, "GET", "/", "HTML refused with q=0 answers JSON", indexJson, {
    headers: { accept: "text/html;q=0" },
  }),
  request(ROUTE.index, "GET", "/?<script>=1", "hostile query parameters", indexJson),
  request(ROUTE.index, "HEAD", "/", "HEAD answers without a body", { kind: "empty", status: 200 }),
  request(ROUTE.index, "POST", "/", "POST is 405", wrongMethod, { body: {} }),
  request(ROUTE.health, "GET", "/v1/health", "a wrong key is ignored", health(), {
    headers: { authorization: "Bearer wrong" },
  }),
  request(ROUTE.health, "GET", "/v1/health", "a garbled Authorization header is ignored", health(), {
    headers: { authorization: "\u00ff\u00fe garbage" },
  }),
  request(
    ROUTE.health,
    "GET",
    "/v1/health?__proto__[x]=1&constructor=2",
    "hostile query parameters",
    health(),
  ),
  request(ROUTE.health, "GET", `/v1/health?q=${"%00".repeat(2000)}`, "a query string of NULs", health()),
  request(ROUTE.health, "GET", "/v1/health", "method-override headers are ignored", health(), {
    headers: { "content-type": "application/json", "x-http-method-override": "DELETE" },
  }),
  request(ROUTE.health, "HEAD", "/v1/health", "HEAD answers without a body", { kind: "empty", status: 200 }),
  request(ROUTE.health, "POST", "/v1/health", "POST is 405", wrongMethod, { body: {} }),
  request(ROUTE.health, "DELETE", "/v1/health", "DELETE is 405", wrongMethod),
  request(
    ROUTE.openapi,
    "GET",
    "/v1/openapi.json",
    "asked for HTML, it still answers JSON",
    ok((j) => (j?.openapi?.startsWith("3.1") ? undefined : "not OpenAPI 3.1")),
    { headers: { accept: "text/html" } },
  ),
  request(
    ROUTE.openapi,
    "GET",
    "/v1/openapi.json?format=yaml&<script>=1",
    "hostile query parameters",
    ok((j) => (j?.paths ? undefined : "no paths")),
  ),
  request(
    ROUTE.openapi,
    "GET",
    "/v1/openapi.json",
    "a garbled key is ignored",
    ok((j) => (j?.paths ? undefined : "no paths")),
    { headers: { authorization: "Basic ???" } },
  ),
  request(ROUTE.openapi, "POST", "/v1/openapi.json", "POST is 405", wrongMethod, { body: {} }),
  request(ROUTE.openapi, "PUT", "/v1/openapi.json", "PUT is 405", wrongMethod, { body: {} }),
  request(ROUTE.openapi, "GET", "/v1/openapi.json/", "a trailing slash is 404", notFound),
  request(
    ROUTE.docs,
    "GET",
    "/docs?q=%3Cscript%3Ealert(1)%3C/script%3E",
    "a script in the query string",
    html,
  ),
  request(ROUTE.docs, "GET", "/docs", "a hostile Accept header", html, {
    headers: { accept: "\u00ff/*;q=NaN" },
  }),
  request(ROUTE.docs, "HEAD", "/docs", "HEAD answers without a body", { kind: "empty", status: 200 }),
  request(ROUTE.docs, "POST", "/docs", "POST is 405", wrongMethod, { body: {} }),
  request(ROUTE.docs, "DELETE", "/docs", "DELETE is 405", wrongMethod),
  request(ROUTE.docs, "GET", "/docs/", "a trailing slash is 404", notFound),
  request(ROUTE.inspect, "GET", "/inspect?sid=%3Cscript%3E&key=%00", "hostile query parameters", html),
  request(ROUTE.inspect, "GET", "/inspect#<img src=x onerror=alert(1)>", "a hostile fragment", html),
  request(ROUTE.inspect, "GET", "/inspect", "a wrong key is ignored", html, {
    headers: { authorization: "Bearer wrong" },
  }),
  request(ROUTE.inspect, "POST", "/inspect", "POST is 405", wrongMethod, { body: { sid: "x" } }),
  request(ROUTE.inspect, "PUT", "/inspect", "PUT is 405", wrongMethod, { body: {} }),
  request(ROUTE.inspect, "GET", "/INSPECT", "an upper-case path is 404", notFound),
];

export const PUBLIC_CASES: HostileCase[] = publicRoutes;
