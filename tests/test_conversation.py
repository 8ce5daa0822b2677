"""``rag.route.conversation`` (the one route) end to end over the bundled corpus: real Chroma, real
embedder, extractive answers.

Golden checks assert cited paper ids and citation numbers, never wording.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import MIXED, pipeline_of

from rag.citations import cited_numbers
from rag.evidence.rows import NOT_STATED, ROWS, select_rows
from rag.pipeline import Components
from rag.route.answer import REFUSAL
from rag.route.conversation import Conversation, Turn, renumber_markers
from rag.route.filters import AUTO_HINT, Filters
from rag.route.lead import availability_span
from rag.route.summary import MAX_SUMMARY_PAPERS

DANCE = "000_6b930c46f6674b66#1"
APM = "000_6b930c46f6674b66#2"
FEDERATED = "004_7c6cb99d3d3a622c#11"
SAT = "000_6b930c46f6674b66#5"  # polarity-aware representation learning over clause-literal hypergraphs

pytestmark = pytest.mark.slow  # the real bundled embedder and Chroma store


@pytest.fixture(scope="module")
def components(extractive: Components) -> Components:
    """The shared real pipeline (conftest: seed store in a temporary home, llm=None)."""
    return extractive


@pytest.fixture
def conv(components: Components) -> Conversation:
    return Conversation(components.pipeline)


def meant(conv: Conversation, turn: Turn) -> list[str]:
    """The labels of the papers a turn answers about: those cited, or, for a refusal that names the
    paper it checked ("The abstract of RAST-MoE does not state this: no sentence makes its code
    available"), the paper it is about."""
    papers = conv.pipeline.retriever.papers
    return [c.label for c in turn.citations] or [papers[p].label for p in turn.about]


def ids(turn: Turn) -> list[str]:
    return [c.paper_id for c in turn.citations]


def numbers(turn: Turn) -> dict[str, int]:
    return {c.paper_id: c.number for c in turn.citations}


def assert_grounded(turn: Turn, components: Components) -> None:
    """Every marker resolves to a citation; every evidence span is exact."""
    cited = {c.number for c in turn.citations}
    assert set(cited_numbers(turn.answer.text)) <= cited
    for c in turn.citations:
        abstract = components.retriever.papers[c.paper_id].abstract
        for e in c.evidence:
            assert abstract[e.start : e.end] == e.sentence


# --- pure helpers ------------------------------------------------------------------------


def test_renumber_markers_maps_all_at_once():
    assert renumber_markers("A [1]. B [2]. C [1, 2]. D [9].", {1: 2, 2: 1}) == "A [2]. B [1]. C [2, 1]. D [9]."


def test_compare_split_prefers_with_over_and(conv: Conversation):
    t = conv.ask("Compare the paper on graph condensation and federated learning with APM")
    assert t.kind == "compare" and ids(t) == [DANCE, APM]


# --- numbering ---------------------------------------------------------------------------


def test_a_paper_keeps_its_first_number(conv: Conversation, components: Components):
    t1 = conv.ask("What accuracy gain does DANCE report?")
    assert ids(t1) == [DANCE] and numbers(t1) == {DANCE: 1}
    t2 = conv.ask("What storage reduction does APM achieve?")
    assert ids(t2) == [APM] and numbers(t2) == {APM: 2}
    assert cited_numbers(t2.answer.text) == [2]  # the pipeline's local [1] was renumbered
    t3 = conv.ask("How many TAG datasets does DANCE use?")
    assert numbers(t3) == {DANCE: 1}
    assert cited_numbers(t3.answer.text) == [1]
    assert {n: c.paper_id for n, c in conv.references.items()} == {1: DANCE, 2: APM}
    for t in (t1, t2, t3):
        assert_grounded(t, components)


def test_numbering_of_a_multi_paper_answer_then_compare(conv: Conversation):
    t1 = conv.ask("Which papers use reinforcement learning?")
    assert len(t1.citations) >= 3
    assert [c.number for c in t1.citations] == list(range(1, len(t1.citations) + 1))
    first, third = t1.citations[0], t1.citations[2]
    t2 = conv.ask("compare [1] and [3]")
    assert t2.kind == "compare"
    assert numbers(t2) == {first.paper_id: 1, third.paper_id: 3}


# --- follow-ups --------------------------------------------------------------------------


def test_follow_up_it_resolves_to_the_previous_paper(conv: Conversation, components: Components):
    conv.ask("What accuracy gain does DANCE report?")
    t = conv.ask("What is its main idea?")
    assert t.standalone == "What is DANCE's main idea?"
    assert t.rewritten
    assert ids(t) == [DANCE]
    t2 = conv.ask("Which datasets does this paper use?")
    assert "DANCE" in t2.standalone and ids(t2) == [DANCE]
    assert_grounded(t2, components)


def test_follow_up_ordinal_and_number(conv: Conversation):
    t1 = conv.ask("Which papers use reinforcement learning?")
    second, third = t1.citations[1], t1.citations[2]
    t2 = conv.ask("What does the second one propose?")
    assert second.label in t2.standalone
    assert ids(t2) == [second.paper_id]
    t3 = conv.ask("What results does [3] report?")
    assert third.label in t3.standalone
    assert ids(t3) == [third.paper_id] and numbers(t3) == {third.paper_id: 3}


def test_an_ordinal_counts_in_the_last_list_and_and_asks_the_previous_question(conv: Conversation):
    # After a list and an answer about its first paper, "the second one" is the list's second,
    # not a second paper of the one-paper answer; "and the first one?" asks the same of the first.
    t1 = conv.ask("papers on LLM agents")
    first, second = t1.citations[0], t1.citations[1]
    t2 = conv.ask("what benchmarks does the second one use?")
    assert ids(t2) == [second.paper_id], t2.answer.text
    t3 = conv.ask("and the first one?")
    assert ids(t3) == [first.paper_id] and "benchmarks" in t3.standalone, t3.standalone
    t4 = conv.ask("what data does the third one use?")
    assert ids(t4) == [t1.citations[2].paper_id], t4.standalone
    # "and the third?" without "one": it was rewritten to "... does the third use?", which named no
    # paper, and answered about a paper outside the list
    t5 = conv.ask("and the third?")
    assert ids(t5) == [t1.citations[2].paper_id] and t1.citations[2].label in t5.standalone, t5.standalone


def test_them_and_which_is_better_mean_the_two_papers_last_discussed(conv: Conversation):
    # A list, then one answer about each of two of its papers: "compare them" and "which is
    # better?" are about those two, though the last answer cited one; a paper whose label is a
    # description is named by its marker in the rewritten question.
    t1 = conv.ask("which papers work on speech or audio?")
    first, second = t1.citations[0].paper_id, t1.citations[1].paper_id
    conv.ask("what data does the second one use?")
    conv.ask("and the first one?")
    t = conv.ask("compare them")
    assert t.kind == "compare" and set(ids(t)) == {first, second}, t.answer.text
    t = conv.ask("which is better?")
    assert t.kind == "compare" and set(ids(t)) == {first, second}, t.answer.text
    assert "which is better" in t.answer.text, t.answer.text
    # the criterion asked, not "better": "which one is faster?" was told which is better
    assert "do not say which is faster;" in conv.ask("which one is faster?").answer.text
    assert "do not say which has higher accuracy;" in conv.ask("which gets higher accuracy?").answer.text


@pytest.mark.parametrize(
    ("turns", "choice"),
    [
        (["Tell me about CogRouter", "what benchmarks does it use?", "and PrefixRL?"], "which is better?"),
        (["What datasets does DocVAL use?", "and what about DDL?"], "which one is more efficient?"),
    ],
)
def test_a_choice_after_one_paper_then_another_refused_chooses_between_the_two(
    components: Components, turns, choice
):
    # "and PrefixRL?" is refused (its abstract names no benchmark) but it was asked of PrefixRL:
    # "which is better?" said "the last answer is about PrefixRL alone: name the papers"
    conv = Conversation(components.pipeline)
    asked = [conv.ask(t) for t in turns]
    papers = {p for t in asked for p in (ids(t) or t.about)}
    assert len(papers) == 2, [t.answer.text[:80] for t in asked]
    t = conv.ask(choice)
    assert t.kind == "compare" and set(ids(t)) == papers, t.answer.text


AGENT_OMIT = "000_6b930c46f6674b66#14"
RAST_MOE = "004_7c6cb99d3d3a622c#10"


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ("which of the two is smaller?", "RAST-MoE [2] is the smaller (12M"),
        ("so which one has the larger model?", "Agent-Omit [1] is the larger (8B"),
        # "which is <comparative>?" without "one" was a search for the word ("which is more recent?"
        # after a comparison listed 12 papers on "recent")
        ("which is bigger?", "Agent-Omit [1] is the larger (8B"),
        ("and which is smaller?", "RAST-MoE [2] is the smaller (12M"),
    ],
)
def test_a_choice_by_size_after_a_comparison_compares_the_sizes_the_abstracts_state(conv, choice, said):
    # "which of the two is larger?" was asked within the two papers as a topic ("which papers is
    # larger?") and quoted "a small amount of cold-start data" for "smaller"
    conv.ask("Compare Agent-Omit and RAST-MoE")
    t = conv.ask(choice)
    assert t.kind == "compare" and ids(t) == [AGENT_OMIT, RAST_MOE], t.answer.text
    assert said in t.answer.lead, t.answer.lead
    assert "Agent-Omit-8B" in t.answer.lead and "12M-parameter" in t.answer.lead, t.answer.lead


