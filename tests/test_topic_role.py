"""A topic every alternative of which asks a rhetorical role ("formal theoretical results such as
proofs or guarantees"): the reader reads the role (:func:`rag.question.roles.required_role`) and
a paper answers only with a sentence of its own that plays it. Phrasings here are not in the eval
files."""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.question.reader import Reader


@pytest.mark.parametrize(
    ("question", "role"),
    [
        ("Which papers give convergence proofs or regret bounds?", "theory"),
        ("any work with theoretical guarantees, e.g. sample complexity bounds or proofs of consistency?", "theory"),
        ("Which papers prove that their estimator is consistent?", "theory"),
        # an alternative that asks no theory: the papers need not state any
        ("papers with proofs or empirical studies", ""),
        ("Which papers work on speech or audio?", ""),
        ("Which papers report results on ImageNet?", ""),  # a result is no role a topic requires
        ("Which papers study the bounded loss threshold?", ""),  # "bounded" is no bound asked
    ],
)
def test_a_topic_whose_every_alternative_asks_theory_requires_it(question, role):
    assert Reader(Catalogue([])).read(question).topic.role == role


THEORY_FREE = {"RAST-MoE", "Internal logicality underlying LLM scientific reasoning"}
"""Seed papers that state no proof, bound or guarantee, yet whose words come close to "formal
theoretical results" (a ride-hailing dispatcher; logicality of LLM scientific reasoning)."""


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "which abstracts state formal theoretical results, e.g. proofs or guarantees?",
        "Any papers with formal theoretical results such as theorems or guarantees?",
        "How many papers give formal theoretical results such as proofs or guarantees?",
    ],
)
def test_papers_with_theoretical_results_state_one_of_their_own(extractive, question):
    answer = extractive.ask(question)
    cited = {c.label for c in answer.citations}
    assert {"Likelihood Matching", "Graph-based dataset pruning", "FOAM"} <= cited, answer.text
    assert not cited & THEORY_FREE, answer.text


def test_a_description_that_uses_a_verb_of_theory_otherwise_requires_no_role():
    # proving ownership of a watermarked model is no theorem
    plan = Reader(Catalogue([])).read(
        "Which works hide a fingerprint in a trained network so that its owner can later prove a leaked copy is "
        "theirs?"
    )
    assert plan.topic.role == ""


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "which papers have theoretical guarantees or proofs?",
        "any papers with theoretical guarantees or proofs in them?",
    ],
)
def test_a_paper_whose_own_sentence_proves_something_is_listed_though_its_words_are_far(extractive, question):
    # "We prove that the PrefixRL objective is ... more sample efficient", "We first establish a
    # theoretical lower bound on the sample complexity": the words are far from "theoretical
    # guarantees or proofs" (the membership model only named them as mentioning it); the
    # sentence of their own that plays the role says they belong
    answer = extractive.ask(question)
    cited = {c.label for c in answer.citations}
    assert {"PrefixRL", "DoPR", "FOAM"} <= cited, answer.text
    assert not cited & THEORY_FREE, answer.text
