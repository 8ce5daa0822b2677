"""Topics of several parts: the reader splits them, the papers that state every part answer, and a
topic none states whole is refused naming the closest papers (:mod:`rag.question.parts`,
:meth:`rag.route.refusal.RefusalPolicy.parts`). Phrasings here are not in the eval files."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rag.index.catalogue import Catalogue
from rag.llm.prose import REFUSAL
from rag.question.parts import (
    asked_parts,
    described_head,
    description_clauses,
    examples_in_place,
    exemplified,
    question_parts,
    topic_parts,
    word_conjuncts,
)
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from rag.route.refusal import RefusalPolicy
from rag.settings import RetrievalSettings
from store.papers import make_paper
from tests.fakes import FakeEvidence, FakeRetriever
from tests.test_decisions import PAPERS

# --- the reader: parts of a topic ----------------------------------------------------


@pytest.mark.parametrize(
    ("topic", "parts"),
    [
        ("graph transformers for traffic forecasting", (("graph transformers", "traffic forecasting"),)),
        ("sparse attention over long legal documents", (("sparse attention", "long legal documents"),)),
        # "X of A or B": the short alternative shares "X of"
        (
            "contrastive pretraining of speech encoders or image encoders",
            (("contrastive pretraining", "speech encoders"), ("contrastive pretraining", "image encoders")),
        ),
        # a part made only of words that name the field says nothing
        ("using deep learning models for crop yield prediction", ()),
        # what the papers are contrasted with is not a part they must state
        ("exact inference in sum-product networks instead of sampling", (("exact inference", "sum-product networks"),)),
        ("optimal transport", ()),
        # "and" with a relating verb joins two predicates a paper must both state (part_conjunct)
        ("protein design and apply diffusion models", (("protein design", "diffusion models"),)),
        (
            "speech recognition and rely on self-supervised features",
            (("speech recognition", "self-supervised features"),),
        ),
        # a part ending in a pro-form is the part before it again ("smaller ones": smaller models)
        ("compressing big speech recognisers into smaller ones", ()),
        ("compressing big speech recognisers into smaller", ()),  # "ones" peeled off with the frame
        (
            "turning dense transformers into sparse ones for long documents",
            (("turning dense transformers", "long documents"),),
        ),
        ("tokenizers or vocabularies", ()),
        ("state-of-the-art language models", ()),
        # a relative clause describes the head before it in other words: no part a paper must state
        (
            "object detectors for satellite images that were captured at night",
            (("object detectors", "satellite images"),),
        ),
        ("federated optimizers, where each client runs local steps on its own data", ()),
        ("graph kernels whose features are learned from random walks over the nodes", ()),
        # "from" relates what a paper works on to what it works from: both are parts
        ("causal discovery from speech recordings", (("causal discovery", "speech recordings"),)),
        ("3D shape reconstruction from single images", (("3D shape reconstruction", "single images"),)),
        ("learning from demonstrations", ()),  # the field's words alone are no part
    ],
)
def test_a_topic_is_read_as_alternatives_of_parts(topic, parts):
    assert topic_parts(topic) == parts


@pytest.mark.parametrize(
    ("topic", "parts"),
    [
        # a class and its first example in one piece: the class, or any example in its place
        (
            "curiosity bonuses in sparse-reward games like Pitfall",
            (("curiosity bonuses", "sparse-reward games"), ("curiosity bonuses", "Pitfall")),
        ),
        (
            "graph neural networks for packing problems like bin packing, knapsack",
            (
                ("graph neural networks", "packing problems"),
                ("graph neural networks", "bin packing"),
                ("graph neural networks", "knapsack"),
                ("knapsack",),  # listed apart by the facets: as it was
            ),
        ),
        # a name's kind suffix is the name: "Llama agents" states "Llama-style agents"
        ("Llama-style agents for web navigation", (("Llama agents", "web navigation"),)),
        ("T5-like encoders for code search", (("T5 encoders", "code search"),)),
        # a word that only ends in the suffix's letters is no name of a kind
        ("human-like gameplay in card games", (("human-like gameplay", "card games"),)),
    ],
)
def test_an_example_of_a_class_is_read_in_the_class_place(topic, parts):
    assert topic_parts(topic) == parts


def test_a_kind_suffix_stays_in_a_description_of_one_paper():
    # a description's parts only refuse: "Mamba-style decoding" stays the asker's words, judged whole
    topic = "speeds up Mamba-style decoding on long documents"
    assert topic_parts(topic, several=False) == (("speeds up Mamba-style decoding", "long documents"),)
    assert topic_parts(topic) == (("speeds up Mamba decoding", "long documents"),)


@pytest.mark.parametrize(
    ("topic", "readings"),
    [
        (
            "sparse attention for long documents (contracts, patents) in retrieval",
            ("sparse attention for contracts in retrieval", "sparse attention for patents in retrieval"),
        ),
        ("reward shaping on benchmarks such as NetHack", ("reward shaping on NetHack",)),
        ("curiosity bonuses in sparse-reward games like Pitfall", ("curiosity bonuses in Pitfall",)),
        ("speech or audio", ()),
    ],
)
def test_each_example_is_read_in_its_class_place(topic, readings):
    assert examples_in_place(topic) == readings


def test_a_parenthesis_of_examples_is_no_clause_of_a_description():
    # each paper states one example: the list is no clause one paper must state whole
    clauses = description_clauses("prunes large vision models (ViT, Swin, DeiT) without retraining them on labels")
    assert not any("Swin" in c for c in clauses)
    assert any("prunes large vision models" in c for c in clauses)
    # a parenthesis of one item says the words before it in other words: it stays
    assert "self-exciting" in " ".join(description_clauses("models event data with Hawkes (self-exciting) processes"))


def test_examples_the_facets_list_apart_stay_as_they_are():
    # "such as" already splits the examples off: they stay alternatives of their own, and no
    # combination is added that would turn on a parts check the topic did not have
    alts = ["score-based generators for audio", "WaveGrad", "DiffWave"]
    assert exemplified("score-based generators for audio such as WaveGrad or DiffWave", alts) == alts


def test_a_relative_clause_stays_in_a_description_of_one_paper():
    # in a description of one paper the clause says which paper: its words stay in the part
    topic = "contrastive distillation for speech encoders that goes beyond matching pooled vectors"
    assert topic_parts(topic, several=False) == (
        ("contrastive distillation", "speech encoders that goes beyond matching pooled vectors"),
    )
    assert topic_parts(topic) == (("contrastive distillation", "speech encoders"),)


@pytest.mark.parametrize(
    ("topic", "head"),
    [
        ("double descent, where test error rises again past the interpolation threshold", "double descent"),
        ("neural collapse, i.e. last-layer features collapsing to class means", "neural collapse"),
        ("double descent or benign overfitting", ""),
        ("pruning at initialization", ""),
    ],
)
def test_a_term_described_after_a_comma_is_the_head_of_the_topic(topic, head):
    assert described_head(topic) == head


# --- the route: which candidates state every part ---------------------------------------

BOTH = make_paper(
    "both",
    "Road sensors record congestion. We propose RoadFormer, graph transformers for traffic forecasting on road "
    "networks.",
)
GRAPH = make_paper(
    "graph",
    "Molecules are graphs. We propose MolGT, graph transformers for molecular property prediction.",
)
TRAFFIC = make_paper(
    "traffic",
    "Cities need traffic forecasting. We present FlowRNN, a recurrent model for traffic forecasting from loop "
    "detectors.",
)
CROP = make_paper("crop", "Farms need yield estimates. We present a satellite model of crop growth.")

# Four papers: every term is in more than 15% of them, so the share that makes a part generic is
# set to 1.0 here (it is relative to the size of the collection; see part_generic_share).
SETTINGS = RetrievalSettings(part_generic_share=1.0, part_check=True)


class Seams:
    """Reader, fake retriever and evidence, and the refusal policy over a few papers."""

    def __init__(self, papers):
        self.reader = Reader(Catalogue(papers))
        self.retriever = FakeRetriever(papers)
        self.policy = RefusalPolicy(self.retriever, FakeEvidence(papers), SETTINGS)

    def coverage(self, question: str):
        plan = self.reader.read(question)
        assert isinstance(plan, AskPlan), plan
        return self.policy.parts(plan.topic, self.retriever.search(plan.topic.search), seeks=plan.seeks)


def test_the_paper_that_states_every_part_answers_and_the_others_are_partial():
    got = Seams([GRAPH, TRAFFIC, BOTH, CROP]).coverage("papers using graph transformers for traffic forecasting?")
    assert got.checked
    assert [h.paper.id for h in got.complete] == ["both"]
    partial = {x.hit.paper.id: (x.stated, x.missing) for x in got.partial}
    assert partial == {
        "graph": (("graph transformers",), ("traffic forecasting",)),
        "traffic": (("traffic forecasting",), ("graph transformers",)),
    }
    assert "MolGT (graph) states “graph transformers” but not “traffic forecasting”" in got.note()


def test_a_combination_no_paper_states_is_refused_naming_the_closest_with_their_sentence():
    got = Seams([GRAPH, TRAFFIC, CROP]).coverage("any work applying graph transformers to traffic forecasting")
    assert got.checked and not got.complete
    text = got.refusal()
    assert text.startswith(REFUSAL)
    assert "closest:" in text
    # each partial paper is named with the part it states, the one it does not, and its sentence
    assert "states “graph transformers” but not “traffic forecasting”" in text
    assert "states “traffic forecasting” but not “graph transformers”" in text
    assert "We propose MolGT, graph transformers for molecular property prediction.”" in text


def test_two_predicates_joined_by_and_are_parts_a_paper_must_both_state():
    got = Seams([GRAPH, TRAFFIC, CROP]).coverage("which papers do traffic forecasting and use graph transformers?")
    assert got.checked and not got.complete
    assert "states “traffic forecasting” but not “graph transformers”" in got.refusal()


@pytest.mark.parametrize(
    "question",
    [
        # a conjoining word asks for both things done together, as "X with Y" does (nu57: "combine
        # federated learning with differential privacy" kept "combine federated learning" as a term
        # and listed 1 paper where "federated learning with differential privacy" listed 11)
        "which papers combine graph transformers with traffic forecasting?",
        "any work combining graph transformers and traffic forecasting?",
        "Which papers are about both graph transformers and traffic forecasting?",
        "is there a paper on both traffic forecasting and graph transformers?",
        "papers integrating graph transformers into traffic forecasting",
        "graph transformers + traffic forecasting papers?",  # nu58: "fl + dp papers?" listed 19, not 11
    ],
)
def test_a_conjoining_word_asks_for_each_part(question):
    got = Seams([GRAPH, TRAFFIC, CROP]).coverage(question)
    assert got.checked and not got.complete, question
    text = got.refusal()
    assert "but not “traffic forecasting”" in text and "but not “graph transformers”" in text, text


@pytest.mark.parametrize(
    "question",
    [
        # subjects joined by "and" with no conjoining word, each written side by side by an abstract
        # and the whole by none, are each a part (library: "any work on differential privacy and
        # protein structure prediction?" listed 12 papers on one of them, none on both)
        "any work on graph transformers and traffic forecasting?",
        "traffic forecasting and graph transformers papers?",
        "How many papers study graph transformers as well as traffic forecasting, and which?",
    ],
)
def test_subjects_joined_by_and_are_parts_a_paper_must_each_state(question):
    got = Seams([GRAPH, TRAFFIC, CROP]).coverage(question)
    assert got.checked and not got.complete, question
    text = got.refusal()
    assert "but not “traffic forecasting”" in text and "but not “graph transformers”" in text, text


@pytest.mark.parametrize(
    ("alternative", "joined"),
    [
        ("differential privacy and federated learning", ("differential privacy", "federated learning")),
        ("diffusion models as well as tabular data", ("diffusion models", "tabular data")),
        # a one-word conjunct shares the other's head (an ellipsis); a description is no subject
        ("speech synthesis and recognition", ()),
        ("models that detect and defend against attacks", ()),
        ("federated learning with differential privacy", ()),
    ],
)
def test_subjects_joined_by_and_are_read_as_conjuncts(alternative, joined):
    from rag.question.parts import coordinated_subjects

    assert coordinated_subjects(alternative, 3) == joined


def test_subjects_joined_by_and_that_an_abstract_writes_whole_stay_one_topic():
    # "graph transformers and traffic forecasting" written whole by a paper: one subject, no parts
    both = make_paper("both", "We apply graph transformers and traffic forecasting to road networks.")
    seams = Seams([GRAPH, TRAFFIC, CROP, both])
    plan = seams.reader.read("any work on graph transformers and traffic forecasting?")
    assert isinstance(plan, AskPlan)
    assert seams.policy.stacked(plan.topic) == ()


@pytest.mark.parametrize(
    ("topic", "read"),
    [
        ("combine federated learning with differential privacy", "federated learning with differential privacy"),
        ("both speech synthesis and music generation", "speech synthesis with music generation"),
        ("that unify contrastive learning and masked modeling", "contrastive learning with masked modeling"),
        ("integrating knowledge graphs into language models", "knowledge graphs with language models"),
        # no conjoining word, or one conjunct only: unchanged
        ("federated learning and differential privacy", "federated learning and differential privacy"),
        ("combinatorial optimization with GNNs", "combinatorial optimization with GNNs"),
        ("combine two losses", "combine two losses"),
        ("fl + dp", "fl with dp"),
        ("diffusion + RL + robotics", "diffusion with RL with robotics"),
        ("C++ compilers", "C++ compilers"),
    ],
)
def test_a_conjoining_word_reads_its_conjuncts_as_x_with_y(topic, read):
    from rag.question.phrasing import conjoined

    assert conjoined(topic) == read


def test_a_paper_on_an_example_of_the_class_states_the_class():
    # "board games like shogi" and "Leela-style agents" are written by no abstract: a paper on
    # Leela agents playing shogi states both parts (one example, the name of the kind)
    leela = make_paper("leela", "Engines need search. We train Leela agents to play shogi at superhuman strength.")
    seams = Seams([leela, GRAPH, TRAFFIC, CROP])
    got = seams.coverage("which papers build Leela-style agents for board games like shogi?")
    assert got.checked
    assert [h.paper.id for h in got.complete] == ["leela"]


def test_a_topic_of_one_part_is_judged_whole_not_by_parts():
    got = Seams([GRAPH, TRAFFIC, CROP]).coverage("which papers do traffic forecasting?")
    assert not got.checked


def test_a_description_of_one_paper_is_judged_whole_not_by_parts():
    # the frame asks for one paper described in other words: the membership model judges it
    seams = Seams([GRAPH, TRAFFIC, CROP])
    got = seams.coverage("I remember a paper that applies graph transformers to traffic forecasting")
    assert not got.checked


@pytest.mark.parametrize(
    "question",
    [
        "papers applying graph transformers to rainfall nowcasting?",
        "which papers use graph transformers for drug discovery?",
    ],
)
def test_a_combination_whose_other_part_is_a_subject_no_abstract_has_words_for_is_refused(question):
    # one part is held ("graph transformers": MolGT), the other is a subject that no candidate
    # states and a word of which no abstract uses ("rainfall", "drug", "earthquake"): the
    # collection does not hold the combination (the seed listed two graph papers for "GNNs for
    # de novo molecule generation or drug discovery"), and the closest papers are named
    got = Seams([GRAPH, TRAFFIC, CROP]).coverage(question)
    assert got.checked and not got.complete
    assert "closest:" in got.refusal() and "but not “" in got.refusal()


@pytest.mark.parametrize(
    "question",
    [
        "papers using graph transformers for road congestion prediction?",  # BOTH's words, said otherwise
        "which papers build graph transformers for traffic forecasting?",  # BOTH states both parts
        "papers applying graph transformers to nowcasting?",  # one word: a description, not a subject
    ],
)
def test_a_part_in_other_words_or_a_description_leaves_the_topic_to_the_membership_model(question):
    got = Seams([GRAPH, TRAFFIC, BOTH, CROP]).coverage(question)
    assert not got.checked or got.complete


SIGNS = make_paper(
    "signs",
    "Sign flips make SGD cheap. We propose SignLM, a language model trained with sign updates on text, and test "
    "it on machine translation.",
)
FILLERS = [make_paper(f"f{i}", f"We forecast graph signals with machine learning, study {i}.") for i in range(1000)]
SPEECH = make_paper("speech", "Calls are noisy. We present a speech recognition model for calls and video meetings.")


@pytest.mark.parametrize(
    "question",
    [
        "papers on sign language recognition, or on sign video translation into text?",
        "any work on sign language recognition, or on sign video translation for deaf users?",
    ],
)
def test_a_topic_whose_every_alternative_names_subjects_no_candidate_states_is_refused(question):
    # No part is held apart by some candidate (the old gate then judged the topic whole, and the
    # membership model listed papers with "sign", "language" and "video" in them): every
    # alternative names a subject that no abstract states, so the collection does not hold it
    got = Seams([GRAPH, TRAFFIC, CROP, SIGNS, SPEECH]).coverage(question)
    assert got.checked and not got.complete
    assert got.refusal().startswith(REFUSAL)


@pytest.mark.parametrize(
    "question",
    ["any work on sign language translation?", "which papers study sign language recognition or translation?",
     # a frame of open number ("is there a paper on ...") is held to it alike (it listed 8 machine
     # translation papers of the library while "any work on ..." was refused: nu54)
     "is there a paper on sign language translation?", "do we have anything about sign language translation?"],
)
def test_in_a_library_a_topic_of_one_subject_no_candidate_states_is_refused(question):
    # one part per alternative: no combination to check, but the subject is still named ("sign",
    # "language" and "translation" are in SignLM's abstract apart, never together); in a library
    # (1,000 papers or more: rag.route.refusal.UNUSED_MIN_PAPERS), where words held apart are common
    got = Seams([GRAPH, TRAFFIC, CROP, SIGNS, SPEECH, *FILLERS]).coverage(question)
    assert got.checked and not got.complete
    assert "sign language translation" in got.refusal()
    # in a few dozen abstracts a subject in the reader's shorthand is judged whole
    assert not Seams([GRAPH, TRAFFIC, CROP, SIGNS, SPEECH]).coverage(question).checked


def test_a_topic_of_one_subject_a_candidate_states_or_a_name_is_the_membership_models():
    library = Seams([GRAPH, TRAFFIC, CROP, SIGNS, SPEECH, *FILLERS])
    assert not library.coverage("any work on speech recognition?").checked
    assert not library.coverage("which papers report results on the SignLM benchmark?").checked


@pytest.mark.parametrize(
    ("part", "subject"),
    [
        ("sign language recognition", True),
        ("on traffic forecasting", True),  # function words at its ends are not the subject's
        ("a smaller student model", False),  # a description: an article inside
        ("help decide whether a crop grows", False),
        ("careful protocol revisions", False),  # "revisions" is in no abstract: another check's
        ("traffic", False),  # one word
        ("graph transformers for traffic forecasting", False),  # more than subject_max_terms
    ],
)
def test_a_subject_is_a_bare_compound_of_words_the_collection_uses(part, subject):
    assert Seams([GRAPH, TRAFFIC, CROP, SIGNS, SPEECH]).policy._names_subject(part) is subject


def test_the_part_check_can_be_switched_off():
    seams = Seams([GRAPH, TRAFFIC, CROP])
    seams.policy.settings = RetrievalSettings(part_generic_share=1.0, part_check=False)
    assert not seams.coverage("any work applying graph transformers to traffic forecasting").checked


def test_a_described_term_no_abstract_holds_is_refused_whatever_its_description_finds():
    seams = Seams([GRAPH, TRAFFIC, CROP])
    plan = seams.reader.read("any papers on double descent, where test error rises again for larger models?")
    assert isinstance(plan, AskPlan)
    assert plan.topic.head == "double descent"
    refusal = seams.policy.absent_topic(plan.topic, seams.retriever.search(plan.topic.search))
    assert refusal == f"{REFUSAL} No abstract in the collection mentions double descent."


def test_a_described_term_an_abstract_holds_is_not_refused_by_its_head():
    held = make_paper("dd", "We study double descent in random feature models and explain the test error peak.")
    seams = Seams([GRAPH, TRAFFIC, held])
    plan = seams.reader.read("any papers on double descent, where test error rises again for larger models?")
    assert isinstance(plan, AskPlan)
    assert seams.policy.absent_topic(plan.topic, seams.retriever.search(plan.topic.search)) == ""


# --- end to end, the real embedder over the seed papers ---------------------------------


def test_a_combination_the_seed_holds_only_apart_is_refused_naming_both_halves(extractive):
    # the seed holds federated learning (DANCE, a federated RL paper) and audio deepfake detection
    # (CA-SOADD), never together
    rs = extractive.pipeline.refusals.settings
    extractive.pipeline.refusals.settings = rs.model_copy(update={"part_check": True})
    try:
        answer = extractive.ask("papers using federated learning for audio deepfake detection?")
    finally:
        extractive.pipeline.refusals.settings = rs
    assert answer.refused and not answer.citations
    assert "closest:" in answer.text
    assert "CA-SOADD" in answer.text and "but not “federated learning”" in answer.text


def test_medical_imaging_in_the_researchers_words_reaches_the_brain_imaging_paper(extractive):
    # DDL writes "clinical abnormality grounding" and "brain-imaging benchmarks", never "medical
    # imaging": the glossary's fields of application index it under the field a researcher names
    answer = extractive.ask("I want papers on medical imaging")
    assert not answer.refused
    assert [c.label for c in answer.citations] == ["DDL"]


def test_voice_or_sound_in_the_researchers_words_reaches_every_audio_paper(extractive):
    # CA-SOADD and MCLP write "speech" and "audio", never "voice" or "sound": the glossary indexes
    # speech under audio and voice, audio under sound; before, two of the four were listed
    answer = extractive.ask("Which papers use voice or sound recordings?")
    assert not answer.refused
    assert {"CA-SOADD", "MCLP", "DGSA", "Music carrier selection algorithm"} <= {c.label for c in answer.citations}


def test_a_one_word_part_beside_a_generic_one_is_still_required():
    # "evaluation" is in three of four abstracts (generic at a share of 0.5): it is not checked, but
    # the name beside it is; before, every paper that evaluates something joined the list
    named = make_paper("named", "We propose PlanAct, an agent whose evaluation on AgentGym shows large gains.")
    others = [
        make_paper("eval1", "A careful evaluation of language models across ten tasks."),
        make_paper("eval2", "We revisit evaluation protocols for image classifiers."),
        CROP,
    ]
    seams = Seams([named, *others])
    seams.policy.settings = RetrievalSettings(part_generic_share=0.5, part_check=True)
    got = seams.coverage("which papers use AgentGym for evaluation?")
    assert got.checked and [h.paper.id for h in got.complete] == ["named"]
    # a longer part left alone describes the paper in other words: judged whole
    assert not seams.coverage("which papers do careful protocol revisions for evaluation?").checked


@pytest.mark.parametrize("question", ["any papers testing on ScienceWorld?", "papers evaluating on WebShop?"])
def test_an_evaluation_verb_relates_the_benchmark_it_is_not_a_part(extractive, question):
    # "testing on ScienceWorld" was refused: no abstract states "testing" with "ScienceWorld"
    answer = extractive.ask(question)
    assert not answer.refused and len(answer.citations) == 1, answer.text


DISTILL = make_paper(
    "distill-data",
    "Training sets are large. We study dataset distillation, which synthesizes a tiny training set. Our "
    "synthetic images train networks as well as the full set.",
)
DISTILL_MODEL = make_paper(
    "distill-model",
    "Big networks are slow. We apply knowledge distillation to a student network. The student is trained "
    "and evaluated on one image dataset.",
)
SYNTH = make_paper(
    "synth",
    "Labels are costly. We generate synthetic images with a diffusion model. A tiny training set of them "
    "trains networks well.",
)


def test_a_term_alone_as_an_alternative_is_stated_as_the_term_not_by_its_words_apart():
    # "dataset distillation, i.e. ..." -> the term is an alternative of one part: the paper that
    # distills a model and mentions datasets states its words, not the term
    got = Seams([DISTILL, DISTILL_MODEL, SYNTH]).coverage(
        "Which papers study dataset distillation, i.e. synthesizing a tiny training set of images?"
    )
    assert ("dataset distillation",) in got.parts
    complete = {h.paper.id for h in got.complete}
    assert "distill-data" in complete
    assert "distill-model" not in complete


RL_PROOFS = make_paper(
    "rl-proofs",
    "Provers are slow. We train a prover with reinforcement learning on theorem proving and general reasoning tasks.",
)
RL_ROBOTS = make_paper(
    "rl-robots", "Robots must grasp. We control robot arms with reinforcement learning in simulation."
)
REASONING = [
    make_paper("reason1", "We measure general reasoning tasks of language models on a new suite."),
    make_paper("reason2", "Chain of thought helps general reasoning tasks in language models."),
    make_paper("reason3", "We survey general reasoning tasks for planning."),
]


def test_an_alternative_left_with_the_shared_part_alone_needs_every_part_from_a_paper_membership_rejected():
    # "general reasoning tasks" is in most abstracts (generic at a share of 0.5), so the second
    # alternative was "reinforcement learning" alone: every RL paper (robot arms) joined the list.
    # A paper the membership model did not accept now states every part of an alternative.
    seams = Seams([RL_PROOFS, RL_ROBOTS, *REASONING])
    seams.policy.settings = RetrievalSettings(part_generic_share=0.5, part_check=True)
    question = "which papers apply reinforcement learning to theorem proving or to general reasoning tasks?"
    plan = seams.reader.read(question)
    assert isinstance(plan, AskPlan)
    retrieval = seams.retriever.search(plan.topic.search)
    got = seams.policy.parts(plan.topic, retrieval)
    assert got.checked and [h.paper.id for h in got.complete] == ["rl-proofs"]
    # a paper the membership model accepted is held to the parts that are not generic: it weighed
    # the topic whole, generic words included
    robots = next(h for h in retrieval.hits if h.paper.id == "rl-robots")
    accepted = seams.policy.parts(plan.topic, retrieval, [robots])
    assert {h.paper.id for h in accepted.complete} == {"rl-proofs", "rl-robots"}


ANY_RL = {"RAST-MoE", "MCLP", "Federated Deep Reinforcement Learning", "ReAugment", "Graph-R1", "HyperTrack", "EMPG"}
"""Seed papers that use reinforcement learning for something other than LLM reasoning (ride-hailing,
speech synthesis, offline federated RL, augmentation, retrieval, GUI data, agents' entropy)."""


# --- whether a sentence states a part: its words, or others the embedder reads as them ------------


def _states(policy: RefusalPolicy, part: str, abstract: str) -> bool:
    from rag.text import split_sentences

    sentences = split_sentences(abstract)
    vectors = policy.retriever.query_vectors([s.text for s in sentences])
    sims = vectors @ policy.retriever.query_vectors([part]).T
    return policy.sentence_states(part, sentences, vectors, sims)


def test_a_sentence_close_to_a_part_for_its_head_alone_does_not_state_it():
    # bags of words (hand-checkable): "We detect cars in lidar scans." is 2/sqrt(4*6) = 0.41 from
    # "completing partial lidar scans" and 2/sqrt(2*6) = 0.58 from "lidar scans": the part without
    # the words the sentence lacks is nearer, so the sentence states the head, not the part
    papers = [make_paper("a", "We detect cars in lidar scans."), make_paper("b", "We complete partial lidar scans.")]
    policy = RefusalPolicy(FakeRetriever(papers), FakeEvidence(papers), RetrievalSettings(part_sentence=0.3))
    assert not _states(policy, "completing partial lidar scans", "We detect cars in lidar scans.")
    # every word stated, in another form of it ("complete" for "completing"): stated
    assert _states(policy, "completing partial lidar scans", "We complete partial lidar scans.")
    # a part no sentence comes within part_sentence of is not stated, whatever its words
    assert not _states(policy, "completing partial lidar scans", "Roads are busy.")


def test_an_open_frame_that_seeks_papers_refuses_subjects_held_apart_and_keeps_descriptions_whole():
    # "is there a paper on ...": the frame asks for papers on a combination (AskPlan.seeks), but may
    # describe one paper in other words; refused only when its parts are subjects held apart
    seams = Seams([GRAPH, TRAFFIC, CROP])
    plan = seams.reader.read("Is there a paper on graph transformers for traffic forecasting?")
    assert isinstance(plan, AskPlan) and plan.seeks and plan.topic.number == "open"
    got = seams.policy.parts(plan.topic, seams.retriever.search(plan.topic.search), seeks=plan.seeks)
    assert got.checked and not got.complete
    assert "states “traffic forecasting” but not “graph transformers”" in got.refusal()
    # a paper that states both: the membership model answers as before (nothing narrowed)
    seams = Seams([GRAPH, TRAFFIC, BOTH, CROP])
    got = seams.policy.parts(plan.topic, seams.retriever.search(plan.topic.search), seeks=plan.seeks)
    assert not got.checked
    # without a frame that seeks papers, an open topic is judged whole
    assert not seams.policy.parts(plan.topic, seams.retriever.search(plan.topic.search)).checked


OTHER_WORDS = {
    "lidar": "Lidar scans are a crucial data representation for autonomous driving. We propose a fast detector "
    "of cars in lidar scans.",
    "search": "Designing networks by hand is slow. We automatically search for suitable convolutional network "
    "architectures under a latency budget.",
    "kws1": "Smart speakers listen for wake words. We present a small convolutional model for keyword spotting "
    "on microcontrollers.",
    "kws2": "Keyword spotting must run on tiny devices. We distil a transformer into a keyword spotting model "
    "with 20k parameters.",
    "unlearn": "Users may ask that their data be forgotten. We propose a machine unlearning method that removes "
    "the influence of deleted training images from a trained image classifier.",
    "crop": "Farms need yield estimates. We present a satellite model of crop growth.",
    "music": "We generate piano music with a diffusion model conditioned on chords.",
    "matrix": "Ratings are sparse. We study matrix completion from partial observations of a low-rank matrix.",
    "depth": "Depth maps from cheap sensors are noisy. We denoise depth maps with a small network.",
}


@pytest.fixture(scope="module")
def other_words(tmp_path_factory, embedder):
    from tests.conftest import pipeline_of

    components = pipeline_of(tmp_path_factory.mktemp("other_words"), OTHER_WORDS, embedder)
    # nine papers: a word in two of them is in 22%; the share that makes a part generic is
    # relative to the collection's size (part_generic_share)
    refusals = components.pipeline.refusals
    refusals.settings = refusals.settings.model_copy(update={"part_generic_share": 0.5})
    return components


@pytest.mark.slow
def test_the_embedder_reads_a_part_in_other_words_and_not_one_stated_by_its_head(other_words):
    policy = other_words.pipeline.refusals

    def states(part, pid):
        paper = other_words.pipeline.catalogue[pid]
        sentences, vectors = other_words.pipeline.evidence.sentences(paper)
        sims = vectors @ other_words.retriever.query_vectors([part]).T
        return policy.sentence_states(part, sentences, vectors, sims)

    # "choose" is not in the sentence, "search for suitable ... architectures" says it
    assert states("choose the architecture of a convolutional network", "search")
    # the lidar sentences are close to "lidar scans", not to completing partial ones
    assert states("lidar scans", "lidar")
    assert not states("completing partial lidar scans", "lidar")
    assert not states("pruning a trained keyword spotting model", "kws2")


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        # "general reasoning tasks" and "improve LLM reasoning" are generic in the seed: the second
        # alternative was "reinforcement-learning methods" alone, and every RL paper of the seed
        # joined the list (8 papers, the agent papers the exclusion had put out among them)
        "papers on reinforcement-learning methods that improve LLM reasoning on math or general reasoning tasks, "
        "not agents",
        # "RL" is generic too: the second alternative had no part left and was dropped, so only the
        # paper that states "math" answered (with a masked diffusion model that does not use RL)
        "Which papers propose RL methods to improve LLM reasoning on math or on general reasoning tasks, "
        "excluding agent settings?",
    ],
)
def test_rl_for_llm_reasoning_outside_agents_lists_the_reasoning_papers_not_every_rl_paper(extractive, question):
    answer = extractive.ask(question)
    cited = {c.label for c in answer.citations}
    assert {"CoVRL", "PrefixRL", "DoPR"} <= cited, answer.text
    assert not cited & (ANY_RL | {"RSAgent", "Agent-Omit", "ME-DLM"}), answer.text


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "Is there work on machine unlearning for keyword spotting models?",
        "keyword spotting with machine unlearning: is there a paper on that?",
        "papers on machine unlearning for keyword spotting?",
    ],
)
def test_a_combination_held_apart_is_refused_naming_a_paper_for_each_half(other_words, question):
    answer = other_words.ask(question)
    assert answer.refused and not answer.citations, answer.text
    assert "closest:" in answer.text
    assert "(unlearn) states “machine unlearning” but not “keyword spotting" in answer.text
    assert "but not “machine unlearning”" in answer.text


