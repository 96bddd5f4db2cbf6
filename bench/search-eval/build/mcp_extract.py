#!/usr/bin/env python3
"""Shared machinery of the MCP catalog extractions (mcp2/build/extract.py, mcp3/build/extract.py).

Reads source files with `git --git-dir=/work/.mirror/<owner>+<repo>/repo show <commit>:<path>`
(no network); the commit of each repository is registered in COMMITS by the set's extract.py.
Extracted tools are collected in TOOLS (with `add`), what was left out in SKIPPED; `write_catalog`
writes a set's build/raw.json and catalog.json from them.

Descriptions are taken verbatim: string literals are decoded as their language does, concatenations
are joined, constants defined in the same file (or in a named file of the same repository) are
resolved. Template placeholders that are not trivially constant are kept as written (`${expr}`).
Nothing is written by hand.

Contents: git access (git_dir, show, ls); a small JavaScript/TypeScript lexer and constant-expression
evaluator (JSModule, jsmod); collection (add, js_tools_from_objects, js_tools_from_calls); Python
sources (py_tool_calls, py_docstring_tools, py_fastmcp); Go string expressions (go_string_expr,
go_consts); output (write_catalog).
"""
import ast
import inspect
import json
import os
import re
import subprocess
import sys
from collections import OrderedDict

MIRROR = '/work/.mirror'

COMMITS = {}  # repository -> commit read; filled by each set's extract.py

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
        """The index after an operand of `||` / `??` / `?:` starting at i."""
        return self._skip_until(i, (',', ')', ']', '}', ';', '||', '??', '?', ':'))

    def _skip_expr(self, i):
        """The index after a whole expression (an argument, an element) starting at i."""
        return self._skip_until(i, (',', ')', ']', '}', ';'))

    def _skip_until(self, i, stops):
        t = self.toks
        j = i
        while j < len(t):
            k, v, _ = t[j]
            if k == 'punct' and v in ('(', '[', '{'):
                j = match_close(t, j) + 1
                continue
            if k == 'punct' and v in stops:
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


def js_named_objects(mod, name_key='name', desc_key='description'):
    """Yield (name, name_index, desc_index) for the object literals having both keys whose name
    resolves (the others are type declarations or objects that are not tools)."""
    for ni, di in mod.objects_with(name_key, desc_key):
        try:
            name, _ = mod.eval(ni)
        except Unresolved:
            continue
        yield name, ni, di


def js_tools_from_objects(ns, repo, path, mod, name_key='name', desc_key='description', also=''):
    """`also`: other files of the repository the values were resolved from, appended to _src."""
    found = 0
    for name, _, di in js_named_objects(mod, name_key, desc_key):
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


def _is_tool_call(call):
    """`mcp.tool(...)`, `self.mcp.tool(...)`, `server.tool(...)`."""
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == 'tool')


def py_fastmcp(ns, repo, path, lookup_paths=()):
    """FastMCP tools of one file, in source order:
    * `@mcp.tool(...)` on a function: name = `name=` or the function name;
      description = `description=` or the docstring;
    * `mcp.tool(name='x')(self.method)` / `mcp.tool(name='x')(function)`: the docstring of that
      method or function, found in this file or else in `lookup_paths`.
    Docstrings are cleaned with inspect.cleandoc (what FastMCP sends, via inspect.getdoc)."""
    src = show(repo, path)
    tree = ast.parse(src)
    defs = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            defs.setdefault(node.name, node)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in node.decorator_list:
                if _is_tool_call(d) or (isinstance(d, ast.Attribute) and d.attr == 'tool'):
                    kw = {k.arg: k.value for k in getattr(d, 'keywords', [])}
                    name = ast.literal_eval(kw['name']) if 'name' in kw else node.name
                    if 'description' in kw:
                        desc = ast.literal_eval(kw['description'])
                    else:
                        doc = ast.get_docstring(node, clean=False)
                        desc = inspect.cleandoc(doc) if doc is not None else ''
                    found.append((d.lineno, name, desc, f'{repo}:{path}'))
        elif (isinstance(node, ast.Call) and _is_tool_call(node.func) and len(node.args) == 1):
            kw = {k.arg: k.value for k in node.func.keywords}
            target = node.args[0]
            tname = target.attr if isinstance(target, ast.Attribute) else target.id
            name = ast.literal_eval(kw['name']) if 'name' in kw else tname
            fn, where = defs.get(tname), path
            if fn is None:
                for lp in lookup_paths:
                    t2 = ast.parse(show(repo, lp))
                    for n2 in ast.walk(t2):
                        if isinstance(n2, (ast.FunctionDef, ast.AsyncFunctionDef)) and n2.name == tname:
                            fn, where = n2, lp
                            break
                    if fn is not None:
                        break
            if fn is None:
                raise Unresolved(f'{path}: {tname}')
            if 'description' in kw:
                desc = ast.literal_eval(kw['description'])
            else:
                doc = ast.get_docstring(fn, clean=False)
                desc = inspect.cleandoc(doc) if doc is not None else ''
            found.append((node.lineno, name, desc,
                          f'{repo}:{path}' + (f' + {where}' if where != path else '')))
    found.sort(key=lambda x: x[0])
    for _, name, desc, s in found:
        add(ns, name, desc, s)
    return len(found)


# ---------------------------------------------------------------------------------------------
# Go
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



def go_consts(src):
    """`Name = "..."` / `const Name = `...`` string constants of a Go file."""
    out = {}
    for m in re.finditer(r'(?:^|\n)\s*(?:const\s+)?([A-Za-z_]\w*)\s*=\s*(?=["`])', src):
        parts, _ = go_string_expr(src, m.end())
        if all(isinstance(p, str) for p in parts):
            out[m.group(1)] = ''.join(parts)
    return out



# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------

def write_catalog(build_dir):
    """Writes build_dir/raw.json (TOOLS with `_src`) and build_dir/../catalog.json (name, namespace,
    description); prints the count per namespace, then what was skipped and any `${...}` left."""
    raw = [dict(t) for t in TOOLS]
    with open(os.path.join(build_dir, 'raw.json'), 'w') as f:
        json.dump({'tools': raw}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    cat = [OrderedDict(name=t['name'], namespace=t['namespace'], description=t['description'])
           for t in TOOLS]
    with open(os.path.join(os.path.dirname(build_dir), 'catalog.json'), 'w') as f:
        json.dump({'tools': cat}, f, indent=1, ensure_ascii=False)
        f.write('\n')
    counts = OrderedDict()
    for t in TOOLS:
        counts[t['namespace']] = counts.get(t['namespace'], 0) + 1
    width = max([12] + [len(ns) + 1 for ns in counts])
    for ns, c in counts.items():
        print(f'{ns:{width}s} {c}')
    print('total', len(TOOLS), 'in', len(counts), 'namespaces')
    for s in SKIPPED:
        print('skipped:', *s, file=sys.stderr)
    left = [(t['namespace'], t['name']) for t in TOOLS if '${' in t['description']]
    if left:
        print('unresolved placeholders in:', left, file=sys.stderr)
