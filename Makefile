# clausewatch: `make run` starts the service on embedded SQLite; `make test`
# runs every test, PostgreSQL included (scripts/with-postgres.sh finds or
# starts a server, or fails saying what to install), and the portal's browser
# test (scripts/e2e.sh: npm ci and Debian's Chromium, installed or named).
GO      ?= go
DATA    ?= ../shared/data
PKGS    := ./...
BENCHTIME ?= 2s

.PHONY: run test e2e bench build generate lint migrate tidy clean eval-extract eval-clauses eval-grades eval-privacy train

run: ## the service on embedded SQLite (./data), printing where to go next
	$(GO) run ./cmd/clausewatch serve

test: lint ## every test, on SQLite and a real PostgreSQL, then the portal in Chromium
	./scripts/with-postgres.sh $(GO) test -race -count=1 -timeout 8m $(PKGS)
	$(GO) test -run '^$$' -fuzz FuzzExtract -fuzztime 5s ./internal/extract
	./scripts/e2e.sh

e2e: ## the portal's browser test alone (Debian's Chromium; screenshots in test-artifacts/portal)
	./scripts/e2e.sh

bench: ## benchmarks (PostgreSQL for the HTTP ones) and pgbench's baseline; compare ratios, not absolutes
	./scripts/with-postgres.sh $(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) $(PKGS)
	@if command -v pgbench >/dev/null; then echo "pgbench baseline for BenchmarkAnalyzeBudgeted:"; ./scripts/with-postgres.sh ./scripts/pgbench-budget.sh; \
	else echo "pgbench not installed (apt-get install postgresql-client): no baseline for BenchmarkAnalyzeBudgeted"; fi

build: ## the binary in ./bin
	CGO_ENABLED=0 $(GO) build -o bin/clausewatch ./cmd/clausewatch

generate: ## regenerate GraphQL code after a schema change
	$(GO) generate ./graph/...

lint: ## gofmt and go vet
	@gofmt_out="$$(gofmt -l cmd db graph internal rest web)"; if [ -n "$$gofmt_out" ]; then echo "gofmt needed:"; echo "$$gofmt_out"; exit 1; fi
	$(GO) vet $(PKGS)

migrate: ## apply migrations to DATABASE_URL (default: the SQLite file)
	$(GO) run ./cmd/clausewatch migrate

eval-extract: ## extraction quality on shared/data/extract, ours beside go-readability
	$(GO) run ./cmd/eval-extract -data $(DATA)/extract

eval-clauses: ## clause classifier: validation split (LexGLUE protocol), then newer.jsonl by company (cross-validated)
	$(GO) run ./cmd/eval-clauses -data $(DATA)/clauses -newer

eval-grades: ## grades against ToS;DR's on the dev services, their quotes left out of training
	$(GO) run ./cmd/eval-grades -data $(DATA)

eval-privacy: ## privacy findings paragraph by paragraph against the labelled policies (internal/analyze/testdata/privacy), beside a keyword list
	$(GO) run ./cmd/eval-privacy

train: ## rebuild the embedded clause and case models from shared/data (deterministic)
	$(GO) run ./cmd/train-clauses -data $(DATA)/clauses
	$(GO) run ./cmd/train-cases -data $(DATA)

tidy:
	$(GO) mod tidy

clean:
	rm -rf bin data test-artifacts web/node_modules
