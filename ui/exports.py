"""Exports of a conversation: Markdown of one answer or of the whole conversation (answer text,
quoted evidence, references), CSV and Markdown of a table (what the page's copy links copy), and
BibTeX of the cited papers.

Abstract text is shown as on the page (:mod:`ui.display`): LaTeX markup outside math as text
(``\\url{x}`` -> a link in Markdown, ``x`` in CSV and BibTeX; ``---`` -> ``—``), the same in
every export.

Every export carries each paper's id and its link (the record's URL, else its DOI's), and only what
the paper's record states: a BibTeX entry of a record without a title has no ``title`` field (the
label paperchat shows goes to ``note``). Entry keys are stable (:func:`bibtex_keys`): the key the
user's own ``.bib`` or Zotero library gave the paper, else ``authorYEARword``, else one made from
the paper id.

Pure functions of domain objects; nothing here imports Gradio (``tests/test_ui_format.py``).
"""

from __future__ import annotations

import csv
import functools
import io
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from rag.evidence.rows import NOT_STATED
from rag.route.compare import ComparisonTable
from rag.route.compare import table_markdown as comparison_table_markdown
from rag.route.conversation import Turn
from rag.route.table_text import cell_text, table_text
from rag.types import Citation
from store.formats.common import doi_url
from store.papers import Paper, strip_markup
from ui.chat import turn_text
from ui.display import display_markdown, display_text, full_url

if TYPE_CHECKING:
    from rag.evidence.table import PaperTable

__all__ = [
    "KEY_SKIP_WORDS",
    "answer_markdown",
    "bibtex",
    "bibtex_key",
    "bibtex_keys",
    "comparison_csv",
    "conversation_markdown",
    "paper_link",
    "references_markdown",
    "table_copies",
    "table_csv",
]


def paper_link(citation: Citation, paper: Paper | None) -> str:
    """The link of a cited paper: its URL with a scheme (the citation's, else the record's), else
    its DOI's ``https://doi.org/...``; ``""`` when the record has neither."""
    url = full_url(citation.url or (paper.url if paper else ""))
    return url or (doi_url(paper.doi) if paper and paper.doi else "")


def _reference_line(c: Citation, paper: Paper | None) -> str:
    bits = [f"[{c.number}] {display_text(c.label)}", f"paper id `{c.paper_id}`"]
    authors = c.authors or (paper.author_line if paper else "")
    year = c.year or (paper.year if paper else None)
    if authors:
        bits.append(authors)
    if year:
        bits.append(str(year))
    url = paper_link(c, paper)
    if url:
        bits.append(f"<{url}>")
    return ". ".join(b.rstrip(".") for b in bits) + "."


def references_markdown(citations: Iterable[Citation], papers: Mapping[str, Paper]) -> str:
    """A ``## References`` section: one line per cited paper, by number: ``- [n] label. paper id
    `id`. authors. year. <link>.`` (authors, year and link only when the record states them)."""
    lines = ["## References", ""]
    for c in sorted({c.number: c for c in citations}.values(), key=lambda c: c.number):
        lines.append(f"- {_reference_line(c, papers.get(c.paper_id))}")
    return "\n".join(lines)


def _evidence_markdown(citations: Iterable[Citation]) -> str:
    lines = ["### Evidence", ""]
    for c in sorted(citations, key=lambda c: c.number):
        for e in c.evidence:
            quoted = display_markdown(strip_markup(e.sentence))
            lines.append(f"- [{c.number}] {display_text(c.label)}: “{quoted}” (characters {e.start}–{e.end})")
    return "\n".join(lines)


def _turn_section(turn: Turn, heading: str) -> list[str]:
    lines = [heading, ""]
    if turn.rewritten:
        lines += [f"_Interpreted as: {turn.interpreted}_", ""]
    lines += [display_markdown(turn_text(turn)), ""]
    if turn.citations:
        lines += [_evidence_markdown(turn.citations), ""]
    return lines


