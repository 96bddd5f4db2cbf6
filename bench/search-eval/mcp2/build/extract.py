#!/usr/bin/env python3
"""Extract the mcp2 catalog (../catalog.json, and raw.json: the same tools plus `_src`) from the
snapshots of its 16 repositories, at the commits registered in COMMITS below. Kubernetes is read from
its generated README, Notion from its bundled OpenAPI spec, Slack from Go; the others from their
TypeScript or Python sources. General machinery: ../../build/mcp_extract.py.

Run from anywhere: python3 build/extract.py
"""
import ast
import json
import os
import re
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'build'))
from mcp_extract import (COMMITS, SKIPPED, TOOLS, Unresolved, add, go_string_expr,  # noqa: E402
                         js_named_objects, js_tools_from_calls, js_tools_from_objects, jsmod, ls,
                         match_close, py_docstring_tools, py_tool_calls, show, write_catalog)

# repository -> commit read
COMMITS.update({
    'containers/kubernetes-mcp-server': '55749981693f71c9f9a573bfab229eccd4f124ea',
    'cloudflare/mcp-server-cloudflare': '70ff690553722f731849ede6ba9ce98958395a23',
    'heroku/heroku-mcp-server': 'de94a9c50cbf73f79210c0bf19111f96995eac4d',
    'neondatabase/mcp-server-neon': '94928121944167d82d9b2b865bcdc5469631557d',
    'chroma-core/chroma-mcp': '078dc678636b687f345ea64509a9fe2ec39f5b7b',
    'firecrawl/firecrawl-mcp-server': '678c92a430849b8be90e70f3c0607ac1c8b0bee8',
    'exa-labs/exa-mcp-server': '15ffb50519e719dc791cdc750ce5ed1934c0a1ed',
    'brave/brave-search-mcp-server': '2748b47a378dc1a7e21551a8bd7726af38f65b6c',
    'korotovsky/slack-mcp-server': 'b24b1b08af740d5c710f556d45a5b8ba3acc0ebc',
    'makenotion/notion-mcp-server': '1d38420769c8a1fe2d583ff1e7d2d108d4eb0b30',
    'Doist/todoist-ai': '573cfb0914994340c9e86d5f00a48b072fa18b18',
    'MarkusPfundstein/mcp-obsidian': 'eb33932a66eebda9eb44745e5d31f5c0fe21fee2',
    'paypal/agent-toolkit': '1df21a620667595bd2cd326c2daee0c97c355f78',
    'PagerDuty/pagerduty-mcp-server': '22adbf1967215083e4afde5a09d4de5959d402f8',
    'awslabs/mcp': '100b55b6d92f731bc8d23486ce9efd5bbf90c606',
    # the reference servers archived on 2025-05-29 (later published as
    # modelcontextprotocol/servers-archived): parent of commit d53d6cc "Archive unmaintained servers"
    'modelcontextprotocol/servers': '1f705677a930ec618b7a16d87d00cee7db747ff2',
})


# --- kubernetes: README generated from the Go tool definitions (internal/tools/update-readme) ---
def kubernetes():
    repo = 'containers/kubernetes-mcp-server'
    text = show(repo, 'README.md')
    a = text.index('<!-- AVAILABLE-TOOLSETS-TOOLS-START -->')
    b = text.index('<!-- AVAILABLE-TOOLSETS-TOOLS-END -->')
    block = text[a:b]
    # update-readme writes: "- **%s** - %s\n" (name, description), then one "  - `prop` ..." line
    # per input property, then "\n"; toolsets are wrapped in <details> ... </details>.
    heads = list(re.finditer(r'^- \*\*([A-Za-z0-9_.-]+)\*\* - ', block, re.M))
    for n, m in enumerate(heads):
        end = heads[n + 1].start() if n + 1 < len(heads) else len(block)
        chunk = block[m.end():end]
        d = chunk.find('</details>')
        if d >= 0:
            chunk = chunk[:d]
        p = re.search(r'\n  - `[^`]+` \(`', chunk)
        if p:
            desc = chunk[:p.start()]
        else:
            assert chunk.endswith('\n\n'), (m.group(1), chunk[-20:])
            desc = chunk[:-2]
        add('kubernetes', m.group(1), desc, f'{repo}:README.md')


