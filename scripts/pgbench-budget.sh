#!/usr/bin/env bash
# Baseline for BenchmarkAnalyzeBudgeted: pgbench's rate for the single-row
# conditional UPDATE a budget needs, with the benchmark's 16 clients.
set -euo pipefail
url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}"
db="cw_pgbench_$$"
psql "$url" -qc "CREATE DATABASE $db"
trap 'psql "$url" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)"' EXIT
dburl="${url%/*}/$db?sslmode=disable"
psql "$dburl" -qc "CREATE TABLE budget (id int PRIMARY KEY, used int NOT NULL); INSERT INTO budget VALUES (1, 0);"
script="$(mktemp)"
echo 'UPDATE budget SET used = used + 1 WHERE id = 1 AND used < 2000000000;' > "$script"
pgbench -n -c 16 -j 2 -T "${PGBENCH_SECONDS:-10}" -f "$script" "$dburl" | grep -E "tps|latency"
rm -f "$script"
