"""Rows and columns hold the role they name (summaries, comparisons, tables): a sentence fills a
row when it *states* the role (data named as used, a result of the paper's own), not when it holds
the role's word: a negated mention ("does not require ... collecting a dataset") states nothing,
a field word of the glossary ("audio", "quantization") names no benchmark, the authors' own
sentence of the gap is no result, and a table's hardware column quotes the devices a paper runs on.

The fast tests use hand-written abstracts and the word-share fake (:class:`tests.fakes.FakeEvidence`);
the slow ones the shared real pipeline over the 38 seed papers (bundled embedder, Chroma on disk).
"""

from __future__ import annotations

import pytest

from rag.evidence.roles import abstract_moves, affirmed, names_benchmark
from rag.evidence.rows import ROWS, introduces_dataset, select_rows, states_data
from rag.evidence.table import Cell, _hardware_cell
from rag.question.columns import column, column_kind
from rag.route.conversation import Conversation
from rag.text import split_sentences
from rag.types import Evidence
from store.papers import make_paper
from tests.fakes import FakeEvidence

# --- what a sentence affirms ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "denied", "kept"),
    [
        ("Our detector does not require training a classifier, collecting a dataset of passages, or "
         "watermarking text.", "dataset", "Our detector does"),
        ("It runs without any benchmark-specific tuning.", "benchmark", "It runs"),
        ("The method needs no labels, and we evaluate it on ImageNet.", "labels", "we evaluate it on ImageNet"),
        ("Prior solvers cannot scale to large graphs; we scale to 1M nodes.", "large graphs", "we scale to 1M nodes"),
        ("This model lacks hardware support (see appendix).", "hardware", "(see appendix)"),
        # the setting after a negated verb is affirmed: the paper is shown on ImageNet-1k
        ("It cuts training time by 40% without sacrificing accuracy on ImageNet-1k.", "sacrificing",
         "on ImageNet-1k"),
    ],
)
def test_a_negation_blanks_what_it_denies_to_its_clause_end(sentence: str, denied: str, kept: str):
    out = affirmed(sentence)
    assert len(out) == len(sentence)  # offsets hold
    assert denied not in out and kept in out, out


def test_not_only_affirms():
    sentence = "Our model not only outperforms the baseline on COCO but also runs faster."
    assert affirmed(sentence) == sentence


# --- data named, not a word for it ------------------------------------------------------------------


@pytest.mark.parametrize(
    "sentence",
    [
        "The pretrained encoders let us train the decoder with audio embeddings as the condition.",
        "The pruned model is compatible with weight quantization approaches.",
        "We study speech synthesis for clinical voice banking.",
    ],
)
def test_a_field_word_of_the_glossary_names_no_benchmark(sentence: str):
    # "audio", "quantization", "speech", "clinical" are glossary instances of fields, not benchmarks:
    # AudioLDM's CLAP sentence was its Data row
    assert not names_benchmark(sentence) and not states_data(sentence)


@pytest.mark.parametrize(
    "sentence", ["Gains of 11 points on GSM8K and HumanEval.", "Top-1 accuracy on ImageNet rises to 81%."]
)
def test_a_benchmark_of_the_glossary_states_the_data(sentence: str):
    assert names_benchmark(sentence) and states_data(sentence)


@pytest.mark.parametrize(
    ("negated", "affirmed_form"),
    [
        ("Our detector does not require collecting a dataset of real or generated passages.",
         "We collected a dataset of real and generated passages."),
        ("It needs no new benchmark.", "We evaluate it on three new benchmarks."),
        ("No new corpus is released.", "We release a new corpus of 10K dialogues."),
    ],
)
def test_a_negated_mention_states_no_data(negated: str, affirmed_form: str):
    assert not states_data(negated) and not introduces_dataset(negated)
    assert states_data(affirmed_form)


# --- rows --------------------------------------------------------------------------------------------

VOCODER = make_paper(
    "vocoder",
    "Neural vocoders are slow at inference time. We propose FlowVoc, a lightweight vocoder built on "
    "normalizing flows. Trained on LibriTTS-R with a single GPU, FlowVoc outperforms HiFi-GAN by 0.3 MOS "
    "while running 5x faster.",
)
SELFALIGN = make_paper(
    "selfalign",
    "Text-to-speech models have become a common tool for many languages. However, they remain limited in "
    "languages with little transcribed speech. In this work, we show that synthetic data introduces a "
    "fundamental trade-off: phonetic accuracy rises while expressivity collapses. To bridge this gap, we "
    "propose SelfAlign, a self-training framework. SelfAlign outperforms two commercial systems and enables "
    "voice cloning for Khmer.",
)


