"""Saved questions at the entries: the lines an ingest reports for them, and the notice the page shows.

Every entry that ingests calls one of these with the ids the ingest wrote
(:attr:`rag.index.ingest.IngestReport.changed`): ``paperchat ingest`` (and ``--sync``)
:func:`after_ingest`, the warm process and the page :func:`watch_lines` with their components
rebuilt over the store. The asking itself is :func:`rag.route.watch.check_watches`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from rag.pipeline import Components
from rag.settings import Settings
from store.watches import Watches

__all__ = ["after_ingest", "watch_lines", "watch_notice"]

log = logging.getLogger(__name__)


def watch_lines(components: Components, changed: Sequence[str]) -> list[str]:
    """One line per saved question (:meth:`rag.route.watch.WatchReport.line`) for the papers
    ``changed``, asked over ``components`` (built over the store after the ingest); ``[]`` when no
    question is saved or nothing changed. A failure is logged and said in one line, never raised:
    the ingest itself succeeded."""
    from rag.route.watch import check_watches

    watches = Watches(components.settings.home)
    if not changed or not watches.load():
        return []
    try:
        return [r.line() for r in check_watches(components.pipeline, watches, changed)]
    except Exception as exc:  # noqa: BLE001 - the papers are stored; only the saved questions' report failed
        log.exception("asking the saved questions failed")
        return [f"saved questions could not be asked again: {exc}"]


def after_ingest(settings: Settings, changed: Sequence[str], embedder=None) -> list[str]:
    """:func:`watch_lines` for a command that ingested without a pipeline (``paperchat ingest``):
    one is built (extractive) only when a question is saved and papers changed."""
    if not changed or not Watches(settings.home).load():
        return []
    from rag.pipeline import build_pipeline, make_embedder

    components = build_pipeline(settings, embedder=embedder or make_embedder(settings), llm=None)
    return watch_lines(components, changed)


def watch_notice(lines: Sequence[str]) -> str:
    """The page's notice of :func:`watch_lines` (Markdown; ``""`` for no line)."""
    if not lines:
        return ""
    return "\n".join(["**Saved questions**", *(f"- 🔔 {line}" for line in lines)])
