"""A topic's term, named by a paper's title, and a description of it in other words.

A question that names a term and then describes it ("continual learning - methods that keep old
skills while learning new tasks") is answered by the papers about the term: the description is an
alternative wording, not a further part (:data:`rag.question.phrasing.RESTATING_DASH`,
:func:`rag.question.parts.described_head`), the term is searched as abstracts name it ("regime"
dropped: :func:`rag.question.phrasing.without_generic`), and a paper whose title names the term
belongs to the answer however far its sentences are from the description
(:meth:`rag.route.membership.Membership.titled`). Phrasings here are not in the eval files.
"""

from __future__ import annotations

import pytest

from rag.index.catalogue import Catalogue
from rag.question.parts import described_head
from rag.question.phrasing import facets, named_terms, without_generic
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from rag.route.membership import Membership
from rag.types import PaperHit
from store.papers import make_paper

# --- the reader (fast) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("topic", "alternatives"),
    [
        (
            "continual learning - methods that keep old skills while a network learns new tasks",
            ("continual learning", "methods that keep old skills while a network learns new tasks"),
        ),
        (
            "model merging - i.e. averaging the weights of fine-tuned models",
            ("model merging", "averaging the weights of fine-tuned models"),
        ),
        # a dash before a frame word asks for the papers; one before a list or a restriction splits nothing new
        ("label noise in crowdsourcing - any method that models annotator skill", ()),
        (
            "efficient vision transformers - fewer tokens / less memory",
            ("efficient vision transformers - fewer tokens", "less memory"),
        ),
    ],
)
def test_a_dash_before_a_restatement_makes_the_term_and_its_description_alternatives(topic, alternatives):
    assert facets(topic) == alternatives


@pytest.mark.parametrize(
    ("topic", "head"),
    [
        ("continual learning - methods that keep old skills while a network learns new tasks", "continual learning"),
        ("grokking - where a network generalizes long after memorizing", "grokking"),
        ("label noise in crowdsourcing - any method that models annotator skill", ""),
    ],
)
def test_a_term_restated_after_a_dash_is_the_head_of_the_topic(topic, head):
    assert described_head(topic) == head


@pytest.mark.parametrize(
    ("phrase", "bare"),
    [
        ("lazy training regime", "lazy training"),
        ("the overparameterized setting", "the overparameterized"),
        ("tasks", "tasks"),
    ],
)
def test_a_generic_noun_ending_a_term_is_dropped(phrase, bare):
    assert without_generic(phrase) == bare


def test_bare_terms_are_short_phrases_of_content_words_only():
    got = named_terms(["continual learning", "what they forget", "lazy training regime", "mixture-of-experts", "a b"])
    assert got == ("continual learning", "lazy training", "mixture-of-experts")
    assert named_terms(["spectral methods for learning latent variable models from moments"]) == ()


def test_the_reader_searches_a_described_term_as_abstracts_name_it():
    reader = Reader(Catalogue([make_paper("x", "We study lazy training of wide networks.")]))
    plan = reader.read("Which papers study the lazy training regime, where weights barely move from initialization?")
    assert isinstance(plan, AskPlan)
    assert plan.topic.head == "lazy training regime"
    assert "lazy training" in plan.topic.facets and "lazy training regime" not in plan.topic.facets
    assert "lazy training" in plan.topic.named


class _NoRetriever:
    """Membership.titled reads titles only."""


def test_a_title_naming_a_term_puts_its_paper_among_the_titled():
    named = make_paper("named", "We bound sequential updates.", title="A Note on Continual Learning Bounds")
    other = make_paper("other", "Continual learning is hard. We study dropout.", title="Dropout Revisited")
    untitled = make_paper("untitled", "Continual learning without a title.")
    hits = [PaperHit(p, 1.0) for p in (other, named, untitled)]
    assert [h.paper.id for h in Membership.titled(("continual learning",), hits)] == ["named"]
    assert Membership.titled((), hits) == []


