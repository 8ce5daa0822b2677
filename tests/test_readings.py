"""Which reading of a message the evidence supports, and what a conversation says when a message
points past what it holds (issue 32: cases 1, 5 and 7).

* **Two readings.** "which paper detects audio deepfakes and tests its robustness to unseen
  attacks?" after a question about CogRouter can be read of CogRouter ("its" = CogRouter's) or on
  its own ("its" = the detector's). The reader offers the second reading
  (:attr:`rag.question.plan.AskPlan.alone`) when the frame names the paper asked for or every
  pronoun is a possessive after words it can stand for; the route scores both by what the papers
  state (:meth:`rag.route.references.ReferenceResolver.arbitrate`). "What dataset does it use?"
  has one reading: the earlier paper's.
* **An ordinal beyond the list** ("the third one" after two papers, "compare the first two" after
  one) says how long the list is (:meth:`rag.route.turn.History.beyond`).
* **A long message keeps the sentences that ask** and says what it dropped
  (:func:`rag.question.phrasing.keep_asking`).

Fast tests use the real reader over a small catalogue and the hand-computable fakes of
:mod:`tests.fakes`; the end-to-end ones (marked slow by their fixture) use the seed corpus with the
real embedder and Chroma, with phrasings of their own (none is a question of the eval files).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from rag.index.catalogue import Catalogue
from rag.question.phrasing import asks, asks_for_paper, definite_words, keep_asking
from rag.question.plan import AskPlan
from rag.question.reader import Reader
from rag.route.references import ReferenceResolver
from rag.route.refusal import RefusalPolicy
from rag.route.turn import History, Turn
from rag.settings import Settings
from rag.types import Answer, Citation
from store.papers import Paper, make_paper
from tests.fakes import FakeEvidence, FakeRetriever

ROUTER = make_paper(
    "router",
    "Language agents reason at one fixed depth. We present DepthRouter, an agent that chooses how deeply to "
    "reason at each step. DepthRouter is evaluated on ALFWorld and ScienceWorld.",
)
SPOOF = make_paper(
    "spoof",
    "Audio deepfakes keep evolving. We present SpoofGuard, a detector of audio deepfakes that tests its "
    "robustness to unseen attacks.",
)
CLINIC = make_paper(
    "clinic",
    "Patient records cannot leave hospitals. We present FedClinic, which trains models across many clients "
    "without pooling their data.",
)
GRAPHS = make_paper(
    "graphs",
    "Graph learning across clients is costly. We present GraphFed, which trains graph models across many "
    "clients without pooling their data, and condenses each client graph.",
)
FAKE_PAPERS = [ROUTER, SPOOF, CLINIC, GRAPHS]


# --- the reader: which messages have a reading of their own ------------------------------------


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader(Catalogue(FAKE_PAPERS))


def _plan(reader: Reader, message: str) -> AskPlan:
    plan = reader.read(message)
    assert isinstance(plan, AskPlan), plan
    return plan


@pytest.mark.parametrize(
    "message",
    [
        "which paper detects audio deepfakes and tests its robustness to unseen attacks?",  # the issue's
        "is there a paper about training models across many clients without pooling their data?",  # the issue's
        "which work teaches a robot hand to grasp tools from videos of people and their hands?",
        "any study that forecasts demand from few examples and learns where to augment its data?",
        "is there a study on routing requests to decode workers that bounds their memory use?",
    ],
)
def test_a_message_that_describes_a_paper_with_a_pronoun_has_a_reading_of_its_own(reader, message):
    plan = _plan(reader, message)
    assert plan.alone is not None, message
    assert plan.alone.refs == ()  # its pronouns refer to no earlier paper
    assert plan.refs  # and the reading as a follow-up is kept


@pytest.mark.parametrize(
    "message",
    [
        "I remember a paper that prunes a training set using a graph of the samples and their neighbours",
        "there was one about pruning training sets with sample graphs — which datasets did they prune?",
        "There was this graph pruning paper: does it keep hard samples?",
    ],
)
def test_an_opening_that_describes_a_paper_leaves_its_pronouns_no_earlier_paper(reader, message):
    # vocabulary describing_frame: the message says it describes the paper it asks about; its one
    # reference may be that description ("this graph pruning paper"), none of an earlier turn
    assert all(r.kind == "description" for r in _plan(reader, message).refs), message


@pytest.mark.parametrize(
    "message",
    [
        "what dataset does it use?",
        "what are its limitations?",
        "does it use reinforcement learning?",
        "how many parameters does its model have?",
        "which benchmarks is it evaluated on?",
        "which teacher models does it distill from and how large are their students?",
        "how does it cope with distribution shift in the target domain?",
        "What is the main idea of this paper?",
    ],
)
def test_a_pronoun_that_can_only_refer_back_gives_no_reading_of_its_own(reader, message):
    assert _plan(reader, message).alone is None, message


@pytest.mark.parametrize(
    ("message", "seeks"),
    [
        ("which paper detects audio deepfakes?", True),
        ("is there work on ride-hailing platforms?", True),
        ("any study that prunes data", True),
        ("which method cuts its memory by an order of magnitude?", True),
        ("is there an approach that adapts its damping factor?", True),
        ("what dataset does it use?", False),
        ("how does it handle unseen attacks?", False),
        ("which language does it clone voices in?", False),
    ],
)
def test_the_frame_says_whether_the_message_asks_for_a_paper(message, seeks):
    assert asks_for_paper(message) is seeks


# --- the route: the evidence chooses the reading (fakes) ----------------------------------------


@dataclass
class _Pipeline:
    """The parts of an answer pipeline the resolver reads, over the fakes."""

    catalogue: Catalogue
    reader: Reader
    retriever: FakeRetriever
    evidence: FakeEvidence
    refusals: RefusalPolicy
    settings: Settings


@dataclass
class _Source:
    pipeline: _Pipeline


def _resolver(after: Paper) -> tuple[ReferenceResolver, Reader]:
    """A resolver whose conversation has answered one question, citing ``after``."""
    settings = Settings()
    catalogue = Catalogue(FAKE_PAPERS)
    retriever, evidence = FakeRetriever(FAKE_PAPERS), FakeEvidence(FAKE_PAPERS)
    pipeline = _Pipeline(
        catalogue, Reader(catalogue), retriever, evidence, RefusalPolicy(retriever, evidence, settings.retrieval),
        settings,
    )
    history = History()
    cited = Citation(history.numbers.number(after.id), after.id, after.label, ())
    history.turns.append(Turn("What does it do?", "What does it do?", Answer("What does it do?", "…", [cited])))
    return ReferenceResolver(_Source(pipeline), history), pipeline.reader


def test_a_described_paper_the_earlier_paper_does_not_state_is_answered_on_its_own():
    # "detects audio deepfakes and tests its robustness to unseen attacks": SpoofGuard's second
    # sentence shares 6 of its 7 terms (0.86), DepthRouter's none (0.0): on its own, no offer.
    resolver, reader = _resolver(ROUTER)
    plan = _plan(reader, "which paper detects audio deepfakes and tests its robustness to unseen attacks?")
    reading = resolver.arbitrate(plan)
    assert reading.plan is plan.alone and reading.offer == ""
    assert reading.alone > 0.8 and reading.follow == 0.0


def test_when_both_papers_state_it_the_other_reading_is_offered_in_one_line():
    # After GraphFed, "training models across many clients without pooling their data": FedClinic's
    # and GraphFed's second sentences each state 4 of its 5 terms (0.8; the fakes do not stem
    # "training"); on its own the message finds FedClinic (the first of the tie); the frame names a
    # paper (prior 0.1 < band 0.15): answered on its own, GraphFed offered.
    resolver, reader = _resolver(GRAPHS)
    plan = _plan(reader, "is there a paper about training models across many clients without pooling their data?")
    reading = resolver.arbitrate(plan)
    assert reading.plan is plan.alone
    assert reading.offer.startswith("Asked about GraphFed? Ask:") and "GraphFed's data" in reading.offer


def test_a_message_with_one_reading_or_nothing_cited_before_is_not_weighed():
    resolver, reader = _resolver(ROUTER)
    plan = _plan(reader, "what dataset does it use?")
    assert resolver.arbitrate(plan).plan is plan
    fresh = ReferenceResolver(resolver._pipeline, History())
    plan = _plan(reader, "which paper detects audio deepfakes and tests its robustness to unseen attacks?")
    assert fresh.arbitrate(plan).plan is plan


def test_when_both_readings_find_the_earlier_paper_the_frame_decides_how_it_is_read():
    # "which paper ... its ...": read as asked (no name spelled in); "tell me about ...
    # their ..." has no frame that asks for a paper: read of the earlier paper
    resolver, reader = _resolver(SPOOF)
    plan = _plan(reader, "which paper detects audio deepfakes and tests its robustness to unseen attacks?")
    reading = resolver.arbitrate(plan)
    assert reading.plan is plan.alone and reading.offer == ""
    resolver, reader = _resolver(CLINIC)
    plan = _plan(reader, "tell me about training models across many clients without pooling their data")
    assert plan.alone is not None and not plan.seeks
    reading = resolver.arbitrate(plan)
    assert reading.plan is plan and reading.offer == ""


# --- follow-ups that bind to the conversation's papers (issue 32, case 1) ------------------------


@pytest.mark.parametrize("message", ["do they work on graphs?", "does it work for video?", "does it study pruning?"])
def test_a_set_noun_after_a_pronoun_is_its_verb_so_the_message_asks_of_the_paper(reader, message):
    # "does it work with quantization?" after SparseGPT was "any work with quantization?": 34 papers
    plan = _plan(reader, message)
    assert plan.refs and plan.refs[0].kind in ("pronoun", "plural"), plan.refs
    assert plan.topic.number != "many" and not plan.seeks and not asks_for_paper(message)


@pytest.mark.parametrize(
    "message", ["is there work on video?", "any work for graph pruning?", "which papers work on graphs?"]
)
def test_work_after_a_frame_that_names_no_paper_still_asks_for_papers(reader, message):
    plan = _plan(reader, message)
    assert not plan.refs and plan.topic.number == "many", plan


@pytest.mark.parametrize(
    ("message", "count"),
    [
        ("which of the two uses RL?", 2),
        ("so which of those two papers releases code?", 2),
        ("of these three, which is theoretical?", 3),
        ("which of them use RL?", 0),
        ("which of these papers prune weights?", 0),
    ],
)
def test_a_question_within_the_papers_discussed_says_how_many_it_counts(reader, message, count):
    # "which of the two runs on a single GPU?" after "and SmoothQuant?" was asked of SmoothQuant
    # alone; the count lets the route take the two papers discussed across turns
    plan = _plan(reader, message)
    assert plan.follow is not None and plan.follow.kind == "narrow" and plan.follow.count == count, plan.follow


def test_a_demonstrative_opens_a_definite_description_as_the_does():
    # "which model generated those articles?" after DetectGPT's "fake news articles"
    assert definite_words("where do those trajectories come from?") == ["trajectories"]
    assert definite_words("how large are these images?") == ["images"]
    assert definite_words("which papers use RL?") == []


# --- ordinals beyond the list (fast: the history alone) ----------------------------------------


def _history(*labels: str) -> History:
    h = History()
    cits = [Citation(h.numbers.number(x), x, x, ()) for x in labels]
    h.turns.append(Turn("q", "q", Answer("q", "…", cits)))
    return h


def test_an_ordinal_beyond_the_last_list_says_how_long_the_list_is():
    h = _history("Alpha", "Beta", "Gamma", "Delta")
    h.turns.append(Turn("q2", "q2", Answer("q2", "…", [Citation(h.numbers.number(x), x, x, ()) for x in ("E", "F")])))
    assert h.listed(1)[1].paper_id == "F"
    assert h.listed(2) == []  # not the older list of four
    assert "the last answer lists 2 papers (E [5], F [6])" in h.beyond("the third one")
    assert "no earlier answer lists papers" in History().beyond("the second one")


def test_an_ordinal_beyond_the_last_list_offers_the_earlier_list_that_has_it_by_numbers():
    # "compare the first and fourth" after a list of four and a newer list of two: counted in the
    # newer list, said to be beyond it, and the earlier list's first and fourth offered by number
    h = _history("Alpha", "Beta", "Gamma", "Delta")
    h.turns[0] = replace(h.turns[0], question="Which papers study lottery tickets?")
    h.turns.append(Turn("q2", "q2", Answer("q2", "…", [Citation(h.numbers.number(x), x, x, ()) for x in ("E", "F")])))
    said = h.beyond("fourth", (0, 3))
    assert said.startswith("the last answer lists 2 papers (E [5], F [6]), so “fourth” refers to no paper; ")
    assert "in the list before it, of 4 papers (“Which papers study lottery tickets?”), they are Alpha [1] and " \
           "Delta [4]: ask about them by those numbers" in said
    assert "it is Gamma [3]: ask about it by that number" in h.beyond("the third one", (2,))
    assert "list before it" not in h.beyond("the fifth one", (4,))  # no list has a fifth


def test_a_question_of_the_collection_answered_with_one_paper_is_a_list_ordinals_count_in():
    # "which papers study inductive matrix completion?" found one after a list of four: "the third
    # one" is no paper of it (said, the earlier list offered), and "the first one" is its paper
    h = _history("Alpha", "Beta", "Gamma", "Delta")
    one = Answer("q2", "…", [Citation(h.numbers.number("GNIMC"), "GNIMC", "GNIMC", ())], kind="list")
    h.turns.append(Turn("q2", "q2", one))
    assert h.listed(2) == [] and h.listed(0)[0].paper_id == "GNIMC"
    assert "it is Gamma [3]" in h.beyond("the third one", (2,))
    # an answer about one paper (no list: "What is Beta?") leaves the list of four to count in
    h = _history("Alpha", "Beta", "Gamma", "Delta")
    h.turns.append(Turn("q2", "q2", Answer("q2", "…", [Citation(2, "Beta", "Beta", ())])))
    assert h.listed(2)[2].paper_id == "Gamma"


def test_papers_picked_out_of_a_list_leave_ordinals_counting_in_that_list():
    # "which papers work on VLMs?" (four), "compare the first two", "summarize the third one": the
    # third of the four, not "the last answer lists 2 papers"
    from rag.question.reader import read_question

    h = _history("Alpha", "Beta", "Gamma", "Delta")
    first_two = [h._citation_of(x) for x in ("Alpha", "Beta")]
    h.turns.append(Turn("q2", "q2", Answer("q2", "…", first_two), plan=read_question("compare the first two")))
    assert h.listed(2)[2].paper_id == "Gamma"
    # a question that narrows the list ("which of them are from 2023?") makes a list of its own
    narrowed = _history("Alpha", "Beta", "Gamma", "Delta")
    two = [narrowed._citation_of(x) for x in ("Alpha", "Beta")]
    narrowed.turns.append(Turn("q2", "q2", Answer("q2", "…", two), plan=read_question("which of them are from 2023?")))
    assert narrowed.listed(2) == []
    # a list of papers not all in the earlier one is a new list
    mixed = [h._citation_of("Alpha"), Citation(h.numbers.number("E"), "E", "E", ())]
    h.turns.append(Turn("q3", "q3", Answer("q3", "…", mixed)))
    assert h.listed(2) == []


# --- a reference with too few, too many or no listed papers says so (fakes) ---------------------


def _talk(*turns: tuple[str, tuple[Paper, ...]]) -> tuple[ReferenceResolver, Reader]:
    """A resolver over the fake papers whose conversation answered ``turns`` (question, papers
    cited; a question citing nothing found no paper: its plan is the reader's)."""
    resolver, reader = _resolver(ROUTER)
    h = History()
    for question, papers in turns:
        cits = [Citation(h.numbers.number(p.id), p.id, p.label, ()) for p in papers]
        answer = Answer(question, "…", cits, refused=not cits, kind="refusal" if not cits else "answer")
        kind = "refusal" if not cits else "answer"
        h.turns.append(Turn(question, question, answer, kind, plan=reader.read(question)))
    return ReferenceResolver(resolver._pipeline, h), reader


LIST_OF_FOUR = ("Which papers work on agents, audio, hospitals or graphs?", (ROUTER, SPOOF, CLINIC, GRAPHS))


@pytest.mark.parametrize("message", ["compare them", "how do both differ?", "compare the two of them"])
def test_a_comparison_of_them_after_one_paper_says_only_one_was_discussed(message):
    # was: "compare CA-SOADD", the one paper answered alone as a comparison
    resolver, reader = _talk(("Which paper detects audio deepfakes?", (SPOOF,)))
    pair, ok = resolver.pair(reader.read(message))
    assert not ok and len(pair) == 1 and not pair[0].paper_ids, pair
    assert "discussed one paper so far, SpoofGuard [1]" in pair[0].message


@pytest.mark.parametrize("message", ["compare both", "compare these two papers"])
def test_two_counted_among_more_listed_asks_which_naming_them(message):
    # was: the first two of the list, silently
    resolver, reader = _talk(LIST_OF_FOUR)
    pair, ok = resolver.pair(reader.read(message))
    assert not ok and pair[0].paper_ids == ("router", "spoof", "clinic", "graphs"), pair
    assert pair[0].message == "the last answer lists 4 papers"
    pair, ok = resolver.pair(reader.read("compare them"))  # every listed paper, up to five
    assert ok and [r.paper_ids[0] for r in pair] == ["router", "spoof", "clinic", "graphs"]


def test_them_after_a_list_and_one_paper_outside_it_asks_which_to_set_beside_it():
    # "Which papers use RL?", "What does DoPR do?", "compare them": was DoPR and the list's first
    resolver, reader = _talk(
        ("Which papers work on agents or audio?", (ROUTER, SPOOF)), ("What is FedClinic?", (CLINIC,))
    )
    pair, ok = resolver.pair(reader.read("compare them"))
    assert not ok and pair[0].paper_ids == ("router", "spoof"), pair
    assert pair[0].message.startswith("the last answer is about FedClinic [3] alone")
    # two answers about one paper each: the pair the conversation makes clear
    resolver, reader = _talk(("What is FedClinic?", (CLINIC,)), ("What is GraphFed?", (GRAPHS,)))
    pair, ok = resolver.pair(reader.read("compare both of them"))
    assert ok and {r.paper_ids[0] for r in pair} == {"clinic", "graphs"}


def test_both_asked_of_one_paper_says_so_and_of_four_asks_which():
    resolver, reader = _talk(("Which paper trains across hospitals?", (CLINIC,)))
    ids, _, unresolved = resolver.referred(reader.read("which datasets do both of them use?"))
    # was "FedClinic of FedClinic"
    assert ids == [] and unresolved is not None and "FedClinic [1]" in unresolved.message
    resolver, reader = _talk(LIST_OF_FOUR)
    ids, _, unresolved = resolver.referred(reader.read("what data do these two use?"))  # was: all four asked
    assert ids == [] and unresolved is not None and len(unresolved.paper_ids) == 4


@pytest.mark.parametrize(
    ("message", "places"),
    [
        ("compare the last two", ["clinic", "graphs"]),
        ("how do the final three compare?", ["spoof", "clinic", "graphs"]),
    ],
)
def test_the_last_few_of_a_list_are_its_last_papers_or_said_to_be_beyond_it(message, places):
    resolver, reader = _talk(LIST_OF_FOUR)
    pair, ok = resolver.pair(reader.read(message))
    assert ok and [r.paper_ids[0] for r in pair] == places, pair
    resolver, reader = _talk(("Which papers work on agents or audio?", (ROUTER, SPOOF)))
    pair, ok = resolver.pair(reader.read("compare the last three"))  # was: a table of papers on "last"
    assert not ok and "the last answer lists 2 papers" in pair[0].message
    ids, _, unresolved = resolver.referred(reader.read("the last two: what benchmarks do they use?"))
    assert ids == ["router", "spoof"] and unresolved is None


def test_the_first_one_after_an_answer_about_one_paper_says_there_is_no_list():
    # "Summarize DocVAL", "and the first one?": was the same question again of DocVAL, silently
    resolver, reader = _talk(("What is GraphFed?", (GRAPHS,)))
    plan, shown = resolver.follow_up(reader.read("and the first one?"))
    assert shown == ""
    ids, _, unresolved = resolver.referred(plan)
    assert ids == [] and unresolved is not None and "about one paper, GraphFed [1]" in unresolved.message
    # a question of its own about that paper is answered of it
    ids, _, unresolved = resolver.referred(reader.read("the first one: what benchmarks does it use?"))
    assert ids == ["graphs"] and unresolved is None


def test_an_ordinal_counted_in_an_older_list_says_which_list():
    # a list, then a question that found no paper, or one about a paper outside it: "the third one"
    # counts in the list, and says so (was: silently)
    lost = ("Is there a paper on protein folding?", ())
    h = _talk(LIST_OF_FOUR, lost)[0].history
    said = h.elsewhere("the third one")
    assert said.startswith("“the third one” counted in the list of 4 papers answering “Which papers work on")
    assert "“Is there a paper on protein folding?”, found no paper" in said
    h = _talk(LIST_OF_FOUR, ("What does GraphFed do?", (GRAPHS,)))[0].history
    assert h.elsewhere("the second one") == ""  # an answer about a paper of the list
    h = _talk(("Which papers work on agents or audio?", (ROUTER, SPOOF)), ("What is GraphFed?", (GRAPHS,)))[0].history
    assert "the last answer is about GraphFed [3], no list" in h.elsewhere("the second one")


@pytest.mark.parametrize("message", ["and the seventeenth one?", "what does the 21st paper use?", "the 14th one?"])
def test_an_ordinal_past_any_list_is_said_to_be_beyond_the_last_list(reader, message):
    # was: "No abstract in the collection mentions twentieth" (the ordinal read as a topic's word)
    refs = [r for r in reader.read(message).refs if r.kind == "ordinal"]
    assert [r.index for r in refs] == [12], refs
    h = _history(*"ABCDEFGHIJK")
    assert h.listed(12) == [] and "the last answer lists 11 papers" in h.beyond(refs[0].text, (12,))


def test_a_description_of_the_other_direction_describes_no_paper():
    from rag.lexicon import reversed_direction

    assert reversed_direction("speech-to-text") == "text-to-speech"
    assert reversed_direction("Image-to-Text captioning") == "Text-to-Image"
    assert reversed_direction("speech recognition") == ""


# --- long messages keep the sentences that ask ---------------------------------------------------


def test_a_question_pasted_after_a_long_context_is_kept_and_the_notice_says_what_was_dropped():
    context = "Our lab builds triage tools for rural clinics and has little labelled data. " * 40
    message = context + "The tools must run offline. Which paper grounds clinical abnormalities for rare diseases?"
    kept, notice = keep_asking(message, 2000)
    assert len(kept) <= 2000
    assert kept.endswith("Which paper grounds clinical abnormalities for rare diseases?")
    assert kept == "Which paper grounds clinical abnormalities for rare diseases?"  # the context is dropped
    assert "kept the 1 sentence that asks" in notice and "dropped" in notice and f"{len(message):,}" in notice


def test_a_long_message_with_several_questions_keeps_them_all():
    filler = "We tried many baselines last year and none of them worked well enough for us. " * 30
    message = "Which papers use reinforcement learning? " + filler + "How do they compare with imitation learning?"
    kept, notice = keep_asking(message, 1200)
    assert kept.startswith("Which papers use reinforcement learning?")
    assert kept.endswith("How do they compare with imitation learning?")
    assert "kept the 2 sentences that ask" in notice


def test_a_long_message_without_a_question_keeps_its_first_part_and_a_short_one_is_untouched():
    kept, notice = keep_asking("graph condensation for federated clients " * 80, 500)
    assert len(kept) <= 500 and "no sentence of it asks" in notice
    assert keep_asking("which paper uses RL?", 500) == ("which paper uses RL?", "")
    assert asks("list the speech papers") and asks("the audio ones?") and not asks("We tried it.")


def test_the_reader_reads_the_kept_question_and_notes_what_was_dropped(reader):
    context = "Some background on our project that says nothing about papers at all. " * 40
    plan = _plan(reader, context + "Which paper detects audio deepfakes?")
    assert plan.trimmed and "kept the 1 sentence that asks" in plan.dropped
    assert plan.topic.text == "detects audio deepfakes"


# --- end to end over the seed corpus -------------------------------------------------------------

STANDALONE = [
    # a measure asked of the paper the frame seeks, after a paper that states the measure (nu55:
    # Hyena's "speedups of 100x" was quoted for "which paper introduces speculative decoding, and
    # what speedup does it give?")
    ("Summarize PrefixRL", "Which paper introduces graph condensation, and what accuracy gain does it give?", "DANCE"),
    ("What benchmarks does CogRouter use?",
     "which paper detects audio deepfakes and tests its robustness to unseen attacks?", "CA-SOADD"),
    ("What benchmarks does CogRouter use?",
     "is there a paper about training models across many clients without pooling their data?", None),
    ("What does APM compress?",
     "which paper teaches a robot hand to manipulate articulated objects from videos of humans and their hands?",
     "DexMachina"),
    ("How does FOAM reduce the cost of Shampoo?",
     "is there work on ride-hailing platforms that decides how long to hold requests before matching them?",
     "RAST-MoE"),
    ("What does DocVAL localize?",
     "which paper routes requests to decode workers and bounds their KV-cache use?", "Online routing problem"),
    ("What is ME-DLM?",
     "which paper forecasts time series from few examples by learning where to augment its training data?",
     "ReAugment"),
    ("What does HyperTrack introduce?",
     "any paper where an expert answers queries about edges of a causal graph to sharpen its posterior?",
     "causal preference elicitation"),
    ("what does SGB-IB do?",
     "is there a paper that clones voices in a low-resource language and evaluates its speech quality?", "DGSA"),
    ("What does PrefixRL reuse?",
     "which paper condenses text-attributed graphs across clients and keeps their evidence checkable?", "DANCE"),
    ("what does L2M do?",
     "which work shows quantum computers estimate nested expectations faster and proves its cost bound?",
     "Estimation of repeatedly nested expectations"),
    ("What does DDL ground?",
     "I remember a paper that prunes a training set using a graph of the samples and their neighbours",
     "Graph-based dataset pruning"),
    ("what does Graph-R1 retrieve?",
     "which paper segments objects from a text prompt by letting the model verify and refocus its predictions?",
     "RSAgent"),
    ("What is MCLP?",
     "is there a paper that attacks speech recognition by hiding perturbations in music and chooses its carriers?",
     "Music carrier selection algorithm"),
    ("what does SoT introduce?",
     "which paper trains a diffusion model by matching the likelihood along its reverse path?",
     "Likelihood Matching"),
    ("Summarize DocVAL", "Which method reduces its storage by 65x?", "APM"),
    ("What does SENDAI reconstruct?", "which approach speeds up Shampoo by adapting its damping factor?", "FOAM"),
    # a pronoun in a later part may be the subject the first part names
    ("What benchmarks does CogRouter use?",
     "What does federated graph condensation do, and how much does it improve accuracy?", "DANCE"),
    ("What does PrefixRL reuse?",
     "what does entropy-modulated policy gradient do, and how much does it help agents?", "EMPG"),
    # an opening that describes the paper ("there was one about ...") before a dash: "they" is its own
    ("What benchmark does HyperTrack introduce?",
     "there was one about rare brain disease localization with frozen big vision-language models — what model "
     "sizes did they test?", "DDL"),
    ("What does CogRouter do?",
     "There was this condensation paper with analytic models and 65x less storage — how does it distill them?",
     "APM"),
]
"""(question about one paper, a message that describes another with a pronoun, the paper it
describes; ``None``: any paper but the first one)."""

FOLLOW_UPS = [
    ("What does CA-SOADD detect?", "how does it handle unseen attacks?", "CA-SOADD"),
    ("What benchmarks does CogRouter use?", "what dataset does it use?", "CogRouter"),
    ("What does DexMachina study?", "what are its limitations?", "DexMachina"),
    ("How does FOAM reduce the cost of Shampoo?", "does it use reinforcement learning?", "FOAM"),
    ("What does RAST-MoE match?", "how many parameters does its model have?", "RAST-MoE"),
    ("What does DGSA enable?", "which language does it clone voices in?", "DGSA"),
    ("What is ReAugment?", "how does it decide where to augment the training data?", "ReAugment"),
    ("What does HieRD distill?", "which teacher models does it distill from and how large are their students?",
     "HieRD"),
    ("What does Agent-Omit omit?", "which benchmarks is it evaluated on?", "Agent-Omit"),
    ("What does SENDAI reconstruct?", "how does it cope with distribution shift in the target domain?", "SENDAI"),
    ("What does DANCE do?", "which paper's clients share their condensed graphs?", "DANCE"),
    ("Summarize DocVAL", "which method does it propose for localization?", "DocVAL"),
    ("What does EMPG do?", "how does it assign credit to intermediate steps of long-horizon tasks?", "EMPG"),
    ("What does CogRouter do?",
     "how does the agent pick a cognitive level at each step, and what decides its depth?", "CogRouter"),
    ("What does PrefixRL reuse?",
     "which paper conditions on prefixes of successful solutions to speed up its RL?", "PrefixRL"),
    ("What does CA-SOADD detect?",
     "is there a paper that models real speech to flag anomalies, and how well does its detector generalize?",
     "CA-SOADD"),
    ("What does HieRD distill?", "how does the student learn from the teacher's embeddings and their geometry?",
     "HieRD"),
    ("What does FOAM do?", "what memory does it save, and how fast does it train?", "FOAM"),
    ("What does DANCE condense?", "What accuracy gains are reported, and on which datasets is it evaluated?", "DANCE"),
    # "which X do they ...": "which" asks what the papers discussed use, not for papers
    ("What does DANCE condense?", "which benchmarks do they evaluate on?", "DANCE"),
    ("What does SENDAI reconstruct?", "which datasets did they use?", "SENDAI"),
    # "X vs Y" asked of "they": two things the earlier paper states, no papers to compare
    ("What benchmark does HyperTrack introduce?", "what did they find about RL vs SFT?", "HyperTrack"),
]
"""(question about one paper, a follow-up about it, that paper)."""


@pytest.fixture
def conv(extractive):
    from rag.route.conversation import Conversation

    return Conversation(extractive.pipeline)


@pytest.mark.parametrize(("first", "message", "paper"), STANDALONE)
def test_a_pronoun_in_a_message_that_describes_another_paper_does_not_hijack_it(conv, first, message, paper):
    t1 = conv.ask(first)
    earlier = t1.citations[0].label
    t = conv.ask(message)
    labels = [c.label for c in t.citations]
    assert labels and earlier not in labels, (message, labels, t.answer.text)
    if paper is not None:
        assert labels[0] == paper, (message, labels)
    assert not t.rewritten, t.standalone  # read as asked, not as "... tests CogRouter's robustness"


@pytest.mark.parametrize(("first", "message", "paper"), FOLLOW_UPS)
def test_a_genuine_follow_up_stays_about_the_earlier_paper(conv, first, message, paper):
    conv.ask(first)
    t = conv.ask(message)
    # the paper answered about: cited, or named by a refusal of a yes/no question its abstract does
    # not address ("The abstract of FOAM does not state this: ...")
    papers = conv.pipeline.retriever.papers
    labels = [c.label for c in t.citations] or [papers[p].label for p in t.about]
    assert labels[:1] == [paper], (message, t.answer.text)


DEFINITE = [
    ("Summarize DocVAL", "is the validator trained with reinforcement learning?", "DocVAL"),
    ("Summarize Agent-Omit", "which benchmarks does the agent use?", "Agent-Omit"),
]
"""(question about one paper, a follow-up that names no paper and uses no pronoun but a definite
description of something the paper states, that paper). Asked alone, each lists several papers."""


def test_it_in_a_first_question_that_seeks_a_paper_is_that_papers_own(conv):
    # nothing cited before: "it" can only be the paper the message describes (was "I could not find 'it'")
    t = conv.ask("Which paper studies ride-hailing, and what does it improve?")
    assert [c.label for c in t.citations] == ["RAST-MoE"], t.answer.text
    dangling = conv.ask("what does it do?")  # RAST-MoE is cited now: "it" refers back to it
    assert [c.label for c in dangling.citations] == ["RAST-MoE"], dangling.answer.text


@pytest.mark.parametrize(("first", "message", "paper"), DEFINITE)
def test_a_definite_description_of_what_the_earlier_paper_states_continues_it(conv, extractive, first, message, paper):
    from rag.route.conversation import Conversation

    alone = Conversation(extractive.pipeline).ask(message)
    assert len(alone.citations) > 1, alone.answer.text  # the mechanism is what binds it
    conv.ask(first)
    t = conv.ask(message)
    assert [c.label for c in t.citations] == [paper], t.answer.text
    assert t.answer.text.splitlines()[-1].startswith(f"Not about {paper}? On its own the question finds ")


@pytest.mark.parametrize(
    ("first", "message", "paper"),
    [
        # "the framework", "the method" refer to the paper just discussed, as a pronoun would
        ("What does SENDAI reconstruct?", "does the framework need many sensors?", "SENDAI"),
        ("What does FOAM do?", "is the method tested on language models?", "FOAM"),
        # a definite description of another subject is read on its own
        ("Summarize DocVAL", "what is the best approach to audio deepfake detection?", "CA-SOADD"),
        ("Summarize Agent-Omit", "how do the experts of the ride-hailing model share the work?", "RAST-MoE"),
    ],
)
def test_a_definite_description_is_answered_about_the_paper_it_describes(conv, first, message, paper):
    conv.ask(first)
    t = conv.ask(message)
    assert [c.label for c in t.citations][:1] == [paper], t.answer.text


def test_when_two_papers_state_the_description_the_other_reading_is_offered(conv):
    # DANCE trains across clients too; the frame asks for a paper, so the answer finds one on its
    # own and offers the question about DANCE in one line
    conv.ask("What does DANCE do?")
    t = conv.ask("which paper trains across many clients without sharing their raw data?")
    assert t.citations and t.citations[0].label != "DANCE", t.answer.text
    assert t.answer.text.splitlines()[-1].startswith("Asked about DANCE? Ask: “"), t.answer.text


def test_an_ordinal_or_count_beyond_the_list_says_how_long_the_list_is(conv):
    t1 = conv.ask("Which paper distills multi-modal datasets?")
    assert len(t1.citations) == 1
    t = conv.ask("compare the first two")
    assert t.kind == "clarify" and "lists 1 paper" in t.answer.text, t.answer.text
    t2 = conv.ask("Which papers work on speech or audio?")
    n = len(t2.citations)
    assert 2 <= n <= 4, t2.answer.text
    beyond = ["the third one", "the fourth one", "the fifth one"][n - 2]
    t = conv.ask(f"what does {beyond} propose?")
    assert t.kind == "clarify" and f"lists {n} papers" in t.answer.text, t.answer.text
    t = conv.ask(f"and {beyond}?")
    assert t.kind == "clarify" and f"lists {n} papers" in t.answer.text, t.answer.text
    t = conv.ask("what does the second one propose?")  # within the list: answered
    assert [c.paper_id for c in t.citations] == [t2.citations[1].paper_id]


def test_a_question_pasted_after_a_long_context_is_answered_and_the_note_says_what_was_dropped(conv):
    context = "Our group maintains a voice assistant and worries about spoofed calls reaching it. " * 30
    t = conv.ask(context + "Which paper detects audio deepfakes that were not seen in training?")
    assert [c.label for c in t.citations][:1] == ["CA-SOADD"], t.answer.text
    assert "kept the 1 sentence that asks" in t.answer.note, t.answer.note


def test_which_one_after_a_long_list_is_the_listed_paper_that_states_it(conv):
    # a new user: "list all papers" then "which one uses San Francisco data?" compared the first two
    # listed (APM, Agent-Omit), and "how many parameters does its model have?" stayed on APM
    conv.ask("list all papers")
    t = conv.ask("which one uses San Francisco data?")
    assert [c.label for c in t.citations] == ["RAST-MoE"], t.answer.text
    t = conv.ask("how many parameters does its model have?")
    assert [c.label for c in t.citations] == ["RAST-MoE"] and "12M" in t.answer.text, t.answer.text


def test_which_one_after_an_answer_about_one_paper_asks_the_collection(conv):
    # nothing to choose among: "which one ..." is a question of its own, not a check of DANCE
    conv.ask("What does DANCE do?")
    t = conv.ask("which one studies ride-hailing?")
    assert [c.label for c in t.citations] == ["RAST-MoE"], t.answer.text


@pytest.mark.parametrize("message", ["which one is better?", "which one needs less memory?"])
def test_choosing_with_one_paper_discussed_says_so_and_searches_nothing(conv, message):
    # after a comparison that found one paper, "which one uses more data?" answered a paper on data
    # markets, found by its words
    conv.ask("What does DANCE do?")
    t = conv.ask(message)
    assert t.answer.refused and not t.citations
    assert "DANCE alone" in t.answer.text and "name the papers to compare" in t.answer.text


# --- a name that is also a word ---------------------------------------------------------------------

FLOCK = make_paper(
    "flock",
    "Training large models on preemptible machines is hard. We propose FLOCK, a parallel training scheme "
    "that reroutes work when nodes fail.",
)
TANGO = make_paper(
    "tango",
    "We consider generating music for videos of people moving. Our model synthesises soundtracks that follow "
    "the steps of the dancers.",
)


@pytest.fixture(scope="module")
def named_word_reader() -> Reader:
    return Reader(Catalogue([FLOCK, TANGO]))


@pytest.mark.parametrize(
    "message",
    ["Which papers are about flock behaviour?", "is there a paper on flock dynamics?",
     "any work that simulates a flock of birds?"],
)
def test_a_lower_case_word_that_names_a_paper_is_the_word_in_a_description(named_word_reader, message):
    # the frame seeks papers by what they are about: "flock" there is the word, not FLOCK
    plan = _plan(named_word_reader, message)
    assert not [r for r in plan.refs if r.kind == "name"], plan.refs


@pytest.mark.parametrize("message", ["what does flock reroute?", "How does FLOCK handle failed nodes?",
                                     "Which paper is FLOCK?"])
def test_the_name_stays_a_name_outside_a_description_or_as_written(named_word_reader, message):
    plan = _plan(named_word_reader, message)
    assert [r.paper_ids for r in plan.refs if r.kind == "name"] == [("flock",)], plan.refs


@pytest.mark.parametrize("message", ["Which papers are about dance?", "is there any work on foam?"])
def test_a_paper_whose_abstract_writes_the_word_only_as_its_name_is_not_about_it(conv, message):
    # the seed's DANCE (federated graph learning) and FOAM (an optimizer) write "DANCE" and "FOAM"
    # as names only; no seed abstract is about dance or foam
    t = conv.ask(message)
    assert t.answer.refused and not t.citations, t.answer.text


# --- a compared side described so that it fits several papers -----------------------------------


SINGLE_IMAGE = [
    make_paper("fusion", "SinFusion trains a diffusion model on a single image or video."),
    make_paper("ddm", "SinDDM trains a denoising diffusion model on a single image."),
    make_paper("uni", "One transformer fits all distributions in multi-modal diffusion for a single image and text."),
]


@dataclass
class _Members:
    """Membership probabilities given per paper id (``members`` of :class:`rag.route.membership.Membership`)."""

    probable: dict[str, float]

    def members(self, topic, facets, hits, floor, many=False, readings=()):
        scored = [(h, self.probable[h.paper.id]) for h in hits]
        return sorted(scored, key=lambda x: -x[1])


@dataclass
class _ComparedPipeline(_Pipeline):
    membership: _Members


def _side_resolver(probable: dict[str, float]) -> ReferenceResolver:
    settings = Settings()
    catalogue = Catalogue(SINGLE_IMAGE)
    retriever, evidence = FakeRetriever(SINGLE_IMAGE), FakeEvidence(SINGLE_IMAGE)
    pipeline = _ComparedPipeline(
        catalogue, Reader(catalogue), retriever, evidence, RefusalPolicy(retriever, evidence, settings.retrieval),
        settings, _Members(probable),
    )
    return ReferenceResolver(_Source(pipeline), History())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("candidates", "probable", "meant"),
    [
        # the other side names SinFusion: of the two left, SinDDM is the more probable and UniDiffuser
        # is far from description_membership (0.7): the side is SinDDM
        (("fusion", "uni", "ddm"), {"ddm": 0.34, "uni": 0.2}, ("ddm",)),
        # one left once the named paper is out
        (("ddm", "fusion"), {"ddm": 0.3}, ("ddm",)),
        # two left both clearly described: still asked, without the named paper
        (("fusion", "uni", "ddm"), {"ddm": 0.8, "uni": 0.75}, ("uni", "ddm")),
        # the named paper is not a candidate: nothing to leave out
        (("uni", "ddm"), {"ddm": 0.8, "uni": 0.75}, ("uni", "ddm")),
    ],
)
def test_a_described_side_that_fits_several_papers_is_not_the_paper_the_other_side_names(
    candidates, probable, meant
):
    from rag.route.references import Resolution

    resolver = _side_resolver(probable)
    described = Resolution("the single-image diffusion paper", candidates, "description", "fits several papers")
    named = Resolution("SinFusion", ("fusion",), "name")
    got = resolver._besides(described, named)
    assert got.paper_ids == meant
    # a side the other does not resolve to one paper, or a side already resolved, is left as it is
    assert resolver._besides(described, Resolution("it", ("fusion", "uni"), "earlier turn")) == described
    assert resolver._besides(named, described) == named
