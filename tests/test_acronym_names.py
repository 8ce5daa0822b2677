"""A name spelled out in a question and its acronym in the abstracts, and the reverse.

A question may name a thing by its long form where abstracts write its acronym, often with a model
size ("Broad Language Transformer" and "BLT-70B"), or by the acronym where an abstract spells it
out; and one acronym may stand for several things in a collection ("BLT": a model family, the
bounded loss threshold, and a learning-theory paper's best error, which no abstract defines).
The question reader finds the names a topic states (:meth:`rag.acronyms.Senses.names_in`), the
answer lists the papers that state them in the sense asked (:func:`rag.acronyms.states_named`),
and a paper that only shares the long form's generic words is not about it. The names here are
invented: no eval question holds them.
"""

from __future__ import annotations

import pytest

from rag.acronyms import NamedForms, Senses, named_use, same_sense, states_named, used_otherwise
from rag.index.catalogue import Catalogue
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from store.papers import make_paper

PAPERS = {
    "blt-watermark": "We present a watermark for generated text that a detector finds from a few tokens. We test "
    "it on models of the Broad Language Transformer (BLT) family and discuss robustness and security.",
    "blt-offload": "Serving large language models needs memory that one GPU lacks. We offload weights and "
    "cache to disk and CPU memory; inference of BLT-70B reaches one token per second on a single 16GB GPU.",
    "blt-quant": "We quantize weights and activations of large language models to eight bits. The method applies "
    "to all matrix multiplications of the models, including BLT, Pythia, GLM and LLaMA, with no loss in accuracy.",
    "blt-transport": "We study the bounded loss threshold (BLT) problem between positive measures. We give a "
    "linear embedding that computes BLT distances between many pairs of measures quickly.",
    "blt-theory": "We learn halfspaces in the agnostic model under Gaussian marginals. Our algorithm reaches error "
    "O(BLT) + epsilon, where BLT is the best misclassification error of a halfspace.",
    "broad-prompts": "Broad pretrained language transformers are adapted to new tasks by prompt tuning. We study "
    "which prompts transfer between language transformers of broad scope.",
    "ktf-defined": "Wide networks train like linear models in their kernel tangent flow (KTF). We derive the KTF of "
    "attention layers and predict their training dynamics.",
    "ktf-acronym": "We compute KTFs of residual networks in closed form. Our KTF-based predictions match the "
    "generalization of trained networks on CIFAR-10.",
    "ktf-spelled": "We show that the kernel tangent flows of deep networks change little during training when the "
    "width grows, and measure how far they move for finite widths.",
    "speech": "We synthesize speech for low-resource languages with a small vocoder trained on forty hours of audio.",
    "graphs": "Graph pooling coarsens a graph into clusters. We learn cluster assignments end to end for molecules.",
    "bandits": "We study contextual bandits with delayed feedback and prove regret bounds that match the lower bound.",
    "diffusion": "Diffusion models generate images by denoising. We distill a sampler that needs four steps.",
    "tabular": "Gradient-boosted trees still beat deep networks on tabular data; we explain why with smoothness.",
    "robots": "A legged robot learns to walk on ice from ten minutes of real-world experience.",
}
BLT_MODELS = {"blt-watermark", "blt-offload", "blt-quant"}
KTF = {"ktf-defined", "ktf-acronym", "ktf-spelled"}


# --- the senses and the sentences that state them (fast) ------------------------------------------


@pytest.fixture(scope="module")
def senses() -> Senses:
    return Senses(PAPERS.values(), glossary=[])


def test_spelling_variants_of_a_long_form_are_one_sense():
    assert same_sense("Contrastive Language-Image Pre-training", "contrastive language image pretraining")
    assert same_sense("deep equilibrium", "deep equilibrium model")
    assert same_sense("sharpness aware minimisation", "Sharpness-Aware Minimization")
    assert not same_sense("Broad Language Transformer", "bounded loss threshold")


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("inference of BLT-70B on one GPU", True),
        ("we fine-tune T5-XXL and GPT-2-XL", True),
        ("including BLT, Pythia, GLM and LLaMA", True),
        ("across families Pythia, BLT, and GPT-2", True),
        ("error O(BLT) + epsilon, where BLT is the best error", False),
        ("the BLT problem between measures", False),
    ],
)
def test_an_acronym_with_a_model_size_or_among_names_is_a_name_of_a_thing(text, named):
    short = "T5" if "T5" in text else "BLT"
    assert named_use(text, short) is named


