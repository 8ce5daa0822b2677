"""The evidence selector's sentence-embedding cache: pre-embedding in the background and keeping
what was computed when a serving process rebuilds its components after an ingest."""

from __future__ import annotations

import threading

import numpy as np

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
