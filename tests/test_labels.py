"""Display labels: the stated name, else the record's title, else a short description of the
abstract; never a cut sentence, never a field term taken for a name, unique in a collection."""

import json
from dataclasses import replace

import pytest
from conftest import ROOT, SEED

from rag.index.catalogue import Catalogue
from rag.question.names import NameReader
from rag.route.references import display_name
from store.distinct import distinct_labels
from store.fieldterms import is_field_term
from store.keyphrase import MAX_WORDS, MIN_WORDS, defined_abbreviations, key_phrase
from store.labels import MAX_TITLE_CHARS, choose_label, introduced_names, title_label
from store.papers import is_opening, make_paper, read_seed_text

_ENDINGS = {"a", "an", "the", "of", "in", "on", "for", "to", "with", "by", "and", "or", "from", "that", "which"}


def _seed_papers():
    return [p for f in sorted((ROOT / "data").glob("*.txt")) for p in read_seed_text(f).papers]


def _unnamed():
    gold = {r["id"]: r for r in map(json.loads, SEED.read_text().splitlines())}
    return [p for p in _seed_papers() if not gold[p.id]["short_name"]]


def test_unnamed_abstracts_get_short_distinct_descriptions():
    papers = _unnamed()
    assert len(papers) >= 8
    labels = [p.label for p in papers]
    for p in papers:
        words = p.label.split()
        assert "…" not in p.label, p.label
        assert MIN_WORDS <= len(words) <= MAX_WORDS, p.label
        assert words[-1].lower() not in _ENDINGS, p.label
        assert not is_opening(p.label, p.abstract), p.label  # not the abstract's first words
        assert p.label_kind == "phrase" and p.describes
    assert len({label.casefold() for label in labels}) == len(labels), labels


def test_every_seed_label_is_unique_and_uncut():
    labels = [p.label.casefold() for p in _seed_papers()]
    assert len(set(labels)) == len(labels)
    assert not any("…" in label for label in labels)


@pytest.mark.parametrize(
    "intro",
    [
        "To this end, we propose a novel Federated Learning (FL) framework that plugs into existing methods.",
        "We introduce a Graph Neural Network (GNN) approach that reads the molecules.",
        "We present a Reinforcement Learning framework, which learns the schedule.",
    ],
)
def test_a_field_term_is_not_a_name(intro):
    abstract = (
        "Offline hospital scheduling with shared rotas is hard when departments keep their data apart. "
        f"{intro} Experiments on rota scheduling benchmarks show fewer conflicts."
    )
    label, _, kind = choose_label(abstract)
    assert not is_field_term(label), label
    assert kind == "phrase" and "…" not in label


@pytest.mark.parametrize(
    ("intro", "label"),
    [
        ("We propose the adoption of VarNets, samplers that learn a policy.", None),
        ("We develop in this study KernelMix, an extension of mixup.", "KernelMix"),
        ("We propose a variant of KernelMix, which mixes fewer pairs.", None),
        ("Here we present an analysis of ResNets, which shows depth matters.", None),
        ("We present a new sampler termed FlowPath, which learns a policy.", "FlowPath"),
        ("We propose a simple scheme named TapeRead, with adaptive reads.", "TapeRead"),
    ],
)
def test_a_coined_name_inside_other_words_is_not_the_papers_name(intro, label):
    # "We propose the use of GFlowNets, algorithms for ..." had labelled GFlowNet-EM "use of GFlowNets"
    abstract = f"Latent variable models are hard to fit when posteriors are intractable. {intro} It works well."
    title = "Sampling Latent Structures with Learned Policies"
    chosen, _, _ = choose_label(abstract, title)
    assert chosen == (label or title)


def test_the_title_beats_a_phrase_from_the_abstract():
    abstract = (
        "Sequence models rely on recurrence. We propose a new simple network architecture, the Relay, "
        "based solely on gating mechanisms. It trains faster on translation benchmarks."
    )
    untitled = make_paper("a", abstract)
    titled = make_paper("b", abstract, title="Gating Is Enough for Translation")
    assert untitled.label == "simple network architecture"  # what the abstract states, without a title
    assert titled.label == "Gating Is Enough for Translation" and titled.label_kind == "title"