def answer_markdown(turn: Turn, papers: Mapping[str, Paper], *, now: datetime | None = None) -> str:
    """Markdown of one answer: question, answer (markers ``[n]``), evidence, references."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# {turn.question.strip() or 'Question'}",
        "",
        f"_Exported from paperchat on {stamp}; backend: {turn.answer.backend}._",
        "",
    ]
    lines += _turn_section(turn, "## Answer")
    if turn.citations:
        lines.append(references_markdown(turn.citations, papers))
    return "\n".join(lines).rstrip() + "\n"


def conversation_markdown(
    turns: Sequence[Turn],
    references: Mapping[int, Citation],
    papers: Mapping[str, Paper],
    *,
    now: datetime | None = None,
) -> str:
    """Markdown of the whole conversation with one reference list (conversation numbers)."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# paperchat conversation",
        "",
        f"_Exported on {stamp}; {len(turns)} question{'s' if len(turns) != 1 else ''}._",
        "",
    ]
    for i, t in enumerate(turns, start=1):
        lines += _turn_section(t, f"## {i}. {t.question.strip()}")
    if references:
        lines.append(references_markdown(references.values(), papers))
    return "\n".join(lines).rstrip() + "\n"


def table_csv(table: PaperTable, papers: Mapping[str, Paper] | None = None) -> str:
    """A table as CSV (RFC 4180 through :mod:`csv`, ``\\r\\n`` line ends).

    Args:
        table: The table (rows are cited papers, columns are phrases).
        papers: The collection by id, for each row's link when its citation has no URL (the DOI's).

    Returns:
        A header ``number, paper, paper_id, link`` and one column per phrase, then one line per
        row: its citation number, label, paper id, link (``""`` when the record has none) and each
        cell as :func:`rag.route.table_text.cell_text` gives it (the value and the quoted
        sentences, or "not stated in the abstract"), LaTeX markup as :func:`ui.display.display_text`
        shows it.
    """
    papers = papers or {}
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["number", "paper", "paper_id", "link", *(c.title for c in table.columns)])
    for c, row in zip(table.papers, table.cells, strict=True):
        link = paper_link(c, papers.get(c.paper_id))
        cells = (display_text(cell_text(cell)) for cell in row)
        w.writerow([c.number, display_text(c.label), c.paper_id, link, *cells])
    return out.getvalue()


def comparison_csv(table: ComparisonTable, papers: Mapping[str, Paper] | None = None) -> str:
    """A comparison's table as CSV (RFC 4180 through :mod:`csv`, ``\\r\\n`` line ends).

    Args:
        table: The comparison (rows are aspects, columns are the compared papers).
        papers: The collection by id, for each paper's link when its citation has no URL.

    Returns:
        A header ``row`` and ``label [n]`` per paper; a ``paper_id`` line and a ``link`` line
        (``""`` when the record has none); then one line per row: its title and each paper's
        quoted sentences, or "not stated in the abstract".
    """
    papers = papers or {}
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["row", *(f"{display_text(c.label)} [{c.number}]" for c in table.papers)])
    w.writerow(["paper_id", *(c.paper_id for c in table.papers)])
    w.writerow(["link", *(paper_link(c, papers.get(c.paper_id)) for c in table.papers)])
    for row, cells in zip(table.rows, table.cells, strict=True):
        said = [" ".join(f"“{display_text(e.sentence)}”" for e in evs) or NOT_STATED for evs in cells]
        w.writerow([row.title, *said])
    return out.getvalue()


def table_copies(turns: Sequence[Turn], papers: Mapping[str, Paper]) -> list[tuple[int, str, str]]:
    """What the chat's copy links copy, for each table of a conversation.

    Args:
        turns: The conversation's turns, in order.
        papers: The collection by id (links).

    Returns:
        ``(turn number from 1, Markdown, CSV)`` per turn with a table: the Markdown is the whole
        table as the answer's text holds it (a table across papers with its head line; every
        row, none folded), then its references (:func:`references_markdown`); the CSV is
        :func:`table_csv` or :func:`comparison_csv`.
    """
    out = []
    for k, t in enumerate(turns, start=1):
        if t.paper_table is not None:
            md, csv_text = table_text(t.paper_table), table_csv(t.paper_table, papers)
            cited = t.paper_table.papers
        elif t.table is not None:
            md, csv_text = comparison_table_markdown(t.table), comparison_csv(t.table, papers)
            cited = t.table.papers
        else:
            continue
        out.append((k, display_markdown(md) + "\n\n" + references_markdown(cited, papers) + "\n", csv_text))
    return out


# --- BibTeX ---------------------------------------------------------------------------------

