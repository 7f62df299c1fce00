#!/usr/bin/env bash
# Set up the project and start the web app (http://localhost:8501 by default).
# Extra arguments go to `streamlit run`, e.g. `bash scripts/app.sh --server.port 8600`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/streamlit run streamlit_app.py "$@"
