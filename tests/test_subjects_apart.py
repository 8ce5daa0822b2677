"""A long topic that names two subjects the collection holds only in different papers is refused,
naming the closest paper for each; one that some paper states whole, or that describes one paper,
is answered (:meth:`rag.route.refusal.RefusalPolicy.subjects_apart`, and the parts check reading a
subject the collection writes as a phrase: :meth:`rag.route.refusal.RefusalPolicy.parts`).

A real store with the real embedder: the 38 seed papers and 20 ICML 2022-23 papers
(``fixtures/library_subjects_apart.jsonl``: spiking neural networks, Hawkes processes, GFlowNets,
federated learning, one of which distils an ensemble in federated learning). The questions restate
their subjects at length (a spaced dash, a relative clause, "i.e."), past ``part_max_terms``.
The check reads subjects in a library (``SUBJECTS_APART_MIN_PAPERS``, 1,000 papers: too many to
index here); its gate is lowered to this collection's 58 papers, the rest of the route as served.
"""

from __future__ import annotations

import pytest
from conftest import FIXTURES, ROOT, pipeline_over

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def collection(tmp_path_factory, embedder):
    return pipeline_over(
        tmp_path_factory.mktemp("subjects_apart"), [ROOT / "data", FIXTURES / "library_subjects_apart.jsonl"], embedder
    )


@pytest.fixture
def library(collection, monkeypatch):
    import rag.route.refusal as refusal

    monkeypatch.setattr(refusal, "SUBJECTS_APART_MIN_PAPERS", 50)
    return collection


def test_a_few_dozen_abstracts_are_no_library(collection):
    answer = collection.ask(
        "spiking neural networks trained with federated learning - keeping each device's data local while "
        "training brain-inspired models. any papers?"
    )
    assert not answer.refused


@pytest.mark.parametrize(
    ("question", "subjects"),
    [
        (
            "spiking neural networks trained with federated learning - keeping each device's data local while "
            "training brain-inspired models. any papers?",
            ("spiking neural networks", "federated learning"),
        ),
        (
            "Has anybody modelled Hawkes processes with generative flow networks, i.e. sampling event sequences "
            "from a flow network in proportion to how well they explain the observed cascades?",
            ("Hawkes processes", "generative flow networks"),
        ),
        (
            "I'm looking for work on spiking neural networks for Hawkes process modelling - reading spike trains "
            "as self-exciting point processes over time",
            ("spiking neural networks", "Hawkes"),
        ),
    ],
)
def test_subjects_held_apart_are_refused_naming_the_closest_of_each(library, question, subjects):
    answer = library.ask(question)
    assert answer.refused, answer.text
    assert not answer.citations
    for s in subjects:
        assert s.lower() in answer.text.lower()


def test_a_long_topic_a_paper_states_whole_is_answered(library):
    answer = library.ask(
        "papers that combine federated learning with knowledge distillation - clients and a server exchanging "
        "soft predictions or an ensemble teacher instead of raw weights"
    )
    assert not answer.refused, answer.text
    assert "icml-2263234076b9" in [c.paper_id for c in answer.citations]


def test_a_long_description_of_one_paper_is_answered_by_it(library):
    answer = library.ask(
        "Which paper converts trained artificial neural networks into spiking neural networks with low "
        "conversion error and few time steps?"
    )
    assert not answer.refused, answer.text
    assert answer.citations[0].paper_id == "icml-bec33e7283d0"