def test_an_open_frame_refuses_a_part_no_candidate_states_beside_one_held_but_not_a_description():
    # "Is there a paper on traffic forecasting over encrypted sensors?": FlowRNN states the first
    # part, no candidate the subject "encrypted sensors" (its words are in the collection apart)
    crypt = make_paper("crypt", "Cloud servers see user data. We run inference on encrypted images.")
    sensors = make_paper("sensors", "Sensors drift over time. We recalibrate them with a small network.")
    seams = Seams([GRAPH, TRAFFIC, CROP, crypt, sensors])
    plan = seams.reader.read("Is there a paper on traffic forecasting over encrypted sensors?")
    assert isinstance(plan, AskPlan) and plan.seeks
    got = seams.policy.parts(plan.topic, seams.retriever.search(plan.topic.search), seeks=plan.seeks)
    assert got.checked and not got.complete
    assert "FlowRNN (traffic) states “traffic forecasting” but not “encrypted sensors”" in got.refusal()
    # a description whose parts no candidate states, each in words the collection holds apart
    # ("molecular" of MolGT, "forecasting" of FlowRNN), is judged whole: it may be in other words
    plan = seams.reader.read("Is there a paper on molecular forecasting over drifting servers?")
    assert isinstance(plan, AskPlan) and plan.seeks and plan.topic.parts
    assert not seams.policy.parts(plan.topic, seams.retriever.search(plan.topic.search), seeks=plan.seeks).checked


