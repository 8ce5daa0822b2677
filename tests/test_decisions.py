"""Decisions made on top of the retrieval and evidence seams, on a few hand-made papers each:
refusal (:mod:`rag.route.refusal`), membership (:mod:`rag.route.membership`) and tables
(:mod:`rag.evidence.table`).

The seams are the hand-computable fakes of :mod:`tests.fakes` (shares of content words, hashed
bags of words), so every expected outcome can be worked out on paper; the comments do it. Plans
come from the real question reader over a real catalogue, so each test also shows that the typed
plan (its topic, acronyms, coined terms, detail) drives the decision. Fast: no model, no Chroma,
no LLM.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from types import SimpleNamespace

import numpy as np
import pytest

from rag.evidence.rows import NOT_STATED
from rag.evidence.selector import EvidenceSelector
from rag.evidence.table import fill_table, parse_columns
from rag.index.catalogue import Catalogue
from rag.index.embed import HashingEmbedder
from rag.llm.prose import REFUSAL
from rag.protocols import EvidenceSource
from rag.question.columns import read_columns
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from rag.route.answer import AnswerPipeline
from rag.route.membership import Membership
from rag.route.refusal import NOTHING_CLOSE, RefusalPolicy
from rag.route.table_text import cell_text
from rag.settings import RetrievalSettings
from rag.types import Citation, Evidence, PaperHit, SearchQuery
from store.papers import Paper, make_paper
from tests.fakes import FakeEvidence, FakeRetriever

SERVE = make_paper(
    "serve",
    "Large language models are costly to serve. We propose TinyServe, a scheduler that batches requests for "
    "language model inference. TinyServe reduces latency by 40% on 7B and 13B models. A limitation of TinyServe "
    "is that it cannot handle streaming requests. Code is available at https://github.com/x/tinyserve.",
)
FOLD = make_paper(
    "fold",
    "Protein folding remains hard. We introduce FoldNet, a graph network for protein structure prediction. "
    "FoldNet is released under the MIT licence.",
)
QCIRC = make_paper(
    "qc",
    "Noisy hardware limits quantum computers. We present QCirc, a compiler that maps quantum circuits onto noisy "
    "devices.",
    authors=["Ada Lovelace", "Alan Turing"],
)
AGENT = make_paper(
    "agent", "Agents must act in text worlds. We present ReActor, an agent evaluated on ALFWorld and WebShop."
)
PAPERS = [SERVE, FOLD, QCIRC, AGENT]


class Seams:
    """The real reader and refusal policy over the fakes, for one collection."""

    def __init__(self, papers: Sequence[Paper]):
        self.catalogue = Catalogue(papers)
        self.reader = Reader(self.catalogue)
        self.retriever = FakeRetriever(papers)
        self.evidence = FakeEvidence(papers)
        self.policy = RefusalPolicy(self.retriever, self.evidence, RetrievalSettings())

    def plan(self, question: str) -> AskPlan:
        plan = self.reader.read(question)
        assert isinstance(plan, AskPlan), plan
        return plan

    def topic_refusal(self, question: str) -> str:
        """The refusal of a question that names no paper, as :meth:`rag.route.answer.AnswerPipeline.answer`
        asks for it."""
        plan = self.plan(question)
        assert not plan.named_ids, plan.named_ids
        retrieval = self.retriever.search(plan.topic.search)
        return self.policy.topic(plan, plan.topic, retrieval, plan.detail)

    def named_refusal(self, question: str) -> str:
        """The refusal of a question that names papers, as the answer pipeline asks for it."""
        plan = self.plan(question)
        assert plan.named_ids, question
        papers = [self.catalogue[p] for p in plan.named_ids]
        retrieval = self.retriever.search(plan.search)
        return self.policy.metadata(plan.detail, papers, asked=True) or self.policy.absent_terms(
            plan, retrieval, papers
        )


@pytest.fixture(scope="module")
def seams() -> Seams:
    return Seams(PAPERS)


# --- refusal: topics the collection is not about -------------------------------------------------


def test_a_topic_nothing_is_close_to_is_refused_naming_the_closest_paper(seams):
    # Topic terms {quantum, chemistry, metals}. QCirc holds "quantum" only: share 1/3, below both
    # relevance_floor (0.40, the fake's dense) and coverage_floor (0.60). Its closest sentence,
    # "Noisy hardware limits quantum computers." (5 words), shares 1 of the topic's 4 words:
    # cosine 1/sqrt(20) = 0.22 < set_refusal_floor (0.50). Nothing rescues it.
    plan = seams.plan("Which papers study quantum chemistry of metals?")
    assert plan.topic.terms == ("quantum", "chemistry", "metals")
    assert seams.topic_refusal("Which papers study quantum chemistry of metals?") == (
        f"{NOTHING_CLOSE}; the closest paper is QCirc (qc): “Noisy hardware limits quantum computers.”"
    )  # with its sentence closest to the topic, so the reader can judge


def test_in_a_library_a_topic_whose_every_alternative_holds_a_word_no_abstract_uses_is_refused():
    # 1,004 papers (UNUSED_MIN_PAPERS = 1000): "earthquakes" and "aftershocks" are in no abstract;
    # "forecast" and "learning" find papers on other subjects. Each alternative ("forecast
    # earthquakes", "aftershocks with machine learning") holds a word no abstract uses.
    fillers = [make_paper(f"f{i}", f"We forecast graph signals with machine learning, study {i}.") for i in range(1000)]
    library = Seams([*PAPERS, *fillers])
    refusal = library.topic_refusal("Which papers forecast earthquakes or aftershocks with machine learning?")
    assert refusal.startswith(f"{REFUSAL} No abstract in the collection mentions earthquakes or aftershocks;")
    assert "the closest paper is" in refusal  # named with its closest sentence, so the reader can judge
    # one alternative the abstracts hold ("protein folding") keeps the topic to the usual checks
    either = library.topic_refusal("Which papers forecast earthquakes or protein folding?")
    assert "mentions" not in either
    # the same topic in the four-paper collection: a word in none of a few abstracts says little
    assert "mentions" not in Seams(PAPERS).topic_refusal(
        "Which papers forecast earthquakes or aftershocks with machine learning?"
    )


@pytest.mark.parametrize(
    "question",
    [
        "Quels articles combinent l'apprentissage fédéré et la confidentialité différentielle ?",
        "Welche Arbeiten untersuchen Wasserzeichen für Sprachmodelle?",
        "¿Qué artículos estudian la privacidad diferencial en el aprendizaje federado?",
    ],
)
def test_in_a_library_words_of_another_language_are_its_language_not_a_topic_no_abstract_holds(question):
    # nu62: "No abstract in the collection mentions welche / confidentialit" named a closest
    # paper, a false claim about the collection; the question is in another language
    from rag.route.refusal import NOT_ENGLISH

    fillers = [make_paper(f"f{i}", f"We forecast graph signals with machine learning, study {i}.") for i in range(1000)]
    library = Seams([*PAPERS, *fillers])
    assert not library.plan(question).english
    assert library.topic_refusal(question) == f"{REFUSAL} {NOT_ENGLISH}"


@pytest.mark.parametrize(
    "question", ["Which papers study grokking?", "any work on superconductors?", "papers about tokamaks"]
)
def test_a_topic_of_words_no_abstract_writes_names_no_closest_paper(question):
    # "Which papers study grokking?" named GREAD as the closest paper (nu57): the nearest paper to
    # a word no abstract writes is near to nothing asked; with words besides it, one is named
    fillers = [make_paper(f"f{i}", f"We forecast graph signals with machine learning, study {i}.") for i in range(1000)]
    library = Seams([*PAPERS, *fillers])
    refusal = library.topic_refusal(question)
    assert refusal.startswith(f"{REFUSAL} No abstract in the collection mentions "), refusal
    assert refusal.endswith(".") and "closest" not in refusal, refusal


def test_in_a_library_a_rare_name_beside_a_word_no_abstract_uses_does_not_save_a_list_topic():
    # "LLMs" is in 30 of 1,034 abstracts (rare: a name-like term), "jailbreaking" in none: a rare
    # name identifies one paper, not the papers on a topic it is only part of
    fillers = [make_paper(f"f{i}", f"We forecast graph signals with machine learning, study {i}.") for i in range(1000)]
    llms = [make_paper(f"l{i}", f"We train large language models (LLMs) to write code, study {i}.") for i in range(30)]
    library = Seams([*PAPERS, *fillers, *llms])
    refusal = library.topic_refusal("Which papers study jailbreaking LLMs?")
    assert refusal.startswith(f"{REFUSAL} No abstract in the collection mentions jailbreaking;")
    assert library.topic_refusal("Which papers train LLMs to write code?") == ""


def test_a_topic_an_abstract_states_is_answered(seams):
    # {protein, structure, prediction}: FoldNet holds all three (share 1.0 >= relevance_floor) and
    # its sentence "We introduce FoldNet, a graph network for protein structure prediction."
    # (10 words) has cosine 3/sqrt(30) = 0.55 >= set_refusal_floor.
    assert seams.topic_refusal("Which papers study protein structure prediction?") == ""


def test_a_lower_case_acronym_no_abstract_holds_is_refused_as_not_mentioned(seams):
    plan = seams.plan("which papers use rlhf?")
    assert plan.topic.acronyms == ("rlhf",)  # the reader types it as an acronym
    assert seams.topic_refusal("which papers use rlhf?") == f"{REFUSAL} No abstract in the collection mentions rlhf."


def test_a_lower_case_acronym_an_abstract_holds_is_not_refused():
    aligned = make_paper("align", "Chat models need alignment. We propose AlignKit, which tunes chat models with RLHF.")
    # document_frequency("rlhf") = 1, so the acronym is not absent; AlignKit holds the whole topic.
    assert Seams([*PAPERS, aligned]).topic_refusal("which papers use rlhf?") == ""


# --- refusal: details abstracts do not state -----------------------------------------------------


@pytest.mark.parametrize(
    ("question", "kind", "refusal"),
    [
        (
            "What licence is QCirc released under?",
            "licence",
            f"{REFUSAL} The abstracts do not state licence, nor does the record of QCirc (qc).",
        ),
        ("What licence is FoldNet released under?", "licence", ""),  # "released under the MIT licence"
        (
            "Who are the authors of TinyServe?",
            "authors",
            f"{REFUSAL} The abstracts do not state authors, nor does the record of TinyServe (serve).",
        ),
        ("Who are the authors of QCirc?", "authors", ""),  # the record holds two authors
    ],
)
def test_a_detail_abstracts_do_not_state_is_refused_unless_the_paper_states_it(seams, question, kind, refusal):
    plan = seams.plan(question)
    assert plan.detail is not None and plan.detail.kind == kind
    assert seams.named_refusal(question) == refusal


@pytest.mark.parametrize(
    ("question", "paper", "describes"),
    [
        ("Chinchilla GPU hours?", "kv", False),  # FastKV found by "GPU", a word of the detail only
        ("Gopher learning rate?", "serve", False),
        ("FastKV GPU hours?", "kv", True),
        ("what GPUs does the protein folding paper use?", "fold", True),
        ("GPU hours?", "kv", True),  # nothing but the detail: asked of the papers found
    ],
)
def test_a_detail_is_asked_of_a_paper_only_if_it_states_the_rest_of_the_question(question, paper, describes):
    # "Chinchilla GPU hours?" over the library said "nor does the record of FlexGen": FlexGen was found
    # by "GPU", a word of the detail asked, not by anything the question says of the paper (nu54)
    gpu = make_paper("kv", "Serving needs memory. We present FastKV, a cache for inference on one commodity GPU.")
    seams = Seams([*PAPERS, gpu])
    plan = seams.plan(question)
    assert plan.detail is not None, question
    assert RefusalPolicy.describes(plan.topic, plan.detail, seams.catalogue[paper]) is describes


def test_contact_details_are_refused_naming_the_authors_the_record_holds(seams):
    # "email of Hyena's first author" was answered with the author list, as if it asked who wrote it
    plan = seams.plan("Where do I find an email for the QCirc authors?")
    assert plan.detail is not None and plan.detail.kind == "contact details"
    refusal = seams.policy.metadata(plan.detail, [QCIRC], asked=True)
    assert refusal.startswith(REFUSAL) and "Ada Lovelace, Alan Turing" in refusal, refusal
    assert seams.policy.metadata(seams.plan("Who wrote QCirc?").detail, [QCIRC], asked=True) == ""  # the record answers


def test_a_question_without_a_detail_is_not_refused_as_one(seams):
    plan = seams.plan("What does QCirc compile?")
    assert plan.detail is None
    assert seams.policy.metadata(plan.detail, [QCIRC], asked=True) == ""


# --- refusal: a rare coined name keeps a weak topic answered --------------------------------------

FILLERS = [
    make_paper(f"f{i}", text)
    for i, text in enumerate(
        [
            "Speech recognition is slow. We propose FastASR, a streaming recognizer for long recordings.",
            "Image synthesis needs sharp samples. We propose SharpGen, a diffusion sampler for images.",
            "Tabular data is common in industry. We present TabFit, a boosting method for tables.",
            "Weather forecasts need fine grids. We introduce StormCast, a neural model of precipitation.",
            "Code models write buggy programs. We present FixIt, a repair tool for Python functions.",
            "Graph learning is widely studied. This paper surveys message passing methods for node classification.",
        ]
    )
]


def test_a_rare_coined_name_one_abstract_holds_keeps_a_weak_topic_answered():
    # Ten papers: RefusalPolicy.rare takes a term held by at most RARE_SHARE (0.1) of the
    # collection, and 0.1 x N < 1 below ten papers, where no term is ever rare (see the report).
    seams = Seams([*PAPERS, *FILLERS])
    assert len(seams.retriever.papers) == 10
    with_name = "Which papers train embodied household robots with spoken instructions on ALFWorld?"
    without = "Which papers train embodied household robots with spoken instructions?"
    # The topic is weak either way: ReActor holds 1 of its 7 terms (share 0.14) and no sentence
    # comes within set_lexical_floor of it; only the rare name tells the two apart.
    plan = seams.plan(with_name)
    assert "ALFWorld" in plan.rare
    ev = seams.policy.topic_evidence(plan, plan.topic, seams.retriever.search(plan.topic.search))
    assert (ev.rare, ev.stated, ev.complete) == (True, False, False)
    assert ev.best_sentence < RetrievalSettings().set_lexical_floor
    assert seams.topic_refusal(with_name) == ""
    assert seams.topic_refusal(without).startswith(REFUSAL)  # "train" is in no abstract of the fakes


# --- refusal: coined terms the named paper never mentions ---------------------------------------


def test_a_coined_term_no_abstract_holds_is_refused(seams):
    plan = seams.plan("What BLEU does TinyServe reach on WMT14?")
    assert plan.search.unmatched == ("BLEU", "WMT14")  # the reader finds them in no abstract
    # the paper it names answers with its closest clause, for the reader to judge
    assert seams.named_refusal("What BLEU does TinyServe reach on WMT14?").startswith(
        f"{REFUSAL} No abstract in the collection mentions BLEU, WMT14; closest in TinyServe: “"
    )


def test_a_coined_term_the_named_papers_abstract_lacks_is_refused(seams):
    # ALFWorld is in ReActor's abstract (so not unmatched), not in TinyServe's.
    plan = seams.plan("Does TinyServe evaluate on ALFWorld?")
    assert "ALFWorld" in plan.coined and not plan.search.unmatched
    assert seams.named_refusal("Does TinyServe evaluate on ALFWorld?") == (
        f"{REFUSAL} The abstract of TinyServe does not mention ALFWorld."
    )
    assert seams.named_refusal("Does ReActor evaluate on ALFWorld?") == ""


# --- membership --------------------------------------------------------------------------------

PROTEIN = make_paper(
    "fold",
    "Protein folding remains hard. We introduce FoldNet, a graph network for protein structure prediction.",
)
DOCKING = make_paper(
    "dock", "Drug discovery needs binding poses. We present DockGen, which predicts protein structure of ligands."
)
SERVING = make_paper(
    "serve", "Large language models are costly to serve. We propose TinyServe, a scheduler for inference."
)
MEMBERS = [PROTEIN, DOCKING, SERVING]
TOPIC = "protein structure prediction"


def _membership(papers: Sequence[Paper]) -> tuple[Membership, FakeRetriever]:
    retriever = FakeRetriever(papers)
    return Membership(retriever, FakeEvidence(papers), depth=40), retriever


def test_membership_features_are_the_shares_and_cosines_worked_out_on_paper():
    membership, retriever = _membership(MEMBERS)
    hits = retriever.search(SearchQuery(TOPIC)).hits
    assert [h.paper.id for h in hits] == ["fold", "dock", "serve"]
    # closest sentence cosine; lexical share / best; coverage; best facet's lexical (no facets: the same)
    # FoldNet: "We introduce FoldNet, a graph network for protein structure prediction." 3 of 3 and 10 words.
    # DockGen: "We present DockGen, which predicts protein structure of ligands." 2 of 3 and 9 words.
    expected = [
        [3 / math.sqrt(3 * 10), 1.0, 1.0, 1.0],
        [2 / math.sqrt(3 * 9), 2 / 3, 2 / 3, 2 / 3],
        [0.0, 0.0, 0.0, 0.0],
    ]
    assert np.allclose(membership.features(TOPIC, (), hits), expected, atol=1e-6)


def test_a_reading_of_the_topic_counts_for_the_closest_sentence_only():
    # "protein structure prediction" read with an example in place ("ligand docking"): DockGen's
    # sentence is as close to that reading as a hashed bag of words computes; BM25 and coverage
    # stay those of the topic, as the model was fit
    membership, retriever = _membership(MEMBERS)
    hits = retriever.search(SearchQuery(TOPIC)).hits
    plain = membership.features(TOPIC, (), hits)
    read = membership.features(TOPIC, (), hits, readings=("predicts protein structure of ligands",))
    assert read[1, 0] > plain[1, 0]  # DockGen's closest sentence is that reading
    assert read[0, 0] == plain[0, 0]  # FoldNet's stays the topic's
    assert np.array_equal(read[:, 1:], plain[:, 1:])


def test_a_paper_about_the_topic_is_more_probable_than_one_that_is_not():
    membership, retriever = _membership(MEMBERS)
    hits = retriever.search(SearchQuery(TOPIC)).hits
    prob = {h.paper.id: p for h, p in membership.members(TOPIC, (), hits, floor=0.0)}
    assert prob["fold"] > 0.5 > prob["serve"]
    assert prob["fold"] > prob["dock"] > prob["serve"]


def test_members_keep_those_at_or_above_the_floor_most_probable_first():
    membership, retriever = _membership(MEMBERS)
    hits = retriever.search(SearchQuery(TOPIC)).hits[::-1]  # the order given does not decide the order returned
    every = membership.members(TOPIC, (), hits, floor=0.0, many=True)
    assert [h.paper.id for h, _ in every] == ["fold", "dock", "serve"]
    probs = [p for _, p in every]
    assert probs == sorted(probs, reverse=True)
    at = probs[1]  # DockGen's probability as the floor: kept (at it), the one below dropped
    assert [h.paper.id for h, _ in membership.members(TOPIC, (), hits, floor=at, many=True)] == ["fold", "dock"]
    above = np.nextafter(at, 1.0)
    assert [h.paper.id for h, _ in membership.members(TOPIC, (), hits, floor=above, many=True)] == ["fold"]


CONTRASTIVE = make_paper(
    "graphcl",
    "Graph contrastive learning needs augmentations. We propose GraphCL, which contrasts two views of a graph.",
)
MATCHING_OTHER = make_paper(
    "persist",
    "Segmentation should keep topology. We match persistence barcodes through an induced matching of their bars.",
)
SEEDED = make_paper(
    "seeded",
    "Graph matching aligns the nodes of two graphs. We propose SeedGNN, a network trained to match graphs from seeds.",
)
DEFINED = make_paper(
    "defined",
    "Hand-designed networks are slow to find. Neural architecture search (NAS) automates it; our NAS method is fast.",
)
SEARCH_OTHER = make_paper(
    "tree", "Planning needs lookahead. We combine Monte Carlo tree search with a learned value for neural planners."
)


def test_a_paper_sharing_a_word_of_a_compound_but_never_stating_it_is_told_apart():
    # "graph matching": the segmentation paper writes "matching" (induced matching), never the
    # compound; the contrastive paper writes "graph" only; SeedGNN states it
    papers = [CONTRASTIVE, MATCHING_OTHER, SEEDED, DEFINED, SEARCH_OTHER]
    membership, retriever = _membership(papers)
    hits = retriever.search(SearchQuery("graph matching")).hits
    other = {h.paper.id for h in membership.other_sense(["graph matching"], hits, hits)}
    assert other == {"persist", "graphcl"}
    # an abbreviation the abstract defines states the compound; its head word in another phrase does not
    assert membership.states_compound("neural architecture search", DEFINED)
    assert not membership.states_compound("neural architecture search", SEARCH_OTHER)
    every = [PaperHit(p, 1.0) for p in papers]
    assert {h.paper.id for h in membership.other_sense(["neural architecture search"], every, every)} == {"tree"}


@pytest.mark.parametrize(
    ("compound", "sentence", "stated"),
    [
        # its words in two phrases, each in its own sense: a preposition, a conjunction or a comma between
        ("policy gradient", "We learn a policy and bound the gradient of its value.", False),
        ("score matching", "Each score, after the ranking step, is used for matching users.", False),
        ("knowledge graphs", "Distilled knowledge from teachers improves graphs of relations.", False),
        ("attention heads", "We pay attention to how many heads a tree needs.", False),
        # modifiers between, a hyphen, an abbreviation defined in parentheses or a part after "with": one phrase
        ("policy gradient", "We propose a natural actor-critic policy gradient method.", True),
        ("score matching", "We train it with denoising score-matching.", True),
        ("knowledge graphs", "Temporal knowledge (TK) graphs change over time.", True),
        ("mixture of experts", "We route tokens in a sparse mixture of experts layer.", True),
        ("sparse attention", "Sparse transformers with attention on a few tokens are fast.", True),
    ],
)
def test_a_compound_is_stated_only_within_one_noun_phrase(compound, sentence, stated):
    # GFlowNet training ("learned flows to generalization and matching") and a graph-algorithms paper
    # ("0-1 flow, based on reductions to bipartite matching") were listed for "flow matching"
    paper = make_paper("p", f"Models are many. {sentence}", title="A study")
    membership, _ = _membership([paper])
    assert membership.states_compound(compound, paper) is stated


@pytest.mark.parametrize(
    ("term", "title", "abstract", "sibling"),
    [
        ("membership inference attacks", "Attribute Inference Attacks on Tabular Models", "We infer attributes.", True),
        ("graph neural networks", "Quantum Neural Networks Converge Slowly", "Qubits are noisy.", True),
        ("linear bandits", "Dueling Bandits with Weak Regret", "We study duels.", True),
        # a sub-kind whose abstract writes the missing word, every word in another order, no shared head
        ("network pruning", "Fast Channel Pruning", "We prune channels of neural networks.", False),
        ("graph transformers", "Transformers Meet Directed Graphs", "Directed graphs are common.", False),
        ("generative flow networks", "GFlowNets for Design", "We design sequences.", False),
        ("pruning", "Fast Channel Pruning", "We prune channels.", False),  # one word: nothing to lack
    ],
)
def test_a_title_naming_another_kind_of_the_compounds_head_is_a_sibling(term, title, abstract, sibling):
    # "Plug & Play Attacks: ... Model Inversion Attacks" was listed for "gradient inversion attacks"
    # by the embedder's closeness of its title
    from rag.route.membership import sibling_title

    assert sibling_title(term, title, abstract) is sibling


def test_a_compound_without_a_common_modifier_is_stated_within_one_phrase():
    # "computational" is written by many abstracts, so "computational antibody design" is stated by
    # "Ab initio antibody design" (AbODE, a gold paper of library_own), not by its words in two phrases
    ab_initio = make_paper("abode", "Antibodies bind antigens. We do ab initio antibody design with ODEs.", title="A")
    apart = make_paper("apart", "Antibodies bind antigens. Antibody binding is hard; design is slow.", title="B")
    fillers = [make_paper(f"f{i}", f"Computational cost grows in case {i}.", title=f"F{i}") for i in range(3)]
    membership, _ = _membership([ab_initio, apart, *fillers])
    assert membership._without_common_modifiers("computational antibody design") == ["antibody design"]
    assert membership.states_compound("computational antibody design", ab_initio)
    assert not membership.states_compound("computational antibody design", apart)
    # ... unless the paper defines an abbreviation for the shorter term with another word in its place
    own_kind = make_paper(
        "own-kind", "Heuristic antibody design (HAD) is slow. We speed up HAD with search.", title="C"
    )
    membership, _ = _membership([ab_initio, apart, own_kind, *fillers])
    assert not membership.states_compound("computational antibody design", own_kind)


def test_a_word_inside_a_hyphenated_one_is_shared_with_the_compound():
    # "Inductive Biases and Variable Creation in Self-Attention Mechanisms" writes "attention" only
    # inside "self-attention" and was kept in "linear attention" papers as found on words of its own
    linear = make_paper("linear", "Attention is slow. We propose a linear attention with random features.", title="L")
    hyphen = make_paper(
        "hyphen", "We study how self-attention creates sparse variables.", title="Self-Attention Biases"
    )
    unrelated = make_paper("plain", "We study how kernels create sparse variables.", title="Kernels")
    membership, _ = _membership([linear, hyphen, unrelated])
    every = [PaperHit(p, 1.0) for p in (linear, hyphen, unrelated)]
    assert {h.paper.id for h in membership.other_sense(["linear attention"], every, every)} == {"hyphen"}


_AGAINST = make_paper(
    "against",
    "Recurrent models forget early inputs over long horizons. We propose a gated memory that writes each "
    "input once. Experiments on long-range tasks show that it outperforms state space models and LSTMs.",
)
_AGAINST_ALTERNATIVE = make_paper(
    "alternative",
    "Normalizing flows need invertible layers. We propose a mixture of simple samplers for variational "
    "inference that gives more reliable posteriors than black-box normalizing flows.",
)
_OWN_SSM = make_paper(
    "own-ssm",
    "Long sequences are costly for attention. We propose a diagonal state space model whose kernel is "
    "computed in closed form, and it outperforms transformers on long-range tasks.",
)
_BACKGROUND_ONLY = make_paper(
    "field-only",
    "Normalizing flows are flexible density models. In the last few years, there has been much work on "
    "them. In this work, we study invertible layers with a cheap Jacobian for density estimation.",
)
_USES_IT = make_paper(
    "uses",
    "Planning needs models of the world. Our agent combines uncertainty quantification over latent state "
    "space models with an incremental planner.",
)


_PEER = make_paper(
    "peer",
    "Federated learning shares only gradients. We recover private images from aggregated updates with "
    "a blind source separation method, and it outperforms prior gradient inversion attacks.",
)
_PEER_AVOIDED = make_paper(
    "avoided",
    "Protein energies are costly to minimize. We learn a sampler for energy minimization, avoiding "
    "previous expensive differential evolution strategies.",
)


@pytest.mark.parametrize(
    ("compound", "paper", "against"),
    [
        ("state space models", _AGAINST, True),  # only "outperforms state space models"
        # "outperforms prior gradient inversion attacks": the paper is one of them (the Cocktail Party
        # Attack was put out of "gradient inversion attack papers"); avoiding previous ones is not
        ("gradient inversion attacks", _PEER, False),
        ("differential evolution strategies", _PEER_AVOIDED, True),
        ("normalizing flows", _AGAINST_ALTERNATIVE, True),  # background and "than ... normalizing flows"
        ("state space models", _OWN_SSM, False),  # "we propose a diagonal state space model"
        ("normalizing flows", _BACKGROUND_ONLY, False),  # the field's background, its own work in other words
        ("state space models", _USES_IT, False),  # "over" says what it works on, not a contrast
    ],
)
def test_a_paper_that_writes_a_compound_only_against_its_own_work_only_mentions_it(compound, paper, against):
    # DRew "outperforms graph Transformers", Graph ViT/MLP-Mixer is "surpassing the related Graph
    # Transformer": they set their work against the topic; a paper that writes it only in its
    # background and its own work in its own words (Deep Regression Unlearning) is about it
    papers = [_AGAINST, _AGAINST_ALTERNATIVE, _OWN_SSM, _BACKGROUND_ONLY, _USES_IT, _PEER, _PEER_AVOIDED]
    membership, _ = _membership(papers)
    assert membership.set_against([compound], paper) is against


def test_a_title_that_writes_the_compound_keeps_the_paper_whatever_its_sentences_contrast():
    titled = make_paper(
        "titled",
        "Graph Transformer (GT) recently has emerged as a new paradigm, outperforming message passing. "
        "We show that message passing with a virtual node outperforms graph transformers on long-range tasks.",
        title="On the Connection Between MPNN and Graph Transformer",
    )
    membership, _ = _membership([titled])
    assert not membership.set_against(["graph transformers"], titled)


def test_a_member_is_quoted_with_a_sentence_that_writes_the_compound_as_its_own():
    from rag.question.asks import read_ask

    paper = make_paper(
        "inverse",
        "Graph transformers recently emerged as a new paradigm of graph learning. In this paper, we study "
        "how message passing with a virtual node approximates the self-attention of graph transformers. "
        "On the empirical side, our model is a strong baseline, outperforming graph transformers on LRGB.",
    )
    membership, _ = _membership([paper])
    ranked = FakeEvidence([paper]).score(read_ask("graph transformers"), paper)
    contrast = next(e for e in ranked if "outperforming" in e.sentence)
    assert membership.states_as_others(["graph transformers"], paper, contrast)
    assert membership.own_quote(["graph transformers"], paper, ranked).sentence.startswith("In this paper, we study")


@pytest.mark.parametrize("compound", ["LLM agents", "llm agents", "GNN explainers"])
def test_a_compound_with_an_abbreviation_is_not_held_to_its_words_side_by_side(compound):
    # "agents based on Large Language Models (LLMs)", "LLMs are deployed as autonomous agents":
    # a compound with an abbreviation is written in many arrangements (the seed's CogRouter and EMPG
    # were put out of "papers on LLM agents", leaving one paper)
    written = make_paper("written", "We train LLM agents and GNN explainers with a new reward for web tasks.")
    apart = make_paper(
        "apart",
        "Large language models (LLMs) are increasingly deployed as autonomous agents. Explainers of graph "
        "neural networks (GNNs) are slow. We propose a router for agents.",
    )
    membership, _ = _membership([written, apart])
    every = [PaperHit(p, 1.0) for p in (written, apart)]
    assert membership.other_sense([compound], every, every) == []


def test_a_compound_no_candidate_states_leaves_every_paper_in_the_list():
    # "perform graph matching" is the question's wording: no abstract writes it, so the words decide
    membership, retriever = _membership([CONTRASTIVE, MATCHING_OTHER, SEEDED])
    hits = retriever.search(SearchQuery("perform graph matching")).hits
    assert membership.other_sense(["perform graph matching"], hits, hits) == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which papers study label smoothing?", ["label smoothing"]),
        ("any work on neural radiance fields?", ["neural radiance"]),  # the generic noun dropped
        # the compound the rest describes is the topic's head
        ("papers on grokking, where a network suddenly generalizes long after fitting", []),
        ("which papers study model merging, i.e. averaging the weights of fine-tuned models?", ["model merging"]),
        # alternatives may be stated in words of their own: no compound is required
        ("Which papers use graph transformers or message passing networks?", []),
        ("speech papers", []),  # a lone word names no compound
    ],
)
def test_the_compound_a_list_topic_consists_of(question, expected):
    from rag.route.answer import compounds

    plan = Reader(Catalogue([CONTRASTIVE, SEEDED])).read(question)
    assert isinstance(plan, AskPlan)
    assert compounds(plan.topic) == expected, plan.topic


def test_the_paper_that_states_each_clause_of_a_description_fits_it_better_than_a_neighbour():
    # The neighbour repeats the first clause's words in one sentence; the paper meant states the
    # first clause in part and the second one in another sentence: its mean of best cosines is higher.
    neighbour = make_paper(
        "near",
        "Scheduling jobs with precedence constraints is hard. "
        "We study scheduling jobs with precedence constraints and unknown processing times.",
    )
    meant = make_paper(
        "meant",
        "Jobs arrive online with precedence constraints. "
        "We show that learned advice gives lower and upper bounds on the competitive ratio.",
    )
    membership, retriever = _membership([neighbour, meant])
    hits = retriever.search(SearchQuery("scheduling jobs with precedence constraints")).hits
    clauses = [
        "scheduling jobs with precedence constraints and unknown processing times",
        "learned advice lower and upper bounds",
    ]
    fit = dict(zip([h.paper.id for h in hits], membership.clause_fit(clauses, hits), strict=True))
    assert fit["meant"] > fit["near"]
    whole = dict(zip([h.paper.id for h in hits], membership.features(" ".join(clauses), (), hits)[:, 0], strict=True))
    assert whole["near"] > whole["meant"]  # as a whole, the neighbour's one sentence is closer
    assert membership.clause_fit([], hits).tolist() == [0.0, 0.0]


def test_contributors_are_the_papers_that_state_the_artifact_as_their_own():
    releases = make_paper(
        "new",
        "Speech models lack multilingual data. We release a new dataset of 500 hours of multilingual speech. "
        "Baselines trained on it improve accuracy.",
    )
    evaluates = make_paper(
        "uses",
        "Speech recognition is slow. We propose FastASR, a streaming recognizer. "
        "We evaluate on the LibriSpeech dataset and improve accuracy.",
    )
    membership, retriever = _membership([evaluates, releases])
    hits = retriever.search(SearchQuery("speech dataset")).hits
    assert {h.paper.id for h in hits} == {"new", "uses"}
    assert [h.paper.id for h in membership.contributors(("dataset",), hits)] == ["new"]
    assert membership.contributors(("benchmark",), hits) == []  # nobody releases a benchmark



@pytest.mark.parametrize(
    ("sentence", "dataset"),
    [
        ("We release 95K validator-verified reasoning traces for future work.", True),
        ("We collect over 1,200 hours of transcribed speech from 40 speakers.", True),
        ("We curate 12,000 question-answer pairs across six domains.", True),
        ("We propose a streaming recognizer that processes 1,000 frames per second.", False),
        ("We evaluate on 8 public datasets and 3 tasks.", False),
    ],
)
def test_a_counted_collection_the_authors_contribute_states_a_dataset(sentence, dataset):
    # A dataset stated by its size, not its noun ("We release 95K ... traces"): a paper that
    # contributes one is a paper that introduces a dataset, never a benchmark or a metric.
    paper = make_paper("p", f"Models need more data. {sentence} Results improve.")
    membership, retriever = _membership([paper])
    hits = retriever.search(SearchQuery("data")).hits or [PaperHit(paper, 1.0)]
    found = membership.contribution(("dataset",), paper)
    assert (found is not None and not isinstance(found, str) and sentence.startswith(found.text[:20])) == dataset
    assert [h.paper.id for h in membership.contributors(("corpus",), hits)] == (["p"] if dataset else [])
    assert membership.contribution(("benchmark",), paper) is None



@pytest.mark.parametrize(
    ("sentence", "asked", "states"),
    [
        # one way to score: a question for a new measure is answered by a new metric, and back
        ("We propose Crispness, a reference-free evaluation metric for summaries.", ("measure",), True),
        ("We introduce a calibration measure that needs no labels.", ("metrics",), True),
        # an artifact noun inside a hyphenated name is part of the name ("Learning-to-Measure")
        ("We introduce Learning-to-Measure (L2M), an agent that acquires features.", ("measure",), False),
        ("We present Bench-to-Bedside, a clinical triage model.", ("benchmark",), False),
        ("We propose Crispness, a reference-free evaluation metric for summaries.", ("dataset",), False),
    ],
)
def test_an_artifact_is_stated_by_its_kind_and_not_by_a_name_that_contains_it(sentence, asked, states):
    paper = make_paper("p", f"Outputs are hard to judge. {sentence} Results improve.")
    membership, _ = _membership([paper])
    assert (membership.contribution(asked, paper) is not None) is states


@pytest.mark.parametrize(
    ("sentence", "dataset"),
    [
        ("We propose FastIndex, a method to add documents in real time (about 20-50 ms per document), without "
         "retraining the model on the entire dataset.", False),
        ("We present SpeechBank, a multilingual speech dataset for low-resource recognition.", True),
        ("To this end, we construct a large-scale instruction dataset with rich annotations.", True),
    ],
)
def test_the_artifact_a_paper_contributes_is_the_object_of_its_verb(sentence, dataset):
    # "dataset" far after "we propose ..., a method" is what the method works on, not what it contributes
    paper = make_paper("p", f"Search is slow. {sentence} Results improve.")
    membership, _ = _membership([paper])
    assert (membership.contribution(("dataset",), paper) is not None) is dataset


# --- tables --------------------------------------------------------------------------------------

SURVEY = make_paper(
    "survey", "Graph learning is widely studied. This survey reviews message passing methods for node classification."
)
TABLE_PAPERS = [SERVE, FOLD, SURVEY]
COLUMNS = "name, code, model size, limitations"


def _cite(paper: Paper, evidence: Sequence[Evidence]) -> Citation:
    return Citation(TABLE_PAPERS.index(paper) + 1, paper.id, paper.label, tuple(evidence))


def _sources() -> list[EvidenceSource]:
    return [FakeEvidence(TABLE_PAPERS), EvidenceSelector(HashingEmbedder(), TABLE_PAPERS)]


def test_columns_are_read_into_their_kinds():
    columns = read_columns(COLUMNS)
    assert [c.kind.key for c in columns] == ["name", "code", "size", "limitations"]
    assert parse_columns(COLUMNS) == columns


@pytest.mark.parametrize("evidence", _sources(), ids=["fake", "selector-hashing"])
def test_table_cells_hold_what_each_abstract_states(evidence):
    table = fill_table(evidence, TABLE_PAPERS, read_columns(COLUMNS), _cite)
    name, code, size, limits = (table.cell("serve", c) for c in ("name", "code", "model size", "limitations"))
    assert name.value == "TinyServe" and name.evidence[0].sentence.startswith("We propose TinyServe")
    assert code.value == "https://github.com/x/tinyserve"
    assert code.evidence[0].sentence.startswith("Code is available at")
    assert size.value == "7B, 13B"
    assert "7B and 13B models" in size.evidence[0].sentence
    assert limits.evidence[0].sentence.startswith("A limitation of TinyServe")
    assert table.cell("fold", "name").value == "FoldNet"
    for paper in TABLE_PAPERS:  # every quote is an exact span of its abstract
        for cell in table.cells[TABLE_PAPERS.index(paper)]:
            assert all(paper.abstract[e.start : e.end] == e.sentence for e in cell.evidence)


@pytest.mark.parametrize("evidence", _sources(), ids=["fake", "selector-hashing"])
def test_a_cell_the_abstract_states_nothing_for_is_not_stated(evidence):
    table = fill_table(evidence, TABLE_PAPERS, read_columns(COLUMNS), _cite)
    empty = [("fold", "code"), ("fold", "model size"), ("fold", "limitations"), ("survey", "name"), ("survey", "code")]
    for pid, column in empty:
        cell = table.cell(pid, column)
        assert not cell.stated and cell.value == "", (pid, column)
        assert cell_text(cell) == NOT_STATED
    assert cell_text(table.cell("serve", "code")) != NOT_STATED


def test_each_row_cites_the_sentences_its_cells_quote():
    table = fill_table(FakeEvidence(TABLE_PAPERS), TABLE_PAPERS, read_columns(COLUMNS), _cite)
    assert [c.paper_id for c in table.papers] == ["serve", "fold", "survey"]
    assert table.matched == 3
    for citation, row in zip(table.papers, table.cells, strict=True):
        assert citation.evidence == tuple(e for cell in row for e in cell.evidence)
    assert table.papers[2].evidence == ()  # the survey states nothing asked


# --- a listed paper is quoted with the sentence that states the topic as its own --------------

_FIELD_FIRST = make_paper(
    "field",
    "Robots that fold laundry are increasingly trained with reinforcement learning in simulation. "
    "However, policies trained this way transfer poorly to real cloth. "
    "We propose ClothBridge, which fine-tunes folding policies with reinforcement learning on real garments.",
)
_FIELD_ONLY = make_paper("only", "Robots that fold laundry are increasingly trained with reinforcement learning.")


def test_the_sentence_quoted_for_a_topic_is_the_papers_own_not_its_background():
    from rag.question.asks import read_ask

    selector = EvidenceSelector(HashingEmbedder(2**16), [_FIELD_FIRST, _FIELD_ONLY])
    ask = read_ask("robots folding laundry trained with reinforcement learning")
    # The opening sentence shares more words with the topic, but it states the field the paper starts from.
    assert selector.score(ask, _FIELD_FIRST)[0].sentence.startswith("Robots that fold laundry")
    assert selector.own_statement(ask, _FIELD_FIRST).sentence.startswith("We propose ClothBridge")
    # An abstract with nothing but such a sentence still has it quoted.
    assert selector.own_statement(ask, _FIELD_ONLY).sentence.startswith("Robots that fold laundry")


def test_the_field_before_the_contribution_is_not_quoted_where_no_gap_sets_it_apart():
    from rag.question.asks import read_ask

    # no sentence states a gap ("However, ..."), so the moves are unknown; the sentences before
    # "we propose" that do not speak in the first person still state the field (GRIT's
    # "Graph inductive biases are crucial for Graph Transformers, and previous works ...")
    paper = make_paper(
        "nogap",
        "Spiking neural networks process sparse events with little energy on neuromorphic chips. "
        "Spiking neural networks are trained with surrogate gradients. "
        "We propose a smoothing schedule that trains spiking neural networks from a prototype network.",
    )
    selector = EvidenceSelector(HashingEmbedder(2**16), [paper])
    assert set(selector.moves(paper).values()) == {"unknown"}
    ask = read_ask("spiking neural networks")
    assert selector.own_statement(ask, paper).sentence.startswith("We propose a smoothing schedule")
    assert len(selector.preamble(paper)) == 2


def test_without_a_cue_of_proposing_the_authors_first_sentence_opens_their_work():
    from rag.evidence.roles import preamble

    # "Inspired by ..., we model different states of SNN weights" proposes nothing in so many words
    sentences = [
        "Spiking neural networks are considered a promising alternative to artificial networks.",
        "Recently, deep spiking networks have improved through new training strategies.",
        "Inspired by dendritic spines, we model different states of the weights to prune them.",
        "Spiking networks pruned this way keep their accuracy.",
    ]
    assert preamble(sentences) == [True, True, False, False]
    assert preamble(["Spiking networks are efficient.", "They are hard to train."]) == [False, False]
    # a sentence that names the paper itself speaks of its own work, with or without "we"
    aim = ["The main aim of this paper is a convergence analysis of PINNs.", "PINNs are popular.", "We prove it."]
    assert preamble(aim) == [False, True, False]


def test_list_heads_say_how_sure_the_answer_is():
    from rag.route.lead import about_head, mention_head

    assert about_head(3, 3, False) == "3 papers in the collection are clearly about this:"
    assert about_head(1, 1, False) == "1 paper in the collection is clearly about this:"
    assert about_head(12, 15, True) == (
        "At least 15 papers in the collection are clearly about this; the 12 most relevant are listed:"
    )
    assert mention_head(2) == "Also mention it, without being clearly about it (2):"
    assert mention_head(1) == "Also mentions it, without being clearly about it (1):"


def test_an_amount_beside_the_papers_own_name_states_no_measure():
    # "how many tasks": "3-17%" stands beside "Mixup-T5", a word of the paper's own title, not
    # beside a word of the measure; beside "tasks" it would state it
    collection = make_paper(
        "mix",
        "We release the Mixup Collection of tasks. Mixup-T5 beats prior models by 3-17% in every setting.",
        title="The Mixup Collection",
    )
    counted = make_paper("cnt", "We release Tally, a suite of 1,836 tasks for instruction tuning.", title="Tally")
    seams = Seams([*PAPERS, collection, counted])
    plan = seams.plan("The Mixup Collection: exactly how many tasks does Mixup-T5 see?")
    assert not seams.policy.states_near(plan.ask, collection)
    plan = seams.plan("Tally: exactly how many instruction tasks?")
    assert seams.policy.states_near(plan.ask, counted)


def test_each_clause_of_a_description_brings_the_sentence_closest_to_it():
    paper = make_paper(
        "ads",
        "Safe reinforcement learning has progressed. Policies must respond to safety budgets set at deployment "
        "time. We propose BudgetRL for offline data. Experiments on a large advertising system show gains.",
    )
    selector = EvidenceSelector(HashingEmbedder(2**16), [paper])
    clauses = ["budgets set at deployment time", "evaluated on a large advertising system"]
    got = selector.closest(paper, clauses)
    assert [e.sentence for e in got] == [
        "Policies must respond to safety budgets set at deployment time.",
        "Experiments on a large advertising system show gains.",
    ]  # in abstract order, each once
    assert [e.start for e in selector.closest(paper, [clauses[0], clauses[0]])] == [got[0].start]
    assert selector.closest(paper, []) == []


def test_a_clause_of_a_description_is_quoted_from_the_papers_own_claim_before_the_fields():
    # both sentences share the clause's words; the field's sentence shares one more, yet the
    # paper's own claim ("we show ... can be seen as ...") is the one that states what it recasts
    paper = make_paper(
        "rank",
        "Solver training for combinatorial outputs feeds predicted costs to a combinatorial solver. "
        "We show that solver training can be seen as ranking feasible outputs in the right order. "
        "We derive losses over pairs of outputs.",
    )
    selector = EvidenceSelector(HashingEmbedder(2**16), [paper])
    own = selector.own_work(paper)
    sents = selector.sentences(paper)[0]
    assert [s.start in own for s in sents] == [False, True, True]
    clause = "recasting solver training for combinatorial outputs as ranking feasible outputs"
    field, claim = sents[0], sents[1]
    sims = selector.similarity([clause], [field.text, claim.text])[0]
    assert sims[0] > sims[1] > selector.settings.field_clause_weight * sims[0]  # the field is closer by cosine
    assert [e.sentence for e in selector.closest(paper, [clause])] == [claim.text]


def test_a_dataset_or_toolkit_contributed_for_evaluation_is_a_benchmark():
    evaluation = make_paper(
        "gui",
        "Mobile agents are hard to compare. To facilitate rigorous evaluation, we introduce MobTrack, a dataset "
        "of 9000 tasks, along with MobKit, an open-source toolkit for unified benchmarking of agents.",
    )
    training = make_paper(
        "new",
        "Speech models lack multilingual data. We release a new dataset of 500 hours of multilingual speech. "
        "Baselines trained on it improve accuracy.",
    )
    membership, retriever = _membership([evaluation, training])
    hits = retriever.search(SearchQuery("dataset")).hits
    for asked in (("benchmark",), ("benchmarks",), ("testbed",)):
        assert [h.paper.id for h in membership.contributors(asked, hits)] == ["gui"], asked
    assert {h.paper.id for h in membership.contributors(("dataset",), hits)} == {"gui", "new"}


# --- an open number: one paper or several, as the evidence says ----------------------------------


def test_an_open_question_lists_beside_its_best_paper_a_probable_one_that_states_the_topic(tmp_path):
    from rag.route.answer import AnswerPipeline
    from rag.settings import Settings

    papers = [
        make_paper("fit", "We fit Hawkes processes to event data with a fast discretized solver."),
        make_paper("net", "A multivariate Hawkes model captures event data in continuous-time networks."),
        make_paper("count", "Poisson regression models count data."),
        make_paper("cascade", "Hawkes processes describe event data of social cascades."),
    ]
    seams = Seams(papers)
    pipe = AnswerPipeline(seams.retriever, seams.evidence, None, Settings(home=tmp_path), reader=seams.reader)
    topic = seams.plan("What work models event data with Hawkes processes?").topic
    assert topic.number == "open" and topic.text == "models event data with Hawkes processes"
    hits = {h.paper.id: h for h in seams.retriever.search(topic.search).hits}
    rs = pipe.settings.retrieval
    # the topic's terms: models, event, data, hawkes, processes. "net" states event, data, hawkes
    # (3/5 = 0.6, at least description_peer_coverage 0.5) at probability 0.5 (at least
    # description_peer_membership 0.35); "count" states data and models (2/5) however probable;
    # "cascade" states four of five but is below the probability floor.
    assert rs.description_peer_coverage == 0.5 and rs.description_peer_membership == 0.35
    scored = [(hits["fit"], 0.9), (hits["net"], 0.5), (hits["count"], 0.6), (hits["cascade"], 0.2)]
    assert [h.paper.id for h in pipe._peers(topic, scored, [hits["fit"]])] == ["net"]
    # a paper already in the answer is not repeated
    assert pipe._peers(topic, scored, [hits["fit"], hits["net"]]) == []


LONG = "the paper recasting solver training as ranking solutions, with losses over pairs, tested on knapsacks"


@pytest.mark.parametrize(
    ("description", "fits", "answered"),
    [
        (LONG, {"own": 0.50, "near": 0.44, "far": 0.30}, ["own"]),  # the neighbour states the clauses worse
        (LONG, {"own": 0.50, "near": 0.49, "far": 0.30}, ["own", "near"]),  # as well: a reading as close, listed
        # two clauses: a subject and its alternatives, each of which another paper may state
        (
            "training for combinatorial solvers, ranking feasible solutions or smoothing solver costs",
            {"own": 0.50, "near": 0.40, "far": 0.30},
            ["own", "near", "far"],
        ),
    ],
)
def test_a_description_in_clauses_is_answered_alone_unless_another_paper_states_them_as_well(
    monkeypatch, description, fits, answered
):
    papers = [
        make_paper("own", "We cast solver training as ranking feasible solutions. We derive pairwise losses."),
        make_paper("near", "We smooth combinatorial solvers with noise to train predictors end to end."),
        make_paper("far", "We study regret bounds of bandits."),
    ]
    # all probable enough to join a description's answer (retrieval.description_membership)
    probable = {"near": 0.9, "own": 0.85, "far": 0.8}
    assert _described_answer(monkeypatch, papers, description, probable, fits) == answered


def _described_answer(
    monkeypatch, papers, description: str, probable: dict, fits: dict, stated: dict | None = None
) -> list[str]:
    """The ids ``found`` chooses for ``description`` over ``papers`` (fake retrieval), with the
    membership probabilities ``probable``, clause fits ``fits`` and clause statements ``stated``
    (paper id -> value; none given: every paper states the clauses alike) given."""
    from rag.route.answer import AnswerPipeline
    from rag.settings import Settings

    retriever = FakeRetriever(papers)
    reader = Reader(Catalogue(papers))
    pipe = AnswerPipeline(retriever, FakeEvidence(papers), None, Settings(), reader=reader)  # type: ignore[arg-type]
    plan = reader.read(description)
    assert isinstance(plan, AskPlan) and plan.topic.number != "many"
    retrieval = retriever.search(plan.topic.search)
    by_id = {h.paper.id: h for h in retrieval.hits}
    scored = [(by_id[p], v) for p, v in probable.items()]
    monkeypatch.setattr(pipe.membership, "members", lambda *_a, **_k: scored)
    monkeypatch.setattr(
        pipe.membership, "clause_fit", lambda clauses, hits: np.array([fits[h.paper.id] for h in hits])
    )
    monkeypatch.setattr(
        pipe, "_clause_statement", lambda clauses, hits: np.array([(stated or {}).get(h.paper.id, 0.0) for h in hits])
    )
    return [h.paper.id for h in pipe.found(plan.topic, retrieval).chosen]


ORBITS = [
    make_paper("near", "We learn orbital dynamics with neural networks. Our model predicts planetary orbits."),
    make_paper("meant", "We fit orbits from sparse telescope images. A symplectic integrator keeps energy exact."),
    make_paper("faint", "We classify galaxies from survey images."),
    make_paper("far", "We study regret bounds of bandits."),
]


@pytest.mark.parametrize(
    ("stated", "answered"),
    [
        # the less probable paper states every clause clearly better (retrieval.description_statement_lead):
        # it is answered alone, the probable neighbour that states the subject only is not listed
        ({"near": 0.50, "meant": 0.70, "faint": 0.30, "far": 0.20}, ["meant"]),
        # ahead by less than the lead: the paper the clause fit chose is answered
        ({"near": 0.50, "meant": 0.53, "faint": 0.30, "far": 0.20}, ["near"]),
        # a candidate too improbable to be weighed (retrieval.description_statement_floor) replaces nothing
        ({"near": 0.50, "meant": 0.45, "faint": 0.30, "far": 0.90}, ["near"]),
        # two that state the clauses about as well: both named, the one stating them best first
        ({"near": 0.50, "meant": 0.70, "faint": 0.60, "far": 0.20}, ["meant", "faint"]),
    ],
)
def test_a_description_is_answered_by_the_candidate_whose_abstract_states_its_clauses_clearly_best(
    monkeypatch, stated, answered
):
    description = (
        "I recall work fitting orbits from a handful of telescope frames, with an integrator that conserves "
        "energy, evaluated on asteroid surveys"
    )
    probable = {"near": 0.9, "meant": 0.75, "faint": 0.72, "far": 0.01}
    fits = {"near": 0.6, "meant": 0.5, "faint": 0.3, "far": 0.2}
    # the others, probable enough to join (retrieval.description_membership), fit the clauses under
    # the share of the answered paper's fit (retrieval.description_fit_share): they join only a paper
    # chosen for its statement when they state the clauses within the lead of it
    assert _described_answer(monkeypatch, ORBITS, description, probable, fits, stated) == answered


def test_a_question_asked_of_a_thing_is_no_description_to_answer_by_its_clauses(monkeypatch):
    # the same clauses asked of something the message names, not describing the paper it is after
    # (Topic.describing): the candidate stating them best does not replace the one chosen
    stated = {"near": 0.50, "meant": 0.90, "faint": 0.30, "far": 0.20}
    probable = {"near": 0.9, "meant": 0.75, "faint": 0.72, "far": 0.01}
    fits = {"near": 0.6, "meant": 0.5, "faint": 0.3, "far": 0.2}
    asked = "does the integrator conserve energy, with orbits fitted from telescope frames, on asteroid surveys?"
    assert _described_answer(monkeypatch, ORBITS, asked, probable, fits, stated)[:1] == ["near"]


VN = "the paper that shows message passing with a virtual node can approximate graph transformers"


@pytest.mark.parametrize(
    ("description", "fits", "answered"),
    [
        # the neighbour's sentences sit closer to the clauses, but it never writes "virtual" nor
        # "approximate": the more probable paper, which writes them, is the one described (nu59:
        # DRew for "Which paper connects MPNNs with virtual nodes to graph transformers?")
        (VN, {"vn": 0.50, "rewire": 0.60}, ["vn"]),
        (VN, {"vn": 0.60, "rewire": 0.50}, ["vn"]),
        # a description in other words than either abstract's: the words decide nothing, the clauses
        # do (the other paper, as probable, follows as a close reading)
        ("the work relaying messages through a phantom hub, which emulates graph attention layers",
         {"vn": 0.50, "rewire": 0.60}, ["rewire", "vn"]),
    ],
)
def test_a_description_in_clauses_is_not_given_to_a_neighbour_that_writes_less_of_it(
    monkeypatch, description, fits, answered
):
    papers = [
        make_paper("vn", "We show message passing with a virtual node can approximate graph transformers."),
        make_paper("rewire", "We rewire message passing on graphs and outperform graph transformers on long tasks."),
    ]
    assert _described_answer(monkeypatch, papers, description, {"vn": 0.9, "rewire": 0.5}, fits) == answered


SINGLE = [
    make_paper("fusion", "We propose a method that trains a diffusion model on a single image or video."),
    make_paper("ddm", "We propose a framework that trains a diffusion model on a single image. It makes samples."),
    make_paper("simple", "We propose a schedule that trains a diffusion model on high resolution image data."),
    make_paper("bandit", "We propose regret bounds of bandits with delayed feedback."),
]
PROBABLE = {"fusion": 0.93, "simple": 0.65, "ddm": 0.6, "bandit": 0.5}  # none joins as listed (0.7)


@pytest.mark.parametrize(
    ("question", "probable", "also"),
    [
        # "ddm" states every word of the description, and its clause in a sentence: named beside
        ("What does the paper that trains a diffusion model on a single image propose?", PROBABLE, ["ddm"]),
        # ... in other frames
        ("I remember a paper that trains a diffusion model on a single image", PROBABLE, ["ddm"]),
        ("Which method does the paper that trains a diffusion model on a single image propose?", PROBABLE, ["ddm"]),
        # far less probable than the paper answered (under description_clause_floor x 0.93)
        ("What does the paper that trains a diffusion model on a single image propose?",
         {**PROBABLE, "ddm": 0.3}, []),
        # "simple" is as probable, but never states "single"; "bandit" states no clause
        ("What does the paper that trains a diffusion model on a single image propose?",
         {"fusion": 0.93, "simple": 0.8, "bandit": 0.7, "ddm": 0.1}, []),
    ],
)
def test_a_description_another_paper_states_as_well_names_it_beside_the_answer(
    tmp_path, monkeypatch, question, probable, also
):
    from rag.route.answer import AnswerPipeline
    from rag.settings import Settings

    seams = Seams(SINGLE)
    pipe = AnswerPipeline(seams.retriever, seams.evidence, None, Settings(home=tmp_path), reader=seams.reader)
    plan = seams.plan(question)
    assert plan.topic.number != "many"
    retrieval = seams.retriever.search(plan.topic.search)
    hits = {h.paper.id: h for h in retrieval.hits}
    scored = sorted(((hits[p], v) for p, v in probable.items()), key=lambda x: -x[1])
    monkeypatch.setattr(pipe.membership, "members", lambda *_a, **_k: scored)
    monkeypatch.setattr(pipe, "_described", lambda *_a: None)
    found = pipe.found(plan.topic, retrieval)
    assert [h.paper.id for h in found.chosen][:1] == ["fusion"]
    assert [h.paper.id for h, _ in found.also] == also
    # each named with a sentence of its own
    assert all(x in h.paper.abstract for h, x in found.also)


def test_peers_are_listed_only_when_the_frame_names_the_papers_asked_for(tmp_path, monkeypatch):
    from rag.route.answer import AnswerPipeline
    from rag.settings import Settings

    papers = [
        make_paper("fit", "We fit Hawkes processes to event data with a fast discretized solver."),
        make_paper("net", "A multivariate Hawkes model captures event data in continuous-time networks."),
    ]
    seams = Seams(papers)
    pipe = AnswerPipeline(seams.retriever, seams.evidence, None, Settings(home=tmp_path), reader=seams.reader)
    plan = seams.plan("What work models event data with Hawkes processes?")
    assert plan.seeks and plan.topic.number == "open"
    retrieval = seams.retriever.search(plan.topic.search)
    hits = {h.paper.id: h for h in retrieval.hits}
    # "net" is probable (0.5) and states three of the five terms: a peer of "fit"
    monkeypatch.setattr(pipe.membership, "members", lambda *_a, **_k: [(hits["fit"], 0.9), (hits["net"], 0.5)])
    monkeypatch.setattr(pipe, "_described", lambda *_a: None)  # the first paper is the most probable
    assert [h.paper.id for h in pipe.found(plan.topic, retrieval, peers=True).chosen] == ["fit", "net"]
    # asked about something of one paper ("What is the main finding of ..."): the most probable alone
    assert [h.paper.id for h in pipe.found(plan.topic, retrieval, peers=False).chosen] == ["fit"]


def test_a_paper_holding_the_words_of_a_part_apart_states_another_subject():
    # "Bayesian optimization in the federated setting": pFedBayes-like writes "Bayesian" (inference) and
    # "optimization" (of each client) apart, and "federated setting"; the other paper writes the phrase
    bayes_other = make_paper(
        "pfed",
        "Clients differ in the federated setting. We infer personalized models by Bayesian variational "
        "inference. Each client then runs an optimization of its weights.",
    )
    written = make_paper("fedbo", "Tuning is costly. We run Bayesian optimization in the federated setting.")
    # a paper lacking a word of the part ("privacy") may state it in other words: the parts check judges it
    other_words = make_paper("dp", "We give differentially private training in the federated setting.")
    membership, _ = _membership([bayes_other, written, other_words])
    every = [PaperHit(p, 1.0) for p in (bayes_other, written, other_words)]
    alts = [("Bayesian optimization", "federated setting")]
    assert [h.paper.id for h in membership.parts_apart(alts, every, every)] == ["pfed"]
    assert membership.parts_apart([("differential privacy", "federated setting")], every, every) == []
    # in an alternative the paper states by its own phrase it answers ("variational inference")
    assert membership.parts_apart([*alts, ("variational inference", "federated setting")], every, every) == []


def test_a_part_written_in_the_other_order_as_a_verb_and_its_object_is_stated():
    # "Generating 3D Molecules" and "the generation of molecules" state "molecule generation", and
    # "Molecule generation" states "generate molecules" (the library dropped "Generating 3D Molecules for
    # Target Protein Binding" and EDM from "equivariant networks to generate molecules", refusing it);
    # the words in the other order in the same forms, or the second modifying another word, do not
    side = make_paper("side", "We study molecule generation with graphs and generate molecules fast.")
    verb = make_paper("verb", "Pockets bind drugs. We train a network generating 3D molecules for protein pockets.")
    of = make_paper("of", "Chemistry is vast. The generation of molecules is hard, so we use flows.")
    noun = make_paper("noun", "Chemistry is vast. Molecule generation in 3D is what our flows do.")
    other = make_paper(
        "other", "Molecule properties vary across many public datasets. We study the generation of text for chemists."
    )
    modifier = make_paper("modifier", "Chemistry is vast. We study the generation of molecule graphs.")
    papers = [side, verb, of, noun, other, modifier]
    membership, _ = _membership(papers)
    every = [PaperHit(p, 1.0) for p in papers]
    assert [h.paper.id for h in membership.parts_apart([("molecule generation",)], every, every)] == [
        "other", "modifier"
    ]
    got = membership.parts_apart([("generate molecules",)], every, every)
    assert "noun" not in [h.paper.id for h in got] and "other" in [h.paper.id for h in got]


def test_a_part_headed_by_the_fields_word_is_not_held_apart_in_another_sense():
    # "equivariant networks" / "contrastive learning": an abstract writes the modifier before what it
    # builds ("E(3) equivariant variational autoencoder") and the field's word elsewhere, in the same
    # sense (the library dropped 3DLinker and GeoLDM from "equivariant models for molecule generation");
    # a compound of two words of their own ("Bayesian optimization") still is held apart
    written = make_paper("side", "Symmetry helps. We build equivariant networks for point clouds.")
    vae = make_paper(
        "vae", "Linkers join fragments. We propose an E(3) equivariant variational autoencoder. Its decoder "
        "networks are small and fast to train on many public benchmarks."
    )
    ssl = make_paper("ssl", "Labels are scarce. A framework based on contrastive estimation; self-supervised learning.")
    other = make_paper(
        "other", "Clients differ. We infer models by Bayesian variational inference. Each client then runs an "
        "optimization of its weights."
    )
    bo = make_paper("bo", "Tuning is costly. We run Bayesian optimization with contrastive learning.")
    papers = [written, vae, ssl, other, bo]
    membership, _ = _membership(papers)
    every = [PaperHit(p, 1.0) for p in papers]
    for part in ("equivariant networks", "equivariant models", "contrastive learning"):
        assert membership.parts_apart([(part,)], every, every) == [], part
    assert [h.paper.id for h in membership.parts_apart([("Bayesian optimization",)], every, every)] == ["other"]


def test_a_part_written_side_by_side_in_another_form_of_its_words_is_stated():
    # "Differential privacy" states "differentially private" (the stems keep "privacy" and "private"
    # apart); "differential equations" and data kept "private" hold the words in other senses
    multilingual = make_paper(
        "multilingual",
        "Differential privacy protects the speakers. Our language models should be private and fair.",
    )
    other = make_paper(
        "other", "Differential equations model the flow. Our language models keep each user's data private."
    )
    written = make_paper("dp", "We train differentially private language models on user data.")
    papers = [multilingual, other, written]
    membership, _ = _membership(papers)
    every = [PaperHit(p, 1.0) for p in papers]
    got = membership.parts_apart([("differentially private", "language models")], every, every)
    assert [h.paper.id for h in got] == ["other"]


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("which papers use SFT", ["supervised fine-tuning"]),  # the abbreviation alone: its long form
        ("Which papers use RL?", ["reinforcement learning"]),
        ("which papers use supervised fine-tuning", ["supervised fine-tuning"]),  # the compound itself
        ("Which papers propose graph transformers?", ["graph transformers"]),
        ("which papers are about tts?", []),  # no long form of more than one word in the glossary
        ("Which papers use RL to improve LLM reasoning?", []),  # an abbreviation beside other words
    ],
)
def test_a_paper_is_held_to_the_same_terms_whether_the_topic_is_abbreviated_or_written_out(question, terms):
    # "which papers use SFT" and "which papers use supervised fine-tuning" put out the same papers
    # (PrefixRL: 2x faster "than the strongest baseline (SFT on off-policy data then RL)")
    from rag.question.reader import read_question
    from rag.route.answer import against_terms

    assert against_terms(read_question(question).topic) == terms


@pytest.mark.parametrize(
    ("compound", "sentence", "stated"),
    [
        # head first, joined by a preposition or as the object of its "-ing" form; acronyms written out
        ("graph neural network oversmoothing", "We bound the over-smoothing of deep graph neural networks.", True),
        ("out-of-distribution detection", "We improve the detection of out-of-distribution inputs.", True),
        ("large language model pruning", "We study pruning large language models without retraining.", True),
        ("diffusion model policy optimization", "We run policy optimization for diffusion models.", True),
        ("stability edge", "Training sits at the edge of stability.", True),
        # the same words in two phrases, in another sense, or turned round with the preposition kept
        ("split learning", "We learn the split points of trees with data splits.", False),
        ("split learning", "Learning with data splits is common.", False),
        ("edge of stability", "We study the stability of the edge weights.", False),
        ("Bayesian optimization", "We speed up the optimization of Bayesian neural networks.", False),
        # the first word said to be a kind of the second ("Which papers study mixup augmentation?" was
        # refused though "Mixup is a data augmentation method ..." opens an abstract, nu62)
        ("cutout augmentation", "Cutout is a simple image augmentation technique that masks patches.", True),
        ("cutout augmentation", "We compare image augmentations such as cutout and rotation.", True),
        ("lasso regression", "We study the lasso, a sparse linear regression estimator.", True),
        ("cutout augmentation", "Cutout is a method. Augmentation of graphs is hard.", False),  # two sentences
        ("split learning", "Trees choose split points, a learning step of the model.", False),  # not after the word
    ],
)
def test_a_compound_is_stated_in_either_order_within_one_noun_phrase(compound, sentence, stated):
    from rag.route.membership import states_any_order

    assert states_any_order(compound, sentence) is stated


def test_a_list_on_a_compound_no_abstract_states_in_any_order_is_refused_naming_the_closest_paper(monkeypatch):
    # "split" and "learning" are each in some abstract (tree split rules, learning with data
    # splits), never together in one phrase, in either order: the papers its words find use them
    # in other senses. "over-smoothing" is written head first ("over-smoothing in graph neural
    # networks"), so the list on "GNN oversmoothing" is no refusal of this kind.
    tree = make_paper("tree", "Trees choose splits greedily. We learn the split points of decision trees.", title="T")
    data = make_paper("data", "Learning with data splits is common. We study held-out splits.", title="D")
    smooth = make_paper("smooth", "We study over-smoothing in graph neural networks and learning.", title="S")
    seams = Seams([tree, data, smooth, *PAPERS])
    monkeypatch.setattr("rag.route.refusal.UNUSED_MIN_PAPERS", 5)  # a library of 7 papers, not 1,000 fillers
    asked = ("Which papers use split learning?", "split learning papers?", "How many papers are on split learning?")
    for question in asked:
        refusal = seams.topic_refusal(question)
        assert refusal.startswith(
            f"{REFUSAL} No abstract in the collection writes “split” and “learning” together as one phrase"
        ), (question, refusal)
        assert "the closest paper is" in refusal
    for question in ("Which papers study graph neural network oversmoothing?", "oversmoothing in GNNs papers?"):
        assert "together as one phrase" not in seams.topic_refusal(question), question
    # in fewer abstracts than a library's (UNUSED_MIN_PAPERS) a compound none writes says little
    monkeypatch.setattr("rag.route.refusal.UNUSED_MIN_PAPERS", 8)
    assert "together as one phrase" not in seams.topic_refusal("Which papers use split learning?")


@pytest.mark.parametrize(
    ("topic", "compound"),
    [
        ("split learning", "split learning"),
        ("the edge of stability", "edge of stability"),
        ("GNN oversmoothing", "GNN oversmoothing"),
        ("learning to split trees", ""),  # a description, not a subject's name
        ("models with data splits", ""),
        ("pruning", ""),  # one word
        ("ResNet-50 pruning", ""),  # a digit: a version, the names check's
    ],
)
def test_a_topic_is_one_bare_compound_when_only_a_preposition_joins_its_words(topic, compound):
    from rag.question.parts import compound_topic

    assert compound_topic(topic) == compound


def test_a_listed_paper_on_a_coined_name_is_quoted_where_its_own_work_writes_the_name():
    # "Which papers use data2vec?" quoted data2vec's paper with "Experiments on the major benchmarks ...",
    # which does not write the name, where "we present data2vec, a framework ..." does
    user = make_paper(
        "user",
        "Mixing augmentations such as KernelMix are popular. We extend KernelMix to graphs with a spectral prior. "
        "Experiments on node classification show gains of 3 points.",
    )
    background_only = make_paper(
        "bg", "Mixing augmentations such as KernelMix are popular. We propose GraphMix for node classification."
    )
    pipe = SimpleNamespace(evidence=FakeEvidence([user, background_only]))
    found = AnswerPipeline._writing(pipe, "KernelMix", user)  # type: ignore[arg-type]
    assert found is not None and found.text.startswith("We extend KernelMix")
    assert AnswerPipeline._writing(pipe, "kernelmix", background_only) is None  # the field's sentence is not quoted


def test_which_papers_release_code_is_judged_on_every_paper_not_only_those_retrieved():
    # "Which papers release their code?" missed Graph-R1: "Our software and data are publicly
    # available" shares no word with the question, so retrieval never brought it to be judged
    from rag.settings import Settings
    from rag.types import Retrieval

    papers = [
        make_paper("linked", "We propose a router for experts. Code is available at https://github.com/example/route."),
        make_paper("unlinked", "We train a graph retrieval agent with reinforcement learning. Our software and "
                   "data are publicly available."),
        make_paper("silent", "We prove regret bounds for linear bandits with delayed feedback."),
    ]
    retriever = FakeRetriever(papers)
    retriever.catalogue = Catalogue(papers)  # type: ignore[attr-defined]
    reader = Reader(retriever.catalogue)  # type: ignore[attr-defined]
    pipe = AnswerPipeline(retriever, FakeEvidence(papers), None, Settings(), reader=reader)  # type: ignore[arg-type]
    plan = reader.read("which works share their code?")
    assert isinstance(plan, AskPlan) and plan.topic.about_links
    only_linked = Retrieval([h for h in retriever.search(plan.topic.search).hits if h.paper.id == "linked"], {}, [])
    found = pipe.found(plan.topic, pipe._with_code(only_linked, None))
    assert [h.paper.id for h in found.chosen] == ["linked", "unlinked"]
    # a filter still holds: a paper outside it is not added
    assert [h.paper.id for h in pipe._with_code(only_linked, {"linked", "silent"}).hits] == ["linked"]


# --- a topic written as a phrase is gathered whole (AnswerPipeline.gathered) ----------------------

_TROPICAL = [
    make_paper(f"trop{i}", f"Tropical geometry meets {w}. We study tropical geometry of {w} networks.")
    for i, w in enumerate(["ReLU", "piecewise", "maxout", "pooling", "linear", "deep", "shallow"])
]
_APART = make_paper("apart", "Geometry of tropical forests. We map forest cover with satellites.")
_TITLED = make_paper(
    "titled", "We bound the number of linear regions of a network.", title="Tropical Geometry of Linear Regions"
)


def _gathering(papers: Sequence[Paper], candidates: int, most: int) -> tuple[AnswerPipeline, Reader, FakeRetriever]:
    from rag.settings import Settings

    retriever = FakeRetriever(papers)
    reader = Reader(Catalogue(papers))
    settings = Settings()
    rs = settings.retrieval.model_copy(update={"candidates": candidates, "gather_written": most})
    settings = settings.model_copy(update={"retrieval": rs})
    return AnswerPipeline(retriever, FakeEvidence(papers), None, settings, reader=reader), reader, retriever  # type: ignore[arg-type]


@pytest.mark.parametrize("question", ["Which papers study tropical geometry?", "any work on tropical geometry"])
def test_every_paper_writing_the_topics_phrase_beyond_the_candidates_is_gathered(question):
    # the fake ranks every paper; the first 5 are the candidates: the other writers of "tropical
    # geometry" (in the title too) are gathered, not the paper that writes the words apart
    papers = [*_TROPICAL, _APART, _TITLED]
    pipe, reader, retriever = _gathering(papers, candidates=5, most=20)
    plan = reader.read(question)
    assert isinstance(plan, AskPlan) and plan.topic.number == "many"
    retrieval = retriever.search(plan.topic.search)
    checked = {h.paper.id for h in retrieval.hits[:5]}
    written = {h.paper.id for h in pipe.gathered(plan.topic, retrieval, None).written}
    assert written == {p.id for p in [*_TROPICAL, _TITLED]} - checked
    assert "apart" not in written and not written & checked
    # a filter bounds the gathering; a phrase more papers write than the cap is no topic to gather
    assert {h.paper.id for h in pipe.gathered(plan.topic, retrieval, {"titled"}).written} <= {"titled"}
    capped, _, _ = _gathering(papers, candidates=5, most=3)
    assert capped.gathered(plan.topic, retrieval, None).written == []


def test_gathered_papers_are_judged_beside_the_candidates_whose_gap_they_do_not_move():
    # (the fake's BM25 reads every paper at any depth: the probabilities of the hits stay as they were)
    membership, retriever = _membership([*MEMBERS, _TITLED])
    hits = retriever.search(SearchQuery(TOPIC)).hits
    alone = dict((h.paper.id, p) for h, p in membership.members(TOPIC, (), hits[:2], floor=0.0, many=True))
    both = dict(
        (h.paper.id, p) for h, p in membership.members(TOPIC, (), hits[:2], floor=0.0, many=True, written=hits[2:])
    )
    assert set(both) == {h.paper.id for h in hits}
    assert all(math.isclose(both[k], v) for k, v in alone.items())
