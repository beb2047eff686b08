#!/usr/bin/env bash
# End-to-end smoke test of the chart on a kind cluster (needs Docker, kind, kubectl;
# `make kind-e2e` runs it after `make kind-up kind-load tools`). Not part of `make test`:
# the test machines have no Docker engine.
#
#   KIND_CLUSTER=model-gateway IMAGE=model-gateway:dev HELM=... test/integration/chart/kind-e2e.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."

CLUSTER=${KIND_CLUSTER:-model-gateway}
IMAGE=${IMAGE:-model-gateway:dev}
HELM=${HELM:-${MODEL_GATEWAY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/model-gateway}/bin/helm}
CTX=kind-$CLUSTER
NS=model-gateway
COMPANY=kind-e2e
k() { kubectl --context "$CTX" "$@"; }

echo "kind-e2e: CRDs and chart ($IMAGE)"
k apply --server-side -f crds/
"$HELM" upgrade --install gw charts/model-gateway --kube-context "$CTX" -n "$NS" --create-namespace \
  --set image.repository="${IMAGE%:*}" --set image.tag="${IMAGE##*:}" --set image.pullPolicy=Never \
  --set redis.bundled.persistence.enabled=false --set gateway.replicas=1 --set operator.replicas=1 \
  --wait --timeout 10m

echo "kind-e2e: a company with a generated token"
k create namespace "$COMPANY" --dry-run=client -o yaml | k apply -f -
k apply -n "$COMPANY" -f - <<'YAML'
apiVersion: gw.io/v1alpha1
kind: GatewayToken
metadata:
  name: smoke
spec:
  displayName: kind e2e smoke test
YAML
k wait -n "$COMPANY" gatewaytoken/smoke --for=condition=Ready --timeout=120s
TOKEN=$(k get secret smoke-gwct -n "$COMPANY" -o jsonpath='{.data.token}' | base64 -d)

echo "kind-e2e: GET /v1/models through the Envoy Service"
k port-forward -n "$NS" svc/gw-model-gateway-gateway 18080:80 >/dev/null 2>&1 &
PF=$!
trap 'kill $PF 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -s -o /dev/null http://127.0.0.1:18080/ && break; sleep 0.2; done
status=$(curl -s -o /tmp/kind-e2e-models.json -w '%{http_code}' http://127.0.0.1:18080/v1/models -H "authorization: Bearer $TOKEN" -H 'anthropic-version: 2023-06-01')
[[ $status == 200 ]] || { echo "kind-e2e: /v1/models answered $status: $(cat /tmp/kind-e2e-models.json)" >&2; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:18080/v1/models -H 'authorization: Bearer gwct_not_a_real_token')
[[ $status == 401 ]] || { echo "kind-e2e: a bad token got $status, not 401" >&2; exit 1; }
echo "kind-e2e: ok"