def test_a_title_naming_a_term_by_its_glossary_name_puts_its_paper_among_the_titled():
    # the shipped glossary: "dataset condensation" is another name of "dataset distillation"
    condensed = make_paper(
        "condensed", "We learn synthetic images.", title="Dataset Condensation with Contrastive Signals"
    )
    apart = make_paper("apart", "We distill a dataset.", title="Distilling the Knowledge of a Large Dataset")
    hits = [PaperHit(p, 1.0) for p in (apart, condensed)]
    assert [h.paper.id for h in Membership.titled(("dataset distillation",), hits)] == ["condensed"]


# --- the route, on a real store with the bundled embedder (slow) --------------------------------

PAPERS = [
    # about the term, titled by it, its abstract in formulas far from the question's description
    {
        "id": "cl-bounds",
        "title": "Sharper Bounds for Continual Learning",
        "abstract": "We analyse sequential least squares over T episodes with drift $\\delta_t$. Our bounds are "
        "$O(\\sqrt{T}\\,\\bar\\delta)$, improving on prior rates by a factor of $\\log T$. Lower bounds show the "
        "rate is tight up to constants.",
    },
    # about the term, stated in its sentences
    {
        "id": "cl-replay",
        "title": "ReplayLite: Cheap Rehearsal",
        "abstract": "Continual learning asks a network to learn new tasks one after another without forgetting old "
        "skills. We propose ReplayLite, which keeps a small buffer of past examples and replays them while new "
        "tasks are learned. ReplayLite reduces forgetting by 30% on split CIFAR-100.",
    },
    {
        "id": "cl-adapters",
        "title": "Adapter Stacks",
        "abstract": "Networks trained on a sequence of tasks forget earlier ones. We add a new adapter per task and "
        "freeze the old ones, so old skills are kept while new tasks are learned. Adapter stacks match joint "
        "training on five-task benchmarks.",
    },
    # neighbours: learning rates, pruning, federated training
    {
        "id": "lr-warmup",
        "title": "Why Warmup Works",
        "abstract": "Learning rate warmup stabilizes early training of transformers. We show warmup lets the "
        "network reach flatter regions before the learning rate peaks. Removing warmup diverges at large batch "
        "sizes.",
    },
    {
        "id": "prune",
        "title": "Pruning Before Training",
        "abstract": "We prune networks at initialization using gradient signal. The pruned networks keep accuracy "
        "at 90% sparsity on ImageNet. Pruning early saves training compute.",
    },
    {
        "id": "fed",
        "title": "Federated Averaging with Drift Correction",
        "abstract": "Clients in federated learning hold different data. We correct client drift with control "
        "variates. Our method converges faster on non-iid splits.",
    },
]


@pytest.fixture(scope="module")
def titled(tmp_path_factory, embedder):
    from conftest import pipeline_of

    return pipeline_of(tmp_path_factory.mktemp("titled_home"), PAPERS, embedder)


@pytest.mark.parametrize(
    "question",
    [
        "Which papers do continual learning - methods that keep old skills while a network learns new tasks?",
        "papers on continual learning, i.e. training on a stream of tasks without losing what was learned earlier",
    ],
)
def test_a_paper_titled_by_the_described_term_is_listed_beside_those_that_state_it(titled, question):
    answer = titled.ask(question)
    assert not answer.refused, answer.text
    cited = {c.paper_id for c in answer.citations}
    assert "cl-bounds" in cited
    assert cited <= {"cl-bounds", "cl-replay", "cl-adapters"}


