#!/usr/bin/env bash
# Compare the nested catalogue query with PostGraphile on the same database
# (docs/PERFORMANCE.md). Not run by CI. Needs: a PostgreSQL server
# (PGURL, default postgres://postgres@127.0.0.1:5432), Go, Node.js with npm
# (PostGraphile comes from the npm registry) and wrk (apt-get install wrk).
# Bounded: ROUNDS interleaved rounds (ours, PostGraphile, …) of SECONDS
# seconds at 1 and at 16 connections.
set -euo pipefail
cd "$(dirname "$0")"
PGURL=${PGURL:-postgres://postgres@127.0.0.1:5432}
DB=salesplatform_bench
ROUNDS=${ROUNDS:-3}
SECONDS_EACH=${SECONDS:-8}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

psql "$PGURL/postgres" -qc "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
url="$PGURL/$DB?sslmode=disable"
go build -o "$work/salesplatform" ../cmd/salesplatform
DATABASE_URL=$url "$work/salesplatform" migrate up
DATABASE_URL=$url PASSWORD_HASH_MEMORY=1 "$work/salesplatform" seed demo >/dev/null
psql "$url" -q -f data.sql

(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error postgraphile@4.14.1)
DATABASE_URL=$url LOG_LEVEL=warn "$work/salesplatform" serve --addr 127.0.0.1:8011 2>"$work/serve.log" &
"$work/node_modules/.bin/postgraphile" -c "$url" --host 127.0.0.1 --port 5011 --disable-query-log >/dev/null &
for port in 8011 5011; do
  for _ in $(seq 50); do curl -fs -o /dev/null "http://127.0.0.1:$port/graphql" -XPOST -H 'Content-Type: application/json' -d '{"query":"{__typename}"}' && break; sleep 0.2; done
done

for c in 1 16; do
  for round in $(seq "$ROUNDS"); do
    for side in ours:8011 postgraphile:5011; do
      name=${side%%:*}; port=${side##*:}
      printf '%-12s c=%-2s round %s: ' "$name" "$c" "$round"
      wrk -t"$(( c > 1 ? 2 : 1 ))" -c"$c" -d"${SECONDS_EACH}s" -s "$name.lua" "http://127.0.0.1:$port/graphql" |
        awk '/Latency/ {lat=$2} /Requests\/sec/ {print $2 " req/s, mean latency " lat}'
    done
  done
done
kill $(jobs -p) && wait 2>/dev/null || true
psql "$PGURL/postgres" -qc "DROP DATABASE $DB"
