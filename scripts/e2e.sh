#!/usr/bin/env bash
# The portal's browser test (web/e2e), as `make test` runs it: Debian's
# Chromium driven by playwright-core against `clausewatch serve` on a free
# loopback port with a fresh SQLite. Installs what it can (npm ci once per lock
# file; chromium when root) and otherwise fails saying what is missing: it never skips.
# Screenshots (every page at 1280 and 390 px, light and dark) go to
# $ARTIFACTS, by default /tmp/clausewatch-portal-e2e: look at them, they are
# never committed.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in node npm; do
	command -v "$tool" >/dev/null || { echo "e2e: $tool is missing: apt-get install nodejs npm" >&2; exit 1; }
done
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "e2e: installing Debian's chromium"
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
	else
		echo "e2e: $chromium is missing: sudo apt-get install chromium (the test never downloads a browser)" >&2
		exit 1
	fi
fi

./scripts/npm-ci.sh

tmp=$(mktemp -d)
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/clausewatch" ./cmd/clausewatch

# The test serves the page it monitors itself, on this loopback port, which the
# server's fetcher is allowed to reach.
fixture=127.0.0.1:$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')

# The zero-setup mode in an empty directory: a fresh ./data, SQLite, the owner's link printed.
(cd "$tmp" && exec env -u DATABASE_URL -u CLAUSEWATCH_AUTH_JWKS_URL -u CLAUSEWATCH_AUTH_HS256_SECRET \
	CLAUSEWATCH_MONITOR_MIN_INTERVAL=1s CLAUSEWATCH_FETCH_ALLOW_HOSTS="$fixture" \
	./clausewatch serve -addr 127.0.0.1:0 >"$tmp/stdout" 2>"$tmp/server.log") &
server=$!
link=
for _ in $(seq 100); do
	link=$(grep -so 'http://127\.0\.0\.1:[0-9]*/#signin=[^ ]*' "$tmp/stdout" || true)
	[ -n "$link" ] && break
	kill -0 "$server" 2>/dev/null || { echo "e2e: the server stopped:" >&2; cat "$tmp/server.log" >&2; exit 1; }
	sleep 0.1
done
[ -n "$link" ] || { echo "e2e: the server printed no sign-in link:" >&2; cat "$tmp/stdout" "$tmp/server.log" >&2; exit 1; }

artifacts=${ARTIFACTS:-/tmp/clausewatch-portal-e2e}
rm -rf "$artifacts"
status=0
(cd web && PORTAL_LINK="$link" FIXTURE_ADDR="$fixture" SESSION_KEY="$tmp/data/session.key" CHROMIUM="$chromium" ARTIFACTS="$artifacts" \
	node --test --test-reporter=spec e2e/) || status=$?
if [ "$status" != 0 ]; then
	echo "e2e: server log:" >&2
	tail -n 40 "$tmp/server.log" >&2
fi
echo "e2e: screenshots in $artifacts"
exit "$status"
