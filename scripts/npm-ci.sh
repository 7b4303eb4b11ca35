#!/usr/bin/env bash
# npm-ci.sh: installs web/'s npm packages (playwright-core, uPlot) unless the
# installed ones are those of web/package-lock.json already, so the browser
# test pays for npm ci once per lock file, not once per run. No browser is
# ever downloaded: the test drives Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/../web"
stamp=node_modules/.ci-lock
if cmp -s package-lock.json "$stamp" 2>/dev/null; then
	exit 0
fi
echo "npm ci in web/ (playwright-core and uPlot)"
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
cp package-lock.json "$stamp"
