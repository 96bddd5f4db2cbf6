#!/usr/bin/env python3
"""Extract the intl catalog (MCP tools whose descriptions are written in languages other than English)
from repository snapshots into ../catalog.json and raw.json (raw.json adds `_src`, the file each tool
was read from).

Sources: 14 GitHub repositories read with `git show <commit>:<path>` on the snapshots under
/work/.mirror/<owner>+<repo>/repo (brought there by the search tool's `fetch`), and one npm package
(@amap/amap-maps-mcp-server@0.0.8, the official Amap server, which has no public source repository;
its tarball is read from AMAP_TGZ, fetched with `npm pack` when absent and checked against the
registry's sha1). The JS/TS lexer, FastMCP reader, git access and output are shared with mcp2/mcp3 in
../../build/mcp_extract.py. Python 3 standard library only.

Only tools whose description is mostly non-English are kept (see `mostly_non_english`); the others
are listed on stderr as skipped, with the reason.

Run from anywhere: python3 build/extract.py
"""
import ast
import hashlib
import inspect
import os
import re
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'build'))
import mcp_extract as mx  # noqa: E402
from mcp_extract import (COMMITS, JSModule, SKIPPED, TOOLS, js_named_objects,  # noqa: E402
                         js_tools_from_calls, js_tools_from_objects, jsmod, ls, show, write_catalog)

# ---------------------------------------------------------------------------------------------
# Sources
# ---------------------------------------------------------------------------------------------

COMMITS.update({
    'Joooook/12306-mcp': '88b5cdca0359e790aed715a98315f32cf2e16ce4',
    'xpzouying/xiaohongshu-mcp': '6fb866a7db4e3dcce8dc00a0dde07370f3b12946',
    'baidu-maps/mcp': 'dfbd7743e4123719d66e66f4ead18b7bc7876b11',
    'TencentCloudBase/CloudBase-AI-ToolKit': '46d556298665138421f99bcaa462c1e052285bfe',
    'larksuite/lark-openapi-mcp': '21920354ec6e3966b52e89152620c5085e496b55',
    'aliyun/alibaba-cloud-ops-mcp-server': 'ab1ad07332acaf2626eb522e2915becb14c22387',
    'AIInfrastructure/dingtalk_mcp_server': '242448cfae36683179062a27611d051653249c0f',
    'chatwork/chatwork-mcp-server': 'e08cbd2d62a7aef4e5e25ecc4c755069bac7d96e',
    'freee/freee-mcp': 'ff3e506a814a46bb403edc2e8a9a61991ea17e51',
    'hrko9gis/e-gov-laws-mcp': 'ad0ace66327c6a01e559a8ac7334852589e00ef9',
    'Guiraud/mcp-etalab': '9c0f9647226259aeb352510ea06ba3830c11f994',
    'jorekai/db-timetable-mcp': 'f62d56243158f313b077caadc83be40855a10dd8',
    'AnCode666/boe-mcp': '6e84a31aeb1ac4bdb85ba6bddcc75957a7ff78a6',
    'lucianfialho/mcp-brasil-api': '24474f11e4bf7f3cc189c816c256c850a174304f',
})

AMAP_PKG = '@amap/amap-maps-mcp-server@0.0.8'
AMAP_SHA1 = 'd9bd511e66c0a845e0ea8715e70e942329cebf04'  # dist.shasum in the npm registry
AMAP_TGZ = os.environ.get('AMAP_TGZ', '/tmp/intl-npm/amap-amap-maps-mcp-server-0.0.8.tgz')

# namespace -> language of its descriptions (ISO 639-1)
LANG = {
    'amap': 'zh', 'baidumap': 'zh', 'train12306': 'zh', 'xiaohongshu': 'zh', 'cloudbase': 'zh',
    'feishu': 'zh', 'aliyun': 'zh', 'dingtalk': 'zh',
    'chatwork': 'ja', 'freee': 'ja', 'egovlaw': 'ja',
    'datagouv': 'fr', 'dbtimetable': 'de', 'boe': 'es', 'brasilapi': 'pt',
}

# ---------------------------------------------------------------------------------------------
# "Mostly non-English": the rule that decides which tools are kept
# ---------------------------------------------------------------------------------------------

CJK_RE = re.compile(r'[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]')
WORD_RE = re.compile(r"[^\W\d_]+", re.U)

