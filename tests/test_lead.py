"""Lead lines of extractive answers: the form each question asks, built only from labels, the
count of papers, spans quoted from the evidence and a fixed set of connective words.

Unit tests of the spans and of the question model's form classes (fast, no embedder), then each
form through the one route over the seed collection (the session's extractive pipeline).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from conftest import pipeline_of

from rag.citations import cited_numbers
from rag.evidence.roles import CONTINUES, FIRST_PERSON
from rag.evidence.rows import select_rows
from rag.index.catalogue import Catalogue
from rag.llm.prose import Source
from rag.pipeline import Components
from rag.question.reader import Reader, read_question
from rag.route.conversation import Conversation
from rag.route.lead import (
    MAX_LEAD_WORDS,
    _polar,
    availability_span,
    clause_spans,
    comparing_clause,
    comparison_verdict,
    contrary_span,
    contrasted,
    counts_joined,
    denies_directly,
    key_clause,
    lead_line,
    names_object,
    number_span,
    own_clause,
    polar_verdict,
    sets_aside,
    states_compound,
    states_terms,
    term_span,
)
from rag.text import Sentence, split_sentences
from rag.types import Answer, Evidence, PaperHit
from store.papers import Paper, make_paper, strip_markup
from tests.conftest import DEV

# --- spans of one sentence -------------------------------------------------------------------

GIST = "To address these limitations, we propose APM, which derives analytic parameters (of projectors, not loops)."
MERGED = "(2) Suboptimal. To reduce LLM overhead, we compress texts into a core with fixed LLM surrogates (summaries)."


def text(sentence: str, span) -> str:
    return sentence[span[0] : span[1]]


def test_clauses_are_exact_substrings_and_brackets_stay_whole():
    spans = clause_spans(GIST)
    assert [text(GIST, s) for s in spans] == [
        "To address these limitations",
        "we propose APM",
        "which derives analytic parameters (of projectors, not loops)",
    ]
    assert [text(MERGED, s) for s in clause_spans(MERGED)][0] == "(2) Suboptimal"


def test_key_clause_drops_the_opening_clause_and_caps_its_words():
    want = "we propose APM, which derives analytic parameters (of projectors, not loops)"
    assert text(GIST, key_clause(GIST)) == want
    # the list heading "(2) Suboptimal." is left out
    assert text(MERGED, key_clause(MERGED)).startswith("To reduce LLM overhead, we compress")
    marked = "\\textbf{(2) Suboptimal.} To reduce overhead, we compress texts into a core."
    assert text(marked, key_clause(marked)) == "To reduce overhead, we compress texts into a core"
    long = "We propose X, " + ", ".join(f"which does thing number {i} well" for i in range(12)) + "."
    a, b, cut = key_clause(long)
    assert cut and len(long[a:b].split()) <= MAX_LEAD_WORDS and long[a:b].startswith("We propose X")


@pytest.mark.parametrize(
    ("sentence", "quoted"),
    [
        (
            "Empirically, APM achieves up to 65x storage reduction, while scaling to 1,000 pairs.",
            "APM achieves up to 65x storage reduction, while scaling to 1,000 pairs",
        ),
        (
            "Across 8 TAG datasets, DANCE improves accuracy by 2.33%, with 33.42% fewer tokens.",
            "Across 8 TAG datasets, DANCE improves accuracy by 2.33%, with 33.42% fewer tokens",
        ),
        (
            "We study agents, and our method is 3x faster on hard problems.",
            "and our method is 3x faster on hard problems",
        ),
    ],
)
def test_number_span_quotes_the_numeric_clauses_with_their_context(sentence, quoted):
    assert text(sentence, number_span(sentence)) == quoted
    assert number_span("We propose a method for graphs.") is None
    assert number_span("\\textbf{(2) Suboptimal.} We compress texts into a core.") is None  # a heading number


_LONG_FIGURES = (
    "For instance, Pallas not only beats the strongest prior planner by 11.2% on AntMaze and 4.1% on Hopper "
    "locomotion tasks, but also transfers better to unseen settings, such as Franka stacking, by 19.6% "
    "without any additional demonstrations."
)


@pytest.mark.parametrize(
    ("near", "quoted"),
    [
        # the asked word's clause and the figure after it, with the clause before a short one
        (("franka",), "but also transfers better to unseen settings, such as Franka stacking, by 19.6% "
                      "without any additional demonstrations"),
        # the asked figure already in the cut span: unchanged
        (("antmaze",), None),
        ((), None),
    ],
)
def test_a_cut_number_span_keeps_the_figure_after_the_word_asked(near, quoted):
    # "AdaptDiffuser KUKA gain?" was cut with "..." right before "by 27.9%"
    span = number_span(_LONG_FIGURES, near)
    assert span is not None
    if quoted is None:
        assert span == number_span(_LONG_FIGURES) and span[2]
    else:
        assert text(_LONG_FIGURES, span) == quoted


@pytest.mark.parametrize(
    ("sentence", "term", "found"),
    [
        ("Our model outperforms Flamingo80B by 8.7% on zero-shot VQAv2.", "flamingo", True),
        ("It improves over Seg-Zero-7B by 9%.", "seg-zero", True),
        ("We fine-tune T5-11B and ResNet50 backbones.", "resnet", True),
        ("We fine-tune T5-11B.", "t", False),  # too short to be a name of its own
        ("A loss with an L2 penalty.", "l", False),
    ],
)
def test_a_name_glued_to_its_size_states_the_name(sentence, term, found):
    assert (term_span(sentence, [term]) is not None) == found


def test_term_span_finds_every_term_by_lemma_and_flags_a_negation():
    span = term_span(MERGED, ["llm", "surrogate"])  # "surrogates" in the sentence: one term key
    assert span is not None
    assert text(MERGED, span) == "we compress texts into a core with fixed LLM surrogates (summaries)"
    assert not span[3]
    assert term_span(MERGED, ["llm", "labels"]) is None
    neg = "We train the detector without labels, using self-supervision."
    got = term_span(neg, ["labels"])
    assert got is not None and got[3]


@pytest.mark.parametrize(
    ("sentence", "terms", "found"),
    [
        # an acronym asked is stated where the sentence writes it out: its long form (glossary) ...
        ("Agents are then tuned with deep reinforcement learning.", ["drl"], True),
        ("We fine-tune large language models on code.", ["llms", "code"], True),
        ("The student follows a chain of thought written by the teacher.", ["cot", "teacher"], True),
        # ... or its leading words as a compound ("reinforcement-based" for RL, reinforcement learning)
        ("We train the policy with a reinforcement-driven curriculum.", ["rl", "curriculum"], True),
        ("The planner is reinforcement-based.", ["rl-based", "planner"], True),
        ("a reinforcement learning-based planner", ["rl-based", "planner"], True),
        # not by a leading word alone, nor by a compound of another sense
        ("We learn a reinforcement signal.", ["rl"], False),
        ("We build a large-scale dataset of code.", ["llm", "code"], False),
        ("The planner is curriculum-based.", ["rl-based", "planner"], False),
    ],
)
def test_an_acronym_is_stated_by_its_long_form_or_its_leading_words_as_a_compound(sentence, terms, found):
    # "Does HyperTrack find that RL finetuning beats supervised finetuning?" was answered "no
    # sentence mentions rl" beside "reinforcement-based finetuning consistently outperforms ..."
    assert (term_span(sentence, terms) is not None) == found


@pytest.mark.parametrize(
    ("sentence", "terms", "negated"),
    [
        # an "X-free" word negates X, not the word after it, and states itself
        ("Samples from a model using classifier-free guidance are favored.", ["classifier-free", "guidance"], False),
        ("We compare CLIP guidance and classifier-free guidance.", ["guidance"], False),
        ("We introduce label-free feature importance for black-box models.", ["labels"], True),
        ("We introduce label-free feature importance for black-box models.", ["label-free", "importance"], False),
        ("Given any reward-free RL oracle, constrained RL is solved directly.", ["reward-free", "oracle"], False),
        ("Our method is not training-free: it fine-tunes the encoder.", ["training-free"], True),
        # a negation before a list closed by "or" negates every item of it
        ("It does not require training a classifier, collecting a dataset, or explicitly watermarking text.",
         ["watermarking"], True),
        ("It works without labels, pretraining, or fine-tuning.", ["pretraining"], True),
        ("It needs no labels, pretraining or fine-tuning.", ["fine-tuning"], True),
        ("It needs labels, pretraining or fine-tuning.", ["fine-tuning"], False),
        # not across a clause of the authors' own
        ("Unlike methods that do not scale, we use pruning, distillation, or quantization.", ["quantization"], False),
        ("It needs no labels, and we fine-tune it.", ["fine-tune"], False),
    ],
)
def test_an_x_free_word_negates_only_x_and_a_negation_reaches_a_list(sentence, terms, negated):
    span = term_span(sentence, terms)
    assert span is not None and span[3] is negated


def test_a_negated_list_item_is_quoted_with_its_negation():
    sentence = ("This approach, which we call DetectGPT, does not require training a separate classifier, "
                "collecting a dataset of real or generated passages, or explicitly watermarking generated text.")
    span = term_span(sentence, ["watermarking"])
    assert span is not None and span[3]
    assert text(sentence, span).startswith("does not require training a separate classifier")


@pytest.mark.parametrize(
    ("sentence", "term", "quoted"),
    [
        # a list item alone says nothing: the clause that holds the list comes with it
        (
            "Through experiments on three agent tasks, WebShop, ALFWorld, and Deep Search, we show gains.",
            "alfworld",
            "Through experiments on three agent tasks, WebShop, ALFWorld",
        ),
        # an opening phrase comes with the main clause after it, not the sentence before
        (
            "(2) Suboptimal. To reduce LLM overhead, we compress texts into a core.",
            "llm",
            "To reduce LLM overhead, we compress texts into a core",
        ),
    ],
)
def test_a_short_term_clause_is_quoted_with_the_clause_it_belongs_to(sentence, term, quoted):
    span = term_span(sentence, [term])
    assert span is not None and text(sentence, span) == quoted


@pytest.mark.parametrize(
    ("sentence", "terms", "against"),
    [
        ("Masked models offer improved decoding efficiency over autoregressive models.", ["autoregressive"], True),
        ("Our detector is faster than recurrent networks on every benchmark.", ["recurrent"], True),
        ("Unlike contrastive pretraining, we need no negatives.", ["contrastive"], True),
        ("DDL surpasses adaptation baselines and supervised fine-tuning.", ["supervised", "fine-tuning"], True),
        ("Few labels render supervised fine-tuning infeasible in this setting.", ["supervised", "fine-tuning"], True),
        ("Existing methods rely on reinforcement learning with dense rewards.", ["reinforcement", "learning"], True),
        ("We train the policy with reinforcement learning from sparse rewards.", ["reinforcement", "learning"], False),
        ("Our model is autoregressive and decodes over 20 steps.", ["autoregressive"], False),
        ("Existing methods are slow; we fine-tune with supervised data instead.", ["supervised"], False),
    ],
)
def test_a_term_set_against_the_paper_is_no_yes(sentence, terms, against):
    span = term_span(sentence, terms)
    assert span is not None and not span[3]
    assert contrasted(sentence, span, terms) is against


@pytest.mark.parametrize(
    ("sentence", "terms", "denied"),
    [
        # the negation denies the asked term itself: a yes/no question whether the paper has it is "no"
        ("Our pruner compresses 30B models in one pass, with no calibration data.", ["calibration", "data"], True),
        ("The tagger does not need any reward model.", ["reward", "model"], True),
        ("It runs without relying on external solvers at test time.", ["external", "solvers"], True),
        ("Our adapter is label-free.", ["labels"], True),
        # a verb that makes or obtains the term denies having it ("Does DetectGPT need a separate
        # classifier?" was "Stated with a negation" for "does not require training a separate classifier")
        ("The probe does not require training an auxiliary critic.", ["auxiliary", "critic"], True),
        ("It detects edits without collecting a corpus of human rewrites.", ["corpus"], True),
        # another verb stands between: the term is its object, not what is denied
        ("It halves latency without sacrificing accuracy on ImageNet.", ["accuracy"], False),
        ("We train without tuning the learning rate.", ["learning", "rate"], False),
    ],
)
def test_a_negation_of_the_asked_term_itself_is_a_no(sentence, terms, denied):
    # "Does SoT rely on external engines?" was "Stated with a negation" for "without external engines"
    span = term_span(sentence, terms)
    assert span is not None and span[3]
    assert denies_directly(sentence, span, terms) is denied


@pytest.mark.parametrize(
    ("sentence", "terms", "aside"),
    [
        ("Our solver works in closed form, thereby sidestepping costly inner-loop search.",
         ["inner-loop", "search"], True),
        ("We cache two matrices, obviating checkpoint storage.", ["checkpoint", "storage"], True),
        ("Instead of backpropagation, we train each block with a local loss.", ["backpropagation"], True),
        # the replacement, not what is replaced; prior work's choice; a baseline outperformed
        ("We replace supervised fine-tuning with reinforcement learning.", ["reinforcement", "learning"], False),
        ("Existing methods avoid tokenization entirely.", ["tokenization"], False),
        ("Our model outperforms autoregressive decoders.", ["autoregressive"], False),
    ],
)
def test_a_term_the_paper_sets_aside_is_no_and_a_baseline_is_only_a_contrast(sentence, terms, aside):
    # "Does L2M need per-task retraining?" was "not stated as what L2M does; mentioned in contrast"
    # though "eliminating per-task retraining" states it does not
    span = term_span(sentence, terms)
    assert span is not None
    assert sets_aside(sentence, span, terms) is aside


@pytest.mark.parametrize(
    ("sentence", "comparative", "verdict"),
    [
        ("Our sampler is 3x faster than DDIM on every benchmark.", "faster", "yes"),
        ("The decoder outperforms beam search by 4 BLEU.", "outperform", "yes"),
        ("The compiled kernel is slower than the eager one for short inputs.", "faster", "no"),
        ("It needs more memory than the dense baseline.", "less", "no"),
        # a part of the whole or a reduction states a smaller amount
        ("It matches the teacher while using one-quarter of the denoising steps.", "fewer", "yes"),
        ("It cuts the memory of the optimizer state by 40%.", "less", "yes"),
        # a figure of another kind is the reader's to judge
        ("It gains 2.1 points of accuracy over the teacher.", "faster", ""),
        # the opposite only as the comparative it is: "costlier", not the noun "cost" ("Is GLaM
        # cheaper than GPT-3?" said No of "substantially less training cost")
        ("The sparse model incurs a lower energy cost than dense variants.", "cheaper", ""),
        ("Sampling is costlier than greedy decoding.", "cheaper", "no"),
        # a better result by a verb of outdoing ("Is AdaptDiffuser better than Diffuser?" quoted
        # "adapts better to new tasks" as a comparison against nothing by name)
        ("The planner surpasses the strongest search baseline by 12%.", "better", "yes"),
        ("Our policy beats behaviour cloning on all nine tasks.", "superior", "yes"),
        ("The planner surpasses the strongest search baseline by 12%.", "faster", ""),
        ("The planner matches the strongest search baseline.", "better", ""),
        ("The planner is worse than the search baseline on long horizons.", "better", "no"),
        # a verb of winning asked is a better result asked ("Does RSAgent outperform Seg-Zero-7B?"
        # quoted "improving over Seg-Zero-7B by 9%" as "judge the comparison from it")
        ("It reaches 66.5% gIoU, improving over the 7B baseline by 9%.", "outperform", "yes"),
        ("The sparse model surpasses GPT-3 on 21 of 29 tasks.", "beat", "yes"),
        ("Our agent improves upon the prior art on WebShop.", "surpass", "yes"),
        ("The sparse model matches GPT-3 at a third of the energy.", "outperform", ""),
        # a greater speed by a speed-up or a smaller time ("Is FOAM faster than Shampoo?" quoted
        # "reduces wall-clock time compared to standard Shampoo" as "judge the comparison from it")
        ("The scheduler cuts end-to-end latency by 35% relative to vLLM.", "faster", "yes"),
        ("Our solver halves the runtime of the interior-point baseline.", "quicker", "yes"),
        ("The kernel accelerates decoding by 3x over the dense one.", "faster", "yes"),
        ("It reduces the memory of the optimizer state by 40%.", "faster", ""),
        ("It needs a longer time than the dense baseline.", "faster", ""),
    ],
)
def test_a_yes_no_comparison_is_answered_by_the_comparative_its_sentence_states(sentence, comparative, verdict):
    # "Is PrefixRL faster than the strongest baseline?" quoted "2x faster than the strongest
    # baseline" as "judge the comparison from it", with no Yes
    assert comparison_verdict(sentence, (0, len(sentence), False, False), comparative) == verdict


# --- the question model: yes/no and amount questions ----------------------------------------

PAPERS = [
    Paper("a#1", "We propose DANCE, a graph condensation method for federated learning.", label="DANCE"),
    Paper("a#2", "We propose APM, which distills multimodal datasets into a few pairs.", label="APM"),
]


@pytest.fixture(scope="module")
def cat() -> Catalogue:
    return Catalogue(PAPERS)


@pytest.mark.parametrize(
    ("question", "terms"),
    [
        ("Does DANCE use LLM surrogates?", ("llm", "surrogates")),
        ("Is APM evaluated on Flickr30k?", ("flickr30k",)),
        ("and does it outperform policy gradient baselines?", ("policy", "gradient", "baselines")),
        ("Was DANCE tested with text-attributed graphs", ("text-attributed", "graphs")),
        ("Can APM scale to 1,000 synthetic pairs?", ("scale", "1,000", "synthetic", "pairs")),
        # a generic head noun after a term is implied by it: abstracts say "MODIS ... fields"
        ("Does APM use Flickr30k data?", ("flickr30k",)),
        ("Does DANCE use a frozen LLM model?", ("frozen", "llm")),
        ("Does APM use data?", ("data",)),  # alone it is what is asked
        # a generic noun of what is reported: the benchmark beside it is what a sentence states
        ("Does APM report results on Flickr30k?", ("flickr30k",)),
        ("does DANCE provide numbers for text-attributed graphs", ("text-attributed", "graphs")),
        ("Is APM's performance reported on Flickr30k?", ("flickr30k",)),
        # a verb that reports a finding before "that", and an adjective of ability, frame the question
        ("Does DANCE find that condensation reduces tokens?", ("condensation", "reduces", "tokens")),
        ("do they claim that APM scales to 1,000 synthetic pairs", ("scales", "1,000", "synthetic", "pairs")),
        ("Is APM able to scale to 1,000 synthetic pairs?", ("scale", "1,000", "synthetic", "pairs")),
        ("Is DANCE capable of condensing graphs?", ("condensing", "graphs")),
        ("Does DANCE find an accuracy drop on text-attributed graphs?",
         ("accuracy", "drop", "text-attributed", "graphs")),
        # a verb that only relates the paper to what it builds on, and a generic head after a name
        ("Does APM build on the Flickr30k architecture?", ("flickr30k",)),
        ("does DANCE come with text-attributed graphs", ("text-attributed", "graphs")),
        ("Is APM based on the Flickr30k algorithm?", ("flickr30k",)),
        # a clarification says which paper is meant; its words are none a sentence must state
        ("Does DANCE use LLM surrogates? I mean the graph one", ("llm", "surrogates")),
        ("does APM, I meant the distillation paper, use Flickr30k?", ("flickr30k",)),
        ("Is APM evaluated on Flickr30k? I'm referring to the multimodal one", ("flickr30k",)),
    ],
)
def test_yes_no_questions_about_a_paper(cat, question, terms):
    plan = read_question(question, cat)
    assert plan.polar and plan.polar_terms == terms and not plan.ask.amount


@pytest.mark.parametrize(
    ("question", "artifact"),
    [
        ("Does DANCE release code?", "code"),
        ("is APM open source?", "code"),  # no artifact named: its code
        ("has the DANCE implementation been made available?", "code"),
        ("does APM release its dataset?", "data"),
        ("are the DANCE checkpoints released?", "models"),
        ("is the DANCE model code public?", "code"),  # code beside a model noun is code
        ("Is APM evaluated on public benchmarks?", ""),  # "public" describes, it asks no availability
        ("Does DANCE use open-set recognition?", ""),
    ],
)
def test_a_yes_no_question_may_ask_whether_an_artifact_is_available(cat, question, artifact):
    plan = read_question(question, cat)
    assert plan.polar and plan.polar_available == artifact
    if artifact:
        assert plan.polar_terms == (artifact,)


@pytest.mark.parametrize(
    ("sentence", "artifact", "states"),
    [
        ("Our software and data are publicly available.", "code", True),
        ("Our software and data are publicly available.", "data", True),
        ("Code: https://github.com/someone/thing", "code", True),  # a code host needs no word of availability
        ("We open-source the trained checkpoints.", "models", True),
        ("Our code and data are avaliable at https://github.com/x/y.", "data", True),  # misspelt, but linked
        ("We evaluate on a publicly available benchmark.", "code", False),
        ("The code will not be released.", "code", True),  # stated, with its negation
        ("We release a new dataset of 10k dialogues.", "code", False),
        ("We are releasing models and inference code to serve as a foundation.", "code", True),
    ],
)
def test_a_sentence_makes_an_artifact_available_in_any_words(sentence, artifact, states):
    span = availability_span(sentence, artifact)
    assert (span is not None) == states
    if span is not None:
        assert span[3] == ("not" in sentence.split())


@pytest.mark.parametrize(
    "question",
    [
        "Are there papers on speech?",
        "Do you have anything on federated learning?",
        "Does any paper use reinforcement learning?",
        "Is there a paper that distills datasets?",
        "What does DANCE propose?",
        "Which paper distills image-text data?",
    ],
)
def test_requests_for_papers_are_not_yes_no(cat, question):
    assert not read_question(question, cat).polar


@pytest.mark.parametrize(
    ("question", "quantity"),
    [
        ("How many TAG datasets was DANCE evaluated on?", True),
        ("What accuracy gain does DANCE report?", True),
        ("What is the storage reduction of APM?", True),
        ("By how much does APM speed up distillation?", True),
        ("APM: how much faster is its distillation?", True),
        ("which speedup does APM reach", True),
        ("How many papers use reinforcement learning?", False),
        ("Which paper reports a 65x storage reduction?", False),
        ("What does DANCE propose?", False),
        ("Which papers report accuracy gains?", False),
    ],
)
def test_amount_questions(cat, question, quantity):
    plan = read_question(question, cat)
    asked = plan.ask if plan.intent == "ask" else plan.otherwise.ask  # "APM: how much faster is its ...": a comparison
    assert asked.amount is quantity


# --- each form through the one route ---------------------------------------------------------

CONNECTIVES = frozenset(
    """yes paper papers in the collection match matches at least most relevant are listed no number its quoted
    sentences closest stated with a negation abstract of does not state this sentence mentions or and one
    together compared as what it contrast problem addresses setting limitation own earlier work states is are
    clearly about""".split()
)
_QUOTE = re.compile(r"“([^”]*)”")


@pytest.fixture(scope="module")
def components(extractive: Components) -> Components:
    return extractive


def ask(components: Components, question: str) -> Answer:
    return Conversation(components.pipeline).ask(question).answer


def assert_lead_is_grounded(ans: Answer, components: Components, allowed: frozenset[str] = frozenset()) -> None:
    """The text opens with the lead; every quotation in it is an exact span of a paper its line
    cites (as quotations are shown); outside quotations and labels only connective words."""
    assert ans.lead and ans.text.startswith(ans.lead), ans.text
    by_number = {c.number: components.retriever.papers[c.paper_id] for c in ans.citations}
    labels = sorted((p.label for p in by_number.values()), key=len, reverse=True)
    for line in ans.lead.splitlines():
        cited = [by_number[n] for n in cited_numbers(line)]
        assert cited or not _QUOTE.search(line), line  # a list's count line quotes nothing
        for q in _QUOTE.findall(line):
            assert any(q in strip_markup(p.abstract) for p in cited), (q, line)
        rest = _QUOTE.sub(" ", line).replace("**", " ")
        for label in labels:
            rest = rest.replace(label, " ")
        words = {w.lower() for w in re.findall(r"[A-Za-z][\w'-]*", re.sub(r"\[\d+(?:, \d+)*\]", " ", rest))}
        assert words <= CONNECTIVES | allowed, (words - CONNECTIVES, line)


@pytest.mark.parametrize(
    "question",
    [
        "Which paper distills image-text data?",
        # a description after "work" may name one paper ("work on <a bare topic>" asks the set:
        # phrasing.BARE_TOPIC_TERMS)
        "I'm looking for work that estimates nested expectations with quantum algorithms",
        "Which work refreshes its compressed graph each round in federated learning?",
    ],
)
def test_which_paper_lead_names_it_and_quotes_what_it_does(components, question):
    ans = ask(components, question)
    assert_lead_is_grounded(ans, components)
    assert re.match(r"\*\*.+\*\* \[1\] — “", ans.lead) and len(ans.lead.splitlines()) == 1


@pytest.mark.parametrize(
    ("question", "fact"),
    [
        ("What accuracy gain does DANCE report?", "2.33%"),
        ("How much storage reduction does APM achieve?", "65"),
        ("By how much does CoVRL improve over the base model?", "12.4%"),
    ],
)
def test_amount_lead_quotes_the_number(components, question, fact):
    ans = ask(components, question)
    assert_lead_is_grounded(ans, components)
    assert fact in ans.lead.splitlines()[0]


def test_list_lead_counts_what_it_cites_and_gives_one_line_each(components):
    ans = ask(components, "Which papers work on speech?")
    assert_lead_is_grounded(ans, components)
    head, *lines = ans.lead.splitlines()
    n = int(re.match(r"(?:At least )?(\d+) papers? in the collection (?:is|are) clearly about this", head).group(1))
    assert n == len(ans.citations) == len(lines) >= 2
    for line, c in zip(lines, ans.citations, strict=True):
        assert line.startswith(f"- **{c.label}** [{c.number}] — “"), line


@pytest.mark.parametrize(
    "question",
    [
        "Which papers fine-tune LLM agents with RL?",
        "papers on agents that use tools",
        "any work on diffusion models?",
        "Which papers study vision-language models?",  # a name the collection knows as VLMs
        "Which papers are about knowledge distillation?",
    ],
)
def test_a_listed_paper_is_quoted_with_its_own_statement_and_mentions_are_apart(components, question):
    ans = ask(components, question)
    assert_lead_is_grounded(ans, components)
    ev = components.pipeline.evidence
    for c in ans.citations:
        paper = components.retriever.catalogue[c.paper_id]
        moves = ev.moves(paper)
        # the field: a background or gap sentence, or one before the contribution where no gap
        # sets the background apart (preamble), neither in the first person
        field = {x.start for x in ev.sentences(paper)[0] if moves[x.start] in ("background", "gap")}
        field |= ev.preamble(paper)
        own = [x for x in ev.sentences(paper)[0] if x.start not in field]
        for e in c.evidence:  # never the field the paper starts from, when it states anything of its own
            assert e.start not in field or not own or FIRST_PERSON.search(e.sentence), (
                c.label,
                e.sentence,
            )
    if "\nAlso mention" in ans.text:  # named after the answer, counted apart, never cited
        block = ans.text.split("\nAlso mention", 1)[1]
        n = int(re.search(r"without being clearly about it \((\d+)\):", block).group(1))
        named = re.findall(r"^- \*\*(.+?)\*\*", block, re.M)
        assert len(named) == n >= 1 and not {c.label for c in ans.citations} & set(named)
        assert not re.search(r"\[\d+\]", block)


@pytest.mark.parametrize(
    ("question", "label"),
    [
        (
            "there was a paper where a web agent learns when to skip thinking and drop old observations to save tokens",
            "Agent-Omit",
        ),
        (
            "the one that detects fake speech and checks whether it still works on attacks it never saw in training",
            "CA-SOADD",
        ),
    ],
)
def test_a_description_of_one_paper_is_answered_by_that_paper_alone(components, question, label):
    ans = ask(components, question)
    assert [c.label for c in ans.citations] == [label], ans.text


@pytest.mark.parametrize(
    ("question", "yes"),
    [
        ("Does DANCE use LLM surrogates?", True),
        ("Is APM evaluated on Flickr30k?", True),
        ("Does ME-DLM report results on GSM8K? by how much?", True),  # "results" is no term a sentence must hold
        ("does ME-DLM present performance numbers on HumanEval", True),
        ("Does DANCE use reinforcement learning?", False),
        ("Does APM rely on reinforcement learning?", False),
        ("is ME-DLM an autoregressive model?", None),
        ("does DDL require supervised fine-tuning?", None),
    ],
)
def test_yes_no_lead_says_yes_only_when_a_sentence_states_it(components, question, yes):
    ans = ask(components, question)
    if yes is False:  # no sentence bears on it: refused, saying what the abstract lacks
        assert ans.refused and "does not state this: no sentence mentions reinforcement" in ans.text, ans.text
        return
    assert not ans.refused
    plan = read_question(question, components.retriever.catalogue)
    assert_lead_is_grounded(ans, components, frozenset(plan.polar_terms))
    if yes is None:  # stated only as what the paper is set against
        assert ans.lead.startswith("Not stated as what ") and "in contrast: “" in ans.lead
    elif yes:
        assert ans.lead.startswith("Yes: ")
        quote = _QUOTE.search(ans.lead).group(1)
        assert any(quote in strip_markup(e.sentence) for c in ans.citations for e in c.evidence)  # quoted below too


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        # the abstracts write the acronym out, and never as the acronym
        ("Is RSAgent trained with RL?", "agentic reinforcement learning"),
        ("was CogRouter trained with SFT", "Supervised Fine-tuning"),
        ("Is MCLP employed as an RL reward?", "reinforcement learning reward"),
        ("Does HyperTrack compare RL finetuning with supervised finetuning?", "reinforcement-based finetuning"),
        ("Does HyperTrack find RL-based finetuning better than supervised finetuning?", "reinforcement-based"),
    ],
)
def test_a_yes_no_question_with_an_acronym_is_answered_where_the_abstract_writes_it_out(components, question, stated):
    ans = ask(components, question)
    quote = _QUOTE.search(ans.lead)
    assert not ans.refused and quote is not None and stated in quote.group(1), ans.lead
    assert "does not state" not in ans.lead


def test_a_term_written_out_is_not_said_missing_when_the_others_are_elsewhere(components):
    # "Does MCLP serve as an RL reward?": "serves" and "reinforcement learning reward" stand in two
    # sentences; it said "no sentence mentions rl"
    ans = ask(components, "Does MCLP serve as an RL reward?")
    assert "mentions rl" not in ans.lead and "together" in ans.lead, ans.lead


@pytest.mark.parametrize(
    ("question", "stated", "background"),
    [
        # a noun the abstracts name by an instance: the own-work clause that writes it, never the
        # background's or gap's ("existing methods, which rely on shallow encoders")
        ("Which encoder does RAST-MoE rely on?", "Mixture-of-Experts encoder", "shallow encoders"),
        ("what languages is DGSA built for?", "complex languages", "remains fundamentally limited"),
        # no own-work clause writes it: the own-work sentence closest to the question (an instance)
        ("Which optimizer is FOAM compared against?", "standard Shampoo", "practitioners typically rely"),
        ("Which simulator is the LLM serving router run in?", "Vidur simulator", "Unlike widely used"),
    ],
)
def test_a_thing_named_by_instances_is_quoted_from_the_papers_own_work(components, question, stated, background):
    ans = ask(components, question)
    assert not ans.refused and stated in ans.lead and background not in ans.lead, ans.lead


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        # the absence asked: a sentence that negates it or sets it aside says yes ...
        ("Does L2M operate without per-task retraining?", "Yes: "),
        ("Does CA-SOADD need no spoof supervision?", "Yes: "),
        # ... one that states it plainly does not ("from human hand-object demonstrations")
        ("Does DexMachina learn without human hand-object demonstrations?", "states it, not its absence"),
        # a verb of setting aside asks the absence too ("thereby avoiding ...", "it avoids ...")
        ("Does APM avoid bi-level optimization?", "Yes: "),
        ("Does ReAugment bypass backpropagating gradients through the forecasting models?", "Yes: "),
    ],
)
def test_a_yes_no_question_that_asks_an_absence_is_answered_by_the_negating_sentence(components, question, lead):
    # "Does DexMachina work without human demonstrations?" was answered "Yes" with the sentence
    # that says it learns from them; "without per-task retraining" was "mentioned in contrast"
    ans = ask(components, question)
    assert lead in ans.lead and len(ans.citations) == 1, ans.text


@pytest.mark.parametrize(
    ("question", "stated"),
    [
        ("Does Graph-R1 release code?", "Our software and data are publicly available"),  # no word of the question
        ("is ProAct-75 open source?", "Code is available at https://github.com/ZhuXMMM/ProAct.git"),
        ("Does Agent-Omit release its data?", "Our code and data are avaliable at"),
        ("Is DANCE's implementation publicly available?", None),
    ],
)
def test_yes_no_availability_is_answered_by_the_sentence_that_makes_it_available(components, question, stated):
    ans = ask(components, question)
    if stated is None:  # no sentence makes it available: refused, saying so
        assert ans.refused and "does not state this: no sentence makes its code available" in ans.text, ans.text
        return
    assert not ans.refused and len(ans.citations) == 1, ans.text
    assert ans.lead.startswith("Yes: ") and stated in ans.lead, ans.lead


@pytest.mark.parametrize(
    ("question", "lead", "stated"),
    [
        # a smaller amount asked is stated by a part of the whole or a reduction: yes
        ("Does ME-DLM need fewer diffusion steps?", "Yes: ", "one-eighth of the total diffusion steps"),
        ("Does FOAM take less wall-clock time than Shampoo?", "Yes: ", "compared to standard Shampoo"),
        # a greater speed is stated by a smaller time ("reduces wall-clock time"): yes
        ("is FOAM quicker in wall-clock time than standard Shampoo?", "Yes: ", "compared to standard Shampoo"),
        # a verb of winning is a direction too; a model named with its size glued on is named
        ("does FOAM beat standard Shampoo?", "Stated in ", "compared to standard Shampoo"),
        # "improving over" is a verb of outdoing: the direction asked is stated (nu67 saw "Stated in")
        ("Does RSAgent outperform Seg-Zero?", "Yes: ", "improving over Seg-Zero-7B by 9%"),
    ],
)
def test_a_yes_no_comparison_is_yes_only_when_its_sentence_states_the_direction(components, question, lead, stated):
    # the comparative is the claim's direction, not a word a sentence must hold; the sentence that
    # states the rest is quoted, "Yes" only when it states the direction asked ("one-eighth of the
    # total diffusion steps" for "fewer"; "Does ME-DLM use fewer diffusion steps?" had no Yes/No)
    ans = ask(components, question)
    assert ans.lead.startswith(lead) and stated in ans.lead, ans.lead


@pytest.mark.parametrize(
    ("question", "framing"),
    [
        ("Does DGSA work on low-resource languages?", "Stated as the problem "),
        ("does CoVRL rely on verifiable rewards?", "Stated as the "),
    ],
)
def test_a_yes_no_lead_tells_the_papers_own_statement_from_its_setting_or_problem(components, question, framing):
    """A term stated only in the abstract's background or gap (the field, other work) is no plain "Yes"."""
    ans = ask(components, question)
    plan = read_question(question, components.retriever.catalogue)
    assert ans.lead.startswith(framing), ans.lead
    assert_lead_is_grounded(ans, components, frozenset(plan.polar_terms))


