#!/usr/bin/env bash
# Installs a pinned `helm` into the test-tool cache with `go install` (Go module
# proxy only; the prebuilt release tarballs are not reachable from here).
# Idempotent: does nothing when the stamped version is already installed.
#
#   test/tools/build-helm.sh            install if missing, print a summary
#   test/tools/build-helm.sh --force    reinstall
#   test/tools/build-helm.sh --print    print the binary path, build nothing
#
# Environment: MODEL_GATEWAY_CACHE, BUILD_JOBS (see build-kube.sh).
set -euo pipefail

HELM_VERSION=v3.19.0   # helm.sh/helm/v3; built against k8s.io/client-go v0.34

CACHE=${MODEL_GATEWAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/model-gateway}
BIN=$CACHE/bin
LOGS=$CACHE/logs
JOBS=${BUILD_JOBS:-2}
RECIPE=1

force=0
case "${1:-}" in
  --force) force=1 ;;
  --print) echo "helm=$BIN/helm"; exit 0 ;;
  "") ;;
  *) echo "usage: $0 [--force|--print]" >&2; exit 2 ;;
esac

mkdir -p "$BIN" "$LOGS"
command -v go >/dev/null || { echo "build-helm: 'go' is not on PATH" >&2; exit 1; }

exec 9>"$CACHE/.build-helm.lock"
flock 9

STAMP="helm.sh/helm/v3 $HELM_VERSION recipe=$RECIPE"
if [[ $force == 0 && -x $BIN/helm && -f $BIN/helm.version && "$(cat "$BIN/helm.version")" == "$STAMP" ]]; then
  echo "build-helm: helm $HELM_VERSION: cached ($BIN/helm)"
  exit 0
fi

export GOTOOLCHAIN=local GOWORK=off CGO_ENABLED=0
export GOFLAGS="-trimpath -p=$JOBS"
export GOMAXPROCS=$JOBS
export GOBIN=$BIN

log=$LOGS/helm-$HELM_VERSION.log
: >"$log"
echo "build-helm: installing helm $HELM_VERSION (log: $log)" >&2
t0=$(date +%s)

# Helm's own release build stamps its version and the Kubernetes minor it was
# built against (used as the default for `helm lint` / `helm template`
# capabilities and deprecation checks; unset, it would assume Kubernetes 1.20).
# Read the client-go version from helm's go.mod to get that minor.
gomod=$(cd "$LOGS" && go mod download -json "helm.sh/helm/v3@$HELM_VERSION" 2>>"$log" \
        | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",*$/\1/p') || true
[[ -n $gomod && -f $gomod ]] || { echo "build-helm: could not download helm.sh/helm/v3@$HELM_VERSION" >&2; tail -n 20 "$log" >&2; exit 1; }
k8s_minor=$(sed -n 's#^[[:space:]]*k8s\.io/client-go v0\.\([0-9]*\)\..*#\1#p' "$gomod" | head -n1)
[[ -n $k8s_minor ]] || { echo "build-helm: no k8s.io/client-go requirement in $gomod" >&2; exit 1; }

p=helm.sh/helm/v3
ldflags="-s -w -X $p/internal/version.version=$HELM_VERSION -X $p/internal/version.gitTreeState=clean"
for v in pkg/lint/rules pkg/chartutil; do
  ldflags+=" -X $p/$v.k8sVersionMajor=1 -X $p/$v.k8sVersionMinor=$k8s_minor"
done

rm -f "$BIN/helm.version"
if ! (cd "$LOGS" && nice -n 10 go install -ldflags="$ldflags" "$p/cmd/helm@$HELM_VERSION") >>"$log" 2>&1; then
  echo "build-helm: go install of helm $HELM_VERSION failed (last lines of $log follow)" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
echo "$STAMP" >"$BIN/helm.version"
echo "build-helm: helm $HELM_VERSION: built in $(( $(date +%s) - t0 ))s ($BIN/helm, $(du -h "$BIN/helm" | cut -f1))"
