#!/usr/bin/env bash
# The whole test run on a fresh machine: installs what it needs, then lint, build,
# unit tests, sandbox contract tests and end-to-end tests in a real n8n.
set -euo pipefail
cd "$(dirname "$0")/.."

stage() { printf '\n=== %s ===\n' "$1"; }

stage "install dependencies"
bash scripts/install-deps.sh

stage "install n8n (Node 24 + n8n, once)"
bash scripts/install-n8n.sh

stage "install Redis, Postgres and nginx for queue mode (Debian packages, once)"
bash scripts/install-queue-deps.sh

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

stage "end-to-end tests in a real n8n"
npx jest --selectProjects e2e --runInBand

stage "end-to-end tests in n8n queue mode (Redis, Postgres, worker, two webhook processes, nginx)"
npx jest --selectProjects e2e-queue --runInBand