@pytest.mark.parametrize(
    "question",
    ["what are the drawbacks of DANCE?", "does APM have any limitations?", "What are HyperTrack's limitations?"],
)
def test_a_papers_own_limitations_are_never_its_gap(components, question):
    """Abstracts that state no limitation of their own do not answer it: refused, saying so, with the
    gap they address as the closest, never quoted as the paper's limitation."""
    ans = ask(components, question)
    assert ans.refused and not ans.citations, ans.text
    assert "does not state a limitation of its own" in ans.text, ans.text
    # the gap it addresses, when it states one (HyperTrack's states none), is the closest, said as such
    assert "closest" not in ans.text or "closest, the limitation of earlier work it addresses" in ans.text, ans.text


def test_summary_and_comparison_leads(components):
    for question in ("Summarize DANCE", "Compare DANCE and APM"):
        assert_lead_is_grounded(ask(components, question), components)


def test_every_lead_over_dev_questions_is_grounded(components):
    """Quotations of leads over a spread of dev questions (every kind) are exact abstract spans."""
    rows = [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    picked = [r for r in rows if r["kind"] != "unanswerable"][::8]
    assert len(picked) >= 12
    for r in picked:
        ans = ask(components, r["question"])
        if not ans.refused:
            plan = read_question(r["question"], components.retriever.catalogue)
            assert_lead_is_grounded(ans, components, frozenset(getattr(plan, "polar_terms", ())))


@pytest.mark.parametrize(
    ("sentence", "terms", "negated"),
    [
        (
            "FooNet not only outperforms the strong baseline BarNet but also halves memory.",
            ["outperforms", "BarNet"],
            False,
        ),
        ("It is not just faster than prior solvers, it is exact.", ["faster"], False),
        ("The method does not outperform BarNet on small graphs.", ["outperform", "BarNet"], True),
        ("We train it without any labels.", ["labels"], True),
    ],
)
def test_not_before_an_additive_word_adds_it_does_not_negate(sentence, terms, negated):
    from rag.route.lead import term_span

    span = term_span(sentence, terms)
    assert span is not None and span[3] is negated, span


@pytest.mark.parametrize(
    ("label", "question", "key"),
    [(label, "What data does {} use?", "data")
     for label in ("DANCE", "APM", "CogRouter", "EMPG", "RSAgent", "ProAct-75", "SENDAI")]
    + [("DANCE", "What problem does {} address?", "problem"), ("SENDAI", "what problem is {} solving", "problem"),
       ("EMPG", "What is the approach of {}?", "approach"), ("RSAgent", "what method does {} use?", "approach")],
)
def test_a_question_about_a_papers_role_is_answered_by_the_tables_row(components, label, question, key):
    # one route: the chat answer to "what data / problem / approach" quotes what the comparison
    # table's row quotes
    pid = next(p.id for p in components.retriever.catalogue.papers.values() if p.label == label)
    row = select_rows(components.pipeline.evidence, components.retriever.catalogue[pid]).get(key, ())
    if key == "problem":
        row = tuple(e for e in row if CONTINUES.search(e.sentence))[-1:] or row
    ans = ask(components, question.format(label))
    assert [c.paper_id for c in ans.citations] == [pid], ans.text
    if row:
        quote = _QUOTE.search(ans.lead).group(1).rstrip("…")
        assert quote in strip_markup(row[0].sentence), (ans.lead, row[0].sentence)


@pytest.fixture(scope="module")
def figured(tmp_path_factory, embedder) -> Components:
    """A real store of four ICML 2022-23 papers of the project's corpus whose figure is in one
    sentence far from the words of a question about it."""
    import gzip

    from tests.conftest import ROOT, pipeline_over

    wanted = (
        "Model soups", "Fast Inference from Transformers via Speculative Decoding", "FlexGen", "ClimaX",
        "Scaling Vision Transformers to 22 Billion Parameters",
    )
    corpus = ROOT / "benchmarks" / "corpus" / "icml_2022_2023.jsonl.gz"
    with gzip.open(corpus, "rt", encoding="utf-8") as f:
        rows = [line for line in f if json.loads(line).get("title", "").startswith(wanted)]
    assert len(rows) == len(wanted)
    path = tmp_path_factory.mktemp("figured") / "papers.jsonl"
    path.write_text("".join(rows), encoding="utf-8")
    return pipeline_over(tmp_path_factory.mktemp("figured_home"), [path], embedder)


@pytest.mark.parametrize(
    ("question", "figure"),
    [
        ("what accuracy does model soups reach?", "90.94%"),
        ("What speed-up does speculative decoding report, and on which model?", "2X-3X"),
    ],
)
def test_an_amount_asked_is_answered_by_a_sentence_with_a_figure(figured, question, figure):
    # the evidence chosen for the whole question held no figure; the lead quoted none
    ans = Conversation(figured.pipeline).ask(question).answer
    assert figure in ans.lead, ans.lead


def test_a_slot_is_answered_by_the_papers_own_figure_not_its_backgrounds(figured):
    # "the largest large language models (LLMs) contain upwards of 100B parameters" is background
    ans = Conversation(figured.pipeline).ask("What model size does ViT-22B use?").answer
    assert "22B-parameter ViT" in ans.lead and "100B" not in ans.lead, ans.lead


@pytest.mark.parametrize(
    ("sentence", "term", "stated"),
    [
        ("We learn data transformations for PDE solvers.", "transformers", False),  # a sibling of the stem
        ("A transformer-based PDE solver.", "transformers", True),
        ("We propose a new optimization method.", "optimizer", False),
        ("We distill the teacher into a student.", "distillation", True),  # the process of the same stem
    ],
)
def test_a_term_is_stated_by_words_of_its_sense_not_only_of_its_stem(sentence, term, stated):
    from rag.route.lead import term_span

    assert (term_span(sentence, [term]) is not None) is stated


@pytest.mark.parametrize(
    ("sentence", "term", "negated"),
    [
        ("It is competitive without the need for any dataset specific fine-tuning.", "fine-tuning", True),
        ("This does not require any retraining of the model.", "retraining", True),
        ("The detector is trained with no labelled fakes.", "fakes", True),
        ("We do not use any labels for the reinforcement learning stage.", "reinforcement", False),  # labels are
        # the object a negated verb takes, its article no word between ("need to train a reward model?")
        ("Our method does not require fitting a separate reward model.", "reward", True),
        ("We do not learn a separate value function.", "value", True),
        ("We do not train the encoder on the target domain.", "domain", False),  # a phrase of its own
        ("It needs no labels but fine-tuning on the target.", "fine-tuning", False),  # the clause turns
        ("We use no labels, and fine-tuning improves it.", "fine-tuning", False),  # a comma ends the reach
    ],
)
def test_a_negation_reaches_its_term_through_the_words_between(sentence, term, negated):
    from rag.route.lead import term_span

    got = term_span(sentence, [term])
    assert got is not None and got[3] is negated


def test_a_detail_of_a_paper_found_by_its_title_is_answered_by_the_clause_that_states_it(figured):
    # found by its title's words, not named: the lead quoted the name "ViT-22B" in another sentence
    # and a cited work's "4B parameters (Chen et al., 2022)" instead of the size the paper states
    title = "'Scaling Vision Transformers to 22 Billion Parameters'"
    ans = Conversation(figured.pipeline).ask(f"How many parameters does the vision transformer in {title} have?").answer
    assert "22B-parameter ViT" in ans.lead and "4B parameters" not in ans.lead, ans.lead


@pytest.mark.parametrize(
    ("sentence", "strength"),
    [
        ("We train a 22B-parameter ViT (ViT-22B).", 2),
        ("ViT-22B demonstrates the potential for scaling.", 1),  # the size is part of a name
        ("It has 1.3 billion parameters.", 2),
        ("Our 7B model wins.", 1),
    ],
)
def test_a_model_size_stated_with_its_unit_is_stronger_than_one_in_a_name(sentence, strength):
    from rag.route.slot import slot_strength
    from rag.types import Slot

    assert slot_strength(Slot("model size", form="model size", detail=True), sentence) == strength


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("Lower bounds show this is optimal, yielding an almost quadratic speedup over classical algorithms.", True),
        ("The sampler is exponentially faster than MCMC, a speedup we prove.", True),
        ("We study the speedup of quadrature rules.", False),  # no amount, in figures or words
    ],
)
def test_an_amount_in_words_states_a_measure(sentence, stated):
    from rag.route.slot import slot_span
    from rag.types import Slot

    assert (slot_span(Slot("speedup", ("speedup",), amount=True), sentence) is not None) is stated


