#!/usr/bin/env python3
"""Extract real MCP tool names and descriptions from repository snapshots.

Reads every source file with `git --git-dir=/work/.mirror/<owner>+<repo>/repo show <commit>:<path>`
(no network) and writes ../catalog.json and raw.json (same tools, plus `_src`).

Descriptions are taken verbatim: string literals are decoded as their language does, concatenations
are joined, constants defined in the same file (or in a named file of the same repository) are
resolved. Template placeholders that are not trivially constant are kept as written (`${expr}`).
Nothing is written by hand.

Run from anywhere: python3 build/extract.py
"""
import ast
import inspect
import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.dirname(HERE)
MIRROR = '/work/.mirror'

# repository -> commit read
COMMITS = {
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
}

SKIPPED = []  # (namespace, what, why)


def git_dir(repo):
    return os.path.join(MIRROR, repo.replace('/', '+'), 'repo')


def show(repo, path):
    return subprocess.run(['git', '--git-dir', git_dir(repo), 'show', f'{COMMITS[repo]}:{path}'],
                          check=True, capture_output=True).stdout.decode('utf-8')


def ls(repo, prefix):
    out = subprocess.run(['git', '--git-dir', git_dir(repo), 'ls-tree', '-r', '--name-only',
                          COMMITS[repo], prefix], check=True, capture_output=True).stdout.decode()
    return [p for p in out.splitlines() if p]


# ---------------------------------------------------------------------------------------------
# A small JavaScript/TypeScript lexer and constant-expression evaluator
# ---------------------------------------------------------------------------------------------

PUNCT3 = ('===', '!==', '...', '>>>', '**=', '&&=', '||=', '??=')
PUNCT2 = ('=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=',
          '**', '<<', '>>', '|=', '&=', '^=', '%=')
REGEX_PREV_WORDS = {'return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void',
                    'throw', 'instanceof', 'yield', 'await'}


def js_cook_escape(src, i):
    """src[i] == '\\'. Returns (cooked, next_index)."""
    c = src[i + 1]
    simple = {'n': '\n', 'r': '\r', 't': '\t', 'b': '\b', 'f': '\f', 'v': '\v', '0': '\0'}
    if c in simple and not (c == '0' and i + 2 < len(src) and src[i + 2].isdigit()):
        return simple[c], i + 2
    if c == 'x':
        return chr(int(src[i + 2:i + 4], 16)), i + 4
    if c == 'u':
        if src[i + 2] == '{':
            j = src.index('}', i + 3)
            return chr(int(src[i + 3:j], 16)), j + 1
        cp = int(src[i + 2:i + 6], 16)
        # join surrogate pairs
        if 0xD800 <= cp <= 0xDBFF and src[i + 6:i + 8] == '\\u':
            lo = int(src[i + 8:i + 12], 16)
            if 0xDC00 <= lo <= 0xDFFF:
                return chr(0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)), i + 12
        return chr(cp), i + 6
    if c == '\r':
        return '', (i + 3 if src[i + 2:i + 3] == '\n' else i + 2)
    if c in '\n\u2028\u2029':
        return '', i + 2
    return c, i + 2


