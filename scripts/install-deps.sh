#!/usr/bin/env bash
# Installs the project's pinned devDependencies unless node_modules already matches the lockfile.
# Install scripts stay off (.npmrc): n8n-workflow pulls a native module that only builds on Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "node_modules is up to date with package-lock.json"
else
  npm ci --no-audit --no-fund
fi
