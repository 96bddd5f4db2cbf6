#!/usr/bin/env python3
"""Checks ../catalog.json and raw.json: runs the shared ../../build/validate_catalog.py for this set
(parses, three fields, no duplicate (namespace, name), no empty description, same tools as raw.json;
prints counts and description lengths), then checks that every namespace has a language, that every
description passes the "mostly non-English" rule of extract.py, and prints tools per language.
Python 3 standard library only. Run from anywhere: python3 build/validate.py"""
import importlib.util
import json
import os
import runpy
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
FOLDER = os.path.dirname(HERE)

sys.argv[1:] = [FOLDER]
try:
    runpy.run_path(os.path.join(FOLDER, '..', 'build', 'validate_catalog.py'), run_name='__main__')
except SystemExit as e:  # the shared checker exits 1 on an error
    if e.code:
        raise

spec = importlib.util.spec_from_file_location('intl_extract', os.path.join(HERE, 'extract.py'))
ex = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ex)  # defines LANG and the rule; extraction runs only under __main__

tools = json.load(open(os.path.join(FOLDER, 'catalog.json')))['tools']
errors = []
per_lang = Counter()
for t in tools:
    lang = ex.LANG.get(t['namespace'])
    if lang is None:
        errors.append(f"namespace {t['namespace']} has no language")
        continue
    per_lang[lang] += 1
    keep, why = ex.mostly_non_english(t['description'], lang)
    if not keep:
        errors.append(f"{t['namespace']}.{t['name']}: {why}")
    if '${' in t['description']:
        errors.append(f"{t['namespace']}.{t['name']}: unresolved ${{...}}")
print('tools per language:', ', '.join(f'{l} {n}' for l, n in per_lang.most_common()))
if errors:
    print('ERRORS:', *errors, sep='\n  ')
    sys.exit(1)
print('language check OK')
