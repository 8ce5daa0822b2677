"""A topic that asks for one side of a contest ("defend against ...", "detect ...", "propose new
... attacks") lists the papers whose own side is that one: a paper whose title or statement of its
contribution takes only the opposite side (an attack for a defence asked, a generator for a
detector asked) is not listed (:mod:`rag.question.stances`,
:meth:`rag.route.answer.AnswerPipeline._other_side`). Phrasings and titles here are invented or not
in the eval files."""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from rag.question.stances import asked_stances, head_stances, opposed


@pytest.mark.parametrize(
    ("topic", "asked"),
    [
        ("defend against model inversion", ("defense",)),
        ("defences for federated learning", ("defense",)),
        ("protecting face recognition from adversarial glasses", ("defense",)),
        ("detecting deepfake videos", ("defense", "detection")),
        ("design novel evasion attacks on malware classifiers", ("attack",)),
        ("new poisoning attacks", ("attack",)),
        ("attacks that steal prompts", ("attack",)),
        ("generating music from lyrics", ("generation",)),
        ("poison recommender data or defend recommenders against it", ("defense", "attack")),
        ("detecting spoofed voices and synthesizing them", ("defense", "detection", "generation")),
        # a hyphenated side word modifies the noun phrase it opens: its head is the side asked
        ("machine-generated text detection", ("defense", "detection")),
        ("AI-generated image detectors", ("defense", "detection")),
        ("GAN-generated face detection", ("defense", "detection")),
        # a side coordinated with a topic that opens with none is not asked
        ("membership inference attacks and defenses", ()),
        # a topic that only names a contest, or a kind of model, asks no side
        ("membership inference", ()),
        ("adversarial attacks on speech recognizers", ()),
        ("deep generative models of proteins", ()),
        ("new optimizers for transformers", ()),
    ],
)
def test_a_topic_asks_the_side_its_first_word_or_its_contributed_noun_takes(topic, asked):
    assert asked_stances(topic) == asked


@pytest.mark.parametrize(
    ("text", "sides"),
    [
        ("Prompt Stealing Defenses via Output Perturbation", {"defense"}),
        ("ShadowNet: Stealthy Poisoning of Code Models", {"attack"}),
        ("Spotting Deepfakes: Video Forgery Detection in the Wild", {"defense", "detection"}),
        ("Detecting Poisoned Samples with Influence Functions", {"defense", "detection"}),
        ("SongSmith: Lyrics-to-Music Generation with Diffusion", {"generation"}),
        (" a certified defense against label-flipping attacks", {"defense"}),
        (" to attack retrieval-augmented models with crafted passages", {"attack"}),
        ("Scaling Laws for Sparse Mixtures of Experts", set()),
    ],
)
def test_a_title_or_contribution_takes_the_side_of_its_head(text, sides):
    assert head_stances(text) == sides


@pytest.mark.parametrize(
    ("span", "sides"),
    [
        (" a fingerprinting scheme that stays robust to model stealing attacks", set()),
        (" ShieldNet (SN), a lightweight defensive layer for graph models", {"defense"}),
        (" an evasion attack against malware detectors", {"attack"}),
        (" a spectral signature for detecting poisoned inputs", {"defense", "detection"}),
        (" a lightweight regulariser to defend federated clients", {"defense"}),
        (" a benchmark for evaluating detectors", set()),
    ],
)
def test_a_contribution_takes_the_side_of_its_object_only(span, sides):
    assert head_stances(span, object_only=True) == sides


def test_only_a_paper_that_takes_the_opposite_side_alone_is_opposed():
    assert opposed(("defense",), frozenset({"attack"}))
    assert opposed(("defense", "detection"), frozenset({"generation"}))
    # a paper that attacks and defends, or states no side of its own, answers
    assert not opposed(("defense",), frozenset({"attack", "defense"}))
    assert not opposed(("defense",), frozenset())
    assert not opposed(("generation",), frozenset({"attack"}))
    assert not opposed((), frozenset({"attack"}))
    # both sides asked: neither is opposite
    assert not opposed(("defense", "attack"), frozenset({"attack"}))


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Which papers defend against model inversion?", ("defense",)),
        ("any work detecting deepfake videos?", ("defense", "detection")),
        ("Which papers are about membership inference?", ()),
        ("papers that poison recommender data or defend recommenders against it", ("defense", "attack")),
    ],
)
def test_the_reader_puts_the_asked_side_on_the_topic(question, asked):
    plan = Reader(Catalogue([])).read(question)
    assert isinstance(plan, AskPlan)
    assert plan.topic.stances == asked
