"""Per-session state of the chat page and the LLM backends it answers with: the settings panel's
choices (backend, model, filters) turned into an :class:`~rag.route.answer.AnswerPipeline` and
:class:`~rag.route.filters.Filters`.

Everything here is built per app (:class:`Backends`) or per browser session (:class:`Session`);
nothing lives at module level.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.llm.clients import LLMError
from rag.pipeline import Components, make_llm, refreshed
from rag.route.answer import AnswerPipeline
from rag.route.conversation import Conversation
from rag.route.filters import Filters

__all__ = ["AUTO_FILTER_LABEL", "AUTO_RECHECK_S", "BACKENDS", "UI_AUTO_HINT", "Backends", "Session", "parse_filters"]

log = logging.getLogger(__name__)

BACKENDS = ["auto", "ollama", "embedded", "none"]
"""LLM backends a user can choose (``rag.settings.LLMSettings.backend``)."""

AUTO_FILTER_LABEL = "Apply filters stated in the question"
"""The settings checkbox that turns a year in the question ("papers from 2023 ...") into a filter."""

UI_AUTO_HINT = f"untick “{AUTO_FILTER_LABEL}” in Settings to remove"
"""How to undo an automatic filter in the UI; shown in the answer's note."""

AUTO_RECHECK_S = 30.0
"""Seconds an ``auto`` or ``ollama`` choice is reused before Ollama is asked again whether it runs
and has the model (``GET /api/tags``: a millisecond or two when it answers or refuses at once, at
most the ping's 2 s timeout when its host does not answer). A page started before Ollama gives
prose at most this long after Ollama comes up (at once after *Refresh Ollama models*), while a
busy page pings at most twice a minute. Set by hand."""


def parse_filters(year: str | float | None, venue: str, author: str, auto: bool) -> tuple[Filters, str]:
    """The filters of the settings panel, and a warning for a year that is not one.

    Args:
        year: The year field (``""``/``None`` for any year; whole numbers 1900-2100).
        venue: Venue substring, ``""`` for any.
        author: Author-name substring, ``""`` for any.
        auto: Whether a year stated in the question becomes a filter.

    Returns:
        ``(filters, warning)``; an unusable year is left out of ``filters`` and explained in
        ``warning`` (``""`` when everything was usable).
    """
    text = str(year if year is not None else "").strip()
    value, warning = None, ""
    if text:
        try:
            value = int(float(text))
        except (ValueError, OverflowError):  # "abc", "nan", "inf"
            value = None
        if value is None or not 1900 <= value <= 2100 or float(text) != value:
            warning = f"The year filter “{text}” is not a year such as 2023; it is ignored."
            value = None
    filters = Filters(
        year=value, venue=(venue or "").strip(), author=(author or "").strip(), auto=bool(auto), auto_hint=UI_AUTO_HINT
    )
    return filters, warning


