// The inspector page (GET /inspect): markup, style and vanilla script as strings, no build step.
import { modelToolNames } from "../ops/builtins";
import { OPERATIONS } from "../ops/registry";
import { ID_PATTERN } from "../schemas";

// Everything the page shows comes from the JSON API and is attacker-controlled (tool names and
// descriptions, approval args, event data): the script only ever writes it with textContent /
// Text nodes and attribute values, never as markup. The CSP (inspect.ts) enforces that with
// Trusted Types, so an innerHTML assignment would throw instead of parsing.

export const INSPECT_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #fff;
  --panel: #f6f8fa; --accent: #0b5cad; --bad: #b3261e; --good: #1a7f37; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9aa4af; --line: #3d444d;
  --bg: #0d1117; --panel: #161b22; --accent: #6cb6ff; --bad: #ff8a80; --good: #56d364; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
main { max-width: 1200px; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
h3 { font-size: 1rem; margin: .75rem 0 .35rem; }
section, form.panel { border: 1px solid var(--line); border-radius: 6px; padding: .9rem 1rem;
  margin: 0 0 1rem; background: var(--bg); }
form.panel { background: var(--panel); }
.fields { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: flex-end; }
.field { display: flex; flex-direction: column; gap: .2rem; }
label { font-weight: 600; font-size: .9rem; }
input, select, button { font: inherit; padding: .35rem .55rem; border: 1px solid var(--line);
  border-radius: 4px; background: var(--bg); color: var(--fg); }
input[type=password], #session-id { width: 24rem; max-width: 100%; }
button { cursor: pointer; background: var(--panel); }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.approve { color: var(--good); border-color: var(--good); }
button.deny { color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .55; cursor: default; }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.hint, caption, .note { color: var(--muted); font-size: .88rem; }
caption { text-align: left; padding: 0 0 .35rem; caption-side: top; }
table { width: 100%; border-collapse: collapse; font-size: .92rem; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
th { background: var(--panel); font-weight: 600; }
td.mono, code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: .85rem; }
pre, td.mono { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; }
td.time { white-space: nowrap; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 0 1rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
#error { border: 2px solid var(--bad); border-radius: 6px; padding: .75rem 1rem; margin: 0 0 1rem; }
#error h2 { color: var(--bad); }
#status { min-height: 1.4em; margin: 0 0 1rem; }
.tree ul { list-style: none; margin: 0; padding-left: 1.25rem; border-left: 1px dotted var(--line); }
.tree summary { cursor: pointer; } .tree .key { font-weight: 600; }
.tree .string { color: var(--good); } .tree .number, .tree .boolean { color: var(--accent); }
.tree .null { color: var(--muted); }
.actions { display: flex; gap: .4rem; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 999px; border: 1px solid var(--line);
  font-size: .8rem; }
[hidden] { display: none !important; }
`;

export const INSPECT_SCRIPT = `
"use strict";
(() => {
  const BUILTINS = new Set(${JSON.stringify(modelToolNames(OPERATIONS))});
  const KEY_ITEM = "trove.inspect.key";
  const SID_ITEM = "trove.inspect.sid";
  const SID_PATTERN = new RegExp(${JSON.stringify(ID_PATTERN.source)});
  const EVENT_PAGE = 100;
  const SEARCH_LIMIT = 20;
  const byId = (id) => document.getElementById(id);
  const ui = {
    main: byId("main"), form: byId("connect"), key: byId("api-key"), sid: byId("session-id"),
    run: byId("run-id"), load: byId("load"), forget: byId("forget"), refresh: byId("refresh"),
    status: byId("status"), error: byId("error"), session: byId("session"),
    search: byId("deferred-search"), query: byId("deferred-query"), type: byId("deferred-type"),
    decider: byId("decided-by"), more: byId("more-events"), events: byId("events-body"),
    eventsNote: byId("events-note"),
  };
  let target = null;
  let lastState = null;
  let cursor = 0;
  let shown = 0;

  class ApiError extends Error {
    constructor(op, status, code, message, details) {
      super(message);
      Object.assign(this, { op, status, code, details });
    }
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
    for (const child of children) {
      if (child !== null && child !== undefined && child !== false) {
        node.append(child instanceof Node ? child : String(child));
      }
    }
    return node;
  }

  function table(caption, headers, rows, empty) {
    if (rows.length === 0) return h("p", { class: "note", text: empty });
    const head = h("tr", null, ...headers.map((t) => h("th", { scope: "col", text: t })));
    const body = rows.map((cells) => h("tr", null, ...cells.map((c) =>
      c instanceof Node && c.nodeName === "TD" ? c : h("td", null, c === null ? "\\u2014" : c))));
    return h("table", null, h("caption", { text: caption }), h("thead", null, head), h("tbody", null, ...body));
  }

  const mono = (text) => h("td", { class: "mono", text });
  const json = (value) => JSON.stringify(value);
  const plural = (n, one, many) => n + " " + (n === 1 ? one : many);

  function facts(pairs) {
    return h("dl", { class: "facts" }, ...pairs.flatMap(([k, v]) => [h("dt", { text: k }), h("dd", { text: v })]));
  }

  /** A collapsible view of a JSON value: objects and arrays are <details>, leaves are text. */
  function tree(value, label, depth) {
    const key = label === null ? null : h("span", { class: "key", text: label });
    if (value === null || typeof value !== "object") {
      const kind = value === null ? "null" : typeof value;
      return h("div", null, key, key ? ": " : null, h("span", { class: kind, text: json(value) }));
    }
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    const shape = Array.isArray(value) ? "[" + plural(entries.length, "item", "items") + "]"
      : "{" + plural(entries.length, "key", "keys") + "}";
    if (entries.length === 0) return h("div", null, key, key ? ": " : null, Array.isArray(value) ? "[]" : "{}");
    const list = h("ul", null, ...entries.map(([k, v]) => h("li", null, tree(v, k, depth + 1))));
    return h("details", { open: depth < 1 }, h("summary", null, key, key ? " " : null, shape), list);
  }

  function say(text) { ui.status.textContent = text; }

  function clearError() { ui.error.hidden = true; ui.error.replaceChildren(); }

  function showError(err) {
    const parts = [h("h2", { text: "Request failed" })];
    if (err instanceof ApiError) {
      parts.push(h("p", null, h("strong", { text: err.op }), ": " + err.message));
      const list = [["Code", err.code], ["HTTP status", err.status ? String(err.status) : "none (no answer)"]];
      if (err.details && typeof err.details.field === "string") list.push(["Field", err.details.field]);
      parts.push(facts(list));
      if (err.details && Object.keys(err.details).length > 0) {
        parts.push(h("details", null, h("summary", { text: "Details" }), h("pre", { text: JSON.stringify(err.details, null, 2) })));
      }
    } else {
      parts.push(h("p", { text: String((err && err.message) || err) }));
    }
    ui.error.replaceChildren(...parts);
    ui.error.hidden = false;
  }

  /** Calls an operation with the bearer key; failures become ApiError with the API's code. */
  async function api(op, body) {
    let res;
    try {
      res = await fetch("/v1/sessions/" + encodeURIComponent(target.sid) + "/" + op, {
        method: "POST",
        headers: { authorization: "Bearer " + target.key, "content-type": "application/json" },
        body: JSON.stringify(body),
        cache: "no-store",
        credentials: "omit",
      });
    } catch (err) {
      throw new ApiError(op, 0, "network_error", "could not reach Trove (" + err.message + ")", null);
    }
    let answer = null;
    try { answer = await res.json(); } catch { answer = null; }
    const e = answer && answer.error;
    if (!res.ok && e && typeof e.message === "string") throw new ApiError(op, res.status, String(e.code), e.message, e.details);
    if (!res.ok) throw new ApiError(op, res.status, "http_" + res.status, "unexpected answer (HTTP " + res.status + ")", null);
    if (answer === null) throw new ApiError(op, res.status, "invalid_response", "the answer is not JSON", null);
    return answer;
  }

  /** A tenant route (the key's tenant), e.g. the gateway's upstreams; failures as api()'s. */
  async function tenantApi(method, path, body) {
    const name = method + " " + path;
    let res;
    try {
      res = await fetch(path, {
        method,
        headers: { authorization: "Bearer " + target.key, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store",
        credentials: "omit",
      });
    } catch (err) {
      throw new ApiError(name, 0, "network_error", "could not reach Trove (" + err.message + ")", null);
    }
    let answer = null;
    try { answer = await res.json(); } catch { answer = null; }
    const e = answer && answer.error;
    if (!res.ok && e && typeof e.message === "string") throw new ApiError(name, res.status, String(e.code), e.message, e.details);
    if (!res.ok || answer === null) throw new ApiError(name, res.status, "http_" + res.status, "unexpected answer (HTTP " + res.status + ")", null);
    return answer;
  }

  /** Tools of the tenant's upstream MCP servers that changed after import and wait for acceptance. */
  function renderUpstreamChanges(upstreams) {
    const pending = upstreams.flatMap((u) => u.changes.filter((c) => c.status === "pending").map((c) => ({ upstream: u.name, change: c })));
    const rows = pending.map(({ upstream, change }) => {
      const accept = h("button", { type: "button", class: "approve", text: "Accept", "aria-label": "Accept the change of " + upstream + " " + change.tool });
      accept.addEventListener("click", () => acceptChange(upstream, change.tool, accept));
      return [mono(upstream), mono(change.tool), String(change.before.description || ""), String(change.after.description || ""),
        change.at, h("td", null, h("div", { class: "actions" }, accept))];
    });
    section("upstreams-body", table(plural(pending.length, "changed tool", "changed tools") + " held back until accepted",
      ["Upstream", "Tool", "Description before", "Description now", "Seen", "Decision"], rows,
      "No upstream tool waits for acceptance."));
  }

  async function acceptChange(upstream, tool, button) {
    button.disabled = true;
    clearError();
    try {
      await tenantApi("POST", "/v1/upstreams/" + encodeURIComponent(upstream) + "/accept", { tools: [tool] });
      await refresh("Accepted the change of " + upstream + " " + tool + ".");
      byId("upstreams-heading").focus();
    } catch (err) {
      button.disabled = false;
      showError(err);
    }
  }

  function renderLessons(list) {
    const rows = list.lessons.map((l) => {
      const buttons = [];
      if (l.status !== "approved") buttons.push(h("button", { type: "button", class: "approve", text: "Approve", "aria-label": "Approve " + l.name }));
      if (l.status !== "rejected") buttons.push(h("button", { type: "button", class: "deny", text: "Reject", "aria-label": "Reject " + l.name }));
      for (const b of buttons) b.addEventListener("click", () => review(l.name, b.textContent === "Approve" ? "approve" : "reject", buttons));
      return [mono(l.name), h("td", null, h("span", { class: "badge", text: l.status })), l.kind, l.trigger, mono(l.body),
        l.submissions + " / " + l.helpful + " / " + l.harmful, h("td", null, h("div", { class: "actions" }, ...buttons))];
    });
    const c = list.counts;
    section("lessons-body", table(c.pending + " pending, " + c.approved + " approved, " + c.rejected + " rejected; mode " + list.policy.mode,
      ["Name", "Status", "Kind", "Trigger", "Body (as stored)", "Runs / helpful / harmful", "Review"], rows, "No learned skills."));
  }

  async function review(name, verdict, buttons) {
    for (const b of buttons) b.disabled = true;
    clearError();
    try {
      const lesson = await tenantApi("POST", "/v1/learned-skills/" + encodeURIComponent(name) + "/" + verdict);
      await refresh((verdict === "approve" ? "Approved " : "Rejected ") + lesson.name + ".");
      byId("lessons-heading").focus();
    } catch (err) {
      for (const b of buttons) b.disabled = false;
      showError(err);
    }
  }

  function setBusy(busy) {
    ui.main.setAttribute("aria-busy", String(busy));
    for (const b of [ui.load, ui.refresh]) b.disabled = busy;
    ui.more.disabled = busy || cursor === 0;
  }

  function section(id, ...content) { byId(id).replaceChildren(...content); }

  function whyVisible(name, st) {
    if (BUILTINS.has(name)) return "Trove tool";
    const why = st.activations.filter((a) => a.name === name).map((a) =>
      "activated (" + a.scope + (a.run_id ? " " + a.run_id : "") + ", " + a.source.replace("_", " ") + ")");
    if (why.length === 0) why.push("always loaded");
    for (const p of st.packs) if (p.tools.includes(name)) why.push("from pack " + p.pack_id);
    for (const s of st.skills) if (s.tools.includes(name)) why.push("from skill " + s.id);
    return why.join("; ");
  }

  function renderState(st) {
    const c = st.catalog;
    section("summary-body", facts([
      ["Session", target.sid + (target.run ? " (run " + target.run + ")" : "")],
      ["Allowed tools", String(c.tools)],
      ["Always loaded", String(c.visible)],
      ["Deferred", String(c.deferred)],
      ["Visible now", plural(st.visible.length, "tool", "tools") + " (including Trove's own)"],
      ["Activation scope", st.config.activation_scope],
      ["Catalog fingerprint", c.fingerprint],
    ]));
    section("config-body", h("div", { class: "tree" }, tree(st.config, "config", 0)),
      h("details", null, h("summary", { text: "Raw JSON" }), h("pre", { text: JSON.stringify(st.config, null, 2) })));
    section("visible-body", table(plural(st.visible.length, "tool", "tools") + " the model sees now",
      ["Tool", "Why it is listed"], st.visible.map((n) => [mono(n), whyVisible(n, st)]), "No visible tools."));
    section("activations-body", table(plural(st.activations.length, "activation", "activations"),
      ["Tool", "Scope", "Run", "Source", "Reason", "Activated", "Expires"],
      st.activations.map((a) => [mono(a.name), a.scope, a.run_id, a.source, a.reason, a.at, a.expires_at]),
      "No activations."));
    section("packs-body", h("h3", { text: "Attached packs" }),
      table(plural(st.packs.length, "attached pack", "attached packs"), ["Pack", "Attached", "Tools enabled", "Tools"],
        st.packs.map((p) => [mono(p.pack_id), p.attached_at, p.tools_enabled_at, mono(p.tools.join(", ") || "\\u2014")]),
        "No packs attached."),
      h("h3", { text: "Enabled skills" }),
      table(plural(st.skills.length, "enabled skill", "enabled skills"), ["Skill", "Enabled", "Tools"],
        st.skills.map((s) => [mono(s.id), s.enabled_at, mono(s.tools.join(", ") || "\\u2014")]),
        "No skills enabled."));
    renderApprovals(st.pending_approvals);
  }

  function renderApprovals(pending) {
    const rows = pending.map((a) => {
      const approve = h("button", { type: "button", class: "approve", text: "Approve", "aria-label": "Approve " + a.name + " (" + a.approval_id + ")" });
      const deny = h("button", { type: "button", class: "deny", text: "Deny", "aria-label": "Deny " + a.name + " (" + a.approval_id + ")" });
      approve.addEventListener("click", () => decide(a, "approve", [approve, deny]));
      deny.addEventListener("click", () => decide(a, "deny", [approve, deny]));
      return [mono(a.name), mono(a.args === null ? "\\u2014" : JSON.stringify(a.args, null, 2)), a.run_id,
        a.requested_at, mono(a.approval_id), h("td", null, h("div", { class: "actions" }, approve, deny))];
    });
    section("approvals-body", table(plural(pending.length, "pending approval", "pending approvals"),
      ["Tool", "Arguments", "Run", "Requested", "Approval id", "Decision"], rows, "No pending approvals."));
  }

  function renderDeferred(found, st) {
    const active = new Set(st.activations.map((a) => a.name));
    const tools = found.tools.slice().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const caption = plural(tools.length, "tool", "tools") + " matching " + json(found.query) + " (" +
      found.search_type + ") of " + found.total_deferred + " deferred; tool_search answers at most " + SEARCH_LIMIT;
    section("deferred-body", table(caption, ["Tool", "Description", "Status"],
      tools.map((t) => [mono(t.name), t.description, active.has(t.name) ? "activated" : t.loading_mode]),
      "No deferred tools match " + json(found.query) + " (" + found.total_deferred + " deferred in all)."));
  }

  const searchInput = () => ({ query: ui.query.value || ".", search_type: ui.type.value, limit: SEARCH_LIMIT });

  async function loadEvents() {
    // Newest first: the page reads a timeline from now backwards; "Load more" goes further back.
    const page = await api("events", cursor > 0
      ? { order: "newest_first", before: cursor, limit: EVENT_PAGE }
      : { order: "newest_first", limit: EVENT_PAGE });
    for (const ev of page.events) {
      ui.events.append(h("tr", null, h("td", { text: String(ev.id) }), h("td", { class: "time", text: ev.at }),
        h("td", null, h("span", { class: "badge", text: ev.type })), mono(json(ev.data))));
    }
    shown += page.events.length;
    cursor = page.next_cursor;
    ui.eventsNote.textContent = plural(shown, "event", "events") + " shown, newest first." +
      (page.next_cursor === 0 ? " No older events." : "");
    ui.more.disabled = page.next_cursor === 0;
  }

  async function refresh(done) {
    setBusy(true);
    clearError();
    say("Loading session " + target.sid + "\\u2026");
    try {
      const st = await api("state", target.run ? { run_id: target.run } : {});
      const found = await api("tool_search", searchInput());
      const upstreams = await tenantApi("GET", "/v1/upstreams");
      lastState = st;
      renderState(st);
      renderUpstreamChanges(upstreams.upstreams);
      renderDeferred(found, st);
      renderLessons(await tenantApi("GET", "/v1/learned-skills"));
      cursor = 0;
      shown = 0;
      ui.events.replaceChildren();
      await loadEvents();
      ui.session.hidden = false;
      say(done || "Loaded session " + target.sid + " at " + new Date().toLocaleTimeString() + ".");
    } catch (err) {
      ui.session.hidden = true;
      say("");
      showError(err);
    } finally {
      setBusy(false);
    }
  }

  async function decide(approval, decision, buttons) {
    for (const b of buttons) b.disabled = true;
    clearError();
    const body = { approval_id: approval.approval_id, decision };
    if (ui.decider.value.trim()) body.by = ui.decider.value.trim();
    try {
      const result = await api("approval_decide", body);
      await refresh((decision === "approve" ? "Approved " : "Denied ") + result.name + " (" + result.approval_id + ").");
      byId("approvals-heading").focus();
    } catch (err) {
      for (const b of buttons) b.disabled = false;
      showError(err);
    }
  }

  ui.form.addEventListener("submit", (event) => {
    event.preventDefault();
    const key = ui.key.value.trim();
    const sid = ui.sid.value.trim();
    const run = ui.run.value.trim();
    clearError();
    if (!key || !SID_PATTERN.test(sid)) {
      say("");
      showError(new Error(!key ? "Enter an API key." : "Enter a session id matching " + SID_PATTERN.source + "."));
      return;
    }
    sessionStorage.setItem(KEY_ITEM, key);
    sessionStorage.setItem(SID_ITEM, sid);
    target = { key, sid, run };
    refresh();
  });
  ui.refresh.addEventListener("click", () => { if (target) refresh(); });
  ui.forget.addEventListener("click", () => {
    sessionStorage.removeItem(KEY_ITEM);
    ui.key.value = "";
    target = null;
    ui.session.hidden = true;
    clearError();
    say("The API key was removed from this tab.");
  });
  ui.search.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!target || !lastState) return;
    clearError();
    try {
      renderDeferred(await api("tool_search", searchInput()), lastState);
    } catch (err) { showError(err); }
  });
  ui.more.addEventListener("click", async () => {
    if (!target) return;
    clearError();
    setBusy(true);
    try { await loadEvents(); } catch (err) { showError(err); } finally { setBusy(false); }
  });

  ui.key.value = sessionStorage.getItem(KEY_ITEM) || "";
  ui.sid.value = sessionStorage.getItem(SID_ITEM) || "";
  document.documentElement.dataset.ready = "true";
})();
`;

export const INSPECT_BODY = `
<main id="main" aria-busy="false">
<h1>Trove session inspector</h1>
<noscript><p>This page needs JavaScript: it reads the session from the JSON API in your browser.</p></noscript>
<form id="connect" class="panel" aria-labelledby="connect-heading" autocomplete="off">
  <h2 id="connect-heading">Session</h2>
  <div class="fields">
    <div class="field"><label for="api-key">API key</label>
      <input id="api-key" type="password" autocomplete="off" spellcheck="false" aria-describedby="key-hint" required></div>
    <div class="field"><label for="session-id">Session id</label>
      <input id="session-id" type="text" autocomplete="off" spellcheck="false" required></div>
    <div class="field"><label for="run-id">Run id <span class="hint">(optional)</span></label>
      <input id="run-id" type="text" autocomplete="off" spellcheck="false"></div>
    <button id="load" class="primary" type="submit">Load session</button>
    <button id="refresh" type="button">Refresh</button>
    <button id="forget" type="button">Forget key</button>
  </div>
  <p id="key-hint" class="hint">The key stays in this tab's session storage and is sent only as a bearer
  header to this worker's API; it never goes into the URL.</p>
