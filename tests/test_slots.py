"""The slot of a question (:mod:`rag.question.slots`) and the one check of it against sentences
(:mod:`rag.route.slot`): the lead quotes the clause that states the slot, a paper described
rather than named is found before anything is declared missing, and a slot no sentence states is
refused "The abstract of X does not state <slot>", whatever the words that asked it (shorthand,
a list of units, a guessed value, a date).

The phrasings here are written for the classes, not taken from the eval files. The fast tests use
the hand-made papers and fakes of :mod:`tests.test_decisions`; the end-to-end ones (real Chroma,
the real embedder, marked slow by their fixtures) the seed papers and :file:`fixtures/slots.jsonl`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from rag.llm.prose import REFUSAL
from rag.question.asks import read_ask
from rag.question.phrasing import asks_in_shorthand
from rag.question.slots import (
    CONTENTS,
    DATA,
    DATA_SIZE,
    HARDWARE,
    OBJECT,
    SETTING,
    SIZE,
    YEAR,
    age_slot,
    measure_slot,
    object_slot,
    size_compared,
)
from rag.route.lead import clause_spans
from rag.route.slot import DATE, MODEL_SIZE, sizes_beside, slot_span, states_amount, unquantified_span
from rag.types import Evidence, Slot
from store.papers import make_paper
from tests.fakes import FakeEvidence
from tests.test_decisions import FOLD, PAPERS, Seams

# --- reading the slot ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("By how much does FoldNet raise the folding accuracy?", ("folding", "accuracy")),
        ("exactly how many circuits does QCirc compile per second?", ("circuits",)),
        ("how high a throughput does TinyServe reach?", ("throughput",)),
        ("what top-5 error does the vision model get?", ("top-5", "error")),
        ("what is TinyServe's latency reduction?", ("latency", "reduction")),
    ],
)
def test_an_amount_asks_the_noun_phrase_after_its_opener_or_its_verb(question, terms):
    slot = measure_slot(question, {"FoldNet", "QCirc", "TinyServe"})
    assert slot is not None and slot.amount and slot.terms == terms, slot


@pytest.mark.parametrize(
    ("question", "data_size"),
    [
        ("what dataset size does FoldNet train on?", True),
        ("how big is TinyServe's training set?", True),
        ("how much data does QCirc need?", True),
        ("what is the size of the pretraining corpus?", True),
        ("how large a benchmark does it build?", True),
        ("how many datasets does FoldNet use?", False),  # counts datasets
        ("how much memory does TinyServe need?", False),
        ("what model size does QCirc use?", False),
        ("how much does the dataset improve accuracy?", False),
        # data items in general counted beside a dataset noun: its size, as a table column asks it
        ("how many examples does FoldNet's released dataset have?", True),
        ("how many samples are in the TinyServe benchmark?", True),
        ("how many instances does the QCirc corpus hold?", True),
        ("how many samples does FoldNet need?", False),  # no dataset: sample complexity, a count
        ("how many tasks does the QCirc benchmark have?", False),  # a kind of item: counts tasks
    ],
)
def test_the_size_of_a_dataset_is_one_slot_whatever_its_words(question, data_size):
    slot = measure_slot(question, ["FoldNet", "TinyServe", "QCirc"])
    assert slot is not None
    assert (slot.form == DATA_SIZE) is data_size, slot


@pytest.mark.parametrize(
    ("question", "model_size"),
    [
        ("how big is the FoldNet model?", True),
        ("What size is the TinyServe network?", True),
        ("how large is QCirc's backbone?", True),
        ("what model size does QCirc use?", True),
        ("how many models does FoldNet compare?", False),  # counts models
        ("how big is TinyServe's training set?", False),  # a dataset's size
        ("how much memory does the QCirc model need?", False),
    ],
)
def test_the_size_of_a_model_is_one_slot_whatever_its_words(question, model_size):
    # "how big is the Agent-Omit model?" asked "model" and was refused; "Agent-Omit-8B" states its size
    slot = measure_slot(question, ["FoldNet", "TinyServe", "QCirc"])
    assert slot is not None
    assert (slot.form == "model size") is model_size, slot


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("We release 95K validator-verified CoT traces and show that supervision matters.", True),
        ("Spanning 75 tasks, our dataset features 91,581 step-level annotations.", True),
        ("We collect over 1,200 hours of speech from 40 speakers.", True),
        ("Across 8 TAG datasets, it improves accuracy by 2.33% with 33.42% fewer tokens.", False),
        ("Our 12M-parameter model reduces delay by 10%.", False),
    ],
)
def test_the_size_of_a_dataset_is_stated_by_a_count_of_its_items(sentence, stated):
    assert (slot_span(Slot(DATA_SIZE, form=DATA_SIZE, amount=True), sentence) is not None) is stated


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("TinyNet is pretrained on only 20M publicly available image-text pairs.", False),
        ("We scale to 2B tokens of web text.", False),
        ("Our 12M-parameter model reduces delay by 10%.", True),
        ("a 7B model trained on 2T tokens beats larger ones", True),
        ("The 30M parameters of the student suffice.", True),
    ],
)
def test_a_count_of_data_items_is_no_model_size(sentence, stated):
    # "OFA params?" quoted "OFA is pretrained on only 20M publicly available image-text pairs"
    assert (slot_span(Slot("model size", form="model size"), sentence) is not None) is stated


def test_a_question_that_names_no_measure_has_no_slot():
    assert measure_slot("how does QCirc compile circuits?") is None
    assert measure_slot("how much does it cost?", ()) is None  # only generic words after the opener


@pytest.mark.parametrize(
    ("question", "name", "form", "value"),
    [
        ("lr for QCirc?", "learning rate", "", ""),
        ("# params of QCirc?", "model size", "model size", ""),
        ("QCirc params", "model size", "model size", ""),
        ("is QCirc a 7B model?", "model size", "model size", "7B"),
        ("is FoldNet 350M or 1.3B?", "model size", "model size", "350M"),
        ("arxiv date of QCirc", "publication date", "date", ""),
        ("when did FoldNet go up on arXiv?", "publication date", "date", ""),
        ("QCirc: GPU-days or TPU-hours used?", "hardware or compute", "", ""),
        # asked in general: any hardware a sentence names states it (form hardware)
        ("On what hardware is QCirc trained?", "hardware or compute", "hardware", ""),
        ("which machines does FoldNet run on?", "hardware or compute", "hardware", ""),
    ],
)
def test_a_detail_in_shorthand_a_guess_or_a_date_is_a_slot(question, name, form, value):
    plan = Seams(PAPERS).plan(question)
    slot = plan.ask.slot
    assert slot is not None and slot.detail, (question, slot)
    assert (slot.name, slot.form, slot.value) == (name, form, value)
    assert not plan.polar  # a guessed size is checked as a slot, not as terms to find


def test_a_size_inside_a_name_is_no_guess():
    plan = Seams([*PAPERS, make_paper("om", "We build Omit-8B, an agent that drops old context.")]).plan(
        "is Omit-8B better at dropping context?"
    )
    assert plan.detail is None and (plan.ask.slot is None or not plan.ask.slot.value)


# --- the check of one sentence -----------------------------------------------------------------

TWO_RESULTS = (
    "On long tasks, FooRL reaches the same reward 2x faster than the best baseline, even counting the cost "
    "of the first sampling stage, and raises the final reward by 4x."
)


def test_the_clause_that_states_the_slot_is_quoted_not_the_first_number():
    slot = Slot("final reward", ("final", "reward"), amount=True)
    a, b, _ = slot_span(slot, TWO_RESULTS)
    assert TWO_RESULTS[a:b] == "and raises the final reward by 4x"


@pytest.mark.parametrize("question", ["What reward gain does FooRL report?", "FooRL reward improvement?"])
def test_a_figure_of_another_measure_does_not_state_the_one_asked(question):
    # "the same reward 2x faster": 2x is the speed's; the reward's own figure is later in the sentence
    slot = read_ask(question, number="one").slot
    assert slot is not None
    a, b, _ = slot_span(slot, TWO_RESULTS)
    assert TWO_RESULTS[a:b] == "and raises the final reward by 4x"


RANKED = "FooNet reaches 0.412 NDCG@10 and 0.318 HR@5 on MovieLens."


@pytest.mark.parametrize(
    ("question", "sentence", "stated"),
    [
        # a measure at a cut-off is one name in the sentence as in the question ("APM TR@1
        # Flickr30k" was refused though the abstract states "17.8 TR@1 in Flickr30k")
        ("What NDCG@10 does FooNet reach on MovieLens?", RANKED, True),
        ("FooNet recall@10", "On MSR-VTT, FooNet improves recall@10 by 4.2 points.", True),
        ("What NDCG@20 does FooNet reach on MovieLens?", RANKED, False),
    ],
)
def test_a_measure_at_a_cut_off_is_stated_by_its_own_name(question, sentence, stated):
    slot = read_ask(question, number="one").slot
    assert slot is not None
    assert (slot_span(slot, sentence) is not None) is stated


def test_an_amount_needs_a_number_in_the_stating_clauses():
    slot = Slot("added images", ("added", "images"), amount=True)
    assert slot_span(slot, "We add outlier images to re-balance the classes.") is None
    assert slot_span(slot, "We add 300K outlier images to re-balance the classes.") is not None


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("We train a language model for a single day on a single consumer GPU.", True),
        ("Training takes 1,000 TPU-hours.", True),
        ("All runs use 8 A100s.", True),
        ("Sparse operations are hard to accelerate on community hardware.", True),
        ("We train a language model for a single day.", False),
        ("Graph processing units of a network exchange messages.", False),
    ],
)
def test_hardware_asked_in_general_is_stated_by_any_hardware_named(sentence, stated):
    # "On what hardware is Cramming trained?" was answered "The abstracts do not state hardware or
    # compute" while the abstract trains "on a single consumer GPU"
    assert (slot_span(Slot("hardware or compute", form=HARDWARE, detail=True), sentence) is not None) is stated


def test_a_detail_is_stated_by_its_words_side_by_side():
    slot = Slot("learning rate", ("learning", "rate"), detail=True)
    assert slot_span(slot, "Federated learning at a high rate of client drop-out.") is None
    assert slot_span(slot, "We clip the adaptive learning rate of each layer.") is not None


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("our 12M-parameter model reduces delay", True),
        ("across 3B–72B models", True),
        ("we train Omit-8B with RL", True),
        ("with 1.3 billion parameters", True),
        ("the largest model has 1.2 trillion parameters", True),
        ("a 1.6T sparse model", True),
        # relative to another model (size_relation): the abstract states a size, to be quoted
        ("matches the baseline with 4x fewer parameters", True),
        ("compression that reduces model size by up to 5.2×", True),
        ("we introduce L2M, which measures", False),  # a name, not two million
        ("it needs 3x fewer steps", False),
        ("T5 reaches 80%", False),
        ("the analytic parameters of the projector", False),
        ("a 7b thing", False),
    ],
)
def test_the_form_of_a_model_size(text, size):
    assert bool(MODEL_SIZE.search(text)) is size


def test_the_form_of_a_date():
    assert DATE.search("first posted in March 2024") and DATE.search("on 2023-11-02")
    assert not DATE.search("evaluated on ASVspoof 2019")


def test_a_range_with_an_en_dash_stays_one_clause():
    s = "Experiments across 3B–72B models show gains."
    assert [s[a:b] for a, b in clause_spans(s)] == ["Experiments across 3B–72B models show gains"]


# --- refusal with the fakes -------------------------------------------------------------------


def test_a_measure_no_sentence_states_is_refused_with_the_closest_clause():
    seams = Seams(PAPERS)
    plan = seams.plan("exactly how many qubits does QCirc map?")
    refusal = seams.policy.slot(plan.ask, [seams.catalogue["qc"]])
    assert refusal.startswith(f"{REFUSAL} The abstract of QCirc (qc) does not state the number of qubits; closest: “")


def test_a_measure_no_compared_abstract_states_is_refused_of_both_in_the_plural():
    seams = Seams(PAPERS)
    plan = seams.plan("exactly how many qubits does QCirc map?")
    refusal = seams.policy.slot(plan.ask, [seams.catalogue["qc"], seams.catalogue["fold"]])
    said = f"{REFUSAL} The abstracts of QCirc (qc) and FoldNet (fold) do not state the number of qubits"
    assert refusal.startswith(said), refusal


GENNET = make_paper(
    "gen",
    "We propose GenNet, a one-step image generator. GenNet reaches an FID of 3.1 on CIFAR-10 and 5.9 on "
    "ImageNet 64x64. It also runs on LSUN and FFHQ without retraining. GenNet samples 4x faster for LLMs too.",
)


@pytest.mark.parametrize(
    ("question", "unset"),
    [
        ("what FID does GenNet get on LSUN?", "lsun"),  # written, but only where no FID is stated
        ("what FID does GenNet reach on FFHQ", "ffhq"),
        ("GenNet ImageNet FID", ""),  # stated on it
        ("how much faster does GenNet sample for OPT?", ""),  # stated for the field, named for no other
    ],
)
def test_a_measure_stated_only_on_other_benchmarks_is_refused_on_the_one_asked(question, unset):
    # "Consistency Models FID LSUN" was answered with the FID on CIFAR-10 and ImageNet 64x64
    seams = Seams([*PAPERS, GENNET])
    plan = seams.plan(question)
    refusal = seams.policy.slot(plan.ask, [seams.catalogue["gen"]])
    if unset:
        assert refusal.startswith(f"{REFUSAL} The abstract of GenNet (gen) does not state "), refusal
        assert f"on {unset}" in refusal, refusal
        assert "“GenNet reaches an FID of 3.1 on CIFAR-10" in refusal, refusal
    else:
        assert refusal == "", refusal


ADAMW = make_paper("adamw", "Training is unstable. We present StableNet, trained with AdamW and a cosine schedule.")
PRECOND = make_paper("precond", "Shampoo preconditioning is costly. We propose LazyPre, which refreshes it rarely.")


@pytest.mark.parametrize(
    ("question", "paper", "refused"),
    [
        ("which optimiser does QCirc train with?", "qc", True),
        ("FoldNet optimizer?", "fold", True),
        ("what optimizer is StableNet trained with?", "adamw", False),  # an optimizer named
        ("LazyPre optimizers?", "precond", False),  # "Shampoo"
        ("what encoder does QCirc use?", "qc", False),  # an encoder may be named any way: never refused
    ],
)
def test_an_optimizer_is_stated_by_one_named_else_refused(question, paper, refused):
    # "OFA optimizer", "what optimizer does Monarch use?" were answered with a sentence naming none
    seams = Seams([*PAPERS, ADAMW, PRECOND])
    plan = seams.plan(question)
    refusal = seams.policy.slot(plan.ask, [seams.catalogue[paper]])
    assert bool(refusal) is refused, (question, plan.ask.slot, refusal)
    if refused:
        assert "does not state optimi" in refusal, refusal


@pytest.mark.parametrize(
    ("question", "refused"),
    [
        ("did they ablate the compiler in QCirc?", True),
        ("QCirc ablations of the noise model?", True),
        ("what ablation studies does FoldNet run?", False),
    ],
)
def test_an_ablation_is_a_detail_stated_only_by_a_sentence_of_ablations(question, refused):
    # "RIN ablation without latent self-conditioning" quoted the sentence on self-conditioning
    fold = make_paper("fold", FOLD.abstract + " Extensive ablation studies confirm each component.")
    seams = Seams([p if p.id != "fold" else fold for p in PAPERS])
    assert bool(seams.named_refusal(question)) is refused, question


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("the protein folding paper: folding accuracy?", ("folding", "accuracy")),
        ("the quantum circuit compiler paper - compile latency", ("compile", "latency")),
    ],
)
def test_a_measure_in_shorthand_after_a_papers_description_is_its_slot(question, terms):
    # "the green tokens watermark paper: false positive rate?" asked no slot ("paper" read as a frame)
    slot = Seams(PAPERS).plan(question).ask.slot
    assert slot is not None and slot.amount and slot.terms == terms, slot


def test_a_measure_a_sentence_states_is_not_refused():
    seams = Seams(PAPERS)
    plan = seams.plan("by how much does TinyServe reduce latency?")
    assert seams.policy.slot(plan.ask, [seams.catalogue["serve"]]) == ""


@pytest.mark.parametrize(
    ("question", "refused"),
    [
        ("is TinyServe a 7B model?", False),  # "on 7B and 13B models"
        ("is QCirc a 7B model?", True),
        ("lr for QCirc?", True),
        ("FoldNet licence?", False),  # "released under the MIT licence"
        ("arxiv date of FoldNet", True),
    ],
)
def test_a_detail_is_refused_exactly_when_no_sentence_states_it(question, refused):
    assert bool(Seams(PAPERS).named_refusal(question)) is refused


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("QCirc: what benchmarks?", "the benchmarks it uses"),
        ("which datasets is FoldNet evaluated on?", "the datasets it uses"),
        ("on what data was it tested?", "the data it uses"),
        ("what testbed is ReActor evaluated in?", "the testbed it uses"),
    ],
)
def test_the_data_a_paper_uses_is_a_slot_stated_by_any_sentence_of_data(question, name):
    slot = read_ask(question, number="one").slot
    assert slot is not None and slot.form == DATA and slot.name == name, slot
    assert read_ask("which papers use ALFWorld?", number="many").slot is None  # papers asked, not a slot


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("It enables INT8 quantization for all matrix multiplications in LLMs, including OPT, BLOOM, GLM, "
         "MT-NLG, and LLaMA family.", True),
        ("We prune OPT-175B in under 4.5 hours.", True),
        ("Experiments on WebShop and ALFWorld show large gains.", False),  # benchmarks, no models
        ("Large language models show excellent performance but are memory-intensive.", False),
        # a size before the name, and a family named ("20B parameter GPT-NeoX", "the OPT family")
        ("Our detector flags essays written by a 6B parameter GPT-J with high accuracy.", True),
        ("We test the method on a multi-billion parameter model from the Open Pretrained Transformer (OPT) "
         "family.", True),
        ("We propose a family of kernels for 3 tasks.", False),
    ],
)
def test_the_models_a_paper_is_shown_on_are_stated_by_their_names(sentence, stated):
    # "which models does SmoothQuant evaluate on?" was asked as its data: "does not state the data it
    # is evaluated on", though its abstract lists five model families
    slot = read_ask("which models does SmoothQuant evaluate on?", number="one").slot
    assert slot is not None and slot.name == "the models it is evaluated on"
    assert (slot_span(slot, sentence) is not None) is stated


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("What is Neural Operators tested on?", "Neural Operators"),
        ("which benchmarks are Sparse Autoencoders Models evaluated on?", "Sparse Autoencoders Models"),
        ("On what is the Diffusion Policy model evaluated?", "Diffusion Policy"),
    ],
)
def test_a_noun_of_a_papers_name_is_no_noun_asked_of_its_data(question, name):
    # "What is Consistency Models evaluated on?" was refused "does not state the models it is
    # evaluated on": the "Models" of the paper's name read as the models asked
    slot = read_ask(question, number="one", names=(name,)).slot
    assert slot is not None and slot.form == DATA, slot
    asked = read_ask("which models is Diffusion Policy evaluated on?", number="one", names=("Diffusion Policy",))
    assert asked.slot is not None and asked.slot.name == "the models it is evaluated on"  # a noun outside the name


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("What is the latency of Graph Transformers Plus?", "Graph Transformers Plus"),
        ("what is the throughput of Mixture Serving Engine?", "Mixture Serving Engine"),
    ],
)
def test_a_papers_name_of_several_words_is_no_part_of_the_slot(question, name):
    # "What is the NFE of consistency models?" read the paper's name as the thing asked
    slot = read_ask(question, number="one", names=(name,)).slot
    assert slot is not None and not set(slot.terms) & {w.lower() for w in name.split()}, slot
    assert read_ask(question, number="one").slot is not None  # without the name, as before


@pytest.mark.parametrize(
    ("question", "sentence", "stated"),
    [
        ("How many denoising steps does the sampler need?", "The sampler supports single-step denoising by design.",
         True),
        ("how many stages does the detector have?", "We build a one-stage detector that runs in real time.", True),
        ("How many layers does the probe use?", "A 2-layer probe recovers the syntax tree.", True),
        ("How many denoising steps does the sampler need?", "It allows multi-step denoising to trade compute.",
         False),
        ("How many denoising steps does the sampler need?", "We study one of the steps of denoising.", False),
        ("how many stages does the detector have?", "It detects one-shot objects with a Faster-RCNN head.", False),
        # a word of one before a collection of data names the kind of its items: no count of them
        ("How many images are in the benchmark?", "We release a new single-image benchmark of scenes.", False),
        ("how many speakers does the corpus hold?", "A one-speaker corpus of read news.", False),
        ("How many images are in the benchmark?", "Each of its 5,000 images is single-view.", True),
    ],
)
def test_a_count_is_stated_by_a_number_joined_to_its_unit(question, sentence, stated):
    # "How many sampling steps do consistency models need?" was "not stated" beside "They support
    # fast one-step generation by design"
    slot = read_ask(question, number="one").slot
    assert slot is not None and slot.count, slot
    assert (slot_span(slot, sentence) is not None) is stated


@pytest.mark.parametrize(
    ("question", "sentence", "stated"),
    [
        # the head in other words, without the words that narrow it: not stated
        ("What is the energy consumption of TinyServe?", "Its slow decoding limits its practical usage.", False),
        ("what is the energy consumption of TinyServe?", "TinyServe halves GPU memory usage.", False),
        # with a narrowing word, or the head as written: stated
        ("What is the memory consumption of TinyServe?", "TinyServe halves GPU memory usage.", True),
        ("What is the energy consumption of TinyServe?", "TinyServe cuts energy usage by 40%.", True),
        ("What is the energy consumption of TinyServe?", "Its consumption of power drops by 40%.", True),
        # a word of speed states any speed: "runtime speedup" by "10 times faster"
        ("What is the runtime speedup of TinyServe?", "It is more than 10 times faster than its closest competitor.",
         True),
    ],
)
def test_a_narrowed_head_in_other_words_is_stated_only_with_a_narrowing_word(question, sentence, stated):
    # "What is the energy consumption of DeepSpeed-MoE inference?" quoted "limiting their practical
    # usage" ("consumption" and "usage" are one sense; "energy" is what was asked)
    slot = read_ask(question, number="one", names=("TinyServe",)).slot
    assert slot is not None and len(slot.terms) > 1, slot
    assert (slot_span(slot, sentence) is not None) is stated


@pytest.mark.parametrize(
    ("question", "sentence", "stated"),
    [
        ("How much does TinyServe reduce annotation cost?", "It needs 40% fewer annotations than active learning.",
         True),
        ("how much does TinyServe cut compute cost?", "It reduces compute by 3x at equal accuracy.", True),
        # a count of what narrows it is no cut of it ("91,581 step-level annotations")
        ("How much does TinyServe reduce annotation cost?", "It adds 91,581 step-level annotations.", False),
        # a cut of another thing
        ("How much does TinyServe reduce annotation cost?", "It needs 40% fewer GPUs than active learning.", False),
    ],
)
def test_a_cut_asked_of_a_narrowed_measure_is_stated_by_a_cut_of_what_narrows_it(question, sentence, stated):
    # "How much does DANCE cut token cost?" was "not stated" beside "with 33.42% fewer tokens per
    # condensed node than TAG-FGL baselines"
    slot = read_ask(question, number="one", names=("TinyServe",)).slot
    assert slot is not None and slot.change == "cut" and len(slot.terms) > 1, slot
    assert (slot_span(slot, sentence) is not None) is stated


def test_a_paper_that_states_no_data_is_refused_for_its_benchmarks_with_the_closest_clause():
    seams = Seams(PAPERS)
    plan = seams.plan("which benchmarks does QCirc use?")
    refusal = seams.policy.slot(plan.ask, [seams.catalogue["qc"]])
    assert refusal.startswith(f"{REFUSAL} The abstract of QCirc (qc) does not state the benchmarks it uses; closest: “")
    stated = seams.plan("which datasets is ReActor evaluated on?")  # "evaluated on ALFWorld and WebShop"
    assert seams.policy.slot(stated.ask, [seams.catalogue["agent"]]) == ""
    sentence = "We present ReActor, an agent evaluated on ALFWorld and WebShop."
    assert stated.ask.slot is not None and slot_span(stated.ask.slot, sentence) is not None


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("What is the FID of QCirc?", "FID"),
        ("what WER does TinyServe get?", "WER"),
        ("which mIoU does QCirc reach?", "mIoU"),
        ("What AP does QCirc achieve?", "AP"),
        ("what mAP does TinyServe report on detection?", "mAP"),
    ],
)
def test_a_measure_written_as_an_acronym_is_the_slot_not_a_name(question, name):
    plan = Seams(PAPERS).plan(question)
    assert plan.ask.slot is not None and plan.ask.slot.name == name, plan.ask.slot
    paper = Seams(PAPERS).catalogue[plan.named_ids[0]]
    assert f"does not state {name}" in Seams(PAPERS).policy.slot(plan.ask, [paper])


@pytest.mark.parametrize(
    ("question", "verb"),
    [
        ("what does Agent-Omit omit?", "omit"),
        ("what did FoldNet predict?", "predict"),
        ("What do they prune?", "prune"),
        ("what does it do?", None),  # a verb that says nothing of its own
        ("what does DGSA stand for?", None),
        ("what does QCirc", None),  # the name is no verb
    ],
)
def test_what_a_verb_of_the_paper_acts_on_is_a_slot(question, verb):
    slot = object_slot(question, ["Agent-Omit", "FoldNet", "DGSA", "QCirc"])
    assert (slot.terms[0] if slot is not None else None) == verb
    if slot is not None:
        assert slot.form == OBJECT


def test_the_object_of_a_verb_is_stated_where_the_verb_stands_alone_with_words_after_it():
    slot = Slot("omit", ("omit",), form=OBJECT)
    stated = (
        "we propose Agent-Omit, a unified training framework that empowers LLM agents to adaptively omit "
        "redundant thoughts and observations."
    )
    span = slot_span(slot, stated)
    assert span is not None and stated[span[0] : span[1]].endswith("omit redundant thoughts and observations")
    compound = "we introduce an omit-aware agentic reinforcement learning approach with an omission reward."
    assert slot_span(slot, compound) is None
    # a noun made from the verb names the act, and a participle after a determiner is an adjective
    condense = Slot("condense", ("condense",), form=OBJECT)
    assert slot_span(condense, "we introduce graph condensation to reduce computation load.") is None
    assert slot_span(condense, "compressing multi-hop texts into a condensed core with fixed surrogates.") is None
    assert slot_span(condense, "DANCE condenses each client graph into a small core.") is not None


def test_an_object_no_sentence_states_is_not_refused():
    """The object may be stated in other words: the slot only chooses the clause to quote."""
    seams = Seams(PAPERS)
    plan = seams.plan("what does QCirc optimise?")
    assert plan.ask.slot is not None and plan.ask.slot.form == OBJECT
    assert seams.policy.slot(plan.ask, [seams.catalogue["qc"]]) == ""


# --- end to end: the seed papers -----------------------------------------------------------------

FIXTURE = Path(__file__).parent / "fixtures" / "slots.jsonl"


def _questions(path: Path = FIXTURE) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _wrong_answers(components, questions: list[dict]) -> list[tuple[str, str, str]]:
    """The questions not answered as their gold says: refused when the gold is empty, else answered
    citing a gold paper with every answer fact in the lead; ``(qid, what went wrong, answer)``."""
    wrong = []
    for q in questions:
        ans = components.ask(q["question"])
        if not q["gold_ids"]:
            if not ans.refused or ans.citations:
                wrong.append((q["qid"], "answered", ans.text[:160]))
            continue
        cited = {c.paper_id for c in ans.citations}
        if ans.refused or not cited & set(q["gold_ids"]) or not all(f in ans.lead for f in q["answer_facts"]):
            wrong.append((q["qid"], "refused" if ans.refused else "wrong", ans.text[:160]))
    return wrong


def test_details_and_measures_are_refused_or_answered_as_the_abstracts_state_them(extractive):
    """Every question of ``fixtures/slots.jsonl``: refused when the gold is empty, else answered
    citing the gold paper with its facts in the lead."""
    wrong = _wrong_answers(extractive, _questions())
    assert not wrong, wrong


def test_the_lead_quotes_the_clause_that_states_the_measure(extractive):
    ans = extractive.ask("PrefixRL: by what factor does the final reward go up?")
    assert "increases the final reward by 3x" in ans.lead and "2x faster" not in ans.lead, ans.lead


@pytest.mark.parametrize("question", ["How many cities does RAST-MoE generalize to?", "RAST-MoE: how many cities?"])
def test_a_count_in_words_is_quoted_not_the_sentences_figures(extractive, question):
    # the lead quoted "our 12M-parameter model reduces average matching delay by 10% ..." for a
    # count the sentence states as "two additional cities"
    assert "two additional cities" in extractive.ask(question).lead


def test_a_described_paper_is_found_before_a_detail_is_declared_missing(extractive):
    ans = extractive.ask("parameter count of the matching model for ride-hailing dispatch?")
    assert not ans.refused and [c.label for c in ans.citations] == ["RAST-MoE"], ans.text
    assert "12M-parameter" in ans.lead
    gone = extractive.ask("what's the parameter count of the curriculum-based dexterous retargeting algorithm?")
    assert gone.refused and "DexMachina" in gone.text and not gone.citations, gone.text


@pytest.mark.parametrize(
    ("question", "paper", "stated"),
    [
        ("which paper matches riders to drivers in ride-hailing, and how big is its model?", "RAST-MoE",
         "12M-parameter"),
        ("Is there a paper on detecting spoofed speech, and which benchmarks does it test on?", "CA-SOADD",
         "ASVSpoof and MLAAD"),
        ("which paper studies proactive assistants, and what baseline does it propose?", "ProAct-75",
         "reference baseline"),
    ],
)
def test_a_paper_found_by_the_first_part_answers_the_other_parts(extractive, question, paper, stated):
    # the first part asks for a paper, the others ask of it ("its", "it"): the topic is the first
    # part's (not "... and how big is its model"), one paper answers, and the lead answers each part
    ans = extractive.ask(question)
    assert [c.label for c in ans.citations] == [paper], ans.text
    assert stated in ans.lead, ans.lead


def test_a_detail_of_a_paper_named_by_a_description_is_asked_of_the_paper_it_finds(extractive):
    # the description ("the ride-hailing paper") finds the paper; the detail's words ("big is the
    # model of") are not searched as a topic
    ans = extractive.ask("how big is the model of the ride-hailing paper?")
    assert [c.label for c in ans.citations] == ["RAST-MoE"] and "12M-parameter" in ans.lead, ans.text
    gone = extractive.ask("what licence does the ride-hailing paper use?")
    assert gone.refused and "RAST-MoE" in gone.text, gone.text  # checked in the paper found, then refused


def test_a_count_is_stated_only_by_a_number_of_its_unit():
    from rag.question.slots import measure_slot

    counted = measure_slot("How many screenshots does the HyperTrack dataset hold?")
    assert counted is not None and counted.count and counted.terms == ("screenshots",)
    measured = measure_slot("what speed-up over the strongest baseline?")
    assert measured is not None and not measured.count


@pytest.mark.parametrize(
    ("clause", "unit", "counted"),
    [
        ("a corpus of over 12,500 annotated dialogues", "dialogues", True),
        ("three new tasks", "task", True),
        ("we release 40k hours of speech", "hours", True),
        ("ablation studies on the collection of tasks improve accuracy by 3-17%", "tasks", False),
        ("Llama-2 fine-tuned on reasoning tasks", "tasks", False),  # a number inside a name
        ("12 GPUs train the model on math tasks", "tasks", False),  # a number of another unit
        ("shape assembly in the rendered 2D domain", "envs", False),  # a number of dimensions
        ("we reconstruct 3-D scenes from video", "scenes", False),
    ],
)
def test_a_count_is_a_number_followed_closely_by_its_unit(clause, unit, counted):
    from rag.route.slot import counts

    assert counts(clause, unit) is counted


def test_a_count_asked_of_a_paper_found_by_its_name_in_words_is_refused_when_not_counted(extractive):
    # no paper is named by a label the catalogue knows: the paper is found by the topic, then its
    # abstract must count the unit (HyperTrack's "over 16000 real-world tasks" counts no apps' users)
    ans = extractive.ask("exactly how many users took part in the GUI navigation dataset with Chinese mobile apps?")
    assert ans.refused and "does not state the number of users" in ans.text, ans.text
    # the unit as far as the abstract words it: "Chinese mobile apps" counted by "650 Chinese mobile applications"
    ans = extractive.ask("exactly how many chinese mobile apps does the GUI navigation dataset span?")
    assert not ans.refused and "650" in ans.lead, ans.text
    # a count inside the description of the paper sought describes it: it is not asked
    ans = extractive.ask("is there a paper bounding how many samples RL needs to unlock reasoning in LLMs?")
    assert not ans.refused and [c.label for c in ans.citations][:1] == ["DoPR"], ans.text


def test_a_number_of_another_unit_does_not_answer_a_count(extractive):
    # "over 16000 real-world tasks" beside "dataset" counts tasks, not screenshots
    ans = extractive.ask("How many screenshots does the HyperTrack dataset hold?")
    assert ans.refused and "does not state the number of screenshots" in ans.text, ans.text
    ans = extractive.ask("how many tasks are in HyperTrack?")
    assert not ans.refused and "16000" in ans.lead, ans.text


@pytest.mark.parametrize(
    ("question", "paper", "stated"),
    [
        ("How much does RSAgent gain compared with Seg-Zero-7B?", "RSAgent", "Seg-Zero-7B by 9%"),
        ("what does ProAct-75 report versus ProAct-Helper?", "ProAct-75", "ProAct-Helper"),
    ],
)
def test_a_side_the_named_papers_own_abstract_states_is_asked_of_that_paper(extractive, question, paper, stated):
    # the second side is named in the first paper's own abstract (a model it is measured against):
    # answered from that abstract, not a second paper to ask for
    ans = extractive.ask(question)
    assert [c.label for c in ans.citations] == [paper] and stated in ans.lead, ans.text


@pytest.mark.parametrize(
    ("question", "paper"),
    [
        ("What does DANCE condense, and what GPUs was it trained on?", "DANCE"),
        ("which paper matches riders to drivers in ride-hailing, and under what licence is its code?", "RAST-MoE"),
    ],
)
def test_a_detail_asked_beside_other_parts_is_said_missing_below_their_answer(extractive, question, paper):
    # the other part is answered from the paper; the detail no abstract states is said to be
    # missing below it, not a refusal of the whole question
    ans = extractive.ask(question)
    assert not ans.refused and [c.label for c in ans.citations] == [paper], ans.text
    assert "The abstracts do not state" in ans.text.split("\n\n")[-1], ans.text
    alone = extractive.ask(question.split(", and ")[1].replace("its", f"{paper}'s").replace("it ", f"{paper} "))
    assert alone.refused, alone.text  # asked alone, the detail is refused


def test_an_amount_asked_in_another_language_leads_with_the_numbers(extractive):
    ans = extractive.ask("¿Cuánto reduce RAST-MoE el retraso de recogida?")
    assert "15%" in ans.lead, ans.lead


def test_a_question_of_several_parts_is_not_refused_for_the_slot_of_one():
    seams = Seams(PAPERS)
    plan = seams.plan("exactly how many qubits does QCirc map, and what devices does it target?")
    assert plan.ask.parts and seams.policy.slot(plan.ask, [seams.catalogue["qc"]]) == ""


def test_an_amount_in_words_states_a_measure():
    slot = Slot("rollout overhead", ("rollout", "overhead"), amount=True)
    assert slot_span(slot, "It cuts rollout overhead by nearly an order of magnitude.") is not None
    assert slot_span(Slot("levels", ("levels",), amount=True), "We design four cognitive levels.") is not None


def test_a_size_guessed_of_the_paper_referred_to_is_a_slot():
    plan = Seams(PAPERS).plan("is it a 13B model?")
    assert plan.ask.slot is not None and plan.ask.slot.value == "13B" and not plan.polar


def test_a_review_outcome_is_stated_by_no_words_of_an_abstract():
    # "rejection sampling" states no review outcome: the detail has no words a sentence could state
    plan = Seams(PAPERS).plan("was QCirc rejected from NeurIPS?")
    assert plan.ask.slot is not None and plan.ask.slot.terms == ()


def test_a_leading_setting_is_no_other_question():
    seams = Seams(PAPERS)
    plan = seams.plan("On noisy devices, exactly how many qubits does QCirc map?")
    assert seams.policy.slot(plan.ask, [seams.catalogue["qc"]]).startswith(REFUSAL)


def test_two_measures_asked_in_one_sentence_are_refused_only_when_neither_is_stated():
    # "compared" ends a measure's phrase; each part asks its own measure and answers on its own
    seams = Seams(PAPERS)
    asked = "Question first: for TinyServe, how much faster is the same {} reached compared with the strongest " \
        "baseline, and by how much does the {} drop?"
    plan = seams.plan(asked.format("latency", "cost"))
    assert [p.slot.name for p in plan.ask.parts if p.slot] == ["latency", "cost"]
    assert seams.policy.slot(plan.ask, [seams.catalogue["serve"]]) == ""
    plan = seams.plan(asked.format("energy use", "carbon footprint"))
    assert seams.policy.slot(plan.ask, [seams.catalogue["serve"]]).startswith(REFUSAL)


@pytest.mark.parametrize(
    ("term", "sentence"),
    [
        ("speed-up", "yielding an almost quadratic speedup over the best classical algorithm."),
        ("speedup", "It gives a 3x speed-up in wall-clock time."),
        ("speed-up", "PrefixRL reaches the same training reward 2x faster than the strongest baseline."),
        ("faster", "It accelerates inference by 2.5x on a single GPU."),
        ("faster", "It achieves better placement quality while reducing the runtime by 10x."),
        ("speed-up", "Our scheduler cuts the running time of each query by 40%."),
        ("fine-tuning", "Finetuning on 10K examples suffices."),
    ],
)
def test_a_measure_is_stated_by_its_unhyphenated_form_or_by_a_word_of_its_class(term, sentence):
    # "what speed-up does it claim?" was answered "does not state speed-up" of "quadratic speedup"
    span = slot_span(Slot(term, (term,), amount=True), sentence)
    assert span is not None and states_amount(sentence[span[0] : span[1]]), sentence


def test_a_word_of_another_measure_does_not_state_a_speed():
    assert slot_span(Slot("speed-up", ("speed-up",), amount=True), "It reduces memory by 2x.") is None
    assert slot_span(Slot("memory", ("memory",), amount=True), "It runs 2x faster.") is None


def test_the_one_paper_a_question_finds_leads_with_the_clause_that_states_its_measure(extractive):
    ans = extractive.ask("What is the speed-up of the quantum algorithm for nested expectations?")
    assert "quadratic speedup" in ans.lead and "cost" not in ans.lead, ans.lead


def test_a_list_items_number_is_no_amount():
    # "what accuracy does model soups reach?" quoted "to (1) train multiple models ... (2) pick the
    # individual model" as the accuracy, not "90.94% top-1 accuracy"
    slot = Slot("accuracy", ("accuracy",), amount=True)
    assert slot_span(slot, "The recipe for maximizing model accuracy is to (1) train models and (2) pick one.") is None
    assert states_amount("(1) Overhead.") is False and states_amount("It reaches 90.94% accuracy.") is True


@pytest.mark.parametrize(
    ("question", "clause"),
    [
        ("what does Agent-Omit omit?", "omit redundant thoughts and observations"),
        ("what does APM replace?", "replace the inner-loop optimization"),
        ("What does DANCE preserve?", "preserves provenance"),
        ("What does SENDAI reconstruct?", "reconstructs full spatial states"),  # the finite verb, not "reconstructing"
    ],
)
def test_the_lead_quotes_the_clause_where_the_verb_acts_on_its_object(extractive, question, clause):
    ans = extractive.ask(question)
    assert not ans.refused and clause in ans.lead, ans.lead


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        # a new user's "how big is the RSAgent model?" led with the baseline's 7B, and a table
        # filled its model size with it
        ("RSAgent reaches 66.5% gIoU on ReasonSeg, improving over Seg-Zero-7B by 9%.", False),
        ("It outperforms LLaMA-65B on most benchmarks.", False),
        ("Our Agent-Omit-8B matches seven frontier LLM agents.", True),
        ("It outperforms LLaMA-65B with a 7B model.", True),  # its own size after the baseline's
    ],
)
def test_a_size_inside_the_name_of_a_model_compared_with_is_not_the_papers(sentence, stated):
    from rag.route.slot import slot_span
    from rag.types import Slot

    slot = Slot("model size", form="model size", amount=True)
    assert (slot_span(slot, sentence) is not None) is stated


# --- a measure stated without a figure; what a dataset contains -----------------------------------

SPEEDY = make_paper(
    "speedy",
    "Sparse solvers are slow on large graphs. We propose QuickSolve, a multigrid solver for sparse graph "
    "Laplacians. QuickSolve converges considerably faster than conjugate gradients on road networks.",
)
HEAVY = make_paper(
    "heavy",
    "Second-order optimizers carry a prohibitive memory overhead. We propose LeanOpt, an optimizer that stores "
    "low-rank curvature. LeanOpt trains ResNets as accurately as Adam.",
)


@pytest.mark.parametrize(
    ("slot", "sentence", "clause"),
    [
        (Slot("speed-up", ("speed-up",), amount=True),
         "Empirically, the method converges markedly faster than gradient descent.", "converges markedly faster"),
        (Slot("speedups", ("speedups",), amount=True),
         "We show that these kernels translate into substantial throughput benefits at scale.",
         "substantial throughput"),
        (Slot("acceleration", ("training", "speedup"), amount=True),
         "In practice it reduces wall-clock time against the baseline optimizer.", "reduces wall-clock time"),
        (Slot("latency", ("latency",), amount=True),
         "Our scheduler lowers latency on every workload.", "lowers latency"),
    ],
)
def test_a_measure_stated_without_a_figure_is_quoted_where_it_stands(slot, sentence, clause):
    span = unquantified_span(slot, sentence)
    assert span is not None and clause in sentence[span[0] : span[1]], span
    assert slot_span(slot, sentence) is None  # no amount: the lead says it gives no figure


@pytest.mark.parametrize(
    ("slot", "sentence"),
    [
        # a count's unit alone says nothing of how many
        (Slot("images", ("images",), amount=True, count=True), "We add out-of-distribution images to the data."),
        # another measure's words
        (Slot("speedup", ("speedup",), amount=True), "The model reaches higher accuracy than the baselines."),
        # the head noun of the measure is not stated ("top-1 accuracy" by "top-1 error")
        (Slot("top-1 accuracy", ("top-1", "accuracy"), amount=True), "We report the top-1 error of each model."),
    ],
)
def test_a_measure_is_not_stated_without_a_figure_by_other_words(slot, sentence):
    assert unquantified_span(slot, sentence) is None


def test_a_term_stated_again_with_its_amount_is_quoted_there():
    # "What sparsity does L1 induce?": not the first "sparsity", which has no amount
    slot = Slot("sparsity", ("sparsity",), amount=True)
    s = ("To back our claims, we give a study of model sparsity, showing that a plain penalty can reach "
         "over 95% sparsity with little loss.")
    span = slot_span(slot, s)
    assert span is not None and "over 95% sparsity" in s[span[0] : span[1]], span


def test_a_measure_the_papers_own_work_states_without_a_figure_is_refused_saying_no_figure_is_given():
    seams = Seams([*PAPERS, SPEEDY, HEAVY])
    ask = seams.plan("what speed-up does QuickSolve get?").ask
    # not declared missing ("does not state speed-up"): its own clause is quoted as the closest, and
    # the figure asked is said not to be given (h63b: it was answered "states no figure", as if it answered)
    refusal = seams.policy.slot(ask, [seams.catalogue["speedy"]])
    said = f"{REFUSAL} The abstract of QuickSolve (speedy) does not state a figure for speed-up"
    assert refusal.startswith(said), refusal
    assert "considerably faster than conjugate gradients" in refusal, refusal
    # the overhead of its background (other optimizers') is not LeanOpt's: declared missing
    ask = seams.plan("how much overhead does LeanOpt add?").ask
    assert ask.slot is not None and ask.slot.terms == ("overhead",)
    refusal = seams.policy.slot(ask, [seams.catalogue["heavy"]])
    assert refusal.startswith(f"{REFUSAL} The abstract of LeanOpt (heavy) does not state overhead"), refusal


@pytest.mark.parametrize(
    "question",
    ["What does the SpokenQA corpus contain?", "what does MedVQA-2 include?", "so what does the benchmark consist of?",
     "What do these splits comprise?", "what does the suite feature"],
)
def test_what_a_dataset_contains_is_one_slot_whatever_the_verb(question):
    slot = read_ask(question).slot
    assert slot is not None and slot.form == CONTENTS, slot


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        # from the first counted clause to the last
        ("Spanning 40 tasks, the corpus holds 12,300 dialogues with speaker labels.",
         "Spanning 40 tasks, the corpus holds 12,300 dialogues"),
        ("The archive consists of 2 M galaxies imaged by two telescopes.", "consists of 2 M galaxies"),
        ("It comprises three splits for training, tuning and testing.", "comprises three splits"),
    ],
)
def test_what_a_dataset_contains_is_stated_by_its_counted_items_or_a_verb_of_containing(sentence, clause):
    slot = Slot("its contents", ("contain",), form=CONTENTS)
    span = slot_span(slot, sentence)
    assert span is not None and clause in sentence[span[0] : span[1]], span


def test_what_a_dataset_contains_is_never_declared_missing():
    seams = Seams(PAPERS)
    ask = seams.plan("what does FoldNet contain?").ask
    assert seams.policy.slot(ask, [seams.catalogue["fold"]]) == ""


def test_a_measure_stated_without_a_figure_leads_with_its_clause_saying_so(extractive):
    # refused since h63b: the paper's own work states the speed-up without a figure, and the
    # refusal quotes that clause as the closest, not another measure's figure
    ans = extractive.ask("the LLM sparsity paper with its own CUDA kernels: how much faster does it run?")
    assert ans.refused and "does not state a figure for" in ans.text and "throughput" in ans.text, ans.text
    assert "99%" not in ans.text, ans.text


def test_what_a_dataset_contains_leads_with_its_counted_items(extractive):
    ans = extractive.ask("So what does ProAct-75 include?")
    assert not ans.refused and "91,581 step-level annotations" in ans.lead and "75 tasks" in ans.lead, ans.lead


# --- a detail named as what something changes with is not asked ---------------------------------


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("How does BLEU of one multilingual model grow with parameter count?", ""),
        ("does the error rate scale with model size, and how?", ""),
        ("plot of accuracy as a function of the number of parameters?", ""),
        ("how does perplexity change with the batch size in TinyServe?", ""),
        # asked: the detail is what the question wants
        ("how many parameters does TinyServe have?", "model size"),
        ("what batch size does FoldNet use?", "hyper-parameters"),
        ("which model size does the accuracy peak at?", "model size"),
    ],
)
def test_a_detail_named_as_what_something_changes_with_is_not_asked(question, asked):
    from rag.question.details import asked_detail

    assert asked_detail(question) == asked


def test_a_question_about_how_a_measure_scales_is_not_refused_for_the_variable():
    seams = Seams(PAPERS)
    # "on 7B and 13B models" would state a size anyway; QCirc states none and is still answered
    plan = seams.plan("how does QCirc's compile quality grow with parameter count?")
    assert plan.detail is None and plan.ask.slot is None
    assert seams.policy.metadata(plan.detail, [seams.catalogue["qc"]], asked=True) == ""


def test_a_part_that_asks_the_problem_is_answered_by_the_problem_sentence(extractive):
    ans = extractive.ask("Which problem was ProAct-75 built for, and what baseline ships with it?")
    assert not ans.refused and "lack of specialized resources" in ans.lead and "ProAct-Helper" in ans.lead, ans.lead


@pytest.mark.parametrize("question", ["how much faster does QCirc run?", "So how much quicker is it?"])
def test_a_speed_comparative_that_names_no_measure_asks_the_speed_up(question):
    slot = read_ask(question).slot
    assert slot is not None and slot.terms == ("speedup",) and slot.amount, slot


def test_a_count_stated_again_later_in_the_sentence_is_quoted_there():
    # "how many mAP does it gain?": not "strong map learning performance", the clause with the figure
    slot = Slot("mAP", ("map",), amount=True, count=True)
    s = "Experiments show strong map learning performance on two datasets, surpassing prior work by 14.2 mAP."
    span = slot_span(slot, s)
    assert span is not None and s[span[0] : span[1]].endswith("by 14.2 mAP"), span


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("We show a 2X-3X acceleration compared to the standard implementation.", True),
        ("It gives a 4x acceleration of decoding.", True),
        ("We collect acceleration sensor data from 40 phones.", False),  # a noun of other things alone
    ],
)
def test_a_ratio_and_a_noun_of_speed_state_a_speed_up(sentence, stated):
    assert (slot_span(Slot("speed-up", ("speed-up",), amount=True), sentence) is not None) is stated


def test_a_speed_up_asked_with_its_amount_is_led_by_the_clause_with_the_figure(tmp_path, embedder):
    # "what does DejaVu speed up and by how much" said "states no figure for speed", quoting a
    # sentence without one, while its abstract reduces "the inference latency of OPT-175B by over 2x"
    from conftest import pipeline_of

    components = pipeline_of(tmp_path, {
        "dv": "Large language models are slow to serve. We propose SkipNet, which predicts contextual sparsity "
              "to speed up inference on the fly. SkipNet reduces the inference latency of OPT-175B by over 2x "
              "compared to the state-of-the-art serving library.",
        "other": "Graph condensation shrinks client graphs. We propose CondenseFL for federated graph learning.",
    }, embedder)
    answer = components.ask("what does SkipNet speed up and by how much?")
    assert "2x" in answer.text.split("\n", 1)[0] and "states no figure" not in answer.text, answer.text


def test_a_count_asked_in_a_clipped_word_is_stated_by_its_full_form():
    # "How many apps does HyperTrack cover?" said its abstract does not state the number of apps,
    # quoting "more than 650 Chinese mobile applications" as closest (glossary: same app application)
    from rag.route.slot import slot_span
    from rag.types import Slot

    slot = Slot("apps", ("apps",), amount=True, count=True)
    sentence = "We introduce HyperTrack, a dataset with over 16000 tasks across more than 650 Chinese mobile apps."
    sentence = sentence.replace("apps.", "applications.")
    span = slot_span(slot, sentence)
    assert span is not None and "650 Chinese mobile applications" in sentence[span[0] : span[1]]


# --- a measure or a link asked in shorthand -------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "terms", "count"),
    [
        ("FoldNet top-1?", ("top-1",), False),
        ("QCirc compile time", ("compile", "time"), False),
        ("TinyServe p99 latency (ms)?", ("p99", "latency"), False),
        ("QCirc num qubits", ("qubits",), True),
        ("FoldNet # layers?", ("layers",), True),
        ("TinyServe no. of GPUs", ("gpus",), True),
    ],
)
def test_a_measure_typed_after_a_name_with_no_question_frame_is_the_slot(question, terms, count):
    # read as "what is <name>'s <measure>?": the words besides the name (a unit in brackets left
    # out), a count after a count mark
    ask = read_ask(question)
    assert ask.amount and ask.slot is not None and ask.slot.terms == terms and ask.slot.count is count, ask.slot


@pytest.mark.parametrize(
    "question",
    [
        "FoldNet protein folding",  # a name and a topic: no measure named
        "what is FoldNet?",
        "compare FoldNet and QCirc accuracy",  # a frame: read as asked
        "top-1 accuracy",  # no name
        "FoldNet C# bindings",  # "#" closing a name is no count mark
    ],
)
def test_a_name_beside_words_that_name_no_measure_is_no_shorthand_amount(question):
    ask = read_ask(question)
    assert not (ask.amount and ask.slot is not None and ask.slot.count), ask.slot
    assert not ask.amount or "what" in question or "compare" in question, ask


@pytest.mark.parametrize(
    ("slot", "sentence", "stated"),
    [
        # the head noun must be stated: its modifiers only narrow it
        (Slot("training time", ("training", "time"), amount=True),
         "We train on 8 tasks and the model trains stably.", False),
        (Slot("annotation cost", ("annotation", "cost"), amount=True),
         "Our dataset features 91,000 step-level annotations.", False),
        (Slot("training time", ("training", "time"), amount=True),
         "It cuts training time by 40% on 8 GPUs.", True),
        # a word of a hyphenated compound is no word of its own
        (Slot("training time", ("training", "time"), amount=True),
         "It enables real-time control of 12 training sites.", False),
        # a noun of change ("reduction") is stated by the amount of what it changes
        (Slot("storage reduction", ("storage", "reduction"), amount=True),
         "The method reduces storage by 65x.", True),
        # a time is stated by a figure in a unit of duration; one narrowed ("training time") by that
        # word beside it, not by an idiom ("for the first time") or another task's duration
        (Slot("runtime", ("runtime",), amount=True), "It prunes OPT-175B in under 4.5 hours.", True),
        (Slot("training time", ("training", "time"), amount=True),
         "It benchmarks a 30B model on 7 scenarios in 21 hours.", False),
        (Slot("training time", ("training", "time"), amount=True),
         "It reaches 1 token/s for the first time.", False),
        (Slot("training time", ("training", "time"), amount=True), "Training takes 3 days on 8 GPUs.", True),
    ],
)
def test_a_measure_is_stated_only_with_its_head_noun(slot, sentence, stated):
    assert (slot_span(slot, sentence) is not None) is stated


@pytest.mark.parametrize(
    ("question", "artifact"),
    [
        ("FoldNet github?", "code"),
        ("QCirc repo link", "code"),
        ("TinyServe weights available?", "models"),
        ("FoldNet dataset link", "data"),
        ("FoldNet code/data", "code"),
        ("FoldNet data", ""),  # the data it uses, not whether it is released
        ("what is FoldNet's github?", ""),  # a question frame: read as asked
        ("github?", ""),  # no name
    ],
)
def test_a_name_and_words_of_a_link_ask_whether_the_artifact_is_available(question, artifact):
    from rag.question.polar import available_in_shorthand

    names = [w for w in ("FoldNet", "QCirc", "TinyServe") if w in question]
    assert available_in_shorthand(question, names) == artifact


@pytest.mark.parametrize(
    ("question", "refused", "stated"),
    [
        ("SENDAI training time?", True, "does not state training time"),  # "real-time" states no time
        ("DocVAL inference latency (s)", True, "does not state inference latency"),
        ("RAST-MoE # of regimes", True, "does not state the number of regimes"),
        ("HyperTrack # apps", False, "650 Chinese mobile applications"),
        ("DANCE token reduction?", False, "33.42% fewer tokens"),
    ],
)
def test_a_measure_asked_in_shorthand_is_answered_or_said_missing_as_if_asked_in_full(
    extractive, question, refused, stated
):
    ans = extractive.ask(question)
    assert ans.refused is refused and stated in ans.text.split("\n")[0], ans.text


@pytest.mark.parametrize(
    ("question", "paper", "lead"),
    [
        ("DANCE repo?", "DANCE", "does not state this: no sentence makes its code available"),
        ("ME-DLM github", "ME-DLM", "Yes: **ME-DLM**"),
        # a release is stated by the release, whatever its noun is set against ("than scaling unfiltered data")
        ("is DocVAL's data released?", "DocVAL", "Yes: **DocVAL**"),
    ],
)
def test_a_link_asked_in_shorthand_is_answered_as_whether_the_code_is_available(extractive, question, paper, lead):
    ans = extractive.ask(question)
    if "does not state this" in lead:  # no sentence makes it available: refused, naming the paper
        assert ans.refused and lead in ans.text and paper in ans.text, ans.text
        return
    assert lead in ans.lead and [c.label for c in ans.citations] == [paper], ans.text


@pytest.mark.parametrize(
    ("question", "largest"),
    [
        ("How big is the largest Muse model?", True),
        ("what is the size of the biggest network they train", True),
        ("how large is its largest backbone?", True),
        ("How big is the Muse model?", False),
    ],
)
def test_the_largest_model_asks_the_greatest_size_stated(question, largest):
    from rag.question.slots import read_slot

    slot = read_slot(question, amount=True)
    assert slot is not None and slot.largest is largest
    if largest:
        assert slot.form == "model size" and not slot.terms


@pytest.mark.parametrize(
    ("sentence", "size"),
    [
        ("TheMuse 3B parameter model achieves an FID of7.88", 3e9),  # glued words, as in the corpus
        ("The largest GLaM has 1.2 trillion parameters, which is approximately 7x larger than GPT-3.", 1.2e12),
        ("a suite of 16 LLMs ranging in size from 70M to 12B parameters", 12e9),
        ("It needs 3x fewer parameters than a dense model.", 0.0),  # relative: no size
        ("We train on 4K-token contexts.", 0.0),
    ],
)
def test_the_greatest_size_a_sentence_states(sentence, size):
    from rag.route.slot import greatest_size

    assert greatest_size(sentence) == size


@pytest.mark.parametrize(
    ("question", "sizes"),
    [
        # every size the paper's own sentences state, not silently the first
        ("How many parameters does it have?", ["350M", "2.7B"]),
        ("How big is the model?", ["350M", "2.7B"]),
        ("how large is it?", ["350M", "2.7B"]),
        # the largest asked: the one sentence stating the greatest size
        ("How big is the largest model?", ["2.7B"]),
        # no size asked
        ("How many speakers does it cover?", []),
    ],
)
def test_a_size_asked_of_one_model_quotes_every_size_its_abstract_states(question, sizes):
    # "How many parameters does Muse have?" answered 900M, the first size, though the abstract
    # goes on to "The Muse 3B parameter model"
    from rag.route.slot import sizes_beside, stating_sentence
    from store.papers import Paper
    from tests.fakes import FakeEvidence

    paper = Paper("q#1", "We present Quill, a text-to-speech model trained on 40 speakers. Our 350M parameter "
                         "model sets a new state of the art on LibriTTS. The Quill 2.7B parameter model reaches "
                         "human parity in naturalness.", title="Quill", label="Quill")
    evidence = FakeEvidence([paper])
    ask = read_ask(question, number="one")
    found = stating_sentence(evidence, ask, paper)
    assert found is not None
    said = [found[0].sentence, *(e.sentence for e, _ in sizes_beside(evidence, ask, paper, found[0]))]
    stated = [z for z in ("350M", "2.7B") if any(z in x for x in said)]
    assert stated == (sizes or stated[:1]) and len(said) == max(1, len(sizes)), said


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        # a detector of generated text is shown on the text it detects
        ("We find DetectGPT notably improves detection of fake news articles generated by 20B parameter GPT-NeoX "
         "from 0.81 AUROC to 0.95 AUROC.", True),
        ("Our detector flags essays written by ChatGPT with 97% accuracy.", True),
        ("The code generated by our compiler runs 2x faster.", False),  # its own output, no data
        ("It does not require collecting a dataset of real or generated passages.", False),
    ],
)
def test_generated_text_a_detector_is_shown_on_is_its_data(sentence, stated):
    from rag.evidence.rows import states_data

    assert states_data(sentence) is stated


@pytest.mark.parametrize(
    ("question", "names", "name", "shorthand"),
    [
        ("What tokenizer does ME-DLM use?", ["ME-DLM"], "tokenizer", False),
        ("which random seeds did they fix?", [], "random seeds", False),
        ("What kind of probes does CA-SOADD construct?", ["CA-SOADD"], "probes", False),
        ("what is the context window of ME-DLM?", ["ME-DLM"], "context window", False),
        ("What's HieRD's tokenizer?", ["HieRD"], "tokenizer", False),
        ("SoT-26K train/test split?", ["SoT-26K"], "train/test split", True),
        ("MCLP listeners in user study?", ["MCLP"], "listeners", True),
    ],
)
def test_a_thing_asked_by_its_noun_is_a_slot(question, names, name, shorthand):
    from rag.question.slots import ENTITY, entity_slot

    slot = entity_slot(question, names, shorthand=shorthand)
    assert slot is not None and slot.form == ENTITY and slot.name == name and not slot.amount


@pytest.mark.parametrize(
    ("question", "names", "name"),
    [
        ("What optimizer does FOAM use?", ["FOAM"], "optimizer"),  # named by an instance ("Adam")
        ("Which metric does SENDAI report?", ["SENDAI"], "metric"),
        ("which encoders does the ride-hailing paper rely on", [], "encoders"),
        ("What languages does the low-resource TTS work cover?", ["TTS"], "languages"),
        ("What kind of activation functions are considered?", [], "activation functions"),
    ],
)
def test_a_noun_named_by_instances_asks_a_clause_to_quote_not_a_word_to_find(question, names, name):
    # "What encoder does RAST-MoE use?" asked no slot, and the lead quoted the background's
    # "existing methods, which rely on shallow encoders"; the slot chooses the own-work clause
    # (rag.route.slot.stating_sentence) and is never refused (rag.route.refusal.RefusalPolicy.slot)
    from rag.question.slots import INSTANCE, entity_slot

    slot = entity_slot(question, names)
    assert slot is not None and slot.form == INSTANCE and slot.name == name and not slot.amount


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("Which optimizer does FOAM speed up?", "instance"),  # a role's cue ("speed up") keeps the thing asked
        ("Which activation functions does the paper on provably efficient bandits consider?", "instance"),
        ("Which random seed does the efficient routing paper fix?", None),  # refusable: no role asked
        ("What method does DANCE propose?", None),  # a method: the paper's approach sentence
    ],
)
def test_a_role_cue_elsewhere_keeps_a_noun_named_by_instances(question, form):
    from rag.question.asks import read_ask

    slot = read_ask(question).slot
    assert (slot.form if slot is not None else None) == form, slot


@pytest.mark.parametrize(
    ("question", "names", "shorthand"),
    [
        ("What problem does DANCE solve?", ["DANCE"], False),  # an aspect: the sentence of that role
        ("Which is better, DANCE or APM?", ["DANCE", "APM"], False),  # no thing asked
        ("Which two quantities does FOAM control dynamically?", ["FOAM"], False),  # instances to name
        ("What happens when the clients drop out?", [], False),
        ("which model performs best on GSM8K", [], False),
        ("What is DocVAL?", ["DocVAL"], False),
        ("Question first: for TinyServe", ["TinyServe"], True),  # shorthand asks a thing of the name it opens with
    ],
)
def test_nouns_named_by_instances_aspects_and_other_frames_ask_no_thing(question, names, shorthand):
    from rag.question.slots import entity_slot

    assert entity_slot(question, names, shorthand=shorthand) is None


@pytest.mark.parametrize(
    ("question", "refused", "stated"),
    [
        # "random seed", "tokenizer", a split: never in these abstracts, asked in full or in shorthand
        ("Which random seeds does DANCE report?", True, "state random seeds"),
        ("HieRD tokenizer?", True, "does not state tokenizer"),
        ("What is the train/test split of ProAct-75?", True, "does not state train/test split"),
        # stated as a word of its own: the clause that states it
        ("What kind of probes does CA-SOADD construct?", False, "off-manifold boundary probes"),
        ("EMPG bonus term?", False, "a bonus term for future clarity"),
    ],
)
def test_a_thing_no_sentence_names_is_said_missing_and_one_named_is_quoted(extractive, question, refused, stated):
    # a thing asked by its noun was answered with some sentence of the paper ("SoT-26K train/test
    # split?" quoted the paper's proposal); now the head noun must be stated (rag.question.slots.ENTITY)
    ans = extractive.ask(question)
    assert ans.refused is refused and stated in ans.text.split("\n")[0], ans.text


@pytest.mark.parametrize(
    ("question", "terms", "count"),
    [
        ("DocVAL annotator count?", ("annotator",), True),  # a count after its unit asks a number of it
        ("what is the task count of HyperTrack", ("task",), True),
        ("HyperTrack task counts", ("task",), True),
        ("Cramming GPU count", ("gpu",), True),  # the unit an acronym read as a name
    ],
)
def test_a_count_after_its_unit_asks_a_number_of_the_unit(question, terms, count):
    names = [w for w in ("DocVAL", "HyperTrack", "GPU") if w in question]
    slot = measure_slot(question, names, shorthand=not question.lower().startswith("what"))
    assert slot is not None and slot.terms == terms and slot.count is count


@pytest.mark.parametrize(
    "question", ["What is the largest model SmoothQuant serves?", "which is the biggest network Pythia trains?"]
)
def test_the_largest_model_asked_as_a_thing_is_the_greatest_size(question):
    from rag.question.slots import entity_slot

    names = [w for w in ("SmoothQuant", "Pythia") if w in question]
    slot = entity_slot(question, names)
    assert slot is not None and slot.largest and slot.form == "model size"


def test_a_single_unit_is_an_amount():
    from rag.route.lead import states_amount

    assert states_amount("trained for a single day on a single consumer GPU")
    assert not states_amount("single-cell data")
    from rag.route.slot import counts

    assert counts("for a single day on a single consumer GPU", "GPU")  # "Cramming GPU count"
    assert not counts("a GPU-friendly single-pass method", "GPU")


@pytest.mark.parametrize(
    "question", ["What KL penalty coefficient does it use?", "which sampling temperature is used?"]
)
def test_a_coefficient_or_a_temperature_asks_a_value(question):
    # "what KL penalty coefficient?" was answered by "the coefficient of the KL penalty" as if stated
    from rag.question.phrasing import asks_quantity

    assert asks_quantity(question, "open")

# --- sizes and ages asked without a measure's noun ------------------------------------------------


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("how big is FoldNet?", SIZE),  # a model's size or a dataset's: neither is named
        ("How large is it?", SIZE),
        ("how big is the FoldNet model?", "model size"),
        ("how large is the gain of FoldNet?", None),  # the gain's amount, no size
    ],
)
def test_a_size_asked_of_a_name_alone_is_a_size_of_either_form(question, form):
    slot = measure_slot(question, ["FoldNet"])
    assert (slot.form if slot is not None else None) == form, slot


@pytest.mark.parametrize(
    ("question", "form", "smaller"),
    [
        ("Which is bigger, FoldNet or QCirc?", SIZE, False),
        ("so which of the two models is smaller?", "model size", True),
        ("which one has the larger model", "model size", False),
        ("which dataset is larger, A or B?", DATA_SIZE, False),
        # a superlative chooses among the papers of a list as a comparative does between two
        ("which one is the largest?", SIZE, False),
        ("which of these models is the smallest?", "model size", True),
    ],
)
def test_a_choice_by_size_asks_the_size_each_abstract_states(question, form, smaller):
    # "Which is bigger, GLaM or PaLM-E?" asked nothing a sentence could state, and both were "not stated"
    assert size_compared(question)
    slot = read_ask(question).slot
    assert slot is not None and slot.form == form and slot.amount and slot.smaller is smaller, slot


@pytest.mark.parametrize(
    ("question", "smaller"),
    [
        # a quantity of parameters chooses by the model's size, as a comparative of size does
        ("which one has the most parameters?", False),
        ("which of them has the fewest params?", True),
        ("so which model has more parameters?", False),
        ("which of these has the smallest number of parameters?", True),
        ("which one has the largest parameter count?", False),
    ],
)
def test_a_choice_by_a_quantity_of_parameters_asks_the_model_size(question, smaller):
    assert size_compared(question)
    slot = read_ask(question).slot
    assert slot is not None and slot.form == "model size" and slot.amount and slot.smaller is smaller, slot


def test_a_quantity_of_parameters_outside_a_choice_chooses_nothing():
    assert not size_compared("how many parameters does GLaM have?")
    assert not size_compared("which one has the most benchmarks?")
    assert not size_compared("does it use fewer parameters than LoRA?")


def test_a_size_word_outside_a_choice_asks_no_size():
    assert not size_compared("which papers train bigger models?")
    assert not size_compared("how does FoldNet scale to larger proteins?")
    assert not size_compared("which one is the fastest?")
    assert read_ask("how does FoldNet scale to larger proteins?").slot is None


@pytest.mark.parametrize(
    ("question", "older"),
    [
        ("which of the two is older?", True),
        ("Which is more recent, FoldNet or QCirc?", False),
        ("which one is newer", False),
    ],
)
def test_a_choice_by_age_asks_the_year_the_records_give(question, older):
    slot = age_slot(question)
    assert slot is not None and slot.form == YEAR and slot.smaller is older


def test_papers_older_than_a_year_ask_for_papers_not_a_choice():
    assert read_ask("which papers are older than 2020", number="many").slot is None


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("The largest model has 1.2 trillion parameters, which is approximately 7x larger than GPT-3.", True),
        ("Spanning 75 tasks, our dataset features 91,581 step-level annotations.", True),  # a dataset's size
        ("It consumes only 1/3 of the energy used to train GPT-3.", False),
    ],
)
def test_a_size_is_stated_by_a_model_size_or_else_a_count_of_items(sentence, stated):
    assert (slot_span(Slot("size", form=SIZE, amount=True), sentence) is not None) is stated


def test_a_model_size_may_have_one_word_between_its_unit_and_parameters():
    assert MODEL_SIZE.search("A Brainformer model with 8 billion activated parameters per token")
    assert MODEL_SIZE.search("a language model with 1B shared parameters")


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("How long does FoldNet take to train?", "training time"),
        ("how long did it take to fine-tune QCirc?", "fine-tuning time"),
    ],
)
def test_how_long_training_takes_is_a_time_of_training(question, name):
    # "How long does PaLM-E take to train?" read no detail once the name left two spaces behind
    slot = Seams(PAPERS).plan(question).ask.slot
    assert slot is not None and slot.name == name and slot.terms[-1] == "time" and slot.amount


def test_a_time_narrowed_by_other_words_is_not_stated_by_the_head_alone():
    # "What is the training time of FlexGen?" quoted "for the first time" beside a throughput figure
    timed = make_paper("gen", "We present GenFast, an inference engine. GenFast reaches 1 token/s for the first time.")
    seams = Seams([*PAPERS, timed])
    plan = seams.plan("What is the training time of GenFast?")
    assert seams.policy.slot(plan.ask, [seams.catalogue["gen"]]).startswith(
        f"{REFUSAL} The abstract of GenFast (gen) does not state training time"
    )
    trained = make_paper("tr", "We present TrainFast, an optimizer. TrainFast cuts the training time to 5.35 hours.")
    seams = Seams([*PAPERS, trained])
    assert seams.policy.slot(seams.plan("What is the training time of TrainFast?").ask, [seams.catalogue["tr"]]) == ""


@pytest.mark.parametrize(
    ("sentence", "noun", "quoted"),
    [
        # the clause that writes the noun, with the clause that names its instances
        ("We compare against strong optimizers, such as Adam and Lion, on language modeling.", "optimizers",
         "We compare against strong optimizers, such as Adam and Lion"),
        ("Along with the corpus we release ToolBox, a toolkit for evaluating agents.", "toolkit",
         "Along with the corpus we release ToolBox, a toolkit for evaluating agents"),
        # no clause of instances beside it: the clause alone
        ("Our encoder is a graph transformer, and it is trained end to end.", "encoder",
         "Our encoder is a graph transformer"),
    ],
)
def test_a_thing_named_by_instances_is_quoted_with_the_clause_that_names_them(sentence, noun, quoted):
    # "Which commercial systems does DGSA beat?" quoted "Our approach outperforms strong commercial
    # systems" without "including ElevenLabs and Gemini Pro"
    from rag.question.slots import INSTANCE
    from rag.route.slot import _with_instances, slot_span
    from rag.types import Slot

    span = slot_span(Slot(noun, (noun,), form=INSTANCE), sentence)
    assert span is not None
    start, end, _ = _with_instances(sentence, span)
    assert sentence[start:end] == quoted


@pytest.mark.parametrize(
    ("slot", "sentence"),
    [
        # a measure's words stated otherwise: the glossary ("overhead" for "cost") ...
        (Slot("rollout cost reduction", ("rollout", "cost", "reduction"), amount=True),
         "Our trainer reduces rollout overhead by nearly an order of magnitude."),
        # ... or the senses ("expense" for "cost", a hand table standing for the embedder)
        (Slot("inference cost", ("inference", "cost"), amount=True),
         "It cuts inference expense by 40% on every benchmark."),
    ],
)
def test_a_measure_stated_in_other_words_is_stated(slot, sentence):
    import re

    def senses(term: str, text: str) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for m in re.finditer(r"expense", text)] if term == "cost" else []

    assert slot_span(slot, sentence, senses) is not None


def test_a_detail_is_never_stated_in_other_words():
    # "what learning rate?" is answered only by its words side by side, whatever the senses say
    def senses(term: str, text: str) -> list[tuple[int, int]]:
        return [(0, len(text.split()[0]))]

    slot = Slot("learning rate", ("learning", "rate"), detail=True)
    assert slot_span(slot, "Training uses a step size of 3e-4 with cosine decay.", senses) is None


@pytest.mark.parametrize(
    ("question", "name"),
    [
        # a role asked by other words ("prove" asks theory, "achieve" a result): the thing must be stated
        ("What regret does the bandit routing paper prove?", "regret"),
        ("Which invariance does FoldNet prove?", "invariance"),
        ("What tokenizer does the paper on provably efficient bandits use?", "tokenizer"),
    ],
)
def test_a_thing_asked_beside_a_role_of_other_words_is_a_slot(question, name):
    # "What regret does the LLM routing paper prove?" quoted a sentence about shadow prices of a
    # paper that states no regret: "prove" asked theory, and the thing was dropped
    slot = read_ask(question, number="one").slot
    assert slot is not None and slot.name == name, slot


@pytest.mark.parametrize(
    "question",
    [
        "What guarantees does QCirc prove?",  # the thing names the role itself: the theory sentence answers
        "What accuracy does FoldNet reach?",
        "What method does TinyServe propose?",  # a method asked: the approach sentence
    ],
)
def test_a_thing_that_names_the_role_asked_is_no_slot(question):
    slot = read_ask(question, number="one").slot
    assert slot is None or slot.form != "entity", slot


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        # "how much more <adjective>": the adjective is the measure, not the subject after the auxiliary
        ("How much more diverse are the sequences FoldNet designs?", ("diverse",)),
        ("how much less noisy are TinyServe's estimates?", ("noisy",)),
        ("How much more compact is a QCirc circuit than the baseline?", ("compact",)),
        # a noun after the degree word is the measure as before
        ("how much less memory does QCirc use?", ("memory",)),
    ],
)
def test_a_comparative_adjective_after_an_amount_opener_is_the_measure(question, terms):
    # "How much more diverse are the antibody sequences of ReprogBert?" asked "antibody sequences"
    # and said no figure is stated, beside "a two-fold increase of diversity"
    slot = measure_slot(question, {"FoldNet", "QCirc", "TinyServe"})
    assert slot is not None and slot.amount and slot.terms == terms, slot


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("Our model provides up to more than a two-fold increase of diversity over the baselines.", True),
        ("Diverse sequences are hard to design.", False),  # the measure, with no amount
    ],
)
def test_a_relative_amount_states_the_comparative_measure(sentence, stated):
    slot = Slot("diverse", ("diverse",), amount=True)
    assert (slot_span(slot, sentence) is not None) is stated


def test_a_thing_asked_of_a_described_paper_that_states_none_is_refused(extractive):
    # the routing paper proves no regret: its abstract is said not to state it, not quoted elsewhere
    ans = extractive.ask("What regret does the LLM routing paper prove?")
    assert ans.refused and "does not state regret" in ans.text, ans.text


# --- a setting's value --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("What is the sampling frequency in TinyServe?", "sampling frequency"),
        ("which temperature does FoldNet anneal to?", "temperature"),
        ("QCirc pruning threshold?", "pruning threshold"),
        ("what is the planning horizon of ReActor?", "planning horizon"),
        ("What compression ratio does TinyServe reach?", "compression ratio"),
    ],
)
def test_a_setting_asked_by_its_noun_asks_its_value(question, name):
    # "What is the eigendecomposition frequency in FOAM?" quoted "dynamically controlling both the
    # damping factor and the eigendecomposition frequency": a mention, no value
    slot = read_ask(question).slot
    assert slot is not None and slot.form == SETTING and slot.amount and slot.name == name, slot


@pytest.mark.parametrize(
    "question", ["What accuracy does FoldNet reach?", "which tokenizer does TinyServe use?", "how many qubits?"]
)
def test_a_measure_or_a_thing_is_no_setting(question):
    slot = read_ask(question).slot
    assert slot is None or slot.form != SETTING, slot


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("The scheduler adapts its sampling frequency to the load of each worker.", False),
        ("Requests arrive under tight sampling-frequency constraints.", False),
        ("We fix the sampling frequency at 16 kHz for every run.", True),
        ("A sampling frequency of four samples per step suffices.", True),
    ],
)
def test_a_setting_is_stated_only_with_a_value(sentence, stated):
    slot = Slot("sampling frequency", ("sampling", "frequency"), amount=True, form=SETTING)
    assert (slot_span(slot, sentence) is not None) is stated
    assert unquantified_span(slot, sentence) is None  # a mention is never quoted as "no figure"


KNOBS = make_paper(
    "knobs",
    "Annealing needs tuning. We propose CoolDown, a sampler that sets its temperature schedule adaptively and tunes "
    "the temperature per chain. CoolDown mixes 3x faster than tempering on 12 benchmarks.",
)


def test_a_setting_only_mentioned_is_refused_with_the_closest_clause():
    seams = Seams([*PAPERS, KNOBS])
    ask = seams.plan("what temperature does CoolDown use?").ask
    refusal = seams.policy.slot(ask, [seams.catalogue["knobs"]])
    assert refusal.startswith(f"{REFUSAL} The abstract of CoolDown (knobs) does not state temperature; closest: “")


@pytest.mark.parametrize(
    ("other", "beside"),
    [
        # the model named by its size again states no other size ("How big is ViT-22B?" quoted
        # "ViT-22B demonstrates increasing performance with scale" as a second size)
        ("Rank-40B generalizes to new markets and new languages.", False),
        ("With 40 billion parameters, the ranker still fits one node.", False),
        # another size is one more, named or with its unit
        ("The Rank-2B variant is the fastest of our models.", True),
        ("A 7B-parameter variant is cheaper to serve.", True),
    ],
)
def test_a_sentence_beside_the_chosen_one_is_quoted_only_for_a_size_of_its_own(other, beside):
    paper = make_paper("rank", f"We train a 40B-parameter ranker (Rank-40B) on web logs. {other}")
    evidence = FakeEvidence([paper])
    first = evidence.sentences(paper)[0][0]
    chosen = Evidence("rank", first.text, first.start, first.end, 1.0)
    ask = replace(read_ask("how big is it?"), slot=Slot("size", form=SIZE, amount=True))
    assert bool(sizes_beside(evidence, ask, paper, chosen)) is beside


@pytest.mark.parametrize(
    ("question", "quoted"),
    [
        # the measure stated without a figure, a gain stated with one in the paper's own work
        ("How much does Lumen improve sample efficiency?", "raises success rate by 12 points"),
        ("By how much does Lumen boost its sample efficiency?", "raises success rate by 12 points"),
        ("How much better is Lumen at exploration?", "raises success rate by 12 points"),
        # a cut asked: the cut stated with a figure, not the gain
        ("By how much does Lumen lower the variance of its gradients?", "cuts wall-clock time by 3x"),
        # the measure stated with its own figure keeps its clause
        ("How much does Lumen improve success rate?", "raises success rate by 12 points"),
    ],
)
def test_a_change_asked_of_a_measure_stated_without_a_figure_quotes_the_figure_of_that_change(question, quoted):
    # "How much does AdaDPS improve optimization performance?" said "states no figure for
    # optimization" though the abstract states "AdaDPS improves accuracy by 7.7% (absolute)"
    from rag.route.slot import stating_sentence
    from store.papers import Paper
    from tests.fakes import FakeEvidence

    paper = Paper("l#1", "Exploration in sparse-reward tasks wastes most environment steps. We propose Lumen, which "
                         "reuses failed episodes and thereby improves sample efficiency and lowers gradient variance. "
                         "Lumen explores better in mazes. On twelve navigation tasks, Lumen raises success rate "
                         "by 12 points, and it cuts wall-clock time by 3x.", title="Lumen", label="Lumen")
    ask = read_ask(question, number="one")
    found = stating_sentence(FakeEvidence([paper]), ask, paper)
    assert found is not None
    e, (a, b, _) = found
    assert quoted in e.sentence[a:b], e.sentence[a:b]


@pytest.mark.parametrize(
    "question",
    [
        "How much does Lumen reduce the noise?",  # a cut asked, only a gain stated with a figure
        "How much does Lumen improve sample efficiency?",  # no figure at all
    ],
)
def test_a_change_is_not_answered_by_a_figure_of_the_other_direction_or_by_none(question):
    from rag.route.slot import stating_sentence
    from store.papers import Paper
    from tests.fakes import FakeEvidence

    paper = Paper("l#2", "We propose Lumen, which reduces the noise of its estimates and improves sample efficiency. "
                         "Lumen raises success rate by 12 points on twelve navigation tasks." if "noise" in question
                  else "We propose Lumen, which improves sample efficiency in sparse-reward tasks.",
                  title="Lumen", label="Lumen")
    ask = read_ask(question, number="one")
    found = stating_sentence(FakeEvidence([paper]), ask, paper)
    assert found is not None
    e, (a, b, _) = found
    assert not any(c.isdigit() for c in e.sentence[a:b]), e.sentence[a:b]


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("What gain does AdaDPS bring in private settings?", ["AdaDPS"]),
        ("What speedup does Lumen give?", ["Lumen"]),
        ("How much improvement does DoPR deliver?", ["DoPR"]),
    ],
)
def test_a_verb_after_the_paper_named_as_subject_is_no_measure(question, name):
    # "What gain does AdaDPS bring ...?" was refused: "The abstract of AdaDPS does not state bring"
    slot = measure_slot(question, name)
    assert slot is None or not ({"bring", "give", "deliver"} & set(slot.terms)), slot


def test_a_measure_read_after_the_auxiliary_is_still_its_subject():
    slot = measure_slot("by what factor does the final reward go up")
    assert slot is not None and slot.terms == ("final", "reward")


def test_a_gain_stated_for_another_measure_leads_with_its_figure_and_says_so(tmp_path, embedder):
    # "How much does AdaDPS improve optimization performance?" said "states no figure for
    # optimization" though "AdaDPS improves accuracy by 7.7% (absolute)"; the figure leads now,
    # saying it is not given for the measure asked by name
    from conftest import pipeline_of

    components = pipeline_of(tmp_path, {
        "ts": "Sparse rewards make exploration slow. We propose TideSearch, which reuses failed rollouts and "
              "thereby improves sample efficiency. On twelve maze tasks, TideSearch raises the success rate by "
              "14 points over the strongest baseline.",
        "other": "Graph condensation shrinks client graphs. We propose CondenseFL for federated graph learning.",
    }, embedder)
    lead = components.ask("By how much does TideSearch improve sample efficiency?").text.split("\n", 1)[0]
    assert "14 points" in lead and "no figure for sample efficiency by name" in lead, lead
    lead = components.ask("How much does TideSearch raise the success rate?").text.split("\n", 1)[0]
    assert "14 points" in lead and "by name" not in lead, lead


# --- h56c: the clause that states the slot -------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "sentence", "stated"),
    [
        # a count of environments worded as their instances ("benchmarks", "games", "domains")
        ("Otter num envs?", "Our experiments in seven Procgen benchmarks show that Otter adapts quickly.", True),
        ("How many environments is Otter tested in?", "Otter wins on 12 Atari games against strong baselines.", True),
        ("how many environments does Otter use?", "We evaluate Otter across three domains: mazes and grids.", True),
        ("How many datasets does Otter use?", "Experiments on 10 benchmarks show that Otter is accurate.", True),
        # the instance noun without a number counts nothing
        ("Otter num envs?", "Experiments across diverse benchmarks show that Otter adapts quickly.", False),
        # one way only: environments do not state a count of tasks or of benchmarks
        ("How many tasks does Otter use?", "Otter is evaluated in four locomotion environments.", False),
        ("How many benchmarks does Otter use?", "Otter is evaluated on five datasets.", False),
        # an instance noun that only modifies the counted one counts nothing
        ("Otter num envs?", "Empirical studies on four benchmark datasets show that Otter is accurate.", False),
    ],
)
def test_a_count_is_stated_by_a_number_of_its_instances_in_other_words(question, sentence, stated):
    # "Prompt-DT num envs?" was refused though "five MuJoCo control benchmarks" are its environments
    slot = measure_slot(question, ["Otter"])
    assert slot is not None and slot.count, slot
    assert (slot_span(slot, sentence) is not None) is stated


def test_the_data_a_paper_names_is_quoted_before_data_it_only_words():
    # "What data is ClimaX pretrained on?" quoted "superior performance on benchmarks for weather
    # forecasting ..., even when pretrained at lower resolutions" before "... on climate datasets derived from CMIP6"
    from rag.route import slot as slot_module
    from rag.route.slot import stating_sentence
    from store.papers import Paper
    from tests.fakes import FakeEvidence

    paper = Paper("h#1", "Heron is a flood model. Heron is trained with a masked objective on river datasets from "
                         "GRDC. We show that Heron, even when it is trained at low resolution, is what data efficient "
                         "forecasting needs on benchmarks for floods.", title="Heron", label="Heron")
    ask = read_ask("What data is Heron trained on?", number="one")
    found = stating_sentence(FakeEvidence([paper]), ask, paper)
    assert found is not None and "GRDC" in found[0].sentence[found[1][0] : found[1][1]]
    assert slot_module.names_own_data("on river datasets from GRDC", paper)
    # the paper's own name, or an abbreviation the glossary spells out, names no data
    assert not slot_module.names_own_data("Heron results in superior performance on benchmarks", paper)
    assert not slot_module.names_own_data("LLMs trained with RL on benchmarks", paper)


@pytest.mark.parametrize(
    ("sentence", "items"),
    [
        ("Moreover, we empirically evaluate our approach on several standard continuous control tasks and suites "
         "including DMC, Meta-World and ManiSkill and find that with our augmentation we consistently beat the "
         "strongest model-free baselines by a wide margin in every single setting.",
         ["DMC", "Meta-World", "ManiSkill"]),
        ("In extensive experiments we compare our new family of optimizers against strong tuned baselines on many "
         "vision benchmarks such as CIFAR-10, ImageNet, and Places365 and observe consistent gains throughout training "
         "for every one of the model sizes we tried.",
         ["CIFAR-10", "ImageNet", "Places365"]),
    ],
)
def test_a_quotation_is_not_cut_inside_a_list_of_names(sentence, items):
    # the Koopman Q-learning lead ended at "including D4RL", dropping Metaworld and Robosuite
    from rag.route.lead import key_clause

    a, b, _ = key_clause(sentence)
    assert all(x in sentence[a:b] for x in items), sentence[a:b]


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        # another verb that reports a finding states "what does X find?"
        ("We apply Heron to river basins, and demonstrate stable forecasts for a decade of simulated time.",
         "demonstrate stable forecasts for a decade of simulated time"),
        # an object opened as a clause runs past its comma
        ("Finally, we observe that after pruning the attention heads, models are considerably faster.",
         "models are considerably faster"),
        ("We find that when data is scarce, Heron outperforms tuned baselines.", "Heron outperforms tuned baselines"),
        # the paper's model after another reporting verb is no finding
        ("We develop and demonstrate Heron, a flexible flood model.", None),
    ],
)
def test_what_a_paper_finds_is_stated_by_any_verb_that_reports_a_finding(sentence, found):
    # "What does the paper that learns stable dynamics on the sphere ... find?" quoted the approach
    # ("we generalize FNOs on the sphere"), and "we find that after applying methods to deduplicate
    # training data" stopped before what was found
    slot = Slot("find", ("find",), form=OBJECT)
    span = slot_span(slot, sentence)
    if found is None:
        assert span is None, sentence[span[0] : span[1]]
    else:
        assert span is not None and found in sentence[span[0] : span[1]], span


def test_a_measure_asked_of_a_described_paper_is_refused_when_no_sentence_states_it(extractive):
    # "SFNO speedup?" led with "stable autoregressive rollouts ... (1,460 steps)" as if it were the speedup
    ans = extractive.ask("What speedup does the clause-literal hypergraph SAT paper report?")
    assert ans.refused and "does not state speedup" in ans.text, ans.text
    ans = extractive.ask("What speedup does the quantum nested expectations paper report?")
    assert not ans.refused and "quadratic speedup" in ans.text, ans.text


# --- an amount asked as a ratio -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "ratio"),
    [
        ("By what factor does Quill shrink its cache?", True),
        ("how many times faster is Quill's decoding than the baseline?", True),
        ("By how many times does Quill shrink the cache?", True),
        ("By how much does Quill shrink its cache?", False),
        ("How many tokens does Quill cache?", False),
    ],
)
def test_an_amount_asked_as_a_factor_asks_a_ratio(question, ratio):
    slot = read_ask(question, number="one").slot
    assert slot is not None and slot.ratio is ratio, slot
    assert not slot.count or not ratio  # "how many times": no count of "times"


@pytest.mark.parametrize(
    ("question", "quoted"),
    [
        # a number of the measure's own noun in one sentence, its ratio in another
        ("By what factor does Quill shrink its cache?", "a 40x smaller cache"),
        ("By what factor does Quill cut the cache?", "a 40x smaller cache"),
        # the ratio in words
        ("By what factor does Quill speed up decoding?", "by an order of magnitude"),
        # asked without a ratio: the figure found first, as before
        ("How much does Quill shrink its cache?", "two cache tables"),
    ],
)
def test_an_amount_asked_as_a_ratio_is_answered_by_the_clause_stating_one(question, quoted):
    # "By what factor does APM reduce storage?" led with "replaces checkpoint-intensive storage
    # with only two cached matrices"; the 65x storage reduction was only in the evidence
    from rag.route.slot import stating_sentence
    from store.papers import Paper
    from tests.fakes import FakeEvidence

    paper = Paper("q#1", "Long-context decoding keeps a large key-value cache. We propose Quill, which keeps its cache "
                         "in two cache tables and compresses old entries. Quill speeds up decoding by an order of "
                         "magnitude on long inputs. On six benchmarks, Quill needs a 40x smaller cache than full "
                         "attention at equal accuracy.", title="Quill", label="Quill")
    ask = read_ask(question, number="one")
    found = stating_sentence(FakeEvidence([paper]), ask, paper)
    assert found is not None
    e, (a, b, _) = found
    assert quoted in e.sentence[a:b], e.sentence[a:b]


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("reduces memory by 12$\\times$ on average", True),
        ("a 3.5x speedup", True),
        ("a three-fold increase of diversity", True),
        ("needs 5-6 times as much data", True),
        ("halves the number of steps", True),
        ("trained on 64x64 images", False),
        ("in order to reduce", False),
        ("with only two cached matrices", False),
        ("improves accuracy by 12%", False),
    ],
)
def test_a_ratio_is_stated_by_a_factor_a_ratio_unit_or_words(text, stated):
    from rag.route.slot import states_ratio

    assert states_ratio(text) is stated


@pytest.mark.parametrize("question", ["FoldNet hardware?", "which machines does TinyServe run on?", "QCirc compute?"])
def test_hardware_asked_in_shorthand_is_the_detail_what_hardware_asks(question):
    # "APM hardware?" quoted "generalization performance in cross-architecture evaluation" as if it
    # answered, where "What hardware does APM use?" said the abstract states no hardware or compute
    from rag.question.reader import read_question

    plan = read_question(question)
    assert plan.ask.slot is not None and plan.ask.slot.form == HARDWARE and plan.ask.slot.detail, plan.ask.slot
    assert plan.detail is not None and plan.detail.kind == "hardware or compute"


@pytest.mark.parametrize("question", ["FoldNet hardware design?", "Which papers study hardware?"])
def test_hardware_as_a_topic_or_with_another_noun_is_no_detail(question):
    from rag.question.reader import read_question

    plan = read_question(question)
    assert plan.detail is None, plan.detail


@pytest.mark.parametrize(
    ("question", "refused", "stated"),
    [
        # a name only one abstract writes, no sentence of it states data: not stated, not its method
        ("What data is rMLMC evaluated on?", True, "does not state the data it uses"),
        # one that does: its sentence
        ("MODIS datasets?", False, "vegetation index fields across six globally distributed sites"),
    ],
)
def test_the_data_asked_of_a_name_one_abstract_writes_is_stated_or_said_missing(extractive, question, refused, stated):
    # "HDMI datasets?" led with HDMI's cascade-framework (method) sentence though its abstract names
    # no data; the data is asked of the paper the name finds as of a named paper
    ans = extractive.ask(question)
    assert ans.refused is refused and stated in ans.text.split("\n")[0], ans.text


@pytest.mark.parametrize(
    ("question", "refused", "stated"),
    [
        # hardware named, but of robot hands: quoted, with the note that no compute is named
        ("DexMachina hardware?", False, "no GPU, TPU or other compute is named"),
        ("What hardware does DexMachina use?", False, "no GPU, TPU or other compute is named"),
        # none named at all: not stated
        ("APM hardware?", True, "not state hardware or compute"),
    ],
)
def test_hardware_in_general_is_quoted_with_a_note_that_no_compute_is_named(extractive, question, refused, stated):
    # "DexMachina hardware?" quoted "identifying desirable hardware capabilities" (robot hands) as if
    # it named what DexMachina runs on
    ans = extractive.ask(question)
    assert ans.refused is refused and stated in ans.text.split("\n")[0], ans.text


# --- an amount asked in a unit, a count asked as a change ---------------------------------------


@pytest.mark.parametrize(
    ("question", "sentence", "stated"),
    [
        # only a figure in the unit asked states it: another amount of the dataset is no size in tokens
        ("how large is TinyServe's pretraining corpus, measured in tokens?", "It is trained on 300B tokens.", True),
        ("how large is TinyServe's pretraining corpus, measured in tokens?", "Its corpus spans 40 languages.", False),
        ("TinyServe decoding latency (ms)?", "It cuts decoding latency to 12 ms per token.", True),
        ("TinyServe decoding latency (ms)?", "It cuts decoding latency by 40%.", False),
        # a duration or a memory in any unit of its kind
        ("TinyServe fine-tuning time, in minutes?", "Its fine-tuning time is 3 hours on one GPU.", True),
        ("TinyServe fine-tuning time, in minutes?", "Its fine-tuning time drops by 40%.", False),
    ],
)
def test_an_amount_asked_in_a_unit_is_stated_only_in_that_unit(question, sentence, stated):
    # "how big is the corpus GLaM was pretrained on, in tokens?" was answered by "across 29 NLP tasks"
    slot = read_ask(question, number="one", names=("TinyServe",)).slot
    assert slot is not None and slot.unit, slot
    assert (slot_span(slot, sentence) is not None) is stated


def test_a_place_is_no_unit():
    slot = read_ask("What BLEU does TinyServe reach in WMT14?", number="one", names=("TinyServe",)).slot
    assert slot is not None and slot.unit == "", slot


@pytest.mark.parametrize(
    ("question", "sentence", "stated"),
    [
        ("How many FLOPs does TinyServe save?", "It saves 38% of the FLOPs of dense decoding.", True),
        ("how many layers does TinyServe drop?", "It drops half of the layers at 2x lower cost.", True),
        ("how many layers does TinyServe drop?", "It drops layers adaptively.", False),
        # no change asked: a share counts nothing
        ("how many layers does TinyServe have?", "It keeps 38% of the layers.", False),
    ],
)
def test_a_count_asked_as_a_change_is_stated_by_a_share_of_it(question, sentence, stated):
    # "How many tensor products does QHNet cut?" was "not stated" beside "the reduction of number of
    # tensor products by 92%"
    slot = read_ask(question, number="one", names=("TinyServe",)).slot
    assert slot is not None and slot.count, slot
    assert (slot_span(slot, sentence) is not None) is stated


@pytest.mark.parametrize(
    ("question", "refused"),
    [
        ("TinyServe training wall-clock, in hours?", True),
        ("how large is the TinyServe pretraining set, in tokens?", True),
        ("TinyServe gpu-hrs?", True),
        ("in what city are the TinyServe authors located?", True),
        ("QCirc: number of qubits?", True),
    ],
)
def test_a_detail_in_new_words_or_units_is_refused_when_no_sentence_states_it(question, refused):
    seams = Seams(PAPERS)
    plan = seams.plan(question)
    papers = [seams.catalogue[p] for p in plan.named_ids]
    refusal = seams.named_refusal(question) or seams.policy.slot(plan.ask, papers)
    assert bool(refusal) is refused, (question, plan.ask.slot, plan.detail)


@pytest.mark.parametrize(
    ("question", "quoted", "left_out"),
    [
        # the setting the question states picks the clause (and the sentence) at that setting
        ("How much faster is Lumen's sampler at batch size 512?", "40x at 512", None),
        ("What speedup does the Lumen sampler give at batch size 64?", "3x faster", "40x"),
        ("What success rate does Lumen reach on the 20-room maze?", "71%", "54%"),
    ],
)
def test_the_clause_at_the_setting_the_question_states_answers_it(question, quoted, left_out):
    from rag.route.slot import stating_sentence
    from store.papers import Paper
    from tests.fakes import FakeEvidence

    paper = Paper("l#3", "We propose Lumen, a sampler for sparse-reward tasks. Lumen's sampler is 3x faster than the "
                         "baseline at batch size 64, and 40x at 512. Lumen reaches a 54% success rate on the 10-room "
                         "maze. On the 20-room maze, its success rate is 71%.", title="Lumen", label="Lumen")
    ask = read_ask(question, number="one", names=("Lumen",))
    found = stating_sentence(FakeEvidence([paper]), ask, paper)
    assert found is not None
    e, (a, b, _) = found
    assert quoted in e.sentence[a:b], e.sentence[a:b]
    assert left_out is None or left_out not in e.sentence[a:b], e.sentence[a:b]


def test_numbers_inside_names_are_no_setting_asked():
    asked = read_ask("How many GPUs does Lumen-7B need to serve OPT-175B?", names=("Lumen-7B",))
    assert asked.conditions == frozenset()
    assert read_ask("what accuracy at a 4% ratio?").conditions == {"4%"}


@pytest.mark.parametrize(
    "question",
    [
        "What is the name of the paper that reuses failed episodes?",
        "what's the title of the method that explores mazes with failed episodes?",
        "What is the name of this framework?",
    ],
)
def test_the_name_of_a_paper_asks_which_paper_not_a_slot(question):
    from rag.question.slots import entity_slot

    assert entity_slot(question) is None
    # the name of a thing the paper makes is a detail of it
    assert entity_slot("What is the name of the dataset Lumen releases?", ("Lumen",)) is not None


# --- h63b: a measure stated only without a figure, asked in shorthand on a setting ---------------

VOXFLOW = make_paper(
    "wn2",
    "Speech synthesis models are slow. We propose VoxFlow, a parallel vocoder for speech synthesis. "
    "VoxFlow clearly improves naturalness and reduces latency on mobile devices.",
    title="VoxFlow: Parallel Vocoding",
)


@pytest.mark.parametrize(
    "question",
    [
        "how much does VoxFlow reduce latency?",  # the measure is stated, with no figure
        "VoxFlow latency on mobile devices?",  # shorthand, the measure before the setting asked on it
        "what is the latency of VoxFlow?",
    ],
)
def test_a_measure_its_own_work_states_without_a_figure_is_refused_saying_no_figure_is_given(question):
    # "FOCUS: how big is the accuracy drop in uncommon settings?" was answered "states no figure for
    # accuracy; it states: ..." (not counted as a refusal): the figure asked is not stated
    seams = Seams([*PAPERS, VOXFLOW])
    plan = seams.plan(question)
    refusal = seams.policy.slot(plan.ask, [seams.catalogue["wn2"]])
    assert refusal.startswith(REFUSAL) and "does not state a figure for" in refusal, (question, refusal)
    assert "reduces latency" in refusal, refusal


def test_a_measure_asked_in_shorthand_on_a_setting_names_the_measure_before_it():
    # "STEP accuracy on CIFAR?" asked no slot: the last word ("CIFAR", a name) is no measure
    assert asks_in_shorthand("Muse FID on CC3M", ["Muse", "CC3M"])
    assert asks_in_shorthand("SDQ top-1 accuracy with ResNet-18?", ["SDQ", "ResNet-18"])
    assert read_ask("GraphX MAE on OC20?", number="one", names=("GraphX", "OC20")).slot.terms == ("mae",)
    # a phrase whose head before the setting names no measure is no amount asked
    assert not asks_in_shorthand("ME-DLM tokenizer for code", ["ME-DLM"])
    assert not asks_in_shorthand("DANCE federated graph learning", ["DANCE"])


def test_a_measure_asked_on_a_benchmark_is_stated_by_an_amount_of_its_kind_beside_it():
    # "SparseGPT pruning time on OPT-175B" (h63b): "on ... OPT-175B and BLOOM-176B, in under 4.5
    # hours" states a time on the benchmark asked, though not in the words "pruning time"
    from rag.route.slot import states_in_kind

    time = Slot("pruning time", ("pruning", "time"), amount=True)
    assert states_in_kind(time, "We run it on OPT-66B in under 3 hours.")
    assert not states_in_kind(time, "We run it on OPT-66B with 50% sparsity.")
    assert states_in_kind(Slot("memory", ("memory",), amount=True), "It fits a 30B model on a 16GB GPU.")
    # a measure no unit shows: a resolution beside the benchmark is no FID
    assert not states_in_kind(Slot("FID", ("fid",), amount=True), "on standard benchmarks such as LSUN 256x256")


def test_which_thing_of_a_kind_is_answered_by_the_clause_that_names_one():
    # "which satellite sensor does SENDAI use?" quoted the proposal's "from hyper sparse sensor
    # observations" (the noun, no sensor named), not "satellite remote sensing, reconstructing MODIS ..."
    from rag.route.slot import stating_sentence
    from store.papers import Paper

    paper = Paper("t#1", "We present Tessera, a Fusion EngiNe that builds dense maps from sparse sensor readings. "
                         "We demonstrate it on satellite imagery, reconstructing VIIRS surface reflectance over "
                         "ten regions.", title="Tessera", label="Tessera")
    for question in ("which satellite sensor does Tessera use?", "what kind of satellite sensor does Tessera rely on?"):
        found = stating_sentence(FakeEvidence([paper]), read_ask(question, number="one"), paper)
        assert found is not None
        e, (a, b, _) = found
        assert "VIIRS" in e.sentence[a:b], (question, e.sentence[a:b])
    # no sentence names one beside a word of the kind: the clause that writes the noun, as before
    plain = Paper("t#2", "We present Tessera, which builds dense maps from sparse sensor readings. We demonstrate it "
                         "on VIIRS reflectance.", title="Tessera", label="Tessera")
    found = stating_sentence(FakeEvidence([plain]), read_ask("which sensor does Tessera use?", number="one"), plain)
    assert found is not None and "sensor readings" in found[0].sentence[found[1][0] : found[1][1]]


def test_the_data_a_paper_is_shown_in_is_quoted_from_the_clause_that_names_its_setting():
    # "which robotic simulator is ELLM evaluated in?" quoted "showing that ELLM-trained agents ...",
    # the clause after "We evaluate ELLM in the Crafter game environment and the Housekeep robotic simulator"
    sentence = ("We test Tessera in the Habitat indoor simulator and the Gibson scanned environments, showing "
                "that its agents map rooms faster on a range of downstream tasks.")
    ask = read_ask("which simulator is Tessera evaluated in?", number="one")
    assert ask.slot is not None
    span = slot_span(ask.slot, sentence)
    assert span is not None and "Habitat" in sentence[span[0] : span[1]], span


TIDE = make_paper(
    "tide",
    "Existing forecasters rely on Transformers. We propose TideNet, a recurrent forecaster. We evaluate TideNet "
    "on numerous forecasting benchmarks, where it outperforms several strong baselines.",
)
GRID = make_paper(
    "grid",
    "Exploration is hard in sparse-reward tasks. We propose GridWalker, an exploration bonus. GridWalker is tested "
    "on three environments such as MiniGrid and Procgen, and improves over various baselines, including RND.",
)


@pytest.mark.parametrize(
    ("question", "paper", "refused"),
    [
        ("TideNet: what baselines does it beat?", "tide", True),  # "several strong baselines"
        ("which benchmarks is TideNet evaluated on?", "tide", False),  # the data slot: stated by "on ... benchmarks"
        ("GridWalker: which environments?", "grid", False),  # "three environments such as MiniGrid and Procgen"
        ("which baselines does GridWalker improve over?", "grid", False),  # "including RND"
        ("which encoder does TideNet use?", "tide", False),  # the noun written nowhere: never refused
    ],
)
def test_a_thing_named_by_instances_written_only_as_a_vague_group_is_refused(question, paper, refused):
    # "ReDo: which RL algorithms?", "Master-ASR: which languages?" were answered with "a variety of
    # algorithms and environments", "different languages", which name none
    seams = Seams([*PAPERS, TIDE, GRID])
    plan = seams.plan(question)
    refusal = seams.policy.slot(plan.ask, [seams.catalogue[paper]])
    assert bool(refusal) is refused, (question, plan.ask.slot, refusal)
    if refused:
        assert refusal.startswith(REFUSAL) and "names no" in refusal and "“" in refusal, refusal


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("QCirc: which optimizer?", "optimizer"),
        ("the FoldNet paper: what tokenizer does it use?", "tokenizer"),
        ("GridWalker: which environments did they pick?", "environments"),
    ],
)
def test_a_thing_asked_after_a_heading_that_names_the_paper_is_its_slot(question, name):
    slot = read_ask(question, number="one", names=("QCirc", "FoldNet", "GridWalker")).slot
    assert slot is not None and slot.name == name, slot


# --- a count stated before coordinated words, the size "of" a thing (issue 32, item 2) -------------


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        # the count and what it counts are one clause: the commas join adjectives, they end no clause
        ("Our agent is evaluated across 9 spatial, temporal, and semantic grounding benchmarks from two suites.",
         "9 spatial, temporal, and semantic grounding benchmarks"),
        ("We collect 40 indoor, outdoor or aerial navigation tasks, and we release them.",
         "40 indoor, outdoor or aerial navigation tasks"),
    ],
)
def test_a_count_before_coordinated_words_is_stated_with_what_it_counts(sentence, clause):
    spans = [sentence[a:b] for a, b in clause_spans(sentence)]
    assert any(clause in s for s in spans), spans
    unit = clause.split()[-1]
    slot = read_ask(f"How many {clause.split()[-2]} {unit} does it use?", names=()).slot
    assert slot is not None and slot.count
    span = slot_span(slot, sentence)
    assert span is not None and clause.split()[0] in sentence[span[0] : span[1]], (slot, span)


@pytest.mark.parametrize(
    "sentence",
    [
        "However, training and inference are slow, and we fix it.",  # an opener is no item
        "It improves accuracy, robustness, and we show why.",  # a clause after "and we"
    ],
)
def test_a_clause_after_a_list_still_ends_at_its_comma(sentence):
    assert len(clause_spans(sentence)) == 3


@pytest.mark.parametrize(
    ("question", "form", "terms"),
    [
        ("ATLAS: size of the retrieval index?", "", ("retrieval", "index")),
        ("what is the size of the memory bank of MemNet?", "", ("memory", "bank")),
        ("RAST-MoE: size of the model?", "model size", ()),
    ],
)
def test_the_size_of_a_thing_asks_its_amount_not_a_setting_named_size(question, form, terms):
    slot = read_ask(question, names=("ATLAS", "MemNet", "RAST-MoE")).slot
    assert slot is not None and slot.amount and slot.form == form and slot.terms == terms, slot


# --- a slot stated in another form than asked: compounds, inflections, a degree of the measure -----


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # asked with its hyphen, written open
        ("How much does Nova reduce its memory-footprint?", "Nova reduces the memory footprint of attention by 40%."),
        # two nouns asked the other way round ("labelled frames": "frame-level labels")
        ("How many labelled frames does Vista contain?", "Vista contains 40,000 frame-level labels from 12 cities."),
        # a degree noun after the measure ("compression level"): the measure's figure states it
        ("what compression level does Nova reach?", "Nova reaches 12x compression with no loss in accuracy."),
        ("what noise level can Vela tolerate?", "Vela remains accurate under 30% label noise."),
    ],
)
def test_a_measure_asked_in_another_form_than_the_sentence_writes_it_is_stated(question, sentence):
    slot = measure_slot(question, ("Nova", "Vela", "Vista"))
    assert slot is not None
    assert slot_span(slot, sentence) is not None, slot


def test_a_degree_noun_names_no_measure_unless_it_is_the_only_noun():
    level = measure_slot("What sparsity level does the pruning paper reach?")
    assert level is not None and level.terms == ("sparsity",) and level.name == "sparsity level"
    counted = measure_slot("How many hierarchy levels does it define?")
    assert counted is not None and counted.count and counted.terms[-1] == "levels"


def test_open_compounds_are_split_only_where_the_sentence_writes_them_open():
    from rag.lexicon import open_compounds

    assert open_compounds(("trigger-detection", "mf1"), "improving trigger detection mF1") == ("trigger", "detection",
                                                                                               "mf1")
    assert open_compounds(("fine-tuning",), "with fine-tuning on it") == ("fine-tuning",)
    assert open_compounds(("fine-tuning",), "with finetuning on it") == ("fine-tuning",)
    assert open_compounds(("step-level",), "its levels of steps") == ("step-level",)
    # ... and a measure in another form still needs every word it is asked by
    for question, sentence in [
        ("what compression level does Nova reach?", "Nova reaches a 12x speedup at no loss in accuracy."),
        ("How many labelled frames does Vista contain?", "Vista covers 40,000 real-time labels from 12 cities."),
    ]:
        slot = measure_slot(question, ("Nova", "Vista"))
        assert slot is not None and slot_span(slot, sentence) is None, slot


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        ("What are Orca's anchors derived from?", "Orca aligns its features with PCA-derived anchors across views."),
        ("what is Orca's sampler guided by?", "We introduce an energy-guided sampler that avoids mode collapse."),
    ],
)
def test_a_participle_asked_is_stated_by_the_compound_it_ends(question, sentence):
    ask = read_ask(question, number="one", names=("Orca",))
    assert ask.slot is not None
    assert slot_span(ask.slot, sentence) is not None, ask.slot
    # "real-time monitoring" states no training time: a noun inside a compound is no participle
    time = measure_slot("what training time does Orca need?", ("Orca",))
    assert time is not None and slot_span(time, "Orca enables real-time training monitoring.") is None


def test_a_measure_noun_that_modifies_a_thing_asks_the_thing_not_an_amount():
    from rag.question.phrasing import asks_quantity

    things = ["What loss function does Orca use?", "what reward model does Orca train with?"]
    amounts = ["What sparsity level does Orca reach?", "what accuracy gain does Orca report?",
               "What's the top-1 accuracy Orca gets on ImageNet?", "what error rate does Orca report?",
               "what is the memory consumption of Orca?"]
    assert [asks_quantity(q, "one") for q in things + amounts] == [False] * len(things) + [True] * len(amounts)


FORMS = Path(__file__).parent / "fixtures" / "slot_forms.jsonl"


def test_details_stated_in_other_forms_are_answered_and_unstated_ones_refused(extractive):
    """Every question of ``fixtures/slot_forms.jsonl`` (phrasings written against the seed papers
    in other forms than their abstracts use): refused when the gold is empty, else answered citing
    the gold paper with its facts in the lead."""
    wrong = _wrong_answers(extractive, _questions(FORMS))
    assert not wrong, wrong


def test_a_name_in_the_description_of_the_paper_is_no_benchmark_the_measure_is_asked_on():
    # "According to the paper that introduces ... CUDA kernels ..., what sparsity level can L1
    # regularization induce?" was refused "does not state sparsity level on cuda"
    seams = Seams([*PAPERS, GENNET])
    plan = seams.plan(
        "According to the paper that introduces a one-step generator tested on FFHQ, what FID does it reach?"
    )
    assert plan.ask.slot is not None
    assert seams.policy.slot(plan.ask, [seams.catalogue["gen"]]) == ""
    asked = seams.plan("what FID does GenNet reach on FFHQ")  # asked on it: still refused
    assert "on ffhq" in seams.policy.slot(asked.ask, [seams.catalogue["gen"]])
