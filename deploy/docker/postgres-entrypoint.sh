#!/bin/sh
# First start: a cluster with user/database hipforge (password from the file POSTGRES_PASSWORD_FILE names,
# e.g. a podman/Kubernetes secret, or from POSTGRES_PASSWORD); then the server.
set -eu
bin=/usr/lib/postgresql/15/bin
if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE"); fi
: "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE is required}"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  "$bin/initdb" -D "$PGDATA" -U hipforge --pwfile="$pwfile" -A scram-sha-256 -E UTF8 >/dev/null
  rm -f "$pwfile"
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  # The first start only makes the database: no TCP, the socket in /tmp (Debian's /run/postgresql is absent).
  "$bin/pg_ctl" -D "$PGDATA" -w -l /tmp/initial-start.log \
    -o "-c listen_addresses='' -c unix_socket_directories=/tmp" start >/dev/null || { cat /tmp/initial-start.log; exit 1; }
  PGPASSWORD=$POSTGRES_PASSWORD "$bin/createdb" -h /tmp -U hipforge hipforge
  "$bin/pg_ctl" -D "$PGDATA" -w stop >/dev/null
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/tmp