</form>
<p id="status" role="status" aria-live="polite"></p>
<div id="error" role="alert" hidden></div>
<div id="session" hidden>
  <div class="grid">
    <section aria-labelledby="summary-heading"><h2 id="summary-heading">Summary</h2><div id="summary-body"></div></section>
    <section aria-labelledby="config-heading"><h2 id="config-heading">Config</h2><div id="config-body"></div></section>
  </div>
  <section aria-labelledby="approvals-heading"><h2 id="approvals-heading" tabindex="-1">Pending approvals</h2>
    <div class="fields"><div class="field"><label for="decided-by">Decide as <span class="hint">(optional, recorded as <code>by</code>)</span></label>
      <input id="decided-by" type="text" autocomplete="off"></div></div>
    <div id="approvals-body"></div></section>
  <section aria-labelledby="upstreams-heading"><h2 id="upstreams-heading" tabindex="-1">Changed upstream tools</h2>
    <div id="upstreams-body"></div></section>
  <section aria-labelledby="lessons-heading"><h2 id="lessons-heading" tabindex="-1">Learned skills of the tenant</h2>
    <p class="hint">Lessons the tenant's runs submitted (<code>GET /v1/learned-skills</code>), pending first: only approved ones reach a model.</p>
    <div id="lessons-body"></div></section>
  <section aria-labelledby="visible-heading"><h2 id="visible-heading">Visible tools</h2><div id="visible-body"></div></section>
  <section aria-labelledby="deferred-heading"><h2 id="deferred-heading">Deferred tools</h2>
    <form id="deferred-search" class="fields" role="search" aria-label="Search deferred tools">
      <div class="field"><label for="deferred-query">Search</label><input id="deferred-query" type="search" value="."></div>
      <div class="field"><label for="deferred-type">Search type</label><select id="deferred-type">
        <option value="regex" selected>regex</option><option value="fts">fts</option><option value="exact">exact</option></select></div>
      <button type="submit">Search deferred tools</button>
    </form>
    <p class="hint">Listed with <code>tool_search</code>, which records each search in the session's events.</p>
    <div id="deferred-body"></div></section>
  <section aria-labelledby="activations-heading"><h2 id="activations-heading">Activations</h2><div id="activations-body"></div></section>
  <section aria-labelledby="packs-heading"><h2 id="packs-heading">Packs and skills</h2><div id="packs-body"></div></section>
  <section aria-labelledby="events-heading"><h2 id="events-heading">Events</h2>
    <table><caption id="events-note"></caption>
      <thead><tr><th scope="col">#</th><th scope="col">Time</th><th scope="col">Type</th><th scope="col">Data</th></tr></thead>
      <tbody id="events-body"></tbody></table>
    <p><button id="more-events" type="button">Load more events</button></p></section>
</div>
</main>
`;

/** The whole document; inspect.ts hashes the exact style and script text for its CSP. */
export const INSPECT_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trove inspector</title>
<link rel="icon" href="data:,">
<style>${INSPECT_STYLE}</style>
</head>
<body>${INSPECT_BODY}<script>${INSPECT_SCRIPT}</script>
</body>
</html>
`;
