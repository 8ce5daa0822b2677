"""A message that asks several things answers every one, and a comparison answers the aspect asked.

Issue 32 ("What to build" item 5, case 7): "Which paper uses graph neural networks to solve SAT, and
what result does it report?" was answered for its first ask only. An ask is a clause with its own
question frame or slot, whether joined by "and", by ";" or written as a second sentence; a paper the
first ask finds is the referent of "it" in the next (:mod:`rag.question.reader`,
:func:`rag.question.parts.question_parts`). A part that asks a role in generic words ("what does it
report?", "what do they find?") asks the paper's results (vocabulary ``result_cue`` of
``roles.toml``, ``row_results`` of ``asks.toml``); "what dataset does it release?" asks the dataset
the paper introduces, not whether its data is online (``artifact_asked``). A comparison or summary
quotes, in its approach row, the sentence that proposes the paper's method, not a study that leads to
it (:func:`rag.evidence.rows.select_rows`).

The phrasings here are none of ``fixtures/multi_asks.jsonl``'s (the set these changes were measured
on): the class, on other words.
"""

from __future__ import annotations

import re

import pytest

from rag.index.catalogue import Catalogue
from rag.question.asks import read_ask
from rag.question.parts import asked_parts, question_parts
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from rag.question.roles import question_roles
from store.papers import make_paper

CURRICULUM = make_paper(
    "curriculum",
    "Robot hands struggle with long tasks. We propose HandCoach, a curriculum that first drives the object "
    "for the policy. We release a simulation benchmark of twenty bimanual tasks.",
)


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader(Catalogue([CURRICULUM]))


def _plan(reader: Reader, message: str) -> AskPlan:
    plan = reader.read(message)
    assert isinstance(plan, AskPlan), plan
    return plan


# --- reading: each ask is a part, the first one's topic is its own ------------------------------


@pytest.mark.parametrize(
    ("message", "topic"),
    [
        ("Which paper forecasts demand from few examples? What does it report?", "forecasts demand from few examples"),
        ("Is there a paper on protein folding, and what do they find?", "protein folding"),
        ("Which work detects synthetic speech; what does the paper report?", "detects synthetic speech"),
    ],
)
def test_a_later_ask_in_generic_words_is_no_word_of_the_first_asks_topic(reader, message, topic):
    # was: "forecasts demand from few examples? What does it report" as the topic, and one part
    plan = _plan(reader, message)
    assert plan.topic.text == topic
    assert len(plan.aspects) == 2 and "result" in plan.aspects[1].roles


@pytest.mark.parametrize(
    "message",
    [
        "Is there work on ride-hailing order matching? How big is its model?",
        "Any research on glacier calving from radar images, and what data does it use?",
    ],
)
def test_a_later_ask_of_it_makes_the_first_seek_one_paper(reader, message):
    # was: "work"/"research" read as a list of papers, "it" dropped, the second ask unanswered
    plan = _plan(reader, message)
    assert plan.topic.number != "many"
    assert any(r.kind == "pronoun" for r in plan.refs)


def test_a_sentence_that_seeks_a_paper_by_description_stays_a_part_of_its_own():
    # was: ["Find . What does it propose", ...]: the description cut out of the first sentence
    message = "Look for the paper on bimanual robot curricula. What does it propose, and how is it tested?"
    assert asked_parts(message) == [
        "Look for the paper on bimanual robot curricula", "What does it propose", "how is it tested?",
    ]
    assert question_parts(message)[0] == "Look for the paper on bimanual robot curricula"
    # one sentence keeps its description out of what is asked, as before
    assert question_parts("In the bimanual robot curricula paper, which physics simulator runs the tasks?") == [
        "which physics simulator runs the tasks?"
    ]


def test_a_verb_of_reporting_asks_the_results():
    for part in ["what do they find", "What did the authors find?", "what does this paper report?", "its key findings"]:
        assert "result" in question_roles(part), part
        ask = read_ask(part)
        assert ask.slot is None or ask.slot.name not in ("find", "report"), (part, ask.slot)
    # reporting on data, or finding a paper, asks no results
    for part in ["which benchmarks does HandCoach report on?", "find the paper on robot hands"]:
        assert "result" not in question_roles(part), part


def test_which_artifact_is_released_is_asked_apart_from_whether_one_is_available():
    asked = {
        "what benchmark does it release?": "",
        "and which dataset do they release": "",
        "does it release its dataset?": "data",
        "is the code available": "code",
    }
    assert {part: read_ask(part).available for part in asked} == asked


def test_what_a_named_paper_is_stays_a_part_when_more_is_asked(reader):
    # was: "What is HandCoach" dropped (nothing left once the name goes), its proposal never quoted
    plan = _plan(reader, "What is HandCoach, and how many tasks does it cover?")
    assert len(plan.aspects) == 2
    assert plan.aspects[0].row == "approach" and "method" in plan.aspects[0].roles


# --- answers over the seed papers -----------------------------------------------------------------


def _lead(extractive, question: str) -> str:
    answer = extractive.ask(question)
    assert not answer.refused, answer.text
    return re.sub(r"\s+", " ", answer.text.split("\n\nEvidence:")[0].replace("*", ""))


@pytest.mark.parametrize(
    ("question", "must", "must_not"),
    [
        # a second sentence that asks a measure of "its" model (was: a list of one paper, no size)
        ("Is there research on ride-hailing order matching? How many parameters does its model have?",
         ["RAST-MoE", "12M"], []),
        # "what does it report" asks results (was: only the proposal sentence)
        ("Which paper detects audio deepfakes using only real speech? What does it report?",
         ["CA-SOADD", "outperforms strong baselines"], []),
        # "which dataset does it release" asks what it introduces (was: "does not say its data is available")
        ("Which paper assembles shapes step by step for text-to-image generation; which dataset does it release?",
         ["SoT", "SoT-26K, a large-scale dataset"], ["is available"]),
        # what a named paper is, then a second ask (was: only the second answered)
        ("What's DANCE, and on how many datasets is it evaluated?", ["we propose DANCE", "8 TAG datasets"], []),
        # a verb of finding (was: method sentences of DANCE)
        ("Is there a paper on federated graph condensation with LLM summaries? What do they find?",
         ["DANCE", "improves accuracy by 2.33%"], []),
    ],
)
def test_each_ask_of_a_message_is_answered_in_the_lead(extractive, question, must, must_not):
    lead = _lead(extractive, question)
    assert all(m in lead for m in must), lead
    assert not any(m in lead for m in must_not), lead


@pytest.mark.parametrize(
    "question", ["CogRouter vs Agent-Omit: how do they differ?", "Give me an overview of Agent-Omit"]
)
def test_the_approach_row_quotes_the_proposal_not_the_study_that_leads_to_it(extractive, question):
    # was: "To this end, we first conduct quantitative investigations into how thought and
    # observation affect agent effectiveness and efficiency." as Agent-Omit's approach
    text = extractive.ask(question).text.split("\n\nEvidence:")[0]
    row = next(line for line in text.splitlines() if "Approach" in line)
    assert "we propose Agent-Omit" in row and "quantitative investigations" not in row, row
