#!/usr/bin/env bash
# Compare the nested catalogue query with PostGraphile on the same database
# (docs/PERFORMANCE.md). Not run by CI. Needs: a PostgreSQL server
# (PGURL, default postgres://postgres@127.0.0.1:5432), Go, Node.js with npm
# (PostGraphile comes from the npm registry) and wrk (apt-get install wrk).
# Bounded: for each row of the comparison (2 boxes at 1 connection, 10 at 1,
# 10 at 16), ROUNDS interleaved rounds (ours, PostGraphile, ours, …) of
# DURATION seconds; it prints the median of each side and their ratio.
set -euo pipefail
cd "$(dirname "$0")"
PGURL=${PGURL:-postgres://postgres@127.0.0.1:5432}
DB=salesplatform_bench
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-8}
work=$(mktemp -d)
export DATA_DIR="$work/data" # the demo's media, outside the repository
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  psql "$PGURL/postgres" -qc "DROP DATABASE IF EXISTS $DB" || true
  rm -rf "$work"
}
trap cleanup EXIT

psql "$PGURL/postgres" -qc "DROP DATABASE IF EXISTS $DB" -c "CREATE DATABASE $DB"
url="$PGURL/$DB?sslmode=disable"
go build -o "$work/salesplatform" ../cmd/salesplatform
DATABASE_URL=$url "$work/salesplatform" migrate up
DATABASE_URL=$url PASSWORD_HASH_MEMORY=1 "$work/salesplatform" seed demo >/dev/null
psql "$url" -q -f data.sql

(cd "$work" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error postgraphile@4.14.1)
DATABASE_URL=$url LOG_LEVEL=warn "$work/salesplatform" serve --addr 127.0.0.1:8011 2>"$work/serve.log" &
"$work/node_modules/.bin/postgraphile" -c "$url" --host 127.0.0.1 --port 5011 --disable-query-log >/dev/null &
# Both answer their query, with data and no errors, before any round.
for side in ours:8011 postgraphile:5011; do
  name=${side%%:*}; port=${side##*:}
  headers=(-H 'Content-Type: application/json' -H 'X-Partner-Domain: market.localhost')
  for _ in $(seq 100); do
    answer=$(curl -fs "http://127.0.0.1:$port/graphql" "${headers[@]}" -d @"$name.json") && break
    sleep 0.2
  done
  if [[ -z ${answer:-} || $answer == *'"errors"'* || $answer != *'Label A'* ]]; then
    echo "$name does not answer the query: ${answer:-no answer}" >&2
    cat "$work/serve.log" >&2
    exit 1
  fi
  answer=
done

# The rows of docs/PERFORMANCE.md: boxes and connections. Each box count's
# bodies are the committed ones with the top-level first: changed.
body() { sed "s/first: 10/first: $2/" "$1.json" >"$work/$1-$2.json"; echo "$work/$1-$2.json"; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
printf '%-26s %-22s %-22s %s\n' "boxes, connections" "this service (req/s)" "PostGraphile (req/s)" "ratio"
for case in "2 1" "10 1" "10 16"; do
  read -r boxes c <<<"$case"
  for side in ours postgraphile; do : >"$work/$side.rates"; done
  for round in $(seq "$ROUNDS"); do
    for side in ours:8011 postgraphile:5011; do
      name=${side%%:*}; port=${side##*:}
      BODY=$(body "$name" "$boxes") wrk -t"$(( c > 1 ? 2 : 1 ))" -c"$c" -d"${DURATION}s" -s "$name.lua" "http://127.0.0.1:$port/graphql" |
        awk '/Requests\/sec/ {print $2}' >>"$work/$name.rates"
    done
  done
  ours=$(median <"$work/ours.rates"); theirs=$(median <"$work/postgraphile.rates")
  printf '%-26s %-22s %-22s %.2f×\n' "$boxes boxes, $c connection(s)" "$ours" "$theirs" "$(awk -v a="$ours" -v b="$theirs" 'BEGIN {print a / b}')"
done