@pytest.mark.slow
def test_a_part_whose_head_one_paper_states_and_whose_rest_another_does_is_held_apart(other_words):
    # the lidar paper is close to "completing partial lidar scans" for "lidar scans" alone; the
    # matrix completion paper states "completing partial": the part is two subjects held apart
    answer = other_words.ask("which papers do completing partial lidar scans, e.g. filling holes in depth maps?")
    assert answer.refused and not answer.citations, answer.text
    assert "(lidar) states “lidar scans” but not “completing partial”: “Lidar scans are" in answer.text


@pytest.mark.parametrize(
    ("part", "required"),
    [
        ("large language models", "language models"),
        ("massive vision-language models", "vision-language models"),
        ("quantizing huge language models", "quantizing language models"),
        # no term the glossary names after the size word: the size is part of what is asked
        ("large batch training", "large batch training"),
        ("big data", "big data"),
        ("large models", "large models"),
        ("language models", "language models"),
    ],
)
def test_a_size_word_before_a_glossary_term_is_no_part_a_paper_must_state(part, required):
    from rag.question.parts import ungraded

    assert ungraded(part) == required


GRADED = {
    "int4": {
        "id": "int4",
        "title": "Four Bits Suffice: Integer Quantization for Language Models",
        "abstract": "Serving language models is expensive. We study INT4 quantization of the weights and "
        "activations of language models such as BERT and GPT, and show that 4-bit quantization keeps their "
        "accuracy while doubling throughput.",
    },
    "llmq": {
        "id": "llmq",
        "title": "OutlierShift: Post-Training Quantization for Large Language Models",
        "abstract": "Large language models are costly to deploy. We propose OutlierShift, a post-training "
        "quantization method for large language models that moves activation outliers into the weights.",
    },
    "speechq": {
        "id": "speechq",
        "title": "Quantized Targets for Speech Pretraining",
        "abstract": "Speech encoders need discrete targets. We learn a quantized representation of speech as the "
        "target of masked prediction, as masked language models do for text, and improve speech recognition.",
    },
    "graphs": {
        "id": "graphs",
        "title": "MolGT",
        "abstract": "Molecules are graphs. We propose MolGT, graph transformers for molecular property prediction.",
    },
}


