# warden — build, install and test.
#
#   make install   build, copy to $WARDEN_HOME/bin and register with Claude Code
#   make test      install missing test dependencies (apt, as root), then run
#                  vet, every Go test (unit, process, e2e with the real Claude
#                  Code CLI), the race run, the clock check and the hook
#                  start-up check, each in a home like a user's after
#                  `make install` (scripts/polluted-home.sh)
#   make bench     hook latency against /bin/true and a bare Go binary
#   make bench-serve  the daemon under 200 requests/s mixed for 20 s beside a
#                  bare net/http server, then 100k made-up methods (RSS)

GO      ?= go
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  ?= $(shell git rev-parse HEAD 2>/dev/null)
DATE    ?= $(shell git log -1 --format=%cI 2>/dev/null)
LDFLAGS := -s -w -X github.com/warden-dev/warden/internal/version.Version=$(VERSION) \
           -X github.com/warden-dev/warden/internal/version.Commit=$(COMMIT) \
           -X github.com/warden-dev/warden/internal/version.Date=$(DATE)

.PHONY: build install test test-deps vet unit race clock-check bench bench-check bench-serve serve-load-check clean docs

# Three binaries (internal/sibling). warden is the tiny front Claude Code
# starts for every hook: it hands the hook to the keeper (a warden-core
# process holding the store open) and runs warden-core for everything
# else. warden-core holds the command tree and the hook runtime.
# warden-helper carries the heavy dependencies — the daemon (`serve`,
# `task`), the MCP server (`mcp`), the judges' LLM SDK (`judge`),
# PostgreSQL, OAuth polling — so their packages' init never runs in a hook.
# Binaries of earlier builds (warden-judge, warden-serve, warden-mcp) are
# removed so nothing stale runs from bin/.
build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/warden ./cmd/warden
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/warden-core ./cmd/warden-core
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o bin/warden-helper ./cmd/warden-helper
	rm -f bin/warden-judge bin/warden-serve bin/warden-mcp

install: build
	./bin/warden install

# docs/reference/*.md are generated from the command tree, the config key
# registry and the daemon's OpenAPI document; a test fails when they differ
# from the code.
docs:
	WARDEN_TEST_UPDATE_DOCS=1 $(GO) test ./internal/cli -run TestReferenceDocsAreCurrent -count=1

# Each step runs in a home of its own that looks like a user's after
# following the README — warden installed and on PATH, a config with tempo
# on and a pacing buffer, pacing figures near the limits, transcripts, and
# a `claude` that fails first on PATH. The tests make homes of their own
# (internal/testenv.Main), so none of it may change an outcome: a test that
# leaks into the developer's home fails here, not on a user's machine.
IN_USER_HOME := ./scripts/polluted-home.sh bin env

test: test-deps vet build
	$(IN_USER_HOME) $(UNIT)
	$(IN_USER_HOME) $(RACE)
	$(IN_USER_HOME) $(CLOCK_CHECK)
	$(IN_USER_HOME) $(BENCH_CHECK)
	$(IN_USER_HOME) $(SERVE_LOAD_CHECK)

test-deps:
	@GO=$(GO) ./scripts/test-deps.sh

# -trimpath on every go command of the suite, as on make build: without
# it the build cache keys each package of this module by its directory, so
# a fresh clone (CI's, or a second checkout) compiled the whole module
# again for vet, for the tests and for the race run (vet alone took over 6
# minutes at load 25), and vet's and build's compiles of the same packages
# were not shared within a run either.
vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	$(GO) vet -trimpath ./...

# The tests run the binaries built from this tree: built once here, copied
# by each test process (internal/testenv), not linked again per package.
# scripts/pg-test.sh runs them with one PostgreSQL server for the whole
# run (WARDEN_TEST_PG_URL), stopped afterwards even when tests fail.
UNIT := WARDEN_TEST_BINARIES=$(CURDIR)/bin ./scripts/pg-test.sh $(GO) test -trimpath -count=1 -timeout 30m ./...
unit: build
	$(UNIT)

# The resident processes (hook server, daemon: scheduler, API, agents) and
# the hook runtime serve many callers in one process: their packages' tests
# run again under the race detector (in process, with concurrent clients).
RACE_PKGS := ./internal/hookserve ./internal/hook ./internal/pipeline ./internal/reqenv ./internal/detach ./internal/hookwire \
             ./internal/orchestrator ./internal/server ./internal/daemon ./internal/agent \
             ./internal/store/postgres ./internal/store/ship ./internal/store/keeper ./internal/config ./internal/pool \
             ./internal/notify ./internal/otelexport ./internal/tasksvc ./internal/replay
# -race needs cgo and a C compiler (scripts/test-deps.sh installs gcc).
RACE := CGO_ENABLED=1 WARDEN_TEST_BINARIES=$(CURDIR)/bin ./scripts/pg-test.sh $(GO) test -trimpath -race -count=1 -timeout 20m $(RACE_PKGS)
race: build
	$(RACE)

# The code that decides by the calendar (pacing's weekdays, daily usage,
# the charts) tested on a pinned Saturday and Monday in two time zones.
CLOCK_CHECK := WARDEN_TEST_BINARIES=$(CURDIR)/bin ./scripts/clock-check.sh -trimpath
clock-check: build
	$(CLOCK_CHECK)

bench:
	./bench/hook-latency/run.sh

BENCH_CHECK := ./bench/hook-latency/run.sh --check
bench-check:
	$(BENCH_CHECK)

# The daemon's load: the built binaries beside a bare net/http server, the
# same mixed load to both (bench/serve-load). The suite runs the 5 s
# version (about 20 s in all); bench-serve the full 20 s one.
SERVE_LOAD_CHECK := WARDEN_BENCH_BIN=$(CURDIR)/bin ./bench/serve-load/run.sh --short
serve-load-check: build
	$(SERVE_LOAD_CHECK)

bench-serve: build
	WARDEN_BENCH_BIN=$(CURDIR)/bin ./bench/serve-load/run.sh

clean:
	rm -rf bin

