"""The chat page's event handlers: answering (streamed), stopping, retrying, a new conversation,
the settings panel, and the outputs they render for a session.

Answers stream: :meth:`Conversation.ask` runs in a worker thread whose ``on_token``
callback feeds a queue; :meth:`Handlers.respond` (a generator) yields the prose so far, then the
checked answer with its citations replaces it. *Stop* sets the ``threading.Event`` the
LLM watches (generation stops on the server) and cancels the Gradio event.

Every message is normalised as every input is (:func:`store.textin.clean_text`) and trimmed to
``input.max_question_chars`` with a notice; the chat echoes at most ``input.preview_chars`` of it.
When the LLM's reply did not finish (:class:`rag.llm.clients.LLMIncomplete`), the answer is the
extractive one, the status line says so and a Retry button asks the question again.

The settings panel's year / venue / author filters and the switch for filters stated in the
question are passed to :meth:`Conversation.ask` with every message, and the answer's note (the
status line) says which filter applied and how to remove it.
"""

from __future__ import annotations

import functools
import logging
import queue
import shutil
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import gradio as gr

from rag.llm.clients import LLMError
from rag.pipeline import Components
from rag.question.phrasing import keep_asking
from rag.route.conversation import Conversation, Turn
from rag.route.filters import Filters
from rag.settings import Settings
from rag.types import Timings
from store.textin import clean_text
from ui.chat import escape_dollars, history_messages, panel_marks, status_line
from ui.evidence_panel import EMPTY_PANEL, evidence_panel
from ui.exports import answer_markdown, bibtex, conversation_markdown, table_copies, table_csv
from ui.session import Backends, Session, parse_filters
from ui.uploads import ingest_uploads

__all__ = ["Handlers"]

log = logging.getLogger(__name__)


def export_root(settings: Settings) -> Path:
    """Where the page writes each session's exports: ``<home>/cache/ui-exports`` (the server
    must allow Gradio to serve files from it, wherever the data directory is)."""
    return settings.home / "cache" / "ui-exports"


