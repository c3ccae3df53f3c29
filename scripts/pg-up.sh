#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server in a temporary directory and prints `export` lines:
#   eval "$(scripts/pg-up.sh)"; npm test; scripts/pg-down.sh "$PG_TMP"
# PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user.
# Settings: PGBIN (server binaries), PG_PORT (default: a free port), PG_DB (default: catalog).
set -euo pipefail

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "pg-up: no PostgreSQL server binaries found (install the postgresql package or set PGBIN)" >&2
  exit 1
fi
DB=${PG_DB:-catalog}
PORT=${PG_PORT:-$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}
TMP=$(mktemp -d /tmp/catalog-pg.XXXXXX)
mkdir -p "$TMP/sock"

as_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "$(id -u)" = "0" ]; then
  id postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
  chown -R postgres "$TMP"
fi
cd "$TMP"

if ! as_pg "$PGBIN/initdb" -D "$TMP/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync --no-instructions >"$TMP/initdb.log" 2>&1; then
  cat "$TMP/initdb.log" >&2
  exit 1
fi
if ! as_pg "$PGBIN/pg_ctl" -D "$TMP/data" -l "$TMP/server.log" -w -t 30 \
  -o "-c listen_addresses=127.0.0.1 -p $PORT -k $TMP/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
  start >/dev/null; then
  cat "$TMP/server.log" >&2
  exit 1
fi
as_pg "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U postgres "$DB"

echo "export PG_TMP=$TMP PGBIN=$PGBIN PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=postgres PGDATABASE=$DB"
echo "export DATABASE_URL=postgresql://postgres@127.0.0.1:$PORT/$DB"