@pytest.mark.parametrize(
    ("choice", "said"),
    [
        ("which one has the most parameters?", "Agent-Omit [{a}] is the largest (8B against 12M)"),
        ("which of them has the fewest params?", "RAST-MoE [{r}] is the smallest (12M against 8B)"),
    ],
)
def test_a_superlative_over_a_long_list_ranks_every_listed_paper_and_names_those_stating_no_size(
    conv: Conversation, choice, said
):
    # "which one has the most parameters?" after a list compared its first two papers and gave no
    # verdict: every listed paper is ranked by the size its abstract states, the others named
    listed = conv.ask("Which papers use reinforcement learning?")
    assert len(listed.citations) > 5 and {AGENT_OMIT, RAST_MOE} <= set(ids(listed)), listed.answer.text
    t = conv.ask(choice)
    n = numbers(listed)
    assert t.kind == "compare" and ids(t) == ids(listed), t.answer.text
    assert said.format(a=n[AGENT_OMIT], r=n[RAST_MOE]) in t.answer.lead, t.answer.lead
    unsized = [c for c in listed.citations if c.paper_id not in (AGENT_OMIT, RAST_MOE)]
    assert f"{unsized[0].label} [{unsized[0].number}]" in t.answer.lead.split("; ", 1)[1]
    assert t.answer.lead.endswith("state no model size."), t.answer.lead


def test_an_ordinal_beyond_the_newest_list_is_said_and_the_earlier_list_offered(conv: Conversation):
    first = conv.ask("Which papers use reinforcement learning?")
    second = conv.ask("Which papers work on speech or audio?")
    assert 2 <= len(second.citations) < 6 < len(first.citations)
    t = conv.ask("compare the first and sixth")
    assert t.kind == "clarify" and not t.citations, t.answer.text
    assert f"the last answer lists {len(second.citations)} papers" in t.answer.text
    a, f = first.citations[0], first.citations[5]
    offered = f"they are {a.label} [{a.number}] and {f.label} [{f.number}]: ask about them by those numbers"
    assert offered in t.answer.text, t.answer.text


def test_a_choice_by_age_is_answered_from_the_years_the_records_give(conv: Conversation):
    conv.ask("Compare Agent-Omit and RAST-MoE")
    t = conv.ask("which of the two is older?")
    assert t.kind == "compare" and set(ids(t)) == {AGENT_OMIT, RAST_MOE}, t.answer.text
    # both seed papers are of ICML 2026: no date tells them apart, and the answer says so
    assert "the records give no finer date" in t.answer.lead and "2026" in t.answer.lead, t.answer.lead
    # the records answered it: no "not stated in the abstract" for the age, no table shown again
    assert "not stated in the abstract" not in t.answer.text and "| |" not in t.answer.text, t.answer.text


def test_which_of_the_two_chooses_between_the_papers_discussed_across_turns(conv: Conversation):
    # "which of the two runs on a single GPU?" after FlexGen, then "and SmoothQuant?" was asked of
    # SmoothQuant alone and refused; the paper that states it here is the first one discussed
    first = conv.ask("What does APM propose?")
    conv.ask("and DANCE?")
    t = conv.ask("so which of those two computes its parameters in one forward pass?")
    assert not t.answer.refused and ids(t) == ids(first), t.answer.text


def test_a_measure_asked_alone_is_asked_of_the_paper_just_answered_when_it_states_it(conv: Conversation):
    # "how many NLP tasks?" after "What is GLaM?" listed papers on NLP tasks; on its own this
    # message was refused for CogRouter, though Agent-Omit states "seven efficient LLM agents methods"
    conv.ask("What is Agent-Omit?")
    t = conv.ask("how many efficient LLM agent methods?")
    assert not t.answer.refused and ids(t) == [AGENT_OMIT], t.answer.text
    assert "— Agent-Omit?" in t.standalone
    # a question naming what it asks of papers stays a question of its own
    t = conv.ask("which papers work on speech or audio?")
    assert AGENT_OMIT not in ids(t) and len(ids(t)) > 1, t.answer.text


def test_them_after_a_short_list_means_every_paper_of_it(conv: Conversation):
    # "compare them" after a list of three compared only the first two; "both" still means two,
    # and which two of the list is asked, naming them (was: the first two, silently)
    t1 = conv.ask("which papers are about knowledge distillation, dataset distillation or CoT distillation?")
    assert 3 <= len(t1.citations) <= 5, t1.answer.text
    t = conv.ask("compare them")
    assert t.kind == "compare" and ids(t) == ids(t1), t.answer.text
    conv.ask("which papers are about knowledge distillation, dataset distillation or CoT distillation?")
    t = conv.ask("compare both")
    assert t.kind == "clarify" and [p.id for p in t.candidates] == ids(t1), t.answer.text


@pytest.mark.parametrize("message", ["compare the first two", "compare these two papers", "compare the two"])
def test_a_counted_reference_to_earlier_papers_is_a_comparison_not_a_table(conv: Conversation, message):
    t1 = conv.ask("Which papers study federated learning?")
    assert len(t1.citations) == 2, t1.answer.text
    t = conv.ask(message)
    assert t.kind == "compare" and ids(t) == [c.paper_id for c in t1.citations[:2]], t.answer.text


@pytest.mark.parametrize(
    ("first", "message"),
    [
        ("Which paper proposes a metric for speaking style in role-play TTS?", "compare them"),
        ("What is DocVAL?", "how do both of them differ?"),
        ("Which paper detects audio deepfakes?", "what datasets do both use?"),
    ],
)
def test_them_after_one_paper_says_no_second_paper_was_discussed(conv: Conversation, first, message):
    # was: the one paper answered alone ("compare CA-SOADD"), or asked of itself ("CA-SOADD of CA-SOADD")
    t1 = conv.ask(first)
    assert len(t1.citations) == 1, t1.answer.text
    t = conv.ask(message)
    assert t.kind == "clarify" and not t.citations, t.answer.text
    assert f"discussed one paper so far, {t1.citations[0].label} [1]" in t.answer.text


@pytest.mark.parametrize(
    ("follow", "message", "kind"),
    [
        ("does the second one release code?", "contrast them", "compare"),
        ("what data does the second one use?", "put them in a table", "table"),
        ("what does the first one propose?", "give me a summary of them", "answer"),
    ],
)
def test_them_after_a_list_and_one_of_its_papers_means_the_list(conv: Conversation, follow, message, kind):
    # a list of two, a question about one of them, then "compare them": was that one paper
    # compared with itself ("Interpreted as: compare A Watermark for Large Language Models"), or a
    # table / summary of it alone
    t1 = conv.ask("Which papers study federated learning?")
    assert len(t1.citations) == 2, t1.answer.text
    one = conv.ask(follow)
    assert len(ids(one) or one.about) == 1, one.answer.text
    t = conv.ask(message)
    assert t.kind == kind and set(ids(t)) == set(ids(t1)), (t.standalone, t.answer.text[:300])


def test_them_after_a_list_then_one_paper_asks_which_to_set_beside_it(conv: Conversation):
    # "Which papers use RL?", "What does DoPR do?", "compare them": was DoPR and the list's first
    t1 = conv.ask("Which papers use reinforcement learning?")
    t2 = conv.ask("What does DoPR do?")
    t = conv.ask("compare them")
    assert t.kind == "clarify", t.answer.text
    assert f"about {t2.citations[0].label} [{t2.citations[0].number}] alone" in t.answer.text
    assert {p.id for p in t.candidates} <= set(ids(t1)) - set(ids(t2))


def test_an_ordinal_after_a_comparison_or_a_summary_asks_what_was_asked_or_says_so(conv: Conversation):
    # "Compare DocVAL and RSAgent", "and the second one?": was "and RSAgent?", answered with some
    # sentence of it; "Summarize the first one", "and the third one?": was the list's question again
    t1 = conv.ask("Compare DocVAL and RSAgent")
    t = conv.ask("and the second one?")
    assert t.kind == "clarify" and "the last answer compares" in t.answer.text, t.answer.text
    assert conv.ask("what does the second one propose?").citations[0].paper_id == t1.citations[1].paper_id
    listed = conv.ask("Which papers use reinforcement learning?")
    conv.ask("Summarize the second one")
    t = conv.ask("and the third one?")
    assert t.kind == "summary" and ids(t) == [listed.citations[2].paper_id], (t.standalone, t.answer.text[:200])


@pytest.mark.parametrize(
    ("message", "other"),
    [
        ("does the speech-to-text paper release code?", "text-to-speech"),
        ("what dataset does the image-to-text paper use?", "text-to-image"),
    ],
)
def test_a_paper_described_by_a_direction_no_paper_works_in_is_not_answered_by_the_other_way(
    conv: Conversation, message, other
):
    # was: MCLP (text-to-speech) answered "Yes", with its code link
    t = conv.ask(message)
    assert not t.citations and f"works the other way ({other})" in t.answer.text, t.answer.text
    t = conv.ask(message.replace("speech-to-text", "text-to-speech").replace("image-to-text", "text-to-image"))
    assert t.citations and t.kind == "answer" and "the other way" not in t.answer.text, t.answer.text


def test_a_pronoun_after_a_description_in_the_same_question_means_that_paper(conv: Conversation):
    t = conv.ask("What does the SAT paper propose, and how much does it improve?")
    assert t.kind == "answer" and ids(t) == [SAT], t.answer.text


def test_ordinals_reach_as_far_as_a_list_does(conv: Conversation):
    # a list holds up to twelve papers: "the sixth one" is its sixth; one past its end says so
    t1 = conv.ask("papers on LLM agents")
    assert len(t1.citations) == 6, t1.answer.text
    t2 = conv.ask("what does the sixth one propose?")
    assert ids(t2) == [t1.citations[5].paper_id], t2.answer.text
    t3 = conv.ask("what about the seventh one?")
    assert not t3.citations and "lists 6 papers" in t3.answer.text, t3.answer.text