OTHER_SUBJECTS = [
    {"id": f"filler{i}", "title": title, "abstract": f"{title} is studied. We propose a method for {title.lower()}."}
    for i, title in enumerate([
        "Protein structure prediction", "Glacier calving detection in radar images", "Crop yield forecasting",
        "Robot grasping of deformable objects", "Traffic signal control", "Option pricing with kernels",
        "Music source separation", "Weather nowcasting from satellites", "Fair ranking in recommender systems",
        "Causal discovery from time series", "Point cloud completion", "Bayesian optimization of chemical reactions",
        "Federated learning on medical records", "Shape matching of 3D meshes",
        "Solving partial differential equations",
        "Anomaly detection in network traffic", "Video frame interpolation", "Handwriting recognition",
        "Sign language recognition", "Earthquake early warning",
    ])
]
"""Papers on other subjects, so that the topic's words are specific in the collection (a part whose
every word more than ``part_generic_share`` of the abstracts state is not checked)."""


@pytest.mark.slow
def test_a_paper_on_language_models_states_quantization_of_large_language_models(tmp_path, embedder):
    # "large" grades the term: the paper on language models the membership model accepts is listed;
    # a paper it does not accept still has to state "large language models" (the speech paper
    # writes "quantized" and "language models" and is not about the topic)
    from tests.conftest import pipeline_of

    pipeline = pipeline_of(tmp_path, [*GRADED.values(), *OTHER_SUBJECTS], embedder)
    answer = pipeline.ask("Which papers study quantization of large language models?")
    assert sorted(c.paper_id for c in answer.citations) == ["int4", "llmq"], answer.text


