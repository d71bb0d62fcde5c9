#!/usr/bin/env bash
# The whole test run on a fresh machine: installs what it needs, then lint, build, the release checks
# (workflows, tarball, n8n's scanner, documentation links), unit tests, sandbox contract tests, tests
# against the real Karakeep and end-to-end tests in a real n8n.
#
#   bash scripts/test.sh                 every stage (what `npm test` runs)
#   bash scripts/test.sh checks unit     only the groups named, in the order below:
#     checks   lint, type-check, build, release checks, scanner   (no install beyond node_modules)
#     unit     unit tests
#     sandbox  sandbox contract tests
#     karakeep tests against the real Karakeep (needs shared/real-services/karakeep)
#     e2e      end-to-end tests in a real n8n, each of $N8N_TEST_VERSIONS
#     queue    end-to-end tests in n8n's queue mode
# .github/workflows/ci.yml runs the groups as separate jobs.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_GROUPS="checks unit sandbox karakeep e2e queue"
GROUPS_TO_RUN=" ${*:-$ALL_GROUPS} "
for group in $GROUPS_TO_RUN; do
  case " $ALL_GROUPS " in
    *" $group "*) ;;
    *) echo "Unknown test group \"$group\": choose among $ALL_GROUPS" >&2; exit 2 ;;
  esac
done
runs() { case "$GROUPS_TO_RUN" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

stage() { printf '\n=== %s (at %ds) ===\n' "$1" "$SECONDS"; }

# The n8n versions the end-to-end suite runs against: the 2.x it is built for and the last
# 1.x line. Each is installed once into its own folder of the per-user cache (scripts/cache-dir.sh).
N8N_TEST_VERSIONS="${N8N_TEST_VERSIONS:-2.41.1 1.123.81}"

stage "install dependencies"
bash scripts/install-deps.sh

if runs e2e || runs queue; then
  versions="$N8N_TEST_VERSIONS"
  runs e2e || versions=2.41.1
  for version in $versions; do
    stage "install n8n $version (Node 24 + n8n, once)"
    N8N_VERSION="$version" bash scripts/install-n8n.sh
  done
fi

if runs e2e || runs queue; then
  stage "install Redis, Postgres and nginx for queue mode, and the sqlite3 shell (Debian packages, once)"
  bash scripts/install-queue-deps.sh
fi

if runs e2e; then
  stage "install Chromium for the tests that look at n8n's editor in a browser (Debian package, once)"
  bash scripts/install-browser.sh
fi

if runs karakeep; then
  stage "install the real Karakeep (its REST API from shared/real-services/karakeep, once)"
  bash scripts/install-karakeep.sh
fi

if runs checks; then
  stage "lint (n8n-node lint, strict)"
  npx n8n-node lint

  stage "type-check (nodes, credentials, tests)"
  npx tsc --noEmit -p tsconfig.json
fi

stage "build"
npm run build

if runs checks; then
  stage "release checks (actionlint on the workflows, the publish workflow up to npm publish, the tarball, npm run release, documentation links)"
  npx jest --selectProjects release --runInBand

  stage "n8n's community-package scanner (@n8n/scan-community-package: the source and the packed tarball)"
  node scripts/scan-package.mjs
fi

if runs unit; then
  stage "unit tests"
  npx jest --selectProjects unit
fi

if runs sandbox; then
  stage "sandbox contract tests"
  npx jest --selectProjects sandbox
fi

if runs karakeep; then
  stage "tests against the real Karakeep"
  npx jest --selectProjects karakeep --runInBand
fi

if runs e2e; then
  for version in $N8N_TEST_VERSIONS; do
    stage "end-to-end tests in a real n8n $version"
    N8N_VERSION="$version" npx jest --selectProjects e2e --runInBand
  done
fi

if runs queue; then
  stage "end-to-end tests in n8n queue mode (Redis, Postgres, worker, two webhook processes, nginx)"
  npx jest --selectProjects e2e-queue --runInBand
fi

stage "done"