def test_the_data_row_quotes_the_sentence_naming_the_data_though_the_results_row_does_too():
    rows = select_rows(FakeEvidence([VOCODER]), VOCODER)
    assert rows["data"] and "LibriTTS-R" in rows["data"][0].sentence, rows["data"]
    assert rows["results"] and rows["results"][0].sentence == rows["data"][0].sentence


def test_a_negated_dataset_is_no_data_row():
    paper = make_paper(
        "zeroshot",
        "We propose ZeroDet, a zero-shot detector of generated text. ZeroDet does not require training a "
        "classifier, collecting a dataset of passages, or watermarking text. ZeroDet improves AUROC from "
        "0.81 to 0.95.",
    )
    rows = select_rows(FakeEvidence([paper]), paper)
    assert all("collecting a dataset" not in e.sentence for e in rows["data"]), rows["data"]


def test_the_authors_own_sentence_of_the_gap_is_no_result():
    sentences = [s.text for s in split_sentences(SELFALIGN.abstract)]
    assert abstract_moves(sentences)[2] == "gap"  # "In this work, we show that ... trade-off"
    rows = select_rows(FakeEvidence([SELFALIGN]), SELFALIGN)
    assert rows["results"] and rows["results"][0].sentence.startswith("SelfAlign outperforms"), rows["results"]
    for key in ("approach", "data", "results"):
        assert all("trade-off" not in e.sentence for e in rows[key]), (key, rows[key])


# --- the approach is how a method works; the problem comes before it ------------------------------------


def test_what_a_method_does_not_need_is_no_approach():
    # the sentence naming the method states only what it avoids; the one before says how it works
    paper = make_paper(
        "curv",
        "Detecting machine-written code matters for education. Building on this observation, we then define "
        "a new rank-based score for judging whether a snippet was sampled from a given model. This method, "
        "which we call RankScore, does not require training a separate classifier, collecting labelled "
        "snippets, or watermarking the generated code. RankScore raises AUROC from 0.70 to 0.91.",
    )
    rows = select_rows(FakeEvidence([paper]), paper)
    assert rows["approach"] and rows["approach"][0].sentence.startswith("Building on"), rows["approach"]


def test_a_sentence_releasing_code_is_no_approach():
    paper = make_paper(
        "glider",
        "Flow models can generate molecules. We explore flow matching for conditional molecule design and "
        "compare two conditioning strategies. The conditioned models are preferred by chemists. We train a "
        "smaller model on public data and release the code and weights at https://github.com/lab/glider.",
    )
    rows = select_rows(FakeEvidence([paper]), paper)
    assert rows["approach"] and rows["approach"][0].sentence.startswith("We explore"), rows["approach"]
    assert all("github" not in e.sentence for e in rows["problem"]), rows["problem"]


def test_a_stated_need_is_the_problem_and_nothing_after_the_approach_is():
    paper = make_paper(
        "needs",
        "The spread of synthetic voices highlights the need for tools that flag cloned speech. We propose "
        "VoiceFlag, a detector that scores phase artefacts. Samples flagged by VoiceFlag are preferred by "
        "listeners to those of costly ensembles, even when the latter use expensive reranking.",
    )
    rows = select_rows(FakeEvidence([paper]), paper)
    assert rows["problem"] and rows["problem"][-1].sentence.startswith("The spread"), rows["problem"]
    gapless = make_paper(
        "gapless",
        "Diffusion models generate images. We propose PaintFlow, a sampler for image editing. Samples from "
        "PaintFlow are preferred to those of costly ensembles, even when the latter use expensive reranking.",
    )
    rows = select_rows(FakeEvidence([gapless]), gapless)
    assert not rows["problem"], rows["problem"]  # "expensive" after the approach is a result's foil


# --- a table's hardware column -------------------------------------------------------------------------


@pytest.mark.parametrize("phrase", ["hardware", "GPU", "hardware used", "devices", "which accelerator"])
def test_hardware_phrasings_are_a_hardware_column(phrase: str):
    assert column_kind(phrase).key == "hardware"


class _Ordered:
    """Sentences of a hand-written abstract scored in order, the first one its background."""

    def __init__(self, paper):
        self.sentences = [Evidence(paper.id, s.text, s.start, s.end, 0.5) for s in split_sentences(paper.abstract)]

    def score(self, ask, paper, qvec=None):
        return self.sentences

    def moves(self, paper):
        return {self.sentences[0].start: "background"}


