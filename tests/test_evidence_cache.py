"""The evidence selector's sentence-embedding cache: pre-embedding in the background, keeping
what was computed when a serving process rebuilds its components after an ingest, and keeping it on
disk for the next process (rag.evidence.kept)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from rag.evidence.selector import EvidenceSelector
from rag.index.embed import HashingEmbedder
from store.papers import make_paper


class CountingEmbedder(HashingEmbedder):
    """The hashing fake, counting the sentences it embeds."""

    def __init__(self) -> None:
        super().__init__()
        self.embedded: list[str] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.embedded.extend(texts)
        return super().embed(texts)


PAPERS = [
    make_paper(f"p{i}", f"We study topic {i} in depth. Our method improves accuracy by {i}%.") for i in range(7)
]


def test_warm_all_embeds_each_paper_once_and_answers_then_embed_nothing():
    emb = CountingEmbedder()
    sel = EvidenceSelector(emb, PAPERS)
    sel.warm_all(PAPERS)
    assert len(emb.embedded) == 2 * len(PAPERS)
    before = len(emb.embedded)
    for p in PAPERS:
        assert len(sel.sentences(p)[0]) == 2
    sel.warm_all(PAPERS)
    assert len(emb.embedded) == before


def test_warm_all_stops_when_asked():
    emb = CountingEmbedder()
    stop = threading.Event()
    stop.set()
    EvidenceSelector(emb, PAPERS).warm_all(PAPERS, stop=stop)
    assert emb.embedded == []


def test_a_rebuilt_selector_keeps_unchanged_papers_and_re_embeds_changed_ones():
    emb = CountingEmbedder()
    old = EvidenceSelector(emb, PAPERS)
    old.warm_all(PAPERS)
    changed = make_paper("p0", "We study another topic entirely. It works.")
    added = make_paper("p9", "We study a new topic. It helps.")
    now = [changed, *PAPERS[1:], added]
    new = EvidenceSelector(emb, now)
    assert new.adopt(old, now) == len(PAPERS) - 1
    emb.embedded.clear()
    for p in now:
        new.sentences(p)
    assert sorted(emb.embedded) == sorted(s.text for p in (changed, added) for s in new.sentences(p)[0])
    assert new.sentences(changed)[0][0].text.startswith("We study another topic entirely.")


# --- kept on disk between processes (rag.evidence.kept) ----------------------------------------


def test_sentences_kept_on_disk_are_read_instead_of_embedded_unless_the_abstract_changed(tmp_path, caplog):
    from rag.evidence import kept

    emb = CountingEmbedder()
    first = EvidenceSelector(emb, PAPERS)
    first.warm_all(PAPERS)
    path = kept.kept_path(tmp_path, "pc_test")
    assert kept.save(path, first.embedded(), emb.name, emb.dimension) == len(PAPERS)

    changed = make_paper("p0", "We study another topic entirely. It works.")
    now = [changed, *PAPERS[1:]]
    on_disk = kept.load(path, now, emb.name, emb.dimension)
    assert sorted(on_disk) == [p.id for p in PAPERS[1:]]  # p0's abstract changed
    second = EvidenceSelector(emb, now)  # as another process would
    second.use_kept(on_disk)
    emb.embedded.clear()
    for p in now:
        sents, vecs = second.sentences(p)
        if p.id != "p0":
            assert np.array_equal(vecs, first.sentences(p)[1])
    assert emb.embedded == [s.text for s in second.sentences(changed)[0]]  # only the changed abstract

    assert kept.load(path, now, "another-model", emb.dimension) == {}
    assert kept.load(tmp_path / "missing.npz", now, emb.name, emb.dimension) == {}
    path.write_bytes(b"not a numpy file")
    assert kept.load(path, now, emb.name, emb.dimension) == {} and "unreadable" in caplog.text


def test_what_is_saved_includes_kept_entries_not_used_yet(tmp_path):
    from rag.evidence import kept

    emb = CountingEmbedder()
    first = EvidenceSelector(emb, PAPERS)
    first.warm_all(PAPERS)
    path = kept.kept_path(tmp_path, "pc_test")
    kept.save(path, first.embedded(), emb.name, emb.dimension)
    second = EvidenceSelector(emb, PAPERS)
    second.use_kept(kept.load(path, PAPERS, emb.name, emb.dimension))
    second.sentences(PAPERS[0])  # one used, the others still waiting in memory
    emb.embedded.clear()
    second.warm_all(PAPERS)  # a serving process's background warming leaves kept papers to their first use
    assert emb.embedded == [] and len(second._kept) == len(PAPERS) - 1
    assert sorted(second.embedded()) == sorted(p.id for p in PAPERS)


@pytest.mark.slow
def test_a_serving_process_keeps_the_sentences_and_the_next_one_embeds_none_on_its_first_question(
    tmp_path, embedder
):
    from conftest import ROOT, pipeline_over

    from rag.pipeline import build_pipeline, prewarming
    from ui.service import timed_ask

    served = pipeline_over(tmp_path / "home", [ROOT / "data"], embedder)
    question = "Which papers use reinforcement learning?"
    cold = timed_ask(served.conversation(), question, started=time.perf_counter()).answer.timings
    assert cold.embedded > 0  # the first question of a process with nothing kept
    with prewarming(served) as thread:
        thread.join(timeout=600)  # every paper embedded, then kept in the data directory
    assert not thread.is_alive()
    assert list((tmp_path / "home" / "cache" / "index").glob("*.sentences.npz"))

    later = build_pipeline(served.settings, embedder=embedder, store=served.store, llm=None)  # the next process
    turn = timed_ask(later.conversation(), question, started=time.perf_counter())
    assert turn.answer.timings.embedded == 0 and turn.answer.timings.embedding == 0.0
    again = served.conversation().ask(question).answer
    assert turn.answer.cited_ids == again.cited_ids  # the same answer from the kept vectors