def test_an_amount_of_memory_is_stated_by_a_figure_in_a_memory_unit(figured):
    # "running OPT-175B on a single 16GB GPU" states the memory; the sentence that says "memory"
    # ("limited GPU memory") states no amount, and the answer was a false "does not state memory"
    conv = Conversation(figured.pipeline)
    conv.ask("What does FlexGen do?")
    ans = conv.ask("how much memory does the GPU need?").answer
    assert not ans.refused and "16GB" in ans.lead, ans.text


@pytest.mark.parametrize(
    ("sentence", "stated"),
    [
        ("FlexGen runs OPT-175B on a single 16GB GPU.", True),
        ("The index needs 40 GiB of RAM.", True),
        ("GBDT models need little memory.", False),  # memory without an amount
        ("We train on 8 GPUs.", False),
    ],
)
def test_a_memory_slot_is_stated_by_its_unit(sentence, stated):
    from rag.route.slot import slot_span
    from rag.types import Slot

    assert (slot_span(Slot("memory", ("memory",), amount=True), sentence) is not None) is stated


@pytest.mark.parametrize(
    ("sentence", "terms", "stated"),
    [
        ("We evaluate on the Open Graph Benchmark Code2 dataset.", ("ogb",), True),
        ("Large Language Models are costly to serve at scale.", ("llms",), True),
        ("We evaluate on ZINC and PCQM4M graphs.", ("ogb",), False),
        ("our graph benchmark is open to all users", ("ogb",), False),  # initials of lower-case words
        ("We evaluate on the Open Graph Benchmark with transformers.", ("ogb", "transformers"), True),
    ],
)
def test_an_acronym_is_stated_by_the_words_it_stands_for(sentence, terms, stated):
    assert (states_terms(sentence, terms) is not None) == stated


