#!/usr/bin/env bash
# Installs the real Karakeep (its REST API, from the source snapshot in shared/real-services/karakeep)
# once into the per-user cache (scripts/cache-dir.sh, folder karakeep/), shared by every clone, for the
# tests against the real Karakeep and `BOOKMARKS=karakeep npm start`.
# Idempotent: Karakeep's start.sh skips its install when its marker matches; this script then
# only checks that the server starts (a few seconds) and stops it.
#
# start.sh is looked for where test/harness/karakeep.ts looks: $KARAKEEP_REAL_DIR, then
# ../shared/real-services/karakeep beside the project, then /work/shared/real-services/karakeep.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$(bash "$root/scripts/cache-dir.sh")"
# test/harness/karakeep.ts uses the same folder.
runtime="$cache/karakeep"

karakeep_dir=""
for dir in "${KARAKEEP_REAL_DIR:-}" "$root/../shared/real-services/karakeep" /work/shared/real-services/karakeep; do
  if [ -n "$dir" ] && [ -f "$dir/start.sh" ]; then
    karakeep_dir="$(cd "$dir" && pwd)"
    break
  fi
done
if [ -z "$karakeep_dir" ]; then
  echo "The real Karakeep is not available: no start.sh in \$KARAKEEP_REAL_DIR (${KARAKEEP_REAL_DIR:-unset})," \
    "$root/../shared/real-services/karakeep or /work/shared/real-services/karakeep." \
    "Set KARAKEEP_REAL_DIR to the folder that holds Karakeep's start.sh (shared/real-services/karakeep)." >&2
  exit 1
fi

# start.sh compiles better-sqlite3 from source: it needs make, g++ and python3 (Debian's packages).
missing=()
command -v make >/dev/null || missing+=(make)
command -v g++ >/dev/null || missing+=(g++)
command -v python3 >/dev/null || missing+=(python3)
if [ ${#missing[@]} -gt 0 ]; then
  sudo_if_needed=()
  [ "$(id -u)" -eq 0 ] || sudo_if_needed=(sudo)
  echo "installing build-essential and python3 from Debian's packages (missing: ${missing[*]})"
  "${sudo_if_needed[@]}" apt-get update -q
  "${sudo_if_needed[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends build-essential python3
fi

mkdir -p "$runtime" "$root/.tmp"
# Two clones may install at once: one installs, the other waits and then finds it installed.
exec 9>"$cache/.install-karakeep.lock"
flock 9
data="$(mktemp -d "$root/.tmp/karakeep-install-XXXXXX")"
ready="$data.ready"
log="$runtime/install.log"
# start.sh installs only when its marker is missing or stale; a marker means a check of a few seconds.
if [ -f "$runtime/app/.karakeep-real-installed" ]; then
  echo "Karakeep is installed in $runtime: checking that it starts (a few seconds; a reinstall if its source changed since)"
else
  echo "installing Karakeep from $karakeep_dir into $runtime (once; about 90 s and 640 MB; log: $log)"
fi

# Its own process group (set -m), so that stopping it stops whatever start.sh is running.
set -m
KARAKEEP_CACHE="$runtime" bash "$karakeep_dir/start.sh" --port 0 --data "$data" > "$ready" 2> "$log" &
pid=$!
set +m
cleanup() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$data" "$ready"
}
trap cleanup EXIT

# Waits for the ready line (start.sh prints it once the API listens) or for start.sh to fail.
while [ ! -s "$ready" ]; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "Karakeep's start.sh failed; the end of its log ($log):" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  sleep 1
done
echo "Karakeep is installed in $runtime and starts"
