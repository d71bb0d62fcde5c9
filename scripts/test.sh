#!/usr/bin/env bash
# The whole test run on a fresh machine: installs what it needs, then lint, build,
# unit tests, sandbox contract tests, tests against the real Karakeep and end-to-end tests in a real n8n.
set -euo pipefail
cd "$(dirname "$0")/.."

stage() { printf '\n=== %s (at %ds) ===\n' "$1" "$SECONDS"; }

# The n8n versions the end-to-end suite runs against: the 2.x it is built for and the last
# 1.x line. Each is installed once into its own folder of the per-user cache (scripts/cache-dir.sh).
N8N_TEST_VERSIONS="${N8N_TEST_VERSIONS:-2.41.1 1.123.81}"

stage "install dependencies"
bash scripts/install-deps.sh

for version in $N8N_TEST_VERSIONS; do
  stage "install n8n $version (Node 24 + n8n, once)"
  N8N_VERSION="$version" bash scripts/install-n8n.sh
done

stage "install Redis, Postgres and nginx for queue mode, and the sqlite3 shell (Debian packages, once)"
bash scripts/install-queue-deps.sh

stage "install Chromium for the tests that look at n8n's editor in a browser (Debian package, once)"
bash scripts/install-browser.sh

stage "install the real Karakeep (its REST API from shared/real-services/karakeep, once)"
bash scripts/install-karakeep.sh

stage "lint (n8n-node lint, strict)"
npx n8n-node lint

stage "type-check (nodes, credentials, tests)"
npx tsc --noEmit -p tsconfig.json

stage "build"
npm run build

stage "unit tests"
npx jest --selectProjects unit

stage "sandbox contract tests"
npx jest --selectProjects sandbox

stage "tests against the real Karakeep"
npx jest --selectProjects karakeep --runInBand

for version in $N8N_TEST_VERSIONS; do
  stage "end-to-end tests in a real n8n $version"
  N8N_VERSION="$version" npx jest --selectProjects e2e --runInBand
done

stage "end-to-end tests in n8n queue mode (Redis, Postgres, worker, two webhook processes, nginx)"
npx jest --selectProjects e2e-queue --runInBand

stage "done"
