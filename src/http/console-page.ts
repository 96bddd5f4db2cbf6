// The operator console (GET /console, issue 32): markup, style and vanilla script as strings, with
// uPlot (bundled by the build, src/generated/chart-library.ts) for the charts. Like /inspect, it
// writes what the API answers only as text, under a CSP with Trusted Types (console.ts).
import { CHART_STYLE } from "../generated/chart-library";
import { INSPECT_STYLE } from "./inspect-page";

export const CONSOLE_STYLE = `${INSPECT_STYLE}
${CHART_STYLE}
.metrics { display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: .5rem; margin: 0; }
.metrics div { border: 1px solid var(--line); border-radius: 6px; padding: .45rem .6rem; background: var(--panel); }
.metrics dt { font-size: .82rem; color: var(--muted); } .metrics dd { margin: 0; font-size: 1.25rem; font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(460px, 1fr)); gap: 1rem; }
figure { margin: 0; } figcaption { font-weight: 600; margin: 0 0 .35rem; }
.chart { min-height: 220px; } .u-legend { font-size: .8rem; }
button.link { border: 0; background: none; color: var(--accent); padding: 0; text-decoration: underline; }
`;

export const CONSOLE_SCRIPT = `
"use strict";
(() => {
  const KEY_ITEM = "trove.console.key";
  const byId = (id) => document.getElementById(id);
  const ui = {
    main: byId("main"), form: byId("connect"), key: byId("api-key"), days: byId("days"), bucket: byId("bucket"),
    threshold: byId("threshold"), load: byId("load"), refresh: byId("refresh"), forget: byId("forget"),
    status: byId("status"), error: byId("error"), console: byId("console"),
  };
  let key = null;
  let charts = [];

  class ApiError extends Error {
    constructor(path, status, code, message, details) { super(message); Object.assign(this, { path, status, code, details }); }
  }

  /** Builds an element; strings become Text nodes, never markup. */
  function h(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = String(value);
      else if (name === "class") node.className = value;
      else if (name === "onclick") node.addEventListener("click", value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
    return node;
  }

  function table(caption, headers, rows, empty, id) {
    if (rows.length === 0) return h("p", { class: "note", text: empty });
    const head = h("tr", null, ...headers.map((t) => h("th", { scope: "col", text: t })));
    const body = rows.map((cells) => h("tr", null, ...cells.map((c) =>
      c instanceof Node && c.nodeName === "TD" ? c : h("td", null, c === null || c === undefined ? "\\u2014" : c))));
    return h("table", { id }, h("caption", { text: caption }), h("thead", null, head), h("tbody", null, ...body));
  }

  const mono = (text) => h("td", { class: "mono", text });
  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
  const pct = (part, whole) => (whole > 0 ? (100 * part / whole).toFixed(1) + " %" : "\\u2014");
  const usd = (n) => "$" + (n < 0.01 && n > 0 ? n.toFixed(6) : n.toFixed(2));
  const section = (id, ...content) => byId(id).replaceChildren(...content);
  const say = (text) => { ui.status.textContent = text; };

  function showError(err) {
    const parts = [h("h2", { text: "Request failed" })];
    if (err instanceof ApiError) {
      parts.push(h("p", null, h("strong", { text: err.path }), ": " + err.message));
      if (err.details && typeof err.details.field === "string") parts.push(h("p", { text: "Field: " + err.details.field }));
    } else parts.push(h("p", { text: String((err && err.message) || err) }));
    ui.error.replaceChildren(...parts);
    ui.error.hidden = false;
  }
  const clearError = () => { ui.error.hidden = true; ui.error.replaceChildren(); };

  /** A tenant route with the bearer key. */
  async function api(method, path) {
    let res;
    try {
      res = await fetch(path, { method, headers: { authorization: "Bearer " + key }, cache: "no-store", credentials: "omit" });
    } catch (err) {
      throw new ApiError(path, 0, "network_error", "could not reach Trove (" + err.message + ")", null);
    }
    let answer = null;
    try { answer = await res.json(); } catch { answer = null; }
    const e = answer && answer.error;
    if (!res.ok && e && typeof e.message === "string") throw new ApiError(path, res.status, String(e.code), e.message, e.details);
    if (!res.ok || answer === null) throw new ApiError(path, res.status, "http_" + res.status, "unexpected answer (HTTP " + res.status + ")", null);
    return answer;
  }

  const range = () => "days=" + encodeURIComponent(ui.days.value);

  function metric(name, label, value) {
    return h("div", null, h("dt", { text: label }), h("dd", { "data-metric": name, text: value }));
  }

  function renderOverview(a) {
    const t = a.totals;
    section("overview-body", h("dl", { class: "metrics" },
      metric("requests", "Requests", String(t.requests)),
      metric("errors", "Failed requests", String(t.errors)),
      metric("sessions", "Sessions", String(t.sessions)),
      metric("searches", "Searches", String(t.searches)),
      metric("no_result", "Searches with no result", String(t.no_result)),
      metric("no_result_rate", "No-result rate", pct(t.no_result, t.searches)),
      metric("low_relevance", "Low relevance (< " + a.threshold + ")", String(t.low_relevance)),
      metric("low_relevance_rate", "Low-relevance rate", pct(t.low_relevance, t.searches)),
      metric("searches_unused", "Searches followed by no use", String(t.searches_unused)),
      metric("uses", "Tool uses", String(t.uses)),
      metric("approvals_asked", "Approvals asked", String(t.approvals_asked)),
      metric("approvals_granted", "Approvals granted", String(t.approvals_granted)),
      metric("approvals_denied", "Approvals denied", String(t.approvals_denied)),
      metric("rows_read", "Rows read", String(t.rows_read)),
      metric("rows_written", "Rows written", String(t.rows_written)),
      metric("cost_usd", "Cost (sessions' objects)", usd(t.cost_usd)),
    ), h("p", { class: "note", text: a.from + " to " + a.to + " (UTC). Dollars at Cloudflare's published Durable Objects prices: $" +
      a.prices.requests_per_million + " per million requests, $" + a.prices.rows_written_per_million + " per million rows written, $" +
      a.prices.rows_read_per_million + " per million rows read." }));
  }

  /** One chart: uPlot draws it (hidden from screen readers), a table beside it holds the same numbers. */
  function chart(id, title, buckets, series) {
    const xs = buckets.map((b) => Date.parse(b.start + "T00:00:00Z") / 1000);
    const box = h("div", { class: "chart", "aria-hidden": "true" });
    const rows = buckets.map((b, i) => [b.start, ...series.map((s) => s.format(s.values[i]))]);
    const data = table(title + ", per " + (ui.bucket.value === "week" ? "week" : "day"), ["Start", ...series.map((s) => s.label)],
      rows, "No data in this range.", id + "-table");
    const fig = h("figure", { role: "group", "aria-labelledby": id + "-caption", id },
      h("figcaption", { id: id + "-caption", text: title }), box,
      h("details", null, h("summary", { text: "Data table: " + title }), data));
    const width = Math.max(320, Math.min(560, (ui.main.clientWidth || 900) / 2 - 40));
    if (typeof uPlot === "function" && xs.length > 0) {
      const opts = {
        width, height: 200,
        scales: { x: { time: true } },
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, scale: s.scale || "y",
          value: (u, v) => (v === null || v === undefined ? "\u2014" : s.format(v)) }))],
        // A second quantity (dollars beside rows) gets its own axis on the right.
        axes: [{}, { size: 60 }, ...(series.some((s) => s.scale) ? [{ scale: "usd", side: 1, size: 80, grid: { show: false },
          values: (u, vals) => vals.map((v) => "$" + v.toPrecision(2)) }] : [])],
      };
      charts.push(new uPlot(opts, [xs, ...series.map((s) => s.values)], box));
    }
    return fig;
  }

  function renderCharts(a) {
    for (const c of charts) c.destroy();
    charts = [];
    const b = a.buckets;
    const n = (v) => String(v);
    const rate = (part, whole) => b.map((x) => (x[whole] > 0 ? Math.round(1000 * (typeof part === "function" ? part(x) : x[part]) / x[whole]) / 10 : 0));
    section("charts-body",
      chart("chart-searches", "Searches and uses", b, [
        { label: "Searches", values: b.map((x) => x.searches), color: "#0b5cad", format: n },
        { label: "Uses", values: b.map((x) => x.uses), color: "#1a7f37", format: n },
      ]),
      chart("chart-rates", "No-result and low-relevance rates (%)", b, [
        { label: "No result %", values: rate("no_result", "searches"), color: "#b3261e", format: (v) => v + " %" },
        { label: "Low relevance %", values: rate("low_relevance", "searches"), color: "#b06000", format: (v) => v + " %" },
      ]),
      chart("chart-approvals", "Approvals", b, [
        { label: "Asked", values: b.map((x) => x.approvals_asked), color: "#6f42c1", format: n },
        { label: "Granted", values: b.map((x) => x.approvals_granted), color: "#1a7f37", format: n },
        { label: "Denied", values: b.map((x) => x.approvals_denied), color: "#b3261e", format: n },
      ]),
      chart("chart-cost", "Cost: rows written and dollars", b, [
        { label: "Rows written", values: b.map((x) => x.rows_written), color: "#0b5cad", format: n },
        { label: "Dollars", values: b.map((x) => x.cost_usd), color: "#b06000", format: usd, scale: "usd" },
      ]));
  }

  function toolButton(name) {
    return h("button", { type: "button", class: "link", text: name, "aria-label": "Details of " + name, onclick: () => showTool(name) });
  }

  function renderFailing(a, tools) {
    section("failing-body",
      table(plural(a.failing_wording.length, "wording", "wordings") + " of searches that found nothing relevant (ordinary words only)",
        ["Words", "Why", "Searches"], a.failing_wording.map((w) => [mono(w.words), w.kind === "no_result" ? "no result" : "low relevance", String(w.count)]),
        "No failing searches in this range.", "failing-table"),
      h("h3", { text: "Tools never found" }),
      table(plural(tools.never_found.length, "catalog tool", "catalog tools") + " no search returned",
        ["Tool"], tools.never_found.map((t) => [h("td", { class: "mono" }, toolButton(t))]), "Every catalog tool was found.", "never-table"));
    section("tools-body", table(plural(tools.tools.length, "tool", "tools") + " searches returned or the model used",
      ["Tool", "Found", "Used"], tools.tools.map((t) => [h("td", { class: "mono" }, toolButton(t.tool)), String(t.found), String(t.used)]),
      "No tool was found or used in this range.", "tools-table"));
  }

  async function showTool(name) {
    clearError();
    try {
      const [days, learned] = await Promise.all([
        api("GET", "/v1/analytics/tools/" + encodeURIComponent(name) + "?" + range()),
        api("GET", "/v1/learning/tools/" + encodeURIComponent(name)),
      ]);
      byId("tool").hidden = false;
      section("tool-body", h("p", null, h("code", { text: name })),
        table("Found and used, per day", ["Day", "Found", "Used"], days.days.map((d) => [d.day, String(d.found), String(d.used)]), "Not found nor used in this range."),
        table("Learned terms", ["Term", "Support", "Sources"], learned.terms.map((t) => [mono(t.term), String(t.support), String(t.sources)]), "Nothing learned for this tool."));
      byId("tool-heading").focus();
    } catch (err) { showError(err); }
  }

  function renderLearning(learned) {
    const rows = learned.tools.map((t) => {
      const forget = h("button", { type: "button", class: "deny", text: "Forget", "aria-label": "Forget what was learned for " + t.tool });
      forget.addEventListener("click", async () => {
        forget.disabled = true;
        clearError();
        try {
          const done = await api("DELETE", "/v1/learning/tools/" + encodeURIComponent(t.tool));
          await loadLearning();
          say("Forgot " + plural(done.forgotten, "row", "rows") + " learned for " + t.tool + ".");
          byId("learning-heading").focus();
        } catch (err) { forget.disabled = false; showError(err); }
      });
      return [h("td", { class: "mono" }, toolButton(t.tool)), mono(t.terms.map((x) => x.term + " (" + x.support + ")").join(", ")),
        h("td", null, forget)];
    });
    section("learning-body", table(plural(learned.tools.length, "tool", "tools") + " with learned terms (term and support)",
      ["Tool", "Terms", "Forget"], rows, "Nothing learned yet.", "learning-table"));
  }

  async function loadLearning() { renderLearning(await api("GET", "/v1/learning/tools")); }

  /** Learned skills (docs/learned-skills.md): pending first, each with Approve / Reject. */
  function renderSkills(list) {
    const rows = list.lessons.map((l) => {
      const buttons = [];
      if (l.status !== "approved") buttons.push(h("button", { type: "button", class: "approve", text: "Approve", "aria-label": "Approve " + l.name }));
      if (l.status !== "rejected") buttons.push(h("button", { type: "button", class: "deny", text: "Reject", "aria-label": "Reject " + l.name }));
      for (const b of buttons) b.addEventListener("click", () => review(l.name, b.textContent === "Approve" ? "approve" : "reject", buttons));
      return [mono(l.name), l.status, l.kind, l.trigger, mono(l.body), l.submissions + " / " + l.helpful + " / " + l.harmful,
        h("td", null, h("div", { class: "actions" }, ...buttons))];
    });
    const c = list.counts;
    section("skills-body", table(c.pending + " waiting for review, " + c.approved + " approved, " + c.rejected + " rejected (mode " + list.policy.mode + ")",
      ["Name", "Status", "Kind", "Trigger", "Text (as stored)", "Runs / helpful / harmful", "Review"], rows,
      "No learned skill yet.", "skills-table"));
  }

  async function review(name, verdict, buttons) {
    for (const b of buttons) b.disabled = true;
    clearError();
    try {
      await api("POST", "/v1/learned-skills/" + encodeURIComponent(name) + "/" + verdict);
      renderSkills(await api("GET", "/v1/learned-skills"));
      say((verdict === "approve" ? "Approved " : "Rejected ") + name + ".");
      byId("skills-heading").focus();
    } catch (err) { for (const b of buttons) b.disabled = false; showError(err); }
  }

  /** The gateway's upstream MCP servers (docs/gateway.md) and how their last import went. */
  function renderUpstreams(list) {
    section("upstreams-body", table(plural(list.upstreams.length, "upstream server", "upstream servers"),
      ["Upstream", "URL", "Status", "Tools", "Last import", "Last error", "Changes waiting"],
      list.upstreams.map((u) => [mono(u.name), mono(u.url), u.status, String(u.tools), u.last_import || "never",
        u.last_error || "", String(u.changes.filter((c) => c.status === "pending").length)]),
      "No upstream server (PUT /v1/upstreams/{name}).", "upstreams-table"));
  }

  function renderCatalogs(list) {
    section("catalogs-body", table(plural(list.catalogs.length, "published catalog", "published catalogs"),
      ["Catalog", "Version", "Tools", "Namespaces", "Published"],
      list.catalogs.map((c) => [mono(c.name), String(c.version), String(c.tools), String(c.namespaces), c.published_at]),
      "No catalog published (PUT /v1/catalogs/{name}).", "catalogs-table"));
  }

  function renderSessions(list) {
    section("sessions-body", table(plural(list.sessions.length, "recent session", "recent sessions"),
      ["Session", "Last active", "Requests"],
      list.sessions.map((s) => [h("td", { class: "mono" }, h("a", { href: "/inspect", text: s.sid, onclick: () => {
        // The inspector reads the same tab's storage: the key never goes into the URL.
        sessionStorage.setItem("trove.inspect.key", key);
        sessionStorage.setItem("trove.inspect.sid", s.sid);
      } })), s.last_at, String(s.requests)]),
      "No session has sent counts yet.", "sessions-table"));
  }

  async function load(done) {
    ui.main.setAttribute("aria-busy", "true");
    ui.load.disabled = ui.refresh.disabled = true;
    clearError();
    say("Loading\\u2026");
    try {
      const query = range() + "&bucket=" + encodeURIComponent(ui.bucket.value) + "&threshold=" + encodeURIComponent(ui.threshold.value);
      const [a, tools, learned, catalogs, sessions] = await Promise.all([
        api("GET", "/v1/analytics?" + query),
        api("GET", "/v1/analytics/tools?" + range()),
        api("GET", "/v1/learning/tools"),
        api("GET", "/v1/catalogs"),
        api("GET", "/v1/analytics/sessions"),
      ]);
      ui.console.hidden = false;
      renderOverview(a);
      renderCharts(a);
      renderFailing(a, tools);
      renderLearning(learned);
      renderCatalogs(catalogs);
      renderSessions(sessions);
      const [skills, upstreams] = await Promise.all([api("GET", "/v1/learned-skills"), api("GET", "/v1/upstreams")]);
      renderSkills(skills);
      renderUpstreams(upstreams);
      say(done || "Loaded " + a.from + " to " + a.to + " at " + new Date().toLocaleTimeString() + ".");
    } catch (err) {
      ui.console.hidden = true;
      say("");
      showError(err);
    } finally {
      ui.main.setAttribute("aria-busy", "false");
      ui.load.disabled = ui.refresh.disabled = false;
    }
  }

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const typed = ui.key.value.trim();
    if (!typed) { showError(new Error("Enter an API key.")); return; }
    key = typed;
    sessionStorage.setItem(KEY_ITEM, key);
    load();
  });
  ui.refresh.addEventListener("click", () => { if (key) load(); });
  ui.forget.addEventListener("click", () => {
    sessionStorage.removeItem(KEY_ITEM);
    ui.key.value = "";
    key = null;
    ui.console.hidden = true;
    clearError();
    say("The API key was removed from this tab.");
  });
  ui.key.value = sessionStorage.getItem(KEY_ITEM) || "";
  document.documentElement.dataset.ready = "true";
})();
`;