# --- subjects stacked in one compound (RefusalPolicy.stacked) --------------------------

PRIVATE = make_paper("private", "Privacy matters. We give differentially private algorithms for mean estimation.")
TRANSPORT = make_paper("transport", "Distributions must be compared. We compute optimal transport plans fast.")
FEDERATED = make_paper("federated", "Clients keep their data. We study federated learning with compressed updates.")
ANOMALY = make_paper("anomaly", "Fraud shows up in networks. We propose spectral scores for graph anomaly detection.")
# in a library (rag.route.refusal.UNUSED_MIN_PAPERS): a phrase no abstract of a few dozen writes says nothing
STACKED = [PRIVATE, TRANSPORT, FEDERATED, ANOMALY, CROP, *FILLERS]


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        (
            "I'm looking for work on differentially private optimal transport.",
            ("differentially private", "optimal transport"),
        ),
        ("any papers on federated graph anomaly detection?", ("federated", "graph anomaly detection")),
        ("optimal transport with federated clients: which papers?", None),  # split by the reader already
        ("which papers do graph anomaly detection?", None),  # three words one abstract writes whole
    ],
)
def test_subjects_stacked_in_a_compound_no_abstract_writes_are_its_parts(question, parts):
    seams = Seams(STACKED)
    plan = seams.reader.read(question)
    assert isinstance(plan, AskPlan)
    assert seams.policy.stacked(plan.topic) == ((parts,) if parts else ())
    assert Seams(STACKED[:5]).policy.stacked(plan.topic) == ()


@pytest.mark.parametrize(
    "question",
    [
        "is there any work on differentially private optimal transport?",
        "which papers study federated graph anomaly detection?",
        # an open frame: a piece of one word the collection writes ("federated") is a subject it holds
        "is there a paper on federated graph anomaly detection?",
    ],
)
def test_a_stacked_compound_no_paper_states_whole_is_refused_naming_a_paper_for_each_subject(question):
    got = Seams(STACKED).coverage(question)
    assert got.checked and not got.complete
    assert got.refusal().startswith(REFUSAL) and "but not “" in got.refusal()


def test_a_stacked_compound_is_cut_where_its_pieces_are_most_written_among_the_fewest_cuts():
    # "privacy federated learning" is written too (across two sentences of the library's abstracts:
    # "... privacy. Federated learning ..."): of the cuts in two, "differential privacy" | "federated
    # learning" (each written by two abstracts), not "differential" | "privacy federated learning" (one)
    dp = make_paper("dp", "Noise protects records. We study differential privacy for mean estimation.")
    dp2 = make_paper("dp2", "Counts leak. We release histograms under differential privacy.")
    pfl = make_paper("pfl", "Phones hold data that needs privacy. Federated learning trains a model on them.")
    fed = make_paper("fed", "Clients keep their data. We study federated learning with compressed updates.")
    seams = Seams([dp, dp2, pfl, fed, ANOMALY, CROP, *FILLERS])
    plan = seams.reader.read("any work on differential privacy federated learning?")
    assert isinstance(plan, AskPlan)
    assert seams.policy.stacked(plan.topic) == (("differential privacy", "federated learning"),)


def test_a_stacked_compound_a_paper_writes_whole_is_not_split():
    both = make_paper("both", "Privacy of plans matters. We compute differentially private optimal transport plans.")
    seams = Seams([*STACKED, both])
    plan = seams.reader.read("any papers on differentially private optimal transport?")
    assert isinstance(plan, AskPlan)
    assert seams.policy.stacked(plan.topic) == ()


NEAR = make_paper("near", "Privacy matters. We compute differentially private plans for optimal transport.")


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        # written only with a word between ("private plans for optimal transport"): the collection holds
        # the subjects together, each a condition (the library's "diffusion offline RL papers" listed 8
        # offline-RL papers with no diffusion while MetaDiffuser writes "diffusion planner for offline meta-RL")
        ("differentially private optimal transport papers", ("differentially private", "optimal transport")),
        ("any work on private transport?", ("private", "transport")),  # two words, near one another
        ("which papers study optimal transport?", None),  # written side by side: one subject
        ("graph anomaly detection papers", None),
    ],
)
def test_a_compound_written_only_with_words_between_its_subjects_is_split(question, parts):
    seams = Seams([*STACKED, NEAR])
    plan = seams.reader.read(question)
    assert isinstance(plan, AskPlan)
    assert seams.policy.stacked(plan.topic) == ((parts,) if parts else ())


@pytest.mark.parametrize(
    "question",
    [
        "Which papers compute optimal transport plans on Tetris?",  # one word no abstract uses
        "optimal transport for WebArena agents: which papers?",
        "which papers use optimal transport to predict crop yield?",  # "crop yield", "predict crop" written by none
        "Which papers apply federated learning to earthquake early alerts?",
    ],
)
def test_a_part_the_library_does_not_hold_refuses_the_combination(question):
    # one part held (optimal transport, federated learning), the other a subject the library does not
    # hold: the membership model's papers on the held part are no answer ("Which papers evaluate offline
    # RL on Tetris?" listed 29 offline-RL papers); the refusal names the closest for the part held
    got = Seams(STACKED).coverage(question)
    assert got.checked and not got.complete
    assert "closest:" in got.refusal()
    # in a few dozen abstracts a word or a phrase none writes says nothing (UNUSED_MIN_PAPERS)
    small = Seams(STACKED[:5]).coverage(question)
    assert not small.checked or small.complete or "Tetris" not in question


