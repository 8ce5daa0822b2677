"""A count the question states that the paper's abstract contradicts is said first.

A new user asked "Why did DANCE use 16 TAG datasets?"; the answer quoted "Across 8 TAG datasets,
..." as if it confirmed the premise. Fast tests of the counts read from text
(:func:`rag.text.counted_phrases`) and of the check (:func:`rag.route.premise.contradicted_counts`),
on sentences written for them; a slow test through the one route over the seed papers.
"""

from __future__ import annotations

import pytest

from rag.route.conversation import Conversation
from rag.route.premise import contradicted_counts
from rag.text import counted_phrases


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
