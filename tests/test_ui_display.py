"""How abstract text is shown (``ui.display``): each row of the LaTeX table, URLs as links, math
and Markdown left alone, and the same words in the evidence panel and in every export; the
evidence spans stay offsets into the stored abstract."""

from __future__ import annotations

import csv
import io
import re

import pytest

from rag.evidence.table import Cell, PaperTable
from rag.question.columns import column
from rag.route.conversation import Turn
from rag.types import Answer, Citation, Evidence
from store.papers import Paper
from ui.display import LATEX_MARKUP, display_html, display_markdown, display_text, segments
from ui.evidence_panel import evidence_panel, highlight_abstract
from ui.exports import answer_markdown, bibtex, table_csv

# DexMachina's last sentence as stored (data/000_6b930c46f6674b66.txt), and one of each kind.
DEX = (
    "We propose DexMachina, a curriculum-based algorithm. Our algorithm and benchmark enable a "
    "functional comparison---for hardware designs. Videos and more at \\url{project-dexmachina.github.io}"
)
VIDEOS = "Videos and more at \\url{project-dexmachina.github.io}"
LINK = "https://project-dexmachina.github.io"


@pytest.mark.parametrize("row", LATEX_MARKUP, ids=lambda r: r.name)
def test_each_kind_of_markup_is_shown_as_its_row_says(row):
    assert display_text(row.example) == row.displayed
    assert row.pattern.search(row.example)  # the example holds the markup it stands for


def test_url_commands_and_written_urls_become_links():
    assert segments("at \\url{x.github.io}.") == [("at ", ""), ("x.github.io", "https://x.github.io"), (".", "")]
    assert segments("see \\href{https://q.org/a\\_b}{our page}") == [("see ", ""), ("our page", "https://q.org/a_b")]
    text = "Code: https://github.com/a/b_c. Site www.x.org/p), mail a@b.com"
    links = [link for _, link in segments(text) if link]
    assert links == ["https://github.com/a/b_c", "https://www.x.org/p"]  # trailing punctuation and e-mail left out


def test_a_url_a_line_break_cut_is_shown_as_written_and_linked_whole():
    text = "Code at https://github.com/bigscience- workshop/architecture-objective. Our code: https://github. com/a/b."
    assert [seg for seg in segments(text) if seg[1]] == [
        ("https://github.com/bigscience- workshop/architecture-objective",
         "https://github.com/bigscience-workshop/architecture-objective"),
        ("https://github. com/a/b", "https://github.com/a/b"),
    ]
    assert "".join(shown for shown, _ in segments(text)) == text  # nothing of the text lost or doubled


def test_math_is_left_as_written():
    kept = "cost $x_{a--b}^{2}$ and \\[x~\\cite{a}\\] stay"
    assert display_text(kept) == kept
    assert display_text("65$\\times$ faster") == "65× faster"  # simple math as Unicode (strip_markup)


def test_markdown_keeps_its_own_syntax_and_escaped_dollars():
    md = "**DANCE** [1]: “10--20 at \\url{x.io}” \\$5\n\n| | A |\n|---|---|\n| **Row** | “a---b” |"
    assert display_markdown(md) == (
        "**DANCE** [1]: “10–20 at [x.io](https://x.io)” \\$5\n\n| | A |\n|---|---|\n| **Row** | “a—b” |"
    )
    assert display_text("costs \\$5") == "costs $5"


def test_html_escapes_text_and_links_open_in_a_new_tab():
    out = display_html("a <b> & \\url{x.github.io}")
    assert out == (
        'a &lt;b&gt; &amp; <a href="https://x.github.io" target="_blank" rel="noopener noreferrer">x.github.io</a>'
    )


def test_the_panel_links_the_url_and_keeps_the_spans_of_the_stored_abstract():
    start = DEX.index(VIDEOS)
    out = highlight_abstract(DEX, [(start, start + len(VIDEOS))], tagged=True)
    assert f'data-span="{start}-{start + len(VIDEOS)}"' in out  # offsets of the stored text
    assert DEX[start : start + len(VIDEOS)] == VIDEOS
    assert f'<mark>Videos and more at <a href="{LINK}"' in out
    assert "\\url" not in out and "---" not in out and "comparison—for" in out


def dex_paper() -> Paper:
    return Paper(id="000_6b930c46f6674b66#19", abstract=DEX, label="DexMachina", title="Dex \\emph{Machina}")


def dex_citation(paper: Paper) -> Citation:
    s = DEX.index(VIDEOS)
    return Citation(1, paper.id, paper.label, (Evidence(paper.id, VIDEOS, s, s + len(VIDEOS), 0.9),))


def test_exports_show_latex_as_the_panel_does():
    paper = dex_paper()
    c = dex_citation(paper)
    text = f"**DexMachina** [1] — “{VIDEOS}”"
    turn = Turn("Where are the videos?", "Where are the videos?", Answer("Where are the videos?", text, [c]))
    md = answer_markdown(turn, {paper.id: paper})
    assert "\\url" not in md and f"[project-dexmachina.github.io]({LINK})" in md  # answer and evidence
    assert md.count(f"({LINK})") == 2
    panel = evidence_panel([c], {paper.id: paper})
    assert "\\url" not in panel and f'href="{LINK}"' in panel
    bib = bibtex([c], {paper.id: paper})
    assert "title = {{Dex Machina}}" in bib  # \emph dropped as everywhere, never written as "emph"

    table = PaperTable((column("code"),), (c,), ((Cell(c.evidence, "project-dexmachina.github.io"),),), "", 1)
    rows = list(csv.reader(io.StringIO(table_csv(table, {paper.id: paper}), newline="")))
    assert rows[1][4] == "project-dexmachina.github.io — “Videos and more at project-dexmachina.github.io”"


def test_no_export_or_panel_shows_a_raw_latex_command_of_the_seed_abstracts():
    """Every LaTeX command outside math in the seed papers is converted (the corpus has \\textbf,
    \\b, \\url and simple math)."""
    from pathlib import Path

    for f in sorted((Path(__file__).resolve().parents[1] / "data").glob("*.txt")):
        for line in f.read_text(encoding="utf-8").splitlines():
            shown = re.sub(r"\$[^$]*\$", "", display_text(line))  # complex math stays as written
            assert not re.search(r"\\[A-Za-z]+\{", shown), shown
