"""Imports from the tools researchers use: reference managers, arXiv, OpenReview, Semantic Scholar.

Files only; nothing is fetched. Each format is recognised by content, not only by extension:

========================  ==================================================  ============================
format                    recognised by                                       module
========================  ==================================================  ============================
Zotero CSV export         a header with "Abstract Note" and Zotero's columns  :mod:`.zotero_csv`
CSL-JSON                  items with a CSL ``type`` or CSL keys (``issued``)   :mod:`.csljson`
OpenReview notes (v1/v2)  objects with ``content`` and ``forum``/``cdate``...  :mod:`.openreview`
Semantic Scholar papers   objects with ``paperId``                             :mod:`.semantic_scholar`
arXiv API (Atom)          a ``<feed>`` in the Atom namespace, any extension    :mod:`.arxiv_atom`
Zotero ``zotero.sqlite``  the SQLite header, any extension                     :mod:`.zotero_sqlite`
========================  ==================================================  ============================

A ``.json`` file whose records are none of these is paperchat's own JSON shape (common field
names, ``--map``); a ``.csv`` without Zotero's header is a plain table. Every reader reports
each record it cannot read (file, line or record, reason) and reads the rest. Ids are stable
across re-imports: the DOI, else the arXiv id without version, else the source's own key
(:func:`.common.stable_id`). Importing this package registers the readers.
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Callable
from pathlib import Path
from typing import Any

from store.compressed import is_compressed
from store.formats.arxiv_atom import looks_like_atom, read_atom
from store.formats.csljson import is_csl_item, paper_from_csl
from store.formats.openreview import is_openreview_note, paper_from_note
from store.formats.semantic_scholar import is_s2_paper, paper_from_s2
from store.formats.zotero_csv import is_zotero_header, paper_from_zotero_row
from store.formats.zotero_sqlite import looks_like_sqlite, read_zotero_sqlite
from store.papers import READERS, SNIFFERS, Paper, ReadResult
from store.shapes import CSV_SHAPES, JSON_SHAPES, RecordShape

__all__ = ["is_zotero_database", "read_atom", "read_zotero_sqlite"]


def _sniff(path: Path, head: bytes) -> Callable[..., ReadResult] | None:
    """The reader for a file whose first bytes are an SQLite database or an Atom feed."""
    if looks_like_sqlite(head):
        return read_zotero_sqlite
    if looks_like_atom(head):
        return read_atom
    return None


def is_zotero_database(path: Path) -> bool:
    """Whether ``path`` is an SQLite file (which the Zotero reader takes), by its first bytes
    (decompressed first for a ``.gz`` file)."""
    try:
        with gzip.open(path, "rb") if is_compressed(path) else path.open("rb") as handle:
            return looks_like_sqlite(handle.read(16))
    except (OSError, EOFError):
        return False


def _guarded(convert: Callable[..., Paper]) -> Callable[..., Paper]:
    """``convert`` with any error a malformed record can cause (a list where text belongs, ...)
    turned into the ``ValueError`` the readers report for that record alone."""

    @functools.wraps(convert)
    def guarded(record: Any, **kwargs: Any) -> Paper:
        try:
            return convert(record, **kwargs)
        except ValueError:
            raise
        except (TypeError, AttributeError, KeyError, IndexError, OverflowError, OSError) as exc:
            raise ValueError(f"malformed record ({type(exc).__name__}: {exc})") from exc

    return guarded


def _register() -> None:
    shapes: dict[str, tuple[list[RecordShape], Callable[[Any], bool], Callable[..., Paper]]] = {
        "OpenReview note": (JSON_SHAPES, is_openreview_note, paper_from_note),
        "Semantic Scholar paper": (JSON_SHAPES, is_s2_paper, paper_from_s2),
        "CSL-JSON item": (JSON_SHAPES, is_csl_item, paper_from_csl),
        "Zotero CSV export": (CSV_SHAPES, is_zotero_header, paper_from_zotero_row),
    }
    for name, (registry, detect, convert) in shapes.items():
        if all(s.name != name for s in registry):
            registry.append(RecordShape(name, detect, _guarded(convert)))
    if _sniff not in SNIFFERS:
        SNIFFERS.append(_sniff)
    READERS.update({".xml": read_atom, ".atom": read_atom, ".sqlite": read_zotero_sqlite})


_register()
