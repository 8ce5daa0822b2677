"""Readers for JSON arrays, CSV/TSV tables and BibTeX files.

Every reader has the signature ``(path, field_map=None) -> ReadResult`` and never
raises for bad content: each bad record becomes an :class:`~store.papers.IngestProblem`
naming the file, the line (or BibTeX entry key) and the reason, and the remaining
records are read.

Fields are found under common names, case-insensitively (see :data:`FIELD_NAMES`);
``field_map`` maps a field to the column/key a file uses instead, e.g.
``{"abstract": "Summary"}`` from the CLI option ``--map abstract=Summary``. A mapped
name takes precedence; when a record lacks it, the common names are tried.

Records of a known export format inside a JSON or CSV file (CSL-JSON, OpenReview notes,
Semantic Scholar papers, Zotero's CSV export) are recognised by content through the shapes of
:mod:`store.shapes`, which :mod:`store.formats` registers.

Importing this module registers the readers in :data:`store.papers.READERS`.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from store.papers import READERS, IngestProblem, Paper, ReadResult, decode_file, make_paper, note_surrogates
from store.shapes import RecordShape, csv_shape, json_shape
from store.textin import clean_text

__all__ = [
    "FIELD_NAMES",
    "parse_field_map",
    "read_bibtex",
    "read_csv",
    "read_json_array",
    "split_authors",
]

#: Field -> names it is found under (lower case, in order of preference).
FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "id": ("id", "paper_id", "uid", "doi", "key"),
    "title": ("title", "paper_title", "name"),
    "abstract": ("abstract", "summary", "tldr", "description"),
    "authors": ("authors", "author", "creators"),
    "year": ("year", "date", "published", "publication_date"),
    "venue": ("venue", "conference", "journal", "booktitle"),
    "url": ("url", "pdf_url", "paper_url", "link", "code_url"),
}

#: Keys of an object that may hold the array of papers.
_ARRAY_KEYS = ("papers", "items", "data", "records", "results", "notes")

_MAP_HINT = "map one with --map abstract=COLUMN"


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


def _names_for(field: str, field_map: Mapping[str, str] | None) -> list[str]:
    names = list(FIELD_NAMES[field])
    if field_map and field_map.get(field):
        mapped = field_map[field].strip().lower()
        names = [mapped, *(n for n in names if n != mapped)]
    return names


def _lookup(rec: Mapping[str, Any], field: str, field_map: Mapping[str, str] | None) -> Any:
    """First non-empty value of ``field`` in ``rec`` (whose keys are lower case)."""
    for name in _names_for(field, field_map):
        value = rec.get(name)
        if value not in (None, "", [], {}):
            return value
    return None


def _text(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, Mapping):
        return _text(value.get("name") or value.get("title") or value.get("value"))
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
    low = {str(k).lower(): v for k, v in d.items()}
    name = _text(low.get("name") or low.get("full_name") or low.get("fullname"))
    if name:
        return _flip_last_first(name) or name
    given = _text(low.get("given") or low.get("first") or low.get("given_name") or low.get("first_name"))
    family = _text(low.get("family") or low.get("last") or low.get("family_name") or low.get("last_name"))
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
                name = _text(item)
                name = _flip_last_first(name) or name
            if name:
                out.append(name)
        return out
    s = _text(value)
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


def _year(value: Any) -> int | None:
    """Four-digit year of a year/date value; raises ``ValueError`` when it holds none."""
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


def _paper_from_record(
    rec: Mapping[str, Any], field_map: Mapping[str, str] | None, *, source: str, fallback_id: str
) -> Paper:
    """Build a paper from a record whose keys are lower case; raises ``ValueError``."""
    abstract = _lookup(rec, "abstract", field_map)
    if abstract is not None and not isinstance(abstract, str):
        raise ValueError(f"abstract is not text ({type(abstract).__name__})")
    if not abstract or not abstract.strip():
        raise ValueError("no abstract")
    pid = _text(_lookup(rec, "id", field_map)) or fallback_id
    return make_paper(
        pid,
        abstract.strip(),
        title=_text(_lookup(rec, "title", field_map)),
        authors=split_authors(_lookup(rec, "authors", field_map)),
        year=_year(_lookup(rec, "year", field_map)),
        venue=_text(_lookup(rec, "venue", field_map)),
        url=_text(_lookup(rec, "url", field_map)),
        source=source,
    )


def _read_text(path: Path, result: ReadResult) -> str | None:
    """File text in whatever encoding it has (:func:`store.papers.decode_file`), or ``None``."""
    return decode_file(path, result)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# --- JSON ----------------------------------------------------------------------------

_WS = re.compile(r"\s*")


def _skip_ws(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _scan_array(text: str, pos: int) -> tuple[list[tuple[int, Any]], bool]:
    """Decode the elements of the JSON array opening at ``text[pos]`` one by one.

    Returns:
        ``(elements, complete)``: ``(offset, value)`` of each element decoded before
        the array closed or a syntax error stopped the scan, and whether it closed.

    """
    decoder = json.JSONDecoder(strict=False)
    items: list[tuple[int, Any]] = []
    i = _skip_ws(text, pos + 1)
    if text.startswith("]", i):
        return items, True
    while True:
        try:
            value, end = decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            return items, False
        items.append((i, value))
        i = _skip_ws(text, end)
        if text.startswith(",", i):
            i = _skip_ws(text, i + 1)
        elif text.startswith("]", i):
            return items, True
        else:
            return items, False


def _find_array(text: str, data: Any) -> tuple[int | None, str | None]:
    """Offset of the array of papers in ``text`` and the key holding it (``None`` at top level).

    ``data`` is the parsed document, or ``None`` when it is not valid JSON (the
    offset is then a best guess, for salvaging the records before the error).
    """
    start = _skip_ws(text, 0)
    if text.startswith("[", start):
        return start, None
    if data is not None and not isinstance(data, dict):
        return None, None
    if isinstance(data, dict):
        lower = {str(k).lower(): k for k in data}
        key = next((lower[k] for k in _ARRAY_KEYS if k in lower and isinstance(data[lower[k]], list)), None)
        if key is None:
            return None, None
        pattern = re.compile(rf'"{re.escape(json.dumps(key)[1:-1])}"\s*:\s*(\[)')
        for m in pattern.finditer(text):
            items, complete = _scan_array(text, m.start(1))
            if complete and [v for _, v in items] == data[key]:
                return m.start(1), key
        return -1, key  # found in the data but not located in the text: no line numbers
    names = "|".join(_ARRAY_KEYS)
    m = re.search(rf'"({names})"\s*:\s*(\[)', text, flags=re.IGNORECASE)
    return (m.start(2), m.group(1)) if m else (None, None)


def read_json_array(path: Path, field_map: dict[str, str] | None = None) -> ReadResult:
    """Read a JSON array of paper objects, or an object holding one.

    The array is the document itself or the value of a ``papers``, ``items``,
    ``data``, ``records``, ``results`` or ``notes`` key (a single object with an
    abstract is read as one paper). Fields are found under :data:`FIELD_NAMES`;
    ids fall back to ``<file stem>#<n>``, ``n`` the 1-based position in the array.

    Invalid JSON is one problem with the line of the syntax error; the records that
    precede the error are still read (e.g. from a truncated file).

    Args:
        path: The ``.json`` file.
        field_map: Field -> key overrides, e.g. ``{"abstract": "summary_text"}``.

    Returns:
        The papers read and one problem per bad record.

    """
    result = ReadResult(file=path.name)
    text = _read_text(path, result)
    if text is None:
        return result
    data: Any = None
    try:
        data = json.loads(text, strict=False)  # control characters in strings: dropped by make_paper
    except json.JSONDecodeError as exc:
        result.problems.append(IngestProblem(path.name, exc.lineno, f"invalid JSON at column {exc.colno}: {exc.msg}"))
    offset, key = _find_array(text, data)
    records: list[tuple[int | None, Any]]
    if offset is None:
        lower = {str(k).lower(): v for k, v in data.items()} if isinstance(data, dict) else {}
        if isinstance(data, dict) and (json_shape([data]) is not None or _lookup(lower, "abstract", field_map)):
            records = [(1, data)]  # a single paper object
        else:
            if data is not None:
                result.problems.append(
                    IngestProblem(
                        path.name,
                        1,
                        f"no array of papers: expected a list, or an object with one of "
                        f"{', '.join(_ARRAY_KEYS)} (got {type(data).__name__})",
                    )
                )
            return result
    elif offset == -1:
        records = [(None, rec) for rec in data[key]]
    else:  # when the JSON is invalid, this salvages the records before the error
        records = [(_line_of(text, off), rec) for off, rec in _scan_array(text, offset)[0]]
    if not records and data is not None:
        result.problems.append(IngestProblem(path.name, _line_of(text, max(offset or 0, 0)), "no records"))
        return result
    shape = json_shape([rec for _, rec in records])
    for n, (line, rec) in enumerate(records, start=1):
        if not isinstance(rec, dict):
            result.problems.append(IngestProblem(path.name, line, f"record {n} is not a JSON object"))
            continue
        try:
            if shape is not None:
                paper = shape.convert(rec, source=path.name, fallback_id=f"{path.stem}#{n}")
            else:
                paper = _paper_from_record(
                    {str(k).strip().lower(): v for k, v in rec.items()},
                    field_map,
                    source=path.name,
                    fallback_id=f"{path.stem}#{n}",
                )
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, line, f"record {n}: {exc}"))
            continue
        result.papers.append(paper)
        note_surrogates(result, line, n, rec)
    return result


# --- CSV -----------------------------------------------------------------------------


def _sniff_delimiter(header: str, default: str) -> str:
    """Pick the delimiter among ``, ; TAB`` that occurs most often outside quotes in ``header``."""
    counts = dict.fromkeys(",;\t", 0)
    quoted = False
    for ch in header:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in counts:
            counts[ch] += 1
    best = max(counts, key=lambda c: (counts[c], c == default))
    return best if counts[best] else default


def _csv_rows(lines: list[str], delimiter: str) -> Iterable[tuple[int, list[str] | None, str]]:
    """Yield ``(start line, cells, error)`` per row; ``cells`` is ``None`` when the row is bad.

    After a bad row that spans several physical lines (an unclosed or stray quote),
    the reader resumes on the line after the row's first line, so one stray quote
    costs one row, not the rows its quoted span swallowed.
    """
    base = 0
    while base < len(lines):
        reader = csv.reader(iter(lines[base:]), delimiter=delimiter, strict=True)
        consumed = 0
        while True:
            start = base + consumed + 1
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                reason = f"malformed quoting ({exc})"
                if "unexpected end of data" in str(exc):
                    reason = "unclosed quote (truncated or malformed row)"
                yield start, None, reason
                if reader.line_num - consumed > 1 or "unclosed quote" in reason:
                    base = start  # restart on the line after the bad row's first line
                    break
                consumed = reader.line_num
                continue
            consumed = reader.line_num
            yield start, row, ""


def read_csv(path: Path, field_map: dict[str, str] | None = None) -> ReadResult:
    """Read a CSV/TSV table with one paper per row and a header row.

    The delimiter is sniffed among ``,``, ``;`` and tab from the header. Columns are
    matched to fields by :data:`FIELD_NAMES` case-insensitively, ``field_map``
    first. Ids fall back to ``<file stem>#<n>``, ``n`` the 1-based data-row position.
    A header without an abstract column is one problem for the file; each bad row is
    one problem with the physical line the row starts on.

    Args:
        path: The ``.csv`` or ``.tsv`` file.
        field_map: Field -> column overrides, e.g. ``{"abstract": "Summary"}``.

    Returns:
        The papers read and one problem per bad row.

    """
    result = ReadResult(file=path.name)
    text = _read_text(path, result)
    if text is None:
        return result
    lines = list(io.StringIO(text, newline=""))
    first = next(i for i, line in enumerate(lines) if line.strip())
    delimiter = _sniff_delimiter(lines[first], "\t" if path.suffix.lower() == ".tsv" else ",")
    rows = _csv_rows(lines[first:], delimiter)
    header: list[str] | None = None
    shape: RecordShape | None = None
    n = 0
    for rel_line, cells, error in rows:
        line = rel_line + first
        if header is None:
            if cells is None:
                result.problems.append(IngestProblem(path.name, line, f"unreadable header: {error}"))
                return result
            header = [c.strip().lower() for c in cells]
            columns = ", ".join(repr(c.strip()) for c in cells)
            shape = csv_shape(header)
            if shape is None and not any(name in header for name in _names_for("abstract", field_map)):
                mapped = (field_map or {}).get("abstract")
                why = f"column {mapped!r} (--map abstract={mapped}) not found" if mapped else "no abstract column"
                result.problems.append(IngestProblem(path.name, line, f"{why}; columns are {columns}; {_MAP_HINT}"))
                return result
            continue
        if cells is not None and not any(c.strip() for c in cells):
            continue  # blank line
        n += 1
        if cells is None:
            result.problems.append(IngestProblem(path.name, line, f"row {n}: {error}"))
            continue
        if len(cells) > len(header):
            result.problems.append(
                IngestProblem(
                    path.name,
                    line,
                    f"row {n}: {len(cells)} cells but the header has {len(header)} "
                    f"(unquoted {'tab' if delimiter == chr(9) else repr(delimiter)} in a value?)",
                )
            )
            continue
        rec: dict[str, str] = {}
        for h, c in zip(header, cells, strict=False):
            if h:
                rec.setdefault(h, c)  # the first of duplicate columns wins
        try:
            if shape is not None:
                paper = shape.convert(rec, source=path.name, fallback_id=f"{path.stem}#{n}")
            else:
                paper = _paper_from_record(rec, field_map, source=path.name, fallback_id=f"{path.stem}#{n}")
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, line, f"row {n}: {exc}"))
            continue
        result.papers.append(paper)
    if header is not None and n == 0:
        result.problems.append(IngestProblem(path.name, first + 1, "header only, no records"))
    return result


# --- BibTeX --------------------------------------------------------------------------


def _unbrace(value: str) -> str:
    r"""Plain text of a BibTeX title/name: braces dropped, accents decoded, whitespace collapsed.

    ``{DANCE}: {T}ext`` -> ``DANCE: Text``; ``M{\"u}ller`` -> ``Müller`` (through
    pylatexenc, a bibtexparser dependency, only when the value holds a backslash).
    """
    if "\\" in value:
        value = _latex_to_text(value)
    return " ".join(re.sub(r"(?<!\\)[{}]", "", value).split())


def _latex_to_text(value: str) -> str:
    """Decode LaTeX accents and commands; undecodable LaTeX is returned as written."""
    try:
        from pylatexenc.latex2text import LatexNodes2Text

        escaped = re.sub(r"(?<!\\)%", r"\\%", value)  # a bare % would start a LaTeX comment
        return LatexNodes2Text(math_mode="verbatim").latex_to_text(escaped).replace("\xa0", " ")
    except Exception:  # noqa: BLE001 - pylatexenc missing or failing: keep the text
        return value


def _bib_authors(value: str) -> list[str]:
    """``"Last, First and First Last"`` -> ``["First Last", "First Last"]``."""
    from bibtexparser.middlewares.names import parse_single_name_into_parts, split_multiple_persons_names

    names = []
    for raw in split_multiple_persons_names(value):
        try:
            name = parse_single_name_into_parts(raw, strict=False).merge_first_name_first
        except Exception:  # noqa: BLE001 - a name the splitter cannot handle is kept as written
            name = raw
        name = _unbrace(name)
        if name:
            names.append(name)
    return names


def _bib_url(fields: Mapping[str, str]) -> str:
    if fields.get("url"):
        return _unbrace(fields["url"])
    doi = _unbrace(fields.get("doi", ""))
    if doi:
        return doi if doi.startswith("http") else f"https://doi.org/{doi}"
    eprint = _unbrace(fields.get("eprint", ""))
    if eprint and fields.get("archiveprefix", "").strip("{} ").lower() == "arxiv":
        return f"https://arxiv.org/abs/{eprint}"
    return ""


def _failed_reason(block: Any) -> str:
    err = block.error
    detail = getattr(err, "abort_reason", None) or getattr(err, "message", None) or str(err) or type(err).__name__
    detail = " ".join(str(detail).split())
    if type(block).__name__ == "DuplicateBlockKeyBlock":
        return f"duplicate entry key {block.key!r}; only the first is read"
    m = re.match(r"\s*@\s*(\w+)\s*[{(]\s*([^,\s{}()=]*)", block.raw or "")
    if m and m.group(1).lower() not in ("string", "preamble", "comment"):
        what = f"entry {m.group(2)!r}" if m.group(2) else f"@{m.group(1)} entry"
        return f"garbled {what}: {detail}"
    return f"garbled block: {detail}"


def read_bibtex(path: Path, field_map: dict[str, str] | None = None) -> ReadResult:
    """Read a BibTeX file with bibtexparser 2.x; the entry key is the paper id.

    ``title`` (braces stripped), ``author`` (``"Last, First and ..."`` to
    ``"First Last"``), ``year``, ``booktitle``/``journal`` as venue and
    ``url``/``doi`` are read; the abstract keeps its text, with line breaks joined.
    An entry without an abstract and a block the parser could not read are problems
    with their line (the entry key is in the reason).

    Args:
        path: The ``.bib`` file.
        field_map: Field -> BibTeX field overrides, e.g. ``{"abstract": "annote"}``.

    Returns:
        The papers read and one problem per bad entry or block, in file order.

    """
    result = ReadResult(file=path.name)
    text = _read_text(path, result)
    if text is None:
        return result
    try:
        import bibtexparser
        from bibtexparser.model import DuplicateFieldKeyBlock, Entry, ParsingFailedBlock
    except ImportError:
        result.problems.append(IngestProblem(path.name, None, "cannot read BibTeX: bibtexparser is not installed"))
        return result
    try:
        library = bibtexparser.parse_string(text)
    except Exception as exc:  # noqa: BLE001 - a parser crash is a problem for this file only
        result.problems.append(IngestProblem(path.name, None, f"cannot parse BibTeX: {exc}"))
        return result

    n_entries = 0
    for block in library.blocks:
        line = block.start_line + 1 if block.start_line is not None else None
        if isinstance(block, DuplicateFieldKeyBlock) and isinstance(block.ignore_error_block, Entry):
            block = block.ignore_error_block  # read it; the first of the duplicate fields wins
        elif isinstance(block, ParsingFailedBlock):
            result.problems.append(IngestProblem(path.name, line, _failed_reason(block)))
            continue
        if not isinstance(block, Entry):
            continue  # @string, @preamble, comments
        n_entries += 1
        try:
            result.papers.append(_paper_from_entry(block, field_map, source=path.name))
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, line, str(exc)))
    if n_entries == 0 and not result.problems:
        result.problems.append(IngestProblem(path.name, None, "no BibTeX entries found"))
    return result


def _paper_from_entry(entry: Any, field_map: Mapping[str, str] | None, *, source: str) -> Paper:
    """Build a paper from a bibtexparser ``Entry``; raises ``ValueError`` naming the entry key."""
    fields: dict[str, str] = {}
    for f in entry.fields:
        fields.setdefault(f.key.strip().lower(), f.value if isinstance(f.value, str) else str(f.value))
    abstract = _lookup(fields, "abstract", field_map)
    if not abstract or not abstract.strip():
        raise ValueError(f"entry {entry.key!r} has no abstract")
    try:
        year = _year(_unbrace(_lookup(fields, "year", field_map) or ""))
    except ValueError as exc:
        raise ValueError(f"entry {entry.key!r}: {exc}") from exc
    mapped_url = (field_map or {}).get("url", "").strip().lower()
    return make_paper(
        entry.key,
        re.sub(r"\s*\n\s*", " ", abstract.strip()),
        title=_unbrace(_lookup(fields, "title", field_map) or ""),
        authors=_bib_authors(_lookup(fields, "authors", field_map) or ""),
        year=year,
        venue=_unbrace(_lookup(fields, "venue", field_map) or ""),
        url=_unbrace(fields.get(mapped_url, "")) or _bib_url(fields),
        source=source,
    )


READERS.update({".json": read_json_array, ".csv": read_csv, ".tsv": read_csv, ".bib": read_bibtex})
