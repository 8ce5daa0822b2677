"""Unit tests of the pure UI formatters in ``ui.chat``, ``ui.evidence_panel`` and ``ui.exports``
(hand-built domain objects, no Gradio)."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime

import pytest

from rag.evidence.rows import NOT_STATED, ROWS
from rag.route.compare import ComparisonTable, table_markdown
from rag.route.conversation import Turn
from rag.types import Answer, Citation, Evidence, Timings
from store.papers import Paper
from ui.chat import (
    DOLLAR,
    LATEX_DELIMITERS,
    chat_markdown,
    comparison_markdown,
    escape_dollars,
    history_messages,
    link_markers,
    status_line,
)
from ui.evidence_panel import display_text, evidence_panel, full_url, highlight_abstract
from ui.exports import answer_markdown, bibtex, bibtex_key, conversation_markdown, references_markdown, table_csv

ABSTRACT = (
    "Federated graph learning is costly. We propose \\textbf{DANCE}, a condensation method. "
    "Across 8 datasets, DANCE improves accuracy by \\textbf{2.33\\%} at 65$\\times$ less storage <fast>."
)
S1 = "We propose \\textbf{DANCE}, a condensation method."
S2 = "Across 8 datasets, DANCE improves accuracy by \\textbf{2.33\\%} at 65$\\times$ less storage <fast>."


def span(text: str, sentence: str) -> tuple[int, int]:
    start = text.index(sentence)
    return start, start + len(sentence)


def ev(paper: Paper, sentence: str, score: float = 0.5) -> Evidence:
    s, e = span(paper.abstract, sentence)
    return Evidence(paper.id, sentence, s, e, score)


@pytest.fixture
def dance() -> Paper:
    return Paper(
        id="000_6b930c46f6674b66#1",
        abstract=ABSTRACT,
        label="DANCE",
        url="project-dance.github.io",
        authors=("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        year=2026,
    )


@pytest.fixture
def apm() -> Paper:
    return Paper(
        id="000_6b930c46f6674b66#2",
        abstract="Distillation is slow. We propose APM, which costs $5 per run. APM is 9.6x faster.",
        label="APM",
    )


@pytest.fixture
def papers(dance: Paper, apm: Paper) -> dict[str, Paper]:
    return {dance.id: dance, apm.id: apm}


def cite(paper: Paper, number: int, *sentences: str) -> Citation:
    return Citation(
        number=number,
        paper_id=paper.id,
        label=paper.label,
        evidence=tuple(ev(paper, s) for s in sentences),
        url=paper.url,
        authors=paper.author_line,
        year=paper.year,
    )


# --- markers ---------------------------------------------------------------------------


def test_markers_become_links_to_the_evidence_panel():
    assert link_markers("DANCE [1] beats APM [12].") == "DANCE [\\[1\\]](#src-1) beats APM [\\[12\\]](#src-12)."


def test_marker_groups_become_one_link_per_number():
    assert link_markers("Both [1, 3].") == "Both [\\[1\\]](#src-1)[\\[3\\]](#src-3)."


def test_text_without_markers_is_unchanged():
    assert link_markers("No [citation] here, [a] [] either.") == "No [citation] here, [a] [] either."


# --- dollars ---------------------------------------------------------------------------

D = DOLLAR


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$5 per token", f"{D}5 per token"),
        ("It costs $0.50/token.", f"It costs {D}0.50/token."),
        ("from $2,000 to $5M budgets", f"from {D}2,000 to {D}5M budgets"),
        ("$5 per token, or $O(n^2)$ overall", f"{D}5 per token, or $O(n^2)$ overall"),
        ("runtime $O(n^2)$", "runtime $O(n^2)$"),
        ("65$\\times$ smaller", "65$\\times$ smaller"),
        ("with $2n$ steps", "with $2n$ steps"),
        ("$$\\sum_i x_i$$ is display math", "$$\\sum_i x_i$$ is display math"),
        ("between $a and $b", f"between {D}a and {D}b"),
        ("a TeX dollar \\$5", f"a TeX dollar {D}5"),
        ("a lone $ sign", f"a lone {D} sign"),
        ("paid US$ 3 and $ 4", f"paid US{D} 3 and {D} 4"),
        ("no dollars at all", "no dollars at all"),
        ("\\(x\\) stays", "\\(x\\) stays"),
    ],
)
def test_dollars_are_math_only_when_they_look_like_math(text: str, expected: str):
    assert escape_dollars(text) == expected


def test_escaped_dollars_leave_no_raw_dollar_to_pair():
    out = escape_dollars("$5 per token and $10 per page")
    assert "$" not in out.replace(D, "")


def test_math_does_not_cross_a_blank_line():
    assert escape_dollars("$x\n\ny$") == f"{D}x\n\ny{D}"


def test_latex_delimiters_are_the_three_documented_ones():
    assert [(d["left"], d["right"]) for d in LATEX_DELIMITERS] == [("$$", "$$"), ("\\(", "\\)"), ("$", "$")]


# --- evidence highlighting ---------------------------------------------------------------


def test_highlight_wraps_exactly_the_spans(dance: Paper):
    out = highlight_abstract(dance.abstract, [span(dance.abstract, S1)])
    marked = re.findall(r"<mark>(.*?)</mark>", out)
    assert marked == ["We propose DANCE, a condensation method."]  # LaTeX emphasis dropped
    assert out.startswith("Federated graph learning is costly. <mark>")


def test_highlight_escapes_html_and_renders_simple_math(dance: Paper):
    out = highlight_abstract(dance.abstract, [span(dance.abstract, S2)])
    assert "&lt;fast&gt;" in out and "<fast>" not in out
    assert "65× less storage" in out
    assert "2.33%" in out


def test_highlight_merges_overlaps_and_clips_spans():
    text = "abcdefghij"
    out = highlight_abstract(text, [(2, 5), (4, 7), (8, 100), (-3, 1), (6, 6)])
    assert out == "<mark>a</mark>b<mark>cdefg</mark>h<mark>ij</mark>"


def test_highlight_without_spans_is_the_escaped_text():
    assert highlight_abstract("a < b", []) == "a &lt; b"


def test_display_text_keeps_complex_math():
    assert display_text("cost $\\tilde O(\\varepsilon^{-1})$") == "cost $\\tilde O(\\varepsilon^{-1})$"
    assert display_text("$\\alpha$-weighted, 3$\\times$") == "α-weighted, 3×"


# --- evidence panel ----------------------------------------------------------------------


def test_panel_has_one_anchor_section_per_citation(dance: Paper, apm: Paper, papers):
    html = evidence_panel([cite(dance, 1, S1, S2), cite(apm, 4, "We propose APM, which costs $5 per run.")], papers)
    sections = re.findall(r'<section class="pc-src" id="src-(\d+)" data-paper-id="([^"]+)"', html)
    assert sections == [("1", dance.id), ("4", apm.id)]
    assert html.count("<mark>") == 3
    assert "<code>000_6b930c46f6674b66#1</code>" in html


def test_panel_links_url_and_shows_authors_and_year(dance: Paper, apm: Paper, papers):
    html = evidence_panel([cite(dance, 1, S1), cite(apm, 2, "APM is 9.6x faster.")], papers)
    dance_part, apm_part = html.split('id="src-2"')
    assert 'href="https://project-dance.github.io"' in dance_part
    assert 'target="_blank"' in dance_part
    assert "Ada Lovelace et al. (2026)" in dance_part
    assert 'target="_blank"' not in apm_part and "href=\"http" not in apm_part  # no URL, no link
    assert 'class="pc-more" href="#pc-more-2" data-ask="More papers like [2]"' in apm_part  # "More like this"
    assert "(None)" not in html


def test_panel_lists_earlier_sources_as_targets(dance: Paper, apm: Paper, papers):
    current = [cite(apm, 2, "APM is 9.6x faster.")]
    earlier = [cite(dance, 1, S1), current[0]]
    html = evidence_panel(current, papers, earlier=earlier)
    assert '<li id="src-1" data-paper-id="000_6b930c46f6674b66#1">' in html
    assert html.count('id="src-2"') == 1  # the current source is not repeated


def test_empty_panel_says_why(papers):
    html = evidence_panel([], papers, note="This answer cites no paper.")
    assert "This answer cites no paper." in html and "pc-src" not in html


# --- comparison table --------------------------------------------------------------------


def test_comparison_table_markdown(dance: Paper, apm: Paper):
    a, b = cite(dance, 1, S1), cite(apm, 2, "We propose APM, which costs $5 per run.")
    empty: tuple[Evidence, ...] = ()
    piped = Evidence(apm.id, "Distillation | is slow.", 0, 10, 0.4)
    cells = [[empty, empty] for _ in ROWS]
    cells[0] = [empty, (piped,)]
    cells[1] = [a.evidence, b.evidence]
    table = ComparisonTable(ROWS, (a, b), tuple(tuple(r) for r in cells))
    md = comparison_markdown(table)
    lines = md.splitlines()
    assert lines[0] == "| | DANCE [1] | APM [2] |"
    assert lines[1] == "|---|---|---|"
    assert len(lines) == 2 + len(ROWS)
    assert lines[2] == f"| **Problem** | _{NOT_STATED}_ | “Distillation \\| is slow.” [2] |"
    assert lines[3] == (
        "| **Approach** | “We propose DANCE, a condensation method.” [1] "
        "| “We propose APM, which costs $5 per run.” [2] |"
    )
    assert lines[-1].count(NOT_STATED) == 2
    assert table.cell("approach", apm.id) == b.evidence


def test_chat_message_of_a_comparison_links_markers_and_escapes_dollars(dance: Paper, apm: Paper):
    a, b = cite(dance, 1, S1), cite(apm, 2, "We propose APM, which costs $5 per run.")
    cells = tuple((a.evidence, b.evidence) if r.key == "approach" else ((), ()) for r in ROWS)
    table = ComparisonTable(ROWS, (a, b), cells)
    text = "DANCE [1] and APM [2] are compared.\n\n" + table_markdown(table)  # the route's text holds the table
    ans = Answer("compare", text, [a, b], kind="compare")
    msg = chat_markdown(Turn("Compare DANCE and APM", "Compare DANCE and APM", ans, "compare", table=table))
    assert "[\\[2\\]](#src-2)" in msg
    assert f"costs {D}5 per run" in msg
    assert "| **Limitations** |" in msg


# --- chat messages -----------------------------------------------------------------------


def test_rewritten_follow_up_shows_the_standalone_question(dance: Paper):
    ans = Answer("What is its gain?", "DANCE [1]: “x”", [cite(dance, 1, S1)])
    turn = Turn("What is its gain?", "What is DANCE's gain?", ans)
    msg = chat_markdown(turn)
    assert msg.startswith("_Interpreted as: “What is DANCE's gain?”_")
    assert msg.endswith("DANCE [\\[1\\]](#src-1): “x”")


def test_history_messages_roles_and_pending_stream(dance: Paper):
    turn = Turn("q1", "q1", Answer("q1", "A [1]", [cite(dance, 1, S1)]))
    msgs = history_messages([turn], pending="q2 costs $5?", partial="DANCE is good [1] so")
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant"]
    assert msgs[2]["content"] == f"q2 costs {D}5?"
    assert msgs[3]["content"] == "DANCE is good so ▌"  # markers are not shown while streaming
    assert history_messages([], pending="q")[-1]["content"].startswith("_Searching")


def test_status_line_names_backend_note_and_seconds():
    ans = Answer("q", "t", backend="embedded:SmolLM2-135M-Instruct", note="2 of 3 claims supported",
                 timings=Timings(retrieval=0.031, evidence=0.2, generation=2.5, total=2.8))  # fmt: skip
    line = status_line(ans)
    assert line == (
        "**LLM:** embedded:SmolLM2-135M-Instruct — 2 of 3 claims supported · retrieval 0.03 s · "
        "evidence 0.20 s · generation 2.50 s · other 0.07 s · total 2.80 s (most in generation)"
    )
    assert status_line(ans, stopped=True).startswith("**Stopped.** ")
    extractive = status_line(Answer("q", "t", backend="none", timings=Timings(0.1, 0, 0, 0.2)))
    assert "generation" not in extractive and "none — extractive answer" in extractive


# --- exports -----------------------------------------------------------------------------

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def test_answer_markdown_has_question_answer_evidence_and_references(dance: Paper, papers):
    c = cite(dance, 3, S1)
    turn = Turn("What does DANCE do?", "What does DANCE do?", Answer("What does DANCE do?", "DANCE [3]: “x”", [c]))
    md = answer_markdown(turn, papers, now=NOW)
    assert md.startswith("# What does DANCE do?\n")
    assert "2026-11-30 12:00 UTC" in md
    assert "DANCE [3]: “x”" in md
    start, end = c.evidence[0].start, c.evidence[0].end
    assert f"- [3] DANCE: “We propose DANCE, a condensation method.” (characters {start}–{end})" in md
    assert (
        "- [3] DANCE. paper id `000_6b930c46f6674b66#1`. Ada Lovelace et al. 2026. <https://project-dance.github.io>."
        in md
    )


def test_conversation_markdown_numbers_turns_and_lists_all_references(dance: Paper, apm: Paper, papers):
    c1, c2 = cite(dance, 1, S1), cite(apm, 2, "APM is 9.6x faster.")
    t1 = Turn("About DANCE?", "About DANCE?", Answer("About DANCE?", "DANCE [1].", [c1]))
    t2 = Turn("And it?", "And APM?", Answer("And it?", "APM [2].", [c2]))
    md = conversation_markdown([t1, t2], {1: c1, 2: c2}, papers, now=NOW)
    assert "## 1. About DANCE?" in md and "## 2. And it?" in md
    assert "_Interpreted as: “And APM?”_" in md
    refs = md.split("## References")[1]
    assert refs.index("[1] DANCE") < refs.index("[2] APM")


def test_bibtex_entries(dance: Paper, apm: Paper, papers):
    bib = bibtex([cite(apm, 2, "APM is 9.6x faster."), cite(dance, 1, S1), cite(dance, 1, S2)], papers)
    entries = bib.strip().split("\n\n")
    assert len(entries) == 2  # one per paper, by number
    assert entries[0] == (  # no title in the record: the label is a note, never a title
        "@misc{lovelace2026,\n"
        "  author = {Ada Lovelace and Alan Turing and Grace Hopper},\n"
        "  year = {2026},\n"
        "  note = {No title in the record; paperchat shows it as: DANCE. Paper id: 000\\_6b930c46f6674b66\\#1},\n"
        "  howpublished = {\\url{https://project-dance.github.io}}\n"
        "}"
    )
    assert entries[1] == (  # no author: a key from the id; nothing the record lacks
        "@misc{000_6b930c46f6674b66_2,\n"
        "  note = {No title in the record; paperchat shows it as: APM. Paper id: 000\\_6b930c46f6674b66\\#2}\n"
        "}"
    )
    assert bib.count("{") == bib.count("}")


def test_bibtex_escapes_specials_and_uses_title_when_known():
    p = Paper(id="icml-x", abstract="a b c d.", title="100% of A & B_C {ok}", label="X", url="https://x.org/a%20b#c")
    c = Citation(1, p.id, p.label, ())
    bib = bibtex([c], {p.id: p})
    assert "title = {{100\\% of A \\& B\\_C \\{ok\\}}}" in bib
    assert "\\url{https://x.org/a\\%20b\\#c}" in bib
    assert bib.startswith("@misc{icml-x,")
    assert bibtex([], {}) == ""


def test_bibtex_key_from_an_id_is_safe():
    def key(pid: str) -> str:
        return bibtex_key(Paper(id=pid, abstract="An abstract."))

    assert key("004_7c6cb99d3d3a622c#19") == "004_7c6cb99d3d3a622c_19"
    assert key("a b/c{d}") == "a_b_c_d"
    assert key("###") == "paper"


def test_full_url_adds_a_scheme_only_when_missing():
    assert full_url("project-x.github.io") == "https://project-x.github.io"
    assert full_url("http://a.b") == "http://a.b"
    assert full_url("") == ""


# --- exports carry each paper's id and link ----------------------------------------------------


def test_references_link_the_url_else_the_doi():
    with_doi = Paper(id="10.5555/x.1", abstract="A b.", label="X", doi="10.5555/x.1")
    bare = Paper(id="p#9", abstract="A b.", label="Y")
    cits = [Citation(1, with_doi.id, "X", ()), Citation(2, bare.id, "Y", ())]
    md = references_markdown(cits, {p.id: p for p in (with_doi, bare)})
    assert "- [1] X. paper id `10.5555/x.1`. <https://doi.org/10.5555/x.1>." in md
    assert "- [2] Y. paper id `p#9`." in md and "<" not in md.split("[2]")[1]  # no link invented


def test_table_csv_has_the_paper_id_and_link_and_survives_commas_quotes_and_newlines():
    from rag.evidence.table import Cell, PaperTable
    from rag.question.columns import column

    tricky = 'Uses "A, B"\nand C.'
    papers = [
        Paper(id="a#1", abstract=tricky, label='Net, "v2"', url="net.io"),
        Paper(id="10.5555/b", abstract="We do B.", label="B", doi="10.5555/b"),
        Paper(id="c#3", abstract="We do C.", label="C"),
    ]
    cits = tuple(
        Citation(i, p.id, p.label, (Evidence(p.id, p.abstract, 0, len(p.abstract), 1.0),), url=p.url)
        for i, p in enumerate(papers, start=1)
    )
    cells = tuple((Cell(c.evidence),) for c in cits)
    table = PaperTable((column("data"),), cits, cells, "things", 3)
    rows = list(csv.reader(io.StringIO(table_csv(table, {p.id: p for p in papers}), newline="")))
    assert rows[0] == ["number", "paper", "paper_id", "link", "Data"]
    assert [r[:4] for r in rows[1:]] == [
        ["1", 'Net, "v2"', "a#1", "https://net.io"],
        ["2", "B", "10.5555/b", "https://doi.org/10.5555/b"],
        ["3", "C", "c#3", ""],
    ]
    assert rows[1][4] == f"“{tricky}”" and len(rows) == 4  # quoted by the csv module: one record per paper
