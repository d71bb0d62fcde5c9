#!/usr/bin/env bash
# What n8n's queue mode needs besides n8n itself, from Debian's packages: Redis (the queue),
# Postgres (the database every process shares) and nginx (the load balancer in front of the
# webhook processes). Idempotent: installs only what is missing. The harness runs each of them
# as a child process with throw-away data; the services the packages may set up stay unused.
set -euo pipefail

have_postgres() { compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; }

missing=()
command -v redis-server >/dev/null || missing+=(redis-server)
have_postgres || missing+=(postgresql)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
# The end-to-end test of a delivery n8n fails to start holds SQLite's write lock with the sqlite3 shell.
command -v sqlite3 >/dev/null || missing+=(sqlite3)

if [ ${#missing[@]} -eq 0 ]; then
  echo "redis-server, postgresql, nginx and sqlite3 are installed"
  exit 0
fi

bash "$(dirname "$0")/apt-install.sh" "${missing[@]}"