@pytest.mark.parametrize(
    ("message", "paper"),
    [
        ("how big is its model? I mean the ride-hailing one", "RAST-MoE"),
        ("does it release code, I mean the compositional image generation one", "SoT"),
        ("what benchmark does it build - the proactive assistant one", "ProAct-75"),
        ("how much compute does it save? I mean the Shampoo preconditioner one", "FOAM"),
        # a message that opens by describing a paper: its "it" is the paper described (a new user's)
        ("I remember a paper that condenses image-text pairs for retrieval. What is it?", "APM"),
        ("i recall a paper on omitting redundant thoughts in agents; how big is its model?", "Agent-Omit"),
    ],
)
def test_a_description_of_the_paper_meant_beats_the_pronoun(conv: Conversation, message: str, paper: str):
    # "it" alone would be the last answer's first paper; "the X one" says which paper is meant
    conv.ask("papers on LLM agents")
    t = conv.ask(message)
    # the paper described is answered about: cited, or named as not stating what is asked (FOAM
    # states no figure for the compute it saves, as when it is named)
    said = t.answer.refused and f"The abstract of {paper} (" in t.answer.text
    assert [c.label for c in t.citations][:1] == [paper] or said, (message, t.answer.text)


def test_an_ordinal_without_an_earlier_list_is_asked_back(conv: Conversation):
    t = conv.ask("what benchmarks does the second one use?")
    assert not t.citations and "refers to no paper" in t.answer.text, t.answer.text


@pytest.mark.parametrize("follow_up", ["What about APM?", "I mean APM", "no, I meant APM"])
def test_follow_up_what_about(conv: Conversation, follow_up):
    conv.ask("What accuracy gain does DANCE report?")
    t = conv.ask(follow_up)  # the previous question of APM, whose abstract states no accuracy
    assert "APM" in t.standalone and "DANCE" not in t.standalone and "accuracy" in t.standalone, t.standalone
    assert t.answer.refused and "The abstract of APM" in t.answer.text and "does not state accuracy" in t.answer.text
    t = conv.ask("what about the paper on causal discovery?")  # a description finds its paper
    assert "causal preference elicitation" in t.answer.text and "accuracy" in t.standalone, t.answer.text


def test_question_naming_a_paper_is_not_rewritten(conv: Conversation):
    conv.ask("What accuracy gain does DANCE report?")
    t = conv.ask("Is it true that APM reduces storage?")
    assert t.standalone == "Is it true that APM reduces storage?"
    assert ids(t) == [APM]


# --- comparisons -------------------------------------------------------------------------


def test_compare_by_names(conv: Conversation, components: Components):
    t = conv.ask("compare DANCE and APM")
    assert t.kind == "compare"
    assert ids(t) == [DANCE, APM]
    assert numbers(t) == {DANCE: 1, APM: 2}
    table = t.table
    assert table is not None
    assert [r.key for r in table.rows] == ["problem", "approach", "data", "results", "limitations"]
    assert all(len(row) == 2 for row in table.cells)
    for pid in (DANCE, APM):  # both abstracts state their approach and results
        assert table.cell("approach", pid) and table.cell("results", pid)
    assert "Across 8 TAG datasets" in table.cell("results", DANCE)[0].sentence
    assert "benchmarks" in table.cell("data", APM)[0].sentence
    assert not table.cell("limitations", DANCE)  # no abstract sentence states one
    assert set(cited_numbers(t.answer.text)) == {1, 2}
    assert_grounded(t, components)


def test_compare_keeps_numbers_from_earlier_turns(conv: Conversation):
    conv.ask("What storage reduction does APM achieve?")  # APM -> [1]
    t = conv.ask("Compare DANCE with APM")
    assert numbers(t) == {DANCE: 2, APM: 1}
    assert ids(t) == [DANCE, APM]  # column order follows the question


def test_compare_method_by_description_and_pronoun(conv: Conversation):
    conv.ask("What accuracy gain does DANCE report?")
    t = conv.ask("How does it differ from the paper about robot hands?")
    assert t.kind == "compare"
    assert ids(t)[0] == DANCE
    assert conv.pipeline.retriever.papers[ids(t)[1]].label == "DexMachina"


def test_compare_ambiguous_description_asks_which_paper(conv: Conversation):
    t = conv.ask("compare the federated learning paper and APM")
    assert t.kind == "clarify"
    assert not t.citations
    cands = {p.id for p in t.candidates}
    assert {DANCE, FEDERATED} <= cands
    assert "Which paper do you mean" in t.answer.text


def test_compare_unknown_number_explains(conv: Conversation):
    t = conv.ask("compare [7] and [8]")
    assert t.kind == "clarify"
    assert "[7]" in t.answer.text and "no paper is cited" in t.answer.text


def test_compare_method_api(conv: Conversation):
    t = conv.compare("APM", "DANCE")
    assert ids(t) == [APM, DANCE]
    assert conv.turns[-1] is t


def test_compare_by_the_ids_the_sources_list_shows(conv: Conversation):
    t = conv.compare(APM, DANCE)
    assert t.kind == "compare" and ids(t) == [APM, DANCE]
    t = conv.ask(f"compare {DANCE} and `{APM}`")
    assert t.kind == "compare" and ids(t) == [DANCE, APM]


def test_select_rows_uses_minimum_score(components: Components):
    paper = components.retriever.papers[APM]
    rows = select_rows(components.pipeline.evidence, paper, ROWS, min_score=1.01)
    assert all(v == () for v in rows.values())  # nothing reaches an impossible floor -> not stated
    assert NOT_STATED == "not stated in the abstract"


def test_a_problem_stated_against_the_sentence_before_it_is_quoted_with_that_sentence(components: Components):
    """Over every seed paper: a problem cell never opens with "However, ..." or "These approaches ..."
    when the sentence it reads against is free; the cell's sentences are consecutive."""
    import re

    ev = components.pipeline.evidence
    opens = re.compile(r"^\W*(however|but|yet|these|this|such|they|it)\b", re.I)
    checked = 0
    for paper in components.retriever.papers.values():
        rows = select_rows(ev, paper, ROWS)
        cell = rows["problem"]
        if not cell:
            continue
        starts = [s.start for s in ev.sentences(paper)[0]]
        i = starts.index(cell[0].start)
        used = {e.start for key, evs in rows.items() if key != "problem" for e in evs}
        if opens.search(cell[0].sentence) and i > 0 and len(cell) < 3:
            assert starts[i - 1] in used, (paper.label, cell[0].sentence)
        if len(cell) > 1 and opens.search(cell[1].sentence):
            checked += 1
            assert starts.index(cell[1].start) == i + 1, paper.label
    assert checked >= 3  # the seed abstracts state several problems this way


# --- summaries ---------------------------------------------------------------------------


def test_summary_of_one_paper(conv: Conversation, components: Components):
    t = conv.ask("Summarize DANCE")
    assert t.kind == "summary" and ids(t) == [DANCE]
    bullets = [line for line in t.answer.text.splitlines() if line.startswith("- ")]
    assert len(bullets) >= 3
    assert all(re.search(r"\[1\]", b) for b in bullets)
    assert len(t.citations[0].evidence) >= 3
    assert_grounded(t, components)


def test_summary_of_a_paper_by_description(conv: Conversation):
    t = conv.ask("Summarize the paper on quantum computing")
    assert t.kind == "summary" and ids(t) == ["000_6b930c46f6674b66#6"]


def test_summary_of_an_earlier_paper_by_pronoun(conv: Conversation):
    conv.ask("What storage reduction does APM achieve?")
    t = conv.ask("summarize it")
    assert ids(t) == [APM]


def test_topic_summary_says_how_many_match_and_cites_every_sentence(conv: Conversation, components: Components):
    t = conv.ask("Summarize the papers on reinforcement learning")
    assert t.kind == "summary"
    m = re.match(
        r"(\d+) papers? in the collection match(?:es)? “reinforcement learning”; this summary uses (.+?):",
        t.answer.text,
    )
    assert m, t.answer.text
    matched = int(m.group(1))
    assert matched >= len(t.citations) >= 3
    assert len(t.citations) <= MAX_SUMMARY_PAPERS
    assert t.answer.matched == matched
    assert "**Approaches**" in t.answer.text
    for line in t.answer.text.splitlines():
        if line.startswith("- ") or line[:1].isdigit():
            assert cited_numbers(line), line
    assert_grounded(t, components)


def test_topic_summary_federated_learning(conv: Conversation):
    t = conv.ask("Summarize the papers on federated learning")
    assert set(ids(t)) == {FEDERATED, DANCE}


def test_topic_summary_refuses_an_absent_topic(conv: Conversation):
    t = conv.ask("Summarize the papers on protein folding")
    assert t.kind == "refusal" and t.answer.refused and not t.citations


# --- filters (seed papers without a year + 49 ICML papers of 2022/2023; ``mixed`` in conftest) ----

YEAR = {r["id"]: r["year"] for r in map(json.loads, MIXED.read_text().splitlines())}
TITLES = {r["id"]: r["title"] for r in map(json.loads, MIXED.read_text().splitlines())}


def years(turn: Turn) -> set[int | None]:
    return {YEAR.get(c.paper_id) for c in turn.citations}


def test_filters_restrict_pipeline_answers_and_topic_summaries(mixed: Components):
    conv = Conversation(mixed.pipeline)
    plain = conv.ask("Summarize the papers on diffusion models")
    assert plain.kind == "summary" and {2022, 2023} <= {YEAR.get(h.paper.id) for h in plain.answer.hits}

    answer = conv.ask("Which papers use diffusion models?", filters=Filters(year=2022))
    assert answer.kind == "answer" and answer.citations and years(answer) == {2022}
    assert answer.answer.note.startswith("filter: year=2022")
    assert_grounded(answer, mixed)

    topic = conv.ask("Summarize the papers on diffusion models", filters=Filters(year=2023, venue="icml"))
    assert topic.kind == "summary" and topic.citations and years(topic) == {2023}
    assert {YEAR.get(h.paper.id) for h in topic.answer.hits} == {2023}
    assert topic.answer.note.startswith("filter: year=2023, venue=icml")
    assert "in the collection (filter: year=2023, venue=icml) match" in topic.answer.text
    assert_grounded(topic, mixed)


