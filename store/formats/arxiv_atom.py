"""arXiv API responses: Atom 1.0 feeds of e-prints, saved to a file (``.xml``, ``.atom`` or any name).

Format: the arXiv API User's Manual (info.arxiv.org/help/api/user-manual.html, "Outline of an
Atom feed" and "Details of Atom Results Returned") on top of Atom 1.0 (RFC 4287). A
``<feed xmlns="http://www.w3.org/2005/Atom">`` holds one ``<entry>`` per e-print:
``<id>http://arxiv.org/abs/2301.00001v2</id>`` (the version is part of it), ``<title>`` and
``<summary>`` hard-wrapped over several lines (LaTeX kept), ``<published>``/``<updated>``
(ISO 8601), ``<author><name>`` (with optional ``<arxiv:affiliation>``), ``<link rel="alternate">``
to the abstract page and ``<link title="pdf">``, and in the ``http://arxiv.org/schemas/atom``
namespace ``<arxiv:doi>``, ``<arxiv:journal_ref>``, ``<arxiv:comment>`` and
``<arxiv:primary_category>``. A bad query returns one entry whose id is
``http://arxiv.org/api/errors#...`` and whose summary is the error. Other Atom feeds are read
the same way (``<content>`` stands in for a missing ``<summary>``).

Parsed with defusedxml (no entity expansion, no external resources). A syntax error is one
problem with its line and column; the entries closed before it are still read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element, ParseError, TreeBuilder

from store.formats.common import (
    arxiv_id,
    clean_abstract,
    clean_title,
    doi_url,
    normalize_doi,
    stable_id,
    text,
    year_in,
)
from store.papers import IngestProblem, Paper, ReadResult, make_paper

__all__ = ["looks_like_atom", "paper_from_entry", "read_atom"]

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
_OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"


def looks_like_atom(head: bytes) -> bool:
    """Whether a file's first bytes open an Atom feed: markup first, a ``<feed`` element in the Atom
    namespace (so a JSON file quoting such a feed is not taken for one)."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return start.startswith(b"<") and b"<feed" in start and b"http://www.w3.org/2005/Atom" in start


class _EntryCollector:
    """Parser target that builds the tree and records each ``<entry>``'s start line."""

    def __init__(self) -> None:
        self.builder = TreeBuilder()
        self.parser: Any = None
        self.root_tag: str | None = None
        self.entries: list[tuple[int, Element]] = []
        self._starts: list[int] = []

    def start(self, tag: str, attrs: dict[str, str]) -> Element:
        if self.root_tag is None:
            self.root_tag = tag
        if tag == ATOM + "entry":
            self._starts.append(self.parser.parser.CurrentLineNumber)
        return self.builder.start(tag, attrs)

    def end(self, tag: str) -> Element:
        element = self.builder.end(tag)
        if tag == ATOM + "entry" and self._starts:
            self.entries.append((self._starts.pop(), element))
        return element

    def data(self, data: str) -> None:
        self.builder.data(data)

    def close(self) -> Element:
        return self.builder.close()


def _child_text(entry: Element, tag: str) -> str:
    child = entry.find(tag)
    return "".join(child.itertext()) if child is not None else ""


def paper_from_entry(entry: Element, *, source: str, fallback_id: str) -> Paper:
    """Build a paper from one Atom ``<entry>``.

    Args:
        entry: The parsed entry.
        source: The file name.
        fallback_id: Id when the entry has no id (``<stem>#<n>``).

    Returns:
        The paper: id the DOI (``<arxiv:doi>``), else the arXiv id without version
        (``2301.00001``), else the entry's ``<id>``; venue the journal reference, else "arXiv";
        URL the versionless abstract page; year the journal reference's, else ``<published>``'s.

    Raises:
        ValueError: The entry is an arXiv API error, or has no summary.
    """
    entry_id = text(_child_text(entry, ATOM + "id"))
    summary = _child_text(entry, ATOM + "summary") or _child_text(entry, ATOM + "content")
    if "arxiv.org/api/errors" in entry_id:
        raise ValueError(f"arXiv API error: {text(summary) or entry_id}")
    aid = arxiv_id(entry_id)
    abstract = clean_abstract(summary)
    if not abstract:
        raise ValueError(f"{aid or entry_id or 'entry'} has no summary (abstract)")
    doi = normalize_doi(_child_text(entry, ARXIV + "doi"))
    authors = [text(_child_text(a, ATOM + "name")) for a in entry.findall(ATOM + "author")]
    links = entry.findall(ATOM + "link")
    page = next((ln.get("href", "") for ln in links if ln.get("rel", "alternate") == "alternate"), "")
    journal_ref = text(_child_text(entry, ARXIV + "journal_ref"))
    dated = _child_text(entry, ATOM + "published") or _child_text(entry, ATOM + "updated")
    if aid:
        url = f"https://arxiv.org/abs/{aid}"
        venue = journal_ref or "arXiv"
    else:
        url = page or (entry_id if re.match(r"https?://", entry_id) else "") or doi_url(doi)
        venue = ""
    return make_paper(
        stable_id(doi, aid, entry_id or fallback_id),
        abstract,
        title=clean_title(_child_text(entry, ATOM + "title")),
        authors=[a for a in authors if a],
        year=year_in(journal_ref) or year_in(dated),
        venue=venue,
        url=url,
        source=source,
        doi=doi,
    )


def read_atom(path: Path) -> ReadResult:
    """Read an arXiv API response (an Atom feed): one paper per ``<entry>``.

    Each bad entry (an API error, no summary) is a problem with the line its ``<entry>`` starts
    on; a file that is not XML or not an Atom feed is one problem.

    Args:
        path: The saved response.

    Returns:
        The papers read and one problem per bad entry.
    """
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import DefusedXMLParser

    result = ReadResult(file=path.name)
    try:
        data = path.read_bytes()
    except OSError as exc:
        result.problems.append(IngestProblem(path.name, None, f"cannot read file: {exc}"))
        return result
    if not data.strip():
        result.problems.append(IngestProblem(path.name, None, "empty file"))
        return result
    collector = _EntryCollector()
    parser = DefusedXMLParser(target=collector)
    collector.parser = parser
    root: Element | None = None
    try:
        parser.feed(data)
        root = parser.close()
    except ParseError as exc:
        line, col = exc.position
        result.problems.append(IngestProblem(path.name, line, f"invalid XML at column {col + 1}: {_xml_reason(exc)}"))
    except DefusedXmlException as exc:
        result.problems.append(IngestProblem(path.name, None, f"refused XML: {exc}"))
        return result
    if collector.root_tag != ATOM + "feed":
        if collector.root_tag is not None:
            got = re.sub(r"^\{[^}]*\}", "", collector.root_tag)
            reason = f"not an Atom feed (the root element is <{got}>): expected an arXiv API response"
            result.problems.append(IngestProblem(path.name, 1, reason))
        return result
    for n, (line, entry) in enumerate(collector.entries, start=1):
        try:
            result.papers.append(paper_from_entry(entry, source=path.name, fallback_id=f"{path.stem}#{n}"))
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, line, f"entry {n}: {exc}"))
    if not collector.entries and root is not None:
        total = text(_child_text(root, _OPENSEARCH + "totalResults"))
        reason = f"no entries (the feed reports {total} results)" if total else "no entries"
        result.problems.append(IngestProblem(path.name, None, reason))
    return result


def _xml_reason(exc: ParseError) -> str:
    """The expat message without its ``line L, column C`` tail (the problem states the place)."""
    return re.sub(r":\s*line \d+, column \d+$", "", str(exc))
