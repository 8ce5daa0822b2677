"""A question that may ask for one paper or several ("I'm looking for work on X", "What work models
X?"): the evidence decides. Papers that state the topic as plainly as the most probable one are
listed beside it; a description that only one paper states is answered by that paper alone.

A family of papers on point processes written the way abstracts are (three state Hawkes processes
for event data, one models event data otherwise), with neighbours on other processes, in a real Chroma store
with the real embedder.
"""

from __future__ import annotations

import pytest
from conftest import pipeline_of

pytestmark = pytest.mark.slow

PAPERS = {
    "tpp-transformer": (
        "Transformer Hawkes processes model event sequence data such as purchases and hospital visits. "
        "We propose TimeFormer, a transformer Hawkes process whose intensity attends over past events, and train "
        "it by score matching instead of maximum likelihood. TimeFormer improves next-event time "
        "prediction on five event sequence datasets."
    ),
    "tpp-kernels": (
        "Hawkes processes are the most widely used temporal point processes for event data. Fitting "
        "their triggering kernels is slow for long sequences. We present KernelFit, a discretized "
        "estimator of parametric Hawkes kernels that is 20x faster than exact likelihood "
        "maximization on neural spike trains."
    ),
    "tpp-network": (
        "Relational events between nodes of a network excite further events. We introduce a "
        "multivariate community Hawkes model for continuous-time networks, with self-exciting "
        "interactions between node pairs, and fit it by spectral clustering. The model reproduces "
        "triangles observed in email and message event data."
    ),
    "tpp-poisson": (
        "Counting processes underlie many models of event data. We study inhomogeneous Poisson "
        "processes with a neural rate function and give a variance-reduced estimator of their "
        "likelihood, which we compare against recurrent baselines on taxi pickup counts."
    ),
    "gp-regression": (
        "Gaussian processes give calibrated uncertainty for regression but scale cubically with the "
        "data. We propose SparseGP, an inducing-point approximation with a learned kernel that fits a "
        "million points on one GPU and matches exact Gaussian process accuracy."
    ),
    "event-camera": (
        "Event cameras report brightness changes asynchronously. We present SpikeFlow, a network that "
        "estimates optical flow from event camera streams and runs at 200 frames per second on "
        "driving benchmarks."
    ),
    "markov-chains": (
        "Markov decision processes model sequential decisions. We derive regret bounds for "
        "exploration in tabular Markov decision processes with unknown transition kernels and "
        "propose an optimistic algorithm that matches them."
    ),
    "survival": (
        "Survival analysis models the time until an event such as death or failure. We propose "
        "DeepHazard, a neural hazard model for censored time-to-event data, and evaluate it on "
        "clinical cohorts with a new concordance estimator."
    ),
}
HAWKES = {"tpp-transformer", "tpp-kernels", "tpp-network"}


@pytest.fixture(scope="module")
def family(tmp_path_factory, embedder):
    return pipeline_of(tmp_path_factory.mktemp("open_number_home"), PAPERS, embedder)


@pytest.mark.parametrize(
    "question",
    [
        "What work models event data with Hawkes processes?",
        "I'm looking for work on Hawkes processes for event data",
        "what research is there on fitting Hawkes processes to event sequences",
        # typed as in a search box: the message is its topic (AskPlan.bare)
        "Hawkes processes for event data",
        "Hawkes process models of event sequences?",
    ],
)
def test_a_topic_several_papers_state_lists_them_however_the_number_is_asked(family, question):
    ans = family.ask(question)
    assert not ans.refused, ans.text
    cited = set(ans.cited_ids)
    assert len(cited) >= 2 and cited <= HAWKES, (question, ans.text)


@pytest.mark.parametrize(
    ("question", "paper"),
    [
        ("I'm looking for work that fits the triggering kernels of Hawkes processes faster on spike trains",
         "tpp-kernels"),
        ("Is there work on a transformer Hawkes process trained by score matching rather than likelihood?",
         "tpp-transformer"),
        ("What work reproduces the triangles of email networks with a community Hawkes model?", "tpp-network"),
    ],
)
def test_a_description_only_one_paper_states_is_answered_by_it_alone(family, question, paper):
    ans = family.ask(question)
    assert not ans.refused, ans.text
    assert ans.cited_ids == [paper], (question, ans.text)


def test_a_detail_asked_of_the_paper_a_topic_describes_is_answered_of_one_paper(family):
    # the topic is stated by three papers, but "how many ... does it ..." asks a slot of one
    ans = family.ask("the transformer Hawkes process for event sequence data: on how many datasets does it improve?")
    assert not ans.refused, ans.text
    assert ans.cited_ids == ["tpp-transformer"] and "five event sequence datasets" in ans.text, ans.text


def test_a_question_about_something_of_one_paper_is_answered_by_one(family):
    # no frame names the papers asked for: "What is the main finding of ..." asks of one paper
    # (a new user's "What is the main finding of Forget Unlearning regarding prior unlearning
    # guarantees?" listed a second paper on unlearning)
    ans = family.ask("What is the main finding about Hawkes processes for event data and their kernels?")
    assert not ans.refused and len(ans.cited_ids) == 1 and ans.cited_ids[0] in HAWKES, ans.text
