#!/usr/bin/env bash
# The main job on a fresh machine: installs what it needs, builds, then runs scripts/start.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/install-n8n.sh
if [ "${BOOKMARKS:-}" = karakeep ]; then bash scripts/install-karakeep.sh; fi
npm run build
exec npx ts-node --transpile-only scripts/start.ts