class Backends:
    """Answer pipelines per LLM choice, sharing one retriever, evidence selector and model.

    An LLM is loaded once per name (one embedded model however many sessions choose it);
    ``auto``/``ollama`` choices, the page's default among them, are re-checked after
    :data:`AUTO_RECHECK_S` seconds, so Ollama started after the page is used without restarting it.
    """

    def __init__(self, components: Components, default_note: str):
        """Start with the pipeline ``components`` were built with.

        Args:
            components: Store, retriever and default pipeline (:func:`rag.pipeline.build_pipeline`).
            default_note: Why the default LLM was chosen (``""``: the pipeline's own note).
        """
        self.components = components
        p = components.pipeline
        # The configured choice, "auto" by default, also when it found no LLM at start: it is
        # checked again when used (AUTO_RECHECK_S), so the page needs no restart once Ollama runs.
        self.default_backend = components.settings.llm.backend
        self.default_model = components.settings.llm.ollama_model
        self.default_note = default_note or p.llm_note or ("extractive answer (no LLM)" if p.llm is None else "")
        self._lock = threading.Lock()
        self._llms: dict[str, Any] = {p.llm.name: p.llm} if p.llm is not None else {}
        self._cache = self._first_choices(p)

    def _first_choices(self, p: AnswerPipeline) -> dict[tuple[str, str], tuple[float, AnswerPipeline, str]]:
        """The cache of resolved choices over a new default pipeline ``p``: the default choice (until
        :data:`AUTO_RECHECK_S` from now for ``auto``/``ollama``) and, when ``p`` has no LLM, ``none``."""
        recheck = self.default_backend in ("auto", "ollama")
        until = time.monotonic() + AUTO_RECHECK_S if recheck else float("inf")
        cache: dict[tuple[str, str], tuple[float, AnswerPipeline, str]] = {
            (self.default_backend, self.default_model): (until, p, self.default_note)
        }
        if p.llm is None and self.default_backend != "none":
            cache[("none", self.default_model)] = (float("inf"), p, "extractive answer (no LLM)")
        return cache

    def refresh(self) -> bool:
        """Rebuild the shared components over the store as it is now when another process wrote to
        the data directory since they were built (``paperchat ingest``, ``ingest --sync``,
        ``remove``): the page answers from what was added or removed. Returns True when rebuilt."""
        fresh = refreshed(self.components)
        if fresh is None:
            return False
        with self._lock:
            c = self.components  # shared with the handlers: changed in place
            c.store, c.retriever, c.pipeline, c.version = fresh.store, fresh.retriever, fresh.pipeline, fresh.version
            self._cache = self._first_choices(c.pipeline)
        log.info("the data directory changed: %d papers now", len(c.retriever.papers))
        return True

    def resolve(self, backend: str, model: str) -> tuple[AnswerPipeline, str]:
        """The pipeline for a backend choice and the note on which LLM it uses, over the store as
        it is now (:meth:`refresh`).

        Raises:
            LLMError: ``ollama`` was chosen and is not usable (the message has the remedy).
        """
        self.refresh()
        backend = backend if backend in BACKENDS else self.default_backend
        model = (model or self.default_model).strip()
        key = (backend, model)
        with self._lock:
            hit = self._cache.get(key)
            if hit and hit[0] > time.monotonic():
                return hit[1], hit[2]
        s = self.components.settings
        settings = s.model_copy(update={"llm": s.llm.model_copy(update={"backend": backend, "ollama_model": model})})
        llm, note = make_llm(settings)
        with self._lock:
            if llm is not None:
                llm = self._llms.setdefault(llm.name, llm)
            c = self.components
            pipeline = c.answerer(llm, note)
            ttl = AUTO_RECHECK_S if backend in ("auto", "ollama") else float("inf")
            self._cache[key] = (time.monotonic() + ttl, pipeline, note)
        return pipeline, note

    def forget(self) -> None:
        """Drop cached ``auto``/``ollama`` resolutions (after the user refreshes)."""
        with self._lock:
            for key in [k for k, v in self._cache.items() if v[0] != float("inf")]:
                del self._cache[key]

    def ollama_models(self) -> tuple[list[str], str]:
        """Models pulled into the configured Ollama server, and a line on its state."""
        from rag.llm.ollama import OllamaLLM

        host = self.components.settings.llm.ollama_host
        client = OllamaLLM(host, self.default_model, timeout=5.0)
        try:
            if not client.ping():
                return [], f"Ollama is not running at {host} — start it with `ollama serve`"
            models = client.list_models()
            return models, f"Ollama at {host}: {len(models)} model{'s' if len(models) != 1 else ''}"
        except LLMError as exc:
            return [], str(exc)
        finally:
            client.close()


@dataclass
class Session:
    """One browser session: its conversation, current stop event and export folder."""

    conversation: Conversation
    export_dir: Path
    stop: threading.Event | None = None
    done: threading.Event = field(default_factory=threading.Event)
    backend_note: str = ""
    exports: int = 0
    retry: str = ""  # the question whose LLM reply was incomplete, offered again by the Retry button
    reports_seen: int = 0  # the last saved-questions report shown (store.watches.Watches.report)
    filters: Filters = field(default_factory=lambda: Filters(auto=True, auto_hint=UI_AUTO_HINT))