def test_a_year_stated_in_the_message_filters_answers_and_topic_summaries(mixed: Components):
    conv = Conversation(mixed.pipeline)
    auto_note = f"filter: year=2023 ({AUTO_HINT})"
    on = conv.ask("papers from 2023 about diffusion", filters=Filters(auto=True))
    assert auto_note in on.answer.note and on.citations and years(on) == {2023}
    off = conv.ask("papers from 2023 about diffusion", filters=Filters(auto=False))
    assert "filter:" not in off.answer.note

    topic = conv.ask("Summarize the papers from 2023 on diffusion models", filters=Filters(auto=True))
    assert topic.kind == "summary" and topic.standalone == "Summarize the papers on diffusion models"
    assert auto_note in topic.answer.note and topic.citations and years(topic) == {2023}
    assert topic.question == "Summarize the papers from 2023 on diffusion models"


def test_a_question_within_the_last_list_is_asked_of_its_papers_only(mixed: Components):
    conv = Conversation(mixed.pipeline)
    auto = Filters(auto=True)
    listed = conv.ask("Which papers use diffusion models?", filters=auto)
    first = set(ids(listed))
    assert len(first) >= 4 and {2022, 2023} <= years(listed), listed.answer.text
    recent = conv.ask("which of them are from 2023?", filters=auto)  # not the 2023 papers of the collection
    assert recent.citations and set(ids(recent)) <= first and years(recent) == {2023}, recent.answer.text
    n = len({p for p in first if YEAR.get(p) == 2023})
    assert recent.answer.text.startswith(f"{n} of the {len(first)} papers of the previous answer match")
    molecules = conv.ask("Among these, which generate molecules?", filters=auto)  # within the 2023 papers
    assert molecules.citations and set(ids(molecules)) <= set(ids(recent)), molecules.answer.text
    assert_grounded(molecules, mixed)
    speech = conv.ask("do any of them synthesize speech?", filters=auto)  # Guided-TTS is 2022: not among them
    assert speech.kind == "refusal" and "None of the " in speech.answer.text, speech.answer.text
    assert "papers of the previous answer states “synthesize speech”" in speech.answer.text
    alone = Conversation(mixed.pipeline).ask("which ones use diffusion models?", filters=auto)  # no list yet
    assert set(ids(alone)) == first, alone.answer.text


def test_what_about_after_a_question_within_a_list_stays_within_it(mixed: Components):
    conv = Conversation(mixed.pipeline)
    listed = conv.ask("Which papers use diffusion models?")
    first = set(ids(listed))
    conv.ask("which of them generate molecules?")
    other = conv.ask("what about ones on images?")  # the list again, not every image paper of the collection
    assert other.citations and set(ids(other)) <= first, other.answer.text
    assert f"of the {len(first)} papers of the previous answer" in other.answer.text
    assert "“images”" in other.answer.text  # the frame words ("ones on") are no term a paper must state
    assert other.question == "what about ones on images?"  # the turn keeps what was typed (the page shows it)


@pytest.mark.parametrize(
    ("first", "follow_up", "label"),
    [
        ("Summarize FOAM", "what does it reduce compared with standard second-order methods?", "FOAM"),
        ("Summarize APM", "what storage reduction does it report compared with existing distillation methods?", "APM"),
        ("Summarize CogRouter", "what gains does it report compared with fixed-depth approaches?", "CogRouter"),
    ],
)
def test_a_follow_up_measured_against_a_set_of_methods_asks_of_the_earlier_paper(conv, first, follow_up, label):
    conv.ask(first)
    turn = conv.ask(follow_up)  # "compared with ... methods" names no second paper to pick
    assert turn.kind == "answer" and [c.label for c in turn.citations] == [label], turn.answer.text


def test_a_question_within_a_one_paper_answer_is_asked_of_that_paper(conv: Conversation):
    one = conv.ask("Which paper detects audio deepfakes by modelling only real speech?")
    assert len(one.citations) == 1, one.answer.text
    within = conv.ask("which of them use reinforcement learning?")  # not every RL paper of the collection
    assert within.kind == "refusal" and not within.citations, within.answer.text
    assert "No sentence of the abstract of CA-SOADD states" in within.answer.text


_PRUNERS = [
    {"id": "sp#1", "title": "ShearPrune: one-shot pruning of language models",
     "abstract": "Large language models are expensive to serve. We show that language models can be pruned to "
                 "half their weights in one shot, without any retraining. ShearPrune reaches this sparsity in "
                 "under two hours on a single GPU."},
    {"id": "gp#1", "title": "GradPrune: gradual pruning of language models",
     "abstract": "We study gradual pruning of language models. GradPrune removes heads step by step and then "
                 "requires retraining the pruned model on the original corpus to recover accuracy."},
    {"id": "wm#1", "title": "Inkblot: watermarking the outputs of chat models",
     "abstract": "We present Inkblot, which embeds a statistical watermark in the text that chat models generate. "
                 "The watermark can be detected without access to the model weights, from a few hundred tokens."},
    {"id": "mol#1", "title": "Graph models for molecules",
     "abstract": "We study graph neural networks for molecules and report gains on ten benchmarks."},
]


def test_a_choice_within_the_papers_discussed_answers_no_for_a_paper_that_denies_it(tmp_path, embedder):
    # "which one needs retraining?" after a list named SparseGPT among those no sentence of which
    # states it, though SparseGPT prunes "without any retraining"; after a list of one watermarking
    # paper, "which one needs access to the model?" searched the whole collection
    components = pipeline_of(tmp_path, _PRUNERS, embedder)
    conv = components.conversation()
    listed = conv.ask("Which papers prune language models?")
    assert {"ShearPrune", "GradPrune"} <= {c.label for c in listed.citations}, listed.answer.text
    within = conv.ask("which one needs retraining?")
    assert [c.label for c in within.citations] == ["GradPrune"], within.answer.text
    assert "Stated not to: ShearPrune — “" in within.answer.text and "without any retraining" in within.answer.text
    conv2 = components.conversation()
    one = conv2.ask("Which papers watermark the outputs of chat models?")
    assert [c.paper_id for c in one.citations] == ["wm#1"], one.answer.text
    label = one.citations[0].label
    access = conv2.ask("which one needs access to the model weights?")
    assert access.answer.text.startswith(f"No: **{label}** [1] — “"), access.answer.text
    assert "without access to the model weights" in access.answer.text


_GPT3_MENTIONS = [
    {"id": "moe#1", "title": "GLaMour: a sparse mixture-of-experts language model",
     "abstract": "Scaling dense language models is costly. We present GLaMour, a sparse mixture-of-experts language "
                 "model with 1.2 trillion parameters. It consumes only one third of the energy used to train GPT-3."},
    {"id": "dsc#1", "title": "Describing differences between text distributions",
     "abstract": "We prompt GPT-3 to describe how two text distributions differ. Our method proposes hypotheses "
                 "and verifies them on held-out samples."},
    {"id": "pipe#1", "title": "PipeFlow: memory-balanced pipeline training",
     "abstract": "We train GPT-3 sized models with a memory-balanced pipeline schedule. PipeFlow cuts memory use "
                 "by 30% on eight GPUs."},
]


def test_a_name_papers_mention_and_none_owns_is_what_a_paper_is_measured_against(tmp_path, embedder):
    # "How much energy does the 1.2 trillion parameter mixture-of-experts language model use compared
    # to GPT-3?" asked "Which paper do you mean by 'GPT-3'?" among three papers that mention GPT-3
    # (nu58); none of them is GPT-3, so the question is about the described paper
    conv = pipeline_of(tmp_path, _GPT3_MENTIONS, embedder).conversation()
    turn = conv.ask(
        "How much energy does the trillion-parameter mixture-of-experts language model use compared to GPT-3?"
    )
    assert turn.kind == "answer" and ids(turn) == ["moe#1"], turn.answer.text
    assert "one third of the energy used to train GPT-3" in turn.answer.text
    # two papers of the collection named are still compared
    both = conv.ask("Compare GLaMour and PipeFlow")
    assert both.kind == "compare" and ids(both) == ["moe#1", "pipe#1"], both.answer.text


_DESCRIBED_SIDES = [
    {"id": "dp#1", "title": "Binomial noise for private federated averaging",
     "abstract": "We propose BinoFed, a discrete differential privacy mechanism for federated averaging that adds "
                 "binomial noise to client updates. It matches the privacy-accuracy trade-off of the Gaussian "
                 "mechanism while sending only a few bits per coordinate."},
    {"id": "acct#1", "title": "Fast privacy accounting for composed mechanisms",
     "abstract": "We give a fast accountant for composing many privacy mechanisms. The class we cover includes "
                 "the subsampled Gaussian mechanism used to train private neural networks."},
    {"id": "ticket#1", "title": "Structured winning tickets by refilling",
     "abstract": "A winning ticket is usually found by iterative magnitude pruning, which leaves unstructured "
                 "sparsity. We propose a refilling method that finds structured winning tickets and speeds up "
                 "inference on GPUs."},
    {"id": "denoise#1", "title": "Pruning denoises the features of small networks",
     "abstract": "We study networks produced by iterative magnitude pruning on image tasks and show that pruning "
                 "removes noise from the learned features."},
    {"id": "kd#1", "title": "Hierarchical distillation for vision-language models",
     "abstract": "Knowledge distillation compresses large vision-language models into small students. We "
                 "propose HiDist, which aligns clustered visual tokens of teacher and student."},
    {"id": "doc#1", "title": "Grounded answers for document questions",
     "abstract": "Vision-language models answer questions about documents but rarely localize the answer. We "
                 "train a small grounding model on teacher outputs for document question answering."},
]


