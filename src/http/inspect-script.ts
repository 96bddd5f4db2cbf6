// The inspector page's script (GET /inspect, src/http/inspect-page.ts): vanilla JavaScript as a
// string, no build step. Everything it shows comes from the JSON API and is attacker-controlled, so
// it writes text only with textContent, Text nodes and attribute values, never as markup (the page's
// CSP enforces that with Trusted Types).
import { modelToolNames } from "../ops/builtins";
import { OPERATIONS } from "../ops/registry";
import { ID_PATTERN } from "../schemas";

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
