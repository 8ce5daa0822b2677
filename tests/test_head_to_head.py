"""Head to head (``rag.route.head_to_head``) end to end: "which is better?" comparisons through the one
route (``rag.route.conversation``) over the seed corpus, extractive (``--llm none``), with the real
embedder, Chroma store and evidence selector; and the mention and shared-data checks on papers
written for the test, through the same real evidence selector.

Checks assert cited papers, exact spans and the presence of the plain statement, never the
papers' sentences themselves.
"""

from __future__ import annotations

import re

import pytest

from rag.citations import cited_numbers
from rag.pipeline import Components
from rag.route.conversation import Conversation, Turn
from rag.route.head_to_head import head_to_head, head_to_head_text
from rag.types import Citation
from store.papers import Paper, strip_markup

DANCE = "000_6b930c46f6674b66#1"
APM = "000_6b930c46f6674b66#2"

pytestmark = pytest.mark.slow  # the real bundled embedder and Chroma store


@pytest.fixture
def conv(extractive: Components) -> Conversation:
    return Conversation(extractive.pipeline)


def head_block(turn: Turn) -> str:
    """The paragraphs right after the lead: the head-to-head, then what the data allow."""
    return "\n\n".join(turn.answer.text.split("\n\n")[1:3])


def assert_quotes_are_exact(turn: Turn, components: Components, text: str) -> None:
    """Every evidence span is exact, and every sentence ``text`` quotes before a marker is one of
    that cited paper's evidence sentences."""
    by_number = {c.number: c for c in turn.citations}
    for c in turn.citations:
        paper = components.retriever.papers[c.paper_id]
        for e in c.evidence:
            assert paper.abstract[e.start : e.end] == e.sentence
    quoted = re.findall(r"“([^”]+)” \[(\d+)\]", text)
    assert quoted
    for sentence, n in quoted:
        assert sentence in {strip_markup(e.sentence) for e in by_number[int(n)].evidence}


@pytest.mark.parametrize(
    "question",
    [
        "Which is better, DANCE or APM?",
        "dance vs apm - which one comes out on top?",
        "Is APM more accurate than DANCE?",
    ],
)
def test_which_is_better_says_the_abstracts_report_no_head_to_head(conv, extractive, question):
    t = conv.ask(question)
    assert t.kind == "compare" and t.plan is not None and t.plan.verdict
    assert {c.paper_id for c in t.citations} == {DANCE, APM}
    block = head_block(t)
    first = block.splitlines()[0]
    criterion = "more accurate" if "accurate" in question else "better"  # as the question words it
    assert first.startswith("Neither abstract compares") and f"do not say which is {criterion}" in first
    n = {c.paper_id: c.number for c in t.citations}
    assert set(cited_numbers(first)) == {n[DANCE], n[APM]}
    # each paper's key result, quoted and cited by its own number
    bullets = [line for line in block.splitlines() if line.startswith("- ")]
    assert [cited_numbers(b)[-1] for b in bullets] == [c.number for c in t.citations]
    assert_quotes_are_exact(t, extractive, block)
    # DANCE reports on TAG datasets, APM on image-text and audio-text benchmarks: nothing shared
    assert "not comparable" in block
    assert t.table is not None and "| **Key results** |" in t.answer.text  # the usual table follows


def test_a_plain_comparison_has_no_head_to_head_paragraph(conv):
    t = conv.ask("compare DANCE and APM")
    assert t.kind == "compare"
    assert "directly" not in t.answer.text and "not comparable" not in t.answer.text


def test_which_wins_among_three_names_all_three(conv, extractive):
    t = conv.ask("Which performs best among DANCE, APM and SENDAI?")
    assert t.kind == "compare" and len(t.citations) == 3
    block = head_block(t)
    assert block.startswith("No abstract compares")
    assert len([line for line in block.splitlines() if line.startswith("- ")]) == 3
    assert_quotes_are_exact(t, extractive, block)


def test_a_mention_of_the_other_paper_is_quoted_and_a_shared_benchmark_named(extractive):
    """Two abstracts written for the test: the second reports a result against the first, both
    evaluate on ImageNet. Scored by the pipeline's real evidence selector."""
    first = Paper(
        "h2h-test#1",
        "Vision transformers are costly to train on large image collections. We propose GlideNet, a "
        "sparse attention scheme that skips redundant patches. On ImageNet, GlideNet reaches 81.2% top-1 "
        "accuracy while halving training time.",
        label="GlideNet",
    )
    second = Paper(
        "h2h-test#2",
        "Token pruning often harms small objects. We introduce KeepTok, which scores patches by their "
        "gradient saliency before pruning them. Experiments on ImageNet and COCO show that KeepTok "
        "improves top-1 accuracy by 1.4 points over GlideNet at the same compute budget.",
        label="KeepTok",
        aliases=("Keep Tokens",),
    )
    h2h = head_to_head(extractive.pipeline.evidence, [first, second])
    assert [(m.by, m.of) for m in h2h.mentions] == [(1, 0)]
    m = h2h.mentions[0]
    assert second.abstract[m.evidence.start : m.evidence.end] == m.evidence.sentence
    assert "GlideNet" in m.evidence.sentence
    assert "ImageNet" in h2h.shared
    cits = [Citation(1, first.id, first.label, h2h.quoted(0)), Citation(2, second.id, second.label, h2h.quoted(1))]
    text = head_to_head_text(h2h, cits)
    assert "Neither abstract" not in text
    assert f"“{strip_markup(m.evidence.sentence)}” [2]" in text
    assert "ImageNet" in text and "not comparable" not in text


@pytest.mark.parametrize("follow_up", ["which is better?", "so which one wins?", "Which is more accurate?"])
def test_which_is_better_after_a_comparison_asks_it_of_the_compared_papers(conv, follow_up):
    """A verdict question that names nothing is asked of the previous answer's papers, not refused."""
    conv.ask("compare DANCE and APM")
    turn = conv.ask(follow_up)
    assert turn.kind == "compare" and not turn.answer.refused, turn.answer.text
    assert [c.paper_id for c in turn.answer.citations][:2] == [DANCE, APM]
    assert "Neither abstract compares" in head_block(turn)


@pytest.mark.parametrize("question", ["DANCE vs APM on efficiency", "How do DANCE and APM differ in efficiency?"])
def test_a_one_word_aspect_quotes_what_each_paper_states_of_it(conv, extractive, question):
    # "Efficiency" is the paper's own cost saving ("33.42% fewer tokens", "65x storage reduction"),
    # not a sentence that merely sits near the word; the heading is the aspect, not the question.
    turn = conv.ask(question)
    text = turn.answer.text
    assert "\n**Efficiency**\n" in text, text
    block = text.split("**Efficiency**", 1)[1].split("\n\n", 1)[0]
    assert "fewer tokens" in block and "storage reduction" in block, block
    assert "not stated" not in block, block
    assert_quotes_are_exact(turn, extractive, text)