def test_a_coined_name_still_beats_the_title():
    p = make_paper("a", "We propose FOO-2, a sparse router. It is fast.", title="Sparse Routing at Scale")
    assert p.label == "FOO-2" and p.label_kind == "name"


def test_a_titles_word_before_a_colon_the_abstract_writes_is_the_name():
    # "Tranception" has no inner capital (title_name passes it over) and the abstract also
    # introduces a benchmark with one ("ProteinGym"), which had become the label
    abstract = (
        "Protein fitness is hard to predict. We introduce Fitception, a novel transformer for fitness "
        "prediction. To enable rigorous testing, we develop ProtoGym, a set of substitution assays."
    )
    p = make_paper("a", abstract, title="Fitception: Protein Fitness Prediction with Retrieval at Inference Time")
    assert (p.label, p.label_kind) == ("Fitception", "name") and "ProtoGym" in p.aliases
    # an English word before the colon is no name, nor a word the abstract does not write
    q = make_paper("b", "Pretrained models are large. We study pythons of many sizes.", title="Pythons: A Suite")
    assert q.label_kind == "title"
    r = make_paper("c", "Memory limits training. We propose a tool for rematerialization.",
                   title="Rockmate: an Efficient, Fast, Automatic and Generic Tool for Re-materialization in PyTorch")
    assert r.label != "Rockmate"


def test_a_long_title_is_shortened_without_an_ellipsis():
    long_titles = [
        "Searching Large Neighborhoods for Integer Linear Programs with Contrastive Learning and Other Tricks",
        "Fascinating Supervisory Signals and Where to Find Them: Deep Anomaly Detection with Scale Learning",
        "Bounding the Width of Neural Networks via Coupled Initialization - A Worst Case Analysis",
    ]
    for t in long_titles:
        got = title_label(t)
        assert "…" not in got and len(got) <= MAX_TITLE_CHARS and t.startswith(got), got
        assert got.split()[-1].lower() not in _ENDINGS, got
    assert title_label("Short Title") == "Short Title"


def test_key_phrase_spells_out_what_the_abstract_defines():
    text = (
        "Training sets grow fast, motivating dataset pruning (DP). "
        "In this work, we present a unified graph-based DP framework."
    )
    assert defined_abbreviations(text) == {"DP": "dataset pruning"}
    assert key_phrase(text) == "Graph-based dataset pruning"


def test_key_phrase_skips_a_demonstrative_and_takes_the_means():
    text = "Serving costs grow with model size. We tackle these costs by pruning attention heads of deep decoders."
    assert key_phrase(text) == "Pruning attention heads of deep decoders"


def test_papers_sharing_a_label_are_told_apart():
    a = make_paper(
        "x1", "We propose COLA, a coder. It codes.", title="COLA: Coding Errors Away", authors=["Ada Lovelace"]
    )
    b = make_paper("x2", "We propose COLA, an opponent learner. It learns.", authors=["Alan Turing"], year=2022)
    c = make_paper("x3", "We propose COLA, a solver. It solves.", authors=["Grace Hopper"], year=2023)
    d = make_paper("x4", "We propose DANCE, a dancer. It dances.")
    out = {p.id: p for p in distinct_labels([a, b, c, d])}
    assert [p.id for p in distinct_labels([a, b, c, d])] == ["x1", "x2", "x3", "x4"]  # ids and order kept
    assert out["x1"].label == "COLA: Coding Errors Away"  # a title first
    assert out["x2"].label == "COLA (Turing)" and out["x3"].label == "COLA (Hopper)"
    assert out["x4"] is d  # a unique label is left alone
    assert all("COLA" in out[i].aliases for i in ("x1", "x2", "x3"))  # still found by its name
    assert len({p.label for p in out.values()}) == 4