# --- cloudflare: a subset of the apps of the monorepo ---
CLOUDFLARE_FILES = [
    'apps/workers-bindings/src/tools/kv_namespace.tools.ts',
    'apps/workers-bindings/src/tools/r2_bucket.tools.ts',
    'apps/workers-bindings/src/tools/d1.tools.ts',
    'apps/workers-bindings/src/tools/hyperdrive.tools.ts',
    'packages/mcp-common/src/shared-tools/worker.tools.ts',
    'packages/mcp-common/src/shared-tools/zone.tools.ts',
    'packages/mcp-common/src/shared-tools/docs-ai-search.tools.ts',
    'apps/workers-observability/src/tools/workers-observability.tools.ts',
    'apps/workers-builds/src/tools/workers-builds.tools.ts',
    'apps/browser-rendering/src/tools/browser.tools.ts',
    'apps/ai-gateway/src/tools/ai-gateway.tools.ts',
    'apps/autorag/src/tools/autorag.tools.ts',
    'apps/logpush/src/tools/logpush.tools.ts',
    'apps/auditlogs/src/tools/auditlogs.tools.ts',
    'apps/dns-analytics/src/tools/dex-analytics.tools.ts',
    'apps/graphql/src/tools/graphql.tools.ts',
]


def cloudflare():
    repo = 'cloudflare/mcp-server-cloudflare'
    for path in CLOUDFLARE_FILES:
        mod = jsmod(repo, path)
        n = js_tools_from_calls('cloudflare', repo, path, mod, {'accountTool', 'registerTool', 'tool'})
        assert n, path


def heroku():
    repo = 'heroku/heroku-mcp-server'
    for path in ls(repo, 'src/tools/'):
        if path.endswith('.spec.ts') or not path.endswith('.ts'):
            continue
        mod = jsmod(repo, path)
        js_tools_from_calls('heroku', repo, path, mod, {'tool'})


def neon():
    repo = 'neondatabase/mcp-server-neon'
    consts = jsmod(repo, 'mcp/constants.ts')
    path = 'mcp/tools/definitions.ts'
    mod = jsmod(repo, path, [consts])
    js_tools_from_objects('neon', repo, path, mod, also='mcp/constants.ts')


def firecrawl():
    repo = 'firecrawl/firecrawl-mcp-server'
    for path in ['src/index.ts', 'src/developer.ts', 'src/monitor.ts', 'src/research.ts']:
        mod = jsmod(repo, path)
        # only tool objects passed to addTool( { name, description, ... } )
        for name, ni, di in js_named_objects(mod):
            if not name.startswith('firecrawl_'):
                continue
            # the object must be the argument of an addTool call
            k = ni
            while mod.toks[k][1] != '{':
                k -= 1
            if not (mod.toks[k - 1][1] == '(' and mod.toks[k - 2][1] == 'addTool'):
                continue
            try:
                desc, _ = mod.eval(di)
            except Unresolved as e:
                SKIPPED.append(('firecrawl', name, f'description not resolvable ({e})'))
                continue
            add('firecrawl', name, desc, f'{repo}:{path}')


def exa():
    repo = 'exa-labs/exa-mcp-server'
    for path in ls(repo, 'src/tools/'):
        mod = jsmod(repo, path)
        js_tools_from_calls('exa', repo, path, mod, {'tool'})


def brave():
    repo = 'brave/brave-search-mcp-server'
    index = jsmod(repo, 'src/tools/index.ts')
    for path in ls(repo, 'src/tools/'):
        if not path.endswith('/index.ts') or path == 'src/tools/index.ts':
            continue
        mod = jsmod(repo, path)
        add('brave', mod.lookup('name'), mod.lookup('description'), f'{repo}:{path}')


