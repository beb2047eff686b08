# The two commands a newcomer needs: `make run` and `make test`. Both install what they need.
SHELL := /bin/bash
.DEFAULT_GOAL := help

export MODEL_GATEWAY_CACHE ?= $(HOME)/.cache/model-gateway
# make run reads ANTHROPIC_API_KEY, GW_VENDOR_BASE_URL and GW_ADMIN_TOKEN from the environment (scripts/run-local.sh):
# with neither of the first two it starts the built-in demo provider (canned answers).

.PHONY: help install build run test test-deps typecheck lint format format-check unit integration e2e test-extproc-http2 clean

help:
	@echo "make run    install, build and start gw serve on examples/gateway.yaml"
	@echo "make test   install everything the tests need and run every test"
	@echo "make bench  measure against the DESIGN budgets, Portkey and LiteLLM (bench/results/)"

# npm ci: exactly the committed lock, never rewritten. The lock carries every platform's optional
# packages; after adding a dependency, refresh it with `make lock` (a plain `npm install` over an
# existing node_modules drops other platforms' entries and npm ci then refuses the lock).
node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

install: node_modules/.package-lock.json

build: install
	npm run --silent build

run: build
	@bash scripts/run-local.sh

test-deps:
	bash test/tools/ensure-test-deps.sh

typecheck: install
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p test/tsconfig.json --noEmit

# typescript-eslint with type information (eslint.config.js); any finding fails.
lint: install
	npm run --silent lint

# Prettier over the code (.prettierrc.json); `make format` rewrites, format-check only reports.
format: install
	npm run --silent format

format-check: install
	npm run --silent format:check

# After the suite, docs/conformance.md must equal what its generator makes from the statements, the test
# titles and this run's results (`make docs-conformance` after a full run rewrites it).
test: build test-deps typecheck lint format-check
	@rc=0; npx vitest run || rc=$$?; node test/tools/summary.mjs; node scripts/gen-conformance.mjs --check || rc=1; \
	  bash test/tools/check-clean-tree.sh || rc=1; exit $$rc

# Regenerates package-lock.json with every platform's optional packages (no node_modules in the way).
.PHONY: lock
lock:
	rm -rf node_modules
	npm install --package-lock-only --no-audit --no-fund --loglevel=error
	npm ci --no-audit --no-fund --loglevel=error

unit: build
	npx vitest run test/unit

integration: build test-deps
	npx vitest run test/integration

e2e: build test-deps
	npx vitest run test/e2e

# The tests that start a built `gw extproc` again, on the node:http2 gRPC transport (docs/extproc.md);
# the in-process ext_proc tests already run on both transports in `make test`.
EXTPROC_PROCESS_TESTS = test/e2e/extproc-envoy.test.ts test/e2e/envoy-access-log.test.ts test/e2e/envoy-overload.test.ts \
	test/e2e/envoy-production-path.test.ts test/e2e/conformance.test.ts test/e2e/telemetry.test.ts test/e2e/resilience \
	test/integration/extproc/stale-socket.test.ts
test-extproc-http2: build test-deps
	GW_GRPC_TRANSPORT=http2 npx vitest run $(EXTPROC_PROCESS_TESTS)

clean:
	rm -rf dist .test-results

# --- cluster workflow (helm from Go modules; kind and Docker are not on these machines) ---
HELM ?= $(MODEL_GATEWAY_CACHE)/bin/helm
CHART := charts/model-gateway
KIND_CLUSTER ?= model-gateway
IMAGE ?= model-gateway:dev
.PHONY: tools chart-crds docs-config docs-conformance helm-lint helm-template kind-up kind-load kind-e2e bench bench-operator

tools:
	bash test/tools/build-helm.sh

chart-crds:
	cp crds/*.yaml $(CHART)/crds/

docs-config:
	node scripts/gen-config-reference.mjs

docs-conformance:
	node scripts/gen-conformance.mjs

helm-lint: tools
	$(HELM) lint --strict $(CHART)
	for f in test/fixtures/chart-values/*.yaml; do $(HELM) lint --strict $(CHART) --values $$f || exit 1; done

helm-template: tools
	$(HELM) template gw $(CHART) --namespace model-gateway $(if $(VALUES),--values $(VALUES))

kind-up:
	kind get clusters | grep -qx $(KIND_CLUSTER) || kind create cluster --name $(KIND_CLUSTER)

kind-load:
	docker build -t $(IMAGE) .
	kind load docker-image $(IMAGE) --name $(KIND_CLUSTER)

kind-e2e: kind-up kind-load tools
	KIND_CLUSTER=$(KIND_CLUSTER) IMAGE=$(IMAGE) HELM=$(HELM) bash test/integration/chart/kind-e2e.sh

# DESIGN §9 performance budgets; not part of `make test`. Installs what it needs (peers, baseline
# build), writes bench/results/<date>.md and .json and charts, the operator's figures (case s14)
# included (~45 min on a quiet machine; bench-quick ~15 min). GW_BENCH_CACHE=DIR puts the peers
# and the baseline build in DIR instead of $(MODEL_GATEWAY_CACHE) (e.g. an empty one: a fresh machine).
.PHONY: bench-quick bench-ab
bench: build
	bash bench/ensure-bench-deps.sh
	node bench/run.mjs

# Operator convergence (1,000 tokens in 20 namespaces; Redis flush to rebuilt) on a real kube-apiserver:
# writes bench/results/<date>-operator.md and .json (~3 min once the kube tools are built).
bench-operator: build
	npx vitest run --config bench/operator/vitest.config.ts

# Longer randomized Redis failover run: ROUNDS rounds (default 5) of both faults (a lagging replica's primary
# SIGKILLed, then the new primary SIGSTOPped) on Cluster and on Sentinel, a random SEED (printed; pass SEED=n to
# repeat one), through the same checker as the failover test; any broken promise fails it (docs/resilience.md).
bench-failover: build
	GW_FAILOVER_ROUNDS=$${ROUNDS:-5} GW_FAILOVER_SEED=$${SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} npx vitest run test/e2e/resilience/redis-failover.test.ts

bench-quick: build
	bash bench/ensure-bench-deps.sh
	node bench/run.mjs --quick

# Before merging anything on the hot path: this tree against REF (s3 gw serve and s5 gw extproc, both
# builds in the same interleaved rounds), CPU per stream and per exchange with the ratio's spread.
# REF is built once into the cache. ROUNDS=N (default 5). Writes bench/results/ab-<ref>.md (not kept).
bench-ab: build
	@[ -n "$(REF)" ] || { echo "usage: make bench-ab REF=<commit> [ROUNDS=5]"; exit 2; }
	node bench/ab.mjs $(REF) --rounds $${ROUNDS:-5}
