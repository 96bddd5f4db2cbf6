#!/usr/bin/env python3
"""Extract the mcp3 catalog from repository snapshots into ../catalog.json and raw.json (raw.json
adds `_src`, the file each tool was read from). Its servers are written in TypeScript, Python
(FastMCP), Go and Rust; git access, the evaluators and the output are shared with mcp2 in
../../build/mcp_extract.py.

Run from anywhere: python3 build/extract.py
"""
import ast
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'build'))
from mcp_extract import (COMMITS, Unresolved, add, go_consts, go_string_expr,  # noqa: E402
                         js_named_objects, js_tools_from_calls, js_tools_from_objects, jsmod, ls,
                         match_close, py_fastmcp, show, write_catalog)


# ---------------------------------------------------------------------------------------------
# The servers of this catalog
# ---------------------------------------------------------------------------------------------

# repository -> commit read
COMMITS.update({
    'microsoft/azure-devops-mcp': '0a08dc649c951208eda942154c66187dec9985bd',
    'chigwell/telegram-mcp': 'a7bdd4d25fc1b35a1d3e83e743bf8c19ef54709e',
    'roychri/mcp-server-asana': 'd02f4368a3c16560390311566583c58c9e226a5a',
    'resend/mcp-send-email': '7c9110ef6206c917f2cab24af8ef83ee1a96f39c',
    'CircleCI-Public/mcp-server-circleci': '8787136b6c8bf72752ebcffad1520c2a847b5276',
    'winor30/mcp-server-datadog': '4fa2b90092e2fc769c5f50be5e260459ec0a67d5',
    'domdomegg/airtable-mcp-server': '8a759ba9c0cb71d79af1d7595fc9775055380569',
    'buildkite/buildkite-mcp-server': 'bcc16421af9ccd3116a1f6774cd9e38a9816db12',
    'awslabs/mcp': '100b55b6d92f731bc8d23486ce9efd5bbf90c606',
    'elastic/mcp-server-elasticsearch': 'a2b050d07c1e0af19974f63efa20f4553cb43b2b',
    'varunneal/spotify-mcp': '4802d2f4201c301ee5703d32e9c3481238bb74f1',
    'pinecone-io/pinecone-mcp': 'a15d4b9ebc2e81ef35586218bdcde63c49c1bd9c',
    'auth0/auth0-mcp-server': 'c2709eb5630c5850c94826f54a2fbc8131fb6d48',
    'taylorwilsdon/google_workspace_mcp': 'e9deca70cef32445b67e39795a64448b7fe22d27',
})


def azuredevops():
    # the commit before the July 2026 consolidation of the tools into action-based ones
    repo = 'microsoft/azure-devops-mcp'
    for path in ls(repo, 'src/tools/'):
        if not path.endswith('.ts') or path.endswith('.dto.ts') or '.test.' in path:
            continue
        mod = jsmod(repo, path)
        js_tools_from_calls('azuredevops', repo, path, mod, {'tool', 'registerTool'})


def telegram():
    repo = 'chigwell/telegram-mcp'
    init = show(repo, 'telegram_mcp/tools/__init__.py')
    for module in re.findall(r'^from telegram_mcp\.tools\.(\w+) import \*', init, re.M):
        py_fastmcp('telegram', repo, f'telegram_mcp/tools/{module}.py')


def asana():
    repo = 'roychri/mcp-server-asana'
    for path in ls(repo, 'src/tools/'):
        mod = jsmod(repo, path)
        js_tools_from_objects('asana', repo, path, mod)


def ts_tools_from_calls(ns, repo, folder, methods):
    """Every `server.<method>('name', ...)` call in the TypeScript files of a folder, tests left out."""
    for path in ls(repo, folder):
        if not path.endswith('.ts') or '.test.' in path:
            continue
        js_tools_from_calls(ns, repo, path, jsmod(repo, path), methods)


def resend():
    ts_tools_from_calls('resend', 'resend/mcp-send-email', 'tools/', {'tool', 'registerTool'})