def test_a_described_side_is_the_paper_stating_it_and_a_name_no_paper_owns_is_a_baseline(tmp_path, embedder):
    # A described side is the paper that states the description, not the nearest title; a name
    # papers mention and none owns is what that paper is set against (h55b)
    conv = pipeline_of(tmp_path, _DESCRIBED_SIDES, embedder).conversation()
    turn = conv.ask(
        "In what way does the binomial-noise federated privacy mechanism differ from the Gaussian mechanism?"
    )
    assert turn.kind == "answer" and ids(turn) == ["dp#1"], turn.answer.text
    assert "Gaussian mechanism" in turn.answer.text
    turn = conv.ask("Contrast the structured winning tickets paper with iterative magnitude pruning")
    assert ids(turn) == ["ticket#1"], turn.answer.text  # not compared with the pruning-analysis paper
    assert "does not mention" not in turn.answer.text  # its abstract writes iterative magnitude pruning
    turn = conv.ask("How does the vision-language knowledge distillation paper compare to the Gaussian mechanism?")
    assert ids(turn) == ["kd#1"], turn.answer.text
    assert turn.answer.text.startswith("The abstract of ") and "does not mention Gaussian mechanism" in turn.answer.text
    turn = conv.ask("Compare the vision-language knowledge distillation paper and the document grounding paper")
    assert turn.kind == "compare" and ids(turn) == ["kd#1", "doc#1"], turn.answer.text


def test_a_summary_of_a_paper_no_abstract_owns_is_refused_naming_who_mentions_it(tmp_path, embedder):
    # "Tell me about the AlphaFold paper" summarized a paper that never writes AlphaFold (h55b)
    conv = pipeline_of(tmp_path, _DESCRIBED_SIDES, embedder).conversation()
    absent = conv.ask("Could you summarize the AlphaGo paper?")
    assert absent.answer.refused and not absent.citations, absent.answer.text
    assert "no abstract mentions it" in absent.answer.text
    mentioned = conv.ask("Give me an overview of the Gaussian mechanism paper")
    assert mentioned.answer.refused and not mentioned.citations, mentioned.answer.text
    assert "BinoFed" in mentioned.answer.text or "dp#1" in mentioned.answer.text
    owned = conv.ask("What is the HiDist paper about?")  # the name its abstract gives its work
    assert ids(owned) == ["kd#1"], owned.answer.text


def test_a_question_within_the_last_list_keeps_the_papers_that_state_it(conv: Conversation, components):
    listed = conv.ask("Which papers use reinforcement learning for LLM agents?")
    first = ids(listed)
    code = conv.ask("which of these release code?")  # "Our software and data are publicly available" counts
    kept = ids(code)
    assert kept and set(kept) < set(first), code.answer.text
    assert code.answer.text.startswith(f"{len(kept)} of the {len(first)} papers of the previous answer make")
    assert "No sentence states it in: " in code.answer.text  # the others were checked, and are named
    for c in code.citations:  # each kept paper is quoted with the sentence that makes its code available
        assert availability_span(c.evidence[0].sentence, "code") is not None
    assert_grounded(code, components)
    conv2 = Conversation(conv.pipeline)
    conv2.ask("Which papers use reinforcement learning for LLM agents?")
    alf = conv2.ask("which of them are evaluated on ALFWorld or ScienceWorld?")  # alternatives: either one
    assert alf.citations and set(ids(alf)) < set(first), alf.answer.text
    assert all(re.search("ALFWorld|ScienceWorld", c.evidence[0].sentence) for c in alf.citations)


def test_a_paper_asked_by_its_title_is_that_paper_or_is_said_to_be_absent(mixed: Components):
    conv = Conversation(mixed.pipeline)
    absent = conv.ask("Summarize Attention Is All You Need")  # not a topic to list papers on
    assert absent.kind == "refusal" and not absent.citations
    assert "No paper titled “Attention Is All You Need” is in the collection." in absent.answer.text
    diffpure = next(pid for pid, r in TITLES.items() if r == "Diffusion Models for Adversarial Purification")
    held = conv.ask('What does "Diffusion Model for Adversarial Purification" propose?')  # one letter off
    assert ids(held) == [diffpure], held.answer.text


def test_a_paper_asked_by_the_head_of_its_title_is_that_paper_and_a_near_one_is_only_offered(mixed: Components):
    conv = Conversation(mixed.pipeline)
    robin = next(pid for pid, r in TITLES.items() if r.startswith("Robin Hood and Matthew Effects:"))
    held = conv.ask("Give me the gist of Robin Hood and Matthew Effects")  # its words read as a topic find others
    assert held.kind == "summary" and ids(held) == [robin], held.answer.text
    soft = next(pid for pid, r in TITLES.items() if r.startswith("Soft Truncation:"))
    assert ids(conv.ask("What does Soft Truncation propose?")) == [soft]
    # no title, head or abstract writes it: refused, the paper its words come near offered, not answered
    near = Conversation(mixed.pipeline).ask("Summarize Adversarial Purification Networks")
    assert near.kind == "refusal" and not near.citations, near.answer.text
    assert "No paper titled “Adversarial Purification Networks” is in the collection." in near.answer.text


@pytest.mark.parametrize(
    "title",
    [
        "Attention Is All You Need",
        "Language Models are Few-Shot Learners",
        "Deep Residual Learning for Image Recognition",
    ],
)
def test_a_title_asked_of_records_without_titles_is_not_answered_by_papers_on_some_of_its_words(
    components: Components, title
):
    # The seed records have no titles: "Attention Is All You Need" listed 4 papers that mention
    # attention, "Few-Shot Learners" answered ReAugment (few-shot forecasting, no language model)
    turn = Conversation(components.pipeline).ask(f"Summarize {title}")
    assert turn.kind == "refusal" and not turn.citations, turn.answer.text
    assert f"No paper titled “{title}” can be found: the records of this collection have no titles" in turn.answer.text


def test_a_title_of_records_without_titles_is_read_as_a_description_its_papers_state(components: Components):
    turn = Conversation(components.pipeline).ask("Summarize Dataset Condensation for Text Classification")
    assert turn.kind != "refusal" and turn.citations, turn.answer.text
    assert turn.answer.text.startswith("The records of this collection have no titles; “Dataset Condensation for Text")
    dance = "000_6b930c46f6674b66#1"  # condenses text datasets: every word of the title is in its abstract
    assert dance in ids(turn)


@pytest.mark.parametrize(
    "titled",
    ["Summarize Diffusion Models for Molecule Generation", "Give me a summary of Diffusion Models in Image Generation"],
)
def test_a_title_cased_topic_no_title_matches_is_answered_by_the_papers_clearly_about_it(mixed: Components, titled):
    conv = Conversation(mixed.pipeline)
    turn = conv.ask(titled)  # read as a title (capitalised words around a function word): none has it
    assert turn.kind != "refusal" and len(turn.citations) >= 2, turn.answer.text
    assert turn.answer.text.startswith("No paper titled “"), turn.answer.text
    assert "” is in the collection; read as a topic:" in turn.answer.text
    lower = Conversation(mixed.pipeline).ask(titled[:titled.index(" ", 10)] + titled[titled.index(" ", 10):].lower())
    assert ids(lower) == ids(turn), lower.answer.text  # the same papers as the topic in lower case


@pytest.mark.parametrize(
    "question", ["Which papers on diffusion models release code?", "diffusion model papers with a GitHub link?"]
)
def test_the_papers_on_a_topic_that_release_code_are_those_on_it_stating_their_code(mixed: Components, question):
    conv = Conversation(mixed.pipeline)
    turn = conv.ask(question)  # "release code" is a condition on the papers, not words of the topic
    assert len(turn.citations) >= 2, turn.answer.text
    assert all("diffusion" in mixed.pipeline.catalogue[p].abstract.lower() for p in ids(turn)), turn.answer.text
    for c in turn.citations:  # each quoted with the sentence that makes its code available
        assert availability_span(c.evidence[0].sentence, "code") is not None or "github" in c.evidence[0].sentence
    others = re.search(r"(\d+) other papers clearly about “diffusion models?” state no code", turn.answer.text)
    assert others and int(others.group(1)) >= 3, turn.answer.text
    assert_grounded(turn, mixed)
    knit = conv.ask("Which papers on knitting patterns release code?")  # the topic is still judged
    assert knit.kind == "refusal" and not knit.citations, knit.answer.text


@pytest.mark.parametrize(
    "question", ["Summarize Knitting Patterns for Wool Sweaters", "Summarize Medieval Poetry in Translation"]
)
def test_a_title_cased_topic_the_collection_does_not_hold_is_refused(mixed: Components, question):
    turn = Conversation(mixed.pipeline).ask(question)  # capitals mark the title case, not rare names
    assert turn.kind == "refusal" and not turn.citations, turn.answer.text


def test_named_papers_resolve_outside_the_filter_and_are_flagged(mixed: Components):
    conv = Conversation(mixed.pipeline)
    summary = conv.ask("Summarize DANCE", filters=Filters(year=2023))
    assert summary.kind == "summary" and ids(summary) == [DANCE]
    assert "outside the filter (year=2023): DANCE [1]" in summary.answer.note
    assert "outside the filter (year=2023): DANCE [1]" in summary.answer.text

    table = conv.ask("compare DANCE and APM", filters=Filters(year=2023))
    assert table.kind == "compare" and ids(table) == [DANCE, APM]
    assert "outside the filter (year=2023): DANCE [1], APM [2]" in table.answer.text

    inside = conv.ask("compare DANCE and APM", filters=Filters(venue="ICML"))  # seed papers are ICML 2026
    assert "outside the filter" not in inside.answer.note and inside.answer.note.startswith("filter: venue=ICML")


def test_a_follow_up_about_a_paper_outside_the_filter_says_why_it_is_refused(mixed: Components):
    conv = Conversation(mixed.pipeline)
    first = conv.ask("What accuracy gain does DANCE report?")
    assert ids(first) == [DANCE]
    follow = conv.ask("What is its main idea?", filters=Filters(year=2023))
    assert follow.kind == "refusal" and not follow.citations
    assert follow.answer.text.startswith(f"{REFUSAL} DANCE is outside the filter (year=2023)")
    assert "DANCE" in follow.standalone