# --- words of the question the abstract writes otherwise (glossary ``same`` rows) ------------------

WATERMARK = (
    "The watermark can be embedded with negligible impact on text quality, and can be detected using an "
    "efficient open-source algorithm without access to the language model API or parameters."
)


@pytest.mark.parametrize(
    ("terms", "stated"),
    [
        (("access", "model", "weights"), True),  # "parameters" names the weights
        (("weights",), True),
        (("model", "parameters"), True),  # the sentence's own word still states it
        (("gradients",), False),
    ],
)
def test_a_term_is_stated_by_a_word_the_glossary_says_names_the_same_thing(terms, stated):
    span = term_span(WATERMARK, terms)
    assert (span is not None) is stated
    if stated and "access" in terms:
        assert span[3]  # "without access to ... parameters": stated with its negation


def test_a_possessive_in_a_yes_no_question_asks_its_noun():
    from rag.question.polar import polar_terms

    assert polar_terms("need access to the model's weights") == ("access", "weights")  # "model": a generic head
    assert polar_terms("use the teacher's logits") == ("teacher", "logits")


@pytest.mark.parametrize(
    ("sentence", "code"),
    [
        (WATERMARK, True),  # "an efficient open-source algorithm"
        ("We provide an open-source toolkit for unified benchmarking of VLMs.", True),
        ("We evaluate several open-source LLMs on the benchmark.", False),  # others' models
        ("Experiments on open-source datasets show gains.", False),
    ],
)
def test_software_called_open_source_is_code_made_available(sentence, code):
    assert (availability_span(sentence, "code") is not None) is code


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "paper", "clause"),
    [
        ("Which commercial systems does the Lao speech synthesis paper beat?", "DGSA", "ElevenLabs and Gemini Pro"),
        ("Which commercial systems does the Lao TTS paper outperform?", "DGSA", "ElevenLabs and Gemini Pro"),
        ("What toolkit does the GUI navigation dataset paper release alongside it?", "HyperTrack", "GUIEvalKit"),
    ],
)
def test_what_is_asked_of_a_described_paper_leads_not_its_description(components, question, paper, clause):
    # a new user's "Which commercial systems does the Lao speech synthesis paper beat?" led with
    # "we propose two self-alignment frameworks": the describing phrase picked the sentence that
    # restates it; what is asked of the paper picks the lead
    ans = ask(components, question)
    assert not ans.refused and [c.label for c in ans.citations][:1] == [paper], ans.text
    assert clause in ans.lead, ans.lead
    assert_lead_is_grounded(ans, components)