def circleci():
    repo = 'CircleCI-Public/mcp-server-circleci'
    reg = show(repo, 'src/circleci-tools.ts')
    block = reg[reg.index('export const CCI_TOOLS = ['):]
    block = block[:block.index('];')]
    listed = re.findall(r'^\s*(\w+Tool),', block, re.M)
    imports = dict(re.findall(r"import \{ (\w+Tool) \} from '\./(tools/\w+/tool)\.js';", reg))
    consts = jsmod(repo, 'src/tools/shared/constants.ts')
    for var in listed:
        path = f'src/{imports[var]}.ts'
        mod = jsmod(repo, path, [consts])
        n = js_tools_from_objects('circleci', repo, path, mod, also='src/tools/shared/constants.ts')
        assert n == 1, path


def datadog():
    """`createToolSchema(ZodSchema, 'name', 'description')` in src/tools/*/tool.ts."""
    repo = 'winor30/mcp-server-datadog'
    for path in ls(repo, 'src/tools/'):
        if not path.endswith('/tool.ts'):
            continue
        mod = jsmod(repo, path)
        t = mod.toks
        for j in range(len(t) - 1):
            if t[j][0] == 'ident' and t[j][1] == 'createToolSchema' and t[j + 1][1] == '(' and t[j - 1][1] != 'import':
                k = j + 2
                k = mod._skip_expr(k) + 1  # schema argument
                name, k = mod.eval(k)
                assert t[k][1] == ','
                desc, _ = mod.eval(k + 1)
                add('datadog', name, desc, f'{repo}:{path}')


def airtable():
    ts_tools_from_calls('airtable', 'domdomegg/airtable-mcp-server', 'src/tools/', {'registerTool', 'tool'})


def buildkite():
    """pkg/toolsets/toolsets.go registers `newToolDef(buildkite.F)`; each F in pkg/buildkite returns
    `mcp.Tool{Name: "...", Description: ...}`."""
    repo = 'buildkite/buildkite-mcp-server'
    reg = show(repo, 'pkg/toolsets/toolsets.go')
    fns = []
    for f in re.findall(r'newToolDef\(buildkite\.(\w+)\)', reg):
        if f not in fns:
            fns.append(f)
    files = {p: show(repo, p) for p in ls(repo, 'pkg/buildkite/') if p.endswith('.go') and not p.endswith('_test.go')}
    for f in fns:
        for path, src in files.items():
            m = re.search(r'\nfunc ' + f + r'\(', src)
            if m:
                break
        else:
            raise Unresolved(f)
        k = src.index('mcp.Tool{', m.end())
        nm = re.compile(r'\bName:\s*').search(src, k)
        nparts, _ = go_string_expr(src, nm.end())
        dm = re.compile(r'\bDescription:\s*').search(src, k)
        dparts, _ = go_string_expr(src, dm.end())
        consts = go_consts(src)
        def res(parts):
            return ''.join(consts[p[1]] if isinstance(p, tuple) else p for p in parts)
        add('buildkite', res(nparts), res(dparts), f'{repo}:{path}')


def cloudwatch_etc():
    repo = 'awslabs/mcp'
    cw = 'src/cloudwatch-mcp-server/awslabs/cloudwatch_mcp_server/'
    for sub in ['cloudwatch_alarms/tools.py', 'cloudwatch_logs/tools.py', 'cloudwatch_metrics/tools.py']:
        py_fastmcp('cloudwatch', repo, cw + sub,
                   lookup_paths=[cw + 'cloudwatch_logs/cwl_insights_batch.py',
                                 cw + 'cloudwatch_logs/index_recommender.py'])
    py_fastmcp('cloudtrail', repo, 'src/cloudtrail-mcp-server/awslabs/cloudtrail_mcp_server/tools.py')
    eks = 'src/eks-mcp-server/awslabs/eks_mcp_server/'
    for f in ['k8s_handler.py', 'eks_kb_handler.py', 'cloudwatch_handler.py', 'eks_stack_handler.py',
              'iam_handler.py', 'cloudwatch_metrics_guidance_handler.py', 'vpc_config_handler.py',
              'insights_handler.py']:
        py_fastmcp('eks', repo, eks + f)
    ecs = 'src/ecs-mcp-server/awslabs/ecs_mcp_server/modules/'
    for f in ['containerize.py', 'express.py', 'resource_management.py', 'troubleshooting.py']:
        py_fastmcp('ecs', repo, ecs + f)


