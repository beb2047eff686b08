#!/usr/bin/env bash
# What `make bench` needs beyond npm packages, on a fresh machine: taskset (placement), redis-server
# (the Redis case), jemalloc (the image preloads it, so gw is measured on it) and a python3 that can make virtual environments (the LiteLLM peer). The peers
# themselves are installed by bench/run.mjs into ~/.cache/model-gateway/bench-peers.
set -euo pipefail

missing=()
command -v taskset >/dev/null 2>&1 || missing+=(util-linux)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
dpkg -s libjemalloc2 >/dev/null 2>&1 || missing+=(libjemalloc2)
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  missing+=(python3-venv)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "ensure-bench-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