def test_the_catalogue_shows_unique_labels_and_keeps_names_for_questions():
    a = make_paper("x1", "We propose COLA, a coder. It codes.", authors=["Ada Lovelace"])
    b = make_paper("x2", "We propose COLA, an opponent learner. It learns.", authors=["Alan Turing"])
    c = make_paper("x3", "We propose DANCE, a dancer. It dances.", title="DANCE: Dancing Fast")
    d = make_paper("x4", "We propose DANCE, a dancer. It dances.", title="Dancing Slowly")
    cat = Catalogue([a, b, c, d])
    assert {cat["x1"].label, cat["x2"].label} == {"COLA (Lovelace)", "COLA (Turing)"}
    assert cat["x3"].label == "DANCE: Dancing Fast" and cat["x4"].label == "Dancing Slowly"  # both titled
    assert len({p.label for p in cat.papers.values()}) == 4
    assert [p.id for p in cat.papers.values()] == ["x1", "x2", "x3", "x4"]


def test_a_descriptive_label_is_quoted_and_never_matched_as_a_name():
    abstract = "Ride-hailing fleets idle at night. We study the dispatch of idle ride-hailing fleets across city zones."
    p = make_paper("r1", abstract)
    other = make_paper("r2", "We propose DANCE, a dancer. It dances.")
    assert p.describes and p.label == "Dispatch of idle ride-hailing fleets"
    assert display_name(p) == f"“{p.label}”"
    assert display_name(other) == "DANCE"
    cat = Catalogue([p, other])
    names = NameReader(cat)
    assert names.named(f"What does {p.label} find?") == {}
    assert names.named("what does dispatsh do?") == {}  # no one-edit match on a description
    assert names.fuzzy("dispatch of idle ride hailing fleets", 86) == []


def test_a_paper_stored_with_a_cut_label_is_labelled_again():
    from store.chroma import _paper_from

    abstract = "Large models are big and slow to serve. We study cheaper serving schedules for large models."
    old = {"title": "", "label": "Large models are big and slow to…", "aliases": "[]"}
    p = _paper_from("a", abstract, old)
    assert p.label == "Cheaper serving schedules for large models" and p.label_kind == "phrase"
    new = {**old, "label": "Kept", "label_kind": "name"}
    assert _paper_from("a", abstract, new).label == "Kept"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (r"up to 65$\times$ storage reduction", "up to 65× storage reduction"),
        (r"with cost $\tilde O(\varepsilon^{-1})$, up to", r"with cost $\tilde O(\varepsilon^{-1})$, up to"),
        (r"$\alpha$-weighted", "α-weighted"),
        (r"over 99\% sparsity", "over 99% sparsity"),
        ("costs $5 and $10", "costs $5 and $10"),  # no LaTeX command: not math
        ("by 5% on ImageNet", "by 5% on ImageNet"),  # a lone % is no comment here
    ],
)
def test_quotes_read_inline_math_as_text_and_leave_plain_text_alone(raw, shown):
    from store.labels import strip_markup

    assert strip_markup(raw) == shown


@pytest.mark.parametrize(
    ("title", "typed"),
    [("Mu$^2$SLAM: Multitask, Multilingual Speech and Language Models", "Mu2SLAM"), ("H$_2$Net: Water Flow", "H2Net")],
)
def test_a_name_written_with_math_markup_is_matched_as_typed(title, typed):
    # "summarize Mu2SLAM" was "No abstract in the collection mentions Mu2SLAM"
    p = make_paper("m1", "We present a sequence-to-sequence model of speech and text.", title=title)
    other = make_paper("m2", "We propose DANCE, a dancer. It dances.")
    names = NameReader(Catalogue([p, other]))
    assert names.named(f"what does {typed} do?") == {typed: ("m1",)}


def test_a_benchmark_written_otherwise_than_a_papers_label_is_not_that_paper():
    # "What AP does MTPD reach on COCO?" resolved COCO (the glossary's benchmark) to the paper
    # labelled CoCo and refused; typed as the label, it is the paper
    coco = make_paper("c1", "We propose CoCo, a contrastive coding method. It is fast.")
    mtpd = make_paper("m1", "We propose MTPD, a detector. MTPD reaches 42.0% AP on COCO.")
    names = NameReader(Catalogue([coco, mtpd]))
    assert names.named("What AP does MTPD reach on COCO?") == {"MTPD": ("m1",)}
    assert names.named("What does CoCo propose?") == {"CoCo": ("c1",)}