def test_a_filter_that_matches_nothing_refuses_clearly(mixed: Components):
    conv = Conversation(mixed.pipeline)
    none = f"{REFUSAL} No paper in the collection matches the filter (venue=NeurIPS)."
    answer = conv.ask("Which papers use diffusion models?", filters=Filters(venue="NeurIPS"))
    assert answer.kind == "refusal" and answer.answer.text == none and not answer.citations
    assert "filter: venue=NeurIPS" in answer.answer.note
    topic = conv.ask("Summarize the papers on diffusion models", filters=Filters(venue="NeurIPS"))
    assert topic.kind == "refusal" and topic.answer.text == none and not topic.citations
    assert "filter: venue=NeurIPS" in topic.answer.note


def test_the_compare_command_asks_for_no_aspect(conv: Conversation):
    t = conv.compare("DANCE", "cogroutr")  # a typing error in a lower-case name still finds CogRouter
    assert t.kind == "compare" and "on what the question asks" not in t.answer.text
    assert conv.pipeline.catalogue[ids(t)[1]].label == "CogRouter"


def test_authors_are_answered_from_the_records(mixed: Components):
    conv = Conversation(mixed.pipeline)
    t = conv.ask("Who are the authors of DiffPure?")
    assert not t.answer.refused and "Weili Nie" in t.answer.text and t.citations, t.answer.text
    seed = conv.ask("Who wrote DANCE?")  # the seed records hold no authors
    assert seed.answer.refused and "do not state authors" in seed.answer.text


def test_authors_of_a_paper_the_question_describes_are_answered_from_its_record(mixed: Components):
    t = Conversation(mixed.pipeline).ask(
        "who wrote the paper that generates 3D molecules with an equivariant diffusion model?"
    )
    assert not t.answer.refused and "from its record" in t.answer.text, t.answer.text
    assert [c.paper_id for c in t.citations][:1] == ["icml-d8c9e0fe2a93"], t.answer.text  # Equivariant Diffusion ...


# --- messages that ask nothing; details asked of the previous paper ------------------------


@pytest.mark.parametrize("message", ["hello!", "hi there", "thanks!", "ok", "Good evening :)", "what can you do?"])
def test_a_message_that_asks_nothing_says_what_can_be_asked(conv: Conversation, components: Components, message):
    conv.ask("Summarize DANCE")  # a paper was just discussed: the reply still names none
    t = conv.ask(message)
    assert t.kind == "refusal" and t.answer.refused and not t.citations, t.answer.text
    text = t.answer.text
    assert not text.startswith(REFUSAL) and "closest" not in text
    assert all(w in text.lower() for w in ("summar", "compar", "table")), text
    labels = {p.label for p in components.retriever.papers.values() if len(p.label) > 3}
    assert not [label for label in labels if label in text], text


def test_by_how_much_asks_the_previous_question_for_its_figure(conv: Conversation):
    conv.ask("Which papers use mixture of experts?")
    conv.ask("what does the first one reduce?")
    t = conv.ask("and by how much?")  # was "Please ask a question about the papers"
    assert [c.label for c in t.citations] == ["RAST-MoE"] and "10%" in t.answer.lead, t.answer.text
    assert t.question == "and by how much?" and t.standalone.endswith("— and by how much?"), t.standalone
    fresh = Conversation(conv.pipeline).ask("by how much?")  # nothing asked before: nothing to continue
    assert fresh.kind == "refusal" and not fresh.citations


def test_a_count_with_no_topic_of_its_own_is_asked_of_the_previous_paper(conv: Conversation):
    conv.ask("What is Agent-Omit?")
    t = conv.ask("how many benchmarks?")  # not "how many papers are about benchmarks"
    assert [c.label for c in t.citations] == ["Agent-Omit"] and "five agent benchmarks" in t.answer.lead, t.answer.text
    assert t.standalone.endswith("— Agent-Omit?"), t.standalone
    fresh = Conversation(conv.pipeline).ask("how many benchmarks?")  # nothing before: the collection is asked
    assert [c.label for c in fresh.citations] != ["Agent-Omit"], fresh.answer.text


def test_a_detail_with_no_topic_is_asked_of_the_previous_paper(mixed: Components):
    conv = Conversation(mixed.pipeline)
    first = conv.ask("Summarize DiffPure")
    for q in ("who are the authors?", "who wrote the paper?", "and the author list, please"):
        t = conv.ask(q)
        assert not t.answer.refused and "Weili Nie" in t.answer.text, (q, t.answer.text)
        assert ids(t) == ids(first) and "DiffPure" in t.standalone, q


def test_a_detail_the_record_lacks_is_refused_naming_the_previous_paper(conv: Conversation):
    conv.ask("Summarize DANCE")
    for q in (
        "who are the authors?",
        "when was the paper published?",
        "any funding information?",
        "what review scores did this one get?",
    ):
        t = conv.ask(q)
        assert t.answer.refused and not t.citations, q
        assert "do not state" in t.answer.text and DANCE in t.answer.text and "closest" not in t.answer.text, q
    fresh = Conversation(conv.pipeline).ask("who are the authors?")  # nothing discussed: no paper named
    assert fresh.answer.refused and "do not state authors" in fresh.answer.text and "#" not in fresh.answer.text


def test_three_named_papers_are_compared_side_by_side(conv: Conversation):
    turn = conv.ask("compare DANCE, APM and HieRD")
    assert turn.kind == "compare" and len(turn.citations) == 3, turn.answer.text
    header = next(line for line in turn.answer.text.splitlines() if line.startswith("| |"))
    assert header.count("[") == 3, header


def test_what_about_a_property_of_the_discussed_paper_asks_it_of_that_paper(conv: Conversation):
    conv.ask("any papers on speech or audio?")
    second = conv.ask("summarise the second one")
    paper = second.citations[0].paper_id
    turn = conv.ask("and what about its limitations?")
    # not the first question asked again ("any papers on speech or audio — its limitations?"): the
    # paper cited, or the one a refusal checked when its abstract states no limitation of its own
    assert (ids(turn) or list(turn.about)) == [paper], turn.answer.text
    assert "limitation" in turn.answer.text.split("\n", 1)[0], turn.answer.text


@pytest.mark.parametrize("follow_up", ["which one needs less memory", "which one is more compute efficient?"])
def test_a_comparative_follow_up_is_asked_of_the_compared_papers(conv: Conversation, follow_up):
    first = conv.ask("compare ME-DLM and FOAM")
    turn = conv.ask(follow_up)
    assert not turn.answer.refused, turn.answer.text
    assert {c.paper_id for c in turn.citations} == {c.paper_id for c in first.citations}


def test_which_one_after_a_comparison_of_three_chooses_among_all_three(conv: Conversation):
    first = conv.ask("compare CogRouter, Agent-Omit and EMPG")
    assert len(first.citations) == 3, first.answer.text
    turn = conv.ask("which one is more efficient?")
    assert {c.paper_id for c in turn.citations} == {c.paper_id for c in first.citations}, turn.answer.text


def test_compare_the_first_three_compares_the_lists_first_three(conv: Conversation):
    listed = conv.ask("Which papers use reinforcement learning for LLM agents?")
    assert len(listed.citations) >= 3
    turn = conv.ask("compare the first three")
    assert turn.kind == "compare", turn.answer.text
    assert [c.paper_id for c in turn.citations] == [c.paper_id for c in listed.citations[:3]]
    assert "on what the question asks" not in turn.answer.text  # "the first three" is no aspect


def test_which_one_chooses_among_the_latest_answers_papers_only(conv: Conversation):
    conv.ask("compare ME-DLM and FOAM")
    conv.ask("Tell me about APM")
    turn = conv.ask("which one needs less memory?")
    # the latest answer is about APM alone: ME-DLM and FOAM are not "which one"'s choices
    assert not ({c.paper_id for c in turn.citations} & {"004_7c6cb99d3d3a622c#13"}), turn.answer.text


def test_an_aspect_that_names_a_row_is_that_row(conv: Conversation):
    turn = conv.ask("CogRouter vs PrefixRL on data")
    text = turn.answer.text
    block = text.split("**Data**", 1)[1].split("\n\n", 1)[0]
    assert "ALFWorld and ScienceWorld" in block, block  # as the table's data row quotes it
    row = text.split("| **Data / benchmarks** |", 1)[1].split("\n", 1)[0]
    assert block.count(NOT_STATED) == row.count("not stated"), (block, row)


@pytest.mark.parametrize(
    "follow_up", ["and retrieval?", "what about retrieval?", "but how about cross-modal retrieval?"]
)
def test_what_about_a_word_the_paper_states_asks_it_of_that_paper(conv: Conversation, follow_up):
    conv.ask("How much storage reduction does APM achieve?")
    t = conv.ask(follow_up)  # was every retrieval paper of the collection
    assert ids(t) == [APM] and "12.8" in t.answer.lead, t.answer.text
    assert t.standalone.endswith("— APM?") and t.question == follow_up, t.standalone


def test_what_about_a_word_the_paper_never_states_is_the_previous_question_of_that_topic(conv: Conversation):
    conv.ask("How much storage reduction does APM achieve?")
    t = conv.ask("and graphs?")
    assert APM not in ids(t), t.answer.text


@pytest.mark.parametrize("follow_up", ["what datasets are used?", "what benchmarks?", "and the results?"])
def test_a_question_naming_only_a_part_of_an_abstract_is_asked_of_the_previous_paper(conv: Conversation, follow_up):
    conv.ask("How much storage reduction does APM achieve?")
    t = conv.ask(follow_up)  # was a list of papers about datasets
    assert ids(t) == [APM] and "APM" in t.standalone, t.answer.text
    fresh = Conversation(conv.pipeline).ask(follow_up)  # nothing before: the collection is asked
    assert ids(fresh) != [APM], fresh.answer.text


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("does the ride-hailing paper release code?", "RAST-MoE"),
        ("does the augmentation one release code?", "ReAugment"),
    ],
)
def test_a_yes_no_question_about_a_described_paper_is_asked_of_that_paper(conv: Conversation, question, label):
    t = conv.ask(question)  # was a list of the 8 papers that release code
    assert meant(conv, t) == [label], t.answer.text
    assert "no sentence makes its code available" in t.answer.text, t.answer.text


