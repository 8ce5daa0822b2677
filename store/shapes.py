"""Record formats recognised by content inside JSON and CSV files (filled by :mod:`store.formats`).

:func:`store.readers.json_array.read_json_array` and :func:`store.readers.csv_table.read_csv` locate and split the
records (with their lines); a registered :class:`RecordShape` that recognises them turns each
into a :class:`~store.papers.Paper` instead of the common field names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from store.papers import Paper

__all__ = ["CSV_SHAPES", "JSON_SHAPES", "RecordShape", "csv_shape", "json_shape"]


@dataclass(frozen=True)
class RecordShape:
    """A record format recognised by content inside a JSON or CSV file.

    Attributes:
        name: Format name for messages, e.g. ``"CSL-JSON item"``.
        detect: JSON: whether one record (keys as written) is of this format; CSV: whether
            a header (lower-case column names) is.
        convert: ``convert(record, source=file name, fallback_id=...) -> Paper``; raises
            ``ValueError`` with the reason a record cannot be read. CSV rows arrive as
            ``{lower-case column: cell}``. ``--map`` does not apply to these formats.
    """

    name: str
    detect: Callable[[Any], bool]
    convert: Callable[..., Paper]


#: Record formats of JSON files, tried in order; a file's format is the one most of its records show.
JSON_SHAPES: list[RecordShape] = []
#: Record formats of CSV/TSV files, recognised by the header; the first that claims it is used.
CSV_SHAPES: list[RecordShape] = []


def json_shape(records: Sequence[Any]) -> RecordShape | None:
    """The registered shape most of ``records`` show (the earlier on a tie), or ``None``."""
    dicts = [r for r in records if isinstance(r, dict)]
    votes = [(sum(1 for r in dicts if shape.detect(r)), -i, shape) for i, shape in enumerate(JSON_SHAPES)]
    best = max(votes, default=None, key=lambda v: v[:2])
    return best[2] if best and best[0] > 0 else None


def csv_shape(header: Sequence[str]) -> RecordShape | None:
    """The first registered shape that claims a CSV header (lower-case column names), or ``None``."""
    return next((s for s in CSV_SHAPES if s.detect(header)), None)
