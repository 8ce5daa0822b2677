"""Adding papers from the page: uploaded files are kept in the data directory and ingested.

The same reading and per-record report as ``paperchat ingest`` (:func:`rag.index.ingest.ingest_paths`),
under the same one-writer lock, so a page and a CLI ingest never write at once. Uploads are
copied to ``<home>/uploads/`` first, so each paper's source is a file that stays (``paperchat
remove --source`` and ``ingest --sync`` can name it later), not Gradio's temporary copy.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from rag.index.ingest import ingest_paths
from rag.pipeline import Components
from store.compressed import numbered_name
from store.home import StoreBusy, WriterLock

__all__ = ["UPLOAD_DIR", "ingest_uploads", "upload_dir"]

log = logging.getLogger(__name__)

UPLOAD_DIR = "uploads"
"""Folder of the data directory that keeps files added from the page."""


def upload_dir(components: Components) -> Path:
    """``<home>/uploads``: where files added from the page are kept."""
    return components.settings.home / UPLOAD_DIR


def _keep(files: Sequence[str | Path], into: Path) -> list[Path]:
    """Copy uploaded files into ``into`` under their own names (a name already there from another
    upload gets a ``-2``, ``-3``, ... before its format suffix unless the content is the same:
    ``a.jsonl.gz`` -> ``a-2.jsonl.gz``)."""
    into.mkdir(parents=True, exist_ok=True)
    kept = []
    for f in files:
        src = Path(f)
        dest = into / src.name
        n = 2
        while dest.exists() and dest.read_bytes() != src.read_bytes():
            dest = into / numbered_name(src.name, n)
            n += 1
        shutil.copyfile(src, dest)
        kept.append(dest)
    return kept


def ingest_uploads(
    components: Components,
    files: Sequence[str | Path] | None,
    after: Callable[[list[str]], str] | None = None,
) -> str:
    """Ingest uploaded files into the page's store; returns the report as Markdown.

    One line per file as ``paperchat ingest`` prints it (found, added, updated, unchanged,
    failed), each failed record with its file and line, then the store's totals. Nothing is
    raised: a busy writer lock or an unreadable file is said in the report.

    Args:
        components: The page's components (their store and embedder are written with).
        files: The uploaded files (Gradio's temporary paths).
        after: Called, once the writer lock is released, with the ids of the papers added or
            updated; what it returns (Markdown: the saved questions' notice,
            :func:`ui.watching.watch_notice`) ends the report when not empty.
    """
    if not files:
        return (
            "Choose one or more files first (.jsonl, .json, .csv, .tsv, .bib, .txt, .xml, zotero.sqlite; "
            "any of them gzipped, .jsonl.gz)."
        )
    settings = components.settings
    try:
        with WriterLock(settings.home, command="paperchat page (add papers)", timeout=settings.store.lock_timeout):
            paths = _keep(files, upload_dir(components))
            report = ingest_paths(
                paths,
                components.store,
                components.embedder,
                max_tokens=settings.chunking.max_tokens,
                overlap=settings.chunking.overlap_sentences,
            )
    except StoreBusy as exc:
        return f"⚠️ {exc}"
    except Exception as exc:  # noqa: BLE001 - shown to the user, logged with traceback
        log.exception("ingesting uploads failed")
        return f"⚠️ Adding the files failed: {exc}"
    lines = []
    for f in report.files:
        lines.append(f"- {f.line()}")
        lines += [f"  - failed {p}" for p in f.problems]
        lines += [f"  - repaired {p}" for p in f.repairs]
    lines.append(f"\n**{report.papers_in_store} papers** in the collection now ({report.seconds:.1f} s).")
    if report.unmended:
        lines.append(f"\n{report.unmended_line()}")
    notice = after(report.changed) if after is not None else ""
    if notice:
        lines.append(f"\n{notice}")
    return "\n".join(lines)
