"""paperchat as an OpenAI-compatible HTTP API (``paperchat serve``): ``POST /v1/chat/completions``
(plain and streamed) and ``GET /v1/models``, on FastAPI + uvicorn; beside them, paperchat's own
``GET /v1/similar`` (the papers like one paper), ``GET|POST|DELETE /v1/watches`` (saved questions) and
``POST /v1/related-work`` (a related-work draft with the user's citation keys, :mod:`ui.related_work`).

A chat client (Open WebUI, the ``openai`` Python client) sends the whole conversation with every
request. Its user messages go through one :class:`rag.route.conversation.Conversation`, so "what
datasets does it use?" resolves to the paper cited before: the conversation after each reply is
kept under the user messages that led to it (``api.conversations`` of them, least recently used
dropped first; a dropped or unknown one is rebuilt by answering its earlier user messages again).
A kept conversation is taken by one request at a time, so no state is shared between callers.

The reply's ``content`` is the answer text with ``[n]`` markers, then the sources. The same answer
as ``paperchat ask --json`` prints it (citations with evidence spans, ``refused``...) is in the
extra field ``paperchat`` of the response (of the last chunk when streamed); OpenAI's ``usage`` holds the
tokens of the LLM replies the answer made (zeros without an LLM, :func:`ui.wire.openai_usage`), in a
streamed reply only when ``stream_options.include_usage`` asks for it, as OpenAI sends it. A streamed reply
sends its first chunk at once and the text once the answer is checked (markers validated), so no
text is ever taken back.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from typing import Any

import uvicorn
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from rag.route.conversation import Conversation, Turn
from rag.route.filters import Filters
from store.watches import WatchError
from ui.render import sources_text
from ui.service import Library
from ui.wire import answer_json, openai_usage, watch_json

__all__ = ["ChatRequest", "Conversations", "RelatedWorkRequest", "create_app", "reply_content", "start"]

KEEP_ALIVE = 10.0
"""Seconds between SSE comments while a streamed answer is being made (keeps proxies from closing)."""

API_AUTO_HINT = 'remove with "paperchat": {"auto": false}'
"""How an API client undoes an automatic filter (the request's extra field); shown in the answer's note."""


class Message(BaseModel):
    """One message of the conversation (OpenAI's shape; ``content`` a string or text parts)."""

    model_config = ConfigDict(extra="allow")
    role: str
    content: str | list[dict[str, Any]] | None = None

    def text(self) -> str:
        """The message's text (text parts joined by blank lines; other parts ignored)."""
        if isinstance(self.content, str):
            return self.content
        parts = [p.get("text", "") for p in self.content or [] if p.get("type") == "text"]
        return "\n\n".join(x for x in parts if isinstance(x, str))


class PaperchatOptions(BaseModel):
    """Filters for the whole request, in the extra field ``paperchat`` (``extra_body`` of the openai client)."""

    model_config = ConfigDict(extra="forbid")
    year: int | None = Field(None, ge=1900, le=2100, description="Only papers of this year.")
    venue: str = Field("", description="Only papers whose venue contains this (case-insensitive).")
    author: str = Field("", description="Only papers with an author whose name contains this.")
    auto: bool = Field(
        True,
        description="Also take a year, venue or author the question states as a filter ('papers from 2022 on "
        "...'), as `paperchat ask` and the page do; the answer's note names it.",
    )


class StreamOptions(BaseModel):
    """OpenAI's ``stream_options`` of a streamed request."""

    model_config = ConfigDict(extra="allow")
    include_usage: bool = Field(False, description="Send the reply's token usage in a last chunk before [DONE].")


class ChatRequest(BaseModel):
    """``POST /v1/chat/completions``; OpenAI's sampling options (temperature...) are accepted and ignored."""

    model_config = ConfigDict(extra="allow")
    model: str = ""
    messages: list[Message] = Field(min_length=1)
    stream: bool = False
    stream_options: StreamOptions | None = None
    paperchat: PaperchatOptions = Field(default_factory=PaperchatOptions)

    def user_messages(self) -> list[str]:
        """The texts of the user messages, in order (system and assistant messages are not questions)."""
        return [m.text() for m in self.messages if m.role == "user"]


class WatchRequest(BaseModel):
    """``POST /v1/watches``: the question to save."""

    model_config = ConfigDict(extra="forbid")
    question: str = Field(min_length=1, description="The question, e.g. 'reinforcement learning for LLM agents'.")


class Conversations:
    """Conversations kept for follow-ups, keyed by the user messages (and filters) that led to them.

    Args:
        library: Answers the messages.
        size: Most conversations kept (0 keeps none: every request replays its earlier messages).
    """

    def __init__(self, library: Library, size: int):
        self.library = library
        self.size = size
        self._kept: OrderedDict[tuple, Conversation] = OrderedDict()
        self._lock = threading.Lock()
        self.replayed = 0
        """User messages answered again because their conversation was not kept (a counter)."""

    def answer(self, users: Sequence[str], filters: Filters, stop: threading.Event | None = None) -> Turn:
        """Answer the last of ``users`` in the conversation of the earlier ones.

        Raises:
            ValueError: ``users`` is empty.
        """
        if not users:
            raise ValueError("the messages hold no user message to answer")
        scope = (filters.year, filters.venue, filters.author)
        with self._lock:
            conv = self._kept.pop((scope, *users[:-1]), None)
        if conv is None:
            conv = self.library.conversation()
            for earlier in users[:-1]:
                self.library.ask(earlier, conversation=conv, filters=filters)
                self.replayed += 1
        turn = self.library.ask(users[-1], conversation=conv, filters=filters, stop=stop)
        if self.size:
            with self._lock:
                self._kept[(scope, *users)] = conv
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        return turn


def reply_content(turn: Turn) -> str:
    """The assistant message: the answer text (``[n]`` markers), then the sources when it cites any."""
    sources = sources_text(turn.citations)
    return turn.answer.text.rstrip() + (f"\n\n{sources}" if sources else "")


class RelatedWorkRequest(BaseModel):
    """``POST /v1/related-work``: the topic, ``latex`` or ``markdown``, and the user's ``.bib`` text (optional)."""

    model_config = ConfigDict(extra="forbid")
    topic: str = Field(min_length=1)
    format: str = "latex"
    bib: str = ""


def _error(status: int, message: str, kind: str = "invalid_request_error", code: str | None = None) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "param": None, "code": code}}, status)