def test_a_description_after_a_list_means_the_listed_paper_that_states_it(conv: Conversation):
    conv.ask("Which papers deal with time series?")
    t = conv.ask("does it release code? I mean the augmentation one")
    assert meant(conv, t) == ["ReAugment"], t.answer.text
    assert [c.label for c in conv.ask("what is its main result?").citations] == ["ReAugment"]


@pytest.mark.parametrize(
    ("message", "label", "said"),
    [
        ("and the TTS one, does it release code?", "MCLP", "github.com/y-ren16/MCLP"),  # a new user's: was 8 papers
        ("the deepfake one: what benchmarks does it use?", "CA-SOADD", "ASVSpoof"),
    ],
)
def test_a_described_paper_put_before_its_question_is_the_listed_paper(conv: Conversation, message, label, said):
    conv.ask("Which papers work on speech or audio?")
    t = conv.ask(message)
    assert [c.label for c in t.citations] == [label], t.answer.text
    assert said in t.answer.text, t.answer.text


@pytest.mark.parametrize(
    ("follow_up", "label", "has_code"),
    [
        ("and the second one?", "Music carrier selection algorithm", False),  # a new user's: any sentence of it
        ("what about the first one?", "MCLP", True),
        ("and APM?", "APM", False),  # a paper outside the list: the same check of it
    ],
)
def test_a_check_within_the_list_asked_again_of_one_paper_checks_that_paper(conv: Conversation, follow_up, label,
                                                                            has_code):  # fmt: skip
    conv.ask("Which papers work on speech or audio?")
    conv.ask("which of them release code?")
    t = conv.ask(follow_up)
    if has_code:
        assert [c.label for c in t.citations] == [label] and t.answer.text.startswith("Yes:"), t.answer.text
    else:
        assert not t.citations and f"No sentence of the abstract of {label} makes its code available" in t.answer.text


@pytest.mark.parametrize("correction", ["I mean the deepfake one", "no, I mean the deepfake one"])
def test_a_correction_asks_the_previous_question_of_the_paper_it_describes(conv: Conversation, correction):
    conv.ask("Which papers work on speech or audio?")
    conv.ask("what data does the third one use?")
    t = conv.ask(correction)  # was CA-SOADD's method sentence: the data question was dropped
    assert [c.label for c in t.citations] == ["CA-SOADD"] and "ASVSpoof" in t.answer.lead, t.answer.text


@pytest.mark.parametrize("message", [
    # a new user's: "what's the parameter count of the ride-hailing matching model?" said "not stated";
    # the possessive of a description read "big", "paper's" and "model" as the topic
    "how big is the ride-hailing paper's model?",
    "how big is that ride-hailing paper's model?",
    "that ride-hailing paper: how big is its model?",
    "how many parameters does this ride-hailing method's model have?",
])
def test_a_detail_of_a_described_paper_is_read_through_its_possessive(conv: Conversation, message):
    t = conv.ask(message)
    assert [c.label for c in t.citations] == ["RAST-MoE"] and "12M-parameter" in t.answer.lead, t.answer.text


@pytest.mark.parametrize("message", [
    "There's a paper on detecting audio deepfakes - does it use one-class learning?",  # a new user's
    "I remember a paper that condenses image-text pairs. Is it evaluated on Flickr30k?",
])
def test_a_yes_no_question_of_a_paper_a_message_describes_is_not_asked_of_the_previous(conv: Conversation, message):
    conv.ask("Summarize ME-DLM")
    t = conv.ask(message)
    assert "ME-DLM" not in t.standalone and "ME-DLM" not in {c.label for c in t.citations}, t.answer.text
    assert t.citations and t.citations[0].label in ("CA-SOADD", "APM"), t.answer.text


@pytest.mark.parametrize(("message", "label", "yes"), [
    ("Does the paper about ride-hailing use a mixture of experts?", "RAST-MoE", True),
    ("Does the paper that builds a text-to-image dataset release code?", "SoT", True),
    ("Does the paper on audio deepfakes release code?", "CA-SOADD", False),
])
def test_a_yes_no_question_of_a_described_paper_is_answered_yes_or_no(conv: Conversation, message, label, yes):
    t = conv.ask(message)  # was the description's paper with its proposal sentence, no yes or no
    assert [c.label for c in t.citations][:1] == [label] or (not yes and label in t.answer.text), t.answer.text
    if yes:
        assert t.answer.lead.startswith("Yes"), t.answer.text
    else:
        assert "does not state" in t.answer.text or t.answer.lead.startswith("No"), t.answer.text


@pytest.mark.parametrize("before", [
    # a new user's: read "What are the audio deepfake one, what datasets does it use?"
    "what about the audio deepfake one, what datasets does it use?",
    "no, I meant the deepfake one: which benchmarks does it use?",
])
def test_a_described_paper_put_after_what_about_is_asked_its_question(conv: Conversation, before):
    conv.ask("Summarize DANCE")
    t = conv.ask(before)
    assert [c.label for c in t.citations] == ["CA-SOADD"] and "ASVSpoof" in t.answer.lead, t.answer.text


@pytest.mark.parametrize(
    ("before", "message", "label"),
    [
        # a new user's: APM writes "image-text" benchmarks, SoT "text-to-image" generation
        ("Compare APM and DANCE", "does it release code? I mean the text-to-image one", "SoT"),
        ("Summarize HieRD", "does it release code? I mean the text-to-speech one", "MCLP"),
        # the paper of the last answer that writes the compound is still the one meant
        ("Compare APM and DANCE", "does it release code? I mean the graph condensation one", "DANCE"),
        ("Compare APM and DANCE", "does it release code? I mean the multi-modal one", "APM"),
    ],
)
def test_a_described_compound_means_the_paper_that_writes_it_so(conv: Conversation, before, message, label):
    conv.ask(before)
    t = conv.ask(message)
    assert meant(conv, t) == [label], (message, t.answer.text)


def test_they_after_a_question_of_its_own_about_one_paper_are_its_authors(conv: Conversation):
    # a new user's: "which benchmarks do they use?" after "Tell me about the Koopman Q-learning paper"
    # also asked the paper of the turn before it
    conv.ask("Which paper detects audio deepfakes?")
    conv.ask("does it release code?")
    conv.ask("Tell me about PrefixRL")
    t = conv.ask("which benchmarks do they use?")
    assert "PrefixRL" in t.standalone and "CA-SOADD" not in t.standalone, t.standalone
    assert not {c.label for c in t.citations} - {"PrefixRL"}, t.answer.text
    # the other reading is offered in one line
    offer = t.answer.text.rsplit("\n", 1)[-1]
    assert offer.startswith("“they” read as PrefixRL") and "CA-SOADD" in offer, t.answer.text


def test_they_after_a_paper_set_beside_another_are_both(conv: Conversation):
    conv.ask("What does EMPG propose?")
    conv.ask("what about Agent-Omit?")
    t = conv.ask("which environments do they evaluate on?")
    assert "EMPG" in t.standalone and "Agent-Omit" in t.standalone, t.standalone
    assert "read as" not in t.answer.text, t.answer.text


@pytest.mark.parametrize("narrowing", ["which of them use reinforcement learning?", "which ones release code?"])
def test_narrowing_after_a_question_that_found_nothing_is_refused(conv: Conversation, narrowing):
    # a new user's: "which of them are from 2022?" after a refusal listed 1,233 library papers
    refused = conv.ask("Is there a paper on protein folding?")
    assert not refused.citations, refused.answer.text
    t = conv.ask(narrowing)
    assert not t.citations and "found no paper" in t.answer.text, t.answer.text


def test_which_one_after_two_one_paper_answers_chooses_between_them(conv: Conversation):
    conv.ask("summarize DANCE")
    conv.ask("and APM?")
    t = conv.ask("which one is faster?")  # was asked alone: "nothing in the collection is close"
    assert sorted(ids(t)) == sorted([DANCE, APM]), t.answer.text


# --- a refused question keeps its paper ----------------------------------------------------------


def test_it_after_a_slot_refused_of_a_paper_is_that_paper(conv: Conversation):
    """A question refused of one paper (its abstract does not state the data it uses) cites
    nothing, but "it" and "and <question of its own>" after it still mean that paper."""
    refused = conv.ask("PrefixRL: on which datasets is it evaluated?")
    assert refused.kind == "refusal" and "does not state the datasets it uses" in refused.answer.text
    assert "closest:" in refused.answer.text
    again = conv.ask("and by how much does it raise the final reward?")
    assert [c.label for c in again.citations] == ["PrefixRL"], again.answer.text
    assert "3x" in again.answer.lead


def test_what_about_after_a_refused_detail_asks_that_detail_of_the_other_paper(conv: Conversation):
    conv.ask("Summarize DocVAL")
    asked = conv.ask("who wrote it?")
    assert asked.kind == "refusal" and "DocVAL" in asked.answer.text
    other = conv.ask("how about DANCE?")
    text = other.answer.text
    assert other.kind == "refusal" and "DANCE" in text and "authors" in text, text


def test_a_dataset_or_toolkit_of_its_own_counts_as_the_benchmark_asked(conv: Conversation):
    t = conv.ask("Which benchmark was released by the mobile GUI agents paper?")
    assert not t.answer.refused and [c.label for c in t.citations] == ["HyperTrack"], t.answer.text
    listed = Conversation(conv.pipeline).ask("Which papers introduce a new benchmark?")
    assert "HyperTrack" in [c.label for c in listed.citations], listed.answer.text


# --- follow-ups bound to the papers the conversation holds (issue 32) ------------------------------