def test_a_name_written_in_a_link_is_still_a_name():
    """The words of a URL are no ordinary words: "github.com/EleutherAI/pythia" leaves "Pythia", the
    name its title states, a name a question may state ("does Pythia have any drawbacks?")."""
    from rag.question.names import NameReader

    papers = [
        make_paper(
            "p", "We introduce Pythia, a suite of 16 LLMs. Code is at https://github.com/EleutherAI/pythia.",
            title="Pythia: A Suite for Analyzing Large Language Models",
        ),
        make_paper("q", "We study sparse attention on long documents.", title="Sparse attention"),
    ]
    matches, _ = NameReader(Catalogue(papers)).match("does Pythia have any drawbacks?")
    assert matches == {"Pythia": {"p": 1.0}}
    # a word the prose writes in lower case stays an ordinary word
    plain = [make_paper("r", "We use a pythia of models. See https://x.org/y.", title="Pythia: models"), papers[1]]
    assert NameReader(Catalogue(plain)).match("does Pythia have any drawbacks?")[0] == {}


@pytest.mark.parametrize(
    ("question", "named"),
    [
        # the topic begins with what the papers do: the verb phrase names no subject
        ("Which papers quantize neural networks?", ()),
        ("which methods estimate causal effects?", ()),
        ("I'm looking for work that proves regret lower bounds", ()),
        # a topic after a relating word, or before its set noun, is a term as before
        ("Which papers study label smoothing?", ("label smoothing",)),
        ("papers on post-training quantization", ("post-training quantization",)),
        ("model compression papers", ("model compression",)),
    ],
)
def test_a_topic_led_by_the_papers_verb_is_no_term(question, named):
    plan = Reader(Catalogue([])).read(question)
    assert isinstance(plan, AskPlan)
    assert plan.topic.named == named, plan.topic


def test_a_predicate_verb_is_the_first_word_after_the_noun_that_names_the_papers():
    from rag.question.phrasing import predicate

    assert predicate("quantize neural networks", "Which papers quantize neural networks?") == "quantize"
    assert predicate("proves a lower bound", "work that proves a lower bound") == "proves"
    assert predicate("label smoothing", "Which papers study label smoothing?") == ""
    assert predicate("model compression", "model compression papers") == ""
    assert predicate("pruning", "Which papers pruning?") == ""  # one word: nothing left to name


_WRITTEN = (
    "We study anomaly detection and detect anomalies in sensor streams. Speech recognition systems"
    " recognize speech. Network sparsification sparsifies layers; planetary data. Text classification"
    " classifies. Our analysis is analytical; prunability of weights; pruning removes weights."
)


@pytest.mark.parametrize(
    ("question", "nominal"),
    [
        # the verb made the noun the collection writes, after its object as a modifier
        ("Which papers detect anomalies in time series?", ("anomaly detection",)),
        ("Which papers sparsify transformer layers?", ("transformer layer sparsification",)),
        ("papers classifying long documents", ("long document classification",)),
        # a generic noun of what is acted on is left out of a second form
        ("Which papers recognize speech inputs?", ("speech input recognition", "speech recognition")),
        # no noun of the verb in the collection (an adjective or quality is none): no form
        ("Which papers analyze graphs?", ("graph analysis",)),
        ("which papers plant triggers", ()),
        # a topic after a relating word or before its set noun names its subject already
        ("Which papers study anomaly detection?", ()),
        ("anomaly detection papers", ()),
    ],
)
def test_a_topic_led_by_the_papers_verb_is_read_as_the_noun_phrase_that_names_it(question, nominal):
    plan = Reader(Catalogue([make_paper("A", _WRITTEN, title="")])).read(question)
    assert isinstance(plan, AskPlan)
    assert plan.topic.nominal == nominal, plan.topic