def test_a_limitation_the_abstract_states_of_its_own_work_leads(tmp_path, embedder):
    # HyperTrack, stating neither a limitation nor a gap, was led "Limitation stated in HyperTrack:
    # This paper presents a systematic study ..."; a sentence with a limitation's cue still leads
    papers = {
        "lim#1": (
            "Sparse attention speeds up long-context transformers. We propose StrideNet, a strided attention "
            "kernel for long documents. StrideNet is 3x faster than dense attention on 64k-token inputs. "
            "However, our kernel is limited to causal decoding and does not support bidirectional encoders."
        ),
        "lim#2": "We present a systematic study of tokenizers for code models across 12 programming languages.",
    }
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("What are the limitations of StrideNet?")
    assert ans.lead.startswith("Limitation stated in **StrideNet**"), ans.lead
    assert "limited to causal decoding" in ans.lead, ans.lead



def test_an_additive_adverb_is_no_word_a_sentence_must_state():
    # "which of them quantize activations too?" found no sentence with "too" in the three listed
    # quantization papers (SmoothQuant states "8-bit activation (W8A8) quantization")
    from rag.question.polar import polar_terms

    assert polar_terms("which of them quantize activations too") == ("quantize", "activations")
    assert polar_terms("do they also release their data") == polar_terms("do they release their data")
    assert polar_terms("do they prune attention heads as well") == ("prune", "attention", "heads")


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("What is HyperTrack?", "we introduce HyperTrack, a large-scale dataset"),
        ("what's DANCE?", "we propose DANCE, a new TAG-FGL paradigm"),
    ],
)
def test_what_a_named_paper_is_is_led_by_the_sentence_that_says_it(extractive, question, lead):
    answer = extractive.ask(question)
    assert lead in answer.text.split("\n", 1)[0], answer.text


def test_a_limitation_of_the_work_a_paper_sets_itself_against_is_not_its_own(tmp_path, embedder):
    # a new user's "what is its main limitation?" of the online-routing paper quoted "Unlike widely
    # used routing heuristics that ... offer limited control over latency-throughput trade-offs":
    # the heuristics' limit, not the paper's
    from rag.evidence.rows import states_own_limitation

    papers = {
        "rt#1": (
            "Serving language models needs fast request routing. Unlike greedy routing heuristics that "
            "cannot meet latency targets and offer limited control over trade-offs, we introduce RouteLP, "
            "an online linear program for routing. RouteLP improves tail latency by 20% in simulation."
        ),
        "rt#2": (
            "We propose CacheNet, a cache policy for decoding. Compared with LRU caches limited to one worker, "
            "CacheNet shares keys across workers; however, CacheNet cannot handle more than 8 workers."
        ),
    }
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("what is the main limitation of RouteLP?")
    assert ans.refused and "The abstract of RouteLP" in ans.text, ans.text
    assert "does not state a limitation of its own" in ans.text, ans.text
    ans = p.ask("Does CacheNet have any drawbacks?")
    assert ans.lead.startswith("Limitation stated in **CacheNet**"), ans.lead
    assert "cannot handle more than 8 workers" in ans.lead, ans.lead
    assert not states_own_limitation("In contrast to prior methods that cannot scale, our method runs in linear time.")
    assert states_own_limitation("Our method cannot handle non-stationary inputs, which we leave to future work.")


def test_the_largest_model_is_answered_by_the_greatest_size_stated(tmp_path, embedder):
    # a new user's "How big is the largest Muse model?" was answered "Our 900M parameter model"
    # above "The Muse 3B parameter model achieves an FID of 7.88"
    papers = {
        "sz#1": (
            "We present PixelMask, a masked image generator. Our 350M parameter model reaches an FID of 7.1 on "
            "CC3M. The PixelMask 2B parameter model achieves an FID of 6.2 on zero-shot COCO."
        ),
        "sz#2": "We present a systematic study of tokenizers for code models across 12 programming languages.",
    }
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("How big is the largest PixelMask model?")
    assert "2B parameter model" in ans.lead and "350M" not in ans.lead, ans.lead
    ans = p.ask("How big is the PixelMask model?")  # no superlative: the first size stated, as before
    assert not ans.refused and "PixelMask" in ans.text


@pytest.mark.parametrize(
    ("sentence", "terms", "together", "option"),
    [
        ("We compare two different guidance strategies: CLIP guidance and classifier-free guidance.",
         ["clip", "guidance"], True, True),
        ("Samples using classifier-free guidance are favored, even over CLIP reranking.", ["clip", "guidance"], False,
         False),
        ("We systematically compare LoRA and full fine-tuning on six tasks.", ["lora"], True, True),
        ("We fine-tune with LoRA and compare the results to prior work.", ["lora"], True, False),
    ],
)
def test_terms_stated_as_asked_and_as_options_compared(sentence, terms, together, option):
    from rag.route.lead import compared_option, states_together

    span = term_span(sentence, terms)
    assert span is not None
    assert states_together(sentence, terms) is together
    assert compared_option(sentence, span, terms) is option


def test_the_limitations_of_a_title_not_indexed_as_a_name_are_the_papers_own(tmp_path, embedder):
    # a new user's "What are the limitations of model soups?" quoted the whole abstract: "model
    # soups" opens the paper's title but is no name the question reader knows
    papers = [
        {"id": "bs#1", "title": "Bread soups: averaging many loaves improves taste without more ovens",
         "abstract": "The usual recipe bakes many loaves and keeps the best. We show that averaging the doughs "
                     "of many loaves improves taste. Unlike a buffet, averaging costs no extra oven time. "
                     "Our bread soup reaches 91% approval in blind tests."},
        {"id": "wm#1", "title": "Sourdough starters for large bakeries",
         "abstract": "We study sourdough starters at scale. Our starter is limited to rye flour and fails "
                     "on wheat. It raises loaves 20% faster."},
    ]
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("What are the limitations of bread soups?")
    assert ans.refused and "The abstract of Bread soups" in ans.text, ans.text
    assert "does not state a limitation of its own" in ans.text, ans.text
    ans = p.ask("What limitations does the sourdough starters for large bakeries paper have?")
    assert ans.lead.startswith("Limitation stated in **"), ans.lead


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "lead"),
    [
        # "classifier-free" states the asked term; it negates no "guidance"
        ("Does GLIDE use classifier-free guidance?", "Yes: **GLIDE**"),
        ("Is classifier-free guidance used in GLIDE?", "Yes: **GLIDE**"),
        # CLIP guidance is one of the two strategies GLIDE compares, not one it is said to use
        ("Does GLIDE rely on CLIP guidance?", "**GLIDE** [1] compares it with other options"),
    ],
)
def test_a_yes_no_lead_on_a_term_written_x_free_or_among_options_compared(mixed, question, lead):
    ans = mixed.ask(question)
    assert ans.lead.startswith(lead), ans.lead


def test_a_yes_no_lead_prefers_the_papers_own_negation_to_its_problem(tmp_path, embedder):
    # "Does the Label-Free Explainability paper need labels?" quoted its problem ("In the absence of
    # labels, ...") before its own "label-free feature importance"
    papers = [
        {"id": "lf#1", "title": "LabelLess: explaining unsupervised models",
         "abstract": "Unsupervised models are hard to interpret. In the absence of labels, their outputs "
                     "are vectors whose components mean nothing. We introduce LabelLess, a label-free "
                     "feature importance for black-box encoders."},
        {"id": "gr#1", "title": "Graph models for molecules",
         "abstract": "We study graph neural networks for molecules and report gains on ten benchmarks."},
    ]
    p = pipeline_of(tmp_path, papers, embedder)
    ans = p.ask("Does LabelLess need labels?")
    assert ans.lead.startswith("No: **LabelLess**"), ans.lead  # "label-free" denies labels themselves
    assert "label-free feature importance" in ans.lead, ans.lead


def _table_senses(table: dict[str, set[str]]):
    """A hand-written :data:`rag.evidence.senses.Senses`: the words of ``table[term]`` state ``term``."""

    def senses(term: str, sentence: str) -> list[tuple[int, int]]:
        words = table.get(term, set())
        return [(m.start(), m.end()) for m in re.finditer(r"[A-Za-z]+", sentence) if m.group(0).lower() in words]

    return senses


@pytest.mark.parametrize(
    ("sentence", "terms", "negated"),
    [
        # a negated paraphrase of the asked verb is a "no" with its clause
        ("The adapter is trained on top of a frozen encoder without altering the pretrained weights.",
         ["change", "pretrained", "weights"], True),
        ("Our sampler matches the target law exactly and never modifies the outputs.", ["change", "outputs"], True),
        ("The scheduler trims idle time, shortening queue delays by 30%.", ["decrease", "queue", "delays"], False),
    ],
)
def test_a_term_stated_in_other_words_beside_the_other_terms_is_stated(sentence, terms, negated):
    senses = _table_senses({"change": {"altering", "modifies"}, "decrease": {"shortening"}})
    assert term_span(sentence, terms) is None  # by the words alone, not stated
    span = term_span(sentence, terms, senses)
    assert span is not None and span[3] is negated


@pytest.mark.parametrize(
    ("sentence", "terms"),
    [
        # the other asked term is a dozen words away: "altering" says nothing of the architecture
        ("We scale to larger architectures on embedded devices while saving energy and never altering the loss.",
         ["change", "architectures"]),
        # across a clause break
        ("Architectures stay fixed; altering the schedule alone suffices.", ["change", "architectures"]),
        # a question of one term: a word near it in sense is no evidence of what it was asked of
        ("We train the model without altering backpropagation.", ["change"]),
    ],
)
def test_a_word_in_other_words_far_from_the_other_terms_or_alone_states_nothing(sentence, terms):
    assert term_span(sentence, terms, _table_senses({"change": {"altering"}})) is None


def test_a_contrast_word_that_states_the_asked_verb_is_no_contrast():
    # "Does it drop manual labelling?": "bypassing" is a contrast word, and here it is the very
    # thing asked, stated in other words
    sentence = "The pipeline labels scans automatically, bypassing manual labelling entirely."
    terms = ["drop", "manual", "labelling"]
    senses = _table_senses({"drop": {"bypassing"}})
    span = term_span(sentence, terms, senses)
    assert span is not None and not span[3]
    assert not contrasted(sentence, span, terms, senses)
    assert contrasted(sentence, span, ["manual", "labelling"])  # asked without the verb: set aside, as before


