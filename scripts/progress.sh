#!/usr/bin/env bash
# progress.sh WHAT COMMAND...: runs COMMAND and, while it runs, prints
# "make run: still WHAT (N s)" every 10 seconds, so a long first build is
# never silent (go build -v names packages only as each finishes, and the
# largest take over a minute). Exits with COMMAND's status.
set -uo pipefail
what=$1
shift
start=$SECONDS
"$@" &
pid=$!
(
	while sleep 10; do
		kill -0 "$pid" 2>/dev/null || exit 0
		echo "make run: still $what ($((SECONDS - start)) s)"
	done
) &
ticker=$!
wait "$pid"
status=$?
kill "$ticker" 2>/dev/null
wait "$ticker" 2>/dev/null
exit "$status"