STOP = {
    'en': {'the', 'of', 'to', 'and', 'for', 'an', 'is', 'on', 'with', 'by', 'from', 'this', 'that',
           'it', 'are', 'be', 'or', 'as', 'at', 'get', 'gets', 'returns', 'which', 'all', 'when',
           'use', 'must', 'should', 'if', 'not', 'you', 'your', 'will', 'can', 'into', 'only'},
    'fr': {'le', 'la', 'les', 'des', 'de', 'du', 'un', 'une', 'et', 'pour', 'sur', 'dans', 'avec',
           'en', 'd', 'l', 'au', 'aux', 'tous', 'toutes', 'par'},
    'de': {'der', 'die', 'das', 'den', 'dem', 'des', 'ein', 'eine', 'einer', 'eines', 'und', 'für',
           'mit', 'von', 'zu', 'im', 'ist', 'auf', 'nach', 'dies', 'dazu', 'zum', 'zur', 'oder'},
    'es': {'el', 'la', 'los', 'las', 'de', 'del', 'un', 'una', 'y', 'para', 'por', 'en', 'con',
           'que', 'se', 'al', 'o', 'es', 'su', 'sus'},
    'pt': {'o', 'a', 'os', 'as', 'de', 'do', 'da', 'dos', 'das', 'um', 'uma', 'e', 'para', 'com',
           'em', 'no', 'na', 'que', 'se', 'por', 'ao', 'contendo', 'sobre'},
}


IDENT_RE = re.compile(r'`[^`]*`|https?://\S+|[A-Za-z0-9_]+')


def latin_word_letters(desc):
    """Letters of the Latin-script words of a text, leaving out code spans, URLs and identifiers
    (tokens with a digit or an underscore, camelCase, ALLCAPS): `chatId`, `OpenConversationId`,
    `station_code`, `POI`, `API` are names, not English."""
    n = 0
    for tok in IDENT_RE.findall(desc):
        if tok.startswith('`') or tok.startswith('http'):
            continue
        if not tok.isalpha() or not tok.isascii():
            continue
        if any(c.isupper() for c in tok[1:]):
            continue
        n += len(tok)
    return n


def cjk_share(desc):
    """CJK characters against the letters of Latin-script words, three letters counting as one
    character (an English word of ~5 letters carries about what one or two Chinese characters
    do)."""
    cjk = len(CJK_RE.findall(desc))
    latin = latin_word_letters(desc)
    return cjk / (cjk + latin / 3) if cjk + latin else 0.0


def stopword_counts(desc, lang):
    words = [w.lower() for w in WORD_RE.findall(desc)]
    own = STOP[lang]
    en = STOP['en'] - own
    return sum(w in own for w in words), sum(w in en for w in words)


def mostly_non_english(desc, lang):
    if lang in ('zh', 'ja'):
        s = cjk_share(desc)
        return s >= 0.5, f'CJK share {s:.2f} < 0.5'
    own, en = stopword_counts(desc, lang)
    return own > en, f'{lang} function words {own} <= English {en}'


# the shared collectors call mcp_extract.add; route them through the language rule
mx_add_original = mx.add


def _routed_add(ns, name, desc, src):
    if isinstance(desc, str) and '${' in desc:
        SKIPPED.append((ns, name, 'description built at run or build time (a ${...} is not '
                                  'resolvable from the source)'))
        return
    keep, why = mostly_non_english(desc, LANG[ns]) if isinstance(desc, str) else (True, '')
    if not keep:
        SKIPPED.append((ns, name, f'mostly English ({why})'))
        return
    mx_add_original(ns, name, desc, src)


mx.add = _routed_add


def py_raw_docstring_tools(ns, repo, path, decorator_prefix='mcp.tool'):
    """Module-level functions decorated `@mcp.tool()` of the official MCP Python SDK's FastMCP
    (`from mcp.server.fastmcp import FastMCP`), which sends `fn.__doc__` as it is (not cleaned):
    description = the raw docstring, name = the function name (no name= in these decorators)."""
    tree = ast.parse(show(repo, path))
    n = 0
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        decs = [d for d in node.decorator_list if ast.unparse(d).startswith(decorator_prefix)]
        if not decs:
            continue
        kw = {k.arg: k.value for k in getattr(decs[0], 'keywords', [])}
        if kw:
            raise NotImplementedError(f'{path}: {node.name} has keywords in its decorator')
        doc = ast.get_docstring(node, clean=False)
        if doc is None:
            SKIPPED.append((ns, node.name, f'no docstring in {path}'))
            continue
        mx.add(ns, node.name, doc, f'{repo}:{path}')
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# Chinese
# ---------------------------------------------------------------------------------------------

