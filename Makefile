# clausewatch: `make run` starts the service on embedded SQLite; `make test`
# runs every test, PostgreSQL included (scripts/with-postgres.sh finds or
# starts a server, or fails saying what to install), and the portal's browser
# test (scripts/e2e.sh: npm ci and Debian's Chromium, installed or named).
GO      ?= go
DATA    ?= ../shared/data
PKGS    := ./...
BENCHTIME ?= 2s
BENCHFLAGS ?= # e.g. -c 64 -duration 10s

.PHONY: run test e2e bench bench-go proof build generate lint migrate tidy clean eval-extract eval-clauses eval-grades eval-privacy eval-cases train

run: ## builds, saying so at least every 10 s, then the service on embedded SQLite (./data), printing where to go next
	@echo "make run: downloading Go modules (the first time only: a minute or two)"
	@./scripts/progress.sh "downloading Go modules" $(GO) mod download
	@echo "make run: compiling bin/clausewatch (the first time a few minutes; each package is named as it compiles)"
	@./scripts/progress.sh "compiling bin/clausewatch" $(GO) build -v -o bin/clausewatch ./cmd/clausewatch
	@echo "make run: starting bin/clausewatch serve"
	@./bin/clausewatch serve

test: lint ## every test, on SQLite and a real PostgreSQL, then the portal in Chromium
	@echo "make test: go test -race on SQLite and PostgreSQL"
	./scripts/with-postgres.sh $(GO) test -race -count=1 -timeout 8m $(PKGS)
	@echo "make test: TestFindingsGolden without -race (four million characters analyzed; no goroutine of its own to race)"
	$(GO) test -count=1 -run '^TestFindingsGolden$$' ./internal/analyze
	@echo "make test: FuzzExtract for 20000 inputs"
	@# A count, not a duration: a time limit that ends while the fuzzer
	@# minimizes a new input fails the run with "context deadline exceeded".
	$(GO) test -run '^$$' -fuzz FuzzExtract -fuzztime 20000x ./internal/extract
	@echo "make test: the portal in Chromium (scripts/e2e.sh)"
	./scripts/e2e.sh
	@echo "make test: all passed"

e2e: ## the portal's browser test alone (Debian's Chromium; screenshots at 1280 and 390 px, light and dark, in /tmp/clausewatch-portal-e2e)
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
	./scripts/with-postgres.sh $(GO) test -run '^$$' -fuzz '^FuzzPaymentEvent$$' -fuzztime $(FUZZTIME) ./internal/app
	./scripts/with-postgres.sh $(GO) test -run '^$$' -fuzz '^FuzzDocument$$' -fuzztime $(FUZZTIME) ./graph
	@echo "make proof: all passed"

build: ## the binary in ./bin
	CGO_ENABLED=0 $(GO) build -o bin/clausewatch ./cmd/clausewatch

generate: ## regenerate GraphQL code after a schema change
	$(GO) generate ./graph/...

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: ## gofmt, go vet and staticcheck
	@echo "make lint: gofmt"
	@gofmt_out="$$(gofmt -l cmd db graph internal rest web)"; if [ -n "$$gofmt_out" ]; then echo "gofmt needed:"; echo "$$gofmt_out"; exit 1; fi
	@echo "make lint: go vet (the first time compiles every dependency, with the race detector so go test -race reuses them)"
	$(GO) vet -race $(PKGS)
	@echo "make lint: staticcheck (pinned; the first time downloads and compiles it)"
	$(GO) run $(STATICCHECK) $(PKGS)

migrate: ## apply migrations to DATABASE_URL (default: the SQLite file)
	$(GO) run ./cmd/clausewatch migrate

eval-extract: ## extraction quality on shared/data/extract, ours beside go-readability
	$(GO) run ./cmd/eval-extract -data $(DATA)/extract

eval-clauses: ## clause classifier: validation split (LexGLUE protocol), then newer.jsonl by company (cross-validated)
	$(GO) run ./cmd/eval-clauses -data $(DATA)/clauses -newer

eval-grades: ## grades against ToS;DR's on the dev services, their quotes left out of training
	$(GO) run ./cmd/eval-grades -data $(DATA)

eval-privacy: ## privacy findings paragraph by paragraph against the labelled policies (internal/analyze/testdata/privacy), the learned detector cross-validated by policy, beside the patterns alone and a keyword list
	$(GO) run ./cmd/eval-privacy -data $(DATA)

eval-cases: ## labelled ToS;DR case sentences (internal/analyze/testdata/cases): checks and counts them, then scores the analyzer's case findings on them, shipped and cross-validated by service
	$(GO) run ./cmd/eval-cases -data $(DATA)

train: ## rebuild the embedded clause, case and privacy models from shared/data and the privacy labels (deterministic)
	$(GO) run ./cmd/train-clauses -data $(DATA)/clauses
	$(GO) run ./cmd/train-cases -data $(DATA)
	$(GO) run ./cmd/train-privacy -data $(DATA)

tidy:
	$(GO) mod tidy

clean:
	rm -rf bin data test-artifacts web/node_modules
