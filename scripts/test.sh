#!/usr/bin/env bash
# test.sh: what `make test` runs, stage by stage, each line saying how long
# its stage took so the slow ones can be named. test.sh lint runs only the
# first three stages (gofmt, go vet, staticcheck).
#
# Two pairs run side by side, because one of each pair mostly waits (on
# PostgreSQL, on sleeps in tests, on the browser) while the other computes:
# staticcheck beside `go test -race`, and the fuzz run beside the browser
# test. Each side's output is kept and printed whole when both are done, so
# the log reads as if they had run one after the other.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
PKGS=${PKGS:-./...}
STATICCHECK=${STATICCHECK:-bin/staticcheck}
start=$SECONDS

# stage NAME COMMAND...: runs COMMAND, then says how long it took; fails
# the whole run on the first stage that fails.
stage() {
	local name=$1 t=$SECONDS status
	shift
	echo "make test: $name"
	"$@"
	status=$?
	echo "make test: $name: $((SECONDS - t)) s$([ "$status" = 0 ] || echo ", FAILED")"
	[ "$status" = 0 ] || exit "$status"
}

# together NAME-A 'COMMAND-A' NAME-B 'COMMAND-B': both at once, each timed.
together() {
	local dir a b sa sb
	dir=$(mktemp -d)
	(stage "$1" bash -c "$2") >"$dir/a" 2>&1 &
	a=$!
	(stage "$3" bash -c "$4") >"$dir/b" 2>&1 &
	b=$!
	wait "$a"
	sa=$?
	wait "$b"
	sb=$?
	cat "$dir/a" "$dir/b"
	rm -rf "$dir"
	[ "$sa" = 0 ] && [ "$sb" = 0 ] || exit 1
}

gofmt_check() {
	local out
	out=$(gofmt -l cmd db docs graph internal mcp rest web)
	[ -z "$out" ] || { echo "gofmt needed:"; echo "$out"; return 1; }
}

stage gofmt gofmt_check
# The race detector's build of every dependency, made here once, is what
# `go test -race` then reuses; so go test runs with -vet=off: the full vet
# has just run on the same packages.
stage "go vet" "$GO" vet -race "$PKGS"
if [ "${1:-}" = lint ]; then
	stage staticcheck "$STATICCHECK" "$PKGS"
	exit 0
fi
together \
	"go test -race on SQLite and PostgreSQL" "./scripts/with-postgres.sh $GO test -race -vet=off -count=1 -timeout 8m $PKGS" \
	"staticcheck" "$STATICCHECK $PKGS"
stage "TestFindingsGolden without -race (four million characters analyzed; no goroutine of its own to race)" \
	"$GO" test -vet=off -count=1 -run '^TestFindingsGolden$' ./internal/analyze
# A count, not a duration: a time limit that ends while the fuzzer minimizes
# a new input fails the run with "context deadline exceeded".
together \
	"FuzzExtract for 20000 inputs" "$GO test -run '^\$' -fuzz FuzzExtract -fuzztime 20000x ./internal/extract" \
	"the portal in Chromium (scripts/e2e.sh)" "./scripts/e2e.sh"
echo "make test: all passed in $((SECONDS - start)) s"
