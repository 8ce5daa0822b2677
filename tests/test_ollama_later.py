"""A page started before Ollama runs gives prose once Ollama comes up, without a restart: its default
LLM choice stays ``auto`` (as the README says) and is checked again at most every
:data:`ui.session.AUTO_RECHECK_S` seconds. Before, ``auto`` finding no LLM at start became ``none``
for as long as the page ran.

The page is served on a free port and driven by ``gradio_client`` with the page's own defaults;
Ollama is the project's stand-in server (tests/ollama_standin.py), started on the port the page was
told Ollama listens on, after the page's first answer.
"""

from __future__ import annotations

import time

import pytest
from conftest import free_port, served
from gradio_client import Client

from tests.ollama_standin import OllamaStandin

pytestmark = pytest.mark.slow  # the real embedder and Chroma store

DETAILS = 3  # the /ask output holding the answer's JSON
QUESTION = "What accuracy gain does DANCE report, and at what condensation ratio?"
REPLY = "DANCE improves accuracy by 2.33% at an 8% condensation ratio [1]."
RECHECK = 0.5
"""Seconds between checks in this test (the page's is 30 s)."""


def test_a_page_started_before_ollama_answers_with_it_once_ollama_runs(extractive, monkeypatch):
    import ui.session
    from rag.pipeline import build_pipeline

    monkeypatch.setattr(ui.session, "AUTO_RECHECK_S", RECHECK)
    port = free_port()  # where Ollama will listen, once started
    s = extractive.settings
    llm = s.llm.model_copy(update={"backend": "auto", "ollama_host": f"http://127.0.0.1:{port}"})
    settings = s.model_copy(update={"llm": llm})
    components = build_pipeline(settings, embedder=extractive.embedder, store=extractive.store)  # auto: no Ollama
    assert components.pipeline.llm is None
    with served(components) as url:
        page = Client(url, verbose=False, download_files=False)
        before = page.predict(QUESTION, api_name="/ask")  # the page's own default choices
        assert before[DETAILS]["backend"] == "none"
        with OllamaStandin(models=["llama3.2:3b"], reply=REPLY, port=port) as ollama:
            time.sleep(RECHECK + 0.2)
            after = page.predict(QUESTION, api_name="/ask")
            assert ollama.chat_requests, "the page asked Ollama"
        assert after[DETAILS]["backend"].startswith("ollama:llama3.2:3b"), after[DETAILS]["backend"]
        assert after[DETAILS]["citations"][0]["paper_id"] == "000_6b930c46f6674b66#1"


def test_the_default_choice_is_the_configured_one_and_none_still_answers_extractively(extractive):
    from ui.session import Backends

    backends = Backends(extractive, "")
    assert backends.default_backend == extractive.settings.llm.backend == "auto"
    pipeline, note = backends.resolve("none", "")
    assert pipeline is extractive.pipeline and pipeline.llm is None and "extractive" in note