class Handlers:
    """The event handlers of one app, over its components; each browser session is a :class:`Session`.

    Handlers that Gradio calls take the page's inputs in order and the session last, and return
    (or, when streaming, yield) the outputs :func:`ui.app.build_app` wires them to.
    """

    def __init__(self, components: Components, default_llm_note: str = ""):
        """Set up the backends and the per-app export folder.

        Args:
            components: Store, retriever and pipeline from :func:`rag.pipeline.build_pipeline`.
            default_llm_note: Why the default LLM was chosen (shown until the first answer).
        """
        self.components = components
        self.backends = Backends(components, default_llm_note)
        self.settings = components.settings
        self.history = functools.partial(history_messages, preview_chars=self.settings.input.preview_chars)
        self.export_root = export_root(self.settings)

    def new_session(self) -> Session:
        """A fresh conversation over the default pipeline, with its own export folder (saved-question
        reports of earlier ingests are not shown to it)."""
        from store.watches import Watches

        session = Session(Conversation(self.components.pipeline), self.export_root / uuid.uuid4().hex)
        session.reports_seen = Watches(self.settings.home).last_report()
        return session

    def _watch_news(self, session: Session) -> str:
        """The saved questions' reports of ingests made since the session last looked (through any
        entry: ``paperchat ingest``, the API, another page), as a notice above the status line."""
        from store.watches import Watches

        fresh = Watches(self.settings.home).reports_after(session.reports_seen)
        if not fresh:
            return ""
        session.reports_seen = fresh[-1].n
        lines = [f"🔔 {line} (ingest at {r.at})" for r in fresh for line in r.lines]
        return escape_dollars("\n\n".join(lines))

    @property
    def papers(self):
        """Every paper of the collection as it is now (the components are rebuilt after an ingest)."""
        return self.components.retriever.papers

    def header(self) -> str:
        """The page's heading: how many papers the collection holds now (after any ingest)."""
        self.backends.refresh()
        n = len(self.components.retriever.papers)
        return (
            f"## paperchat\nAsk about the {n} paper abstracts in the collection. Every answer cites its "
            "sources as [n]: click a marker to see the paper and the highlighted sentences it relies on. "
            "Try *Compare A and B*, *Summarize X*, *Summarize the papers on …* or *Table of the papers on … "
            "with columns benchmark, main result, code*."
        )

    def add_papers(self, files: list[str] | None, session: Session | None = None) -> tuple[str, str]:
        """Ingest uploaded files (:func:`ui.uploads.ingest_uploads`): the per-file report (with the
        saved questions' notice), and the heading with the new count; the next answer searches the
        added papers. The session's next answer does not repeat the notice."""
        report = ingest_uploads(self.components, files, after=self._watched)
        if session is not None:
            from store.watches import Watches

            session.reports_seen = Watches(self.settings.home).last_report()
        return report, self.header()

    def _watched(self, changed: list[str]) -> str:
        """The saved questions' notice after an upload: each asked again over the papers it added
        or updated (:func:`ui.watching.watch_lines`), over the components rebuilt with them."""
        from ui.watching import watch_lines, watch_notice

        self.backends.refresh()
        return watch_notice(watch_lines(self.components, changed))

    def watch_question(self, typed: str, session: Session | None) -> str:
        """Save a question (*Watch this question*): the one typed in the box, else the last one the
        session asked. Every ingest then asks it again over the papers it adds or updates and
        reports the new matches (:mod:`rag.route.watch`). Returns the status line's notice."""
        from store.watches import WatchError, Watches

        text, _ = keep_asking(clean_text(typed or ""), self.settings.input.max_question_chars)
        if not text.strip() and session is not None and session.conversation.turns:
            text = session.conversation.turns[-1].question
        try:
            w, added = Watches(self.settings.home).add(text)
        except WatchError:
            return "⚠️ Type a question (or ask one first) to watch it."
        n = len(Watches(self.settings.home).load())
        state = "Watching" if added else "Already watching"
        return escape_dollars(
            f"🔔 {state} “{w.question}” ({n} saved question{'s' if n != 1 else ''}): each time papers are added, "
            "the new ones that match it are reported."
        )

    def default_status(self) -> str:
        """The status line before the first answer: the default LLM and why it was chosen."""
        line = f"**LLM:** {self.components.pipeline.backend}"
        return escape_dollars(f"{line} — {self.backends.default_note}" if self.backends.default_note else line)

    def effective_line(
        self, backend: str, model: str, top_k: float, note: str, error: str = "", filters: Filters | None = None
    ) -> str:
        """The settings panel's line on the effective settings (Markdown).

        Args:
            backend: The chosen LLM backend (one of :data:`~ui.session.BACKENDS`).
            model: The chosen Ollama model.
            top_k: Papers per answer (the slider's value, a whole number).
            note: Which LLM that choice resolved to (``""``: extractive answers).
            error: A warning shown above the line (``""``: none).
            filters: The session's filters (``None``: none, years in the question applied).
        """
        filters = filters or Filters(auto=True)
        shown = filters.describe()
        line = (
            f"**Effective:** backend `{backend}` → {note or 'extractive answers'} · Ollama model `{model}` at "
            f"`{self.settings.llm.ollama_host}` · top-k {int(top_k)} · evidence sentences per paper "
            f"{self.settings.answer.evidence_per_paper} · {len(self.papers)} papers in the collection · filters: "
            + (f"{shown} (clear the field to remove)" if shown else "none")
            + f" · years stated in the question {'become filters' if filters.auto else 'are ignored'}"
        )
        return (f"⚠️ {error}\n\n" if error else "") + escape_dollars(line)

    # -- rendering of a session ------------------------------------------------------------

    def _write_exports(self, session: Session, turn: Turn) -> tuple[str, str, str]:
        """Write the answer, conversation and references files; their paths."""
        session.exports += 1
        k = session.exports
        folder = session.export_dir
        folder.mkdir(parents=True, exist_ok=True)
        conv = session.conversation
        a = folder / f"paperchat-answer-{k}.md"
        a.write_text(answer_markdown(turn, self.papers), encoding="utf-8")
        c = folder / f"paperchat-conversation-{k}.md"
        c.write_text(conversation_markdown(conv.turns, conv.references, self.papers), encoding="utf-8")
        b = folder / f"paperchat-references-{k}.bib"
        b.write_text(bibtex(conv.references.values(), self.papers), encoding="utf-8")
        return str(a), str(c), str(b)

    def _panel_for(self, session: Session) -> str:
        """The evidence panel of the session's last turn."""
        conv = session.conversation
        if not conv.turns:
            return EMPTY_PANEL
        turn = conv.turns[-1]
        note = ""
        if turn.kind == "refusal":
            note = "This answer cites no paper: the collection does not answer it."
        elif turn.kind == "clarify":
            note = "Nothing cited yet: choose one of the candidates listed in the chat."
        return evidence_panel(
            turn.citations,
            self.papers,
            earlier=list(conv.references.values()),
            note=note,
            marks=panel_marks(turn),
            copies=table_copies(conv.turns, self.papers),
        )

    def _final_outputs(
        self,
        session: Session,
        *,
        stopped: bool = False,
        warning: str = "",
        notice: str = "",
        clock: Timings | None = None,
        started: float | None = None,
    ) -> tuple:
        """Every output of the page for the session's finished last turn.

        Args:
            session: The session; its last turn is finished.
            stopped: The user stopped the answer.
            warning: Shown above the status line (a filter or backend could not be used).
            notice: What the answer's note starts with that is said about the message (it was
                trimmed): shown once, above the status line, not again in it.
            clock: What was measured around the route (loading, reading...): added to the answer's
                timings with the seconds of this rendering (:meth:`rag.types.Timings.include`).
            started: ``time.perf_counter()`` when the message arrived: the answer's total then runs
                from it to the status line (which is made last).
        """
        conv = session.conversation
        turn = conv.turns[-1]
        t = time.perf_counter()
        history, panel = self.history(conv.turns), self._panel_for(session)
        a, c, b = self._write_exports(session, turn)
        if clock is not None and started is not None:
            timings = turn.answer.timings.include(clock)
            timings.rendering += time.perf_counter() - t
            timings.total = time.perf_counter() - started
        note = turn.answer.note
        if notice and note.startswith(notice):
            note = note[len(notice) :].removeprefix("; ")
        warnings = [w for w in (notice, warning) if w]
        session.retry = turn.question if turn.answer.incomplete and not stopped else ""
        if session.retry:  # the note says why the reply was not used: said once, with the remedy
            warnings.append(f"{note} Press Retry to ask again.")
            note = ""
        status = status_line(replace(turn.answer, note=note), stopped=stopped)
        if warnings:
            status = f"⚠️ {escape_dollars(' '.join(warnings))}\n\n{status}"
        news = self._watch_news(session)
        if news:
            status = f"{news}\n\n{status}"
        details = {"kind": turn.kind, "standalone": turn.standalone, **turn.answer.to_dict()}
        return (
            history,
            panel,
            status,
            details,
            gr.DownloadButton(value=a, interactive=True),
            gr.DownloadButton(value=c, interactive=True),
            gr.DownloadButton(value=b, interactive=True),
            session,
        )

    # -- event handlers ----------------------------------------------------------------------

    def respond(
        self,
        message: str,
        backend: str,
        model: str,
        top_k: float,
        year: str,
        venue: str,
        author: str,
        auto_filter: bool,
        session: Session | None,
    ) -> Iterator[tuple]:
        """Answer one message with the session's settings, streaming LLM prose, then the checked answer.

        The answer's footer times it from here (:class:`rag.types.Timings`): choosing the LLM and
        rebuilding the components count as ``loading``, making the outputs as ``rendering``."""
        started = time.perf_counter()
        clock = Timings()
        session = session or self.new_session()
        conv = session.conversation
        session.filters, filter_warning = parse_filters(year, venue, author, auto_filter)
        filters = session.filters
        # One normalisation for every input path (lone surrogates, controls, NFC), then the length limit.
        message, trimmed = keep_asking(clean_text(message or ""), self.settings.input.max_question_chars)
        skip = gr.skip()
        if not message:
            yield (
                self.history(conv.turns),
                skip,
                "Type a question about the papers first.",
                skip,
                skip,
                skip,
                skip,
                "",
                session,
            )
            return
        warning = filter_warning
        try:
            with clock.step("loading"):
                conv.pipeline, session.backend_note = self.backends.resolve(backend, model)
        except LLMError as exc:
            warning = " ".join(x for x in (warning, f"{exc} Answering with the default backend instead.") if x)
            conv.pipeline, session.backend_note = self.components.pipeline, self.backends.default_note
        stop = threading.Event()
        done = threading.Event()
        session.stop, session.done = stop, done
        pieces: queue.Queue[str | None] = queue.Queue()
        failure: list[BaseException] = []

        def work() -> None:
            try:
                with clock.measuring():
                    turn = conv.ask(message, top_k=int(top_k), on_token=pieces.put, stop=stop, filters=filters)
                if trimmed:
                    turn.answer.note = "; ".join(x for x in (trimmed, turn.answer.note) if x)
            except Exception as exc:  # noqa: BLE001 - shown to the user, logged with traceback
                log.exception("answering %r failed", message)
                failure.append(exc)
            finally:
                done.set()
                pieces.put(None)

        worker = threading.Thread(target=work, name="paperchat-answer", daemon=True)
        worker.start()
        working = f"Answering with {conv.pipeline.backend}…" if conv.pipeline.llm else "Retrieving evidence…"
        working += " A question sent now is answered next."
        yield (
            self.history(conv.turns, pending=message),
            skip, working, skip, skip, skip, skip, "", session,
        )  # fmt: skip
        partial = ""
        try:
            finished = False
            while not finished:
                try:
                    piece = pieces.get(timeout=0.5)
                except queue.Empty:
                    continue
                batch = [piece]
                while True:  # take whatever else has arrived, one update per batch
                    try:
                        batch.append(pieces.get_nowait())
                    except queue.Empty:
                        break
                finished = None in batch
                partial += "".join(p for p in batch if p)
                if not finished and partial.strip():
                    yield (
                        self.history(conv.turns, pending=message, partial=partial),
                        skip, f"Streaming from {conv.pipeline.backend}…", skip, skip, skip, skip, skip, session,
                    )  # fmt: skip
            worker.join()
        finally:
            if worker.is_alive():  # the event was cancelled: stop generating on the server too
                stop.set()
        if failure:
            yield (
                self.history(conv.turns),
                skip, f"⚠️ Answering failed: {escape_dollars(str(failure[0]))}",
                skip, skip, skip, skip, skip, session,
            )  # fmt: skip
            return
        outputs = self._final_outputs(
            session, stopped=stop.is_set(), warning=warning, notice=trimmed, clock=clock, started=started
        )
        yield (*outputs[:7], skip, session)

    def warm_up(self, question: str) -> float:
        """Answer and render ``question`` once, extractively, in a throwaway session whose export files
        are then removed, so that the page's first question waits for nothing its rendering computes
        on first use (the BibTeX keys of the whole collection: 0.2-0.6 s on 3,136 papers). Returns
        the seconds taken; a failure is logged, never raised (a slower first answer, not a failed start)."""
        t = time.perf_counter()
        session = self.new_session()
        try:
            top_k = self.settings.retrieval.top_k
            for _ in self.respond(question, "none", self.backends.default_model, top_k, "", "", "", True, session):
                pass
        except Exception:  # noqa: BLE001 - see the docstring
            log.warning("warming the page up failed", exc_info=True)
        finally:
            shutil.rmtree(session.export_dir, ignore_errors=True)
        return time.perf_counter() - t

    def stop_answer(self, session: Session | None) -> tuple:
        """Stop the running answer (server side) and show what was checked so far."""
        skip = gr.skip()
        if session is None or session.stop is None or session.done.is_set():
            return (skip,) * 7 + (session,)  # nothing is being answered
        session.stop.set()
        if session.done.wait(timeout=10.0) and session.conversation.turns:
            return self._final_outputs(session, stopped=True)
        return (skip, skip, "**Stopping…**", skip, skip, skip, skip, session)

    def retry(
        self,
        backend: str, model: str, top_k: float, year: str, venue: str, author: str, auto_filter: bool,
        session: Session | None,
    ) -> Iterator[tuple]:  # fmt: skip
        """Ask again the question whose LLM reply was incomplete."""
        if session is None or not session.retry:
            skip = gr.skip()
            yield (skip, skip, "Nothing to retry: the last answer was complete.", skip, skip, skip, skip, skip, session)
            return
        yield from self.respond(session.retry, backend, model, top_k, year, venue, author, auto_filter, session)

    def table_downloads(self, session: Session | None) -> tuple[Any, Any]:
        """After an answer: the CSV of the table and the BibTeX of its rows when the last turn is a
        table (written beside the session's other exports), else both buttons hidden."""
        turns = session.conversation.turns if session is not None else []
        table = turns[-1].paper_table if turns else None
        if session is None or table is None:
            return gr.DownloadButton(visible=False), gr.DownloadButton(visible=False)
        session.export_dir.mkdir(parents=True, exist_ok=True)
        csv_path = session.export_dir / f"paperchat-table-{session.exports}.csv"
        csv_path.write_text(table_csv(table, self.papers), encoding="utf-8", newline="")
        bib_path = session.export_dir / f"paperchat-rows-{session.exports}.bib"
        bib_path.write_text(bibtex(table.papers, self.papers), encoding="utf-8")
        shown = (gr.DownloadButton(value=str(path), visible=True) for path in (csv_path, bib_path))
        return next(shown), next(shown)

    def related_work_downloads(self, session: Session | None) -> tuple[Any, Any]:
        """After an answer: the LaTeX of a related-work draft and the .bib it cites, every key
        checked (:func:`ui.related_work.draft_files`), when the last turn is a draft; else both
        buttons hidden."""
        from ui.related_work import draft_files

        turns = session.conversation.turns if session is not None else []
        draft = turns[-1].related_work if turns else None
        if session is None or draft is None:
            return gr.DownloadButton(visible=False), gr.DownloadButton(visible=False)
        files = draft_files(draft, self.papers)
        session.export_dir.mkdir(parents=True, exist_ok=True)
        tex_path = session.export_dir / f"related-work-{session.exports}.tex"
        tex_path.write_text(files.text, encoding="utf-8")
        bib_path = session.export_dir / f"related-work-{session.exports}.bib"
        bib_path.write_text(files.bib, encoding="utf-8")
        shown = (gr.DownloadButton(value=str(path), visible=True) for path in (tex_path, bib_path))
        return next(shown), next(shown)

    def retry_button(self, session: Session | None) -> Any:
        """Show Retry only after an answer whose LLM reply was incomplete."""
        return gr.Button(visible=bool(session and session.retry))

    def new_conversation(self, session: Session | None) -> tuple:
        """End the running answer, if any, and start an empty conversation."""
        if session is not None and session.stop is not None:
            session.stop.set()
        fresh = self.new_session()
        off = gr.DownloadButton(value=None, interactive=False)
        return [], EMPTY_PANEL, self.default_status(), None, off, off, off, fresh

    def show_settings(
        self, backend: str, model: str, top_k: float, session: Session | None, warning: str = ""
    ) -> tuple[str, Session]:
        """Switch the session to the chosen LLM; the effective settings with the session's filters."""
        session = session or self.new_session()
        try:
            pipeline, note = self.backends.resolve(backend, model)
        except LLMError as exc:
            error = " ".join(x for x in (str(exc), warning) if x)
            return self.effective_line(backend, model, top_k, "", error=error, filters=session.filters), session
        session.conversation.pipeline = pipeline
        return self.effective_line(backend, model, top_k, note, error=warning, filters=session.filters), session

    def apply_settings(
        self,
        backend: str, model: str, top_k: float, year: str, venue: str, author: str, auto_filter: bool,
        session: Session | None,
    ) -> tuple[str, Session]:  # fmt: skip
        """Take the settings panel's choices into the session; the effective settings line."""
        session = session or self.new_session()
        session.filters, warning = parse_filters(year, venue, author, auto_filter)
        return self.show_settings(backend, model, top_k, session, warning)

    def refresh_models(
        self, backend: str, model: str, top_k: float, session: Session | None
    ) -> tuple[Any, str, Session]:
        """List the models of the Ollama server again (and re-check ``auto``/``ollama``)."""
        self.backends.forget()
        models, state = self.backends.ollama_models()
        choices = list(dict.fromkeys([*models, model or self.backends.default_model]))
        line, session = self.show_settings(backend, model, top_k, session)
        return gr.Dropdown(choices=choices, value=model), f"{line}\n\n{escape_dollars(state)}", session
