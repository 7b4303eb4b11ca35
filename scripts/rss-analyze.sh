#!/bin/sh
# Peak RSS of one `clausewatch serve` while N concurrent requests each analyze
# a text of CHARS characters (default 8 x 1,500,000, the trial's case), on a
# fresh SQLite database on loopback. Prints the peak (VmHWM), the RSS after
# the burst, and the statuses. Usage: scripts/rss-analyze.sh [N] [CHARS]
set -eu
N=${1:-8}
CHARS=${2:-1500000}
dir=$(mktemp -d)
trap 'kill $pid 2>/dev/null || true; rm -rf "$dir"' EXIT
go build -o "$dir/clausewatch" ./cmd/clausewatch
export DATABASE_URL="sqlite:$dir/db" CLAUSEWATCH_LOG_LEVEL=warn
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$dir/clausewatch" migrate >/dev/null
key=$("$dir/clausewatch" key create --email rss@example.com --name rss | jq -r .rawKey)
sqlite3 "$dir/db" "UPDATE accounts SET tier = 'advanced'"
python3 - "$CHARS" > "$dir/body.json" <<'PY'
import json, sys
n = int(sys.argv[1])
parts = ["We may terminate your account at any time without notice.",
         "You agree that any dispute will be resolved by binding arbitration.",
         "We share your personal data with advertising partners.",
         "These terms are governed by the laws of the State of Delaware.",
         "You can delete your data at any time from the settings page."]
out, i = [], 0
while sum(map(len, out)) + len(out) < n:
    out.append("%d. %s" % (i, parts[i % len(parts)]))
    i += 1
    if i % 7 == 0:
        out.append("\n\n")
text = " ".join(out)[:n]
json.dump({"text": text, "title": "rss"}, sys.stdout)
PY
"$dir/clausewatch" serve --addr "127.0.0.1:$port" >"$dir/log" 2>&1 &
pid=$!
until curl -sf "127.0.0.1:$port/healthz" >/dev/null; do sleep 0.2; done
echo "idle RSS: $(awk '/VmRSS/ {print $2/1024 " MB"}' /proc/$pid/status)"
start=$(date +%s.%N)
curls=
for i in $(seq "$N"); do
  curl -s -o /dev/null -w '%{http_code} %{time_total}s\n' -X POST "127.0.0.1:$port/api/analyze" \
    -H "Authorization: Bearer $key" -H 'Content-Type: application/json' --data-binary @"$dir/body.json" &
  curls="$curls $!"
done
for c in $curls; do wait "$c"; done
echo "burst: $(echo "$(date +%s.%N) - $start" | bc) s"
echo "peak RSS (VmHWM): $(awk '/VmHWM/ {print $2/1024 " MB"}' /proc/$pid/status)"
sleep 5
echo "RSS 5 s after: $(awk '/VmRSS/ {print $2/1024 " MB"}' /proc/$pid/status)"
