// The inspector page (GET /inspect): markup, style and vanilla script as strings, no build step.
import { INSPECT_SCRIPT } from "./inspect-script";

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
