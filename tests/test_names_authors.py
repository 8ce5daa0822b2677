"""Names resolve exactly first, and authors stated in a question become an author filter.

Fast tests: hand-made records (made-up abstracts for name families that differ by one edit or
contain one another: LoRA/QLoRA, BERT/RoBERTa, GPT-2/GPT-3) and a few author lists; no embedder,
no store. The end-to-end author listing runs over the ``mixed`` collection in test_filters.py.
"""

from __future__ import annotations

import pytest
from conftest import read_and_plan

from rag.index.authors import AuthorIndex
from rag.index.catalogue import Catalogue
from rag.question.filters import read_authors, stated_person, topic_left
from rag.question.phrasing import split_frame
from rag.question.reader import read_question
from rag.route.filters import Filters
from store.papers import make_paper

FAMILIES = [
    make_paper("lora", "We propose Low-Rank Adaptation, or LoRA, which freezes the weights of a pretrained model "
               "and trains small rank decomposition matrices. Compared with GPT-3 fine-tuned in full, LoRA trains "
               "far fewer parameters.", title="LoRA: Low-Rank Adaptation of Large Language Models"),
    make_paper("qlora", "We present QLoRA, a finetuning approach that reduces memory. QLoRA backpropagates gradients "
               "through a frozen 4-bit quantized model into Low Rank Adapters (LoRA).",
               title="QLoRA: Efficient Finetuning of Quantized LLMs"),
    make_paper("bert", "We introduce a language representation model called BERT, which pre-trains deep bidirectional "
               "encoders from unlabeled text.", title="BERT: Pre-training of Deep Bidirectional Transformers"),
    make_paper("roberta", "We present a replication study of BERT pretraining that measures the impact of key "
               "hyperparameters and training data size. We call the result RoBERTa.",
               title="RoBERTa: A Robustly Optimized BERT Pretraining Approach"),
    make_paper("gpt2", "Language models learn tasks without explicit supervision when trained on a large web corpus. "
               "Our largest model, GPT-2, is a 1.5B parameter Transformer.",
               title="GPT-2: Language Models are Unsupervised Multitask Learners"),
    make_paper("gpt3", "We train GPT-3, an autoregressive language model with 175 billion parameters, and show that "
               "it outperforms GPT-2 on few-shot tasks.", title="GPT-3: Language Models are Few-Shot Learners"),
    make_paper("fsam", "We propose Fisher SAM, a sharpness-aware minimisation that measures the neighbourhood with "
               "the Fisher metric.", title="Fisher SAM: Information Geometry and Sharpness Aware Minimisation"),
    make_paper("sam", "We propose SAM, which seeks parameters whose whole neighbourhood has low loss.",
               title="SAM: Sharpness-Aware Minimization for Efficiently Improving Generalization"),
]


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return Catalogue(FAMILIES)


@pytest.mark.parametrize(
    ("question", "paper"),
    [
        ("What does LoRA propose?", "lora"),
        ("what does lora propose", "lora"),  # lower case
        ("How does Lora reduce parameters?", "lora"),  # capitalised only
        ("What does QLoRA propose?", "qlora"),
        ("What does BERT propose?", "bert"),
        ("What does RoBERTa propose?", "roberta"),
        ("What does GPT-2 propose?", "gpt2"),
        ("What does gpt-3 propose?", "gpt3"),
        ("What does Fisher SAM propose?", "fsam"),  # the longest name wins its words
        ("What does SAM propose?", "sam"),
    ],
)
def test_an_exact_name_beats_its_one_edit_neighbour(cat, question, paper):
    plan = read_question(question, cat)
    assert plan.named_ids == (paper,), plan.refs


def test_a_one_edit_typo_still_finds_a_name_no_paper_holds_as_written(cat):
    assert read_question("What does QLoRAA propose?", cat).named_ids == ("qlora",)
    assert read_question("What does RoBERTTa propose?", cat).named_ids == ("roberta",)


