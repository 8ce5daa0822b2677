"""A count the question states that the paper's abstract contradicts is said first.

A new user asked "Why did DANCE use 16 TAG datasets?"; the answer quoted "Across 8 TAG datasets,
..." as if it confirmed the premise. Fast tests of the counts read from text
(:func:`rag.text.counted_phrases`) and of the check (:func:`rag.route.premise.contradicted_counts`),
on sentences written for them; a slow test through the one route over the seed papers. The same for
what a question of manner or reason takes as given ("how does X use Y?", :attr:`AskPlan.premise`),
a detail asked of a comparison ("which used more GPUs, X or Y?") and a message that is only its
topic (:attr:`AskPlan.seeks`): refused when no abstract states them.
"""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.question.plan import AskPlan, ComparePlan
from rag.question.reader import read_question
from rag.route.conversation import Conversation
from rag.route.premise import contradicted_counts
from rag.route.refusal import RefusalPolicy
from rag.settings import RetrievalSettings
from rag.text import counted_phrases
from store.papers import Paper
from tests.fakes import FakeEvidence, FakeRetriever


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("Why did DANCE use 16 TAG datasets?", [("16", "TAG datasets")]),
        ("our dataset features 91,581 step-level annotations", [("91581", "step-level annotations")]),
        ("Experiments in 12 languages and 3 tasks.", [("12", "languages"), ("3", "tasks")]),
        ("a 7B model improves accuracy by 2.33% and runs 3x faster", []),  # sizes, percentages, multipliers
        ("more than 650 Chinese mobile applications", []),  # a bound is no exact count
        ("Does it use up to 8 GPUs or about 16 nodes?", []),
        ("in 2023 the model was released", []),  # a number before a function word counts nothing
    ],
)
def test_counts_are_whole_numbers_with_what_they_count(text, counts):
    assert counted_phrases(text) == counts


ABSTRACT = (
    "We evaluate CondNet across 8 TAG datasets and 3 downstream tasks. Our benchmark spans more than 600 "
    "graphs. CondNet saves 40% of the tokens."
)


@pytest.mark.parametrize(
    ("question", "note"),
    [
        ("Why did CondNet use 16 TAG datasets?", "The abstract of CondNet states “8 TAG datasets”, not 16."),
        ("How does CondNet do on its 12 datasets?", "The abstract of CondNet states “8 TAG datasets”, not 12."),
        ("Why did CondNet use 8 TAG datasets?", ""),  # the premise holds
        ("Which 3 datasets does CondNet use?", ""),  # the abstract states 3 (of tasks): nothing said
        ("How many GPUs do its 16 nodes have?", ""),  # nodes: the abstract counts none
        ("Does CondNet cover 700 graphs?", ""),  # "more than 600 graphs" allows 700
        ("Does CondNet use 5 downstream tasks?", "The abstract of CondNet states “3 downstream tasks”, not 5."),
    ],
)
def test_a_count_the_abstract_states_otherwise_is_said(question, note):
    assert contradicted_counts(counted_phrases(question), ABSTRACT, "CondNet") == note


@pytest.mark.slow
def test_the_answer_opens_with_what_the_abstract_states_instead(extractive):
    ans = Conversation(extractive.pipeline).ask("Why did DANCE use 16 TAG datasets?").answer
    assert ans.text.startswith("The abstract of DANCE states “8 TAG datasets”, not 16."), ans.text
    assert ans.lead.startswith("The abstract of DANCE") and ans.text.startswith(ans.lead), ans.lead
    ans = Conversation(extractive.pipeline).ask("Across how many TAG datasets is DANCE evaluated, 8?").answer
    assert "not " not in ans.text.split("\n", 1)[0], ans.text  # nothing contradicted
    ans = Conversation(extractive.pipeline).ask("How many tasks does HyperTrack have, 16000?").answer
    assert not ans.text.startswith("The abstract of"), ans.text  # "over 16000" is a bound


# --- what a question takes as given, and details asked of a comparison ----------------------------

_PAPERS = [
    Paper("p#1", "We propose CondNet, a graph condensation method for federated learning.", label="CondNet"),
    Paper("p#2", "We propose PairDist, which distills multimodal datasets into a few pairs.", label="PairDist"),
]


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return Catalogue(_PAPERS)


