"""The Gradio shell: a chat with streaming answers, an evidence panel, exports and settings.

Thin by design: :func:`build_app` wires components to :class:`rag.conversation.Conversation`
(conversation logic) and :mod:`ui.chat`, :mod:`ui.evidence_panel`, :mod:`ui.exports` (pure
formatters); :func:`launch` serves it and is called only from the entry point (``paperchat ui``).
Every user has their own conversation in a ``gr.State``; nothing lives at module level.

Answers stream: :meth:`Conversation.ask` runs in a worker thread whose ``on_token``
callback feeds a queue; the event handler (a generator) yields the prose so far, then the
checked answer with its citations replaces it. *Stop* sets the ``threading.Event`` the
LLM watches (generation stops on the server) and cancels the Gradio event.

Every message is normalised as every input is (:func:`store.textin.clean_text`) and trimmed to
``input.max_question_chars`` with a notice; the chat echoes at most ``input.preview_chars`` of it.
When the LLM's reply did not finish (:class:`rag.llm.LLMIncomplete`), the answer is the
extractive one, the status line says so and a Retry button asks the question again.

The settings panel also holds year / venue / author filters and the switch for filters stated
in the question; they are passed to :meth:`Conversation.ask` with every message, and the
answer's note (the status line) says which filter applied and how to remove it.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gradio as gr

from rag.answer import AnswerPipeline
from rag.conversation import Conversation, Turn
from rag.filters import Filters
from rag.llm import LLMError
from rag.pipeline import Components, make_llm
from store.textin import clean_text, limit_text
from ui.chat import LATEX_DELIMITERS, escape_dollars, history_messages, status_line
from ui.evidence_panel import EMPTY_PANEL, evidence_panel
from ui.exports import answer_markdown, bibtex, conversation_markdown

__all__ = ["AUTO_FILTER_LABEL", "BACKENDS", "build_app", "check_bind", "is_loopback_host", "launch", "parse_auth",
           "parse_filters"]  # fmt: skip

log = logging.getLogger(__name__)

BACKENDS = ["auto", "ollama", "embedded", "none"]
"""LLM backends a user can choose (``rag.settings.LLMSettings.backend``)."""

EXAMPLES = [
    "What accuracy gain does DANCE report?",
    "Which papers use reinforcement learning?",
    "Compare DANCE and APM",
    "Summarize the papers on federated learning",
]

AUTO_FILTER_LABEL = "Apply filters stated in the question"
"""The settings checkbox that turns a year in the question ("papers from 2023 ...") into a filter."""

UI_AUTO_HINT = f"untick “{AUTO_FILTER_LABEL}” in Settings to remove"
"""How to undo an automatic filter in the UI; shown in the answer's note."""

_AUTO_TTL = 30.0  # seconds an "auto"/"ollama" resolution is reused before Ollama is pinged again

_PANEL_CSS = """
.pc-evidence { font-size: 0.92rem; line-height: 1.45; }
.pc-evidence .pc-head { margin: 0 0 0.5rem 0; }
.pc-evidence .pc-note { margin: 0 0 0.5rem 0; color: var(--body-text-color-subdued); }
.pc-src { border: 1px solid var(--border-color-primary); border-radius: 8px; padding: 0.6rem 0.8rem;
          margin-bottom: 0.7rem; scroll-margin-top: 0.5rem; transition: box-shadow 0.3s; }
.pc-src h4 { margin: 0 0 0.25rem 0; font-size: 1rem; }
.pc-src .pc-num { color: var(--color-accent); font-weight: 700; }
.pc-meta { font-size: 0.8rem; color: var(--body-text-color-subdued); margin-bottom: 0.35rem; word-break: break-all; }
.pc-abstract { margin: 0; }
.pc-abstract mark { background: #fde68a; color: #111827; padding: 0 1px; border-radius: 2px; }
.pc-flash { box-shadow: 0 0 0 3px var(--color-accent); }
.pc-earlier summary { cursor: pointer; }
"""

