#!/usr/bin/env bash
# Installs the Debian packages given (as root, else through sudo), without their recommendations:
# for the install-*.sh scripts, which work out first what is missing.
set -euo pipefail
[ $# -gt 0 ] || exit 0
sudo_if_needed=()
[ "$(id -u)" -eq 0 ] || sudo_if_needed=(sudo)
echo "installing $* from Debian's packages"
"${sudo_if_needed[@]}" apt-get update -q
"${sudo_if_needed[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