def test_two_letters_swapped_are_one_edit_even_in_a_short_name(cat):
    # "mcpl reward for what?" was refused ("the closest paper is MCLP"): a swap is one typing slip (nu62)
    assert read_question("what does qlroa propose?", cat).named_ids == ("qlora",)
    assert read_question("what does robreta propose?", cat).named_ids == ("roberta",)
    assert read_question("what does lroa propose?", cat).named_ids == ("lora",)
    assert read_question("what does lota propose?", cat).named_ids == ()  # a letter changed in four: another word


def test_two_exact_names_in_one_question_are_both_read(cat):
    plan = read_question("Compare LoRA and QLoRA", cat)
    assert plan.intent == "compare" and set(plan.named_ids) == {"lora", "qlora"}


# --- authors --------------------------------------------------------------------------------

WRITTEN = [
    make_paper(
        "a", "We make attention fast on GPUs.", authors=["Tri Dao", "Daniel Y. Fu", "Christopher Ré"], year=2022
    ),
    make_paper("b", "We study state space models.", authors=["Daniel Y. Fu", "Tri Dao"], year=2023),
    make_paper("c", "We study kernels.", authors=["Zhangyang “Atlas” Wang", "Bo Li"], year=2023),
    make_paper("d", "We study graphs.", authors=["Bo Lin", "Yi Wang"], year=2023, venue="ICML"),
    make_paper("e", "We study Bayes rules.", authors=["Ana Bayes", "Yi Wang"], year=2022),
]
INDEX = AuthorIndex(WRITTEN, {w for p in WRITTEN for w in p.abstract.lower().replace(".", "").split()})


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("Which papers did Tri Dao publish?", ("Tri Dao",)),
        ("papers by Tri Dao", ("Tri Dao",)),
        ("what did tri dao publish in 2023", ("Tri Dao",)),  # any case for a full name
        ("Dao's work on attention", ("Tri Dao",)),  # a last name one author bears
        ("papers by T. Dao", ("Tri Dao",)),
        ("papers by Daniel Fu", ("Daniel Y. Fu",)),  # middle initial left out
        ("What has Christopher Re written about kernels?", ("Christopher Ré",)),  # accents fold
        ("papers by Zhangyang Wang", ("Zhangyang “Atlas” Wang",)),  # nickname left out
        ("papers by Bo Li", ("Bo Li",)),  # not Bo Lin
        ("papers by Bo Lin", ("Bo Lin",)),
        ("papers by Wang", ("Yi Wang", "Zhangyang “Atlas” Wang")),  # marked as an author: each bearer
        ("Wang's work on graphs", ("Yi Wang", "Zhangyang “Atlas” Wang")),
    ],
)
def test_author_names_are_read_in_the_forms_people_write_them(question, names):
    stated = read_authors(question, INDEX)
    assert stated is not None and stated.names == names


@pytest.mark.parametrize(
    "question",
    [
        "papers by dao",  # a last name alone needs its capital
        "graphs and Wang",  # several authors bear it and nothing marks it as an author
        "What do Bayes rules say?",  # a word the abstracts use
        "Smith et al. show what?",  # no record names a Smith
        "the bayes et al. paper",  # a citation's name has its capital
        "What does DANCE propose?",
        "Who wrote the attention paper?",
    ],
)
def test_no_author_is_read_where_none_is_meant(question):
    assert read_authors(question, INDEX) is None


@pytest.mark.parametrize(
    ("question", "topic"),
    [
        ("Which papers did Tri Dao publish?", ""),
        ("papers by Tri Dao", ""),
        ("Show me all of Tri Dao's work", ""),
        ("Tri Dao's work on attention", "attention"),
        ("papers written by Tri Dao on state space models", "state space models"),
        ("Which papers did Tri Dao write about attention?", "attention"),
    ],
)
def test_the_author_phrase_goes_and_the_topic_is_left(question, topic):
    stated = read_authors(question, INDEX)
    assert stated is not None
    left = split_frame(stated.rest)[0]
    assert (left if topic_left(left) else "") == topic