def todoist():
    repo = 'Doist/todoist-ai'
    names = jsmod(repo, 'src/utils/tool-names.ts')
    for path in ls(repo, 'src/tools/'):
        if '.test.' in path or '__' in path or not path.endswith('.ts'):
            continue
        mod = jsmod(repo, path, [names])
        js_tools_from_objects('todoist', repo, path, mod, also='src/utils/tool-names.ts')


def paypal():
    repo = 'paypal/agent-toolkit'
    prompts = jsmod(repo, 'typescript/src/shared/prompts.ts')
    path = 'typescript/src/shared/tools.ts'
    mod = jsmod(repo, path, [prompts])
    # the MCP server registers `tool.method` as the name and `tool.description` as the description
    js_tools_from_objects('paypal', repo, path, mod, name_key='method', desc_key='description',
                          also='typescript/src/shared/prompts.ts')


def archived():
    repo = 'modelcontextprotocol/servers'
    for ns, path in [('gitlab', 'src/gitlab/index.ts'), ('googlemaps', 'src/google-maps/index.ts'),
                     ('puppeteer', 'src/puppeteer/index.ts'), ('postgres', 'src/postgres/index.ts'),
                     ('gdrive', 'src/gdrive/index.ts'), ('everart', 'src/everart/index.ts'),
                     ('awskb', 'src/aws-kb-retrieval-server/index.ts')]:
        mod = jsmod(repo, path)
        for name, ni, di in js_named_objects(mod):
            try:
                desc, _ = mod.eval(di)
            except Unresolved:
                continue
            # skip server info ({name, version}) and resources; tools have an inputSchema sibling
            k = ni
            while mod.toks[k][1] != '{':
                k -= 1
            end = match_close(mod.toks, k)
            keys = {mod.toks[x][1] for x in range(k + 1, end)
                    if mod.toks[x + 1][1] == ':' and mod.toks[x - 1][1] in ('{', ',')}
            if 'inputSchema' not in keys:
                continue
            add(ns, name, desc, f'{repo}:{path}')
    for ns, path in [('sqlite', 'src/sqlite/src/mcp_server_sqlite/server.py'),
                     ('sentry', 'src/sentry/src/mcp_server_sentry/server.py')]:
        py_tool_calls(ns, repo, path)


# ---------------------------------------------------------------------------------------------
# Python servers
# ---------------------------------------------------------------------------------------------

def chroma():
    repo = 'chroma-core/chroma-mcp'
    py_docstring_tools('chroma', repo, 'src/chroma_mcp/server.py', decorator='mcp.tool')


def awsiam():
    repo = 'awslabs/mcp'
    py_docstring_tools('awsiam', repo, 'src/iam-mcp-server/awslabs/iam_mcp_server/server.py',
                       decorator='mcp.tool')


def pagerduty():
    repo = 'PagerDuty/pagerduty-mcp-server'
    init = ast.parse(show(repo, 'pagerduty_mcp/tools/__init__.py'))
    registered = []
    module_of = {}
    for node in init.body:
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                module_of[a.asname or a.name] = node.module
        if isinstance(node, ast.Assign) and node.targets[0].id in ('read_tools', 'write_tools'):
            registered += [e.id for e in node.value.elts]
    by_module = OrderedDict()
    for fn in registered:
        by_module.setdefault(module_of[fn], set()).add(fn)
    order = {fn: i for i, fn in enumerate(registered)}
    before = len(TOOLS)
    for module, fns in by_module.items():
        py_docstring_tools('pagerduty', repo, f'pagerduty_mcp/tools/{module}.py', names=fns)
    got = {t['name'] for t in TOOLS[before:]}
    assert got == set(registered), set(registered) - got
    # keep the registration order of read_tools + write_tools
    TOOLS[before:] = sorted(TOOLS[before:], key=lambda t: order[t['name']])