@pytest.mark.parametrize(
    "question",
    [
        "which papers compute optimal transport for crop growth?",  # "crop growth" is written
        "which papers evaluate optimal transport on graph signals?",
    ],
)
def test_a_part_whose_words_the_library_writes_together_is_not_unheld(question):
    seams = Seams(STACKED)
    plan = seams.reader.read(question)
    assert isinstance(plan, AskPlan) and plan.topic.parts
    assert not any(seams.policy._unheld_subject(p) for alt in plan.topic.parts for p in alt)


def test_a_stacked_compound_narrows_the_membership_models_papers_and_adds_none():
    # a paper the model accepted that states each subject answers; one it did not accept does not,
    # however it states them (the pieces are the collection's reading, not the question's)
    apart = make_paper(
        "apart",
        "Privacy matters. We give differentially private algorithms for mean estimation and then for costs in "
        "optimal transport.",
    )
    seams = Seams([*STACKED, apart])
    plan = seams.reader.read("which papers study differentially private optimal transport?")
    assert isinstance(plan, AskPlan)
    retrieval = seams.retriever.search(plan.topic.search)
    hit = next(h for h in retrieval.hits if h.paper.id == "apart")
    assert [h.paper.id for h in seams.policy.parts(plan.topic, retrieval, [hit]).complete] == ["apart"]
    alone = seams.policy.parts(plan.topic, retrieval)
    assert alone.checked and not alone.complete


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("What does TinyServe introduce, and how do they test it?", ["What does introduce", "how do test it"]),
        ("Which benchmarks does ReActor use and what does it propose?",
         ["Which benchmarks does use", "what does it propose"]),
        ("What does the protein folding paper propose and how is it evaluated?",
         ["What propose", "how is it evaluated"]),
        ("What does FoldNet propose and what are its results?", ["What does propose", "what are its results"]),
        ("What does TinyServe propose?", []),  # one part: the whole question, nothing in particular
    ],
)
def test_a_half_that_asks_a_role_in_generic_words_is_a_part_of_its_own(question, parts):
    # "What does the LLM routing paper propose and how is it evaluated?" led with a result sentence
    # only: neither half holds a word to search for, so the question was read as one part
    seams_reader = Reader(Catalogue(PAPERS))
    plan = seams_reader.read(question)
    assert isinstance(plan, AskPlan) and [a.text for a in plan.aspects] == parts, plan.aspects


def test_generic_halves_split_only_where_a_role_is_asked():
    split = ["What does X propose", "how is it evaluated?"]
    assert asked_parts("What does X propose and how is it evaluated?") == split
    # a half with no word and no role asks nothing of its own, as before
    for q in ("What is it and is it good?", "How fast is TinyServe, and on which models?"):
        assert asked_parts(q) == question_parts(q)


def test_papers_asked_beside_an_acronym_no_abstract_writes_are_refused_by_it():
    # "federated ZKP papers" listed 31 federated-learning papers: a listed paper would have to state it
    seams = Seams([GRAPH, TRAFFIC, CROP])
    for question, typed in [
        ("traffic forecasting QKV papers", "QKV"),
        ("Which papers use XQNs for crop yield?", "XQNs"),
    ]:
        plan = seams.reader.read(question)
        assert isinstance(plan, AskPlan) and plan.topic.number == "many", question
        refusal = seams.policy.absent_topic(plan.topic, seams.retriever.search(plan.topic.search))
        assert refusal == f"{REFUSAL} No abstract in the collection mentions {typed}.", question
    # an acronym some abstract writes, and an open question, are judged as any other
    for question in ("graph transformer MolGT papers", "QKV for traffic forecasting"):
        plan = seams.reader.read(question)
        assert isinstance(plan, AskPlan)
        assert seams.policy.absent_topic(plan.topic, seams.retriever.search(plan.topic.search)) == "", question
    # a word in lower case the dictionary lacks is no acronym ("go beyond decoding")
    plan = seams.reader.read("which abstracts go beyond standard decoding for traffic forecasting")
    assert isinstance(plan, AskPlan)
    assert seams.policy.absent_topic(plan.topic, seams.retriever.search(plan.topic.search)) == ""


def test_a_term_the_collection_writes_whole_is_not_stated_by_a_sentence_close_for_one_word_of_it():
    # bags of words (hand-checkable): "A product of experts drives text generation." is
    # 2/sqrt(3*7) = 0.44 from "mixture-of-experts" (its "of" and "experts"); no word of it says
    # "mixture", and paper a writes the term whole, so it is a name the sentence does not state
    papers = [
        make_paper("a", "Sparse mixture-of-experts layers route each token."),
        make_paper("b", "A product of experts drives text generation."),
        make_paper("c", "We stack a mixture of experts in each layer."),
        make_paper("d", "Images are classified by convolutions."),
    ]
    settings = RetrievalSettings(part_sentence=0.3, part_generic_share=0.5)
    policy = RefusalPolicy(FakeRetriever(papers), FakeEvidence(papers), settings)
    assert not _states(policy, "mixture-of-experts", "A product of experts drives text generation.")
    # the words of a hyphenated term, written apart, state it
    assert _states(policy, "mixture-of-experts", "We stack a mixture of experts in each layer.")
    assert _states(policy, "mixture-of-experts", "Sparse mixture-of-experts layers route each token.")


def test_in_a_few_dozen_abstracts_a_combination_of_subjects_keeps_each_part_whatever_its_share():
    # six papers: "federated" and "reinforcement" are each in two (33%, above part_generic_share),
    # so both parts were generic and the paper on federated learning alone was listed; each is a
    # subject an abstract writes side by side, in at most half the abstracts: both are parts
    papers = [
        make_paper("fgl", "We study federated learning of graph models with language models."),
        make_paper("fedrl", "Offline reinforcement learning agents are aggregated by federated learning."),
        make_paper("dispatch", "We use reinforcement learning for ride dispatch."),
        make_paper("images", "Images are classified by convolutions."),
        make_paper("speech", "Speech is synthesized by a vocoder."),
        make_paper("proteins", "Proteins fold in water."),
    ]
    seams = Seams(papers)
    seams.policy.settings = RetrievalSettings(part_check=True)
    plan = seams.reader.read("which papers use federated learning with reinforcement learning?")
    assert isinstance(plan, AskPlan)
    retrieval = seams.retriever.search(plan.topic.search)
    members = [h for h in retrieval.hits if h.paper.id in {"fgl", "fedrl"}]
    got = seams.policy.parts(plan.topic, retrieval, members)
    assert got.checked and [h.paper.id for h in got.complete] == ["fedrl"]
    assert "fgl" in {x.hit.paper.id for x in got.partial}


_CLIPS = make_paper("clips", "Voice assistants are vulnerable to adversarial examples. Benign audio clips like music,"
                             " when embedded with small perturbations, fool speech recognition; we pick carrier clips.")
_CLIP_MODEL = make_paper("vlm", "We fine-tune CLIP on satellite images and show zero-shot transfer to crop mapping.")


@pytest.mark.parametrize(
    ("papers", "question", "refused"),
    [
        # a name typed in capitals that no abstract writes so: the common word is another sense
        ([GRAPH, TRAFFIC, _CLIPS], "Which papers use CLIP?", "CLIP"),
        ([GRAPH, TRAFFIC, _CLIPS], "any work building on CLIP", "CLIP"),
        # written in capitals somewhere: held
        ([GRAPH, _CLIPS, _CLIP_MODEL], "Which papers use CLIP?", ""),
        # the common word asked in lower case, or a question typed wholly in capitals
        ([GRAPH, TRAFFIC, _CLIPS], "Which papers work on audio clips?", ""),
        ([GRAPH, TRAFFIC, _CLIPS], "WHICH PAPERS USE AUDIO CLIPS?", ""),
    ],
)
def test_a_name_typed_in_capitals_is_not_held_by_the_common_word_in_lower_case(papers, question, refused):
    # "Which papers use CLIP?" listed the seed's paper on audio clips as clearly about it
    seams = Seams(papers)
    plan = seams.reader.read(question)
    assert isinstance(plan, AskPlan)
    cased = [t for t in plan.search.unmatched if t.isupper()]
    got = seams.policy.absent_topic(plan.topic, seams.retriever.search(plan.topic.search), cased)
    assert got == (f"{REFUSAL} No abstract in the collection mentions {refused}." if refused else ""), got


