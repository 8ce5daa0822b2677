"""The fakes of :mod:`tests.fakes` satisfy the seams of :mod:`rag.protocols`, and their numbers are
the ones their docstrings say (checked here against figures worked out on paper).

Fast: no model, no Chroma, no LLM.
"""

from __future__ import annotations

import inspect
import math
from typing import Protocol, runtime_checkable

import numpy as np
import pytest

from rag.protocols import EvidenceSource, Retriever
from rag.question.asks import read_ask
from rag.text import Sentence
from rag.types import Evidence, PaperHit, Retrieval, SearchQuery
from store.papers import make_paper
from tests.fakes import DIMENSION, FakeEvidence, FakeRetriever

FOLD = make_paper(
    "fold",
    "Protein folding remains hard. We introduce FoldNet, a graph network for protein structure prediction.",
)
DOCK = make_paper("dock", "Drug discovery needs binding poses. We present DockGen, which predicts protein structure.")
SERVE = make_paper("serve", "Serving language models is costly. We propose TinyServe, a scheduler for inference.")
PAPERS = [FOLD, DOCK, SERVE]


@runtime_checkable
class _RetrieverCheck(Retriever, Protocol):
    """:class:`rag.protocols.Retriever` made checkable here, without changing the original."""


@runtime_checkable
class _EvidenceCheck(EvidenceSource, Protocol):
    """:class:`rag.protocols.EvidenceSource` made checkable here, without changing the original."""


def _members(proto: type) -> list[str]:
    """The public methods and attributes a Protocol declares."""
    return sorted({*(n for n in vars(proto) if not n.startswith("_")), *getattr(proto, "__annotations__", {})})


@pytest.mark.parametrize(
    ("proto", "fake"),
    [(Retriever, FakeRetriever(PAPERS)), (EvidenceSource, FakeEvidence(PAPERS))],
    ids=["retriever", "evidence"],
)
def test_each_fake_has_every_member_of_its_protocol_with_the_same_signature(proto, fake):
    checkable = _RetrieverCheck if proto is Retriever else _EvidenceCheck
    assert isinstance(fake, checkable)
    for name in _members(proto):
        assert hasattr(fake, name), name
        declared = vars(proto).get(name)
        if callable(declared):
            assert str(inspect.signature(getattr(type(fake), name))) == str(inspect.signature(declared)), name
    assert not isinstance(object(), checkable)  # the check can fail


def test_every_retriever_method_answers_in_the_declared_shape():
    r: Retriever = FakeRetriever(PAPERS)  # also checked by mypy, structurally
    assert set(r.papers) == {"fold", "dock", "serve"}
    assert r.embedder.dimension == DIMENSION
    got = r.search(SearchQuery("protein structure prediction"))
    assert isinstance(got, Retrieval) and all(isinstance(h, PaperHit) for h in got.hits)
    assert isinstance(r.lexical("protein", 5), dict)
    assert r.query_vectors(["a b", "c"]).shape == (2, DIMENSION)
    assert r.coverages("protein", ["fold", "serve"]) == [1.0, 0.0]
    assert r.document_frequency("protein") == 2


def test_every_evidence_method_answers_in_the_declared_shape():
    e: EvidenceSource = FakeEvidence(PAPERS)
    sents, vecs = e.sentences(FOLD)
    assert all(isinstance(s, Sentence) for s in sents) and vecs.shape == (2, DIMENSION)
    e.warm(PAPERS)
    ask = read_ask("protein structure prediction")
    assert all(isinstance(x, Evidence) for x in [*e.score(ask, FOLD), *e.select(ask, FOLD)])
    assert set(e.moves(FOLD)) == {s.start for s in sents}
    assert isinstance(e.gist(FOLD), Evidence)
    assert e.similarity(["a"], ["a", "b"]).shape == (1, 2)
    assert isinstance(e.idf("protein"), float)


# --- the retriever's numbers, on paper ----------------------------------------------------------


def test_search_ranks_by_the_share_of_the_query_terms_each_abstract_holds():
    # terms of the query: {protein, structure, prediction}. FoldNet holds all three (3/3 = 1.0),
    # DockGen "protein" and "structure" but writes "predicts", not "prediction" (2/3), TinyServe none.
    got = FakeRetriever(PAPERS).search(SearchQuery("protein structure prediction"))
    assert [(h.paper.id, h.score) for h in got.hits] == [("fold", 1.0), ("dock", pytest.approx(2 / 3)), ("serve", 0.0)]
    dock = got.hits[1]
    assert (dock.dense, dock.coverage, dock.lexical) == (pytest.approx(2 / 3),) * 3  # lexical: (2/3) / best (1.0)