@pytest.mark.parametrize(
    ("question", "names", "papers", "rest"),
    [
        # a paper cited by its first author: read even when the name is a word of the abstracts
        ("What do Bayes et al. find?", ("Ana Bayes",), {"e"}, "What do the paper find?"),
        ("How fast is Fu and colleagues' model?", ("Daniel Y. Fu",), {"b"}, "How fast is the model?"),
        ("what does Daniel Fu et al.'s method study", ("Daniel Y. Fu",), {"b"}, "what does the method study"),
        ("Dao et al report speedups", ("Tri Dao",), {"a"}, "the paper report speedups"),  # first author only
        ("Li et al.", ("Bo Li",), {"c"}, "the paper"),  # first author of none: any author bearing it
    ],
)
def test_a_paper_cited_by_its_first_author_is_their_first_authored_paper(question, names, papers, rest):
    stated = read_authors(question, INDEX)
    assert stated is not None and stated.names == names and stated.papers == papers and stated.rest == rest


def test_a_stated_author_is_a_visible_filter_on_exactly_their_papers():
    papers = {p.id: p for p in WRITTEN}
    plan, plan_rest = read_and_plan(Filters(auto=True), "what did Tri Dao publish in 2023", papers, INDEX)
    assert plan.allowed == {"b"} and plan.by_author
    assert plan.note == "filter: year=2023, author=Tri Dao (remove with --no-auto-filter)"
    li, li_rest = read_and_plan(Filters(auto=True), "papers by Bo Li", papers, INDEX)
    assert li.allowed == {"c"}  # a substring would also take Bo Lin's
    venue, venue_rest = read_and_plan(Filters(venue="ICML", auto=True), "papers by Bo Lin", papers, INDEX)
    assert venue.allowed == {"d"} and "venue=ICML" in venue.description and "author=Bo Lin" in venue.description
    off, off_rest = read_and_plan(Filters(auto=False), "papers by Tri Dao", papers, INDEX)
    assert off.allowed is None and not off.by_author
    given, given_rest = read_and_plan(Filters(author="Fu", auto=True), "papers by Tri Dao", papers, INDEX)
    assert given.allowed == {"a", "b"} and given.note == "filter: author=Fu"  # the option wins


def test_a_collection_without_authors_reads_none():
    seedlike = [make_paper("s", "We propose DANCE for federated graph condensation.")]
    index = AuthorIndex(seedlike)
    assert not index and read_authors("papers by Tri Dao", index) is None
    plan, plan_rest = read_and_plan(Filters(auto=True), "Who are the authors of DANCE?", {"s": seedlike[0]}, index)
    assert plan.allowed is None


def test_an_author_no_record_names_gets_an_empty_filter_that_says_why():
    seedlike = [make_paper("s", "We propose DANCE for federated graph condensation guided by process reward models.")]
    index = AuthorIndex(seedlike, {"we", "propose", "dance", "process", "reward", "models"})
    for question in ("papers by Sergey Levine", "which papers did Yoshua Bengio write?"):
        plan, plan_rest = read_and_plan(Filters(auto=True), question, {"s": seedlike[0]}, index)
        assert plan.allowed == set() and plan.by_author, question
        assert "no record of this collection names its authors" in plan.description
    # records with authors, none of them this one: no such suffix
    plan, plan_rest = read_and_plan(Filters(auto=True), "papers by Sergey Levine", {p.id: p for p in WRITTEN}, INDEX)
    assert plan.allowed == set() and plan.description == "author=Sergey Levine"
    # a method's name, a single capitalised word, or the option off: no person
    assert stated_person("methods guided by Process Reward Models", index.vocabulary) == ""
    assert stated_person("what is improved by DANCE?", index.vocabulary) == ""
    # a quoted title whose last words follow "by": the closing quote is no part of a name
    words = {"transformers", "learn", "gradient", "descent"}
    assert stated_person("Summarize 'Transformers Learn In-Context by Gradient Descent'", words) == ""
    assert stated_person("Summarize “Learning by Gradient Descent”", words) == ""
    # a surname an abstract cites ("the formulation by Hinton (1999)") still names a person with a first name
    cited = {"we", "formulation", "hinton", "product", "experts"}
    assert stated_person("Which papers by Geoffrey Hinton are in the collection?", cited) == "Geoffrey Hinton"
    assert read_and_plan(Filters(auto=False), "papers by Sergey Levine", {"s": seedlike[0]}, index)[0].allowed is None


