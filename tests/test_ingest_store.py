"""Ingestion into a real on-disk Chroma store: idempotence, edits, chunk spans, bad records."""

import json

import numpy as np
import pytest
from conftest import ROOT

from rag.index.embed import HashingEmbedder
from rag.index.ingest import chunk_paper, ingest_paths
from store.chroma import ChromaStore, DimensionMismatch
from store.papers import make_paper, read_seed_text


def test_ingesting_the_same_corpus_twice_adds_nothing(seed_store, embedder):
    before = seed_store.counts()
    report = ingest_paths([ROOT / "data"], seed_store, embedder)
    assert seed_store.counts() == before == (38, before[1])
    assert [(f.found, f.added, f.updated, f.unchanged, f.failed) for f in report.files] == [(19, 0, 0, 19, 0)] * 2


def test_chunks_respect_the_embedder_limit_and_keep_exact_spans(embedder):
    for f in sorted((ROOT / "data").glob("*.txt")):
        for p in read_seed_text(f).papers:
            chunks = chunk_paper(p, embedder.count_tokens, max_tokens=200, overlap=1)
            covered = set()
            for c in chunks:
                assert p.abstract[c.start : c.end] == c.text
                assert embedder.count_tokens(c.text) <= 200
                covered.update(range(c.start, c.end))
            # every non-space character of the abstract is in some chunk: nothing is cut off
            assert all(i in covered for i, ch in enumerate(p.abstract) if not ch.isspace()), p.id


def test_edited_abstract_replaces_its_chunks_and_bad_lines_are_reported(tmp_path):
    emb = HashingEmbedder()
    store = ChromaStore("pc_test_edit", path=tmp_path / "chroma")
    f = tmp_path / "mine.jsonl"
    good = {"id": "p1", "title": "T", "abstract": "We propose FOO. It works well on many tasks today."}
    f.write_text(json.dumps(good) + "\n{not json\n" + json.dumps({"id": "p2", "abstract": ""}) + "\n")
    r1 = ingest_paths([f], store, emb)
    assert (r1.files[0].added, r1.files[0].failed) == (1, 2)
    assert [p.line for p in r1.files[0].problems] == [2, 3]
    good["abstract"] = "We propose BAR. It is different. It has three sentences now."
    f.write_text(json.dumps(good) + "\n")
    r2 = ingest_paths([f], store, emb)
    assert (r2.files[0].updated, r2.papers_in_store) == (1, 1)
    docs = store.chunks.get(where={"paper_id": "p1"})["documents"]
    assert docs and all("FOO" not in d for d in docs)


def test_a_model_switch_never_mixes_vectors(tmp_path):
    store = ChromaStore("pc_test_dim", path=tmp_path / "chroma")
    p = make_paper("x#1", "We propose FOO. It is a method for testing things.")
    c = chunk_paper(p, lambda t: len(t.split()))
    store.write_papers([(p, c, np.ones((len(c), 8), dtype=np.float32) / np.sqrt(8))])
    with pytest.raises(DimensionMismatch, match="index name must change"):
        store.write_papers([(p, c, np.ones((len(c), 4), dtype=np.float32) / 2)])


def test_index_name_changes_with_model_and_chunking(seed_settings):
    a = seed_settings.index_name()
    b = seed_settings.model_copy(update={"chunking": seed_settings.chunking.model_copy(update={"max_tokens": 128})})
    c = seed_settings.model_copy(update={"embedding": seed_settings.embedding.model_copy(update={"model": "other"})})
    assert len({a, b.index_name(), c.index_name()}) == 3


def test_a_file_never_replaces_the_papers_of_another_file_with_the_same_stem(tmp_path):
    """Records without ids get ``<file stem>#<n>``: ``my.jsonl`` and ``my.csv`` would share them."""
    emb = HashingEmbedder()
    store = ChromaStore("pc_test_stem", path=tmp_path / "chroma")
    first = tmp_path / "my.jsonl"
    first.write_text(json.dumps({"title": "NoisyFed", "abstract": "We propose NoisyFed for label noise."}) + "\n")
    second = tmp_path / "my.csv"
    second.write_text("title,abstract\nQuoteNet,We propose QuoteNet for quoting sentences.\n")
    assert ingest_paths([first], store, emb).files[0].added == 1
    report = ingest_paths([second], store, emb).files[0]
    assert (report.found, report.added, report.updated, report.failed) == (1, 0, 0, 1)
    assert "already held by a paper from my.jsonl" in report.problems[0].reason
    assert [p.label for p in store.all_papers()] == ["NoisyFed"]
    again = ingest_paths([first], store, emb).files[0]  # the file that holds the id still updates it
    assert (again.unchanged, again.failed) == (1, 0)