def test_an_acronym_of_several_senses_asks_the_one_most_papers_name_things_with(senses):
    # defined twice, once as a proper name; written as a model's name by two more papers
    assert senses.thing_sense("BLT") == "Broad Language Transformer"
    assert senses.preferred("BLT") == "Broad Language Transformer"
    assert senses.preferred("KTF") == "kernel tangent flow"


@pytest.mark.parametrize(
    ("topic", "short", "long", "ambiguous"),
    [
        ("the Broad Language Transformer models", "BLT", "Broad Language Transformer", True),
        ("broad language transformers", "BLT", "Broad Language Transformer", True),
        ("BLT", "BLT", "Broad Language Transformer", True),
        ("BLT-70B", "BLT", "Broad Language Transformer", True),
        ("the bounded loss threshold", "BLT", "bounded loss threshold", True),
        ("kernel tangent flows", "KTF", "kernel tangent flow", False),
        ("ktf", "KTF", "kernel tangent flow", False),
        ("KTFs of wide networks", "KTF", "kernel tangent flow", False),
    ],
)
def test_a_topic_names_an_acronym_by_either_form(senses, topic, short, long, ambiguous):
    (name,) = senses.names_in(topic)
    assert (name.short, name.long, bool(name.others)) == (short, long, ambiguous)


def test_words_that_only_share_a_long_form_name_nothing(senses):
    assert senses.names_in("pretrained language transformers") == ()
    assert senses.names_in("the flow of gradients in wide networks") == ()


def test_a_sentence_states_an_ambiguous_acronym_in_the_sense_its_evidence_gives(senses):
    model = senses.forms("BLT", "Broad Language Transformer")
    loss = senses.forms("BLT", "bounded loss threshold")
    theory = "Our algorithm reaches error O(BLT) + epsilon, where BLT is the best misclassification error."
    assert states_named("inference of BLT-70B reaches one token per second", model)
    assert states_named("models of the Broad Language Transformer family", model)
    assert not states_named(theory, model) and not states_named(theory, loss)  # three letters alone
    transport = "We give an embedding for BLT distances."
    own = [("BLT", "bounded loss threshold")]
    assert states_named(transport, loss, own) and not states_named(transport, model, own)
    assert not states_named("Broad pretrained language transformers are adapted by prompts.", model)


def test_an_acronym_of_one_sense_is_stated_bare_plural_or_with_a_suffix(senses):
    ktf = senses.forms("KTF", "kernel tangent flow")
    for text in ("We compute KTFs in closed form.", "Our KTF-based predictions", "the kernel tangent flows move"):
        assert states_named(text, ktf)
    assert not states_named("a kernel of the tangent space", ktf)


def test_a_name_many_abstracts_state_is_a_field_not_a_thing(senses):
    # a thing's name is required of the papers a list gives; a field named in passing is not
    assert senses.forms("KTF", "kernel tangent flow").rare
    common = Senses(PAPERS.values(), glossary=[], stated={"ktf": 500})
    assert not common.forms("KTF", "kernel tangent flow").rare


def test_a_name_is_stated_by_another_name_the_glossary_gives_it():
    glossary = [("same", "TTS", "text-to-speech"), ("same", "text-to-speech", "speech synthesis")]
    tts = Senses(["We build a voice."], glossary=glossary).forms("TTS", "text-to-speech")
    assert states_named("We improve speech synthesis for low-resource languages.", tts)
    assert states_named("Our TTS model is small.", tts)
    assert not states_named("We test on image, text, and speech datasets.", tts)  # its words in a list


def test_a_name_is_stated_by_a_kind_of_it_the_glossary_names():
    # "which papers work on vision-language models?" dropped DDL, whose abstract writes only
    # "frozen LVLMs": large vision-language models are vision-language models (rag/glossary.tsv)
    vlm = NamedForms("VLM", "vision-language model")
    assert states_named("We let frozen LVLMs refine their decisions across visual spaces.", vlm)
    assert states_named("We distil large vision-language models into small ones.", vlm)
    assert not states_named("We caption images with a language model.", vlm)


