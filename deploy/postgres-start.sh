#!/bin/sh
# Starts PostgreSQL for deploy/compose.yaml: on a new volume, makes the cluster (the superuser
# `postgres` only through the container's own socket; over the network, passwords), the role
# `playground` with $POSTGRES_PASSWORD and its database `playground`; then runs the server in the
# foreground, listening on every address.
set -eu
bin=/usr/lib/postgresql/15/bin
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD (deploy/compose.yaml reads PLAYGROUND_DB_PASSWORD)}"
  "$bin/initdb" -D "$PGDATA" --auth-local=peer --auth-host=scram-sha-256 >/dev/null
  echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
  "$bin/pg_ctl" -D "$PGDATA" -w -o "-c listen_addresses=''" start >/dev/null
  # psql quotes the password (:'password'): no character of it can change the statement.
  "$bin/psql" -qX -d postgres -v password="$POSTGRES_PASSWORD" <<'SQL'
CREATE ROLE playground LOGIN PASSWORD :'password';
CREATE DATABASE playground OWNER playground;
SQL
  "$bin/pg_ctl" -D "$PGDATA" -w stop >/dev/null
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
