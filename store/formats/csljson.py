"""CSL-JSON: the citation data Zotero, Mendeley, Crossref and most reference managers export.

Format: the CSL 1.0.2 data schema (citation-style-language/schema, ``csl-data.json``): an array
of items, each with ``id`` (string or number) and ``type`` (``article-journal``,
``paper-conference``, ``article`` for preprints, ...) and optional ``title``, ``abstract``,
``author`` (a list of ``{family, given, non-dropping-particle, dropping-particle, suffix}`` or
``{literal}``), ``issued`` (``{"date-parts": [[2023, 5, 1]]}`` with numbers or strings, or
``{"raw": ...}``, ``{"literal": ...}``, or an EDTF string), ``DOI``, ``URL``,
``container-title``, ``event-title``, ``publisher``, ``number`` and ``note``. Zotero writes its
item URI as ``id`` (``http://zotero.org/users/1/items/ABCD2345``), a preprint's
``arXiv:2301.00001`` as ``number`` and its Extra field as ``note``; Crossref writes abstracts as
JATS XML (``<jats:p>``).

The JSON is located and split into records by :func:`store.readers.json_array.read_json_array`; this module
recognises the items and turns one into a :class:`~store.papers.Paper`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from store.formats.common import (
    arxiv_id,
    citation_key,
    clean_abstract,
    clean_title,
    doi_url,
    normalize_doi,
    person_name,
    stable_id,
    text,
    year_in,
)
from store.papers import Paper, make_paper

__all__ = ["csl_authors", "csl_year", "is_csl_item", "paper_from_csl"]

#: Item types of the CSL 1.0.2 schema.
CSL_TYPES = frozenset(
    {
        "article", "article-journal", "article-magazine", "article-newspaper", "bill", "book", "broadcast",
        "chapter", "classic", "collection", "dataset", "document", "entry", "entry-dictionary",
        "entry-encyclopedia", "event", "figure", "graphic", "hearing", "interview", "legal_case", "legislation",
        "manuscript", "map", "motion_picture", "musical_score", "pamphlet", "paper-conference", "patent",
        "performance", "periodical", "personal_communication", "post", "post-weblog", "regulation", "report",
        "review", "review-book", "software", "song", "speech", "standard", "thesis", "treaty", "webpage",
    }
)
#: Keys only CSL writes (hyphenated variables and its date object).
_CSL_KEYS = ("issued", "container-title", "citation-key", "event-title", "publisher-place", "collection-title")


def is_csl_item(rec: Mapping[str, Any]) -> bool:
    """Whether a JSON object is a CSL item: a CSL-only key such as ``issued``, or an ``id`` with a
    CSL ``type`` and none of the field names of paperchat's own JSON (``authors``, ``year``, ``venue``)."""
    if isinstance(rec.get("content"), dict) or "paperId" in rec:
        return False  # an OpenReview note or a Semantic Scholar paper
    if any(k in rec for k in _CSL_KEYS):
        return True
    own_shape = any(k in rec for k in ("authors", "year", "venue"))
    kind = rec.get("type")
    return isinstance(kind, str) and kind in CSL_TYPES and "id" in rec and not own_shape


def csl_authors(value: Any) -> list[str]:
    """Names of a CSL name list, first name first (``{literal}`` names as written)."""
    names = []
    for person in value if isinstance(value, list) else []:
        if not isinstance(person, dict):
            continue
        name = text(person.get("literal")) or person_name(
            person.get("given"),
            person.get("family"),
            particle=" ".join(
                p for p in (text(person.get("dropping-particle")), text(person.get("non-dropping-particle"))) if p
            ),
            suffix=person.get("suffix"),
        )
        if name:
            names.append(name)
    return names


def csl_year(issued: Any) -> int | None:
    """The year of a CSL date: ``{"date-parts": [[2023, 5]]}`` (numbers or strings), ``{"raw": ...}``,
    ``{"literal": ...}`` or an EDTF string such as ``"2023-05"``; ``None`` when it has none."""
    if isinstance(issued, dict):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            year = year_in(parts[0][0])
            if year:
                return year
        return year_in(issued.get("raw")) or year_in(issued.get("literal")) or year_in(issued.get("edtf"))
    return year_in(issued)


def _first_text(value: Any) -> str:
    """A CSL variable that may be a string or a list of strings (``container-title``)."""
    if isinstance(value, list):
        return next((text(v) for v in value if text(v)), "")
    return text(value)


def _own_key(rec: Mapping[str, Any]) -> str:
    """The item's own key: Zotero's item key from its URI (``zotero:ABCD2345``), a citation key,
    or the id as written; ``""`` for ids that only number the items of one file (``1``, ``ITEM-1``)."""
    rid = text(rec.get("id"))
    m = re.search(r"zotero\.org/(?:users|groups)/\w+/items/([A-Z0-9]{8})$", rid)
    if m:
        return f"zotero:{m.group(1)}"
    key = text(rec.get("citation-key")) or rid
    return "" if re.fullmatch(r"(?i)(?:item-?)?\d+", key) else key


def paper_from_csl(rec: Mapping[str, Any], *, source: str, fallback_id: str) -> Paper:
    """Build a paper from one CSL-JSON item.

    Args:
        rec: The item, keys as written.
        source: The file name.
        fallback_id: Id when the item has no DOI, arXiv id or usable own id (``<stem>#<n>``).

    Returns:
        The paper: id the DOI, else the arXiv id (from ``number``, ``URL``, ``note`` or an arXiv
        DOI), else the item's own key; venue the container title, else the event, else a
        preprint's publisher ("arXiv"); citation key the item's ``citation-key``, else the one
        its ``note`` (Zotero's Extra) pins.

    Raises:
        ValueError: The item has no abstract.
    """
    abstract = clean_abstract(rec.get("abstract"))
    own = _own_key(rec)
    if not abstract:
        raise ValueError(f"item {own or text(rec.get('id')) or '(no id)'} has no abstract")
    doi = normalize_doi(rec.get("DOI") or rec.get("doi"))
    url = text(rec.get("URL") or rec.get("url"))
    arxiv = arxiv_id(rec.get("number"), url, rec.get("note"), doi, rec.get("id"))
    event = rec.get("event")
    venue = (
        _first_text(rec.get("container-title"))
        or text(rec.get("event-title"))
        or (text(event.get("name")) if isinstance(event, dict) else text(event))
    )
    if not venue and rec.get("type") in ("article", "manuscript", "report"):
        venue = text(rec.get("publisher"))  # a preprint's repository, e.g. "arXiv"
    return make_paper(
        stable_id(doi, arxiv, own or fallback_id),
        abstract,
        title=clean_title(rec.get("title")),
        authors=csl_authors(rec.get("author")),
        year=csl_year(rec.get("issued")),
        venue=venue,
        url=url or doi_url(doi),
        source=source,
        doi=doi,
        cite_key=citation_key(rec.get("citation-key"), rec.get("note")),
    )
