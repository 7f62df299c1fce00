#!/usr/bin/env bash
# Create .venv (if needed) and install the project with its Cython core compiled.
# Usage: bash scripts/setup.sh [extra]     e.g. "test" installs the test tools too, and
# MkDocs with mkdocs-material and mkdocstrings-python for the docs site (pyproject's extra).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if [ -n "${1:-}" ]; then
    .venv/bin/python -m pip install --quiet -e ".[$1]"
else
    .venv/bin/python -m pip install --quiet -e .
fi