# Clicking a marker [n] in the chat brings the source #src-n of the evidence panel into view
# (also when it sits in the collapsed list of earlier sources); plus a few chat styles (the
# comparison table's row headings, marker links). Installed once per page.
_CLICK_JS = """
if (!window.__paperchatLinks) {
  window.__paperchatLinks = true;
  const style = document.createElement('style');
  style.textContent = `
    #pc-chat table td:first-child, #pc-chat table th:first-child {
      min-width: 7.5em; word-break: normal; overflow-wrap: normal; }
    #pc-chat table td { vertical-align: top; }
    #pc-chat a[href^="#src-"] { text-decoration: none; font-weight: 600; }`;
  document.head.appendChild(style);
  document.addEventListener('click', (ev) => {
    const a = ev.target && ev.target.closest ? ev.target.closest('a[href^="#src-"]') : null;
    if (!a) return;
    const el = document.getElementById(a.getAttribute('href').slice(1));
    if (!el) return;
    ev.preventDefault();
    const det = el.closest('details');
    if (det) det.open = true;
    el.scrollIntoView({behavior: 'smooth', block: 'start'});
    el.classList.add('pc-flash');
    setTimeout(() => el.classList.remove('pc-flash'), 1600);
  }, true);
}
"""


def is_loopback_host(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (``127.0.0.1``, ``::1``)."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


Auth = tuple[str, str] | list[tuple[str, str]] | Callable[[str, str], bool]


def parse_auth(value: str | Auth | None) -> Auth | None:
    """Credentials for ``gr.Blocks.launch(auth=...)``.

    Args:
        value: ``"user:password"``, the path of a file whose first line is that, a
            ``(user, password)`` tuple, a list of them, a checking function, or ``None``/``""``.

    Raises:
        ValueError: a string that is not ``user:password`` (nor a file holding it).
    """
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        return value
    text = value
    try:
        path = Path(value).expanduser()
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            text = lines[0].strip() if lines else ""
    except OSError:
        pass
    user, sep, password = text.partition(":")
    if not sep or not user or not password:
        raise ValueError("auth must be 'user:password' (or a file whose first line is that)")
    return user, password


def check_bind(host: str, auth: object) -> None:
    """Refuse to serve on a non-loopback address without authentication.

    Raises:
        ValueError: ``host`` is reachable from other machines and ``auth`` is empty.
    """
    if not is_loopback_host(host) and not auth:
        raise ValueError(
            f"Refusing to serve paperchat on {host} without a password: anyone who can reach this "
            "machine could use it. Pass --auth user:password (in Python: auth=('user', 'password')), "
            "or bind to 127.0.0.1."
        )


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


# --- app-level collaborators (built per app, never module-level) --------------------------


class _Backends:
    """Answer pipelines per LLM choice, sharing one retriever, evidence selector and model.

    An LLM is loaded once per name (``embedded:...`` is shared by ``auto`` and ``embedded``);
    ``auto``/``ollama`` choices are re-checked after :data:`_AUTO_TTL` seconds.
    """

    def __init__(self, components: Components, default_note: str):
        self.components = components
        p = components.pipeline
        self.default_backend = "none" if p.llm is None else components.settings.llm.backend
        self.default_model = components.settings.llm.ollama_model
        self.default_note = default_note or p.llm_note or ("extractive answer (no LLM)" if p.llm is None else "")
        self._lock = threading.Lock()
        self._llms: dict[str, Any] = {p.llm.name: p.llm} if p.llm is not None else {}
        self._cache: dict[tuple[str, str], tuple[float, AnswerPipeline, str]] = {
            (self.default_backend, self.default_model): (float("inf"), p, self.default_note)
        }

    def resolve(self, backend: str, model: str) -> tuple[AnswerPipeline, str]:
        """The pipeline for a backend choice and the note on which LLM it uses.

        Raises:
            LLMError: ``ollama`` was chosen and is not usable (the message has the remedy).
        """
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
            pipeline = AnswerPipeline(c.retriever, c.pipeline.evidence, llm, c.settings, llm_note=note)
            ttl = _AUTO_TTL if backend in ("auto", "ollama") else float("inf")
            self._cache[key] = (time.monotonic() + ttl, pipeline, note)
        return pipeline, note

    def forget(self) -> None:
        """Drop cached ``auto``/``ollama`` resolutions (after the user refreshes)."""
        with self._lock:
            for key in [k for k, v in self._cache.items() if v[0] != float("inf")]:
                del self._cache[key]

    def ollama_models(self) -> tuple[list[str], str]:
        """Models pulled into the configured Ollama server, and a line on its state."""
        from rag.llm_ollama import OllamaLLM

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
class _Session:
    """One browser session: its conversation, current stop event and export folder."""

    conversation: Conversation
    export_dir: Path
    stop: threading.Event | None = None
    done: threading.Event = field(default_factory=threading.Event)
    backend_note: str = ""
    exports: int = 0
    retry: str = ""  # the question whose LLM reply was incomplete, offered again by the Retry button
    filters: Filters = field(default_factory=lambda: Filters(auto=True, auto_hint=UI_AUTO_HINT))


# --- the app ---------------------------------------------------------------------------


def build_app(components: Components, *, default_llm_note: str = "") -> gr.Blocks:
    """Build the Gradio app over ready components (nothing is served).

    Args:
        components: Store, retriever and pipeline from :func:`rag.pipeline.build_pipeline`.
        default_llm_note: Why the default LLM was chosen (shown until the first answer).

    Returns:
        The ``gr.Blocks`` app with its queue configured (two answers at a time).
    """
    backends = _Backends(components, default_llm_note)
    settings = components.settings
    history = functools.partial(history_messages, preview_chars=settings.input.preview_chars)
    papers = components.retriever.papers
    export_root = settings.home / "cache" / "ui-exports"

    def new_session() -> _Session:
        return _Session(Conversation(components.pipeline), export_root / uuid.uuid4().hex)

    def default_status() -> str:
        line = f"**LLM:** {components.pipeline.backend}"
        return escape_dollars(f"{line} — {backends.default_note}" if backends.default_note else line)

    def effective_line(
        backend: str, model: str, top_k: int, note: str, error: str = "", filters: Filters | None = None
    ) -> str:
        filters = filters or Filters(auto=True)
        shown = filters.describe()
        line = (
            f"**Effective:** backend `{backend}` → {note or 'extractive answers'} · Ollama model `{model}` at "
            f"`{settings.llm.ollama_host}` · top-k {int(top_k)} · evidence sentences per paper "
            f"{settings.answer.evidence_per_paper} · {len(papers)} papers in the collection · filters: "
            + (f"{shown} (clear the field to remove)" if shown else "none")
            + f" · years stated in the question {'become filters' if filters.auto else 'are ignored'}"
        )
        return (f"⚠️ {error}\n\n" if error else "") + escape_dollars(line)

    # -- rendering of a session ------------------------------------------------------------

    def write_exports(session: _Session, turn: Turn) -> tuple[str, str, str]:
        session.exports += 1
        k = session.exports
        folder = session.export_dir
        folder.mkdir(parents=True, exist_ok=True)
        conv = session.conversation
        a = folder / f"paperchat-answer-{k}.md"
        a.write_text(answer_markdown(turn, papers), encoding="utf-8")
        c = folder / f"paperchat-conversation-{k}.md"
        c.write_text(conversation_markdown(conv.turns, conv.references, papers), encoding="utf-8")
        b = folder / f"paperchat-references-{k}.bib"
        b.write_text(bibtex(conv.references.values(), papers), encoding="utf-8")
        return str(a), str(c), str(b)

    def panel_for(session: _Session) -> str:
        conv = session.conversation
        if not conv.turns:
            return EMPTY_PANEL
        turn = conv.turns[-1]
        note = ""
        if turn.kind == "refusal":
            note = "This answer cites no paper: the collection does not answer it."
        elif turn.kind == "clarify":
            note = "Nothing cited yet: choose one of the candidates listed in the chat."
        return evidence_panel(turn.citations, papers, earlier=list(conv.references.values()), note=note)

    def final_outputs(session: _Session, *, stopped: bool = False, warning: str = "") -> tuple:
        conv = session.conversation
        turn = conv.turns[-1]
        status = status_line(turn.answer, stopped=stopped)
        session.retry = turn.question if turn.answer.incomplete and not stopped else ""
        if session.retry:
            warning = " ".join(x for x in (warning, f"{turn.answer.note} Press Retry to ask again.") if x)
        if warning:
            status = f"⚠️ {escape_dollars(warning)}\n\n{status}"
        details = {"kind": turn.kind, "standalone": turn.standalone, **turn.answer.to_dict()}
        a, c, b = write_exports(session, turn)
        return (
            history(conv.turns),
            panel_for(session),
            status,
            details,
            gr.DownloadButton(value=a, interactive=True),
            gr.DownloadButton(value=c, interactive=True),
            gr.DownloadButton(value=b, interactive=True),
            session,
        )

    # -- event handlers ----------------------------------------------------------------------

    def respond(
        message: str,
        backend: str,
        model: str,
        top_k: float,
        year: str,
        venue: str,
        author: str,
        auto_filter: bool,
        session: _Session | None,
    ) -> Iterator[tuple]:
        """Answer one message with the session's settings, streaming LLM prose, then the checked answer."""
        session = session or new_session()
        conv = session.conversation
        session.filters, filter_warning = parse_filters(year, venue, author, auto_filter)
        filters = session.filters
        # One normalisation for every input path (lone surrogates, controls, NFC), then the length limit.
        message, trimmed = limit_text(clean_text(message or ""), settings.input.max_question_chars)
        skip = gr.skip()
        if not message:
            yield (
                history(conv.turns),
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
        warning = " ".join(x for x in (trimmed, filter_warning) if x)
        try:
            conv.pipeline, session.backend_note = backends.resolve(backend, model)
        except LLMError as exc:
            warning = " ".join(x for x in (warning, f"{exc} Answering with the default backend instead.") if x)
            conv.pipeline, session.backend_note = components.pipeline, backends.default_note
        stop = threading.Event()
        done = threading.Event()
        session.stop, session.done = stop, done
        pieces: queue.Queue[str | None] = queue.Queue()
        failure: list[BaseException] = []

        def work() -> None:
            try:
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
        yield (
            history(conv.turns, pending=message),
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
                        history(conv.turns, pending=message, partial=partial),
                        skip, f"Streaming from {conv.pipeline.backend}…", skip, skip, skip, skip, skip, session,
                    )  # fmt: skip
            worker.join()
        finally:
            if worker.is_alive():  # the event was cancelled: stop generating on the server too
                stop.set()
        if failure:
            yield (
                history(conv.turns),
                skip, f"⚠️ Answering failed: {escape_dollars(str(failure[0]))}",
                skip, skip, skip, skip, skip, session,
            )  # fmt: skip
            return
        yield (*final_outputs(session, stopped=stop.is_set(), warning=warning)[:7], skip, session)

    def stop_answer(session: _Session | None) -> tuple:
        """Stop the running answer (server side) and show what was checked so far."""
        skip = gr.skip()
        if session is None or session.stop is None or session.done.is_set():
            return (skip,) * 7 + (session,)  # nothing is being answered
        session.stop.set()
        if session.done.wait(timeout=10.0) and session.conversation.turns:
            return final_outputs(session, stopped=True)
        return (skip, skip, "**Stopping…**", skip, skip, skip, skip, session)

    def retry(
        backend: str, model: str, top_k: float, year: str, venue: str, author: str, auto_filter: bool,
        session: _Session | None,
    ) -> Iterator[tuple]:  # fmt: skip
        """Ask again the question whose LLM reply was incomplete."""
        if session is None or not session.retry:
            skip = gr.skip()
            yield (skip, skip, "Nothing to retry: the last answer was complete.", skip, skip, skip, skip, skip, session)
            return
        yield from respond(session.retry, backend, model, top_k, year, venue, author, auto_filter, session)

    def retry_button(session: _Session | None) -> Any:
        """Show Retry only after an answer whose LLM reply was incomplete."""
        return gr.Button(visible=bool(session and session.retry))

    def new_conversation(session: _Session | None) -> tuple:
        if session is not None and session.stop is not None:
            session.stop.set()
        fresh = new_session()
        off = gr.DownloadButton(value=None, interactive=False)
        return [], EMPTY_PANEL, default_status(), None, off, off, off, fresh

    def show_settings(
        backend: str, model: str, top_k: float, session: _Session | None, warning: str = ""
    ) -> tuple[str, _Session]:
        """Switch the session to the chosen LLM; the effective settings with the session's filters."""
        session = session or new_session()
        try:
            pipeline, note = backends.resolve(backend, model)
        except LLMError as exc:
            error = " ".join(x for x in (str(exc), warning) if x)
            return effective_line(backend, model, top_k, "", error=error, filters=session.filters), session
        session.conversation.pipeline = pipeline
        return effective_line(backend, model, top_k, note, error=warning, filters=session.filters), session

    def apply_settings(
        backend: str, model: str, top_k: float, year: str, venue: str, author: str, auto_filter: bool,
        session: _Session | None,
    ) -> tuple[str, _Session]:  # fmt: skip
        session = session or new_session()
        session.filters, warning = parse_filters(year, venue, author, auto_filter)
        return show_settings(backend, model, top_k, session, warning)

    def refresh_models(backend: str, model: str, top_k: float, session: _Session | None):
        backends.forget()
        models, state = backends.ollama_models()
        choices = list(dict.fromkeys([*models, model or backends.default_model]))
        line, session = show_settings(backend, model, top_k, session)
        return gr.Dropdown(choices=choices, value=model), f"{line}\n\n{escape_dollars(state)}", session

    # -- layout ------------------------------------------------------------------------------

    with gr.Blocks(title="paperchat", fill_width=True) as demo:
        session_state = gr.State(None)
        gr.Markdown(
            f"## paperchat\nAsk about the {len(papers)} paper abstracts in the collection. Every answer cites its "
            "sources as [n]: click a marker to see the paper and the highlighted sentences it relies on. "
            "Try *Compare A and B*, *Summarize X* or *Summarize the papers on …*."
        )
        with gr.Row(equal_height=False):
            with gr.Column(scale=3, min_width=420):
                chatbot = gr.Chatbot(
                    label="Conversation",
                    elem_id="pc-chat",
                    height=560,
                    latex_delimiters=LATEX_DELIMITERS,
                    buttons=["copy"],
                    feedback_options=None,
                    placeholder="Ask a question about the papers, e.g. *What accuracy gain does DANCE report?*",
                )
                question = gr.Textbox(
                    placeholder="Ask about the papers… (Enter to send)",
                    show_label=False,
                    elem_id="pc-question",
                    lines=1,
                    max_lines=6,
                    autofocus=True,
                )
                with gr.Row():
                    ask_btn = gr.Button("Ask", variant="primary", elem_id="pc-ask")
                    stop_btn = gr.Button("Stop", variant="stop", elem_id="pc-stop")
                    retry_btn = gr.Button("Retry", visible=False, elem_id="pc-retry")
                    new_btn = gr.Button("New conversation", elem_id="pc-new")
                status = gr.Markdown(default_status(), elem_id="pc-status")
                with gr.Row():
                    dl_answer = gr.DownloadButton("Answer (.md)", size="sm", interactive=False, elem_id="pc-dl-answer")
                    dl_conv = gr.DownloadButton(
                        "Conversation (.md)", size="sm", interactive=False, elem_id="pc-dl-conv"
                    )
                    dl_bib = gr.DownloadButton("References (.bib)", size="sm", interactive=False, elem_id="pc-dl-bib")
                gr.Examples(EXAMPLES, inputs=question, label="Examples")
            with gr.Column(scale=2, min_width=360):
                evidence = gr.HTML(
                    EMPTY_PANEL,
                    elem_id="pc-evidence",
                    css_template=_PANEL_CSS,
                    js_on_load=_CLICK_JS,
                    max_height=760,
                    padding=True,
                )
        with gr.Accordion("Settings", open=False):
            with gr.Row():
                backend_dd = gr.Dropdown(
                    BACKENDS,
                    value=backends.default_backend,
                    label="LLM backend",
                    info="auto = Ollama when it runs, else the embedded model; none = extractive answers",
                )
                model_dd = gr.Dropdown(
                    [backends.default_model],
                    value=backends.default_model,
                    allow_custom_value=True,
                    label="Ollama model",
                    info="Models pulled into the Ollama server (Refresh to list them)",
                )
                top_k = gr.Slider(1, 10, value=settings.retrieval.top_k, step=1, label="top-k (papers per answer)")
            with gr.Row():
                year_tb = gr.Textbox("", label="Year", placeholder="any, e.g. 2023", elem_id="pc-year")
                venue_tb = gr.Textbox("", label="Venue", placeholder="any, e.g. ICML", elem_id="pc-venue")
                author_tb = gr.Textbox("", label="Author", placeholder="any, part of a name", elem_id="pc-author")
                auto_cb = gr.Checkbox(
                    value=True,
                    label=AUTO_FILTER_LABEL,
                    info="“papers from 2023 about …” then only searches papers of 2023",
                    elem_id="pc-auto-filter",
                )
            refresh_btn = gr.Button("Refresh Ollama models", size="sm")
            effective = gr.Markdown(
                effective_line(
                    backends.default_backend, backends.default_model, settings.retrieval.top_k, backends.default_note
                )
            )
        with gr.Accordion("Answer details (JSON)", open=False):
            details = gr.JSON(label="Current answer")

        # -- events -------------------------------------------------------------------------
        settings_inputs = [backend_dd, model_dd, top_k, year_tb, venue_tb, author_tb, auto_cb]
        outputs = [chatbot, evidence, status, details, dl_answer, dl_conv, dl_bib, question, session_state]
        ask_event = gr.on(
            [question.submit, ask_btn.click],
            respond,
            inputs=[question, *settings_inputs, session_state],
            outputs=outputs,
            api_name="ask",
            show_progress="hidden",
        )
        retry_event = retry_btn.click(
            retry, inputs=[*settings_inputs, session_state], outputs=outputs, api_name="retry", show_progress="hidden"
        )
        for event in (ask_event, retry_event):
            event.then(retry_button, inputs=[session_state], outputs=[retry_btn], api_name=False)

        def cancelling(button: gr.Button, handler: Callable[[_Session | None], tuple], api_name: str) -> None:
            """Wire a button that ends the running answer (Stop, New conversation)."""
            button.click(
                handler,
                inputs=[session_state],
                outputs=[chatbot, evidence, status, details, dl_answer, dl_conv, dl_bib, session_state],
                cancels=[ask_event, retry_event],
                api_name=api_name,
                concurrency_limit=None,
            )

        cancelling(stop_btn, stop_answer, "stop")
        cancelling(new_btn, new_conversation, "new_conversation")
        gr.on(
            [backend_dd.change, model_dd.change, top_k.release, auto_cb.change]
            + [ev for tb in (year_tb, venue_tb, author_tb) for ev in (tb.submit, tb.blur)],
            apply_settings,
            inputs=[*settings_inputs, session_state],
            outputs=[effective, session_state],
            api_name="settings",
            concurrency_limit=None,
        )
        refresh_btn.click(
            refresh_models,
            inputs=[backend_dd, model_dd, top_k, session_state],
            outputs=[model_dd, effective, session_state],
            api_name="refresh_models",
            concurrency_limit=None,
        )
    demo.queue(default_concurrency_limit=2)
    return demo


def launch(
    components: Components,
    host: str = "127.0.0.1",
    port: int = 7860,
    auth: str | Auth | None = None,
    *,
    default_llm_note: str = "",
    block: bool = True,
) -> gr.Blocks:
    """Serve the app (never through a share link).

    Args:
        components: Ready components (see :func:`build_app`).
        host: Address to bind; anything but loopback requires ``auth``.
        port: TCP port.
        auth: ``"user:password"`` (or a file holding it), ``(user, password)``, a list of
            them, or a checking function.
        default_llm_note: Why the default LLM was chosen.
        block: Serve until interrupted (the entry point); ``False`` returns at once with
            the server running in a background thread (tests; call ``demo.close()``).

    Returns:
        The running app.

    Raises:
        ValueError: a non-loopback ``host`` without ``auth``, or malformed ``auth``.
    """
    auth = parse_auth(auth)
    check_bind(host, auth)
    demo = build_app(components, default_llm_note=default_llm_note)
    if block:
        shown = f"[{host}]" if ":" in host else host
        print(f"paperchat is serving at http://{shown}:{port}/ (Ctrl+C to stop)", flush=True)
    demo.launch(
        server_name=host,
        server_port=port,
        auth=auth,
        share=False,
        inbrowser=False,
        prevent_thread_lock=not block,
        quiet=True,  # Gradio's banner suggests share=True, which this app never uses
        show_error=True,
        footer_links=["api"],
    )
    return demo
