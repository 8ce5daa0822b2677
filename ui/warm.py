"""The ``/paperchat/*`` routes a warm process (``paperchat serve``, ``paperchat ui``) serves to the
command line, so ``paperchat ask``, ``chat``, ``compare``, ``table`` and ``ingest`` run on its loaded
embedder, retriever and LLM (:mod:`ui.discovery` finds the process and sends the requests).

Each route does what the command does in-process and returns what it would print:

- ``GET /paperchat/health``: ``{"pid", "kind", "settings", "writes", "served"}``.
- ``POST /paperchat/ask``: one question (:class:`AskRequest`) -> ``{"answer": Answer.to_dict(),
  "text": the terminal rendering}``, or ``{"error", "exit_code"}`` when the LLM asked for is not usable.
- ``POST /paperchat/chat/start`` (:class:`ChatStartRequest`) -> ``{"session"}``; ``POST /paperchat/chat``
  (:class:`ChatMessageRequest`) -> one message of that ``paperchat chat`` conversation, kept here
  per session (:meth:`WarmService.chat`; 404 for an unknown session); ``POST /paperchat/chat/end``.
- ``POST /paperchat/compare``, ``/paperchat/table``, ``/paperchat/similar`` and ``/paperchat/ingest``:
  ``{"stdout", "stderr", "exit_code"}``.

Answers are made over the store as it is now (the components are rebuilt when the data directory's
write count moved, :meth:`ui.session.Backends.refresh`), so an ingest through this process, or
through another one, is seen by the page, the API and the next command. Every request must carry
the discovery file's token (:data:`ui.discovery.TOKEN_HEADER`); without it the routes answer 403.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import os
import secrets
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from rag.llm.clients import ChatLLM, LLMError
from rag.pipeline import Components, make_llm
from rag.route.answer import AnswerPipeline
from rag.route.conversation import Conversation
from rag.route.filters import Filters
from rag.settings import Settings
from ui.discovery import TOKEN_HEADER, CommandOutput, ServerInfo, advertise, new_server_info
from ui.render import render_answer, render_comparison, render_table
from ui.service import Library, timed_ask
from ui.session import Backends

__all__ = [
    "WARM_QUESTIONS", "AskRequest", "CompareRequest", "IngestRequest", "SimilarRequest", "WarmService",
    "add_warm_routes", "load_warmed", "serve_advertised", "warm_questions", "warm_up",
]

log = logging.getLogger(__name__)

WARM_QUESTIONS = (
    "Welche Arbeiten nutzen bestärkendes Lernen?",
    "What does {label} propse?",
)
"""Questions a warm process answers once while it starts (:func:`load_warmed`), so that its first
real question waits for nothing that is loaded on first use. The first is in another language: the
language check then reads the dictionaries of the seven languages it weighs (about 3 s and 400 MB
on two cores), which a question with a typing error needs too ("What does APM propse?" took 4-7 s
on a freshly started page, issue 34); it is read in a thread while the components load. The second,
with a typing error, about the collection's first paper (``{label}``), runs reading, the embedder,
the store and the lexical index once."""


def _read_languages() -> None:
    from rag.question.language import looks_non_english

    looks_non_english(WARM_QUESTIONS[0])


def warm_questions(components: Components) -> list[str]:
    """:data:`WARM_QUESTIONS` about this collection (``{label}``: its first paper's name)."""
    papers = components.retriever.papers
    label = next(iter(papers.values())).label if papers else "DANCE"
    return [q.format(label=label) for q in WARM_QUESTIONS]


def warm_up(components: Components) -> float:
    """Answer :data:`WARM_QUESTIONS` in a throwaway conversation, extractively; returns the seconds taken."""
    t = time.perf_counter()
    conversation = Conversation(components.answerer(None))
    for question in warm_questions(components):
        conversation.ask(question)
    return time.perf_counter() - t


def load_warmed(build: Callable[[], Components]) -> Components:
    """``build()`` the components of a warm process (the page, the API, the MCP server) while the
    language dictionaries load in another thread, then :func:`warm_up` them (a failure there is
    logged, never fatal: it only means a slower first question)."""
    reader = threading.Thread(target=_read_languages, name="paperchat-warm-languages", daemon=True)
    reader.start()
    t = time.perf_counter()
    components = build()
    loaded = time.perf_counter() - t
    reader.join()
    try:
        warmed = warm_up(components)
    except Exception:  # noqa: BLE001 - a slower first question, not a failed start
        log.warning("warming up for the first question failed", exc_info=True)
        warmed = 0.0
    log.info("loaded in %.1f s, warmed up for the first question in %.1f s more", loaded, warmed)
    return components


class ChatStartRequest(BaseModel):
    """The options of a ``paperchat chat`` conversation, for all its messages (and of one ``paperchat
    ask`` question, :class:`AskRequest`)."""

    model_config = ConfigDict(extra="forbid")
    backend: str = Field("auto", description="LLM backend: auto, ollama, embedded or none.")
    ollama_model: str = Field("", description="Ollama model ('' = the server's setting).")
    top_k: int | None = Field(None, ge=1, le=50, description="Most named papers one answer is about.")
    year: int | None = Field(None, ge=1900, le=2100)
    venue: str = ""
    author: str = ""
    auto: bool = Field(True, description="Turn a year stated in the question into a filter.")


class AskRequest(ChatStartRequest):
    """One ``paperchat ask`` question, as the command line read it, with the options of
    :class:`ChatStartRequest`."""

    question: str = Field(description="The question, already cleaned and trimmed by the client.")
    notice: str = Field("", description="The trimming notice to add to the answer's note ('' when it fit).")


class ChatMessageRequest(BaseModel):
    """One message of a ``paperchat chat`` conversation the process keeps (:meth:`WarmService.chat_start`)."""

    model_config = ConfigDict(extra="forbid")
    session: str = Field(description="The conversation's id, from ``/paperchat/chat/start``.")
    question: str = Field("", description="The message, already cleaned and trimmed by the client.")
    notice: str = Field("", description="The trimming notice to add to the answer's note ('' when it fit).")


class CompareRequest(BaseModel):
    """``paperchat compare FIRST SECOND [MORE...] [--json]``, the references already cleaned."""

    model_config = ConfigDict(extra="forbid")
    first: str
    second: str
    more: list[str] = Field(default_factory=list, description="Further papers (up to five in all).")
    as_json: bool = False


class TableRequest(BaseModel):
    """``paperchat table [TOPIC] [--paper P ...] [--columns ...] [--json | --csv]``, cleaned."""

    model_config = ConfigDict(extra="forbid")
    topic: str = ""
    papers: list[str] = Field(default_factory=list)
    columns: list[str] = Field(default_factory=list)
    as_json: bool = False
    as_csv: bool = False


class SimilarRequest(BaseModel):
    """``paperchat similar PAPER [-k K] [--year/--venue/--author] [--json]``, the reference cleaned."""

    model_config = ConfigDict(extra="forbid")
    paper: str
    k: int = Field(5, ge=1, le=50)
    year: int | None = Field(None, ge=1900, le=2100)
    venue: str = ""
    author: str = ""
    as_json: bool = False


class IngestRequest(BaseModel):
    """``paperchat ingest``: absolute paths (``[]`` = the default corpus) and the options."""

    model_config = ConfigDict(extra="forbid")
    paths: list[str] = Field(default_factory=list)
    field_map: dict[str, str] | None = None
    sync: bool = False
    collection: str | None = None


CHAT_SESSIONS = 32
"""``paperchat chat`` conversations a warm process keeps at once. One is a few kilobytes (its turns);
when more are open, the least recently used is dropped, and its client, told the session is unknown,
opens a new one and asks its earlier messages again (seconds), so the bound costs time, never answers."""


@dataclass
class ChatSession:
    """A ``paperchat chat`` conversation kept by the warm process: its turns and its options."""

    conversation: Conversation
    options: ChatStartRequest


class WarmService:
    """What the routes run on: the process's :class:`~ui.session.Backends` (shared with the page
    when it is the page, so both see the same rebuilds).

    Args:
        backends: The loaded components and the LLM per backend choice.
        info: The advertised process (its token guards the routes).
    """

    def __init__(self, backends: Backends, info: ServerInfo):
        self.backends = backends
        self.info = info
        self._llms: dict[tuple[str, str], ChatLLM | None] = {}
        self._lock = threading.Lock()
        self._chats: OrderedDict[str, ChatSession] = OrderedDict()
        self.served = 0
        """Commands run for the command line (a counter, reported by ``/paperchat/health``)."""

    def count(self) -> None:
        """Count one command served."""
        with self._lock:
            self.served += 1

    def _model(self, asked: str) -> str:
        """The Ollama model a request asked for ('' = the one this process was started with)."""
        return asked or self.backends.components.settings.llm.ollama_model

    def _pipeline(self, backend: str, model: str) -> AnswerPipeline:
        """A pipeline over the current components with the LLM and note ``paperchat ask --llm backend``
        would use in-process (:func:`rag.pipeline.make_llm`; the embedded model is loaded once).

        Raises:
            LLMError: ``ollama`` was asked for and is not usable (the message has the remedy).
        """
        self.backends.refresh()
        c = self.backends.components
        settings = c.settings.model_copy(
            update={"llm": c.settings.llm.model_copy(update={"backend": backend, "ollama_model": model})}
        )
        with self._lock:
            kept = self._llms.get((backend, model)) if backend == "embedded" else None
        llm: ChatLLM | None
        if kept is not None:
            llm, note = kept, "embedded model (--llm embedded)"
        else:
            llm, note = make_llm(settings)
            if backend == "embedded":
                with self._lock:
                    self._llms[(backend, model)] = llm
        return c.answerer(llm, note)

    def ask(self, req: AskRequest) -> dict[str, Any]:
        """Answer as ``paperchat ask`` does (:class:`AskRequest`); see the module docstring for the reply.
        The answer's footer times it from the request's arrival (choosing the LLM and a rebuild after
        a write count as ``loading``)."""
        started = time.perf_counter()
        try:
            pipeline = self._pipeline(req.backend, self._model(req.ollama_model))
        except LLMError as exc:
            return {"error": str(exc), "exit_code": 1}
        filters = Filters(year=req.year, venue=req.venue, author=req.author, auto=req.auto)
        loading = time.perf_counter() - started
        turn = timed_ask(Conversation(pipeline), req.question, started=started, loading=loading, top_k=req.top_k,
                         filters=filters)  # fmt: skip
        ans = turn.answer
        if req.notice:
            ans.note = "; ".join(x for x in (req.notice, ans.note) if x)
        return {"answer": ans.to_dict(), "text": render_answer(ans)}

    def chat_start(self, req: ChatStartRequest) -> dict[str, Any]:
        """Open a ``paperchat chat`` conversation with these options: ``{"session": id}``, or
        ``{"error", "exit_code"}`` when the LLM asked for is not usable (as ``paperchat chat`` stops
        in-process before reading its input). At most :data:`CHAT_SESSIONS` are kept."""
        try:
            pipeline = self._pipeline(req.backend, self._model(req.ollama_model))
        except LLMError as exc:
            return {"error": str(exc), "exit_code": 1}
        session = secrets.token_urlsafe(16)
        with self._lock:
            self._chats[session] = ChatSession(Conversation(pipeline), req)
            while len(self._chats) > CHAT_SESSIONS:
                dropped, _ = self._chats.popitem(last=False)
                log.info("dropped the least recently used chat session %s (%d kept)", dropped[:6], CHAT_SESSIONS)
        return {"session": session}

    def chat(self, req: ChatMessageRequest) -> dict[str, Any] | None:
        """Answer one message in its kept conversation, as ``paperchat chat`` does in-process
        (follow-ups resolve against the session's earlier turns, never another session's).

        Returns:
            ``None`` when the session is unknown (ended, dropped, or the process restarted);
            ``{"error", "exit_code"}`` when the LLM is no longer usable; ``{"failed": reason}`` when
            answering failed (the conversation goes on); else ``{"answer": answer_json(turn), "text":
            the terminal rendering, "interpreted": the question as read when a follow-up was spelled out}``.
        """
        from ui.wire import answer_json

        started = time.perf_counter()
        with self._lock:
            kept = self._chats.get(req.session)
            if kept is not None:
                self._chats.move_to_end(req.session)
        if kept is None:
            return None
        o = kept.options
        try:
            kept.conversation.pipeline = self._pipeline(o.backend, self._model(o.ollama_model))
        except LLMError as exc:
            return {"error": str(exc), "exit_code": 1}
        filters = Filters(year=o.year, venue=o.venue, author=o.author, auto=o.auto)
        try:
            turn = timed_ask(kept.conversation, req.question, started=started, loading=time.perf_counter() - started,
                             top_k=o.top_k, filters=filters)  # fmt: skip
        except Exception as exc:  # noqa: BLE001 - reported to the client; the conversation goes on
            log.warning("answering %r failed", req.question, exc_info=True)
            return {"failed": str(exc) or type(exc).__name__}
        if req.notice:
            turn.answer.note = "; ".join(x for x in (req.notice, turn.answer.note) if x)
        interpreted = turn.interpreted if turn.rewritten else ""
        return {"answer": answer_json(turn), "text": render_comparison(turn), "interpreted": interpreted}

    def chat_end(self, session: str) -> bool:
        """Forget a conversation (its client ended); False when it was not kept."""
        with self._lock:
            return self._chats.pop(session, None) is not None

    def compare(self, req: CompareRequest) -> CommandOutput:
        """Compare as ``paperchat compare`` does (extractive, no LLM)."""
        from ui.wire import table_json

        self.backends.refresh()
        c = self.backends.components
        pipeline = c.answerer(None)  # as `paperchat compare` builds it
        turn = Conversation(pipeline).compare(req.first, req.second, *req.more)
        if not req.as_json:
            out = render_comparison(turn)
        elif turn.table is None:
            out = json.dumps(turn.answer.to_dict(), ensure_ascii=False, indent=2)
        else:
            out = json.dumps(table_json(turn), ensure_ascii=False, indent=2)
        return CommandOutput(stdout=out, exit_code=1 if turn.table is None else 0)

    def table(self, req: TableRequest) -> CommandOutput:
        """A table as ``paperchat table`` makes it (extractive, over the current components)."""
        self.backends.refresh()
        components = self.backends.components
        turn = Conversation(components.pipeline).table(req.topic, req.papers, req.columns)
        out, code = render_table(turn, as_json=req.as_json, as_csv=req.as_csv, papers=components.retriever.papers)
        return CommandOutput(stdout=out, exit_code=code)

    def similar(self, req: SimilarRequest) -> CommandOutput:
        """The papers like one paper as ``paperchat similar`` prints them (over the current components)."""
        from ui.cli_related import similar_output

        self.backends.refresh()
        filters = Filters(year=req.year, venue=req.venue, author=req.author, auto=False)
        turn = Conversation(self.backends.components.pipeline).similar(req.paper, k=req.k, filters=filters)
        return similar_output(turn, req.as_json)

    def ingest(self, req: IngestRequest) -> CommandOutput:
        """Ingest as ``paperchat ingest`` does, under the writer lock, with this process's embedder;
        the components are rebuilt before the next answer (the write count moved)."""
        from rag.pipeline import open_store
        from rag.settings import default_corpus
        from store.home import StoreBusy, WriterLock
        from ui.cli_setup import ingest_report_output, run_ingest

        c = self.backends.components
        settings = c.settings
        paths = [Path(p) for p in req.paths] or [default_corpus()]
        command = "paperchat ingest --sync" if req.sync else "paperchat ingest"
        try:
            with WriterLock(settings.home, command=f"{command} (in the warm process)",
                            timeout=settings.store.lock_timeout):  # fmt: skip
                store = open_store(settings, fresh=True)
                report = run_ingest(settings, store, c.embedder, paths, True, req.field_map, req.sync, req.collection)
        except StoreBusy as exc:
            return CommandOutput(stderr=f"Error: {exc}", exit_code=1)
        out = ingest_report_output(report, settings)
        if report.changed:  # the saved questions, asked again over what this ingest added or updated
            from ui.watching import watch_lines

            self.backends.refresh()
            lines = watch_lines(self.backends.components, report.changed)
            out.stdout = "\n".join([out.stdout, *lines]) if lines else out.stdout
        return out


def _authorized(request: Request, token: str) -> bool:
    given = request.headers.get(TOKEN_HEADER, "")
    return hmac.compare_digest(given.encode(), token.encode())


def add_warm_routes(app: FastAPI, service: WarmService) -> None:
    """Add the ``/paperchat/*`` routes to ``app`` (the API's FastAPI app or the page's Gradio app).

    Routes may be added to an app that is already serving (Starlette reads its route list per request).
    """

    def forbidden() -> JSONResponse:
        return JSONResponse({"error": f"missing or wrong {TOKEN_HEADER} (see <home>/server.json)"}, 403)

    async def health(request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        from rag.pipeline import data_version

        writes = data_version(service.backends.components.settings)[0]
        info = service.info
        return {"pid": os.getpid(), "kind": info.kind, "settings": info.settings, "writes": writes,
                "served": service.served}  # fmt: skip

    def ask(req: AskRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        service.count()
        return service.ask(req)

    def chat_start(req: ChatStartRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        service.count()
        return service.chat_start(req)

    def chat(req: ChatMessageRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        service.count()
        reply = service.chat(req)
        if reply is None:
            return JSONResponse({"error": "unknown chat session (ended, dropped or the process restarted)"}, 404)
        return reply

    def chat_end(req: ChatMessageRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        return {"ended": service.chat_end(req.session)}

    def compare(req: CompareRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        service.count()
        return service.compare(req)

    def table(req: TableRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        service.count()
        return service.table(req)

    def similar(req: SimilarRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        service.count()
        return service.similar(req)

    def ingest(req: IngestRequest, request: Request):
        if not _authorized(request, service.info.token):
            return forbidden()
        service.count()
        return service.ingest(req)

    app.add_api_route("/paperchat/health", health, methods=["GET"], include_in_schema=False)
    app.add_api_route("/paperchat/ask", ask, methods=["POST"], include_in_schema=False)
    app.add_api_route("/paperchat/chat/start", chat_start, methods=["POST"], include_in_schema=False)
    app.add_api_route("/paperchat/chat", chat, methods=["POST"], include_in_schema=False)
    app.add_api_route("/paperchat/chat/end", chat_end, methods=["POST"], include_in_schema=False)
    app.add_api_route("/paperchat/compare", compare, methods=["POST"], include_in_schema=False)
    app.add_api_route("/paperchat/table", table, methods=["POST"], include_in_schema=False)
    app.add_api_route("/paperchat/similar", similar, methods=["POST"], include_in_schema=False)
    app.add_api_route("/paperchat/ingest", ingest, methods=["POST"], include_in_schema=False)


def serve_advertised(app: FastAPI, library: Library, settings: Settings, host: str, port: int) -> None:
    """Serve ``app`` (``paperchat serve``) with the ``/paperchat/*`` routes until Ctrl+C (uvicorn in
    this thread), keeping the discovery file from when it accepts connections until it stops (unless
    another warm process that answers already holds it: :func:`ui.discovery.write_discovery`)."""
    import uvicorn

    info = new_server_info(settings, host, port, "api")
    add_warm_routes(app, WarmService(Backends(library.components, ""), info))
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))
    kept = contextlib.ExitStack()

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            kept.enter_context(advertise(settings.home, info))

    threading.Thread(target=announce, name="paperchat-advertise", daemon=True).start()
    if threading.current_thread() is threading.main_thread():
        # uvicorn stops gracefully on SIGTERM, then raises it again: end with SystemExit, not the
        # default action, so the discovery file is removed below.
        signal.signal(signal.SIGTERM, lambda signum, _frame: sys.exit(128 + signum))
    try:
        server.run()
    finally:
        server.should_exit = True
        kept.close()