def js_lex(src, pos=0, in_template_expr=False):
    """Returns (tokens, end_pos). Token = (kind, value, start_offset).
    kinds: str, tpl (value = list of ('text', s) | ('expr', raw, tokens)), ident, num, punct, regex."""
    toks = []
    n = len(src)
    i = pos
    depth = 0
    while i < n:
        c = src[i]
        if c in ' \t\r\n\ufeff\u00a0':
            i += 1
            continue
        if src.startswith('//', i):
            j = src.find('\n', i)
            i = n if j < 0 else j
            continue
        if src.startswith('/*', i):
            j = src.find('*/', i + 2)
            i = n if j < 0 else j + 2
            continue
        start = i
        if c in '\'"':
            out = []
            i += 1
            while src[i] != c:
                if src[i] == '\\':
                    s, i = js_cook_escape(src, i)
                    out.append(s)
                else:
                    out.append(src[i])
                    i += 1
            i += 1
            toks.append(('str', ''.join(out), start))
            continue
        if c == '`':
            parts = []
            buf = []
            i += 1
            while src[i] != '`':
                if src[i] == '\\':
                    s, i = js_cook_escape(src, i)
                    buf.append(s)
                elif src.startswith('${', i):
                    if buf:
                        parts.append(('text', ''.join(buf)))
                        buf = []
                    sub, j = js_lex(src, i + 2, in_template_expr=True)
                    parts.append(('expr', src[i + 2:j - 1], sub))
                    i = j
                else:
                    ch = src[i]
                    if ch == '\r':  # template literals normalise CRLF / CR to LF
                        ch = '\n'
                        if src[i + 1:i + 2] == '\n':
                            i += 1
                    buf.append(ch)
                    i += 1
            if buf:
                parts.append(('text', ''.join(buf)))
            i += 1
            toks.append(('tpl', parts, start))
            continue
        if c.isalpha() or c in '_$' or ord(c) > 127:
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] in '_$' or ord(src[j]) > 127):
                j += 1
            toks.append(('ident', src[i:j], start))
            i = j
            continue
        if c.isdigit() or (c == '.' and i + 1 < n and src[i + 1].isdigit()):
            j = i + 1
            while j < n and (src[j].isalnum() or src[j] in '._'):
                j += 1
            toks.append(('num', src[i:j], start))
            i = j
            continue
        if c == '/':
            prev = toks[-1] if toks else None
            is_regex = (prev is None or (prev[0] == 'punct' and prev[1] not in (')', ']', '}'))
                        or (prev[0] == 'ident' and prev[1] in REGEX_PREV_WORDS))
            if is_regex:
                j = i + 1
                in_class = False
                while True:
                    ch = src[j]
                    if ch == '\\':
                        j += 2
                        continue
                    if ch == '[':
                        in_class = True
                    elif ch == ']':
                        in_class = False
                    elif ch == '/' and not in_class:
                        break
                    elif ch == '\n':
                        raise ValueError(f'unterminated regex at {i}')
                    j += 1
                j += 1
                while j < n and src[j].isalpha():
                    j += 1
                toks.append(('regex', src[i:j], start))
                i = j
                continue
        if in_template_expr:
            if c == '{':
                depth += 1
            elif c == '}':
                if depth == 0:
                    return toks, i + 1
                depth -= 1
        for p in PUNCT3 + PUNCT2:
            if src.startswith(p, i):
                toks.append(('punct', p, start))
                i += len(p)
                break
        else:
            toks.append(('punct', c, start))
            i += 1
    return toks, i


class Unresolved(Exception):
    pass


def match_close(toks, i):
    """toks[i] is an opening bracket; returns index of its closing bracket."""
    pairs = {'(': ')', '[': ']', '{': '}'}
    stack = []
    for j in range(i, len(toks)):
        k, v, _ = toks[j]
        if k != 'punct':
            continue
        if v in pairs:
            stack.append(pairs[v])
        elif v in (')', ']', '}'):
            if not stack or stack.pop() != v:
                raise ValueError('unbalanced brackets')
            if not stack:
                return j
    raise ValueError('unclosed bracket')


