"""The fields a paper record is read from: the names each field goes by, ``--map`` overrides, and
the normalisation of values (text, author names, years) shared by the JSON, CSV and BibTeX readers.

Fields are found under the names the common exports give them (see :data:`FIELD_NAMES`: the
columns of Zotero's CSV export and of Web of Science, Scopus and IEEE Xplore tables, Zotero's JSON
keys, BibTeX/biblatex fields, ...), compared as normalised names (:func:`name_key`: case,
spaces, underscores and hyphens do not count, so "Abstract Note", "abstract_note" and
"abstractNote" are one name). ``field_map`` maps a field to the column/key a file uses instead,
e.g. ``{"abstract": "Summary"}`` from the CLI option ``--map abstract=Summary``. A mapped name
takes precedence; when a record lacks it, the common names are tried.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from store.papers import Paper, make_paper
from store.textin import clean_text

__all__ = [
    "FIELD_NAMES",
    "lookup",
    "name_key",
    "names_for",
    "paper_from_record",
    "parse_field_map",
    "parse_year",
    "split_authors",
    "text_value",
]

#: Field -> names it is found under, in order of preference, as the exports of reference managers
#: and paper sites write them (compared by :func:`name_key`, so letter case, spaces, underscores
#: and hyphens do not matter). The one alias table of the JSON, CSV/TSV and BibTeX readers.
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "id": ("id", "paper_id", "uid", "doi", "key"),
    "title": ("title", "paper_title", "article title", "document title", "name"),
    "abstract": ("abstract", "abstract note", "summary", "tldr", "description"),
    "authors": ("authors", "author", "creators"),
    "year": ("year", "publication year", "date", "published", "publication_date"),
    "venue": (
        "venue",
        "publication title",
        "conference",
        "conference name",
        "journal",
        "journaltitle",
        "booktitle",
        "source title",
        "container-title",
    ),
    "url": ("url", "pdf_url", "paper_url", "link", "pdf link", "code_url"),
}
# Zotero CSV: "Abstract Note", "Publication Year", "Publication Title", "Conference Name", "Url";
# Zotero JSON: abstractNote, publicationTitle; Web of Science: "Article Title", "Source Title",
# "Publication Year"; Scopus: "Source title", "Link"; IEEE Xplore: "Document Title",
# "Publication Title", "PDF Link"; biblatex: journaltitle; CSL: container-title.

_NAME_SEPARATORS = re.compile(r"[\s_\-]+")


def name_key(name: object) -> str:
    """A field or column name as it is compared: lower case, without spaces, underscores, hyphens.

    ``"Abstract Note"``, ``"abstract_note"`` and ``"abstractNote"`` -> ``"abstractnote"``.
    """
    return _NAME_SEPARATORS.sub("", str(name).strip().lower())


def parse_field_map(specs: Iterable[str]) -> dict[str, str]:
    """Turn ``--map`` options such as ``abstract=Summary`` into a field map.

    Args:
        specs: Strings ``FIELD=NAME``; ``FIELD`` is one of :data:`FIELD_NAMES`.

    Returns:
        ``{field: name}``, e.g. ``{"abstract": "Summary"}``.

    Raises:
        ValueError: A spec has no ``=``, an empty side or an unknown field.

    """
    out: dict[str, str] = {}
    for spec in specs:
        field, sep, name = spec.partition("=")
        field, name = field.strip().lower(), name.strip()
        if not sep or not field or not name:
            raise ValueError(f"--map {spec!r}: expected FIELD=NAME, e.g. abstract=Summary")
        if field not in FIELD_NAMES:
            raise ValueError(f"--map {spec!r}: unknown field {field!r} (use {', '.join(FIELD_NAMES)})")
        out[field] = name
    return out


# --- field values ------------------------------------------------------------------

_PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "du", "la", "le", "ten", "ter"}
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


def names_for(field: str, field_map: Mapping[str, str] | None) -> list[str]:
    """The names ``field`` is looked up under, as :func:`name_key` keys, the ``--map`` name first.

    Args:
        field: One of :data:`FIELD_NAMES`.
        field_map: Field -> name overrides (``None``: the common names only).

    Returns:
        Names in order of preference, e.g. ``["summary", "abstract", "abstractnote", "tldr", ...]``.
    """
    names = list(dict.fromkeys(name_key(n) for n in FIELD_NAMES[field]))
    if field_map and field_map.get(field):
        mapped = name_key(field_map[field])
        names = [mapped, *(n for n in names if n != mapped)]
    return names


def lookup(rec: Mapping[str, Any], field: str, field_map: Mapping[str, str] | None) -> Any:
    """First non-empty value of ``field`` in ``rec``, or ``None``.

    Keys are compared by :func:`name_key` (``"Abstract Note"`` is found as ``abstract note``);
    of two keys with the same name, the first non-empty one wins.

    Args:
        rec: A record (JSON object, CSV row, BibTeX entry's fields).
        field: One of :data:`FIELD_NAMES`.
        field_map: Field -> name overrides (see :func:`names_for`).

    Returns:
        The value as stored (any JSON type), or ``None`` when every name is missing or empty.
    """
    by_name: dict[str, list[Any]] = {}
    for key, value in rec.items():
        by_name.setdefault(name_key(key), []).append(value)
    for name in names_for(field, field_map):
        for value in by_name.get(name, ()):
            if value not in (None, "", [], {}):
                return value
    return None


def text_value(value: Any) -> str:
    """Normalised text of a scalar field value (:func:`store.textin.clean_text`).

    Numbers become their decimal text, a mapping its ``name``/``title``/``value`` entry;
    ``None``, booleans and other types are ``""``.
    """
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, Mapping):
        return text_value(value.get("name") or value.get("title") or value.get("value"))
    return ""


def _flip_last_first(name: str) -> str | None:
    """``"Smith, Alice"`` -> ``"Alice Smith"``; ``None`` when ``name`` is not in that form."""
    if name.count(",") != 1:
        return None
    last, first = (p.strip() for p in name.split(","))
    last_words, first_words = last.split(), first.split()
    if not last_words or not first_words or len(first_words) > 3:
        return None
    if len(last_words) > 1 and not all(w.lower() in _PARTICLES for w in last_words[:-1]):
        return None  # "Alice Smith, Bob Jones": two full names, not "Last, First"
    return f"{first} {last}"


def _name_from_dict(d: Mapping[str, Any]) -> str:
    low: dict[str, Any] = {}
    for k, v in d.items():
        low.setdefault(name_key(k), v)  # "first_name", "firstName" (Zotero's creators), "First Name"
    name = text_value(low.get("name") or low.get("fullname"))
    if name:
        return _flip_last_first(name) or name
    given = text_value(low.get("given") or low.get("first") or low.get("givenname") or low.get("firstname"))
    family = text_value(low.get("family") or low.get("last") or low.get("familyname") or low.get("lastname"))
    return f"{given} {family}".strip()


def split_authors(value: Any) -> list[str]:
    """Return author names, first name first, from the shapes papers files use.

    Accepts a list of strings or of ``{"name": ...}`` / ``{"given", "family"}``
    dicts, or one string ``"A and B"``, ``"A; B"``, ``"A & B"`` or ``"A, B"``.
    ``"Last, First"`` names (a one-word or particle-prefixed last name before a
    single comma) are turned into ``"First Last"``.

    Args:
        value: The authors value of a record.

    Returns:
        Names in source order; empty when there are none.

    """
    if value is None or isinstance(value, bool):
        return []
    if isinstance(value, Mapping):
        value = [value]
    if isinstance(value, (list, tuple)):
        out = []
        for item in value:
            if isinstance(item, Mapping):
                name = _name_from_dict(item)
            else:
                name = text_value(item)
                name = _flip_last_first(name) or name
            if name:
                out.append(name)
        return out
    s = text_value(value)
    if not s:
        return []
    if re.search(r"\s(?:and|&)\s|;", s):
        parts = [p.strip(" ,") for p in re.split(r"\s*;\s*|\s+(?:and|&)\s+", s)]
    else:
        parts = [s]
    names: list[str] = []
    for part in parts:
        if not part:
            continue
        flipped = _flip_last_first(part) if "," in part else None
        if flipped:
            names.append(flipped)
        else:
            names.extend(p.strip() for p in part.split(",") if p.strip())
    return names


def parse_year(value: Any) -> int | None:
    """Four-digit year of a year/date value.

    Args:
        value: An ``int``/whole ``float`` in 1000-9999, or text holding a 4-digit year
            (``"2023-07-01"``); ``None``/``""`` for none.

    Returns:
        The year, or ``None`` for an empty value.

    Raises:
        ValueError: The value holds no 4-digit year.
    """
    if value is None or value == "":
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
        return value
    if isinstance(value, float) and value.is_integer() and 1000 <= value <= 9999:
        return int(value)
    m = _YEAR.search(value) if isinstance(value, str) else None
    if not m:
        raise ValueError(f"no 4-digit year in {value!r}")
    return int(m.group(1))


def paper_from_record(
    rec: Mapping[str, Any], field_map: Mapping[str, str] | None, *, source: str, fallback_id: str
) -> Paper:
    """Build a paper from a record found under the common field names.

    Args:
        rec: The record; its keys are compared by :func:`name_key`.
        field_map: Field -> key overrides (``--map``).
        source: File name recorded as the paper's source.
        fallback_id: Id when the record has none, e.g. ``"papers#3"``.

    Raises:
        ValueError: No abstract, an abstract that is not text, or a year that is not one.
    """
    abstract = lookup(rec, "abstract", field_map)
    if abstract is not None and not isinstance(abstract, str):
        raise ValueError(f"abstract is not text ({type(abstract).__name__})")
    if not abstract or not abstract.strip():
        raise ValueError("no abstract")
    pid = text_value(lookup(rec, "id", field_map)) or fallback_id
    return make_paper(
        pid,
        abstract.strip(),
        title=text_value(lookup(rec, "title", field_map)),
        authors=split_authors(lookup(rec, "authors", field_map)),
        year=parse_year(lookup(rec, "year", field_map)),
        venue=text_value(lookup(rec, "venue", field_map)),
        url=text_value(lookup(rec, "url", field_map)),
        source=source,
    )
