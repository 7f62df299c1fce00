#!/usr/bin/env bash
# Set up the project (venv, test tools, Debian's Chromium for the browser tests) and run
# the whole suite: ruff, mypy, the docs site's strict build, then pytest on every core.
# Extra arguments go to pytest (after -n auto, so `-n 0` runs the tests serially).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian's chromium for the browser tests" >&2
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    elif command -v sudo >/dev/null && command -v apt-get >/dev/null; then
        sudo apt-get update -qq >/dev/null
        sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "warning: /usr/bin/chromium is missing; the browser tests will fail (install Debian's chromium)" >&2
    fi
fi
.venv/bin/ruff check solver macao trainer store rooms app streamlit_app.py tests benchmarks docs
.venv/bin/mypy solver macao trainer store rooms app streamlit_app.py
# the benchmarks too (each a script beside the others, so by file)
.venv/bin/mypy --explicit-package-bases benchmarks/*.py
# and the tests, by file too (pyproject.toml: their bodies checked, their fixtures unannotated)
.venv/bin/mypy tests/*.py
# the docs site (mkdocs.yml, docs/): a broken link, a page left out of the nav or a docstring
# the API pages cannot render fails here; built offline into a scratch folder
site_dir=$(mktemp -d)
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --site-dir "$site_dir"
rm -rf "$site_dir"
# pytest on every core (pytest-xdist; -n 0 among the arguments runs it serially)
exec .venv/bin/python -m pytest -n auto "$@"