class JSModule:
    """Constants of one source file: `const X = expr`, `X = (...) => expr`, object literals."""

    def __init__(self, src, name='', imports=()):
        self.src = src
        self.name = name
        self.toks, _ = js_lex(src)
        self.imports = list(imports)  # other JSModules consulted when a name is not found here
        self.consts = {}  # dotted name -> token index of value
        self.funcs = {}  # name -> (param names, token index of body expression)
        self.placeholders = []
        self._scan()

    def _scan(self):
        t = self.toks
        for i in range(len(t) - 2):
            if t[i][0] == 'ident' and t[i][1] in ('const', 'let', 'var') and t[i + 1][0] == 'ident':
                name = t[i + 1][1]
                j = i + 2
                if t[j][1] == ':':  # type annotation: skip to '=' at depth 0
                    d = 0
                    while j < len(t):
                        v = t[j][1] if t[j][0] == 'punct' else None
                        if v in ('(', '[', '{', '<'):
                            d += 1
                        elif v in (')', ']', '}', '>'):
                            d -= 1
                        elif v == '=' and d == 0:
                            break
                        elif v == ';' and d == 0:
                            break
                        j += 1
                if j < len(t) and t[j] == ('punct', '=', t[j][2]):
                    self._bind(name, j + 1)

    def _bind(self, name, vi):
        t = self.toks
        if name not in self.consts:
            self.consts[name] = vi
        # arrow function: (params) => body   |   async (params) => body
        k = vi
        if t[k][0] == 'ident' and t[k][1] == 'async':
            k += 1
        if t[k][1] == '(' and t[k][0] == 'punct':
            try:
                c = match_close(t, k)
            except ValueError:
                return
            m = c + 1
            if m < len(t) and t[m][1] == ':':  # return type annotation
                while m < len(t) and t[m][1] != '=>':
                    m += 1
            if m < len(t) and t[m][1] == '=>':
                params = [x[1] for x in t[k + 1:c] if x[0] == 'ident']
                self.funcs[name] = (params, m + 1)
                return
        # object literal: record properties as name.key
        if t[vi][1] == '{' and t[vi][0] == 'punct':
            try:
                end = match_close(t, vi)
            except ValueError:
                return
            j = vi + 1
            while j < end:
                if t[j][0] in ('ident', 'str') and t[j + 1][1] == ':' and t[j - 1][1] in ('{', ','):
                    self._bind(f'{name}.{t[j][1]}', j + 2)
                    # skip the value
                    d = 0
                    j += 2
                    while j < end:
                        v = t[j][1] if t[j][0] == 'punct' else None
                        if v in ('(', '[', '{'):
                            d += 1
                        elif v in (')', ']', '}'):
                            d -= 1
                        elif v == ',' and d == 0:
                            break
                        j += 1
                j += 1

    # -- lookup ---------------------------------------------------------------------------------
    def lookup(self, name, seen=None):
        seen = seen or set()
        if (self.name, name) in seen:
            raise Unresolved(name)
        seen.add((self.name, name))
        if name in self.consts:
            v, _ = self.eval(self.consts[name], seen=seen)
            return v
        for m in self.imports:
            try:
                return m.lookup(name, seen)
            except Unresolved:
                pass
        raise Unresolved(name)

    def lookup_func(self, name):
        if name in self.funcs:
            return self, self.funcs[name]
        for m in self.imports:
            r = m.lookup_func(name)
            if r:
                return r
        return None

    # -- expressions ----------------------------------------------------------------------------
    def eval(self, i, seen=None, params=None):
        """Evaluate a string-valued expression at token i. Returns (value, next index)."""
        return self._or(i, seen, params)

    def _or(self, i, seen, params):
        try:
            v, j = self._add(i, seen, params)
            ok = True
        except Unresolved:
            ok = False
            j = self._skip_operand(i)
        if j < len(self.toks) and self.toks[j][1] in ('||', '??') and self.toks[j][0] == 'punct':
            if ok:
                return v, self._skip_expr(j + 1)
            return self._or(j + 1, seen, params)
        if not ok:
            raise Unresolved(self.toks[i][1])
        return v, j

    def _skip_operand(self, i):
        t = self.toks
        j = i
        while j < len(t):
            k, v, _ = t[j]
            if k == 'punct' and v in ('(', '[', '{'):
                j = match_close(t, j) + 1
                continue
            if k == 'punct' and v in (',', ')', ']', '}', ';', '||', '??', '?', ':'):
                return j
            j += 1
        return j

    def _skip_expr(self, i):
        t = self.toks
        j = i
        while j < len(t):
            k, v, _ = t[j]
            if k == 'punct' and v in ('(', '[', '{'):
                j = match_close(t, j) + 1
                continue
            if k == 'punct' and v in (',', ')', ']', '}', ';'):
                return j
            j += 1
        return j

    def _add(self, i, seen, params):
        v, j = self._postfix(i, seen, params)
        while j < len(self.toks) and self.toks[j] [0] == 'punct' and self.toks[j][1] == '+':
            w, j = self._postfix(j + 1, seen, params)
            v = v + w
        return v, j

    def _postfix(self, i, seen, params):
        v, j = self._primary(i, seen, params)
        t = self.toks
        while j < len(t):
            if t[j][1] == '.' and t[j + 1][1] == 'trim' and t[j + 2][1] == '(' and t[j + 3][1] == ')':
                v = v.strip()
                j += 4
            elif t[j][0] == 'ident' and t[j][1] in ('as', 'satisfies'):
                j += 2  # `as const`, `as string`
            else:
                break
        return v, j

    def _template(self, parts, seen, params):
        out = []
        for p in parts:
            if p[0] == 'text':
                out.append(p[1])
                continue
            raw, sub = p[1], p[2]
            val = None
            if len(sub) == 1 and sub[0][0] == 'ident' and not (params and sub[0][1] in params):
                try:
                    val = self.lookup(sub[0][1], seen)
                except Unresolved:
                    val = None
            elif (len(sub) == 3 and sub[0][0] == sub[2][0] == 'ident' and sub[1][1] == '.'):
                try:
                    val = self.lookup(f'{sub[0][1]}.{sub[2][1]}', seen)
                except Unresolved:
                    val = None
            if isinstance(val, (str, int, float)) and not isinstance(val, bool):
                out.append(str(val))
            else:
                out.append('${' + raw + '}')
                self.placeholders.append(raw)
        return ''.join(out)

    def _primary(self, i, seen, params):
        t = self.toks
        k, v, _ = t[i]
        if k == 'str':
            return v, i + 1
        if k == 'num':
            return v, i + 1
        if k == 'tpl':
            return self._template(v, seen, params), i + 1
        if k == 'punct' and v == '(':
            val, j = self.eval(i + 1, seen, params)
            if t[j][1] != ')':
                raise Unresolved('(')
            return val, j + 1
        if k == 'punct' and v == '[':
            end = match_close(t, i)
            items = []
            j = i + 1
            while j < end:
                val, j = self.eval(j, seen, params)
                items.append(val)
                if t[j][1] == ',':
                    j += 1
            j = end + 1
            if t[j][1] == '.' and t[j + 1][1] == 'join' and t[j + 2][1] == '(':
                if t[j + 3][1] == ')':
                    sep, j = ',', j + 4
                else:
                    sep, j = self.eval(j + 3, seen, params)
                    j += 1
                return sep.join(items), j
            raise Unresolved('[')
        if k == 'ident':
            # dotted name
            name = v
            j = i + 1
            while (j + 1 < len(t) and t[j][1] == '.' and t[j + 1][0] == 'ident'
                   and not (t[j + 1][1] == 'trim' and t[j + 2][1] == '(' and t[j + 3][1] == ')')):
                name += '.' + t[j + 1][1]
                j += 2
            if j < len(t) and t[j][1] == '(' and t[j][0] == 'punct':  # call
                close = match_close(t, j)
                if name == 'fmt.trim':  # cloudflare packages/mcp-common/src/format.ts
                    arg, _ = self.eval(j + 1, seen, params)
                    return '\n'.join(line.strip() for line in arg.strip().split('\n')), close + 1
                if name == 'fmt.oneLine':
                    arg, _ = self.eval(j + 1, seen, params)
                    lines = [line.strip() for line in arg.strip().split('\n')]
                    return ' '.join(x for x in lines if x), close + 1
                f = self.lookup_func(name)
                if f:
                    mod, (fparams, body) = f
                    val, _ = mod.eval(body, seen, params=set(fparams))
                    return val, close + 1
                raise Unresolved(name)
            if params and name.split('.')[0] in params:
                raise Unresolved(name)
            return self.lookup(name, seen), j
        raise Unresolved(repr(v))

    # -- helpers to find definitions ------------------------------------------------------------
    def objects_with(self, name_key='name', desc_key='description'):
        """Yield (name_index, desc_index) for object literals having both keys at their own level."""
        t = self.toks
        stack = []
        for j, (k, v, _) in enumerate(t):
            if k == 'punct' and v in ('{', '(', '['):
                stack.append({'kind': v})
            elif k == 'punct' and v in ('}', ')', ']'):
                if stack:
                    o = stack.pop()
                    if o['kind'] == '{' and name_key in o and desc_key in o:
                        yield o[name_key], o[desc_key]
            elif (k in ('ident', 'str') and j + 1 < len(t) and t[j + 1][1] == ':' and t[j + 1][0] == 'punct'
                  and j > 0 and t[j - 1][1] in ('{', ',') and stack and stack[-1]['kind'] == '{'):
                stack[-1].setdefault(v, j + 2)

    def calls(self, method_names):
        """Yield (call_open_paren_index, callee dotted name) for calls `x.method(`."""
        t = self.toks
        for j in range(1, len(t) - 1):
            if (t[j][0] == 'ident' and t[j][1] in method_names and t[j - 1][1] == '.'
                    and t[j + 1][1] == '(' and t[j + 1][0] == 'punct'):
                yield j + 1, t[j][1]

    def line_of(self, i):
        return self.src.count('\n', 0, self.toks[i][2]) + 1


