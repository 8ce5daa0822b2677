"""The asked slot of one paper is answered by the sentence that states it of the paper, or said not
stated; a yes/no whose proposition the abstract denies is answered "No" (issue 32, item 2).

Fast unit tests on hand-written abstracts, with phrasings the fixture
(``fixtures/slot_propositions.jsonl``, run end to end by ``test_manner.py``) was not written with:

* a slot stated only in the paper's background or gap (the field's benchmarks, not the paper's) is
  not stated: :meth:`rag.route.refusal.RefusalPolicy.slot`;
* a measure that names a component of the method ("what is the reward in X?") is answered by the
  clause that names it when no figure is given: :func:`rag.route.slot.component_span`;
* a negated clause with a pronoun in the place of the question's noun phrase answers "No":
  :func:`rag.route.lead.denied_of_stand_in` through :func:`rag.route.lead.polar_verdict`;
* a word of the process written only inside the paper's name states no manner:
  :func:`rag.route.lead.manner_line`.
"""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.llm.prose import Source
from rag.question.plan import AskPlan
from rag.question.polar import polar_compounds, polar_relating, polar_terms
from rag.question.reader import read_question
from rag.route.lead import manner_line, polar_verdict
from rag.route.refusal import RefusalPolicy
from rag.route.slot import component_span
from rag.settings import RetrievalSettings
from rag.text import split_sentences
from rag.types import Evidence, PaperHit, Slot
from store.papers import Paper, make_paper
from tests.fakes import FakeEvidence, FakeRetriever

# --- a slot stated only in the field's background --------------------------------------------

ADAM = Paper(
    "ad",
    "Adaptive optimizers are attracting attention for their superior performance on large-scale vision "
    "benchmarks. However, their memory cost remains a bottleneck. We propose LeanAdam, an optimizer that "
    "keeps one moment in 8-bit precision. LeanAdam halves optimizer memory while matching convergence.",
    label="LeanAdam",
)
ROUTE = Paper(
    "ro",
    "Routing requests across model replicas is hard. We propose RouteX, a router trained with reinforcement "
    "learning. Experiments on the ShareGPT and LMSYS traces show that RouteX cuts latency by 30%.",
    label="RouteX",
)


def _slot_refusal(question: str, paper: Paper) -> str:
    plan = read_question(question, Catalogue([paper]))
    assert isinstance(plan, AskPlan) and plan.ask.slot is not None, plan
    policy = RefusalPolicy(FakeRetriever([paper]), FakeEvidence([paper]), RetrievalSettings())
    return policy.slot(plan.ask, [paper])


@pytest.mark.parametrize("question", ["Which benchmarks is LeanAdam evaluated on?", "what datasets does LeanAdam use"])
def test_data_written_only_in_the_background_is_no_data_of_the_paper(question):
    said = _slot_refusal(question, ADAM)
    assert "does not state" in said and "LeanAdam" in said, said


@pytest.mark.parametrize("question", ["Which benchmarks is RouteX evaluated on?", "what data does RouteX use?"])
def test_data_of_the_papers_own_experiments_is_stated(question):
    assert _slot_refusal(question, ROUTE) == ""


# --- a measure that names a component of the method ------------------------------------------

_REWARD = Slot("reward", ("reward",), amount=True)


@pytest.mark.parametrize(
    ("sentence", "quoted"),
    [
        ("We then train the policy with a learned preference reward from human comparisons.",
         "a learned preference reward"),
        ("The agent is optimized with sparse, task-specific rewards.", "sparse, task-specific rewards"),
        ("We use BLEU as a reward for the translation policy.", "as a reward"),
    ],
)
def test_a_reward_named_as_a_thing_of_the_method_is_stated_by_its_clause(sentence, quoted):
    span = component_span(_REWARD, sentence)
    assert span is not None and quoted in sentence[span[0] : span[1]], span


@pytest.mark.parametrize(
    "sentence",
    [
        "Sparse, outcome-based rewards make credit assignment hard.",  # no component named
        "Our method raises the average reward on Atari.",  # a measured amount, no thing named
    ],
)
def test_a_reward_only_measured_or_described_names_no_component(sentence):
    assert component_span(_REWARD, sentence) is None