KEY_SKIP_WORDS = frozenset(
    "a an the on of in for to and or with without by from at as via into onto over under towards toward "
    "is are be do does can how what when where why which who whose not no beyond through using".split()
)
"""Words a generated key never takes as its title word (``authorYEARword`` takes the first other
one): articles, prepositions, conjunctions and question words, which say nothing of the paper
("On the ...", "Towards ...", "How do ...")."""

_ASCII_FOLD = str.maketrans({"ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th",
                             "ı": "i", "Æ": "AE", "Œ": "OE", "Ø": "O", "Ł": "L", "Đ": "D", "Ð": "D", "Þ": "TH"})
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})
#: Characters BibTeX does not accept in an entry key.
_KEY_BAD = re.compile(r"[\s,{}()\"#%'~=\\]")


def _ascii(text: str) -> str:
    """Lower-case ASCII letters and digits of ``text``: accents dropped (``Müller`` -> ``muller``,
    ``Łukasz`` -> ``lukasz``), other characters removed."""
    folded = unicodedata.normalize("NFKD", text.translate(_ASCII_FOLD))
    return re.sub(r"[^a-z0-9]+", "", folded.encode("ascii", "ignore").decode("ascii").lower())


def _surname(name: str) -> str:
    """The family name of an author as the records write it: ``"Ada Lovelace"`` -> ``lovelace``,
    ``"Lovelace, Ada"`` -> ``lovelace``, ``"Martin Luther King Jr."`` -> ``king``; ``""`` when
    nothing of it is ASCII-writable."""
    if "," in name:
        return _ascii(name.split(",", 1)[0])
    words = [w for w in name.split() if _ascii(w) not in _NAME_SUFFIXES]
    return _ascii(words[-1]) if words else ""


def _title_word(title: str) -> str:
    """The first word of ``title`` that is not in :data:`KEY_SKIP_WORDS`, lower-case ASCII."""
    for word in re.findall(r"[^\W_]+", strip_markup(title)):
        w = _ascii(word)
        if w and w not in KEY_SKIP_WORDS:
            return w
    return ""


def _id_key(paper_id: str) -> str:
    """A key from a paper id: runs of characters other than letters, digits, ``:`` and ``-`` become ``_``."""
    key = re.sub(r"[^A-Za-z0-9:-]+", "_", paper_id).strip("_")
    return key or "paper"


@functools.lru_cache(maxsize=1 << 14)
def bibtex_key(paper: Paper) -> str:
    """The key of a paper's BibTeX entry before collisions are told apart (:func:`bibtex_keys`).

    In order: the key the record came with (:attr:`store.papers.Paper.cite_key`, the user's own
    ``.bib`` entry key or Zotero citation key, kept as written when BibTeX accepts it); else
    ``authorYEARword``: the first author's family name, the year and the first significant title
    word, lower-case ASCII (``vaswani2017attention``; year or word left out when the record has
    none, but not both); else one made from the paper id. Cached per record: an export tells the keys
    of a 3,000-paper collection apart in milliseconds once they are cached.

    >>> bibtex_key(Paper(id="x#1", abstract="...", title="Attention Is All You Need", authors=("Ashish Vaswani",),
    ...                  year=2017))
    'vaswani2017attention'
    >>> bibtex_key(Paper(id="000_6b930c46f6674b66#1", abstract="..."))
    '000_6b930c46f6674b66_1'
    """
    own = paper.cite_key.strip()
    if own:
        return own if not _KEY_BAD.search(own) else _id_key(own)
    surname = _surname(paper.authors[0]) if paper.authors else ""
    year, word = str(paper.year) if paper.year else "", _title_word(paper.title)
    if surname and (year or word):
        return surname + year + word
    return _id_key(paper.id)


def _suffix(n: int) -> str:
    """``a``, ``b``, ..., ``z``, ``aa``, ``ab``, ...: the ``n``-th collision suffix (0-based)."""
    out = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        out = chr(ord("a") + r) + out
    return out