def test_a_word_the_abstract_introduces_and_the_title_writes_is_an_alias():
    # "how many GPU hours did it take to train Hyena?" bound "it" to the previous paper: the label
    # is the title, "Hyena Hierarchy: ...", and "Hyena" named no paper
    abstract = "Attention is quadratic. In this work, we propose Hyena, a subquadratic replacement for attention."
    p = make_paper("h", abstract, title="Hyena Hierarchy: Towards Larger Convolutional Language Models")
    assert p.label_kind == "title" and "Hyena" in p.aliases
    assert NameReader(Catalogue([p])).named("how many GPU hours did it take to train Hyena?") == {"Hyena": ("h",)}
    # a word the title does not write is no alias of it
    q = make_paper("q", abstract, title="Subquadratic Operators for Long Sequences")
    assert q.aliases == ()


@pytest.mark.parametrize(
    ("abstract", "names"),
    [
        ("Caching is slow. We propose a retrieval layer, termed GraphZip, that compresses graphs.", ("GraphZip",)),
        ("This paper presents a novel Sparse Mixture Router (SMR) for long inputs.", ("SMR",)),
        ("We fit the density with an estimator which we call KernelFlow. It is fast.", ("KernelFlow",)),
        ("We introduce seq2graph, a parser that outputs graphs.", ("seq2graph",)),
        ("We solve it by proposing a new sampler, dubbed ZipMC, with linear cost.", ("ZipMC",)),
        ("Our method, TinyBoost, halves the memory of boosting.", ("TinyBoost",)),
        ("We present a benchmark for tabular agents (called TabArena) with 12 tasks.", ("TabArena",)),
        ("We study drift in caches and propose Dynamic Multi-Tier Eviction (DTE) for streams.", ("DTE",)),
        # uses or compares with a name, or defines an ingredient's acronym: none is the paper's
        ("We leverage the world model to explain actions through a method called SHAP.", ()),
        ("Our method outperforms BERT and RoBERTa on GLUE.", ()),
        ("We propose a generative model for computer-aided design (CAD) programs.", ()),
        ("We propose accelerated methods, extending the Nesterov accelerated gradient (NAG) method.", ()),
        ("We introduce RLang, a domain-specific language (DSL) for agents.", ("RLang",)),
        ("We propose a novel Federated Learning (FL) framework for hospitals.", ()),
        ("Prior work improved privacy by designing a mechanism, called MinVar, that is unbiased.", ()),
        ("We introduce a CNN-based detector for roads.", ()),
    ],
)
def test_names_an_abstract_introduces_for_its_own_work(abstract, names):
    assert introduced_names(abstract) == names


def test_a_name_introduced_only_in_the_abstract_names_the_paper():
    # "Summarize data2vec" listed papers: the title's name is in lower case and a later abstract
    # writes it too; "QHNet" (", named QHNet") was a coined term found only by search
    first = make_paper("d1", "We present data2vec, a framework that uses one learning method for speech and text.",
                       title="data2vec: A General Framework for Self-supervised Learning")
    later = make_paper("d2", "We increase the training efficiency of data2vec by not encoding masked tokens.",
                       title="Efficient Self-supervised Learning with Contextualized Targets")
    net = make_paper("q1", "We propose a SE(3)-equivariant network, named QHNet, that predicts Hamiltonians.",
                     title="Efficient and Equivariant Graph Networks for Predicting Quantum Hamiltonian")
    names = NameReader(Catalogue([first, later, net]))
    assert names.named("summarize data2vec") == {"data2vec": ("d1",)}
    assert names.named("What does QHNet predict?") == {"QHNet": ("q1",)}
    # a record stored before names were read so gets them when the catalogue is built
    old = replace(make_paper("q2", net.abstract, title=net.title), aliases=())
    assert "QHNet" in Catalogue([old]).papers["q2"].aliases
