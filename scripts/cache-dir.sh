#!/usr/bin/env bash
# Prints the per-user folder where n8n, its Node and the real Karakeep are installed once for every
# clone of this project: $SSB_CACHE_DIR, else $XDG_CACHE_HOME/n8n-nodes-sign-survey-bookmark,
# else ~/.cache/n8n-nodes-sign-survey-bookmark. test/harness/paths.ts makes the same choice.
# Delete the folder to reinstall from scratch.
set -euo pipefail
if [ -n "${SSB_CACHE_DIR:-}" ]; then
  echo "$SSB_CACHE_DIR"
else
  echo "${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-sign-survey-bookmark"
fi
