"""Stages a topic puts in order ("supervised fine-tuning first and then RL"): the reader reads them
(:func:`rag.question.parts.topic_stages`) and a paper that states them only side by side or
compared does not answer (:func:`rag.route.stages.side_by_side`). Phrasings here are not in the
eval files."""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.lexicon import Lexicon
from rag.question.parts import topic_stages
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from rag.route.stages import side_by_side
from rag.text import split_sentences


@pytest.mark.parametrize(
    ("topic", "stages"),
    [
        ("pretraining on synthetic data followed by fine-tuning on real images", (
            "pretraining synthetic data", "fine-tuning real images")),
        ("prune first and only then quantize", ("prune", "quantize")),
        ("distillation -> pruning pipelines", ("distillation", "pruning")),
        ("contrastive pretraining, then a supervised stage", ("contrastive pretraining", "supervised")),
        # no order: alternatives, a pair, a word that only says "first"
        ("speech or audio", ()),
        ("supervised and reinforcement-based finetuning", ()),
        ("the first method for audio deepfakes", ()),
        # a stage of stage words only names nothing
        ("training, then a second stage", ()),
    ],
)
def test_a_topic_that_puts_stages_in_order_is_read_as_its_stages(topic, stages):
    assert topic_stages(topic) == stages


def test_the_reader_puts_the_stages_on_the_topic():
    plan = Reader(Catalogue([])).read("Which papers pretrain with masked modelling and only then apply RL?")
    assert isinstance(plan, AskPlan)
    assert plan.topic.stages == ("pretrain masked modelling", "RL")
    assert Reader(Catalogue([])).read("Which papers use masked modelling or RL?").topic.stages == ()


CHAINS = (
    "Dialogue agents are brittle. We train Lumen in two stages: supervised fine-tuning on curated dialogues, "
    "followed by reinforcement learning from user feedback. Lumen beats strong chat baselines."
)
COMPARES = (
    "Which recipe generalizes? We compare supervised fine-tuning with reinforcement learning on twelve tasks. "
    "Reinforcement learning generalizes better out of domain."
)
OTHER_WORDS = (
    "Agents waste steps. We first fine-tune the agent on cold-start traces and then optimise its policy "
    "with rewards. It finishes tasks in fewer steps."
)


@pytest.mark.parametrize(
    ("abstract", "apart"),
    [
        (CHAINS, False),  # "in two stages ... followed by"
        (COMPARES, True),  # both stated, compared, never chained
        (OTHER_WORDS, False),  # no term of "reinforcement learning": judged by the membership model
    ],
)
def test_a_paper_that_states_both_stages_only_side_by_side_does_not_chain_them(abstract, apart):
    stages = ("supervised fine-tuning", "reinforcement learning")
    sentences = split_sentences(abstract)
    assert side_by_side(stages, sentences) is apart
    # the collection's forms: "SFT" and "RL" are stated by their long forms, and the other way round
    lexicon = Lexicon([CHAINS, COMPARES, OTHER_WORDS])
    assert side_by_side(("SFT", "RL"), sentences, lexicon) is apart


@pytest.mark.slow
def test_which_papers_chain_two_stages_cites_the_chaining_paper_and_names_the_comparing_one(tmp_path, embedder):
    from tests.conftest import pipeline_of

    pipeline = pipeline_of(
        tmp_path,
        {
            "chains": CHAINS,
            "compares": COMPARES,
            "speech": "Calls are noisy. We present a speech recognition model for calls and video meetings.",
            "graphs": "Molecules are graphs. We propose MolGT, graph transformers for molecular property prediction.",
        },
        embedder,
    )
    answer = pipeline.ask("Which papers use supervised fine-tuning followed by reinforcement learning?")
    assert [c.paper_id for c in answer.citations] == ["chains"], answer.text
    assert "without being clearly about it" in answer.text and "compares" not in {
        c.paper_id for c in answer.citations
    }
