"""The chat quotes each evidence sentence once (``ui.quoting``, ``ui.chat``), the answer's text
(what ``eval``, the command line and the exports read) stays as the route wrote it; tables sit in
their own blocks with copy links; a comparison's panel highlights what its text quotes and tags the
rest with rows; the copy links' text (``ui.exports.table_copies``)."""

from __future__ import annotations

import csv
import io
import re

import pytest

from rag.evidence.rows import NOT_STATED, ROWS
from rag.evidence.table import Cell, PaperTable
from rag.question.columns import column
from rag.route.compare import ComparisonTable, table_markdown
from rag.route.conversation import Turn
from rag.types import Answer, Citation, Evidence
from store.papers import Paper
from ui.chat import COMPARISON_LEGEND, cell_href, chat_markdown, history_messages, panel_marks
from ui.evidence_panel import copy_sources, evidence_panel, highlight_abstract
from ui.exports import comparison_csv, table_copies
from ui.quoting import Quoted, drop_repeated_quotes, repeat_note

A = Paper(
    id="a#1",
    label="DANCE",
    abstract="Graph learning is costly. To address this, we propose DANCE, a condensation method for graphs. "
    "Across 8 datasets, DANCE improves accuracy by 2.33% at an 8% ratio. Code is at github.com/x/dance.",
)
B = Paper(
    id="b#2",
    label="APM",
    abstract="Distillation is slow. We propose analytic parameter matching (APM) for distillation. "
    "APM achieves up to 65x storage reduction on Flickr30k.",
)
PAPERS = {A.id: A, B.id: B}


def ev(paper: Paper, sentence: str) -> Evidence:
    start = paper.abstract.index(sentence)
    return Evidence(paper.id, sentence, start, start + len(sentence), 0.5)


A_PROBLEM = ev(A, "Graph learning is costly.")
A_APPROACH = ev(A, "To address this, we propose DANCE, a condensation method for graphs.")
A_RESULT = ev(A, "Across 8 datasets, DANCE improves accuracy by 2.33% at an 8% ratio.")
A_CODE = ev(A, "Code is at github.com/x/dance.")
B_PROBLEM = ev(B, "Distillation is slow.")
B_APPROACH = ev(B, "We propose analytic parameter matching (APM) for distillation.")
B_RESULT = ev(B, "APM achieves up to 65x storage reduction on Flickr30k.")


def quotes(markdown: str) -> list[str]:
    return re.findall(r"“([^“”]+)”", markdown)


def assert_each_quoted_once(markdown: str) -> None:
    qs = quotes(markdown)
    assert len(set(qs)) == len(qs), qs
    assert not [(a, b) for a in qs for b in qs if a != b and a.strip("…") in b], qs  # a clause and its sentence


# --- extractive answers ------------------------------------------------------------------------


def extractive_turn(*evidence: Evidence, lead: str) -> Turn:
    c = Citation(1, A.id, A.label, tuple(evidence))
    quoted = " ".join(f"“{e.sentence}”" for e in evidence)
    text = f"{lead}\n\nEvidence:\n- DANCE [1]: {quoted}"  # as rag.route.answer.render writes it
    return Turn("q", "q", Answer("q", text, [c], lead=lead))


def test_the_evidence_list_does_not_quote_again_the_sentence_the_lead_quotes():
    lead = "**DANCE** [1]: “DANCE improves accuracy by 2.33% at an 8% ratio”"
    turn = extractive_turn(A_RESULT, lead=lead)
    msg = chat_markdown(turn)
    assert msg == "**DANCE** [\\[1\\]](#src-1): “DANCE improves accuracy by 2.33% at an 8% ratio”"
    assert "Evidence:" in turn.answer.text and A_RESULT.sentence in turn.answer.text  # the route's text is kept


def test_the_evidence_list_keeps_the_sentences_the_lead_does_not_quote():
    lead = "**DANCE** [1] — “we propose DANCE, a condensation method for graphs”"
    msg = chat_markdown(extractive_turn(A_APPROACH, A_RESULT, lead=lead))
    assert "Evidence:" in msg and A_RESULT.sentence in msg and A_APPROACH.sentence not in msg
    assert_each_quoted_once(msg)


def test_a_short_quotation_does_not_count_as_quoting_a_long_sentence():
    quoted = Quoted([Citation(1, A.id, A.label, (A_RESULT,))])
    quoted.read_lead("**DANCE** [1]: “2.33%”")
    assert quoted.seen(A_RESULT) is None