def test_a_stated_name_ranks_first_and_only_label_matches_are_reported_as_names():
    query = SearchQuery("protein structure", names={"TinyServe": {"serve": 1.0}, "graph": {"fold": 0.6}},
                        unmatched=("BLEU",))
    got = FakeRetriever(PAPERS).search(query)
    assert [h.paper.id for h in got.hits] == ["serve", "fold", "dock"]  # weight 1.0, then 0.6, then none
    assert got.hits[0].name_match == 100.0
    assert got.names == {"TinyServe": ["serve"]}  # a 0.6 coined-term match is no label match
    assert got.unmatched_entities == ["BLEU"]


def test_allowed_restricts_the_hits_and_lexical_divides_by_the_best_share():
    r = FakeRetriever(PAPERS)
    assert [h.paper.id for h in r.search(SearchQuery("protein"), allowed={"dock", "serve"}).hits] == ["dock", "serve"]
    # "protein structure prediction": fold 3/3, dock 2/3 -> 1.0 and 0.667; serve holds none (left out)
    assert r.lexical("protein structure prediction", 5) == {"fold": 1.0, "dock": pytest.approx(2 / 3)}
    assert r.lexical("protein structure prediction", 1) == {"fold": 1.0}
    assert r.lexical("protein structure prediction", 5, allowed={"dock"}) == {"dock": 1.0}


def test_document_frequency_counts_abstracts_holding_every_word_in_any_case():
    r = FakeRetriever(PAPERS)
    assert r.document_frequency("PROTEIN") == 2
    assert r.document_frequency("protein structure") == 2
    assert r.document_frequency("graph network") == 1
    assert r.document_frequency("rlhf") == 0


# --- the evidence source's numbers, on paper ----------------------------------------------------


def test_sentence_scores_are_the_share_of_the_ask_terms_each_sentence_holds():
    ev = FakeEvidence(PAPERS)
    scored = ev.score(read_ask("protein structure prediction"), FOLD)
    # "We introduce FoldNet, a graph network for protein structure prediction." holds 3 of 3;
    # "Protein folding remains hard." holds "protein": 1 of 3.
    expected = [("We introduce", 1.0), ("Protein fold", pytest.approx(1 / 3))]
    assert [(e.sentence[:12], e.score) for e in scored] == expected
    assert all(FOLD.abstract[e.start : e.end] == e.sentence for e in scored)
    assert [e.sentence[:12] for e in ev.select(read_ask("protein structure prediction"), FOLD, k=2)] == [
        "Protein fold",  # abstract order, not score order
        "We introduce",
    ]
    assert ev.select(read_ask("quantum chemistry"), FOLD) == []  # no sentence holds a term


def test_cosines_are_shared_words_over_the_root_of_the_word_counts():
    ev = FakeEvidence(PAPERS)
    # 2 shared words of 3 and 4 -> 2 / sqrt(12); no shared word -> 0
    sim = ev.similarity(["protein structure prediction"], ["We predict protein structure.", "Serving is costly."])
    assert sim[0, 0] == pytest.approx(2 / math.sqrt(12), abs=1e-6)
    assert sim[0, 1] == pytest.approx(0.0, abs=1e-6)
    vecs = ev.sentences(FOLD)[1]
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0)


def test_gist_is_the_first_proposal_sentence_and_idf_counts_papers():
    ev = FakeEvidence(PAPERS)
    gist = ev.gist(FOLD)
    assert gist is not None and gist.sentence.startswith("We introduce FoldNet")
    plain = ev.gist(make_paper("x", "Graphs are common in science. This survey covers them all."))
    assert plain is not None and plain.start == 0  # no proposal sentence: the first one
    assert ev.idf("protein") == pytest.approx(math.log(1 + 3 / 3))  # 2 of 3 papers hold it
    assert ev.idf("quantum") == pytest.approx(math.log(1 + 3 / 1))  # none does


def test_sentences_are_embedded_once_per_paper():
    ev = FakeEvidence(PAPERS)
    ev.warm(PAPERS)
    ev.warm([FOLD])
    ev.score(read_ask("protein"), FOLD)
    assert ev.embedded == ["fold", "dock", "serve"]