@pytest.mark.parametrize(
    ("part", "headed"),
    [
        ("equivariant networks", True),
        ("contrastive learning", True),
        ("graph models", True),
        ("graph neural networks", False),  # two words before the head: a compound of its own
        ("Bayesian optimization", False),
        ("neural networks", False),  # every word the field's
        ("molecule generation", False),
    ],
)
def test_a_part_of_one_word_before_the_fields_word_is_field_headed(part, headed):
    from rag.question.parts import field_headed

    assert field_headed(part) is headed


# --- one paper asked for by its subjects (slow: a real store) --------------------------------------

SUBJECT_PAPERS = [
    {"id": "dpsat", "title": "Differentially Private Sharpness-Aware Training",
     "abstract": "Training with differential privacy degrades accuracy. We propose a sharpness-aware minimization "
                 "method for private learning across data holders: sharpness-aware minimization finds flat minima "
                 "that suit noisy gradients. Sharpness-aware minimization improves accuracy of learning."},
    {"id": "fedsam", "title": "Generalization Across Heterogeneous Clients",
     "abstract": "Clients hold heterogeneous data, so a global model generalizes poorly. We propose FedFlat, "
                 "whose clients run a sharpness aware minimization local optimizer, and a momentum variant. "
                 "Experiments on federated learning benchmarks show better generalization."},
    {"id": "fedavg", "title": "Communication-Efficient Federated Averaging",
     "abstract": "Federated learning trains a model across many clients. We propose a compressed averaging scheme "
                 "that reduces communication between clients and the server."},
    {"id": "samtheory", "title": "Towards Understanding Sharpness-Aware Minimization",
     "abstract": "Sharpness-aware minimization is a popular training method. We analyse why sharpness-aware "
                 "minimization improves generalization of deep networks."},
    {"id": "speech", "title": "Streaming Speech Recognition",
     "abstract": "Speech recognition is slow on long recordings. We propose a streaming recognizer."},
]


@pytest.fixture(scope="module")
def subjects(tmp_path_factory, embedder):
    from conftest import pipeline_of

    return pipeline_of(tmp_path_factory.mktemp("subjects_home"), SUBJECT_PAPERS, embedder)


@pytest.mark.slow
@pytest.mark.parametrize("question", [
    "Which paper applies sharpness-aware minimization to federated learning?",  # a new user's, on the library
    "What does the paper on sharpness-aware minimization for federated learning propose?",
])
def test_one_paper_asked_for_by_its_subjects_is_the_one_that_states_both(subjects, question):
    # the membership model puts dpsat first for the first question (it writes "sharpness-aware
    # minimization" three times, and "learning across data holders"); the one paper that states
    # both subjects answers, as the list of several would give it
    answer = subjects.ask(question)
    assert [c.paper_id for c in answer.citations][:1] == ["fedsam"], answer.text


# --- a description of one paper whose facts only different papers state --------------------------


def _partial(pid: str, stated: tuple[str, ...], missing: tuple[str, ...]):
    from rag.route.refusal import PartialPaper
    from rag.types import PaperHit

    return PartialPaper(PaperHit(make_paper(pid, f"Abstract of {pid}."), 1.0), stated, missing)


def test_a_fact_the_best_covering_paper_lacks_and_another_states_is_held_apart():
    from rag.route.refusal import PartsCoverage

    # "the paper that segments satellite images of glaciers with a diffusion model": one paper
    # states the diffusion model, another the glaciers; no paper both
    cov = PartsCoverage(True, [], [
        _partial("diff", ("diffusion model segmentation",), ("satellite images of glaciers",)),
        _partial("ice", ("satellite images of glaciers",), ("diffusion model segmentation",)),
    ])
    assert cov.apart(lambda p, q: True) == ("satellite images of glaciers",)
    # a fact nobody else states leaves the description to the paper that states the most (the
    # reader's words may be its own); and one that is no distinguishing fact is not held
    alone = PartsCoverage(True, [], [_partial("diff", ("diffusion model segmentation",), ("on glaciers",))])
    assert alone.apart(lambda p, q: True) == ()
    assert cov.apart(lambda p, q: False) == ()
    # some paper states every fact: nothing is apart
    whole = replace(cov, complete=[cov.partial[0].hit])
    assert whole.apart(lambda p, q: True) == ()


@pytest.mark.parametrize(("part", "distinct"), [
    ("tune autonomous driving policies", True),
    ("RLHF", True),  # a name
    ("Atari", True),
    ("2 bits", True),  # a figure
    ("put", False),  # a lone word a reading cut off ("decide where to put them")
    ("decide where", False),
    ("", False),
])
def test_a_distinguishing_part_has_two_terms_or_is_a_name_or_figure(part, distinct):
    from rag.question.parts import distinguishing

    assert distinguishing(part) is distinct


def test_a_distinguishing_part_has_a_rare_term_in_a_library():
    from rag.route.refusal import UNUSED_MIN_PAPERS

    # a library: a part whose rarest word is in one abstract tells a paper apart; a clause of
    # words many abstracts use ("avoiding the cost": each in 200) does not (DISTINCT_SHARE)
    filler = [
        make_paper(f"f{i}", "We study avoiding the cost of training models." if i < 200 else f"We study topic {i}.")
        for i in range(UNUSED_MIN_PAPERS)
    ]
    papers = [*filler, make_paper("fake", "We detect audio deepfakes with one-class learning.")]
    policy = RefusalPolicy(FakeRetriever(papers), FakeEvidence(papers), SETTINGS)
    assert policy.distinguishing("detects audio deepfakes")
    assert not policy.distinguishing("avoiding the cost")
    # in a few dozen abstracts no part is: a word in one of them says what the collection is about
    few = [*filler[195:230], papers[-1]]
    assert not RefusalPolicy(FakeRetriever(few), FakeEvidence(few), SETTINGS).distinguishing("detects audio deepfakes")


def test_a_paper_that_writes_a_parts_rare_words_does_not_lack_it():
    from rag.route.refusal import UNUSED_MIN_PAPERS

    # what tells "accelerates optimal-transport solvers" apart is its rare words: a paper that
    # writes them lacks nothing for the reader's verb; one that writes one rare word of two does
    filler = [
        make_paper(f"f{i}", "Our method accelerates training of large models." if i < 300 else f"We study topic {i}.")
        for i in range(UNUSED_MIN_PAPERS)
    ]
    solver = make_paper("ot", "Optimal-transport solvers on point clouds run in linear time with our sketches.")
    other = make_paper("other", "Transport of goods is planned by our agents.")
    papers = [*filler, solver, other]
    policy = RefusalPolicy(FakeRetriever(papers), FakeEvidence(papers), SETTINGS)
    assert not policy.distinguishing("accelerates optimal-transport solvers", solver)
    assert policy.distinguishing("accelerates optimal-transport solvers", other)
    assert policy.distinguishing("accelerates optimal-transport solvers")  # no paper: its rare words decide


@pytest.mark.parametrize(("question", "parts"), [
    # a sentence that opens as a question after a description is a sub-question of its own
    ("I recall a paper that trains robots from videos of cooking. Which robots did it use?",
     ["I recall a paper that trains robots from videos of cooking", "Which robots did it use?"]),
    ("there was one about tabular data generation with LLMs. What dataset did it release?",
     ["there was one about tabular data generation with LLMs", "What dataset did it release?"]),
    # a figure's point is no sentence end
    ("which paper reaches 3.5 BLEU on WMT", ["which paper reaches 3.5 BLEU on WMT"]),
])
def test_a_question_sentence_after_a_description_is_a_part_of_its_own(question, parts):
    assert question_parts(question) == parts


# --- every route that answers a topic or a description holds it to its parts ------------------------


@pytest.mark.parametrize(("question", "parts"), [
    # the condition that the papers release code is no part a paper on the topic must state
    ("Which papers on graph transformers for traffic forecasting release code?",
     (("graph transformers", "traffic forecasting"),)),
    ("papers on sparse attention over long legal documents that share their code",
     (("sparse attention", "long legal documents"),)),
    ("Which papers on crop yield prediction from satellites provide a GitHub link?",
     (("crop yield prediction", "satellites"),)),
    ("Which papers on optimal transport release code?", ()),  # one part: the membership model's
])
def test_a_list_of_the_papers_that_release_code_has_the_parts_of_its_topic_alone(question, parts):
    plan = Seams([GRAPH, TRAFFIC, CROP]).reader.read(question)
    assert isinstance(plan, AskPlan) and plan.topic.link_rest, plan.topic
    assert plan.topic.parts == parts


