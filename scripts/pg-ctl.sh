#!/usr/bin/env bash
# Stops or starts again a server made by pg-up.sh (tests of database outages):
#   scripts/pg-ctl.sh "$PG_TMP" "$PGPORT" stop|start
set -euo pipefail
TMP=${1:?usage: pg-ctl.sh <PG_TMP> <PGPORT> stop|start}
PORT=${2:?port}
ACTION=${3:?stop or start}
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
as_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
cd "$TMP"
case "$ACTION" in
  stop) as_pg "$PGBIN/pg_ctl" -D "$TMP/data" -m fast -w stop >/dev/null ;;
  start)
    as_pg "$PGBIN/pg_ctl" -D "$TMP/data" -l "$TMP/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $PORT -k $TMP/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null ;;
  *) echo "pg-ctl: stop or start" >&2; exit 2 ;;
esac