def test_a_title_names_its_method_with_one_capitalised_word_no_dictionary_holds():
    # "Exphormer: Sparse Transformers for Graphs" names Exphormer, though the word has no inner
    # capitals (a new user's "Compare Exphormer and GOAT" read "Exphormer and" as the aspect);
    # "Transformers: A Survey" names nothing: the word is English
    papers = [
        make_paper("exph", "Graph transformers scale poorly. We introduce a sparse attention framework built on "
                   "virtual global nodes and expander graphs.", title="Exphormer: Sparse Transformers for Graphs"),
        make_paper("goat", "We propose GOAT, a scalable global graph transformer.",
                   title="GOAT: A Global Transformer on Large-scale Graphs"),
        make_paper("survey", "We review transformer architectures for sequence modelling.",
                   title="Transformers: A Survey of Attention Models"),
    ]
    cat = Catalogue(papers)
    assert read_question("Compare Exphormer and GOAT", cat).named_ids == ("exph", "goat")
    assert read_question("what does exphormer propose?", cat).named_ids == ("exph",)
    assert read_question("What do transformers propose?", cat).named_ids == ()


def test_a_dictionary_word_before_a_title_colon_that_the_abstract_uses_as_a_name_names_the_paper():
    # "Lyre: ..." writes "Lyre" capitalised in its abstract, never in lower case, and no other
    # abstract uses the word: it names the paper ("Lyre FID"). "Beacon" is used by another
    # abstract ("a beacon of progress"), so it names no one paper; "Surveys" is written once.
    papers = [
        make_paper("lyre", "We present Lyre, a masked image transformer. Lyre decodes tokens in parallel and "
                   "reaches an FID of 6.1.", title="Lyre: Parallel Text-to-Image Generation"),
        make_paper("beacon", "We present Beacon, a retriever. Beacon indexes pages quickly.",
                   title="Beacon: Fast Retrieval at Scale"),
        make_paper("other", "Scaling laws are a beacon of progress in language modelling.", title="On Scaling"),
        make_paper("svy", "Surveys of methods abound; we add one on graph learning.", title="Surveys: Graph Learning"),
    ]
    cat = Catalogue(papers)
    assert read_question("Lyre FID", cat).named_ids == ("lyre",)
    assert read_question("Beacon latency", cat).named_ids == ()
    assert read_question("Surveys of graph learning", cat).named_ids == ()


def test_a_name_as_its_title_writes_it_names_the_paper_though_another_abstract_writes_it_in_lower_case():
    # "Pythia" is the name its title states; another abstract's "pythia-1b" is a lower-case word
    papers = [
        make_paper("py", "We introduce Pythia, a suite of 16 language models.", title="Pythia: A Suite of Models"),
        make_paper("use", "We probe the pythia-1b checkpoints for memorisation.", title="Probing Memorisation"),
    ]
    cat = Catalogue(papers)
    assert read_question("Pythia # GPUs", cat).named_ids == ("py",)


def test_a_phrase_another_papers_title_writes_names_their_field_not_one_paper():
    # "Summarize the papers on differentially private stochastic convex optimization" summarised
    # the one paper whose label is that phrase (its title before "under"); another title writes
    # it too, so it is the field of both and the question asks for the papers on it
    quantile = make_paper(
        "q", "We study private convex optimization under a quantile loss and design smoothed algorithms.",
        title="Differentially Private Stochastic Convex Optimization under a Quantile Loss Function",
    )
    heavy = make_paper(
        "h", "We study convex optimization with heavy-tailed data under the constraint of differential privacy.",
        title="Improved Rates for Differentially Private Stochastic Convex Optimization with Heavy-Tailed Data",
    )
    assert quantile.label == "Differentially Private Stochastic Convex Optimization"
    asked = "Summarize the papers on differentially private stochastic convex optimization"
    assert read_question(asked, Catalogue([quantile, heavy])).named_ids == ()
    # no other title writes it: the label names its paper
    assert read_question(asked, Catalogue([quantile])).named_ids == ("q",)