def elasticsearch():
    """rmcp `#[tool(description = "...")]` on `async fn name(...)`."""
    repo = 'elastic/mcp-server-elasticsearch'
    path = 'src/servers/elasticsearch/base_tools.rs'
    src = show(repo, path)
    for m in re.finditer(r'#\[tool\(\s*description\s*=\s*"((?:[^"\\]|\\.)*)"[^\]]*\)\]\s*(?:pub\s+)?async fn (\w+)', src):
        desc = m.group(1).replace('\\"', '"').replace('\\\\', '\\')
        add('elasticsearch', m.group(2), desc, f'{repo}:{path}')


def spotify():
    """`types.Tool(name="Spotify" + cls.__name__, description=cls.__doc__)` for the ToolModel
    subclasses listed in handle_list_tools (the raw __doc__, not cleaned)."""
    repo = 'varunneal/spotify-mcp'
    path = 'src/spotify_mcp/server.py'
    src = show(repo, path)
    tree = ast.parse(src)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    lt = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == 'handle_list_tools'][0]
    listed = re.findall(r'(\w+)\.as_tool\(\)', ast.unparse(lt))
    for c in listed:
        add('spotify', 'Spotify' + c, ast.get_docstring(classes[c], clean=False), f'{repo}:{path}')


def pinecone():
    repo = 'pinecone-io/pinecone-mcp'
    messages = jsmod(repo, 'src/tools/database/common/messages.ts')
    for path in ls(repo, 'src/tools/'):
        if not path.endswith('.ts') or '.test.' in path or '/common/' in path or path.endswith('/index.ts'):
            continue
        mod = jsmod(repo, path, [messages])
        t = mod.toks
        n = js_tools_from_calls('pinecone', repo, path, mod, {'registerTool'})
        # registerDatabaseTool(server, 'name', { description: ... }, handler)
        for j in range(1, len(t) - 3):
            if t[j][1] == 'registerDatabaseTool' and t[j + 1][1] == '(' and t[j - 1][1] != 'function':
                k = mod._skip_expr(j + 2) + 1
                name, k = mod.eval(k)
                k += 1
                end = match_close(t, k)
                di = [x for x in range(k + 1, end) if t[x][1] == 'description' and t[x + 1][1] == ':'][0] + 2
                desc, _ = mod.eval(di)
                add('pinecone', name, desc, f'{repo}:{path}')
                n += 1
        assert n, path


def auth0():
    repo = 'auth0/auth0-mcp-server'
    index = show(repo, 'src/tools/index.ts')
    for module in re.findall(r"from '\./([\w-]+)\.js';", index):
        path = f'src/tools/{module}.ts'
        mod = jsmod(repo, path)
        for name, _, di in js_named_objects(mod):
            if not isinstance(name, str) or not name.startswith('auth0_'):
                continue
            desc, _ = mod.eval(di)
            add('auth0', name, desc, f'{repo}:{path}')


def gworkspace():
    """Tool modules imported by main.py (`import gcalendar.calendar_tools`, ...); FastMCP
    `@server.tool()` functions, description = docstring."""
    repo = 'taylorwilsdon/google_workspace_mcp'
    main_py = show(repo, 'main.py')
    for pkg, module in re.findall(r'^import (\w+)\.(\w+_tools)$', main_py, re.M):
        py_fastmcp('gworkspace', repo, f'{pkg}/{module}.py')


def main():
    for fn in [azuredevops, telegram, resend, buildkite, asana, auth0, cloudwatch_etc, gworkspace,
               datadog, airtable, circleci, pinecone, elasticsearch, spotify]:
        fn()
    write_catalog(HERE)


if __name__ == '__main__':
    main()
