"""The retrieval part of the dev evaluation (no LLM): fails below the figures the product promises."""

import pytest

from conftest import DEV
from rag.eval import evaluate, load_gold

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def result(extractive):
    return evaluate(extractive.pipeline, load_gold(DEV))


def test_single_paper_questions_find_the_paper(result):
    for kind in ("named_fact", "paraphrase", "summary"):
        agg = result["by_kind"][kind]
        assert agg["recall_at_5"] >= 0.98, (kind, agg)
        assert agg["mrr"] >= 0.90, (kind, agg)


def test_no_invented_citations_and_no_errors(result):
    assert result["invented_citations"] == 0
    assert result["errors"] == 0
    assert result["by_kind"]["adversarial"]["errors"] == 0


def test_refusals_on_unanswerable_questions(result):
    assert result["by_kind"]["unanswerable"]["refusal_accuracy"] >= 0.9
    assert result["false_refusal"] <= 0.15


def test_citation_precision_overall(result):
    assert result["citation_precision"] >= 0.90