def create_app(library: Library, *, api_key: str = "", model: str = "paperchat", conversations: int = 256) -> FastAPI:
    """The FastAPI app.

    Args:
        library: The loaded pipeline every request is answered with.
        api_key: When not empty, every request must send ``Authorization: Bearer <api_key>`` (else 401).
        model: The one model name listed and accepted (``api.model``).
        conversations: Conversations kept for follow-ups (``api.conversations``).
    """
    app = FastAPI(title="paperchat", description="Cited answers over ML paper abstracts (OpenAI-compatible).")
    app.state.conversations = Conversations(library, conversations)
    created = int(time.time())

    @app.middleware("http")
    async def authorize(request: Request, call_next):
        if api_key and not request.url.path.startswith("/paperchat/"):  # those check the discovery token
            given = request.headers.get("authorization", "")
            scheme, _, token = given.partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(token.strip().encode(), api_key.encode()):
                return _error(
                    401,
                    "Incorrect or missing API key: send 'Authorization: Bearer <key>' with the key the server was "
                    "started with (openai client: OpenAI(api_key=...)).",
                    code="invalid_api_key",
                )
        return await call_next(request)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        where = "; ".join(f"{'.'.join(str(x) for x in e['loc'][1:])}: {e['msg']}" for e in exc.errors())
        return _error(400, f"Malformed request ({where}); see the OpenAI chat completions request shape.")

    def model_card() -> dict[str, Any]:
        return {"id": model, "object": "model", "created": created, "owned_by": "paperchat"}

    @app.get("/v1/models")
    def list_models() -> dict[str, Any]:
        return {"object": "list", "data": [model_card()]}

    @app.get("/v1/models/{name}")
    def get_model(name: str):
        if name != model:
            return _error(404, f"No model '{name}': this server answers as '{model}'.", code="model_not_found")
        return model_card()

    @app.get("/v1/similar")
    async def similar(
        paper: str = Query(description="The paper: a name, an id or a short description."),
        k: int = Query(5, ge=1, le=50, description="How many related papers."),
        year: int | None = Query(None, ge=1900, le=2100, description="Only related papers of this year."),
        venue: str = Query("", description="Only related papers whose venue contains this."),
        author: str = Query("", description="Only related papers with an author whose name contains this."),
    ):
        """The papers nearest to one paper, as ``paperchat similar --json`` prints them (its
        ``similar`` field: sentence pairs and shared terms); turn ``clarify`` when the paper is unclear."""
        filters = Filters(year=year, venue=venue.strip(), author=author.strip(), auto=False)
        try:
            turn = await asyncio.get_running_loop().run_in_executor(
                None, lambda: library.similar(paper, k=k, filters=filters)
            )
        except ValueError as exc:
            return _error(400, str(exc))
        return answer_json(turn)

    @app.get("/v1/watches")
    def list_watches() -> dict[str, Any]:
        """The saved questions, in the order saved, with the papers each has reported."""
        return {"watches": [watch_json(w) for w in library.watches.load()]}

    @app.post("/v1/watches")
    def add_watch(req: WatchRequest):
        """Save a question: every ingest then asks it again over the papers it added or updated."""
        try:
            w, added = library.watches.add(req.question)
        except WatchError as exc:
            return _error(400, str(exc))
        return {"watch": watch_json(w), "added": added}

    @app.delete("/v1/watches")
    def remove_watch(question: str = Query(description="The saved question's text or number (from 1).")):
        """Remove a saved question."""
        try:
            return {"removed": watch_json(library.watches.remove(question))}
        except WatchError as exc:
            return _error(404, str(exc), code="watch_not_found")

    @app.post("/v1/chat/completions")
    async def chat(req: ChatRequest):
        if req.model and req.model != model:
            return _error(404, f"No model '{req.model}': this server answers as '{model}'.", code="model_not_found")
        users = req.user_messages()
        if not req.messages or req.messages[-1].role != "user" or not users:
            return _error(400, "The last message must be the user's question (role 'user').")
        o = req.paperchat
        filters = Filters(
            year=o.year, venue=o.venue.strip(), author=o.author.strip(), auto=o.auto, auto_hint=API_AUTO_HINT
        )
        cid, now = f"chatcmpl-{uuid.uuid4().hex}", int(time.time())
        stop = threading.Event()
        conv: Conversations = app.state.conversations
        loop = asyncio.get_running_loop()
        if not req.stream:
            turn = await loop.run_in_executor(None, conv.answer, users, filters, stop)
            return {
                "id": cid,
                "object": "chat.completion",
                "created": now,
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply_content(turn)},
                        "finish_reason": "stop",
                        "logprobs": None,
                    }
                ],
                "usage": openai_usage(turn),
                "paperchat": answer_json(turn),
            }

        def chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> str:
            body = {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": now,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
                **extra,
            }
            return f"data: {json.dumps(body, ensure_ascii=False)}\n\n"

        async def events() -> AsyncIterator[str]:
            future = loop.run_in_executor(None, conv.answer, users, filters, stop)
            try:
                yield chunk({"role": "assistant", "content": ""})
                while True:
                    done, _ = await asyncio.wait({future}, timeout=KEEP_ALIVE)
                    if done:
                        break
                    yield ": answering\n\n"
                turn = future.result()
                for piece in _pieces(reply_content(turn)):
                    yield chunk({"content": piece})
                yield chunk({}, "stop", paperchat=answer_json(turn))
                if req.stream_options is not None and req.stream_options.include_usage:
                    body = {"id": cid, "object": "chat.completion.chunk", "created": now, "model": model,
                            "choices": [], "usage": openai_usage(turn)}  # fmt: skip
                    yield f"data: {json.dumps(body)}\n\n"
                yield "data: [DONE]\n\n"
            finally:
                stop.set()  # a client that hangs up stops the LLM's generation

        return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    @app.post("/v1/related-work")
    async def related_work(req: RelatedWorkRequest):
        """A related-work draft (:meth:`ui.service.Library.related_work`): its text, .bib and groups."""
        from ui.related_work import CitationError

        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                None, lambda: library.related_work(req.topic, fmt=req.format, bib=req.bib or None)
            )
        except CitationError as exc:
            return _error(500, f"the draft's citations do not resolve: {exc}", kind="server_error")
        except ValueError as exc:
            return _error(400, str(exc))

    return app


def _pieces(text: str, size: int = 48) -> list[str]:
    """``text`` cut after whitespace into pieces of about ``size`` characters (concatenation == text)."""
    out, start = [], 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            space = text.rfind(" ", start + 1, end + 1)
            end = space + 1 if space > start else end
        out.append(text[start:end])
        start = end
    return out


def start(app: FastAPI, host: str, port: int, *, block: bool = True) -> uvicorn.Server:
    """Serve ``app`` with uvicorn; ``block=False`` returns once it accepts connections, with the server
    in a background thread (tests; set ``server.should_exit = True`` to stop it).

    Raises:
        RuntimeError: the server did not start within 30 s (port taken, for instance).
    """
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False))
    if block:
        server.run()
        return server
    thread = threading.Thread(target=server.run, name="paperchat-api", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the API server did not start on {host}:{port} (is the port taken?)")
        time.sleep(0.05)
    return server