def bibtex_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """One distinct BibTeX key per paper, by paper id: :func:`bibtex_key`, told apart when two agree.

    Keys the records came with are kept first; a paper whose generated key another paper also
    gets, or that a kept key already is, takes a suffix ``a``, ``b``, ``c``, ... in the order of
    the paper ids (``smith2020deepa``, ``smith2020deepb``); a kept key two records share keeps
    its first holder, the others take suffixes. The keys depend only on the papers given: pass the
    whole collection and a paper has the same key in every export.

    Args:
        papers: The papers (the collection), any order.

    Returns:
        ``{paper id: key}``, every key distinct.
    """
    by_id = {p.id: p for p in papers}
    taken: set[str] = set()
    keys: dict[str, str] = {}
    groups: dict[str, list[str]] = defaultdict(list)
    for pid in sorted(by_id):
        p = by_id[pid]
        key = bibtex_key(p)
        if p.cite_key.strip() and key not in taken:
            keys[pid] = key
            taken.add(key)
        else:
            groups[key].append(pid)
    for base, pids in groups.items():
        if len(pids) == 1 and base not in taken:
            keys[pids[0]] = base
            taken.add(base)
            continue
        n = 0
        for pid in pids:
            while base + _suffix(n) in taken:
                n += 1
            keys[pid] = base + _suffix(n)
            taken.add(keys[pid])
    return keys


_BIB_SPECIAL = re.compile(r"([&%$#_{}])")


def _bib_text(text: str) -> str:
    """Plain text safe in a braced BibTeX field (LaTeX specials escaped)."""
    text = display_text(text).replace("\\", "")
    text = _BIB_SPECIAL.sub(r"\\\1", text)
    return re.sub(r"\s+", " ", text).strip()


def _bib_name(name: str) -> str:
    """An author for ``author = {...}``: escaped, and braced when it holds " and " (an
    organisation), so BibTeX reads it as one name."""
    text = _bib_text(name)
    return f"{{{text}}}" if re.search(r"\sand\s", text) else text


def _entry_fields(c: Citation, p: Paper | None) -> list[tuple[str, str]]:
    """The fields of one ``@misc`` entry, values as written between the field's braces."""
    title = p.title if p else ""
    fields = [("title", "{" + _bib_text(title) + "}")] if title else []
    if p and p.authors:
        fields.append(("author", " and ".join(_bib_name(a) for a in p.authors)))
    year = (p.year if p else None) or c.year
    if year:
        fields.append(("year", str(year)))
    if p and p.doi and not re.search(r"[{}\s]", p.doi):
        fields.append(("doi", p.doi))
    note = f"Paper id: {_bib_text(c.paper_id)}"
    if not title:
        label = display_text((p.label if p else "") or c.label).rstrip("…").strip()
        note = f"No title in the record; paperchat shows it as: {_bib_text(label)}. {note}"
    fields.append(("note", note))
    url = full_url(c.url or (p.url if p else ""))
    if url:
        fields.append(("howpublished", "\\url{" + url.replace("%", "\\%").replace("#", "\\#") + "}"))
    return fields


def bibtex(citations: Iterable[Citation], papers: Mapping[str, Paper]) -> str:
    """``@misc`` entries of the cited papers (one per paper, by citation number), written by bibtexparser.

    Fields are the record's own: ``title`` (only when the record has one), ``author``, ``year``,
    ``doi``, ``howpublished = {\\url{<url>}}`` when known, and ``note = {Paper id: <id>}``; for a
    record without a title the note starts with the label paperchat shows for it, which is never
    written as a title. Keys are :func:`bibtex_keys` of ``papers``.

    Args:
        citations: The cited papers (a paper cited twice gets one entry, at its first number).
        papers: The collection by id: the records, and the papers whose keys the keys are told
            apart from (pass the whole collection for keys that are the same in every export).

    Returns:
        The entries separated by blank lines, ending with a newline; ``""`` for no citation.
    """
    import bibtexparser
    from bibtexparser.model import Entry, Field

    library = bibtexparser.Library()
    keys: dict[str, str] | None = None
    seen: set[str] = set()
    for c in sorted(citations, key=lambda c: c.number):
        if c.paper_id in seen:
            continue
        seen.add(c.paper_id)
        if keys is None:
            keys = bibtex_keys(papers.values())
        p = papers.get(c.paper_id)
        key = keys.get(c.paper_id) or _id_key(c.paper_id)
        library.add(Entry("misc", key, [Field(k, v) for k, v in _entry_fields(c, p)]))
    if not library.entries:
        return ""
    fmt = bibtexparser.BibtexFormat()
    fmt.indent, fmt.block_separator = "  ", "\n"  # an entry ends with its own newline: one blank line between
    return bibtexparser.write_string(library, bibtex_format=fmt).rstrip("\n") + "\n"
