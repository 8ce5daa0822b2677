"""A "which papers" list on a topic that is a term: each listed paper writes the term (or states the
rest of the topic in a sentence); the others are named as mentioning it, and the list is never
refused for it (rag.route.answer.AnswerPipeline._not_stating, rag.route.membership.term_core)."""

from __future__ import annotations

import pytest

from rag.evidence.roles import without_examples
from rag.lexicon import states_phrase
from rag.route.membership import TERM_CORE_SHARE, Membership, term_core
from store.papers import make_paper
from tests.fakes import FakeEvidence, FakeRetriever

# shares of the 3,136 library abstracts (rag.index document frequencies / 3,136)
SHARES = {
    "neural": 0.26, "scaling": 0.14, "laws": 0.011, "computational": 0.239, "antibody": 0.002,
    "design": 0.18, "dataset": 0.258, "distillation": 0.022, "build": 0.078, "mixture-of-experts": 0.002,
    "models": 0.581, "test-time": 0.009, "adaptation": 0.131, "data": 0.548, "valuation": 0.003,
    "deep": 0.17, "learning": 0.641, "defenses": 0.2, "autonomous": 0.009, "driving": 0.039,
}


@pytest.mark.parametrize(
    ("term", "core"),
    [
        ("neural scaling laws", "scaling laws"),  # one rare word keeps the word before it, at the end
        ("computational antibody design", "antibody design"),  # ... or the word after it
        ("dataset distillation", "dataset distillation"),
        ("build mixture-of-experts models", "mixture-of-experts"),  # a hyphenated compound stands alone
        ("test-time adaptation", "test-time adaptation"),  # ... with a specific word after it
        ("test-time defenses", "test-time"),
        ("data valuation", "data valuation"),
        ("autonomous driving", "autonomous driving"),  # from the first rare word to the last
        ("deep learning", "deep learning"),  # no rare word: the term itself
    ],
)
def test_the_core_of_a_term_is_its_rare_words_with_a_neighbour(term, core):
    assert all(SHARES[w] > TERM_CORE_SHARE for w in ("scaling", "design", "dataset", "build", "models"))
    assert term_core(term, lambda w: SHARES[w.lower()]) == core


@pytest.mark.parametrize(
    ("phrase", "text", "inserted", "states"),
    [
        ("mixture-of-experts models", "Mixture-of-Experts (MoE) models have become promising", 1, True),
        ("mixture-of-experts models", "Mixture-of-Experts (MoE) models have become promising", 0, False),
        ("diffusion models", "masked diffusion language models decode in parallel", 1, True),
        ("scaling laws", "they do not obey conservation laws", 1, False),
        ("scaling laws", "scaling the model obeys power laws", 1, False),  # two words between
        ("dataset distillation", "distillation of a teacher on three datasets", 1, False),  # not in order
    ],
)
def test_a_phrase_may_be_written_with_words_inside_it(phrase, text, inserted, states):
    assert states_phrase(phrase, text, inserted) is states


FILLER = [make_paper(f"f{i}", f"We build bandit models number {i} with side information.") for i in range(40)]
"""Forty abstracts that write "build" (a frame verb a question may leave in a term: 7.8% of the library)
and "models" (58%)."""
WRITERS = [
    make_paper("laws", "Neural language models follow scaling laws in data and compute."),
    make_paper("physics", "Neural networks learn the conservation laws of physical systems."),
    make_paper("robust", "Neural networks obey a law of robustness."),
    make_paper("dd", "Dataset distillation compresses a training set into a few synthetic images."),
    make_paper("kd", "We propose a task-aware layer-wise distillation of language models on three datasets."),
    make_paper("moe", "GLaM uses a sparsely activated mixture-of-experts architecture to scale models."),
    make_paper("experts", "We adapt to the knowledge of experts in collective decision making."),
]


@pytest.mark.parametrize(
    ("term", "pid", "writes"),
    [
        ("neural scaling laws", "laws", True),
        ("neural scaling laws", "physics", False),
        ("neural scaling laws", "robust", False),
        ("dataset distillation", "dd", True),
        ("dataset distillation", "kd", False),  # "distillation" and "datasets" apart
        ("build mixture-of-experts models", "moe", True),  # the frame verb left in the term is not its core
        ("build mixture-of-experts models", "experts", False),
    ],
)
def test_a_paper_writes_a_term_by_its_core_side_by_side(term, pid, writes):
    papers = [*WRITERS, *FILLER]
    membership = Membership(FakeRetriever(papers), FakeEvidence(papers), depth=40)
    paper = next(p for p in papers if p.id == pid)
    assert membership.writes_term(term, paper.text_for_index) is writes