@pytest.mark.parametrize(
    ("sentence", "terms", "negated", "denied"),
    [
        # a negation reaches each item of a list joined by "or"/"and"/"nor", and denies it
        ("Our sampler speeds up existing decoders without retraining or architecture changes.",
         ["architecture", "changes"], True, True),
        ("We beat the prior art on Atari without any data augmentation or auxiliary losses.",
         ["auxiliary", "losses"], True, True),
        ("The detector runs without access to the language model API or parameters.", ["parameters"], True, True),
        ("It trains a ViT without warmup, weight decay, layer normalization or adaptive optimizers.",
         ["weight", "decay"], True, True),
        ("It trains a ViT without warmup, weight decay, layer normalization or adaptive optimizers.",
         ["layer", "normalization"], True, True),
        ("The debiaser operates without explicitly exploiting bias labels and bias-free samples.",
         ["bias-free", "samples"], True, True),
        ("Ensembles are averaged without incurring any additional inference or memory costs.",
         ["memory", "costs"], True, True),
        ("It gives exact inferences without multiple data splits nor conservative adjustments.",
         ["conservative", "adjustments"], True, True),
        # a verb that keeps its object opens the list: the items are not denied
        ("It halves latency without sacrificing accuracy or robustness.", ["robustness"], True, False),
        # a joiner that opens a clause or phrase of its own ends the reach
        ("We propose a sampler without labels and we train it with reinforcement learning.",
         ["reinforcement", "learning"], False, False),
        ("The model is trained without supervision and evaluated on ImageNet.", ["imagenet"], False, False),
        ("We train without labels or rewards, and use a large transformer.", ["transformer"], False, False),
        ("It scales to video without cascades or guidance.", ["video"], False, False),
        # a verb with its object joined after the list joins the verb before it, not the list ...
        ("The estimator does not require importance weights and samples only one trajectory.",
         ["samples"], False, False),
        ("It tunes ridge ensembles without sample splitting and yields a predictor of optimal risk.",
         ["yields"], False, False),
        # ... unless the list is of verbs: after "to", of gerunds, right after "not"
        ("It edits images without the need to fine-tune or invert the model.", ["invert"], True, True),
        ("It edits images without theneed to fine-tune or invert the model.", ["invert"], True, True),
        ("It learns new tasks without storing or replaying any past experience.", ["replaying"], True, True),
    ],
)
def test_a_negation_reaches_each_item_of_a_joined_list(sentence, terms, negated, denied):
    # "does it need the model parameters to detect the watermark?" was "Yes" for "without access to
    # the language model API or parameters"; "Does A-LIX rely on auxiliary losses?" was "Yes"
    span = term_span(sentence, terms)
    assert span is not None and span[3] is negated
    assert denies_directly(sentence, span, terms) is denied


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        # a yes/no question of the one paper a description finds gets its verdict, as a named one does
        ("Does the document VLM distillation paper need detection at inference?", "No: **DocVAL**"),
        ("Does the quantum nested expectations paper give a quadratic speedup?", "Yes: "),
    ],
)
def test_a_yes_no_question_of_a_described_paper_is_answered_yes_or_no(components, question, lead):
    # "Does the input perturbation paper reduce training time?" quoted a sentence with no verdict
    ans = ask(components, question)
    assert ans.lead.startswith(lead), ans.text


# --- a comparison's object, and the paper's own comparison ---------------------------------------


@pytest.mark.parametrize(
    ("sentence", "terms", "named"),
    [
        ("Our sampler draws images 3x faster than DDIM on ImageNet.", ("ddim",), True),
        ("It reduces decoding latency compared with vLLM on every trace.", ("vllm",), True),
        ("SwiftNet consistently outperforms strong convolutional baselines.", ("convolutional", "baselines"), True),
        # the asked term is the subject, not what the sentence compares against
        ("We build a compact graph transformer that is faster than previous models.", ("transformer",), False),
        ("vLLM is widely deployed, and our server is cheaper than prior systems.", ("vllm",), False),
    ],
)
def test_a_comparison_names_its_object_after_a_word_of_comparison(sentence, terms, named):
    assert names_object(sentence, terms) is named


@pytest.mark.parametrize(
    ("sentence", "comparative", "clause"),
    [
        ("Empirically, SwiftNet trains 2.5x faster, while scaling to 10,000 nodes.", "faster",
         "SwiftNet trains 2.5x faster"),
        ("In experiments, our cache cuts memory by 60% on long prompts.", "less",
         "our cache cuts memory by 60% on long prompts"),
        ("The sampler is simple and converges on every benchmark.", "faster", None),
    ],
)
def test_the_clause_of_a_papers_own_comparison(sentence, comparative, clause):
    got = comparing_clause(sentence, comparative)
    assert (got and sentence[got[0] : got[1]]) == clause


def _source(text: str) -> tuple[Source, Callable[[Evidence], list[Sentence]]]:
    paper = make_paper("p", text)
    sentences = split_sentences(paper.abstract)
    evidence = [Evidence("p", x.text, x.start, x.end, 1.0 - i / 10) for i, x in enumerate(sentences)]
    return Source(1, PaperHit(paper, 1.0), evidence), lambda e: sentences


SWIFT = (
    "Message-passing networks such as GraphSAGE dominate node classification. "
    "We introduce SwiftNet, a sparse graph network that is more accurate than previous models while training 3x "
    "faster. SwiftNet is evaluated on twelve citation graphs."
)


def _move(e: Evidence) -> str:
    return "background" if e.start == 0 else "method"


def test_a_yes_no_comparison_is_answered_by_the_papers_own_comparison_and_says_its_object_otherwise():
    # "Is Hiera faster than ViT?" answered "Yes" with "more accurate than previous models while
    # being significantly faster": previous models, not ViT; "Is APM faster than dual-trajectory
    # matching?" with the background sentence that existing methods use it
    s, sentences = _source(SWIFT)
    lead = _polar(s, ("graphsage",), sentences, _move, compared=True, comparative="faster")
    assert lead.startswith("Yes, though not against GraphSAGE by name: ") and "training 3x" in lead, lead
    # ... which does not answer the comparison asked: the abstract does not state it (refused, with
    # the paper's own comparison as the closest), as "Is StyleGAN-T better than Stable Diffusion?"
    s, sentences = _source(SWIFT)
    verdict = polar_verdict(s, ("graphsage",), sentences, _move, compared=True, comparative="faster")
    assert not verdict.stated and "sets it against GraphSAGE" in verdict.unstated, verdict
    # the object named after the comparison: a plain yes
    s, sentences = _source(SWIFT)
    lead = _polar(s, ("previous", "models"), sentences, _move, compared=True, comparative="faster")
    assert lead.startswith("Yes: ") and "than previous models" in lead, lead
    # a sentence that compares with no word of comparison leaves its object to its words: a plain yes
    s, sentences = _source(
        "Dense transformers dominate retrieval. We propose SlimRank, a sparse ranker. SlimRank trains 4x faster "
        "using a third of the compute of dense transformers."
    )
    lead = _polar(s, ("dense", "transformers"), sentences, _move, compared=True, comparative="faster")
    assert lead.startswith("Yes: ") and "4x faster" in lead, lead
    # a bare "more" ("more accurate than GraphSAGE?") is no direction of its own: as before
    s, sentences = _source(SWIFT)
    lead = _polar(s, ("accurate", "graphsage"), sentences, _move, compared=True, comparative="more")
    assert not lead.startswith("Yes, though"), lead
    # no own comparison in the direction asked: as before, the sentence for the reader to judge
    s, sentences = _source(SWIFT)
    lead = _polar(s, ("graphsage",), sentences, _move, compared=True, comparative="cheaper")
    assert not lead.startswith("Yes"), lead


def test_a_yes_no_comparison_of_a_quantity_is_answered_only_by_a_sentence_that_states_it():
    # "Does FOAM use less memory than Shampoo?" was "Yes, though not against memory Shampoo by name"
    # with "FOAM reduces wall-clock time compared to standard Shampoo" (nu62): time, not memory
    text = ("Shampoo is a strong optimizer. We propose LeanShampoo, which reduces wall-clock time compared to "
            "standard Shampoo. LeanShampoo matches its accuracy.")
    s, sentences = _source(text)
    lead = _polar(s, ("memory", "shampoo"), sentences, _move, compared=True, comparative="less")
    assert not lead.startswith("Yes"), lead
    s, sentences = _source(text)  # the quantity the sentence does compare
    lead = _polar(s, ("time", "shampoo"), sentences, _move, compared=True, comparative="less")
    assert lead.startswith("Yes"), lead
    # the object in common words may go unnamed; the quantity asked is stated
    s, sentences = _source("Bi-level methods store long trajectories. We propose Flat, which stores two matrices, "
                           "reducing memory consumption.")
    lead = _polar(s, ("memory", "bi-level"), sentences, _move, compared=True, comparative="less")
    assert lead.startswith("Yes"), lead


def _unknown_move(e: Evidence) -> str:
    return "unknown"


@pytest.mark.parametrize(
    ("abstract", "terms", "lead"),
    [
        # the field's sentence states the terms plainly, the paper's own negates them: its own decides
        # (nu59: "Does the GRIT graph transformer use message passing?" was "Yes" with "Graph
        # Transformers that use message-passing inherit known issues")
        ("Retrievers that use re-ranking are slow on long queues. Other retrievers lose accuracy on small data. "
         "To bridge this gap, we present OneRank, a retriever that ranks in a single pass without re-ranking.",
         ("re-ranking",), "No: **OneRank**"),
        ("Samplers that rely on Metropolis corrections waste compute on rejections. Uncorrected ones drift. "
         "We design DriftFree, a sampler that stays exact and does not rely on Metropolis corrections at all.",
         ("metropolis", "corrections"), "No: **DriftFree**"),
        # the own sentence affirms: yes, with it
        ("Retrievers without re-ranking are fast but coarse. Heavier pipelines cost more. "
         "We present TwoRank, a retriever that adds a light re-ranking stage.", ("re-ranking",), "Yes: **TwoRank**"),
        # a result after the paper's own first sentence is its own, "we" or not (GLIDE's "Samples from a
        # 3.5 billion parameter text-conditional diffusion model using classifier-free guidance ...")
        ("Guidance trades diversity for fidelity. We present TriGuide and compare two strategies: norm guidance and "
         "score guidance. Samples from the large model using score guidance are preferred by raters.",
         ("score", "guidance"), "Yes: **TriGuide**"),
    ],
)
def test_a_yes_no_lead_takes_the_papers_own_sentence_over_the_fields_where_moves_are_unknown(abstract, terms, lead):
    label = lead.split("**")[1]
    paper = make_paper("p", abstract, title=f"{label}: a method")
    sentences = split_sentences(paper.abstract)
    evidence = [Evidence("p", x.text, x.start, x.end, 1.0 - i / 10) for i, x in enumerate(sentences)]
    s = Source(1, PaperHit(paper, 1.0), evidence)
    got = _polar(s, terms, lambda e: sentences, _unknown_move)
    assert got.startswith(lead), got


ROUTER = (
    "Serving large models under load is hard. We propose FlowRoute, a router that assigns requests to workers "
    "by their shadow prices. In a cluster simulator, FlowRoute cuts tail latency against standard baselines."
)


