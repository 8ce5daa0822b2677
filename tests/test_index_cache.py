"""The retriever's lexical index is kept beside the store, loaded while the collection is unchanged
and built anew after any write (real Chroma on disk, the real embedder)."""

from __future__ import annotations

import pytest
from test_page_sees_ingests import ADDED, FIRST

pytestmark = pytest.mark.slow

def _write(path, *records) -> None:
    import json

    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def test_the_index_is_loaded_while_the_collection_is_unchanged_and_rebuilt_after_a_write(
    tmp_path, embedder, monkeypatch
):
    from rag.index import cache as index_cache
    from rag.index.ingest import ingest_paths
    from rag.index.retrieve import HybridRetriever
    from rag.pipeline import open_store, prepare_environment
    from rag.question.names import NameReader
    from rag.settings import Settings

    settings = Settings(home=tmp_path / "home")
    prepare_environment(settings)
    store = open_store(settings)
    src = tmp_path / "papers.jsonl"
    _write(src, FIRST)
    ingest_paths([src], store, embedder)
    cache = tmp_path / "cache"
    built: list[int] = []
    build = index_cache.LexicalIndex.build

    def counted(papers):
        built.append(len(papers))
        return build(papers)

    monkeypatch.setattr(index_cache.LexicalIndex, "build", staticmethod(counted))

    first = HybridRetriever(store, embedder, settings.retrieval, cache_dir=cache)
    again = HybridRetriever(store, embedder, settings.retrieval, cache_dir=cache)
    assert built == [1]  # the second start loaded what the first kept
    question = "Which paper routes requests by hashing prompts?"
    assert again.lexical(question, 5) == first.lexical(question, 5) and list(again.papers) == ["p-1"]
    assert NameReader(again.catalogue).match("HashRoute")[0] == NameReader(first.catalogue).match("HashRoute")[0]

    kept = index_cache.load_or_build(store, cache)  # what a later process reads: the terms stemmed already
    assert {"hash", "request", "latenc"} <= set(kept.paper_terms["p-1"]), kept.paper_terms["p-1"]

    _write(src, FIRST, ADDED)
    ingest_paths([src], store, embedder)
    after = HybridRetriever(store, embedder, settings.retrieval, cache_dir=cache)
    assert built == [1, 2]  # the collection changed: built anew, not the kept one
    assert set(after.papers) == {"p-1", "p-2"}
    assert next(iter(after.lexical("Which paper counts zebras in aerial images?", 5))) == "p-2"

    store.set_sources({"p-2": "moved.jsonl"})  # a metadata-only write changes the key too
    HybridRetriever(store, embedder, settings.retrieval, cache_dir=cache)
    assert built == [1, 2, 2]
    assert len(list(cache.glob("*.lexical.pkl"))) == index_cache.KEEP

    for kept in cache.glob("*.lexical.pkl"):
        kept.write_bytes(b"not a pickle")  # damaged: built anew, not an error
    assert set(HybridRetriever(store, embedder, settings.retrieval, cache_dir=cache).papers) == {"p-1", "p-2"}
    assert built == [1, 2, 2, 2]
