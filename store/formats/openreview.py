"""OpenReview notes as its API returns them (API v1 and API v2), saved to a JSON file.

Format: OpenReview's API documentation (docs.openreview.net, "Using the API") and the ``Note``
class of openreview-py. A note is ``{"id", "forum", "cdate", "pdate", "ddate", "invitation"
(v1) or "invitations" (v2), "domain" (v2), "content": {...}}`` with times in milliseconds since
1970 (UTC). API v1 writes content values directly (``"title": "..."``, ``"authors": [...]``);
API v2 wraps each in an object (``"title": {"value": "..."}``). Submissions carry ``title``,
``abstract``, ``authors``, ``venue`` ("ICLR 2024 poster", "Submitted to ICLR 2024") and
``venueid`` ("ICLR.cc/2024/Conference"); blind v1 submissions list the author "Anonymous";
reviews and comments have neither title nor abstract. A file holds one note, a list, or the
API's reply ``{"notes": [...], "count": N}``.

The JSON is located and split into records by :func:`store.readers.json_array.read_json_array`; this module
recognises the notes and turns one into a :class:`~store.papers.Paper`.
"""

from __future__ import annotations

import datetime as dt
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

__all__ = ["is_openreview_note", "paper_from_note"]


def is_openreview_note(rec: Mapping[str, Any]) -> bool:
    """Whether a JSON object is an OpenReview note: a ``content`` object beside a note field."""
    return isinstance(rec.get("content"), dict) and any(
        k in rec for k in ("forum", "invitation", "invitations", "cdate", "replyto", "domain")
    )


def _value(content: Mapping[str, Any], key: str) -> Any:
    """A content field in either API shape: v1 ``"title": "x"``, v2 ``"title": {"value": "x"}``."""
    value = content.get(key)
    return value.get("value") if isinstance(value, dict) else value


def _venue_from_id(venue_id: str) -> str:
    """``"ICLR.cc/2024/Conference"`` -> ``"ICLR 2024 Conference"`` (an invitation's ``/-/...`` cut)."""
    parts = [p for p in venue_id.split("/-/")[0].split("/") if p]
    if parts and parts[0].endswith(".cc"):
        parts[0] = parts[0][:-3]
    return " ".join(parts)


def _year_of_ms(value: Any) -> int | None:
    """Year (UTC) of a time in milliseconds since 1970, ``None`` for anything else or out of range."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 32503680000000:  # < 3000
        return dt.datetime.fromtimestamp(value / 1000, tz=dt.UTC).year
    return None


def paper_from_note(note: Mapping[str, Any], *, source: str, fallback_id: str) -> Paper:
    """Build a paper from one OpenReview note (API v1 or v2 shape).

    Args:
        note: The note, keys as written.
        source: The file name.
        fallback_id: Id when the note has none (``<stem>#<n>``).

    Returns:
        The paper: id ``openreview:<note id>`` (its DOI or arXiv id when the content states
        one); year from the venue ("ICLR 2024 poster"), else the venue id, else the publication
        or creation time; URL the forum page.

    Raises:
        ValueError: The note was deleted, is not a paper (a review or comment), or has no abstract.
    """
    raw_content = note.get("content")
    content: Mapping[str, Any] = raw_content if isinstance(raw_content, dict) else {}
    nid = text(note.get("id"))
    what = f"note {nid}" if nid else "note"
    if note.get("ddate"):
        raise ValueError(f"{what} is deleted (it has a ddate)")
    title = clean_title(_value(content, "title"))
    abstract = clean_abstract(_value(content, "abstract"))
    if not title and not abstract:
        raise ValueError(f"{what} is not a paper (no title or abstract: a review, comment or decision)")
    if not abstract:
        raise ValueError(f"{what} has no abstract")
    authors_value = _value(content, "authors")
    authors = [text(a) for a in authors_value if text(a)] if isinstance(authors_value, list) else []
    if authors == ["Anonymous"]:
        authors = []  # blind submission
    invitations = note.get("invitations")
    first = invitations[0] if isinstance(invitations, list) and invitations else None
    invitation = text(note.get("invitation")) or text(first)
    venue_id = text(_value(content, "venueid")) or text(note.get("domain")) or invitation
    venue = text(_value(content, "venue")) or _venue_from_id(venue_id)
    year = (
        year_in(venue)
        or year_in(venue_id)
        or _year_of_ms(note.get("pdate"))
        or _year_of_ms(note.get("cdate"))
        or _year_of_ms(note.get("tcdate"))
    )
    doi = normalize_doi(_value(content, "doi"))
    arxiv = arxiv_id(_value(content, "arxiv"), _value(content, "html"))
    forum = text(note.get("forum")) or nid
    return make_paper(
        stable_id(doi, arxiv, f"openreview:{nid}" if nid else fallback_id),
        abstract,
        title=title,
        authors=authors,
        year=year,
        venue=venue,
        url=f"https://openreview.net/forum?id={forum}" if forum else doi_url(doi),
        source=source,
        doi=doi,
    )