# ---------------------------------------------------------------------------------------------
# Collect
# ---------------------------------------------------------------------------------------------

TOOLS = []  # dicts: namespace, name, description, _src


def add(ns, name, desc, src):
    if not isinstance(name, str) or not name:
        raise ValueError(f'{ns}: bad name {name!r} in {src}')
    if not isinstance(desc, str) or not desc.strip():
        SKIPPED.append((ns, name, 'empty description'))
        return
    for t in TOOLS:
        if t['namespace'] == ns and t['name'] == name:
            SKIPPED.append((ns, name, f'second definition of the same name in {src} (first kept)'))
            return
    TOOLS.append(OrderedDict(name=name, namespace=ns, description=desc, _src=src))


def js_tools_from_objects(ns, repo, path, mod, name_key='name', desc_key='description', also=''):
    """`also`: other files of the repository the values were resolved from, appended to _src."""
    found = 0
    for ni, di in mod.objects_with(name_key, desc_key):
        try:
            name, _ = mod.eval(ni)
        except Unresolved:
            continue  # a type declaration or an object that is not a tool
        try:
            desc, _ = mod.eval(di)
        except Unresolved as e:
            SKIPPED.append((ns, name, f'description not resolvable ({e}) in {path}:{mod.line_of(di)}'))
            continue
        add(ns, name, desc, f'{repo}:{path}' + (f' + {also}' if also else ''))
        found += 1
    return found