@pytest.mark.parametrize(
    ("sentence", "left"),
    [
        (
            "3D point clouds serve as a crucial data representation in numerous real-world applications such as "
            "autonomous driving, robotics, and medical imaging.",
            "3D point clouds serve as a crucial data representation in numerous real-world applications .",
        ),
        (
            "Contexts are independent of action signals, e.g., customer demand, speed of lead car in autonomous "
            "driving, etc. One challenge remains.",
            "Contexts are independent of action signals, . One challenge remains.",
        ),
        (
            "Risky in high-stake scenarios like healthcare and autonomous driving; we avoid it.",
            "Risky in high-stake scenarios ; we avoid it.",
        ),
        ("We test on autonomous driving tasks in simulation.", "We test on autonomous driving tasks in simulation."),
        (
            # no last item ("and ...", "etc."): the list is the one item before the next comma
            "While prior VLM research has primarily focused on reasoning tasks like visual question answering, "
            "multimodal embedding learning, a key component for large-scale retrieval, has received less attention.",
            "While prior VLM research has primarily focused on reasoning tasks  multimodal embedding learning, "
            "a key component for large-scale retrieval, has received less attention.",
        ),
    ],
)
def test_a_sentence_without_its_lists_of_examples(sentence, left):
    assert without_examples(sentence) == left


# --- on real ICML 2022-23 abstracts ---------------------------------------------------------------

LAW_TITLES = (
    # about neural scaling laws
    "Data Efficient Neural Scaling Law via Model Reusing",
    "Scaling Laws for Multilingual Neural Machine Translation",
    "Data Scaling Laws in NMT",
    "Scaling Laws for Generative Mixed-Modal Language Models",
    "Unified Scaling Laws for Routed Language Models",
    "TAN Without a Burn: Scaling Laws of DP-SGD",
    # the "laws" of physics and of robustness, which the embedder puts near it
    "ConCerNet",
    "Learning Neural Constitutive Laws",
    "Learning Physical Models that Can Respect Conservation Laws",
    "Beyond the Universal Law of Robustness",
    # distillation: of datasets, and of models
    "Dataset Distillation with Convexified Implicit Gradients",
    "Scaling Up Dataset Distillation to ImageNet-1K with Constant Memory",
    "Towards Understanding Ensemble Distillation in Federated Learning",
    "Spatial-Channel Token Distillation for Vision MLPs",
    "Less is More: Task-aware Layer-wise Distillation for Language Model Compression",
    "Understanding the Distillation Process from Deep Generative Models to Tractable Probabilistic Circuits",
    # autonomous driving: its subject, and named among examples of applications
    "Addressing Optimism Bias in Sequence Modeling for Reinforcement Learning",
    "VectorMapNet",
    "A Critical Revisit of Adversarial Robustness in 3D Point Cloud Recognition",  # PointDP
    "Robust Situational Reinforcement Learning in Face of Context Disturbances",
    # others
    "Model soups",
    "FlexGen",
    "ClimaX",
)
SCALING_LAWS = LAW_TITLES[:6]
DATASET_DISTILLATION = LAW_TITLES[10:12]
AUTONOMOUS_DRIVING = LAW_TITLES[16:18]


@pytest.fixture(scope="module")
def terms_store(tmp_path_factory, embedder):
    """A real store of 23 ICML 2022-23 papers of the project's corpus (see :data:`LAW_TITLES`)."""
    import gzip
    import json

    from tests.conftest import ROOT, pipeline_over

    corpus = ROOT / "benchmarks" / "corpus" / "icml_2022_2023.jsonl.gz"
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        rows = [line for line in f if json.loads(line).get("title", "").startswith(LAW_TITLES)]
    assert len(rows) == len(LAW_TITLES)
    path = tmp_path_factory.mktemp("terms") / "papers.jsonl"
    path.write_text("".join(rows), encoding="utf-8")
    return pipeline_over(tmp_path_factory.mktemp("terms_home"), [path], embedder)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "about"),
    [
        ("which papers are about neural scaling laws?", SCALING_LAWS),
        ("list the papers on neural scaling laws", SCALING_LAWS),
        ("neural scaling laws papers?", SCALING_LAWS),
        ("which papers study dataset distillation?", DATASET_DISTILLATION),
        (
            "which papers study dataset distillation, i.e. compressing a whole training set into a handful of "
            "synthetic samples?",
            DATASET_DISTILLATION,
        ),
        # PointDP and the robust RL paper name it among examples of applications ("such as
        # autonomous driving, robotics, and medical imaging", "e.g., ... speed of lead car in
        # autonomous driving, etc.")
        ("which papers are about autonomous driving?", AUTONOMOUS_DRIVING),
    ],
)
def test_a_list_on_a_term_cites_the_papers_that_write_it_and_is_not_refused(terms_store, question, about):
    answer = terms_store.ask(question)
    assert not answer.refused, answer.text
    titles = [terms_store.pipeline.catalogue[c.paper_id].title for c in answer.citations]
    assert titles, answer.text
    assert all(t.startswith(about) for t in titles), answer.text
    # a paper near the words and not writing the term is not cited: named among the mentions, if at all
    assert "Distillation Process" not in " ".join(titles)
