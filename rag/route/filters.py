"""Metadata filters (year, venue, author) that restrict retrieval to a subset of papers.

A :class:`Filters` value is what the CLI (``--year``, ``--venue``, ``--author``) and the UI
pass to :meth:`rag.route.answer.AnswerPipeline.ask`. Filters never re-rank: they only decide which
paper ids retrieval may return (the ``allowed`` set of :meth:`HybridRetriever.search`).

With ``auto=True`` a year the question states as a restriction ("papers from 2023 about
diffusion", "2022 papers on ...") becomes a year filter, a venue the records state ("ICML papers on
speech") a venue filter, and an author name the records hold
("papers by Tri Dao", "Dao's work on attention", :mod:`rag.index.authors`) an author filter on
exactly that author's papers. An automatic filter is always visible: the answer's note says
``filter: year=2023 (remove with --no-auto-filter)``; the UI passes its own
:attr:`Filters.auto_hint` (the checkbox that turns it off).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from store.papers import Paper

if TYPE_CHECKING:
    from rag.index.authors import AuthorIndex

__all__ = ["AUTO_HINT", "FilterPlan", "Filters", "detect_venue", "detect_year"]

AUTO_HINT = "remove with --no-auto-filter"
"""How to undo an automatic filter; shown in the answer's note."""

_YEAR = r"(?:19[5-9]\d|20[0-3]\d)"
# What may follow "from 2023" for it to be a date: the end, punctuation, or a connecting word.
# "trained in 2000 steps" or "in 2010 dimensions" stay numbers.
_FOLLOWER = (
    r"(?=\s*(?:$|[?.,;:!)\]]|(?:about|on|that|which|with|and|or|for|regarding|concerning|where|who|to|in|at|by"
    r"|into|than|do|does|did|is|are|was|were|have|has|had|can|could|propos\w*|us(?:e|es|ed|ing)|stud\w*|show\w*"
    r"|address\w*|tackl\w*|focus\w*|introduc\w*|present\w*|report\w*|work(?:s|ed|ing)?|mention\w*)\b))"
)
# "from 2023", "published in 2023", "during 2022 about ..."
_YEAR_AFTER = re.compile(
    rf"\s*\b(?:(?:published|presented|appeared|accepted)\s+)?(?:from|in|during|of)\s+(?:the\s+year\s+)?"
    rf"({_YEAR})\b{_FOLLOWER}",
    re.I,
)
# "2023 papers", "2022 ICML papers"
_YEAR_BEFORE = re.compile(rf"\b({_YEAR})(?=\s+(?:[A-Z][A-Za-z]+\s+)?(?:papers|works|articles|studies|publications)\b)")


def detect_year(question: str) -> tuple[int | None, str]:
    """Find a year the question states as a restriction on publication year.

    Args:
        question: The question as asked.

    Returns:
        ``(year, question without the year phrase)``; ``(None, question)`` when none is stated.
        Only explicit forms count: "from/in/during/of YEAR" not followed by a noun, and
        "YEAR papers"; a bare number ("2023 tokens") is never a filter.
    """
    m = _YEAR_AFTER.search(question)
    if m:
        rest = (question[: m.start()] + question[m.end() :]).strip()
        return int(m.group(1)), re.sub(r"\s{2,}", " ", rest)
    m = _YEAR_BEFORE.search(question)
    if m:
        rest = (question[: m.start()] + question[m.end() :]).strip()
        return int(m.group(1)), re.sub(r"\s{2,}", " ", rest)
    return None, question


def detect_venue(question: str, venues: set[str]) -> tuple[str | None, str]:
    """Find a venue of the collection's records the question names ("ICML papers on speech",
    "which papers at ICML use diffusion?", "icml papers").

    Args:
        question: The question as asked.
        venues: The venues the records state (``Paper.venue``).

    Returns:
        ``(venue, question without it and a preposition before it)``; ``(None, question)`` when
        none is named. A venue matches as a whole word, as the records write it or, for an acronym
        ("ICML"), in lower case; "nature" does not name the venue "Nature".
    """
    for venue in sorted(venues, key=len, reverse=True):
        forms = re.escape(venue) + (f"|{re.escape(venue.lower())}" if venue.isupper() else "")
        m = re.search(rf"(?:\b(?:at|from|in|of)\s+(?:the\s+)?)?(?<![\w-])(?:{forms})(?![\w-])", question)
        if m:
            rest = (question[: m.start()] + question[m.end() :]).strip()
            return venue, re.sub(r"\s{2,}", " ", rest)
    return None, question


