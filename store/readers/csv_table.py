"""The CSV/TSV reader: one paper per row under a header row, the delimiter sniffed, each bad row
named by the line it starts on."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from pathlib import Path

from store.papers import IngestProblem, ReadResult, decode_file
from store.readers.fields import name_key, names_for, paper_from_record
from store.shapes import RecordShape, csv_shape

__all__ = ["read_csv"]

_MAP_HINT = "map one with --map abstract=COLUMN"


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

    The delimiter is sniffed among ``,``, ``;`` and tab from the header. A header of a known
    export (Zotero's CSV) is read by its shape (:mod:`store.shapes`); other columns are
    matched to fields by the names of :data:`~store.readers.fields.FIELD_NAMES` (the columns of
    the common exports, compared without case, spaces, underscores or hyphens), ``field_map``
    first. Ids fall back to ``<file stem>#<n>``, ``n`` the 1-based data-row position.
    A header without an abstract column is one problem for the file that counts every row as
    failed (:attr:`IngestProblem.records`); each bad row is one problem with the physical line
    the row starts on.

    Args:
        path: The ``.csv`` or ``.tsv`` file.
        field_map: Field -> column overrides, e.g. ``{"abstract": "Summary"}``.

    Returns:
        The papers read and one problem per bad row.

    """
    result = ReadResult(file=path.name)
    text = decode_file(path, result)
    if text is None:
        return result
    lines = list(io.StringIO(text, newline=""))
    first = next(i for i, line in enumerate(lines) if line.strip())
    delimiter = _sniff_delimiter(lines[first], "\t" if path.suffix.lower() == ".tsv" else ",")
    rows = _csv_rows(lines[first:], delimiter)
    header: list[str] | None = None
    shape: RecordShape | None = None
    no_abstract = ""  # why the header has no abstract column (then every row fails with it)
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
            keys = {name_key(h) for h in header}
            if shape is None and not any(name in keys for name in names_for("abstract", field_map)):
                mapped = (field_map or {}).get("abstract")
                why = f"column {mapped!r} (--map abstract={mapped}) not found" if mapped else "no abstract column"
                no_abstract = f"{why}; columns are {columns}; {_MAP_HINT}"
            continue
        if cells is not None and not any(c.strip() for c in cells):
            continue  # blank line
        n += 1
        if no_abstract:
            continue  # counted: the header's problem fails it
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
                paper = paper_from_record(rec, field_map, source=path.name, fallback_id=f"{path.stem}#{n}")
        except ValueError as exc:
            result.problems.append(IngestProblem(path.name, line, f"row {n}: {exc}"))
            continue
        result.papers.append(paper)
    if no_abstract:
        note = f"; none of its {n} rows is read" if n > 1 else ""
        result.problems.append(IngestProblem(path.name, first + 1, no_abstract + note, records=max(n, 1)))
    elif header is not None and n == 0:
        result.problems.append(IngestProblem(path.name, first + 1, "header only, no records"))
    return result