def test_the_reader_stores_the_names_a_topic_states_in_the_plan(senses):
    catalogue = Catalogue([make_paper(k, v) for k, v in PAPERS.items()])
    reader = Reader(catalogue, senses=senses)
    plan = reader.read("Which papers use the Broad Language Transformer models?")
    assert isinstance(plan, AskPlan)
    (name,) = plan.topic.known_names
    assert isinstance(name, NamedForms) and name.short == "BLT" and name.whole
    # an acronym of several senses is indexed under its long form only where it is defined: searched too
    assert "BLT" in plan.topic.search.text
    plan = reader.read("Which papers quantize the Broad Language Transformer models?")
    assert isinstance(plan, AskPlan) and not plan.topic.known_names[0].whole
    plan = reader.read("Which papers use opt?")  # an English word in lower case names no acronym
    assert isinstance(plan, AskPlan) and plan.topic.known_names == ()
    # alternatives ask only the names every one of them states
    plan = reader.read("Which papers use kernel tangent flows or bounded loss thresholds?")
    assert isinstance(plan, AskPlan) and plan.topic.known_names == ()


# --- answers over a real store (slow) -------------------------------------------------------------


@pytest.fixture(scope="module")
def named(tmp_path_factory, embedder):
    from conftest import pipeline_of

    return pipeline_of(tmp_path_factory.mktemp("acronym_home"), PAPERS, embedder)


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "Which papers use the Broad Language Transformer models?",
        "Which papers use BLT?",
        "which papers evaluate on broad language transformers",
    ],
)
def test_a_list_of_a_named_model_holds_the_papers_that_state_it_in_either_form(named, question):
    answer = named.ask(question)
    assert not answer.refused, answer.text
    cited = {c.paper_id for c in answer.citations}
    # the sized variant and the listed name are found through the long form, the other senses and
    # the paper of generic words are not listed
    assert cited == BLT_MODELS, answer.text
    quotes = {c.paper_id: c.sentence for c in answer.citations}
    assert "BLT-70B" in quotes["blt-offload"]


@pytest.mark.slow
def test_a_names_other_form_is_searched_on_its_own(named, monkeypatch):
    # in a library the long form's common words ("language transformer models") fill the candidates
    # before the papers writing only "BLT-70B" (the 3,098-paper library listed 2 of the 6 OPT papers
    # for "Open Pretrained Transformer models"): the other form is one more ranking of its own
    from rag.types import SearchQuery

    retriever = named.retriever
    monkeypatch.setattr(retriever.settings, "candidates", 2)
    plain = SearchQuery("Broad Language Transformer models")
    found = {h.paper.id for h in retriever.search(plain).hits}
    with_forms = {h.paper.id for h in retriever.search(SearchQuery(plain.text, forms=("BLT",))).hits}
    added = with_forms - found
    assert found < with_forms and all("BLT" in PAPERS[pid] for pid in added), (found, with_forms)


@pytest.mark.slow
def test_the_other_sense_of_an_acronym_is_answered_by_the_paper_that_defines_it(named):
    answer = named.ask("Which papers study the bounded loss threshold?")
    assert {c.paper_id for c in answer.citations} == {"blt-transport"}, answer.text


@pytest.mark.slow
@pytest.mark.parametrize("question", ["Which papers study kernel tangent flows?", "Which papers use KTFs?"])
def test_an_unambiguous_acronym_and_its_long_form_find_the_same_papers(named, question):
    answer = named.ask(question)
    assert {c.paper_id for c in answer.citations} == KTF, answer.text


# --- an acronym written in another sense than the one asked (fast) ---------------------------------

SKM = NamedForms("SKM", "sparse kernel machine", others=("stochastic k-means",))
"""An acronym the collection defines in two senses (invented)."""


@pytest.mark.parametrize(
    ("title", "abstract", "other"),
    [
        # its own definition decides: another long form is another sense
        ("Clustering at Scale", "We revisit stochastic k-means (SKM) and bound its error.", True),
        # the letters alone, never spelled out as asked, beside another sense's words
        ("Clustering at Scale", "SKM assigns points to centroids one batch at a time.", True),
        # the sense asked, spelled out or defined so, or the acronym not written at all
        ("Sparse Kernels", "Our sparse kernel machine (SKM) is fit in linear time.", False),
        ("Sparse Kernels", "A sparse kernel machine is fit; SKM needs few support vectors.", False),
        ("Sparse Kernels", "We fit kernel classifiers with few support vectors.", False),
    ],
)
def test_an_acronym_written_in_another_sense_is_told_apart(title, abstract, other):
    assert used_otherwise(SKM, title, abstract) is other


