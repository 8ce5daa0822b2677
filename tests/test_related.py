"""Related papers, fast: how "papers like X" is read (phrasings the vocabulary rows were not written
for), and that a question that only mentions likeness stays what it was. No embedder, no store."""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.question.plan import AskPlan, SimilarPlan, SummaryPlan
from rag.question.reader import Reader
from rag.question.related import asks_similar
from store.papers import Paper

PAPERS = [
    Paper("a#1", "We propose DANCE, a graph condensation method for federated learning.", label="DANCE"),
    Paper("a#2", "We propose APM, which distills multimodal datasets into a few pairs.", label="APM"),
    Paper("a#3", "We introduce CogRouter, which routes agents between thinking modes.", label="CogRouter"),
    Paper("a#4", "We present a ride-hailing dispatch policy trained with reinforcement learning.", label="RAST-MoE"),
]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader(Catalogue(PAPERS))


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        ("Papers like DANCE?", ("a#1",)),
        ("Can you find work similar to APM", ("a#2",)),
        ("anything related to CogRouter in my library?", ("a#3",)),
        ("which other papers resemble DANCE", ("a#1",)),
        ("I'd like more stuff in the vein of APM", ("a#2",)),
        ("give me papers comparable to CogRouter", ("a#3",)),
        ("What are the nearest neighbours of DANCE?", ("a#1",)),
        ("more like [3]", ()),  # a number of the conversation: resolved by the route
        ("show me similar work to it", ()),  # "it": the paper of the last answer
    ],
)
def test_papers_like_one_paper_are_read_as_a_similar_plan(reader, question, ids):
    plan = reader.read(question)
    assert isinstance(plan, SimilarPlan), (question, type(plan).__name__)
    assert plan.intent == "similar"
    assert plan.named_ids == ids


def test_a_described_paper_is_kept_as_the_description(reader):
    plan = reader.read("recommend papers similar to the ride-hailing paper")
    assert isinstance(plan, SimilarPlan)
    assert plan.described == "the ride-hailing paper"


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Is DANCE similar to APM?", AskPlan),  # two papers: whether one is like the other
        ("What does DANCE look like in practice?", AskPlan),  # "look like" asks something of DANCE
        ("Which papers use methods like reinforcement learning?", AskPlan),  # no paper: a topic
        ("papers similar to DANCE that use diffusion", AskPlan),  # more is asked than likeness
        ("Summarize APM", SummaryPlan),
        ("How is CogRouter related to mixture of experts?", AskPlan),
    ],
)
def test_a_question_that_only_mentions_likeness_is_not_a_similar_plan(reader, question, kind):
    assert type(reader.read(question)) is kind


def test_asks_similar_needs_a_likeness_word_and_nothing_else_asked():
    assert asks_similar("more papers like DANCE", ["DANCE"])
    assert asks_similar("Recommend further studies akin to DANCE, please", ["DANCE"])
    assert not asks_similar("papers on DANCE", ["DANCE"])  # no likeness word
    assert not asks_similar("papers like DANCE with better accuracy", ["DANCE"])  # "accuracy" asked