def test_a_measure_that_names_no_component_is_never_stated_so():
    # "a significant accuracy" is no component: accuracy is only ever measured
    assert component_span(Slot("accuracy", ("accuracy",), amount=True), "It reaches a significant accuracy.") is None


# --- a negated clause with a pronoun in the place of the asked phrase -------------------------


def _source(abstract: str, label: str) -> tuple[Source, list]:
    paper = make_paper("p", abstract, title=label)
    sentences = split_sentences(paper.abstract)
    evidence = [Evidence("p", x.text, x.start, x.end, 1.0 - i / 10) for i, x in enumerate(sentences)]
    return Source(1, PaperHit(paper, 1.0), evidence), sentences


def _polar(abstract: str, label: str, aspect: str) -> str:
    s, sentences = _source(abstract, label)
    return polar_verdict(
        s, polar_terms(aspect), lambda e: sentences, compounds=polar_compounds(aspect), relating=polar_relating(aspect)
    ).text


PROBE = (
    "Detectors of forged images must handle unseen forgeries. We propose ProbeNet, which builds synthetic "
    "boundary probes around real images. ProbeNet tightens the decision region without labeling them as a "
    "separate fake class."
)


def test_a_pronoun_in_a_negated_clause_stands_for_the_asked_phrase():
    got = _polar(PROBE, "ProbeNet", "label unseen forgeries as a separate fake class")
    assert got.startswith("No:") and "without labeling them as a separate fake class" in got, got
    assert "“them” where the question has “unseen forgeries”" in got, got


def test_a_clause_without_negation_or_pronoun_is_no_denial():
    # "builds synthetic boundary probes" is stated plainly: no "No" from the pronoun reading
    got = _polar(PROBE, "ProbeNet", "build synthetic boundary probes")
    assert got.startswith("Yes"), got
    # the phrase asked in place of the pronoun must be written somewhere: "spoofed audio" is not
    got = _polar(PROBE, "ProbeNet", "label spoofed audio as a separate fake class")
    assert not got.startswith("No"), got


# --- a word of the process inside the paper's name -------------------------------------------


def test_a_manner_term_written_only_in_the_papers_name_states_no_process():
    abstract = ("We propose Skip-Drop, a training framework that lets agents drop stale observations. "
                "A learned gate scores each observation, and observations below a threshold are skipped.")
    s, sentences = _source(abstract, "Skip-Drop")
    line = manner_line(s, ("skip",), lambda e: sentences)
    assert "observations below a threshold are skipped" in line and "We propose Skip-Drop" not in line, line


# --- words of the yes/no vocabulary -----------------------------------------------------------


@pytest.mark.parametrize(
    ("aspect", "terms"),
    [
        ("exhibit reward hacking", ("reward", "hacking")),  # a relating verb, as "suffer from"
        ("help the critic converge", ("critic", "converge")),
    ],
)
def test_a_verb_that_only_relates_the_paper_is_no_term(aspect, terms):
    assert polar_terms(aspect) == terms


def test_a_hyphenated_verb_of_setting_aside_makes_the_mention_no_yes():
    abstract = ("Off-policy traces are cheap. We introduce TraceRL, side-stepping instabilities from "
                "using replayed traces as supervision targets.")
    got = _polar(abstract, "TraceRL", "use replayed traces as supervision targets")
    assert not got.startswith("Yes"), got


def test_a_cost_is_stated_by_the_time_it_takes():
    abstract = ("Second-order optimizers are slow. We propose LAMB-2, which refreshes its preconditioner less "
                "often. LAMB-2 reduces wall-clock time compared to standard Shampoo.")
    s, sentences = _source(abstract, "LAMB-2")
    line = manner_line(s, ("reduce", "cost", "shampoo"), lambda e: sentences)
    assert "reduces wall-clock time compared to standard Shampoo" in line and "does not state" not in line, line
