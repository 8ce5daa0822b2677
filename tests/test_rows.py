"""The rows of summaries and comparison tables (:func:`rag.evidence.rows.select_rows`) on the fakes:
every paper does something, so a study whose abstract never says "we propose" still has an
approach row: its own sentence with a cue of its approach ("We investigate ..."), however far its
words from the row's query; a sentence of its background never is."""

from __future__ import annotations

import pytest

from rag.evidence.rows import select_rows
from store.papers import make_paper
from tests.fakes import FakeEvidence

STUDY = make_paper(
    "study",
    "Recent trends scale language models to ever larger budgets. We investigate how far a small transformer "
    "trained for one day on one consumer card can get. We provide evidence that its accuracy follows scaling laws.",
)
SURVEY = make_paper(
    "survey",
    "Many groups study pruning of large networks. We examine which pruning criteria survive retraining on "
    "vision tasks. Magnitude pruning remains a strong baseline.",
)


@pytest.mark.parametrize(
    ("paper", "opening"),
    [(STUDY, "We investigate how far a small transformer"), (SURVEY, "We examine which pruning criteria")],
)
def test_a_study_has_an_approach_row_its_own_cued_sentence(paper, opening):
    rows = select_rows(FakeEvidence([paper]), paper)
    assert rows["approach"] and rows["approach"][0].sentence.startswith(opening), rows["approach"]


def test_a_background_sentence_is_no_approach_row():
    paper = make_paper("bg", "Many groups study pruning of large networks. Magnitude pruning remains strong.")
    assert select_rows(FakeEvidence([paper]), paper)["approach"] == ()


FOLDING = make_paper(
    "folding",
    "Protein structure predictors are slow on long chains. We propose banded attention, which skips distant "
    "residue pairs. We extensively test the proposed method and framework on three folding benchmarks, where the "
    "approach works on long chains.",
)
ACCENT = make_paper(
    "accent",
    "Speech recognisers fail on accented speech. We seek to address these limitations and challenges of "
    "accented speech recognition with accent data. We propose accent tokens, which condition the acoustic "
    "encoder on the speaker's accent. On four accented test sets, word error rate falls by 12%.",
)


def test_the_authors_testing_their_method_is_no_approach_row():
    rows = select_rows(FakeEvidence([FOLDING]), FOLDING)
    assert rows["approach"] and rows["approach"][0].sentence.startswith("We propose banded attention"), rows


def test_the_authors_remedy_is_no_problem_row():
    rows = select_rows(FakeEvidence([ACCENT]), ACCENT)
    assert all(not e.sentence.startswith("We seek to address") for e in rows["problem"]), rows["problem"]
    assert rows["problem"] and rows["problem"][0].sentence.startswith("Speech recognisers fail"), rows["problem"]


ROUTING = make_paper(
    "routing",
    "Vehicle routing is a core step of city logistics. Learned routers have improved solution quality. However, "
    "such learned routers suffer from long training and transfer poorly to unseen cities. To overcome these "
    "challenges, we cast routing as sequence modelling and present RouteFormer, trained on logged routes. First, "
    "RouteFormer can reuse logged routes to learn transferable routing policies across many cities. Second, "
    "RouteFormer adapts to new cities in minutes.",
)
THEORY = make_paper(
    "theory",
    "The main aim of this paper is to give a convergence analysis of stochastic gradient descent for wide "
    "graph networks. Here the loss couples node features through the adjacency matrix. We first establish a "
    "bound on the spectrum of the kernel matrix and show that gradient flow reaches a global minimum. Our bounds "
    "hold for any connected graph.",
)


def test_the_sentence_opening_the_contribution_is_the_approach_row():
    rows = select_rows(FakeEvidence([ROUTING]), ROUTING)
    assert rows["approach"] and rows["approach"][0].sentence.startswith("To overcome these challenges"), rows


def test_a_paper_stating_its_aim_and_its_analysis_has_problem_and_approach_rows():
    rows = select_rows(FakeEvidence([THEORY]), THEORY)
    assert rows["problem"] and rows["problem"][0].sentence.startswith("The main aim of this paper"), rows
    assert rows["approach"] and rows["approach"][0].sentence.startswith("We first establish"), rows


# A gap stated without a word of a problem: the moves of the abstract place it before the contribution
# that answers it ("To overcome this limitation, we ..."), so it is the problem row, not "not stated".
SLOW_SOLVER = make_paper(
    "slow-solver",
    "Finite element solvers have transformed structural engineering, but each design change requires "
    "re-meshing and hours of compute. To overcome this limitation, we propose MeshFree nets, which map "
    "loads to displacements directly. On twelve bridge designs, MeshFree nets are 300 times faster.",
)
PRIVACY_TAX = make_paper(
    "privacy-tax",
    "Federated recommenders keep ratings on phones, yet every round ships the whole item table to each "
    "client. In this paper, we present SliceRec, which sends each client only the rows of items it rated. "
    "SliceRec cuts upload traffic by 80% on MovieLens-1M.",
)
# An anaphor carries the gap on from a contrast before it, though it holds no cue of its own.
SPECIALISTS = make_paper(
    "specialists",
    "Foundation models answer many language tasks from one prompt. Yet molecule design comes in many "
    "forms, such as docking, retrosynthesis and property prediction. They are mostly treated as separate "
    "tasks handled by dedicated models. We show that all of them can be posed as graph edits. We design "
    "EditMol, a single graph transformer that performs these edits. EditMol beats the dedicated models on "
    "five of six tasks.",
)


