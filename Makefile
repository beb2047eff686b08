# The two commands a newcomer needs: `make run` and `make test`. Both install what they need.
SHELL := /bin/bash
.DEFAULT_GOAL := help

export MODEL_GATEWAY_CACHE ?= $(HOME)/.cache/model-gateway
export GW_VENDOR_BASE_URL ?= https://api.anthropic.com
export GW_ADMIN_TOKEN ?= local-admin-token-change-me
# Placeholder so the example starts without a key; the vendor then answers 401 (relayed as-is).
export ANTHROPIC_API_KEY ?= sk-ant-placeholder-set-ANTHROPIC_API_KEY

.PHONY: help install build run test test-deps typecheck unit integration e2e clean

help:
	@echo "make run    install, build and start gw serve on examples/gateway.yaml"
	@echo "make test   install everything the tests need and run every test"

# npm install (not npm ci): npm 11 here records only this platform's optional packages in the
# lock, which npm ci then refuses as out of sync; install still honours the pinned versions.
node_modules/.package-lock.json: package.json package-lock.json
	npm install --no-audit --no-fund --loglevel=error
	@touch $@

install: node_modules/.package-lock.json

build: install
	npm run --silent build

run: build
	node dist/cli/main.js serve -f examples/gateway.yaml --port $${GW_PORT:-8080} --admin-port $${GW_ADMIN_PORT:-9090}

test-deps:
	bash test/tools/ensure-test-deps.sh

typecheck: install
	npx tsc -p tsconfig.json --noEmit
	npx tsc -p test/tsconfig.json --noEmit

test: build test-deps typecheck
	@rc=0; npx vitest run || rc=$$?; node test/tools/summary.mjs; exit $$rc

unit: build
	npx vitest run test/unit

integration: build test-deps
	npx vitest run test/integration

e2e: build test-deps
	npx vitest run test/e2e

clean:
	rm -rf dist .test-results
