#!/usr/bin/env python3
"""Checks a set's catalog.json: it parses, every tool has exactly name/namespace/description, no
duplicate (namespace, name), no empty description, build/raw.json holds the same tools. Prints counts
per namespace and description-length statistics; exits 1 on an error.

Usage: python3 validate_catalog.py [SET_FOLDER]   (default: the current folder, e.g. mcp2/)
Each set's build/validate.py calls main() for its folder."""
import json
import os
import statistics
import sys
from collections import Counter, OrderedDict


def main(folder):
    cat = json.load(open(os.path.join(folder, 'catalog.json')))
    raw = json.load(open(os.path.join(folder, 'build', 'raw.json')))
    tools = cat['tools']
    errors = []
    seen = set()
    for t in tools:
        if list(t.keys()) != ['name', 'namespace', 'description']:
            errors.append(f'fields {list(t.keys())}')
        if not all(isinstance(t.get(k), str) for k in ('name', 'namespace', 'description')):
            errors.append(f'non-string field in {t}')
            continue
        key = (t['namespace'], t['name'])
        if key in seen:
            errors.append(f'duplicate {key}')
        seen.add(key)
        if not t['description'].strip():
            errors.append(f'empty description {key}')
        if not t['name'] or not t['namespace'] or t['namespace'] != t['namespace'].lower():
            errors.append(f'bad name/namespace {key}')
    rawkeys = [(t['namespace'], t['name'], t['description']) for t in raw['tools']]
    if rawkeys != [(t['namespace'], t['name'], t['description']) for t in tools]:
        errors.append('raw.json and catalog.json differ')
    if any(not t.get('_src') for t in raw['tools']):
        errors.append('raw.json entry without _src')

    counts = OrderedDict()
    for t in tools:
        counts[t['namespace']] = counts.get(t['namespace'], 0) + 1
    width = max([12] + [len(ns) + 1 for ns in counts])  # at least 12, one more than the longest
    for ns, c in counts.items():
        lens = [len(t['description']) for t in tools if t['namespace'] == ns]
        print(f'{ns:{width}s} {c:4d}   description length {min(lens)}..{max(lens)}, '
              f'median {statistics.median(lens):g}')
    lens = sorted(len(t['description']) for t in tools)
    print(f'total {len(tools)} tools in {len(counts)} namespaces; description length {lens[0]}..{lens[-1]}, '
          f'median {statistics.median(lens):g}')
    short = min(tools, key=lambda t: len(t['description']))
    long_ = max(tools, key=lambda t: len(t['description']))
    print(f"shortest: {short['namespace']}.{short['name']} {short['description']!r}")
    print(f"longest: {long_['namespace']}.{long_['name']} ({len(long_['description'])} chars)")
    dup_names = [n for n, c in Counter(t['name'] for t in tools).items() if c > 1]
    print(f'{len(dup_names)} names occur in more than one namespace: {", ".join(sorted(dup_names))}')
    if errors:
        print('ERRORS:', *errors, sep='\n  ')
        sys.exit(1)
    print('OK')


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else os.getcwd())