@pytest.mark.parametrize(("topic", "unlinked"), [
    ("federated learning that release code", "federated learning"),
    ("spiking networks for speech release their code", "spiking networks for speech"),
    ("code generation with open-source code", "code generation with open-source code"),  # code as a topic
])
def test_without_link_drops_the_condition_and_the_words_it_leaves_at_the_ends(topic, unlinked):
    from rag.question.reader import without_link

    assert without_link(topic) == unlinked


def test_the_paper_answered_for_a_description_is_the_one_held_to_its_parts():
    from rag.route.refusal import PartialPaper, PartsCoverage
    from rag.types import PaperHit

    # "the paper that uses a graph network for symbolic regression": the answer gave the symbolic
    # regression paper, which lacks the graph network another paper states
    cov = PartsCoverage(True, [], [
        _partial("graphs", ("graph network",), ("symbolic regression",)),
        _partial("symreg", ("symbolic regression",), ("graph network",)),
    ], (("graph network", "symbolic regression"),))
    assert cov.apart(lambda p, q: True, "symreg") == ("graph network",)
    # what the paper passed to the check is the answered one
    seen: list[str] = []
    cov.apart(lambda p, q: seen.append(q.id) or True, "symreg")
    assert seen == ["symreg"]
    # a paper that states only the head of a part lacks that part and the others of its alternative
    head = PartialPaper(
        PaperHit(make_paper("private", "We estimate privately."), 1.0), ("private estimation",), ("shapley value",),
        part="private Shapley value estimation",
    )
    held = PartsCoverage(True, [], [head, _partial("gnn", ("graph networks",), ("private Shapley value estimation",))],
                         (("private Shapley value estimation", "graph networks"),))
    assert held.apart(lambda p, q: True, "private") == ("graph networks",)


def test_a_subject_the_collection_writes_whole_distinguishes_whatever_its_words_share():
    from rag.route.refusal import UNUSED_MIN_PAPERS

    # a library where "graph neural networks" is in a fifth of the abstracts: a common subject, no
    # rare word, yet a paper that writes it nowhere does not state it (evidence, not the share)
    filler = [
        make_paper(f"f{i}", "We train graph neural networks on molecules." if i < 700 else f"We study topic {i}.")
        for i in range(UNUSED_MIN_PAPERS)
    ]
    symreg = make_paper("symreg", "We find analytical expressions with neural symbolic regression.")
    gnnsr = make_paper("gnnsr", "Graph neural networks guide our symbolic regression search.")
    papers = [*filler, symreg, gnnsr]
    policy = RefusalPolicy(FakeRetriever(papers), FakeEvidence(papers), SETTINGS)
    assert policy.distinguishing("graph neural networks", symreg)
    assert not policy.distinguishing("graph neural networks", gnnsr)  # it writes the subject
    assert not policy.distinguishing("graph neural networks")  # no paper to hold to it: the share decides
    # a clause of common words is no subject ("train on the molecules": not a bare compound)
    assert not policy.distinguishing("train on the molecules", symreg)


LINK_PAPERS = [
    {"id": "ibrep", "title": "Compressed Representations via the Information Bottleneck",
     "abstract": "We learn compressed representations of images with the information bottleneck principle. "
                 "The bottleneck keeps only the features that predict the label. "
                 "Our code is available at https://github.com/example/ibrep."},
    {"id": "sim2real", "title": "Domain Randomization for Sim-to-Real Transfer",
     "abstract": "Policies trained in simulation fail on real robots. We randomize the simulator so that "
                 "sim-to-real transfer of grasping policies succeeds. Code is available at https://github.com/example/dr."},
    {"id": "ibsim", "title": "Bottlenecked Policies Transfer from Simulation",
     "abstract": "We regularize robot policies with a variational information bottleneck for sim-to-real transfer. "
                 "The bottleneck removes simulator-specific features, and the policies succeed on a real arm."},
    {"id": "speech", "title": "Streaming Speech Recognition",
     "abstract": "Speech recognition is slow on long recordings. We propose a streaming recognizer. "
                 "Code: https://github.com/example/stream."},
]


@pytest.fixture(scope="module")
def linked(tmp_path_factory, embedder):
    from conftest import pipeline_of

    return pipeline_of(tmp_path_factory.mktemp("linked_home"), LINK_PAPERS, embedder)


@pytest.mark.slow
@pytest.mark.parametrize("question", [
    "Which papers on information bottlenecks for sim-to-real transfer release code?",
    "papers using an information bottleneck for sim-to-real transfer, with code?",
])
def test_a_list_of_papers_that_release_code_is_held_to_every_part_of_its_topic(linked, question):
    # each paper with code states one part; the one that states both links no code: no paper on
    # the topic releases code, and the refusal names it (the link route skipped the parts check
    # and listed the information-bottleneck paper with code)
    answer = linked.ask(question)
    assert answer.refused and not answer.citations, answer.text
    assert "ibsim" in answer.text and "makes its code available" in answer.text, answer.text



def test_a_name_written_out_with_its_kind_is_one_subject():
    # "Which papers use the Open Pretrained Transformer models?" listed 2 of the 6 papers that use
    # OPT: the compound no abstract writes whole was split into "Open Pretrained" | "Transformer
    # models", and the papers writing only "OPT-175B" state neither piece
    from rag.acronyms import Senses
    from rag.question.reader import Reader

    named = [
        make_paper("define", "We tag audio with models of the Sparse Gated Token Mixer (SGTM) family."),
        make_paper("serve", "Serving is slow. We serve SGTM-70B on one GPU with a paged cache."),
        make_paper("other", "We study the sparse gated token problem (SGTM) between measures."),
        make_paper("gates", "We study sparse gated experts in translation models."),
    ]
    papers = [*named, *STACKED]
    seams = Seams(papers)
    reader = Reader(Catalogue(papers), senses=Senses([p.text_for_index for p in papers], glossary=[]))
    plan = reader.read("Which papers use the Sparse Gated Token Mixer models?")
    assert isinstance(plan, AskPlan)
    assert [n.short for n in plan.topic.known_names] == ["SGTM"], plan.topic.known_names
    assert seams.policy.stacked(plan.topic) == ()


# --- parts held together, and kinds of thing listed with "and" ----------------------------------


@pytest.mark.parametrize(
    ("topic", "parts"),
    [
        # single words joined by "and" list the kinds of thing the papers work on: a paper on either answers
        (
            "graph transformers for proteins and RNA",
            (("graph transformers", "proteins"), ("graph transformers", "RNA")),
        ),
        ("anomaly detectors over logs and metrics", (("anomaly detectors", "logs"), ("anomaly detectors", "metrics"))),
        # an "and" that joins longer conjuncts, or is the whole topic, is read as before
        ("speech and audio", ()),
        ("diffusion models for weather forecasting", (("diffusion models", "weather forecasting"),)),
    ],
)
def test_single_words_joined_by_and_in_a_part_are_alternatives(topic, parts):
    assert topic_parts(topic) == parts
    assert word_conjuncts("speech synthesis and recognition") == ()


PRUNE_SPEECH = make_paper("ps", "Transformers are big. We prune transformers for speech recognition.")
SPEECH_EDGE = make_paper("se", "Phones are small. We run speech recognition on edge devices with a new codec.")
PRUNE_EDGE = make_paper("pe", "Devices are small. We prune transformers so that they run on edge devices.")


def test_three_parts_each_two_of_which_a_paper_states_are_held_together_and_judged_whole():
    question = "which papers prune transformers for speech recognition on edge devices?"
    # each pair of parts is stated together by some paper: one subject in the reader's words, no
    # combination held apart (membership judges it whole)
    assert not Seams([PRUNE_SPEECH, SPEECH_EDGE, PRUNE_EDGE, CROP]).coverage(question).checked
    # with no paper stating "prune transformers" and "edge devices" together, it is a combination
    got = Seams([PRUNE_SPEECH, SPEECH_EDGE, CROP]).coverage(question)
    assert got.checked and not got.complete


ROGUE = make_paper("rogue", "Rogue waves are rare. We model rogue waves in the open ocean.")


def test_in_a_library_a_subject_no_candidate_states_but_the_collection_writes_is_a_description():
    question = "which papers harden gradient aggregation against rogue sybil clients?"
    # "sybil clients" is written side by side: the subject is held, said without the reader's
    # "rogue", so the parts describe the paper in other words (membership judges the topic whole)
    held = make_paper("held", "Attacks are cheap. We harden gradient aggregation so that sybil clients cannot bias it.")
    got = Seams([held, ROGUE, CROP, *FILLERS]).coverage(question)
    assert not got.checked or got.complete
    # no two neighbouring words of it written side by side: a subject the collection does not hold
    apart = make_paper("apart", "Attacks are cheap. We harden gradient aggregation against sybil attacks by clients.")
    got = Seams([apart, ROGUE, CROP, *FILLERS]).coverage(question)
    assert got.checked and not got.complete
