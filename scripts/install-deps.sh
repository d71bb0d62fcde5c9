#!/usr/bin/env bash
# Installs the project's pinned devDependencies unless node_modules already matches the lockfile.
# Install scripts stay off (.npmrc): n8n-workflow pulls a native module that only builds on Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f node_modules/.package-lock.json ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
  echo "node_modules is up to date with package-lock.json"
else
  # Not `npm ci`: the registry reachable here lacks some optional platform packages that
  # npm ci insists on finding in the lockfile; `npm install` follows the lockfile without them.
  npm install --no-audit --no-fund
fi
