"""Zotero's own CSV export ("Export Collection… > CSV"), read without ``--map``.

Format: Zotero's CSV translator (repository zotero/translators, ``CSV.js``): a UTF-8 file with
a byte-order mark, a header of fixed, title-cased columns ("Key", "Item Type",
"Publication Year", "Author", "Title", "Publication Title", "ISBN", "ISSN", "DOI", "Url",
"Abstract Note", "Date", "Date Added", ..., "Extra", ..., "Manual Tags", "Automatic Tags",
..., "Number", ..., "Conference Name", ...), one item per row, notes and attachments left out,
line breaks inside values replaced by spaces, authors written "Last, First; Last, First"
(a one-field name such as an organisation has no comma) and dates normalised to ISO
("2023-05-12"). Preprints keep their arXiv id in "Number" ("arXiv:2301.00001") or in
"Extra" ("arXiv: 2301.00001"); items of types without a DOI field keep it in "Extra"
("DOI: 10...").

The file is read by :func:`store.readers.csv_table.read_csv` (quoting, delimiters, line numbers, bad
rows); this module recognises the header and turns a row into a :class:`~store.papers.Paper`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

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

__all__ = ["is_zotero_header", "paper_from_zotero_row", "zotero_csv_authors"]

#: Columns only Zotero's export writes; a header with "Abstract Note" and two of these is Zotero's.
_ZOTERO_COLUMNS = ("key", "item type", "publication year", "publication title", "date added", "manual tags")


def is_zotero_header(header: Sequence[str]) -> bool:
    """Whether a CSV header (lower-case column names) is Zotero's export."""
    names = set(header)
    return "abstract note" in names and sum(c in names for c in _ZOTERO_COLUMNS) >= 2


def zotero_csv_authors(value: str) -> list[str]:
    """``"Müller, Hans; 李, 明; OpenAI"`` -> ``["Hans Müller", "李明", "OpenAI"]``.

    Zotero joins creators with ``"; "`` and writes each ``"Last, First"``, or the name alone
    for a one-field creator.
    """
    names = []
    for part in text(value).split(";"):
        last, sep, first = part.strip().partition(",")
        name = person_name(first, last) if sep else text(last)
        if name:
            names.append(name)
    return names


def _extra_doi(extra: str) -> str:
    m = re.search(r"(?i)(?:^|\s)DOI:\s*(10\.\S+)", extra)
    return normalize_doi(m.group(1)) if m else ""


def paper_from_zotero_row(row: Mapping[str, str], *, source: str, fallback_id: str) -> Paper:
    """Build a paper from one row of Zotero's CSV export.

    Args:
        row: ``{lower-case column: cell}``.
        source: The file name.
        fallback_id: Id when the row has no DOI, arXiv id or Zotero key (``<stem>#<n>``).

    Returns:
        The paper: id the DOI, else the arXiv id, else ``zotero:<Key>``; venue the publication
        title, else the conference name, else (a preprint) the repository; URL the item's, else
        the DOI's; citation key the "Citation Key" column's, else the one "Extra" pins.

    Raises:
        ValueError: The row has no abstract.
    """
    abstract = clean_abstract(row.get("abstract note"))
    key = text(row.get("key"))
    if not abstract:
        item = f"item {key}" if key else "item"
        raise ValueError(f'{item} has no abstract (empty "Abstract Note")')
    extra = text(row.get("extra"))
    doi = normalize_doi(row.get("doi")) or _extra_doi(extra)
    url = text(row.get("url"))
    arxiv = arxiv_id(row.get("number"), row.get("archive id"), extra, url, doi)
    item_type = text(row.get("item type"))
    venue = text(row.get("publication title")) or text(row.get("conference name"))
    if not venue and item_type == "preprint":
        venue = text(row.get("publisher"))  # a preprint's repository ("arXiv") is exported as Publisher
    return make_paper(
        stable_id(doi, arxiv, f"zotero:{key}" if key else fallback_id),
        abstract,
        title=clean_title(row.get("title")),
        authors=zotero_csv_authors(row.get("author", "")),
        year=year_in(row.get("publication year")) or year_in(row.get("date")),
        venue=venue,
        url=url or doi_url(doi),
        source=source,
        doi=doi,
        cite_key=citation_key(row.get("citation key"), extra),
    )