def obsidian():
    repo = 'MarkusPfundstein/mcp-obsidian'
    path = 'src/mcp_obsidian/tools.py'
    tree = ast.parse(show(repo, path))
    consts = {n.targets[0].id: ast.literal_eval(n.value) for n in tree.body
              if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
              and isinstance(n.value, ast.Constant)}
    server = show(repo, 'src/mcp_obsidian/server.py')
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef) or cls.name == 'ToolHandler':
            continue
        if not re.search(r'tools\.' + cls.name + r'\(\)', server):
            SKIPPED.append(('obsidian', cls.name, 'handler not registered in server.py'))
            continue
        name = desc = None
        for node in ast.walk(cls):
            if isinstance(node, ast.Call) and getattr(node.func, 'attr', None) == '__init__' and node.args:
                a = node.args[0]
                name = consts[a.id] if isinstance(a, ast.Name) else ast.literal_eval(a)
            if isinstance(node, ast.Call) and getattr(node.func, 'id', None) == 'Tool':
                kw = {k.arg: k.value for k in node.keywords}
                desc = ast.literal_eval(kw['description'])
        add('obsidian', name, desc, f'{repo}:{path}')


# ---------------------------------------------------------------------------------------------
# Slack (Go)
# ---------------------------------------------------------------------------------------------

def slack():
    repo = 'korotovsky/slack-mcp-server'
    path = 'pkg/server/server.go'
    src = show(repo, path)
    consts = dict(re.findall(r'^\s*(Tool[A-Za-z]+)\s*=\s*"([^"]*)"', src, re.M))

    def resolve(parts):
        out = []
        for p in parts:
            if isinstance(p, tuple):
                if p[1] not in consts:
                    raise Unresolved(p[1])
                out.append(consts[p[1]])
            else:
                out.append(p)
        return ''.join(out)

    for m in re.finditer(r'mcp\.NewTool\(', src):
        nparts, j = go_string_expr(src, m.end())
        name = resolve(nparts)
        k = src.index('mcp.WithDescription(', j)
        assert src[j:k].strip() == ',', src[j:k]
        dparts, _ = go_string_expr(src, k + len('mcp.WithDescription('))
        add('slack', name, resolve(dparts), f'{repo}:{path}')


# ---------------------------------------------------------------------------------------------
# Notion: tools generated at start-up from the bundled OpenAPI spec
# ---------------------------------------------------------------------------------------------

def notion():
    """src/openapi-mcp-server/openapi/parser.ts (convertToMCPTools / convertOperationToMCPMethod /
    getDescription) and mcp/proxy.ts: name = 'API-' + operationId (cut to 64 characters);
    description = 'Notion | ' + (summary || description) + '\\nError Responses:\\n' + '<code>: <desc>'
    lines for the 4xx/5xx responses, in the order of the spec."""
    repo = 'makenotion/notion-mcp-server'
    path = 'scripts/notion-openapi.json'
    spec = json.loads(show(repo, path), object_pairs_hook=OrderedDict)
    assert spec['info']['title'] == 'Notion API'

    def resolve_ref(ref):
        node = spec
        for part in ref.lstrip('#/').split('/'):
            node = node[part]
        return node

    for p, item in spec['paths'].items():
        for method, op in item.items():
            if method.lower() not in ('get', 'post', 'put', 'delete', 'patch'):
                continue
            if not op.get('operationId'):
                SKIPPED.append(('notion', f'{method} {p}', 'no operationId'))
                continue
            desc = op.get('summary') or op.get('description') or ''
            errs = []
            for code, resp in op.get('responses', {}).items():
                if code.startswith('4') or code.startswith('5'):
                    if '$ref' in resp:
                        resp = resolve_ref(resp['$ref'])
                    errs.append(f"{code}: {(resp or {}).get('description') or ''}")
            if errs:
                desc += '\nError Responses:\n' + '\n'.join(errs)
            name = op['operationId']
            assert len(name) <= 64
            name = ('API-' + name)[:64]
            add('notion', name, 'Notion | ' + desc, f'{repo}:{path}')



def main():
    for fn in [kubernetes, cloudflare, heroku, neon, chroma, firecrawl, exa, brave, slack, notion,
               todoist, obsidian, paypal, pagerduty, awsiam, archived]:
        fn()
    write_catalog(HERE)


if __name__ == '__main__':
    main()
