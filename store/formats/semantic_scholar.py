"""Semantic Scholar papers as its Academic Graph API returns them, saved to a JSON file.

Format: the Academic Graph API documentation (api.semanticscholar.org/api-docs/graph, the
``Paper`` schema): ``{"paperId": "649def34...", "corpusId", "externalIds": {"DOI", "ArXiv",
"DBLP", "MAG", "CorpusId", ...}, "url", "title", "abstract", "venue", "publicationVenue":
{"name", ...}, "journal": {"name", ...}, "year", "publicationDate": "2023-05-12", "authors":
[{"authorId", "name"}], "tldr": {"text"}, ...}``. Only the fields asked for (``fields=``) are
present; ``abstract`` is ``null`` for papers whose publisher withholds it. A file holds one
paper (``/paper/{id}``), a list (``POST /paper/batch``, where unknown ids give ``null``) or a
search reply ``{"total": N, "offset": 0, "next": 10, "data": [...]}``.

The JSON is located and split into records by :func:`store.readers.json_array.read_json_array`; this module
recognises the papers and turns one into a :class:`~store.papers.Paper`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
from store.papers import Paper, make_paper

__all__ = ["is_s2_paper", "paper_from_s2"]


def is_s2_paper(rec: Mapping[str, Any]) -> bool:
    """Whether a JSON object is a Semantic Scholar paper: it has ``paperId``, or ``externalIds``
    beside a ``title``."""
    return "paperId" in rec or (isinstance(rec.get("externalIds"), dict) and "title" in rec)


def _name_of(value: Any) -> str:
    return text(value.get("name")) if isinstance(value, dict) else ""


def paper_from_s2(rec: Mapping[str, Any], *, source: str, fallback_id: str) -> Paper:
    """Build a paper from one Semantic Scholar paper object.

    Args:
        rec: The paper, keys as written.
        source: The file name.
        fallback_id: Id when the paper has no DOI, arXiv id or ``paperId`` (``<stem>#<n>``).

    Returns:
        The paper: id the DOI, else the arXiv id, else ``s2:<paperId>``; venue ``venue``, else
        the publication venue's or journal's name. The TLDR is never used as the abstract (it
        is machine-written).

    Raises:
        ValueError: The paper has no abstract.
    """
    pid = text(rec.get("paperId"))
    abstract = clean_abstract(rec.get("abstract"))
    if not abstract:
        what = f"paper {pid}" if pid else "paper"
        raise ValueError(f"{what} has no abstract (Semantic Scholar gives none for it)")
    raw_ids = rec.get("externalIds")
    ids: Mapping[str, Any] = raw_ids if isinstance(raw_ids, dict) else {}
    doi = normalize_doi(ids.get("DOI"))
    arxiv = arxiv_id(ids.get("ArXiv"), doi)
    raw_people = rec.get("authors")
    people: list[Any] = raw_people if isinstance(raw_people, list) else []
    authors = [_name_of(a) for a in people if _name_of(a)]
    venue = text(rec.get("venue")) or _name_of(rec.get("publicationVenue")) or _name_of(rec.get("journal"))
    return make_paper(
        stable_id(doi, arxiv, f"s2:{pid}" if pid else fallback_id),
        abstract,
        title=clean_title(rec.get("title")),
        authors=authors,
        year=year_in(rec.get("year")) or year_in(rec.get("publicationDate")),
        venue=venue,
        url=text(rec.get("url")) or doi_url(doi),
        source=source,
        doi=doi,
    )