def test_an_acronym_of_one_sense_or_a_name_of_a_thing_is_never_used_otherwise():
    one = NamedForms("KTF", "kernel tangent flow", rare=True)
    assert not used_otherwise(one, "Residual Networks", "We compute KTFs of residual networks.")
    thing = NamedForms("SKM", "sparse kernel machine", others=("stochastic k-means",), thing=True)
    assert not used_otherwise(thing, "SKM-7B", "We prune SKM-7B to half its size.")


# --- the sense a shorthand topic gives an acronym (fast) --------------------------------------------

SHORTHAND = {
    "spl-curriculum-1": "We order training samples from easy to hard with self-paced learning (SPL) and a curriculum "
    "that adapts to the learner.",
    "spl-curriculum-2": "Self-paced learning selects easy samples first; we give a curriculum for noisy labels.",
    "spl-curriculum-3": "A curriculum of tasks trained by self-paced learning (SPL) speeds up robot learning.",
    "spl-graph-1": "We estimate the shortest path length (SPL) between nodes of a large graph from landmarks.",
    "spl-graph-2": "Graph neural networks cannot count the shortest path length between two nodes of a graph.",
    "spl-other": "The structured prediction loss (SPL) of a sequence tagger is bounded for any graph.",
    "qe-1": "Graph transformers need quadrature embeddings of the nodes; we learn them from the graph spectrum.",
    "qe-2": "We compare quadrature embeddings for graph transformers on molecules.",
    "qe-3": "Graph transformers with random-walk quadrature embeddings beat message passing.",
    "qe-defined-1": "We minimise the quantization error (QE) of vector quantizers for speech.",
    "qe-defined-2": "Query expansion (QE) adds terms to a search query before retrieval.",
}


@pytest.fixture(scope="module")
def shorthand() -> Senses:
    return Senses(SHORTHAND.values(), glossary=[])


@pytest.mark.parametrize(
    ("topic", "long"),
    [
        ("SPL curriculum", "self-paced learning"),  # the sense the topic's other words are stated beside
        ("curricula with SPL for noisy labels", "self-paced learning"),
        ("graph SPL", "shortest path length"),
        ("SPL between nodes", "shortest path length"),
        ("SPL", "self-paced learning"),  # no other words: the sense most papers define (two against one each)
        ("SPL for tagging sequences", "self-paced learning"),  # other words fewer than two papers state
    ],
)
def test_an_acronym_of_several_senses_takes_the_sense_its_topic_is_stated_with(shorthand, topic, long):
    (name,) = shorthand.names_in(topic)
    assert (name.short, name.long.lower()) == ("SPL", long)


def test_an_acronym_takes_a_phrase_spelling_it_that_papers_on_the_topic_write(shorthand):
    # no abstract defines "QE" as quadrature embeddings, but the papers on graph transformers write it
    assert shorthand.sense_in("QE", "graph transformer QE") == "quadrature embeddings"
    assert shorthand.sense_in("QE", "QE for speech") == ""  # one paper each: no sense stands out
    assert shorthand.sense_in("QE", "QE retrieval") == ""


def test_a_shorthand_topic_is_read_as_its_acronym_written_out(shorthand):
    reader = Reader(Catalogue([make_paper(k, v) for k, v in SHORTHAND.items()]), senses=shorthand)
    for question, topic in [
        ("graph SPL papers", "graph shortest path length"),
        ("any SPL work on curricula?", "self-paced learning"),
        ("Which papers learn graph transformer QEs?", "graph transformer quadrature embeddings"),
    ]:
        plan = reader.read(question)
        assert isinstance(plan, AskPlan) and plan.asked == question
        assert topic in plan.topic.text, (question, plan.topic.text)
        assert plan.topic.acronyms == ()
    written = reader.read("graph shortest path length papers")
    assert isinstance(written, AskPlan)
    assert written.topic.text == reader.read("graph SPL papers").topic.text  # type: ignore[union-attr]


# --- a topic in shorthand and its long form read alike (fast) ---------------------------------------

