#!/usr/bin/env bash
# compose.yaml's topology without Docker: a throwaway PostgreSQL, N app processes and
# nginx (deploy/nginx.conf) in front, all on this machine, all gone when this script ends.
#
#   bash deploy/local-topology.sh                      # stays up; Ctrl-C stops it
#   bash deploy/local-topology.sh -- <command ...>     # runs the command, then stops
#
# The command sees MAU_BINH_PROXY_URL (nginx) and MAU_BINH_DATABASE_URL (PostgreSQL).
# Environment: APPS (app processes, default 3), PROXY_PORT (default: a free port),
# PG_BIN (default /usr/lib/postgresql/15/bin).  Needs nginx (Debian: apt-get install nginx)
# and the PostgreSQL server binaries (apt-get install postgresql); the project set up
# with `bash scripts/setup.sh postgres`.
set -euo pipefail
cd "$(dirname "$0")/.."
APPS=${APPS:-3}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PY=.venv/bin/python
free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

work=$(mktemp -d /tmp/mau-binh-topology.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$work/nginx/nginx.pid" ] && kill "$(cat "$work/nginx/nginx.pid")" 2>/dev/null || true
    as_pg "$PG_BIN/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

# PostgreSQL refuses to run as root: run it as the postgres user then
if [ "$(id -u)" = 0 ]; then
    chown postgres "$work"
    as_pg() { runuser -u postgres -- "$@"; }
else
    as_pg() { "$@"; }
fi
pg_port=$(free_port)
as_pg "$PG_BIN/initdb" -D "$work/pg" -A trust -U mau_binh >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$work/pg" -l "$work/pg.log" -w \
    -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$pg_port" -U mau_binh mau_binh
export MAU_BINH_DATABASE_URL="postgresql+psycopg://mau_binh@127.0.0.1:$pg_port/mau_binh"
export MAU_BINH_DATA_DIR="$work/data"

mkdir -p "$work/nginx/tmp" && chmod 777 "$work/nginx/tmp"
: > "$work/nginx/upstreams.conf"
for i in $(seq 1 "$APPS"); do
    port=$(free_port)
    .venv/bin/streamlit run streamlit_app.py --server.headless true --server.address 127.0.0.1 \
        --server.port "$port" --browser.gatherUsageStats false --server.fileWatcherType none \
        >"$work/app$i.log" 2>&1 &
    pids+=($!)
    echo "server 127.0.0.1:$port;" >> "$work/nginx/upstreams.conf"
done
proxy_port=${PROXY_PORT:-$(free_port)}
echo "listen 127.0.0.1:$proxy_port;" > "$work/nginx/listen.conf"
cp deploy/nginx.conf "$work/nginx/nginx.conf"
export MAU_BINH_PROXY_URL="http://127.0.0.1:$proxy_port"

for _ in $(seq 1 120); do  # every app process healthy, then nginx
    healthy=0
    while read -r _server address; do
        curl -fs "http://${address%;}/_stcore/health" >/dev/null && healthy=$((healthy + 1))
    done < "$work/nginx/upstreams.conf"
    [ "$healthy" = "$APPS" ] && break
    sleep 0.5
done
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf"
curl -fs "$MAU_BINH_PROXY_URL/_stcore/health" >/dev/null
echo "up: $MAU_BINH_PROXY_URL (nginx) -> $APPS app processes -> PostgreSQL on port $pg_port; logs in $work" >&2

if [ "${1:-}" = "--" ]; then
    shift
    "$@"
else
    echo "Ctrl-C stops everything" >&2
    wait "${pids[0]}"
fi