@pytest.mark.parametrize(
    ("paper", "problem"),
    [
        (SLOW_SOLVER, "Finite element solvers have transformed"),
        (PRIVACY_TAX, "Federated recommenders keep ratings"),
        (SPECIALISTS, "Yet molecule design"),
    ],
)
def test_the_gap_the_contribution_answers_is_the_problem_row(paper, problem):
    rows = select_rows(FakeEvidence([paper]), paper)
    assert any(e.sentence.startswith(problem) for e in rows["problem"]), rows["problem"]


def test_a_gap_sentence_and_the_anaphor_continuing_it_are_the_gap_move():
    from rag.evidence.roles import abstract_moves

    sents = [
        "Foundation models answer many language tasks from one prompt.",
        "Yet molecule design comes in many forms, such as docking and property prediction.",
        "They are mostly treated as separate tasks handled by dedicated models.",
        "We design EditMol, a single graph transformer that performs these edits.",
    ]
    assert abstract_moves(sents) == ["background", "gap", "gap", "contribution"]
    # an anaphor after a sentence with no gap cue carries nothing: no gap, the moves stay unknown
    calm = [sents[0], "Molecule design comes in many forms.", sents[2], sents[3]]
    assert abstract_moves(calm) == ["unknown"] * 4
    # the paper speaking of itself ("This work ...") is no anaphor of the gap before it
    own = [sents[0], sents[1], "This work is motivated by drug discovery pipelines.", sents[3]]
    assert abstract_moves(own)[2] != "gap"


# The sentence that opens the contribution with "we propose" is the approach; a later one that says
# what the method and its benchmark enable is not, however many cue words it holds.
GRASP = make_paper(
    "grasp",
    "Grasping deformable objects remains difficult because their shape changes under contact. We propose "
    "SoftGrip, a tactile policy that predicts contact forces. We release a benchmark of 40 cloth items and show "
    "that SoftGrip outperforms vision-only baselines. Our method and framework enable a new approach to "
    "comparing gripper designs, and we present findings from quantitative results.",
)


def test_the_proposal_opening_the_contribution_is_the_approach_over_what_it_enables():
    rows = select_rows(FakeEvidence([GRASP]), GRASP)
    assert rows["approach"] and rows["approach"][0].sentence.startswith("We propose SoftGrip"), rows["approach"]


# --- rows hold the role they name: the main proposal, a question-form aim, data named plainly -------

SIDE_MODULE = make_paper(
    "side-module",
    "Graph transformers struggle on molecules with many rings. We propose RingFormer, which encodes each ring "
    "as one token and attends over rings. Additionally, we propose a ring-aware tokenizer that splits "
    "fused ring systems, which could be of independent interest. Experiments on three molecule benchmarks "
    "show gains.",
)
NO_GAP = make_paper(
    "no-gap",
    "Recommender systems rank items for users. Ranking with many users is studied widely. We introduce "
    "ShelfRank, a ranker that learns item shelves from co-clicks. To enable testing at scale, we develop "
    "ShelfBench, a benchmark of ten million sessions.",
)
TO_THIS_END = make_paper(
    "to-this-end",
    "Dynamic pricing from few sales remains difficult, most of all across many related stores. To this end, "
    "we fit a diffusion model to past demand curves and combine posterior sampling with the learned prior. "
    "To model sparse sales, we propose a training procedure that learns from censored demand, which could be "
    "of independent interest.",
)


@pytest.mark.parametrize(
    ("paper", "approach"),
    [
        (SIDE_MODULE, "We propose RingFormer"),  # "Additionally, we propose a ring-aware tokenizer": a part
        (NO_GAP, "We introduce ShelfRank"),  # no gap told apart, and a benchmark developed after it
        (TO_THIS_END, "To this end, we fit a diffusion model"),  # a by-product "of independent interest"
    ],
)
def test_a_contribution_beside_the_main_one_is_no_approach_row(paper, approach):
    rows = select_rows(FakeEvidence([paper]), paper)
    assert rows["approach"] and rows["approach"][0].sentence.startswith(approach), rows["approach"]


QUESTIONS = make_paper(
    "questions",
    "How do vision transformers allocate attention across layers during fine-tuning? Does this allocation "
    "depend on the pretraining data? To answer these questions, we release Lens, a suite of 40 fine-tuned "
    "checkpoints with probing tools. We find that late layers change most.",
)


def test_a_research_question_the_paper_answers_is_its_problem_row():
    rows = select_rows(FakeEvidence([QUESTIONS]), QUESTIONS)
    assert rows["problem"] and rows["problem"][0].sentence.startswith("How do vision transformers"), rows


@pytest.mark.parametrize(
    "sentence",
    [
        "We improve meta-learning, gaining +9% accuracy on Tiny-Imagenet.",
        "On the WILDS benchmark, the method trains in four hours.",
        "It reaches a perplexity of 17.1 on WikiText-103.",
    ],
)
def test_data_named_by_a_measure_or_before_its_noun_is_stated_plainly(sentence):
    from rag.evidence.rows import states_data_plainly

    assert states_data_plainly(sentence)


@pytest.mark.parametrize(
    "sentence", ["Our method focuses on ReLU networks.", "We evaluate whether the proposed loss helps."]
)
def test_a_name_after_on_that_no_measure_or_data_noun_marks_is_not_plain_data(sentence):
    from rag.evidence.rows import states_data_plainly

    assert not states_data_plainly(sentence)