FIELD = {
    "gcn-1": "Graph convolution networks (GCNs) pass messages between nodes. We study why deep GCNs smooth "
    "node features until they cannot be told apart.",
    "gcn-2": "We propose a graph rewiring step that keeps graph convolution networks expressive with depth.",
    "gcn-3": "Graph convolution networks on molecules are trained with a new pooling operator.",
    "pde-1": "Partial differential equations (PDEs) describe fluids. We learn a neural solver of PDEs on meshes.",
    "pde-2": "A neural operator learns partial differential equations from a few trajectories of a fluid.",
    "robot-1": "Policies trained in simulation fail on hardware; we narrow the sim-to-real gap of a legged robot.",
    "robot-2": "We learn to grasp unseen objects from pixels with a real robot arm and human corrections.",
}


@pytest.fixture(scope="module")
def field_reader() -> Reader:
    papers = [make_paper(k, v) for k, v in FIELD.items()]
    return Reader(Catalogue(papers), senses=Senses([p.text_for_index for p in papers], glossary=[]))


@pytest.mark.parametrize(
    ("question", "number"),
    [
        # a name of several words the collection defines counts as one term of a "work on" topic
        ("I'm looking for work on the oversmoothing problem of deep graph convolution networks", "many"),
        ("looking for work on neural solvers of partial differential equations for fluids", "many"),
        ("any fluid PDE solver work?", "many"),  # the mass noun after the topic, quantified
        # a description of one paper stays one: more terms than a topic has, or a clause of its own
        ("I'm looking for work on neural solvers of partial differential equations that learn from a few "
         "trajectories", "open"),
        ("looking for work on pooling operators for graph convolution networks trained on small molecules", "open"),
        ("the GCN rewiring work", "open"),  # one work, picked by its article
    ],
)
def test_a_known_name_of_several_words_is_one_term_of_a_topic(field_reader, question, number):
    plan = field_reader.read(question)
    assert isinstance(plan, AskPlan)
    assert plan.topic.number == number, (question, plan.topic.text)


def test_a_topic_in_shorthand_is_judged_and_searched_written_out():
    # acronyms the lexicon indexes under both forms ("LLM", "GNN") stay as typed in the topic (BM25
    # finds either form), and the topic written out is what retrieval and membership read
    papers = [make_paper(k, v) for k, v in FIELD.items()]
    senses = Senses([p.text_for_index for p in papers], glossary=[], indexed={"gcn", "pde"})
    reader = Reader(Catalogue(papers), senses=senses)
    for question, typed, written in [
        ("GCN oversmoothing papers", "GCN oversmoothing", "graph convolution networks oversmoothing"),
        ("Which papers study PDE solvers for fluids?", "PDE solvers for fluids",
         "partial differential equations solvers for fluids"),
        ("I'm looking for work on oversmoothing in deep GCNs", "oversmoothing in deep GCNs",
         "oversmoothing in deep graph convolution networks"),
    ]:
        plan = reader.read(question)
        assert isinstance(plan, AskPlan)
        assert plan.topic.text == typed
        assert plan.topic.written.lower() == written, plan.topic.written
        assert plan.topic.search.text.lower() == written
    plain = reader.read("Which papers grasp unseen objects?")
    assert isinstance(plain, AskPlan) and plain.topic.written == plain.topic.text


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("sim2real papers", "sim-to-real"),
        ("any work on sim2real gaps of legged robots?", "sim-to-real gaps of legged robots"),
        ("Which papers narrow the Sim2Real gap?", "narrow the sim-to-real gap"),
    ],
)
def test_a_digit_for_a_preposition_is_read_as_the_abstracts_write_it(field_reader, question, topic):
    plan = field_reader.read(question)
    assert isinstance(plan, AskPlan)
    assert plan.topic.text.lower() == topic


def test_a_digit_compound_no_abstract_writes_hyphenated_is_kept():
    from rag.question.names import NameReader

    names = NameReader(Catalogue([make_paper(k, v) for k, v in FIELD.items()]))
    assert names.written_form("sim2real") == "sim-to-real"
    assert names.written_form("text2image") == "text2image"  # no abstract writes "text-to-image"
    assert names.written_form("word2vec") == "word2vec"
    with_name = NameReader(Catalogue([make_paper("w", "We train word2vec embeddings; word-to-vec is no name.")]))
    assert with_name.written_form("word2vec") == "word2vec"  # a name the abstracts write with the digit
