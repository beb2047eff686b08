#!/usr/bin/env bash
# Installs what the test suite needs beyond npm packages, on a fresh machine,
# and builds the slow test tools into a cache outside the repository.
set -euo pipefail
cd "$(dirname "$0")/../.."

apt_install() {
  local missing=()
  for pkg in "$@"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "ensure-test-deps: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

apt_install redis-server openssl postgresql chromium libjemalloc2

# Test tools built from Go modules (kube-apiserver, etcd, helm, Envoy API checkers), cached.
for script in test/tools/build-*.sh; do
  [ -e "$script" ] || continue
  bash "$script"
done
