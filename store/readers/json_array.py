"""The JSON reader: an array of paper objects (or an object holding one), salvaging the records
before a syntax error and naming each bad record's line."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from store.papers import IngestProblem, ReadResult, decode_file, note_surrogates
from store.readers.fields import lookup, paper_from_record
from store.shapes import json_shape

__all__ = ["read_json_array"]

#: Keys of an object that may hold the array of papers.
_ARRAY_KEYS = ("papers", "items", "data", "records", "results", "notes")


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


_WS = re.compile(r"\s*")


def _skip_ws(text: str, pos: int) -> int:
    m = _WS.match(text, pos)
    return m.end() if m else pos  # ``\s*`` always matches; the test narrows the Optional for mypy


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
        for found in pattern.finditer(text):
            items, complete = _scan_array(text, found.start(1))
            if complete and [v for _, v in items] == data[key]:
                return found.start(1), key
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
    text = decode_file(path, result)
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
        if isinstance(data, dict) and (json_shape([data]) is not None or lookup(lower, "abstract", field_map)):
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
                paper = paper_from_record(
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