def js_tools_from_calls(ns, repo, path, mod, methods):
    """`x.tool('name', 'desc', ...)` or `x.tool('name', { description: ... }, ...)`."""
    t = mod.toks
    found = 0
    for open_i, _ in mod.calls(methods):
        try:
            name, j = mod.eval(open_i + 1)
        except Unresolved:
            continue
        if t[j][1] != ',':
            continue
        j += 1
        if t[j][1] == '{' and t[j][0] == 'punct':
            end = match_close(t, j)
            di = None
            k = j + 1
            d = 0
            while k < end:
                kk, v, _ = t[k]
                if kk == 'punct' and v in ('(', '[', '{'):
                    d += 1
                elif kk == 'punct' and v in (')', ']', '}'):
                    d -= 1
                elif d == 0 and kk in ('ident', 'str') and v == 'description' and t[k + 1][1] == ':':
                    di = k + 2
                    break
                k += 1
            if di is None:
                SKIPPED.append((ns, name, f'no description key in {path}:{mod.line_of(open_i)}'))
                continue
        else:
            di = j
        try:
            desc, _ = mod.eval(di)
        except Unresolved as e:
            SKIPPED.append((ns, name, f'description not resolvable ({e}) in {path}:{mod.line_of(di)}'))
            continue
        add(ns, name, desc, f'{repo}:{path}')
        found += 1
    return found


def jsmod(repo, path, imports=()):
    return JSModule(show(repo, path), f'{repo}:{path}', imports)


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
        for ni, di in mod.objects_with('name', 'description'):
            # only tool objects passed to addTool( { name, description, ... } )
            try:
                name, _ = mod.eval(ni)
            except Unresolved:
                continue
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
        for ni, di in mod.objects_with('name', 'description'):
            try:
                name, _ = mod.eval(ni)
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
# Python sources
# ---------------------------------------------------------------------------------------------

