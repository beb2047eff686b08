#!/usr/bin/env bash
# make run: gw serve on examples/gateway.yaml for one machine. Without a provider key and without a
# provider address it starts the built-in demo provider (canned answers, clearly labelled), so the first
# curl streams an answer with no key and no internet. Prints the console's address and a sign-in token
# kept for this machine only (created once, mode 0600, under MODEL_GATEWAY_CACHE).
set -euo pipefail
cd "$(dirname "$0")/.."
port=${GW_PORT:-8080}
admin_port=${GW_ADMIN_PORT:-9090}
cache=${MODEL_GATEWAY_CACHE:-$HOME/.cache/model-gateway}
demo_pid=""
cleanup() { if [ -n "$demo_pid" ]; then kill "$demo_pid" 2>/dev/null || true; fi; }
trap cleanup EXIT

if [ -z "${ANTHROPIC_API_KEY:-}" ] && [ -z "${GW_VENDOR_BASE_URL:-}" ]; then
  demo_port=${GW_DEMO_PORT:-8089}
  node dist/cli/demo-provider.js "$demo_port" &
  demo_pid=$!
  for _ in $(seq 1 50); do (exec 3<>"/dev/tcp/127.0.0.1/$demo_port") 2>/dev/null && break; sleep 0.1; done
  export GW_VENDOR_BASE_URL="http://127.0.0.1:$demo_port"
  export ANTHROPIC_API_KEY="demo-provider-needs-no-key"
  echo "make run: neither ANTHROPIC_API_KEY nor GW_VENDOR_BASE_URL is set, so answers come from the built-in DEMO provider:"
  echo "          canned text, no model is called. Set one of them before make run to reach a real provider."
else
  export GW_VENDOR_BASE_URL="${GW_VENDOR_BASE_URL:-https://api.anthropic.com}"
  if [ -z "${ANTHROPIC_API_KEY:-}" ]; then
    echo "make run: GW_VENDOR_BASE_URL is set without ANTHROPIC_API_KEY; the provider decides whether it needs one."
    export ANTHROPIC_API_KEY="no-key-given"
  fi
fi

if [ -z "${GW_ADMIN_TOKEN:-}" ]; then
  mkdir -p "$cache"
  token_file="$cache/local-admin-token"
  if [ ! -s "$token_file" ]; then
    (umask 077 && node -e "process.stdout.write(require('node:crypto').randomBytes(24).toString('base64url'))" > "$token_file")
  fi
  GW_ADMIN_TOKEN=$(cat "$token_file")
  export GW_ADMIN_TOKEN
  token_note="(this machine's own, kept in $token_file)"
else
  token_note="(GW_ADMIN_TOKEN from your environment)"
fi
echo "make run: owner console at http://127.0.0.1:$admin_port/console/ ; sign in with the admin token $token_note:"
echo "          $GW_ADMIN_TOKEN"
node dist/cli/main.js serve -f examples/gateway.yaml --port "$port" --admin-port "$admin_port"