const BODY = `
<main id="main" aria-busy="false">
<h1>Trove console</h1>
<noscript><p>This page needs JavaScript: it reads the tenant's analytics from the JSON API in your browser.</p></noscript>
<form id="connect" class="panel" aria-labelledby="connect-heading" autocomplete="off">
  <h2 id="connect-heading">Tenant</h2>
  <div class="fields">
    <div class="field"><label for="api-key">API key</label>
      <input id="api-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="key-hint" required></div>
    <div class="field"><label for="days">Range</label><select id="days">
      <option value="7">7 days</option><option value="30" selected>30 days</option><option value="90">90 days</option></select></div>
    <div class="field"><label for="bucket">Per</label><select id="bucket">
      <option value="day" selected>day</option><option value="week">week</option></select></div>
    <div class="field"><label for="threshold">Low relevance below</label>
      <input id="threshold" type="number" min="0" max="1" step="0.05" value="0.5"></div>
    <button id="load" class="primary" type="submit">Load</button>
    <button id="refresh" type="button">Refresh</button>
    <button id="forget" type="button">Forget key</button>
  </div>
  <p id="key-hint" class="hint">The key stays in this tab's session storage and is sent only as a bearer
  header to this worker's API; it never goes into the URL.</p>
</form>
<p id="status" role="status" aria-live="polite"></p>
<div id="error" role="alert" hidden></div>
<div id="console" hidden>
  <section aria-labelledby="overview-heading"><h2 id="overview-heading">Overview</h2><div id="overview-body"></div></section>
  <section aria-labelledby="charts-heading"><h2 id="charts-heading">Over time</h2><div id="charts-body" class="charts"></div></section>
  <section aria-labelledby="failing-heading"><h2 id="failing-heading">Failing searches</h2><div id="failing-body"></div></section>
  <section aria-labelledby="tools-heading"><h2 id="tools-heading">Tools found and used</h2><div id="tools-body"></div></section>
  <section id="tool" aria-labelledby="tool-heading" hidden><h2 id="tool-heading" tabindex="-1">Tool</h2><div id="tool-body"></div></section>
  <section aria-labelledby="learning-heading"><h2 id="learning-heading" tabindex="-1">Learned terms</h2><div id="learning-body"></div></section>
  <section id="skills" aria-labelledby="skills-heading"><h2 id="skills-heading" tabindex="-1">Learned skills for review</h2><div id="skills-body"></div></section>
  <section aria-labelledby="catalogs-heading"><h2 id="catalogs-heading">Published catalogs</h2><div id="catalogs-body"></div></section>
  <section id="upstreams" aria-labelledby="upstreams-heading"><h2 id="upstreams-heading">Upstream servers</h2><div id="upstreams-body"></div></section>
  <section aria-labelledby="sessions-heading"><h2 id="sessions-heading">Recent sessions</h2><div id="sessions-body"></div></section>
</div>
</main>
`;

/** The whole document; console.ts hashes the exact style and scripts for its CSP. */
export function consoleHtml(chartScript: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trove console</title>
<link rel="icon" href="data:,">
<style>${CONSOLE_STYLE}</style>
</head>
<body>${BODY}<script>${chartScript}</script><script>${CONSOLE_SCRIPT}</script>
</body>
</html>
`;
}