def test_an_introducing_line_goes_with_the_lists_it_introduces_and_a_verdict_stays():
    c = Citation(1, A.id, A.label, (A_APPROACH, A_RESULT))
    quoted = Quoted([c])
    quoted.read_lead(f"“{A_APPROACH.sentence}” “{A_RESULT.sentence}”")
    text = (
        "DANCE [1] on what the question asks:\n\n**Data**\n- DANCE [1]: “" + A_RESULT.sentence + "”\n\n"
        "Neither abstract compares DANCE [1] with APM [2] directly, so the abstracts do not say which is better; "
        "here is what each reports:\n- DANCE [1]: “" + A_APPROACH.sentence + "”\n\nDANCE [1] compared row by row."
    )
    out = drop_repeated_quotes(text, quoted)
    assert out == (
        "Neither abstract compares DANCE [1] with APM [2] directly, so the abstracts do not say which is better; "
        "here is what each reports:\n\nDANCE [1] compared row by row."
    )


def test_repeat_notes():
    assert repeat_note(["Data / benchmarks"]) == "_same as **Data / benchmarks**_"
    assert repeat_note(["", "Approach"]) == "_quoted above_"
    assert repeat_note(["Approach"], partly=True) == "_(and a sentence as in **Approach**)_"


# --- comparisons ---------------------------------------------------------------------------------


@pytest.fixture
def comparison() -> Turn:
    ca = Citation(1, A.id, A.label, (A_PROBLEM, A_APPROACH, A_RESULT))
    cb = Citation(2, B.id, B.label, (B_PROBLEM, B_APPROACH, B_RESULT))
    cells = {"problem": ((A_PROBLEM,), (B_PROBLEM,)), "approach": ((A_APPROACH,), (B_APPROACH,)),
             "data": ((A_RESULT,), ()), "results": ((A_RESULT,), (B_RESULT,))}  # fmt: skip
    table = ComparisonTable(ROWS, (ca, cb), tuple(cells.get(r.key, ((), ())) for r in ROWS))
    lead = (
        "**DANCE** [1] and **APM** [2] compared: DANCE — “we propose DANCE, a condensation method for graphs”; "
        "APM — “We propose analytic parameter matching (APM) for distillation”"
    )
    text = f"{lead}\n\nDANCE [1] and APM [2] compared row by row.\n\n{table_markdown(table)}\n\nNote: x."
    ans = Answer("compare", text, [ca, cb], kind="compare", lead=lead)
    return Turn("compare DANCE and APM", "Compare DANCE and APM", ans, "compare", table=table)


def test_a_comparison_quotes_each_sentence_once_and_says_where_instead(comparison: Turn):
    msg = chat_markdown(comparison, copy_key=3)
    assert_each_quoted_once(msg)
    rows = {line.split("|")[1].strip(): line for line in msg.splitlines() if line.startswith("| **")}
    assert "_quoted above_ [\\[1\\]](#src-1-s" in rows["**Approach**"]  # the lead quotes the approaches
    assert f"_same as **Data / benchmarks**_ [\\[1\\]]({cell_href(1, (A_RESULT,))})" in rows["**Key results**"]
    assert f"“{B_RESULT.sentence}”" in rows["**Key results**"] and NOT_STATED in rows["**Data / benchmarks**"]
    assert msg.endswith("Note: x.") and comparison.answer.text.count(A_RESULT.sentence) == 2  # the text is kept


def test_a_table_sits_in_its_own_block_with_its_copy_links(comparison: Turn):
    msg = chat_markdown(comparison, copy_key=3)
    block = msg.split('<div class="pc-table">', 1)[1]
    assert block.index("| |") < block.index("</div>") < block.index('href="#pc-copy-md-3"') < block.index(
        'href="#pc-copy-csv-3"'
    )
    assert "pc-copy" not in chat_markdown(comparison)  # no key, no copy links
    messages = history_messages([comparison, comparison])
    assert "#pc-copy-md-2" in messages[3]["content"]  # keyed by the turn's number


def test_a_cell_links_each_of_its_sentences():
    assert cell_href(3, (A_PROBLEM, A_RESULT)) == f"#src-3-s0-{A_PROBLEM.end}-s{A_RESULT.start}-{A_RESULT.end}"
    assert cell_href(3, ()) == "#src-3"


def test_the_panel_of_a_comparison_highlights_what_its_text_quotes_and_tags_rows(comparison: Turn):
    marks = panel_marks(comparison)
    assert marks is not None and marks.legend == COMPARISON_LEGEND
    key = (A.id, A_RESULT.start, A_RESULT.end)
    assert marks.labels[key] == "Data / benchmarks · Key results"
    assert marks.plain == {(e.paper_id, e.start, e.end) for e in (A_PROBLEM, A_RESULT, B_PROBLEM, B_RESULT)}
    html = evidence_panel(comparison.citations, PAPERS, marks=marks)
    section = html.split('id="src-1"', 1)[1].split("</section>", 1)[0]
    assert re.findall(r"<mark>(.*?)</mark>", section) == [A_APPROACH.sentence]  # the lead's sentence only
    assert section.count('class="pc-plain"') == 2 and 'data-label="Problem"' in section
    assert COMPARISON_LEGEND in html