def _fold(text: str) -> str:
    """Lower case without accents and with single spaces (``"Müller  J."`` -> ``"muller j."``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


@dataclass(frozen=True)
class Filters:
    """Restrictions on which papers may answer.

    Attributes:
        year: Publication year, or ``None`` for any.
        venue: Case-insensitive substring of the venue (``"icml"`` matches ``"ICML"``), ``""`` for any.
        author: Case- and accent-insensitive substring of any author name
            (``"muller"`` matches ``"Jonas Müller"``), ``""`` for any.
        auto: Also take a year from the question ("papers from 2023 about ...") when
            ``year`` is not given, a venue the records state ("ICML papers") when ``venue`` is not,
            and an author the records hold ("papers by Tri Dao") when
            ``author`` is not.
        auto_hint: How to undo an automatic filter, shown in the note after it
            (default :data:`AUTO_HINT`, the CLI option).
    """

    year: int | None = None
    venue: str = ""
    author: str = ""
    auto: bool = False
    auto_hint: str = AUTO_HINT

    @property
    def active(self) -> bool:
        """Whether any explicit restriction is set (``auto`` alone restricts nothing yet)."""
        return self.year is not None or bool(self.venue.strip()) or bool(self.author.strip())

    def matches(self, paper: Paper) -> bool:
        """Whether ``paper`` passes every restriction."""
        if self.year is not None and paper.year != self.year:
            return False
        if self.venue.strip() and _fold(self.venue) not in _fold(paper.venue):
            return False
        if self.author.strip():
            needle = _fold(self.author)
            if not any(needle in _fold(a) for a in paper.authors):
                return False
        return True

    def allowed(self, papers: Mapping[str, Paper]) -> set[str]:
        """Ids of the papers in ``papers`` (id -> paper) that pass."""
        return {pid for pid, p in papers.items() if self.matches(p)}

    def describe(self) -> str:
        """``"year=2023, venue=ICML, author=Smith"`` (only the restrictions that are set)."""
        parts = []
        if self.year is not None:
            parts.append(f"year={self.year}")
        if self.venue.strip():
            parts.append(f"venue={self.venue.strip()}")
        if self.author.strip():
            parts.append(f"author={self.author.strip()}")
        return ", ".join(parts)

    def plan(self, question: str, papers: Mapping[str, Paper], authors: AuthorIndex | None = None) -> FilterPlan:
        """Resolve the filters for one question over the collection's papers.

        Args:
            question: The question as asked.
            papers: Every paper of the collection, by id.
            authors: The collection's author names, to read stated authors (``auto`` only).

        Returns:
            A :class:`FilterPlan`: the allowed ids (``None`` when nothing restricts), the
            question to retrieve with (automatic year and author phrases removed) and the note to show.
        """
        from rag.index.authors import read_authors, stated_person

        explicit = replace(self, auto=False)
        auto_year = None
        query = question
        if self.auto and self.year is None:
            auto_year, stripped = detect_year(question)
            if auto_year is not None and stripped.strip():
                query = stripped
            elif auto_year is not None:
                auto_year = None  # the year was the whole question: nothing left to search for
        auto_venue = None
        if self.auto and not self.venue.strip():
            auto_venue, stripped = detect_venue(query, {p.venue for p in papers.values() if p.venue})
            if auto_venue is not None and stripped.strip():
                query = stripped
            else:
                auto_venue = None
        stated = None
        if self.auto and not self.author.strip() and authors:
            stated = read_authors(query, authors)
            query = stated.rest if stated else query
        if self.auto and not self.author.strip() and stated is None and authors is not None:
            person = stated_person(query, authors.vocabulary)
            if person:  # "papers by Sergey Levine": no record names that author
                held = "" if authors else "; no record of this collection names its authors"
                note = f"filter: author={person} ({self.auto_hint})"
                return FilterPlan(set(), question, note, f"author={person}{held}", by_author=True)
        notes = []
        if explicit.active:
            notes.append(f"filter: {explicit.describe()}")
        auto = [f"year={auto_year}"] if auto_year is not None else []
        auto += [f"venue={auto_venue}"] if auto_venue else []
        by_author = [f"author={' / '.join(stated.names)}"] if stated else []
        if auto or by_author:
            notes.append(f"filter: {', '.join(auto + by_author)} ({self.auto_hint})")
        if not notes:
            return FilterPlan(None, question, "", "")
        effective = replace(
            explicit, year=auto_year if auto_year is not None else explicit.year, venue=auto_venue or explicit.venue
        )
        allowed = effective.allowed(papers)
        description = ", ".join(x for x in (effective.describe(), *by_author) if x)
        if stated:
            allowed &= stated.papers
        return FilterPlan(allowed, query, "; ".join(notes), description, by_author=bool(stated or self.author.strip()))


@dataclass(frozen=True)
class FilterPlan:
    """Filters resolved for one question.

    Attributes:
        allowed: Paper ids retrieval may return; ``None`` when nothing restricts.
        question: The text to retrieve with (an automatically detected year phrase removed).
        note: What the answer's note shows, e.g. ``"filter: year=2023 (remove with --no-auto-filter)"``.
        description: The effective restrictions, e.g. ``"year=2023, venue=ICML"``.
        by_author: An author restricts the papers (given, or stated in the question).
    """

    allowed: set[str] | None
    question: str
    note: str
    description: str
    by_author: bool = False

    def restrict(self, allowed: set[str] | None) -> set[str] | None:
        """Intersect with another restriction (``None`` means no restriction)."""
        if self.allowed is None:
            return allowed
        return set(self.allowed) if allowed is None else self.allowed & allowed