def amap():
    """Official Amap (高德) server, npm package only: `const X_TOOL = { name, description,
    inputSchema }` objects listed in `MAPS_TOOLS`, returned by the ListTools handler."""
    if not os.path.exists(AMAP_TGZ):
        os.makedirs(os.path.dirname(AMAP_TGZ), exist_ok=True)
        subprocess.run(['npm', 'pack', AMAP_PKG, '--pack-destination', os.path.dirname(AMAP_TGZ)],
                       check=True, stdout=subprocess.DEVNULL)
    with open(AMAP_TGZ, 'rb') as f:
        data = f.read()
    assert hashlib.sha1(data).hexdigest() == AMAP_SHA1, 'unexpected amap tarball'
    with tarfile.open(AMAP_TGZ) as tf:
        src = tf.extractfile('package/build/index.js').read().decode('utf-8')
    mod = JSModule(src, f'npm:{AMAP_PKG}:package/build/index.js')
    listed = re.search(r'const MAPS_TOOLS = \[([^\]]*)\]', src).group(1)
    listed = [v.strip() for v in listed.split(',') if v.strip()]
    objs = {}
    for name, ni, di in js_named_objects(mod):
        desc, _ = mod.eval(di)
        # the variable the object literal is assigned to
        before = src[:mod.toks[ni][2]]
        var = re.findall(r'const (\w+) = \{', before)[-1]
        objs[var] = (name, desc)
    for var in listed:
        name, desc = objs[var]
        mx.add('amap', name, desc, f'npm:{AMAP_PKG}:package/build/index.js')


def baidumap():
    """Baidu Maps, the Python server: `types.Tool(name=..., description=...)` returned by
    list_tools(); descriptions are implicit concatenations of literals."""
    mx.py_tool_calls('baidumap', 'baidu-maps/mcp', 'src/baidu-map/python/src/mcp_server_baidu_maps/map.py')


def train12306():
    repo, path = 'Joooook/12306-mcp', 'src/index.ts'
    js_tools_from_calls('train12306', repo, path, jsmod(repo, path), {'tool'})


def xiaohongshu():
    """Go: `mcp.AddTool(server, &mcp.Tool{Name: "...", Description: "..."}, ...)` in
    registerTools of mcp_server.go, all unconditional."""
    repo, path = 'xpzouying/xiaohongshu-mcp', 'mcp_server.go'
    src = show(repo, path)
    body = src[src.index('func registerTools('):]
    for m in re.finditer(r'mcp\.AddTool\(server,\s*&mcp\.Tool\{', body):
        nm = re.compile(r'\bName:\s*').search(body, m.end())
        nparts, _ = mx.go_string_expr(body, nm.end())
        dm = re.compile(r'\bDescription:\s*').search(body, m.end())
        dparts, _ = mx.go_string_expr(body, dm.end())
        assert all(isinstance(p, str) for p in nparts + dparts)
        mx.add('xiaohongshu', ''.join(nparts), ''.join(dparts), f'{repo}:{path}')


def cloudbase():
    """Tencent CloudBase: `server.registerTool?.("name", { title, description, ... })` in the
    tool modules of the default plugins (server.ts DEFAULT_PLUGINS). miniprogram.ts is not
    registered (its import is commented out) and env-setup.ts registers nothing. The optional call
    `registerTool?.(` is read as `registerTool(` (only the lexer's view; names and descriptions are
    untouched)."""
    repo = 'TencentCloudBase/CloudBase-AI-ToolKit'
    server = show(repo, 'mcp/src/server.ts')
    registered = set(re.findall(r'^import \{ (\w+) \} from "\./tools/([\w-]+)\.js";', server, re.M))
    modules = [mod for fn, mod in sorted(registered, key=lambda x: x[1])]
    for module in modules:
        path = f'mcp/src/tools/{module}.ts'
        src = show(repo, path).replace('registerTool?.(', 'registerTool(')
        js_tools_from_calls('cloudbase', repo, path, JSModule(src, f'{repo}:{path}'), {'registerTool'})


def feishu():
    """Feishu/Lark OpenAPI MCP with `--language zh`: the Chinese tool definitions under
    src/mcp-tool/tools/zh/ (generated `{ name, description, ... }` objects and the builtin
    tools). Taken: the union of all tool presets of src/mcp-tool/constants.ts (preset.light,
    preset.default, im, base, base.batch, doc, task, calendar), in the order they are first listed
    there. The name is what the server registers by default: caseTransf(name, 'snake'), dots to
    underscores."""
    repo = 'larksuite/lark-openapi-mcp'
    consts = show(repo, 'src/mcp-tool/constants.ts')
    wanted = []
    for s in re.findall(r"'([a-z]+\.(?:v\d+|builtin)\.[\w.]+)'", consts):
        if s not in wanted:
            wanted.append(s)
    found = {}
    for path in ls(repo, 'src/mcp-tool/tools/zh/'):
        if not path.endswith('.ts') or path.endswith('/index.ts'):
            continue
        mod = jsmod(repo, path)
        for name, _, di in js_named_objects(mod):
            if name in wanted:
                desc, _ = mod.eval(di)
                found[name] = (desc, f'{repo}:{path} + src/mcp-tool/constants.ts')
    for name in wanted:
        desc, src = found[name]
        mx.add('feishu', name.replace('.', '_'), desc, src)