@pytest.mark.slow
def test_a_rare_name_alone_is_listed_from_every_paper_retrieval_finds_not_only_the_candidates(tmp_path, embedder):
    # "Which papers use generative flow networks?" lost two GFlowNet papers at retrieval ranks 45 and
    # 54 (the model weighs the first retrieval.candidates): here the two that write only "GFlowNets"
    # are put after papers on other flows, beyond the first 4 candidates the model weighs
    from dataclasses import replace

    from tests.conftest import pipeline_of

    named = [
        {"id": f"gfn{i}", "title": title, "abstract": abstract}
        for i, (title, abstract) in enumerate([
            ("Flows over graphs", "Generative flow networks (GFlowNets) sample objects in proportion to a reward. "
             "We give a new training objective for generative flow networks."),
            ("Trajectory balance", "We study generative flow networks (GFlowNets) and show that trajectory "
             "balance trains generative flow networks faster."),
            ("Continuous flows", "We extend generative flow networks (GFlowNets) to continuous spaces."),
            ("Designing sequences", "We design biological sequences with GFlowNets and active learning."),
            ("Many objectives", "We propose multi-objective GFlowNets for diverse Pareto-optimal candidates."),
        ])
    ]
    others = [
        {"id": f"other{i}", "title": title, "abstract": f"{title} is studied. We propose a method for {title.lower()}."}
        for i, title in enumerate([
            "Normalizing flows for density estimation", "Optical flow networks for video", "Flow matching for images",
            "Traffic flow forecasting networks", "Network flow optimization", "Gradient flows of neural networks",
            "Protein structure prediction", "Crop yield forecasting", "Music source separation", "Fair ranking",
            "Causal discovery from time series", "Point cloud completion", "Handwriting recognition",
        ])
    ]
    components = pipeline_of(tmp_path, [*named, *others], embedder)
    pipeline = components.pipeline
    plan = pipeline.read("Which papers use generative flow networks?")
    assert isinstance(plan, AskPlan)
    found = pipeline.retriever.search(plan.topic.search)
    by_id = {h.paper.id: h for h in found.hits}
    first = [by_id[p] for p in ("gfn0", "gfn1", "gfn2", "other0")]
    later = [by_id[p] for p in ("other1", "other2", "gfn3", "other3", "gfn4") if p in by_id]
    retrieval = replace(found, hits=[*first, *later])
    pipeline.settings.retrieval.candidates = 4
    got = pipeline.found(plan.topic, retrieval)
    assert sorted(h.paper.id for h in got.chosen) == [p["id"] for p in named]


def test_a_name_typed_in_capitals_sets_aside_papers_that_write_it_in_another_case():
    # "does FLASH beat Performer?" answered the federated optimizer "Flash" (its title matches the
    # word in any case) and, with it set aside, BEATs (an English word of the question in capitals)
    from rag.question.plan import Topic
    from rag.route.answer import AnswerPipeline
    from rag.types import SearchQuery

    def hit(pid: str, title: str, abstract: str) -> PaperHit:
        return PaperHit(make_paper(pid, abstract, title=title), 1.0)

    gale = hit("gale", "Gale: Drift-Aware Client Sampling", "We propose Gale, a client sampler for federated learning.")
    model = hit("model", "Linear-Time Attention", "The resulting model, named GALE, matches Transformers at 4x speed.")
    winds = hit("winds", "WINDs: Audio Tokenizers", "We propose WINDs for audio. Code: https://aka.ms/winds.")
    topic = Topic("GALE wind Performer", terms=("gale", "wind", "performer"),
                  search=SearchQuery("GALE wind Performer", names={"GALE": {"model": 0.6}}))
    assert AnswerPipeline._other_case(topic, [gale, model, winds], [gale, model, winds]) == {gale}
    # a name typed in lower case, or with no candidate that writes it as typed, sets nothing aside
    loose = Topic("gale", terms=("gale",), search=SearchQuery("gale", names={"gale": {"model": 0.6}}))
    assert AnswerPipeline._other_case(loose, [gale, model], [gale, model]) == set()
    assert AnswerPipeline._other_case(topic, [gale], [gale]) == set()
    # an English word of the topic that a paper writes only as its name in capitals, plural "s"
    # and all, and in lower case only inside a link
    assert AnswerPipeline._named_only(None, topic, [gale, model, winds]) == {winds}  # type: ignore[arg-type]