@pytest.mark.parametrize(
    ("refused", "follow_up"),
    [
        ("any papers on knitting?", "what is its main contribution?"),
        ("is there work on forecasting volcano eruptions?", "which datasets do they evaluate on?"),
    ],
)
def test_a_pronoun_after_a_question_that_found_no_paper_refers_to_none(conv: Conversation, refused, follow_up):
    conv.ask("Summarize DANCE")  # was: "it" = DANCE, or the papers the rest of the follow-up finds
    assert conv.ask(refused).kind == "refusal"
    t = conv.ask(follow_up)
    assert t.kind == "clarify" and not t.citations, t.answer.text
    assert f"“{refused}”, found no paper" in t.answer.text, t.answer.text


def test_a_question_that_describes_its_own_paper_after_a_refusal_is_answered(conv: Conversation):
    conv.ask("any papers on knitting?")
    t = conv.ask("which paper builds a benchmark for proactive agents, and how many domains does it cover?")
    assert [c.label for c in t.citations] == ["ProAct-75"], t.answer.text


def test_it_after_a_list_of_several_asks_which_listed_paper(conv: Conversation):
    listed = conv.ask("Which papers work on speech or audio?")
    assert len(listed.citations) >= 2
    t = conv.ask("what evaluation metric does it introduce?")  # was: the first listed, silently
    assert t.kind == "clarify" and not t.citations, t.answer.text
    assert f"lists {len(listed.citations)} papers" in t.answer.text, t.answer.text
    assert [p.id for p in t.candidates] == ids(listed)[: len(t.candidates)] and len(t.candidates) >= 2
    picked = conv.ask("the first one")  # the list still counts: an answer names which
    assert ids(picked) == ids(listed)[:1], picked.answer.text


def test_it_after_a_comparison_of_two_asks_which_compared_paper(conv: Conversation):
    compared = conv.ask("Compare DANCE and ME-DLM")
    assert compared.kind == "compare" and len(compared.citations) == 2
    t = conv.ask("does it release code?")  # was: DANCE, the first compared, silently
    assert t.kind == "clarify" and not t.citations, t.answer.text
    assert "compares 2 papers" in t.answer.text and {p.id for p in t.candidates} == set(ids(compared))
    # the reply that says which asks the clarified question of it (was: what ME-DLM is about)
    picked = conv.ask("the second one")
    assert [c.label for c in picked.citations] == ["ME-DLM"], picked.answer.text
    assert picked.answer.lead.startswith("Yes"), picked.answer.text


def test_it_after_a_list_of_one_is_that_paper(conv: Conversation):
    listed = conv.ask("Which papers deal with time series?")
    assert [c.label for c in listed.citations] == ["ReAugment"], listed.answer.text
    t = conv.ask("what problem does it solve?")
    assert [c.label for c in t.citations] == ["ReAugment"], t.answer.text


def test_they_after_a_list_means_exactly_its_papers(conv: Conversation):
    conv.ask("Summarize APM")  # an older paper, not to be mixed in
    listed = conv.ask("papers on LLM agents")
    labels = [c.label for c in listed.citations]
    assert len(labels) > 5  # more than the five papers a question about named papers takes
    t = conv.ask("how large are their models?")
    assert all(label in t.standalone for label in labels) and "APM" not in t.standalone, t.standalone
    assert set(ids(t)) <= set(ids(listed)), t.answer.text


def test_they_after_an_answer_about_one_paper_is_that_paper(conv: Conversation):
    conv.ask("Summarize APM")
    conv.ask("Which papers deal with time series?")  # one paper: ReAugment
    t = conv.ask("which baselines do they beat?")
    assert "APM" not in t.standalone and "ReAugment" in t.standalone, t.standalone


def test_two_ordinals_joined_pick_two_listed_papers(conv: Conversation):
    listed = conv.ask("Which papers work on speech or audio?")
    assert len(listed.citations) >= 4
    t = conv.ask("compare the second and fourth")  # was refused: "nothing in the collection is close"
    assert t.kind == "compare" and ids(t) == [ids(listed)[1], ids(listed)[3]], t.answer.text
    both = conv.ask("how about the 1st and the 3rd ones?")
    first, third = listed.citations[0].label, listed.citations[2].label
    assert first in both.standalone and third in both.standalone, both.standalone  # the comparison asked of both
    beyond = conv.ask("and the second and the ninth?")  # not half answered: the list is shorter
    assert not beyond.citations and f"lists {len(listed.citations)} papers" in beyond.answer.text, beyond.answer.text


def test_an_ordinal_is_no_word_of_the_measure_asked(conv: Conversation):
    conv.ask("Which papers work on speech or audio?")
    t = conv.ask("how many parameters does the third paper's model have?")
    assert "third" not in t.answer.text.split("closest")[0].lower().replace("the third", ""), t.answer.text


@pytest.mark.parametrize(("message", "absent", "label"), [
    ("Compare FOAM and Adam", "Adam", "FOAM"),
    ("how does SENDAI compare with Kalman", "Kalman", "SENDAI"),
])
def test_a_compared_name_that_is_no_paper_is_said(conv: Conversation, message, absent, label):
    t = conv.ask(message)  # was: the other paper answered alone, the missing side never mentioned
    assert t.answer.text.startswith(f"No paper named {absent} is in the collection"), t.answer.text
    # and the other paper is answered (it was refused as a term no abstract mentions)
    assert [c.label for c in t.citations] == [label], t.answer.text


def test_which_of_them_state_theory_is_judged_by_their_sentences(conv: Conversation, components: Components):
    from rag.evidence.roles import sentence_roles

    listed = conv.ask("which papers use reinforcement learning for LLM reasoning?")
    t = conv.ask("which of those come with a provable bound?")
    kept = {c.paper_id: c for c in t.citations}
    assert kept and set(kept) < set(ids(listed)), t.answer.text
    for c in kept.values():  # each kept paper quoted with a sentence that states theory, not the words
        assert any("theory" in sentence_roles(e.sentence) for e in c.evidence), (c.label, c.evidence)
    assert "provable bound" not in t.answer.text.split("\n")[0], t.answer.text


def test_three_joined_ordinals_compare_three_listed_papers(conv: Conversation):
    listed = conv.ask("papers on LLM agents")
    assert len(listed.citations) >= 5
    t = conv.ask("compare the first, third and fifth")  # was a table of papers on "first, third and fifth"
    assert t.kind == "compare" and ids(t) == [ids(listed)[0], ids(listed)[2], ids(listed)[4]], t.answer.text


def test_a_paper_of_the_last_list_named_by_a_superlative_is_chosen_among_the_list(conv: Conversation):
    # "how many parameters does the largest one have?" after a list answered a paper outside it
    listed = set(ids(conv.ask("Which papers use reinforcement learning for LLM agents?")))
    turn = conv.ask("how many parameters does the largest one have?")
    assert turn.citations and set(ids(turn)) <= listed, turn.answer.text


@pytest.mark.parametrize("follow_up", ["and APM?", "what about APM?"])
def test_what_about_another_paper_after_a_summary_summarizes_it(conv: Conversation, follow_up):
    # "Summarize POET" then "and Moccasin?" gave one problem sentence of Moccasin, not its summary
    conv.ask("Summarize DANCE")
    turn = conv.ask(follow_up)
    assert turn.kind == "summary" and [c.label for c in turn.citations] == ["APM"], turn.answer.text
    assert "Summary of APM" in turn.answer.text


def test_a_baseline_written_in_other_words_is_mentioned(tmp_path, embedder):
    # "Standard GNNs define a local message-passing mechanism" mentions "message-passing GNNs": one
    # sentence states every word of it, apart and in another order; a name of one word must be written
    conv = pipeline_of(tmp_path, _DESCRIBED_SIDES, embedder).conversation()
    assert conv._states_apart("kd#1", "students of vision-language distillation")
    assert conv._states_apart("dp#1", "mechanisms that are Gaussian")
    assert not conv._states_apart("kd#1", "Gaussian mechanism")
    assert not conv._states_apart("doc#1", "students of distillation")  # "teacher outputs", no student
    assert not conv._states_apart("kd#1", "distillation")


@pytest.mark.parametrize(
    "question",
    [
        "Which paper uses San Francisco data, and how big is its model?",
        "What is the size of the model trained on San Francisco trajectories?",
    ],
)
def test_a_place_the_abstracts_write_as_a_name_finds_its_paper(conv: Conversation, question):
    # "San Francisco" is title case to the reader alone; the abstracts write it only capitalised
    turn = conv.ask(question)
    assert turn.kind != "refusal" and ids(turn)[:1] == [RAST_MOE], turn.answer.text
    assert "12M-parameter" in turn.answer.text


@pytest.mark.parametrize(
    ("question", "paper"),
    [
        ("did anybody combine federated learning with reinforcement learning?", FEDERATED),
        ("Has anyone applied reinforcement learning to ride-hailing?", RAST_MOE),
        # a description of three parts or more in the reader's words: no abstract writes "earlier"
        (
            "any paper that reuses compute from earlier rejection sampling runs in RL post-training of LLMs, "
            "without imitating those traces?",
            "004_7c6cb99d3d3a622c#2",
        ),
    ],
)
def test_an_open_frame_joining_subjects_one_paper_holds_is_answered(conv: Conversation, question, paper):
    turn = conv.ask(question)
    assert turn.kind != "refusal" and ids(turn)[:1] == [paper], turn.answer.text


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("Which is more efficient, DoPR or CogRouter?", ("rollout overhead", "superior efficiency")),
        ("which one is better, DANCE or APM?", ("improves accuracy by 2.33%", "65× storage reduction")),
    ],
)
def test_the_lead_of_a_choice_without_an_aspect_quotes_what_each_reports_not_what_it_proposes(
    conv: Conversation, question, said
):
    turn = conv.ask(question)
    assert turn.kind == "compare", turn.answer.text
    lead = turn.answer.lead
    assert all(s in lead for s in said) and "we propose" not in lead and "we introduce" not in lead, lead