@pytest.mark.parametrize(
    ("question", "rows", "halves"),
    [
        # each half answered by its row: what it proposes, and how it is evaluated (the data row,
        # else its results)
        ("What does FlowRoute propose and how is it evaluated?", {"approach": 1, "results": 2},
         ["a router that assigns", "FlowRoute cuts tail latency"]),
        ("how is FlowRoute evaluated, and what does it propose?", {"approach": 1, "data": 2},
         ["FlowRoute cuts tail latency", "a router that assigns"]),
        # no sentence for the evaluation: said so, not left to the evidence list
        ("What does the request routing paper propose, and how is it evaluated?", {"approach": 1},
         ["a router that assigns", "its abstract does not state what it is evaluated on"]),
    ],
)
def test_a_question_in_two_generic_halves_is_answered_half_by_half(question, rows, halves):
    # "What does the LLM routing paper propose and how is it evaluated?" led with one result sentence
    paper = make_paper("route", ROUTER)
    plan = Reader(Catalogue([paper])).read(question)
    sentences = split_sentences(paper.abstract)
    evidence = [Evidence("route", x.text, x.start, x.end, 0.5) for x in sentences]
    s = Source(1, PaperHit(paper, 1.0), list(evidence))
    lead = lead_line(
        plan, [s], listing=False, named=True, matched=1, rank=lambda ask, src: list(src.evidence),
        role_row=lambda src, key: evidence[rows[key]] if key in rows else None,
    )
    at = [lead.find(h) for h in halves]
    assert all(i >= 0 for i in at) and at == sorted(at), lead


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        ("Unlike schedulers that ignore deadlines and offer little control, we present DeadlineQ, a queue that "
         "admits jobs by their slack.", "we present DeadlineQ, a queue that admits jobs by their slack"),
        ("To this end, we propose SlimRank, a sparse ranker.", "we propose SlimRank, a sparse ranker"),
        # no clause of the authors' own: the key clause as before
        ("Sparse rankers are fast, and they scale.", "Sparse rankers are fast, and they scale"),
    ],
)
def test_what_a_paper_proposes_is_quoted_from_its_own_clause(sentence, clause):
    a, b, _ = own_clause(sentence)
    assert sentence[a:b] == clause


def test_a_part_that_finds_the_paper_is_answered_by_its_own_work_not_its_background():
    # "Which paper builds a foundation model for weather and climate, and what data does it pretrain
    # on?" quoted ClimaX's background on other networks ("these networks are trained using curated
    # and homogeneous climate datasets") for the first part
    abstract = (
        "Existing flood forecasters are trained on single river basins and lack generality across regions. "
        "We develop Heron, a general flood forecasting model for rivers across regions. "
        "Heron is trained on gauge records from GRDC."
    )
    paper = make_paper("heron", abstract, title="Heron: flood forecasting across regions")
    plan = Reader(Catalogue([paper])).read("Which paper builds a general flood forecasting model for rivers across "
                                           "regions, and what data is it trained on?")
    sentences = split_sentences(paper.abstract)
    # the background sentence ranked first, as its words are nearest to the question
    evidence = [Evidence("heron", x.text, x.start, x.end, 0.9 - 0.1 * i) for i, x in enumerate(sentences)]
    s = Source(1, PaperHit(paper, 1.0), list(evidence))
    moves = {sentences[0].start: "gap"}
    lead = lead_line(
        plan, [s], listing=False, named=False, matched=1, rank=lambda ask, src: list(src.evidence),
        move=lambda e: moves.get(e.start, "contribution"),
    )
    assert "“We develop Heron" in lead and "Existing flood forecasters" not in lead, lead


# --- a yes/no question answered by the contrary of what it asks (h57a) --------------------------


@pytest.mark.parametrize(
    ("term", "contrary", "opposed"),
    [
        ("multiple", "single", True),   # vocabulary: counts
        ("several", "sole", True),
        ("four", "single", True),
        ("finetuning", "frozen", True),  # a model kept as it is against tuning it
        ("re-trained", "training-free", True),
        ("static", "adaptively", True),
        ("decentralised", "centralized", True),
        ("supervised", "unsupervised", True),  # the word's own form: a negating prefix
        ("non-parametric", "parametric", True),
        ("linear", "nonlinear", True),
        ("task-agnostic", "task-specific", True),  # a hyphenated word's last part
        ("data-dependent", "data-independent", True),
        ("model-based", "model-free", True),
        ("multiple", "several", False),  # one sense, no contrary
        ("less", "unless", False),  # "un" + "less": no word of a contrary class, and "less" is a comparative
        ("code", "decode", False),  # "de" is no negating prefix
        ("training", "frozen", False),  # training data says nothing of a frozen model
    ],
)
def test_the_contrary_of_a_word_comes_from_its_class_or_its_form(term, contrary, opposed):
    from rag.lexicon import term_key
    from rag.question.polar import contrary_keys

    assert (term_key(contrary) in contrary_keys(term)) is opposed


def test_the_words_of_one_class_state_each_other_and_a_repeated_word_has_its_base():
    from rag.lexicon import term_key
    from rag.question.polar import prefixed_base, sense_keys

    assert term_key("single") in sense_keys("one") and term_key("multiple") in sense_keys("numerous")
    assert term_key("multiple") not in sense_keys("two")  # a count is one of many, not "multiple" itself
    assert prefixed_base("retraining") == "training" and prefixed_base("re-rank") == "rank"
    assert prefixed_base("reuse") == "" and prefixed_base("reason") == ""


@pytest.mark.parametrize(
    ("aspect", "terms", "compounds"),
    [
        ("keep difficult examples", ("difficult", "examples"), (("difficult", "examples"),)),
        ("use noisy labels during the second stage", ("noisy", "labels", "second", "stage"),
         (("noisy", "labels"), ("second", "stage"))),
        ("distill the teacher", ("distill", "teacher"), ()),  # "the" between: no phrase
        ("need labeled data", ("labeled",), ()),  # a generic head a term implies stays implied
        ("use a single model", ("single", "model"), (("single", "model"),)),  # ... unless a count says how many
        ("train on two GPUs", ("two", "gpus"), (("two", "gpus"),)),  # a count word is a term
        ("use one of the encoders", ("encoders",), ()),
        ("retrain the model", ("retrain",), ()),  # a verb of a contrary class keeps no head after "the"
    ],
)
def test_a_yes_no_question_asks_the_phrases_it_writes_side_by_side(aspect, terms, compounds):
    from rag.question.polar import polar_compounds, polar_terms

    assert polar_terms(aspect) == terms
    assert polar_compounds(aspect) == compounds


@pytest.mark.parametrize(
    ("sentence", "compound", "stated"),
    [
        ("We drop easy examples and keep the difficult examples for training.", ("difficult", "examples"), True),
        ("We keep examples that are difficult to classify.", ("difficult", "examples"), True),
        ("Although scheduling is NP-hard, a greedy solution based on sample-wise gains works.", ("hard", "samples"),
         False),
        ("The task is hard, and our samples come from two sources.", ("hard", "samples"), False),
        # a short name in brackets stands in the place of the phrase it names: "Does Hiera use MAE
        # pretraining?" was "not stated" beside "By pretraining with a strong visual pretext task (MAE)"
        ("By pretraining with a strong denoising task (DAE), we keep accuracy.", ("dae", "pretraining"), True),
        ("We pretrain the encoder, and a separate decoder (DAE) is added later.", ("dae", "pretrain"), False),
    ],
)
def test_a_phrase_is_stated_only_with_its_words_near_each_other(sentence, compound, stated):
    span = term_span(sentence, list(compound))
    assert span is not None
    assert states_compound(sentence, span, compound) is stated


@pytest.mark.parametrize(
    ("sentence", "terms", "compounds", "word"),
    [
        ("We serve a 30B model on one commodity machine with a single 24GB accelerator.", ("multiple", "accelerators"),
         (("multiple", "accelerators"),), "single"),
        ("Our probe reads a frozen encoder and trains only a linear head.", ("finetune", "encoder"), (), "frozen"),
        ("It is a tuning-free schedule that needs no grid search.", ("retuning",), (), "tuning-free"),
        ("The controller acts online as requests arrive.", ("offline", "controller"), (), "online"),
        ("We propose a model-free policy search for robots.", ("model-based",), (), "model-free"),
        ("Our pruning requires no additional training after compression.", ("retraining",), (), "training"),
        ("Annotators label only a small unlabeled pool.", ("labeled", "pool"), (("labeled", "pool"),), "unlabeled"),
        # no contrary beside the asked noun, or a contrary negated, set against the paper or not asked
        ("We present a single framework that also runs on GPUs of any size.", ("multiple", "gpus"),
         (("multiple", "gpus"),), None),
        ("It does not use a single GPU but many.", ("multiple", "gpus"), (("multiple", "gpus"),), None),
        ("Unlike frozen encoders, our encoder is tuned.", ("finetune", "encoder"), (), None),
        ("We train the model on ImageNet.", ("retraining",), (), None),
        ("The frozen lake dataset is new.", ("training",), (), None),
    ],
)
def test_a_sentence_states_the_contrary_of_an_asked_term_in_its_place(sentence, terms, compounds, word):
    found = contrary_span(sentence, terms, compounds)
    assert (found and found[2]) == word, found
    if found:
        a, b = found[0][:2]
        assert word in sentence[a:b]


TINY = (
    "Serving large models usually needs multiple accelerators. "
    "We present TinyServe, which serves a 30B model on a single commodity GPU. "
    "TinyServe is a training-free system and keeps the model frozen. "
    "Experiments on three benchmarks show 3x higher throughput."
)


def test_a_yes_no_question_is_answered_no_by_the_papers_own_contrary():
    # "Does FlexGen need multiple GPUs?" said "no one sentence mentions multiple and gpus together"
    # while quoting "on a single 16GB GPU"; "Does SmoothQuant require retraining?" said "no sentence
    # mentions retraining" beside "a training-free ... quantization solution"
    s, sentences = _source(TINY)
    lead = _polar(s, ("multiple", "gpus"), sentences, _move, compounds=(("multiple", "gpus"),))
    assert lead.startswith("No: ") and "on a single commodity GPU" in lead and "(“single”, not “multiple”)" in lead
    s, sentences = _source(TINY)
    lead = _polar(s, ("fine-tune", "model"), sentences, _move)
    assert lead.startswith("No: ") and "“frozen”" in lead, lead
    s, sentences = _source(TINY)
    lead = _polar(s, ("retraining",), sentences, _move)
    assert lead.startswith("No: ") and "training-free" in lead, lead
    # asked as an absence ("does it work without retraining?"): yes
    s, sentences = _source(TINY)
    lead = _polar(s, ("retraining",), sentences, _move, absent=True)
    assert lead.startswith("Yes: ") and "training-free" in lead, lead
    # the contrary only in the background ("usually needs multiple accelerators") answers no "no"
    s, sentences = _source(TINY)
    lead = _polar(s, ("single", "accelerators"), sentences, _move, compounds=(("single", "accelerators"),))
    assert not lead.startswith("No"), lead
    # nothing stated either way: not stated
    s, sentences = _source(TINY)
    lead = _polar(s, ("multiple", "nodes"), sentences, _move, compounds=(("multiple", "nodes"),))
    assert "does not state this" in lead, lead


def test_a_yes_no_verdict_says_whether_any_sentence_bears_on_what_is_asked():
    # the answer pipeline refuses a yes/no question of one paper whose verdict is not stated
    # ("does Muse use classifier-free guidance?"), as it refuses a term no abstract mentions
    from rag.route.lead import polar_verdict

    cases = [
        (("quantization",), "", False, "no sentence mentions quantization"),  # a term the abstract lacks
        (("code",), "code", False, "no sentence makes its code available"),  # an artifact never released
        (("multiple", "nodes"), "", False, "nodes"),  # "multiple" stated, "nodes" nowhere
        (("single", "gpu"), "", True, ""),  # yes
        (("multiple", "gpus"), "", True, ""),  # no, by its contrary ("a single commodity GPU")
        (("frozen",), "", True, ""),  # yes, as stated
    ]
    for terms, available, stated, what in cases:
        s, sentences = _source(TINY)
        phrases = (terms,) if len(terms) > 1 else ()
        got = polar_verdict(s, terms, sentences, _move, available=available, compounds=phrases)
        assert got.stated is stated and what in got.unstated, (terms, got)
        assert got.stated or got.text.startswith("The abstract of ") and "does not state this" in got.text