@pytest.mark.parametrize(
    ("question", "premise"),
    [
        ("In what way does CondNet exploit reinforcement learning?", ("reinforcement", "learning")),
        ("why did PairDist adopt a transformer", ("transformer",)),
        ("How exactly does CondNet incorporate a memory bank?", ("memory", "bank")),
        ("How does CondNet shrink the graph?", ()),  # asks how, in words an abstract need not share
        ("Why did CondNet need 12 TAG datasets?", ("tag",)),  # a count taken as given is checked as a count
        ("Does CondNet use a transformer?", ()),  # a yes/no question answers the terms itself
        ("How many clients does CondNet need?", ()),  # an amount, not a thing taken as given
        ("Which papers use reinforcement learning?", ()),  # names no paper
    ],
)
def test_a_question_of_manner_or_reason_takes_the_thing_used_as_given(cat, question, premise):
    plan = read_question(question, cat)
    assert getattr(plan, "premise", ()) == premise, question


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("which ran on fewer GPUs, CondNet or PairDist?", "hardware or compute"),
        ("CondNet vs PairDist: whose batch sizes are larger?", "hyper-parameters"),
        ("Compare the learning rates of CondNet and PairDist", "hyper-parameters"),
    ],
)
def test_a_comparison_on_a_detail_reads_the_detail(cat, question, kind):
    plan = read_question(question, cat)
    assert isinstance(plan, ComparePlan) and plan.otherwise is not None, plan
    assert plan.otherwise.detail is not None and plan.otherwise.detail.kind == kind, question


@pytest.mark.parametrize(
    ("question", "seeks"),
    [
        ("graph condensation for speech recognition?", True),  # the topic and nothing else
        ("privacy-preserving distillation of multimodal datasets", True),
        ("what is graph condensation?", False),  # a frame asks what it is
        ("How does CondNet condense graphs?", False),  # asks of a named paper
    ],
)
def test_a_message_that_is_only_its_topic_seeks_papers_stating_all_of_it(cat, question, seeks):
    plan = read_question(question, cat)
    assert isinstance(plan, AskPlan) and plan.seeks == seeks, question


@pytest.mark.slow
def test_unstated_premises_and_details_compared_are_refused_and_stated_ones_answered(extractive):
    def ask(q: str):
        return Conversation(extractive.pipeline).ask(q).answer

    # the seed abstracts: CogRouter mentions no diffusion; no abstract of the two states its GPUs
    premise = ask("In what way does CogRouter leverage diffusion models?")
    assert premise.refused and "does not mention diffusion" in premise.text, premise.text
    compared = ask("Which ran on fewer GPUs: PrefixRL or CogRouter?")
    assert compared.refused and "CogRouter" in compared.text and "PrefixRL" in compared.text, compared.text
    # ... while a premise the abstract states, and a bare topic it holds, are answered
    assert not ask("How does CogRouter employ ACT-R theory?").refused
    assert not ask("deepfake detection for audio").refused


@pytest.mark.parametrize(
    ("question", "contrary"),
    [
        ("why does FairMix need group labels?", True),
        ("how does FairMix use group labels to reweight?", True),
        ("In what way does FairMix rely on a held-out set?", False),  # stated as used: answered
    ],
)
def test_a_premise_the_abstract_states_only_as_done_without_is_refused_as_its_contrary(question, contrary):
    # "why does AFR need group labels?" quoted an unrelated sentence; AFR upweights "without group labels"
    paper = Paper(
        "fm",
        "Spurious features hurt minority groups. We propose FairMix, which upweights the minority group without "
        "group labels. FairMix relies on a held-out set to tune one weight.",
        label="FairMix",
    )
    plan = read_question(question, Catalogue([paper]))
    assert isinstance(plan, AskPlan) and plan.premise, plan
    policy = RefusalPolicy(FakeRetriever([paper]), FakeEvidence([paper]), RetrievalSettings())
    said = policy.premise(plan, [paper])
    assert ("states the contrary" in said and "without group labels" in said) == contrary, said
    if not contrary:
        assert said == "", said
