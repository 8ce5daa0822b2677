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

import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace

from rag.question.plan import StatedFilters
from store.papers import Paper

__all__ = ["AUTO_HINT", "FilterPlan", "Filters"]

AUTO_HINT = "remove with --no-auto-filter"
"""How to undo an automatic filter; shown in the answer's note."""

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
        within: Only these papers (ids), as a question asked of a list is
            (:meth:`FilterPlan.within`): a saved question asked again over the papers an ingest
            just added (:mod:`rag.route.watch`); ``None``: no such restriction.
        within_what: How the answer's note names the papers of ``within`` ("the 3 papers just added").
    """

    year: int | None = None
    venue: str = ""
    author: str = ""
    auto: bool = True
    auto_hint: str = AUTO_HINT
    within: frozenset[str] | None = None
    within_what: str = ""

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

    @property
    def reads(self) -> frozenset[str]:
        """The restrictions to read from a question: none without ``auto``; else year, venue and
        author, except one set explicitly (the explicit value wins and the question's words stay)."""
        if not self.auto:
            return frozenset()
        kinds = {"year"} if self.year is None else set()
        kinds |= {"venue"} if not self.venue.strip() else set()
        kinds |= {"author"} if not self.author.strip() else set()
        return frozenset(kinds)

    def plan(self, stated: StatedFilters, papers: Mapping[str, Paper]) -> FilterPlan:
        """Resolve the filters for one question over the collection's papers.

        Args:
            stated: The restrictions the question states, as the question reader read them
                (:func:`rag.question.filters.read_filters`, for the kinds of :attr:`reads`).
            papers: Every paper of the collection, by id.

        Returns:
            A :class:`FilterPlan`: the allowed ids (``None`` when nothing restricts) and the note to
            show; within :attr:`within` when set (:meth:`FilterPlan.within`).
        """
        out = self._plan(stated, papers)
        if self.within is None:
            return out
        n = len(self.within)
        return out.within(self.within, self.within_what or f"the {n} paper{'s' if n != 1 else ''} given")

    def _plan(self, stated: StatedFilters, papers: Mapping[str, Paper]) -> FilterPlan:
        """:meth:`plan` without :attr:`within`."""
        explicit = replace(self, auto=False)
        auto_year = stated.year if self.auto and self.year is None else None
        auto_venue = stated.venue if self.auto and not self.venue.strip() else ""
        by_names = stated.authors if self.auto and not self.author.strip() else ()
        if self.auto and not self.author.strip() and not by_names and stated.person:
            # "papers by Sergey Levine": no record names that author
            held = "" if any(p.authors for p in papers.values()) else "; no record of this collection names its authors"
            note = f"filter: author={stated.person} ({self.auto_hint})"
            return FilterPlan(set(), note, f"author={stated.person}{held}", by_author=True)
        notes = []
        if explicit.active:
            notes.append(f"filter: {explicit.describe()}")
        auto = [f"year={auto_year}"] if auto_year is not None else []
        auto += [f"venue={auto_venue}"] if auto_venue else []
        by_author = [f"author={' / '.join(by_names)}"] if by_names else []
        if auto or by_author:
            notes.append(f"filter: {', '.join(auto + by_author)} ({self.auto_hint})")
        if not notes:
            return FilterPlan(None, "", "")
        effective = replace(
            explicit, year=auto_year if auto_year is not None else explicit.year, venue=auto_venue or explicit.venue
        )
        allowed = effective.allowed(papers)
        description = ", ".join(x for x in (effective.describe(), *by_author) if x)
        if by_names and stated.author_papers is not None:
            allowed &= stated.author_papers
        return FilterPlan(allowed, "; ".join(notes), description, by_author=bool(by_names or self.author.strip()))


@dataclass(frozen=True)
class FilterPlan:
    """Filters resolved for one question.

    Attributes:
        allowed: Paper ids retrieval may return; ``None`` when nothing restricts.
        note: What the answer's note shows, e.g. ``"filter: year=2023 (remove with --no-auto-filter)"``.
        description: The effective restrictions, e.g. ``"year=2023, venue=ICML"``.
        by_author: An author restricts the papers (given, or stated in the question).
        scope: The set of papers the question is asked within, when it is not the collection ("the
            12 papers of the previous answer", :meth:`within`); ``""`` otherwise.
    """

    allowed: set[str] | None
    note: str
    description: str
    by_author: bool = False
    scope: str = ""

    def within(self, ids: Collection[str], what: str) -> FilterPlan:
        """These filters within a set of papers (``what`` names it: "the 12 papers of the previous
        answer"): a question asked of a list ("which of them use RL?") searches only its papers."""
        note = "; ".join(x for x in (self.note, f"asked within {what}") if x)
        return FilterPlan(self.restrict(set(ids)), note, self.description, self.by_author, scope=what)

    def restrict(self, allowed: set[str] | None) -> set[str] | None:
        """Intersect with another restriction (``None`` means no restriction)."""
        if self.allowed is None:
            return allowed
        return set(self.allowed) if allowed is None else self.allowed & allowed
