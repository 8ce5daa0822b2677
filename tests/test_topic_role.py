"""A topic every alternative of which asks a rhetorical role ("formal theoretical results such as
proofs or guarantees"): the reader reads the role (:func:`rag.question.roles.required_role`) and
a paper answers only with a sentence of its own that plays it. Phrasings here are not in the eval
files."""

from __future__ import annotations

import pytest

from rag.evidence.roles import states_formal_result
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


@pytest.mark.parametrize(
    ("question", "alone"),
    [
        # the role and nothing more: every paper that states a formal result of its own answers
        ("Which papers contain a proof?", True),
        ("any abstracts with a theorem or a provable bound?", True),
        ("papers that come with formal guarantees", True),
        ("Which papers have rigorous theoretical analysis?", True),
        # an alternative that is the role alone takes in the others, joined by "or"
        ("any work with theoretical guarantees, e.g. sample complexity bounds or proofs of consistency?", True),
        # a kind of result or a subject narrows the papers
        ("which papers prove regret bounds for bandits?", False),
        ("Which papers give convergence proofs for diffusion samplers?", False),
        ("Which papers prove that their estimator is consistent?", False),
        ("Which papers study theory of mind?", False),
    ],
)
def test_a_topic_asking_theory_and_nothing_more_is_read_as_the_role_alone(question, alone):
    topic = Reader(Catalogue([])).read(question).topic
    assert topic.role == "theory"
    assert topic.role_alone is alone
    # ... and is searched with the words abstracts state a formal result with
    assert (topic.search.text != topic.text) is alone


@pytest.mark.parametrize(
    ("sentence", "formal"),
    [
        ("We derive a tight upper bound on the generalization error of the student.", True),
        ("Our method provably converges to a stationary point under mild assumptions.", True),
        ("We prove that the estimator is minimax optimal.", True),
        ("We give a convergence analysis of the proposed sampler.", True),
        # words of theory that a method or a result writes, no formal result
        ("Grounded in prospect theory, we design a reward that models loss aversion.", False),
        ("This preserves the provenance of every prediction.", False),
        ("Our approach yields consistent improvements over strong baselines.", False),
        ("The decision boundary is learned from real speech only.", False),
        ("We compute Bayes-optimal responses in the latent space.", False),
    ],
)
def test_a_formal_result_is_a_proof_a_bound_or_a_guarantee_not_a_word_of_theory(sentence, formal):
    assert states_formal_result(sentence) is formal


THEORY = {
    "Estimation of repeatedly nested expectations", "DoPR", "Agent-Omit", "PrefixRL", "Graph-based dataset pruning",
    "FOAM", "Likelihood Matching",
}
"""The seed papers whose own sentences state a proof, a bound or a guarantee ("We first establish a
theoretical lower bound on the sample complexity", "we provide a theoretical study of staleness
through the complementary lenses of convergence and stability", "Standard lower bounds show this
scaling is essentially optimal")."""


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "Which papers contain a proof?",
        "any abstracts with a theorem or a provable bound?",
        "papers that come with formal guarantees",
    ],
)
def test_a_topic_of_theory_alone_lists_every_paper_that_states_a_formal_result(extractive, question):
    # "Which papers prove a theoretical result?" was refused ("Nothing in the collection is close
    # to it", its closest paper quoted proving a bound), and "prove something" listed 3 of the 7:
    # the papers whose words are far from the question's were not candidates
    answer = extractive.ask(question)
    assert not answer.refused, answer.text
    assert {c.label for c in answer.citations} == THEORY, answer.text
    # each quoted with the sentence that states its result, not one near the question's words
    for c in answer.citations:
        assert any(states_formal_result(e.sentence) for e in c.evidence), (c.label, c.evidence)
