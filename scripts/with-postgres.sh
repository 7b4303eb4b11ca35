#!/usr/bin/env bash
# Runs "$@" with TEST_DATABASE_URL pointing at a PostgreSQL server, found in
# this order: TEST_DATABASE_URL; a server on 127.0.0.1:5432 (user postgres);
# a throwaway cluster started here with initdb/pg_ctl (from PATH or
# /usr/lib/postgresql/*/bin) in a temporary directory on a free port, stopped
# afterwards. With none of these it says what to install and fails: the
# PostgreSQL tests never skip silently.
set -euo pipefail

can_connect() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$1" -p "$2" -t 2
  else
    (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null
  fi
}

if [ -n "${TEST_DATABASE_URL:-}" ]; then
  echo "with-postgres: using TEST_DATABASE_URL" >&2
  exec "$@"
fi

if can_connect 127.0.0.1 5432; then
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
  echo "with-postgres: using the server on 127.0.0.1:5432" >&2
  exec "$@"
fi

bindir=""
if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
  bindir="$(dirname "$(command -v initdb)")"
else
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && bindir="$d"
  done
fi
if [ -z "$bindir" ]; then
  cat >&2 <<'MSG'
with-postgres: no PostgreSQL found. The tests need one. Either
  - set TEST_DATABASE_URL=postgres://user@host:port/db?sslmode=disable, or
  - run a server on 127.0.0.1:5432 with user postgres (trust auth), or
  - install the server binaries so a throwaway cluster can be started:
      Debian/Ubuntu: sudo apt-get install postgresql
      macOS:         brew install postgresql
MSG
  exit 1
fi

tmp="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 55432)"
runas=()
if [ "$(id -u)" = 0 ]; then
  # initdb refuses to run as root: use an unprivileged account.
  id postgres >/dev/null 2>&1 || useradd -r -M postgres
  chown -R postgres "$tmp"
  runas=(runuser -u postgres --)
fi
cleanup() { "${runas[@]}" "$bindir/pg_ctl" -D "$tmp/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
echo "with-postgres: starting a throwaway cluster from $bindir on port $port" >&2
"${runas[@]}" "$bindir/initdb" -D "$tmp/data" -U postgres -A trust >/dev/null
"${runas[@]}" "$bindir/pg_ctl" -D "$tmp/data" -o "-p $port -k $tmp -c listen_addresses=127.0.0.1" -l "$tmp/log" -w start >/dev/null
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"
"$@"