def py_tool_calls(ns, repo, path):
    """`Tool(name="...", description="...")` / `types.Tool(...)` with literal arguments."""
    tree = ast.parse(show(repo, path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, 'attr', getattr(node.func, 'id', None)) == 'Tool':
            kw = {k.arg: k.value for k in node.keywords}
            if 'name' in kw and 'description' in kw:
                add(ns, ast.literal_eval(kw['name']), ast.literal_eval(kw['description']), f'{repo}:{path}')


def py_docstring_tools(ns, repo, path, names=None, decorator=None):
    """Functions registered with FastMCP: the description is the docstring, cleaned with
    inspect.cleandoc (as the existing catalog did for FastMCP servers)."""
    tree = ast.parse(show(repo, path))
    for node in tree.body:
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if decorator:
            decs = [d for d in node.decorator_list if ast.unparse(d).startswith(decorator)]
            if not decs:
                continue
            # @mcp.tool(name='...') / description='...' override the function name / docstring
            kw = {k.arg: k.value for k in getattr(decs[0], 'keywords', [])}
            if 'name' in kw or 'description' in kw:
                raise NotImplementedError(f'{path}: {node.name} has name=/description= in its decorator')
        elif names is not None and node.name not in names:
            continue
        doc = ast.get_docstring(node, clean=False)
        if doc is None:
            SKIPPED.append((ns, node.name, f'no docstring in {path}'))
            continue
        add(ns, node.name, inspect.cleandoc(doc), f'{repo}:{path}')


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
# Go (slack)
# ---------------------------------------------------------------------------------------------

def go_string_expr(src, i):
    """Parse `"..." + `raw` + Ident ...` at src[i]; returns (list of parts, end). Idents are
    returned as ('ident', name)."""
    parts = []
    while True:
        while src[i] in ' \t\r\n':
            i += 1
        if src[i] == '"':
            j = i + 1
            buf = []
            while src[j] != '"':
                if src[j] == '\\':
                    c = src[j + 1]
                    m = {'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\\': '\\', "'": "'", 'a': '\a',
                         'b': '\b', 'f': '\f', 'v': '\v'}
                    if c in m:
                        buf.append(m[c])
                        j += 2
                    elif c == 'u':
                        buf.append(chr(int(src[j + 2:j + 6], 16)))
                        j += 6
                    elif c == 'x':
                        buf.append(chr(int(src[j + 2:j + 4], 16)))
                        j += 4
                    else:
                        raise ValueError('go escape ' + c)
                else:
                    buf.append(src[j])
                    j += 1
            parts.append(''.join(buf))
            i = j + 1
        elif src[i] == '`':
            j = src.index('`', i + 1)
            parts.append(src[i + 1:j].replace('\r', ''))
            i = j + 1
        else:
            m = re.match(r'[A-Za-z_][A-Za-z0-9_.]*', src[i:])
            if not m:
                raise ValueError('go expr at ' + src[i:i + 30])
            parts.append(('ident', m.group(0)))
            i += m.end()
        k = i
        while src[k] in ' \t\r\n':
            k += 1
        if src[k] == '+':
            i = k + 1
            continue
        return parts, i


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


# ---------------------------------------------------------------------------------------------

def main():
    for fn in [kubernetes, cloudflare, heroku, neon, chroma, firecrawl, exa, brave, slack, notion,
               todoist, obsidian, paypal, pagerduty, awsiam, archived]:
        fn()
    raw = [dict(t) for t in TOOLS]
    with open(os.path.join(HERE, 'raw.json'), 'w') as f:
        json.dump({'tools': raw}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    cat = [OrderedDict(name=t['name'], namespace=t['namespace'], description=t['description'])
           for t in TOOLS]
    with open(os.path.join(OUT_DIR, 'catalog.json'), 'w') as f:
        json.dump({'tools': cat}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    counts = OrderedDict()
    for t in TOOLS:
        counts[t['namespace']] = counts.get(t['namespace'], 0) + 1
    for ns, c in counts.items():
        print(f'{ns:12s} {c}')
    print('total', len(TOOLS), 'in', len(counts), 'namespaces')
    for s in SKIPPED:
        print('skipped:', *s, file=sys.stderr)


if __name__ == '__main__':
    main()
