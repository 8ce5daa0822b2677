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
