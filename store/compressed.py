"""Corpus files compressed with gzip: ``papers.jsonl.gz`` is read as ``papers.jsonl`` would be.

The format of a compressed file is the suffix before ``.gz`` (``.jsonl.gz``, ``.bib.gz``,
``.csv.gz``, ``zotero.sqlite.gz``, ...). :func:`store.papers.read_path` decompresses it into a
temporary file named as the inner file, so every reader (those that recognise a file by its
content too) reads it unchanged, and its ids are those the uncompressed file gives
(``<stem>#<n>`` with the inner file's stem); what the reader reports, and each paper's source,
name the compressed file. Pure helpers over names and files; nothing here knows the formats.
"""

from __future__ import annotations

import zlib
from pathlib import Path, PurePath

__all__ = ["GZIP_SUFFIX", "corpus_stem", "format_suffix", "gunzip", "inner_name", "is_compressed", "numbered_name"]

GZIP_SUFFIX = ".gz"
"""The suffix of a gzip-compressed corpus file (any case)."""

_CHUNK = 1 << 20
"""Bytes of compressed input decompressed at a time (1 MiB): memory stays bounded by the file
being written, never held whole."""

_GZIP_WBITS = zlib.MAX_WBITS | 16
"""``wbits`` of a gzip stream (header and CRC checked) for :func:`zlib.decompressobj`."""


def is_compressed(name: str | PurePath) -> bool:
    """Whether a file name ends with ``.gz`` (any case)."""
    return PurePath(name).name.lower().endswith(GZIP_SUFFIX)


def inner_name(name: str | PurePath) -> str:
    """The name of the file inside a compressed one: ``a.jsonl.gz`` -> ``a.jsonl``; other names as given."""
    base = PurePath(name).name
    return base[: -len(GZIP_SUFFIX)] if is_compressed(base) else base


def format_suffix(name: str | PurePath) -> str:
    """The lower-case suffix that names a corpus file's format: ``.jsonl`` for ``a.jsonl`` and
    for ``a.JSONL.gz``; ``""`` when there is none (``a.gz``)."""
    return PurePath(inner_name(name)).suffix.lower()


def corpus_stem(name: str | PurePath) -> str:
    """The stem ids are made from (``<stem>#<n>``): ``a`` for ``a.jsonl`` and for ``a.jsonl.gz``."""
    return PurePath(inner_name(name)).stem


def numbered_name(name: str, n: int) -> str:
    """``name`` with ``-n`` before its format suffix, compression kept: ``a.jsonl.gz`` -> ``a-2.jsonl.gz``,
    ``a.bib`` -> ``a-2.bib`` (a second file of the same name kept beside the first)."""
    inner = PurePath(inner_name(name))
    return f"{inner.stem}-{n}{inner.suffix}" + (name[len(str(inner)) :] if is_compressed(name) else "")


def gunzip(src: Path, dest: Path) -> str:
    """Decompress the gzip file ``src`` into ``dest``, keeping what a damaged or cut file holds.

    Concatenated gzip members are read one after the other (as ``gzip`` and ``zcat`` do);
    NUL padding after the last member is ignored.

    Args:
        src: The compressed file.
        dest: Where the decompressed bytes are written (created or replaced).

    Returns:
        ``""`` when every member ended as gzip requires; otherwise why the data stops early (a cut
        download, damaged bytes). ``dest`` then holds everything decompressed before that point,
        so the records read from it are kept; the last one may be cut.

    Raises:
        OSError: ``src`` cannot be read or ``dest`` written.
        ValueError: ``src`` does not start as gzip data (the message says what it found).
    """
    written = 0
    with src.open("rb") as fin, dest.open("wb") as fout:
        d, fresh = zlib.decompressobj(_GZIP_WBITS), True  # fresh: no byte of the current member read yet
        for block in iter(lambda: fin.read(_CHUNK), b""):
            data = block
            while data:
                if fresh and not data.strip(b"\x00"):
                    break  # padding after the last member
                try:
                    out = d.decompress(data)
                except zlib.error as exc:
                    if written == 0 and fresh:  # not even the first member's header
                        raise ValueError(f"not gzip-compressed data ({exc})") from exc
                    why = f"the compressed data is damaged after {written:,} bytes ({exc})"
                    return f"{why}; the records before it are read"
                fresh = False
                fout.write(out)
                written += len(out)
                if d.eof:  # a member ended: another may follow in the same file
                    data, d, fresh = d.unused_data, zlib.decompressobj(_GZIP_WBITS), True
                else:
                    data = b""
        tail = d.flush()
        fout.write(tail)
        written += len(tail)
    if not fresh:
        return f"the compressed data ends early, after {written:,} bytes (a cut download?); the records before are read"
    return ""
