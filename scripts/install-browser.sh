#!/usr/bin/env bash
# Chromium from Debian's packages, for the end-to-end tests that look at n8n's editor as a user
# does (test/harness/browser.ts drives it with playwright-core, which never downloads a browser).
# With DejaVu, the fonts the sticky-note measurements were made with: n8n serves its own text font
# (Inter) but draws code in the system's monospace. Idempotent: installs only what is missing.
set -euo pipefail

missing=()
# CHROMIUM_PATH: another Chromium or Chrome (test/harness/browser.ts), e.g. the one on GitHub's runners.
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
fc-list 2>/dev/null | grep -q 'DejaVuSansMono' || missing+=(fonts-dejavu-core)

if [ ${#missing[@]} -eq 0 ]; then
  echo "chromium and the DejaVu fonts are installed"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" "${missing[@]}"
