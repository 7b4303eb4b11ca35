# clausewatch: `make run` starts the service on embedded SQLite; `make test`
# runs every test, PostgreSQL included (scripts/with-postgres.sh finds or
# starts a server, or fails saying what to install), and the portal's browser
# test (scripts/e2e.sh: Debian's Chromium, installed or named), each stage
# timed (scripts/test.sh). The list of targets: README.md, docs/development.md.
GO      ?= go
DATA    ?= ../shared/data
PKGS    := ./...
BENCHTIME ?= 2s
BENCHFLAGS ?= # e.g. -c 64 -duration 10s

.PHONY: run test tools e2e bench bench-go proof generate lint train clean

run: ## builds, saying so at least every 10 s, then the service on embedded SQLite (./data), printing where to go next
	@echo "make run: downloading Go modules (the first time only: a minute or two)"
	@./scripts/progress.sh "downloading Go modules" $(GO) mod download
	@echo "make run: compiling bin/clausewatch (the first time a few minutes; each package is named as it compiles)"
	@./scripts/progress.sh "compiling bin/clausewatch" $(GO) build -v -o bin/clausewatch ./cmd/clausewatch
	@echo "make run: starting bin/clausewatch serve"
	@./bin/clausewatch serve

test: tools ## every test, on SQLite and a real PostgreSQL, then the portal in Chromium; each stage timed (scripts/test.sh)
	@GO=$(GO) PKGS=$(PKGS) STATICCHECK=$(STATICCHECK) ./scripts/test.sh

# The tools the tests run, fetched and built once into bin/ (a version in the
# name, so changing it fetches the new one), so no test run downloads them.
STATICCHECK_VERSION := v0.8.2
STATICCHECK := bin/staticcheck-$(STATICCHECK_VERSION)

tools: $(STATICCHECK) ## staticcheck and the browser test's npm packages, once
	@./scripts/npm-ci.sh

$(STATICCHECK):
	@echo "make tools: staticcheck $(STATICCHECK_VERSION) (the first time downloads and compiles it)"
	GOBIN=$(CURDIR)/bin/tmp $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	mv bin/tmp/staticcheck $@ && rmdir bin/tmp

e2e: ## the portal's browser test alone (Debian's Chromium; screenshots at 390, 768 and 1280 px, light and dark, in /tmp/clausewatch-portal-e2e)
	./scripts/e2e.sh

bench: ## one table: clausewatch serve on loopback and PostgreSQL beside its baselines, measured in the same run (cmd/bench-load)
	./scripts/with-postgres.sh $(GO) run ./cmd/bench-load $(BENCHFLAGS)

bench-go: ## the Go benchmarks (testing.B; HTTP ones on PostgreSQL) and pgbench's baseline; compare ratios, not absolutes
	./scripts/with-postgres.sh $(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)
	@if command -v pgbench >/dev/null; then echo "pgbench baseline for BenchmarkAnalyzeBudgeted:"; ./scripts/with-postgres.sh ./scripts/pgbench-budget.sh; \
	else echo "pgbench not installed (apt-get install postgresql-client): no baseline for BenchmarkAnalyzeBudgeted"; fi

FUZZTIME ?= 15s
proof: ## five real replicas on one PostgreSQL under load, kill -9, a PostgreSQL restart and the attacks of free accounts (internal/proof), then each fuzz target for FUZZTIME
	@echo "make proof: replicas on loopback (internal/proof, build tag proof)"
	./scripts/with-postgres.sh $(GO) test -tags proof -count=1 -timeout 25m -v ./internal/proof/
	@echo "make proof: fuzzing, $(FUZZTIME) a target"
	$(GO) test -run '^$$' -fuzz '^FuzzExtract$$' -fuzztime $(FUZZTIME) ./internal/extract
	$(GO) test -run '^$$' -fuzz '^FuzzCompare$$' -fuzztime $(FUZZTIME) ./internal/change
	$(GO) test -run '^$$' -fuzz '^FuzzWellFormedKey$$' -fuzztime $(FUZZTIME) ./internal/app
	./scripts/with-postgres.sh $(GO) test -run '^$$' -fuzz '^FuzzPaymentEvent$$' -fuzztime $(FUZZTIME) ./internal/billing
	./scripts/with-postgres.sh $(GO) test -run '^$$' -fuzz '^FuzzDocument$$' -fuzztime $(FUZZTIME) ./graph
	@echo "make proof: all passed"

generate: ## regenerate GraphQL code after a schema change
	$(GO) generate ./graph/...

lint: $(STATICCHECK) ## gofmt, go vet and staticcheck
	@GO=$(GO) PKGS=$(PKGS) STATICCHECK=$(STATICCHECK) ./scripts/test.sh lint

# make eval-NAME runs cmd/eval-NAME on its data: extract, clauses, privacy,
# grades, cases (what each measures: docs/evaluation.md).
EVAL_DATA_extract := -data $(DATA)/extract
EVAL_DATA_clauses := -data $(DATA)/clauses -newer
EVAL_DATA_privacy := -data $(DATA)
EVAL_DATA_grades  := -data $(DATA)
EVAL_DATA_cases   := -data $(DATA)

eval-%: FORCE ## quality against labelled data: eval-extract, eval-clauses, eval-privacy, eval-grades, eval-cases
	@test -n "$(EVAL_DATA_$*)" || { echo "make: no evaluation named $*: extract, clauses, privacy, grades or cases"; exit 2; }
	$(GO) run ./cmd/eval-$* $(EVAL_DATA_$*)

train: ## rebuild the embedded clause, case and privacy models from shared/data and the privacy labels (deterministic; cmd/train NAME rebuilds one)
	for m in clauses cases privacy; do $(GO) run ./cmd/train -data $(DATA) $$m || exit 1; done

# A pattern rule cannot be .PHONY: FORCE makes eval-NAME run even when a
# binary of that name was left in the tree by `go build ./cmd/eval-NAME`.
FORCE:

clean: ## removes what builds and runs leave: bin/, data/, node_modules

	rm -rf bin data test-artifacts web/node_modules