@pytest.mark.parametrize(
    ("abstract", "value"),
    [
        ("Serving large models takes many GPUs. FlexServe can be configured by aggregating memory from the GPU, "
         "CPU, and disk. When running a 175B model on a single 16GB GPU, FlexServe reaches 1 token/s.",
         "a single 16GB GPU"),
        ("Quantized models are hard to serve. Existing methods cannot keep accuracy and hardware efficiency. "
         "Our method serves a 530B model within a single node.", "a single node"),
    ],
)
def test_a_hardware_cell_quotes_the_devices_the_paper_runs_on(abstract: str, value: str):
    paper = make_paper("hw", abstract)
    cell = _hardware_cell(paper, _Ordered(paper), column("hardware"))
    assert cell.value == value, cell


def test_the_word_hardware_is_no_device():
    paper = make_paper(
        "hw", "Models are large. Existing methods cannot keep hardware efficiency. We cut hardware costs."
    )
    assert _hardware_cell(paper, _Ordered(paper), column("hardware")) == Cell()


# --- real parts: the seed papers ----------------------------------------------------------------------


@pytest.mark.slow
def test_every_seed_papers_rows_state_their_role(extractive):
    evidence = extractive.pipeline.evidence
    for paper in extractive.retriever.papers.values():
        rows = select_rows(evidence, paper, ROWS)
        moves = evidence.moves(paper)
        for key in ("approach", "data", "results"):
            assert all(moves.get(e.start) != "gap" for e in rows[key]), (paper.label, key, rows[key])
        assert all(states_data(e.sentence) for e in rows["data"]), (paper.label, rows["data"])


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "which papers do time series forecasting, and what do they propose?",
        "Which papers work on audio deepfake detection, and what method does each propose?",
        "which papers study federated learning and what do they propose",
    ],
)
def test_a_list_that_asks_what_its_papers_propose_quotes_their_approach(extractive, question: str):
    turn = Conversation(extractive.pipeline).ask(question)
    answer = turn.answer
    assert answer.citations and not answer.refused, answer.text
    lead = answer.text.split("\n\nEvidence:")[0]
    for c in answer.citations:
        paper = extractive.retriever.papers[c.paper_id]
        approach = select_rows(extractive.pipeline.evidence, paper, ROWS)["approach"]
        assert approach, paper.label
        line = next(x for x in lead.splitlines() if f"[{c.number}]" in x)
        words = approach[0].sentence.rstrip(".").split()
        assert " ".join(words[-6:]) in line, (line, approach[0].sentence)


def test_a_proposal_that_announces_its_parts_is_quoted_with_the_sentences_naming_them():
    # DGSA's approach row was "we propose two self-alignment frameworks." without naming them
    paper = make_paper(
        "parts",
        "Sparse models are hard to train. To close this gap, we propose two training schemes. Gradual "
        "Expert Dropout (GED) removes experts during warm-up. For small budgets, Router Temperature Decay "
        "(RTD) sharpens routing. Both schemes cut training cost by 30%.",
    )
    rows = select_rows(FakeEvidence([paper]), paper)
    quoted = " ".join(e.sentence for e in rows["approach"])
    assert "two training schemes" in quoted and "(GED)" in quoted and "(RTD)" in quoted, rows["approach"]


def test_a_proposal_of_one_thing_announces_nothing():
    paper = make_paper(
        "one",
        "Sparse models are hard to train. To close this gap, we propose two-stage expert dropout. Gradual "
        "Expert Dropout (GED) removes experts during warm-up. It cuts training cost by 30%.",
    )
    rows = select_rows(FakeEvidence([paper]), paper)
    assert len(rows["approach"]) == 1, rows["approach"]


def test_what_a_study_finds_is_its_result():
    # "We find that this relationship follows a different functional form ..." left the results row empty
    paper = make_paper(
        "study",
        "Reward models are imperfect proxies of human preferences. We use a synthetic setup with a gold-standard "
        "reward model. We find that the gold score follows a different functional form for each optimizer.",
    )
    rows = select_rows(FakeEvidence([paper]), paper)
    assert rows["results"] and rows["results"][0].sentence.startswith("We find that"), rows["results"]


def test_a_negated_verb_keeps_its_own_object_negated():
    # Consistency Models' "without requiring explicit training on these tasks" is no data row
    sentence = "They also support zero-shot editing without requiring explicit training on these tasks."
    assert "these tasks" not in affirmed(sentence) and not states_data(sentence)
