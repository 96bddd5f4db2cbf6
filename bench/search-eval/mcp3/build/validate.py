#!/usr/bin/env python3
"""Checks ../catalog.json and raw.json: runs the shared ../../build/validate_catalog.py for this set."""
import os, runpy, sys  # noqa: E401
sys.argv[1:] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
runpy.run_path(os.path.join(sys.argv[1], '..', 'build', 'validate_catalog.py'), run_name='__main__')
