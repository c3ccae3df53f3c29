#!/usr/bin/env bash
# Stops a server started by pg-up.sh and deletes its directory: scripts/pg-down.sh "$PG_TMP"
set -euo pipefail
TMP=${1:?usage: pg-down.sh <PG_TMP>}
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -d "$TMP/data" ]; then
  if [ "$(id -u)" = "0" ]; then
    (cd "$TMP" && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$TMP/data" -m fast -w stop >/dev/null) || true
  else
    "$PGBIN/pg_ctl" -D "$TMP/data" -m fast -w stop >/dev/null || true
  fi
fi
rm -rf "$TMP"
