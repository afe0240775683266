#!/usr/bin/env bash
# Runs once, when the PostgreSQL container initialises an empty data folder: a login for
# Grafana that holds only weblate_reader, the read-only role weblate-mirror's migrations
# grant SELECT on the weblate schema to (the migration finds the role here and keeps it).
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v password="$GRAFANA_DB_PASSWORD" <<'SQL'
create role weblate_reader nologin;
create role grafana login password :'password' in role weblate_reader;
SQL