def test_the_asked_words_stated_by_the_papers_own_work_come_before_a_contrary():
    s, sentences = _source(
        "Training large models is costly. We shard training across multiple GPUs, while inference runs on "
        "a single GPU. Our method halves the cost."
    )
    lead = _polar(s, ("multiple", "gpus"), sentences, _move, compounds=(("multiple", "gpus"),))
    assert lead.startswith("Yes: ") and "across multiple GPUs" in lead, lead


def test_a_phrase_stated_only_apart_is_said_unstated():
    # "Does the graph pruning paper keep hard samples?" answered "Yes" from "Although MWCP is
    # NP-hard, its structure admits a principled greedy solution based on sample-wise marginal gains"
    s, sentences = _source(
        "Dataset pruning is expensive. We cast selection as a covering problem. Although covering is NP-hard, "
        "a greedy rule based on sample-wise scores is near-optimal."
    )
    lead = _polar(s, ("hard", "samples"), sentences, _move, compounds=(("hard", "samples"),))
    assert lead.startswith("The abstract of ") and "“hard samples” with its words together" in lead, lead


@pytest.mark.parametrize(
    ("sentence", "negated"),
    [
        ("We set a record for dense-attention-free models on text.", False),  # it states "attention-free"
        ("Our method is not attention-free: it keeps two attention layers.", True),
    ],
)
def test_an_asked_x_free_word_is_stated_by_a_longer_x_free_word(sentence, negated):
    span = term_span(sentence, ["attention-free"])
    assert span is not None and span[3] is negated


@pytest.mark.parametrize(
    ("question", "artifact"),
    [
        ("Does DANCE handle requests online?", ""),  # "online" closes a predicate of its own
        ("Does APM process graphs public?", ""),
        ("Is the APM code online?", "code"),
        ("are the DANCE weights public", "models"),
    ],
)
def test_a_closing_word_of_availability_asks_it_only_of_an_artifact(cat, question, artifact):
    plan = read_question(question, cat)
    assert plan.polar and plan.polar_available == artifact


@pytest.mark.parametrize(
    ("sentence", "terms", "against"),
    [
        # "Does the black-box tuning paper use gradients?" was "Yes" from "In such a scenario, which we
        # call LMaaS, the gradients of PTMs are usually unavailable"
        ("In this setting, the logits of hosted models are often unavailable to users.", ["logits"], True),
        ("Exact labels remain prohibitive to collect.", ["labels"], True),
        ("We compute gradients that are exact.", ["gradients"], False),
        ("The labels are available, and pruning is impractical.", ["labels"], False),  # another clause's subject
    ],
)
def test_a_term_whose_predicate_denies_it_is_set_against_the_paper(sentence, terms, against):
    span = term_span(sentence, terms)
    assert span is not None and contrasted(sentence, span, terms) is against


@pytest.mark.parametrize(
    ("text", "terms", "counted"),
    [
        ("They support fast one-step generation by design", ("sampling", "steps"), True),
        ("a single-stage detector runs in real time", ("stages",), True),
        ("we train a 3-layer probe", ("layers",), True),
        ("it allows multi-step sampling", ("steps",), False),  # no number
        ("fine-tuning Flan-T5 models", ("t5",), False),  # a number inside a name
        ("a two-stage pipeline", ("steps",), False),  # another unit
    ],
)
def test_a_number_joined_to_the_unit_asked_counts_it(text, terms, counted):
    # "How many steps does consistency model sampling take?": the lead left the clause "existing
    # one-step" for a clause of other figures ("ImageNet 64x64 and LSUN 256x256")
    assert counts_joined(text, terms) is counted


def test_a_choice_between_the_paper_and_another_option_names_the_one_its_sentence_says():
    # "Which is faster, consistency models or diffusion models?" quoted a sentence with no verdict
    s, sentences = _source(SWIFT)
    lead = _polar(s, ("previous", "models"), sentences, _move, compared=True, comparative="faster",
                  choice="previous models")
    assert lead.startswith("**SwiftNet** [1] is faster, by the abstract: ") and "than previous models" in lead, lead
    s, sentences = _source(
        "We propose SlowNet, a dense graph network. SlowNet is slower than GraphSAGE but more stable on small graphs."
    )
    lead = _polar(s, ("graphsage",), sentences, _move, compared=True, comparative="faster", choice="GraphSAGE")
    assert lead.startswith("GraphSAGE (not **SlowNet** [1]) is faster, by the abstract: "), lead


# --- a yes/no question: a direct denial against a mention (m63) -------------------------------------

RANKER = (
    "Judging encoders without labels is hard for practitioners. "
    "We present ProbeRank, a criterion that ranks encoders, even on new datasets, without requiring any annotations. "
    "We show that ProbeRank selects hyperparameters as well as a selection method that involves "
    "a dataset's annotations. "
    "We hope ProbeRank helps fields that do not have the means to rely on annotations for model selection."
)


def test_the_papers_own_denial_answers_a_yes_no_question_before_a_mention_of_the_term():
    # "Does RankMe need labels?" was answered "Yes" with "... domains that do not have the
    # opportunity to rely on labels", then with "the current selection method that involve a
    # dataset's labels"; its abstract says "without requiring any labels"
    s, sentences = _source(RANKER)
    lead = _polar(s, ("annotations",), sentences, lambda e: "contribution")
    assert lead.startswith("No: ") and "without requiring any annotations" in lead, lead


def test_a_term_after_a_negation_beyond_its_reach_is_no_plain_yes():
    s, sentences = _source("We hope ProbeRank helps fields that do not have the means to rely on annotations at all.")
    lead = _polar(s, ("annotations",), sentences, lambda e: "contribution")
    assert lead.startswith("Stated with a negation in "), lead
    # a negation in another clause does not reach it
    s, sentences = _source("ProbeRank does not overfit, and it relies on annotations for model selection.")
    lead = _polar(s, ("annotations",), sentences, lambda e: "contribution")
    assert lead.startswith("Yes: "), lead
    # an "X-free" word negates its first part only: "classifier-free guidance" is guidance
    s, sentences = _source("ProbeRank samples images with classifier-free guidance at every step.")
    lead = _polar(s, ("guidance",), sentences, lambda e: "contribution")
    assert lead.startswith("Yes: "), lead


@pytest.mark.parametrize(
    ("text", "stated"),
    [
        ("After merely one GPU day of fully automatic design, it finds backbones.", True),
        ("It trains in two weeks on 8 GPUs.", True),
        ("Pruning takes under 4.5 hours.", True),
        ("A 4-hour window is used.", False),
        ("Someone sampled one of the days.", False),
    ],
)
def test_a_duration_is_stated_by_a_figure_or_a_number_word_in_a_unit_of_time(text, stated):
    # "How long does MAE-DET's search take?": "one GPU day" states a duration as "21 GPU-hours" does
    from rag.route.slot import DURATION_AMOUNT

    assert (DURATION_AMOUNT.search(text) is not None) is stated


def test_a_detail_stated_only_of_prior_work_is_said_to_be_theirs():
    # "How long does MAE-DET's search take?" quoted "existing NAS methods for object detection
    # require hundreds to thousands of GPU hours of searching" as MAE-DET's answer
    from rag.question.plan import Ask
    from rag.route.lead import _slot_line
    from rag.types import Slot

    s, _ = _source(
        "Existing search methods require thousands of GPU hours of searching. We propose QuickNAS, a search method."
    )
    first = s.evidence[0]
    ask = Ask("how long does the search take", slot=Slot("search", ("search",), amount=True))
    line = _slot_line(s, lambda a, src: (first, (0, len(first.sentence), False)), ask)
    assert "states it only of prior work: " in line, line


def test_a_comparative_of_quality_is_answered_by_the_papers_own_outdoing_when_no_sentence_writes_it():
    # "Is HieRD more accurate than its baselines?" was refused ("no sentence mentions accurate")
    # beside "HieRD consistently outperforms strong baselines" (h63b): "more effective" asks a better
    # result (vocabulary better_quality): with no sentence writing the adjective, read "better"
    from rag.question.polar import unqualified

    assert unqualified(("effective", "baselines")) == ("baselines",)
    assert unqualified(("robust", "baselines")) == ("robust", "baselines")  # a property, not a result
    text = ("Link prediction is hard on sparse graphs. We propose LinkGraph, a contrastive link predictor. "
            "LinkGraph consistently outperforms strong baselines on five benchmarks.")
    s, sentences = _source(text)
    lead = _polar(s, ("effective", "baselines"), sentences, _move, compared=True, comparative="more")
    assert lead.startswith("Yes: ") and "outperforms strong baselines" in lead, lead
    # a sentence that writes the adjective is still the one quoted
    s, sentences = _source(text + " LinkGraph is more effective than the baselines by 2 points.")
    lead = _polar(s, ("effective", "baselines"), sentences, _move, compared=True, comparative="more")
    assert "by 2 points" in lead, lead
    # a property asked ("more robust") is not stated by outdoing: as before, not stated
    s, sentences = _source(text)
    lead = _polar(s, ("robust", "baselines"), sentences, _move, compared=True, comparative="more")
    assert not lead.startswith("Yes"), lead


def test_a_yes_no_question_after_a_name_asks_no_data_slot():
    # "Cramming: does it train on a single GPU?" was refused as "does not state the data it is
    # evaluated on" ("train on" asks the data role): a yes/no question names what it asks
    from rag.question.polar import polar_after_name
    from store.papers import make_paper
    from tests.test_decisions import PAPERS, Seams

    assert polar_after_name("FlexGen: does it run on one GPU?") and polar_after_name("is it trained on TPUs?")
    assert not polar_after_name("FlexGen: which GPU?") and not polar_after_name("Note: FlexGen GPU")
    quick = make_paper("qn", "We propose QuickNet, a small language model trained on a single GPU in one day. "
                       "QuickNet is evaluated on GLUE.", title="QuickNet: Small Models Fast")
    seams = Seams([*PAPERS, quick])
    for question in ("QuickNet: is it trained on a single GPU?", "is QuickNet trained on one GPU?"):
        slot = seams.plan(question).ask.slot
        assert slot is None or slot.form != "data", (question, slot)
    assert seams.plan("QuickNet: what benchmarks?").ask.slot.form == "data"


def test_a_negation_that_reaches_the_questions_relating_verb_answers_no():
    # "Does DetectGPT need to train a classifier?": the verb "train" relates paper and thing, and is
    # no term; "does not require training a separate classifier" denies what is asked all the same
    s, sentences = _source(
        "Zero-shot detectors are rare. We propose ProbeNet, a zero-shot detector. ProbeNet does not require "
        "fitting a dedicated regressor to any labelled pairs."
    )
    lead = _polar(s, ("regressor",), sentences, _move, relating=("need", "fit"))
    assert lead.startswith("No: ") and "does not require fitting" in lead, lead
    # without the relating verb the negation stays the reader's to judge, as before
    s, sentences = _source(
        "Zero-shot detectors are rare. We propose ProbeNet, a zero-shot detector. ProbeNet does not require "
        "fitting a dedicated regressor to any labelled pairs."
    )
    assert _polar(s, ("regressor",), sentences, _move).startswith("Stated with a negation")


def test_what_the_question_compares_with_is_no_mention_in_contrast():
    # "Does FOAM reduce wall-clock time compared to Shampoo?": the sentence names Shampoo after its
    # own "compared to", which is the comparison asked, not a baseline set against the paper
    text = ("Second-order optimizers are costly. We propose LeanOpt, a sketched optimizer. LeanOpt lowers peak "
            "memory compared to full K-FAC while matching its accuracy.")
    s, sentences = _source(text)
    lead = _polar(s, ("lowers", "peak", "memory", "k-fac"), sentences, _move, against=("k-fac",))
    assert lead.startswith("Yes: ") and "compared to full K-FAC" in lead, lead
    # a question that does not compare with it ("does LeanOpt use K-FAC?"): a mention in contrast, as before
    s, sentences = _source(text)
    assert "in contrast" in _polar(s, ("k-fac",), sentences, _move), text