def aliyun():
    """Alibaba Cloud Ops (fastmcp 2.8.0): in normal mode server.py registers `mcp.tool(f)` for every
    function in the `tools` lists of oos_tools, application_management_tools (except
    ECS_DescribeInstances), cms_tools, oss_tools and local_tools; name = function name, description
    = inspect.getdoc (cleaned docstring). The dynamic OpenAPI tools (descriptions fetched at run
    time) and common_api_tools (only with --services, English) are not taken."""
    repo = 'aliyun/alibaba-cloud-ops-mcp-server'
    base = 'src/alibaba_cloud_ops_mcp_server/tools/'
    for module, skip in [('oos_tools', ()), ('application_management_tools', ('ECS_DescribeInstances',)),
                         ('cms_tools', ()), ('oss_tools', ()), ('local_tools', ())]:
        path = base + module + '.py'
        tree = ast.parse(show(repo, path))
        for node in tree.body:
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            decs = [ast.unparse(d) for d in node.decorator_list]
            if not any(d in ('tools.append', '_append_tool') for d in decs) or node.name in skip:
                continue
            doc = ast.get_docstring(node, clean=False)
            mx.add('aliyun', node.name, inspect.cleandoc(doc), f'{repo}:{path}')


def dingtalk():
    """DingTalk IM tools: `types.Tool(name=..., description=...)` of DingtalkIMServer.list_tools
    (src/dingtalk/im.py). The server lists a few names twice; the first is kept (see SKIPPED). The
    contacts tools of the same server (83 more) are not taken."""
    mx.py_tool_calls('dingtalk', 'AIInfrastructure/dingtalk_mcp_server', 'src/dingtalk/im.py')


# ---------------------------------------------------------------------------------------------
# Japanese
# ---------------------------------------------------------------------------------------------

def chatwork():
    repo, path = 'chatwork/chatwork-mcp-server', 'src/server.ts'
    js_tools_from_calls('chatwork', repo, path, jsmod(repo, path), {'tool'})


def freee():
    """Local (stdio) mode of src/mcp/handlers.ts: the authentication tools, the file-upload tool
    and the client-mode tools; `${SERVICE_HINT}`/`${SKILL_HINT}` resolved from the same file."""
    repo = 'freee/freee-mcp'
    for path in ['src/mcp/tools.ts', 'src/mcp/file-upload-tool.ts', 'src/openapi/client-mode.ts']:
        js_tools_from_calls('freee', repo, path, jsmod(repo, path), {'tool'})


def egovlaw():
    mx.py_tool_calls('egovlaw', 'hrko9gis/e-gov-laws-mcp', 'e-gov-laws-mcp.py')


# ---------------------------------------------------------------------------------------------
# French, German, Spanish, Portuguese
# ---------------------------------------------------------------------------------------------

def datagouv():
    """`setupTools(): Tool[]` returns `{ name, description, inputSchema }` objects."""
    repo, path = 'Guiraud/mcp-etalab', 'src/tools/index.ts'
    mod = jsmod(repo, path)
    for name, ni, di in js_named_objects(mod):
        # the tool objects are the elements of the returned array; a schema property called `name`
        # (`name: { type, description }`) has no string name
        if not isinstance(name, str):
            continue
        desc, _ = mod.eval(di)
        mx.add('datagouv', name, desc, f'{repo}:{path}')


def dbtimetable():
    repo, path = 'jorekai/db-timetable-mcp', 'src/tools/timetableTools.ts'
    js_tools_from_objects('dbtimetable', repo, path, jsmod(repo, path))


def boe():
    py_raw_docstring_tools('boe', 'AnCode666/boe-mcp', 'src/boe_mcp/server.py')


def brasilapi():
    py_raw_docstring_tools('brasilapi', 'lucianfialho/mcp-brasil-api', 'server.py')


def main():
    for fn in [amap, baidumap, train12306, xiaohongshu, cloudbase, feishu, aliyun, dingtalk,
               chatwork, freee, egovlaw, datagouv, dbtimetable, boe, brasilapi]:
        fn()
    write_catalog(HERE)


if __name__ == '__main__':
    main()