def test_a_run_of_sentences_with_one_label_shows_it_once():
    text = "One. Two. Three."
    out = highlight_abstract(text, [(0, 4), (5, 9), (10, 16)], labels={(0, 4): "Problem", (5, 9): "Problem",
                                                                       (10, 16): "Approach"})  # fmt: skip
    assert re.findall(r'data-label="([^"]*)"', out) == ["Problem", "Approach"]


def test_other_answers_are_fully_highlighted():
    turn = extractive_turn(A_RESULT, lead="x")
    assert panel_marks(turn) is None


# --- tables across papers and what the copy links copy ------------------------------------------------


@pytest.fixture
def paper_table() -> Turn:
    ca = Citation(1, A.id, A.label, (A_RESULT, A_CODE))
    cb = Citation(2, B.id, B.label, (B_RESULT,))
    cols = (column("main result"), column("benchmark"), column("code"))
    cells = (
        (Cell((A_RESULT,)), Cell((A_RESULT,)), Cell((A_CODE,), "github.com/x/dance")),
        (Cell((B_RESULT,)), Cell((B_RESULT,), "Flickr30k"), Cell()),
    )
    table = PaperTable(cols, (ca, cb), cells)
    from rag.route.table_text import table_text

    ans = Answer("table", table_text(table), [ca, cb], kind="table")
    return Turn("table", "table", ans, "table", paper_table=table)


def test_a_table_row_quotes_a_sentence_once_and_links_urls(paper_table: Turn):
    msg = chat_markdown(paper_table, copy_key=1)
    dance = next(line for line in msg.splitlines() if line.startswith("| **DANCE**"))
    assert dance.count(A_RESULT.sentence) == 1 and "_same as **Main result**_" in dance
    assert "Flickr30k — _same as **Main result**_" in msg  # the value stays, the sentence is not repeated
    assert "[github.com/x/dance](https://github.com/x/dance)" in dance
    assert "#pc-copy-csv-1" in msg


def test_table_copies_hold_the_whole_tables_with_references(paper_table: Turn, comparison: Turn):
    plain = Turn("q", "q", Answer("q", "x", []))
    copies = table_copies([paper_table, plain, comparison], PAPERS)
    assert [k for k, _, _ in copies] == [1, 3]
    md, csv_text = copies[0][1], copies[0][2]
    assert md.count(A_RESULT.sentence) == 2  # what the answer holds: every cell as the table has it
    assert "## References" in md and "paper id `a#1`" in md and csv_text.startswith("number,paper,paper_id,link")
    rows = list(csv.reader(io.StringIO(copies[1][2], newline="")))
    assert rows[:3] == [["row", "DANCE [1]", "APM [2]"], ["paper_id", "a#1", "b#2"], ["link", "", ""]]
    assert rows[3] == ["Problem", f"“{A_PROBLEM.sentence}”", f"“{B_PROBLEM.sentence}”"]
    assert rows[5] == ["Data / benchmarks", f"“{A_RESULT.sentence}”", NOT_STATED]
    assert copies[1][2] == comparison_csv(comparison.table, PAPERS)
    hidden = copy_sources([(7, "a <b>", "c,d")])
    assert hidden == (
        '<div class="pc-copies" hidden><pre data-copy="md-7">a &lt;b&gt;</pre><pre data-copy="csv-7">c,d</pre></div>'
    )


# --- every answer of the real route -------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    "question",
    [
        "What accuracy gain does DANCE report?",
        "Which papers use reinforcement learning?",
        "compare DANCE and APM",
        "compare DANCE and APM on the data they use",
        "which is better, EMPG or DoPR?",
        "Where can I find DexMachina's videos?",
        "make a table of DANCE, APM and SENDAI with columns benchmark, main result and code",
        "Summarize the papers on federated learning",
    ],
)
def test_no_answer_of_the_route_quotes_a_sentence_twice_in_the_chat(extractive, question: str):
    from rag.route.conversation import Conversation

    turn = Conversation(extractive.pipeline).ask(question)
    msg = chat_markdown(turn, copy_key=1)
    assert_each_quoted_once(msg)
    for c in turn.citations:  # every sentence the answer cites is still in the chat or the panel
        for e in c.evidence:
            assert e.sentence[:20] in extractive.retriever.papers[c.paper_id].abstract
    assert "\\url" not in msg
