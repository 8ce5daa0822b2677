"""A stand-in Ollama server for tests: Ollama's REST protocol over real HTTP, no model.

Standard library only. It speaks what ``ollama serve`` speaks (docs/api.md of
ollama/ollama), on 127.0.0.1 at a free port:

* ``GET /`` and ``HEAD /`` -> ``Ollama is running``; ``GET /api/version``.
* ``GET /api/tags`` -> ``{"models": [{"name", "model", "modified_at", "size", "digest", "details"}]}``.
* ``POST /api/show`` -> model details, or 404 for a model that is not pulled.
* ``POST /api/chat`` -> NDJSON stream (``application/x-ndjson``, chunked transfer encoding),
  one ``{"model", "created_at", "message": {"role": "assistant", "content"}, "done": false}``
  per piece and a final ``{"done": true, "done_reason", "total_duration", ...}``; with
  ``"stream": false`` one object holding the whole message. A model that is not pulled gets
  HTTP 404 ``{"error": "model 'X' not found"}``. Failures can be staged: a model listed in
  ``errors`` answers with that HTTP status and ``{"error": message}``, and a ``{"error": ...}``
  dict among the reply pieces is sent as a line of the stream (as Ollama reports a runner
  that dies mid-reply).

How a reply ends can be staged with ``mode`` (what the adapter must treat as incomplete):

* ``"normal"``: every piece, then the final ``done: true`` object;
* ``"cut_without_done"``: every piece, then the stream ends cleanly without the final object;
* ``"cut_mid_body"``: every piece, then half of one more chunk and the connection is closed;
* ``"trickle"``: the pieces again and again, ``chunk_delay`` apart, never done;
* ``"slow_first_byte"``: like ``"normal"`` after ``first_byte_delay`` seconds of silence.

A piece stands for one token: ``options.num_predict`` caps the pieces sent (then
``done_reason`` is ``"length"``). The final message carries Ollama's usage fields as the real server
sends them (docs.ollama.com/api/usage: ``total_duration``, ``load_duration``,
``prompt_eval_count``, ``prompt_eval_duration``, ``eval_count``, ``eval_duration``, durations in
nanoseconds); ``prompt_eval_count`` counts the messages' characters / 4 (about what Llama-3's
tokenizer makes of English), and with ``rates`` the durations are those a model reading and
writing at those tokens per second would report (a small CPU's, without waiting for it).
Between pieces the server waits ``chunk_delay`` seconds
and watches the socket, so a client that hangs up mid-stream is noticed (as Ollama notices
it and stops generating) and recorded in :attr:`OllamaStandin.streams`.

Example:
    with OllamaStandin(models=["llama3.2:3b"], reply="Hello there") as server:
        llm = OllamaLLM(host=server.host, model="llama3.2:3b")
        "".join(llm.stream([{"role": "user", "content": "hi"}]))
        server.chat_requests[-1]["options"]["num_ctx"]
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import select
import socket
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["MODES", "OllamaStandin", "StreamRecord", "echo_sources", "free_port", "split_words"]

Reply = str | Sequence[str | dict[str, Any]]
ReplySource = Reply | Callable[[list[dict[str, Any]]], Reply]

VERSION = "0.12.6"

MODES = ("normal", "cut_without_done", "cut_mid_body", "trickle", "slow_first_byte")
"""How a streamed ``/api/chat`` reply ends (see :class:`OllamaStandin`)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (right now)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def split_words(text: str) -> list[str]:
    """Split ``text`` into word-sized pieces that join back to it exactly."""
    return re.findall(r"\s*\S+|\s+$", text) or ([text] if text else [])


_SOURCE_LINE = re.compile(r"^\[(\d+)\] [^:\n]+: (.+)$", re.M)


def echo_sources(messages: list[dict[str, Any]]) -> str:
    """A reply that paperchat's claim checks accept: for each source listed between the prompt's
    ``<sources>`` tags (``[k] <label>: <sentences>``), its first evidence sentence cited ``[k]``.
    It stands for a model that writes only what its sources state; no answer is hard-coded."""
    user = next((str(m.get("content", "")) for m in reversed(messages) if m.get("role") == "user"), "")
    block = user.split("<sources>", 1)[-1].split("</sources>", 1)[0]
    out = []
    for number, sentences in _SOURCE_LINE.findall(block):
        first = re.split(r"(?<=[.!?])\s+(?=[A-Z])", sentences.strip())[0].rstrip(" .")
        out.append(f"{first} [{number}].")
    return " ".join(out)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def _full_name(model: str) -> str:
    """Ollama's name normalisation: a name without a tag means ``:latest``."""
    return model if ":" in model.rsplit("/", 1)[-1] else f"{model}:latest"


@dataclass
class StreamRecord:
    """What happened to one ``/api/chat`` reply.

    Attributes:
        model: Model name of the request.
        planned: Pieces the reply would have had.
        sent: Pieces written to the client.
        completed: The final ``done: true`` object was written.
        client_disconnected: The client hung up before the end.
        finished: Set when the server is done with this reply (either way).
    """

    model: str
    planned: int
    sent: int = 0
    completed: bool = False
    client_disconnected: bool = False
    finished: threading.Event = field(default_factory=threading.Event)


class _ClientGone(Exception):
    pass


class _Server(ThreadingHTTPServer):
    """The HTTP server, quiet when a client closes a kept-alive connection it is waiting on (as
    ``ollama.Client.close`` does): Ollama does not complain of it either."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class OllamaStandin:
    """Stand-in Ollama HTTP server, used as a context manager.

    Args:
        models: Names of the "pulled" models (a name without a tag gets ``:latest``).
        reply: The assistant's reply: a string (sent word by word), a list of pieces (sent
            as given; a ``{"error": ...}`` dict is sent as an error line), or a callable from
            the request's ``messages`` to either.
        chunk_delay: Seconds to wait before each streamed piece (a slow model).
        errors: Model name -> (HTTP status, message): ``/api/chat`` for that model fails so.
        mode: How a streamed reply ends: one of :data:`MODES` (see the module doc).
        first_byte_delay: Seconds before the response starts, in ``"slow_first_byte"`` mode.
        port: TCP port on 127.0.0.1 (0: a free one), e.g. one a page was told Ollama listens on
            before Ollama started.
        rates: ``(prompt tokens/s, output tokens/s)`` the usage durations are computed from
            (``None``: the stand-in's own elapsed time).

    Attributes:
        host: Base URL, e.g. ``"http://127.0.0.1:54321"`` (once started).
        requests: Every request received, as ``{"method", "path", "body"}`` (body parsed
            from JSON, or None).
        streams: One :class:`StreamRecord` per ``/api/chat`` request that produced a reply.
    """

    def __init__(
        self,
        models: Sequence[str] = ("llama3.2:3b",),
        reply: ReplySource = "Hello from Ollama.",
        *,
        chunk_delay: float = 0.0,
        errors: Mapping[str, tuple[int, str]] | None = None,
        mode: str = "normal",
        first_byte_delay: float = 1.0,
        port: int = 0,
        rates: tuple[float, float] | None = None,
    ):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        self.mode = mode
        self.first_byte_delay = first_byte_delay
        self.rates = rates
        self.models = [_full_name(m) for m in models]
        self.errors = {_full_name(k): v for k, v in (errors or {}).items()}
        self.reply = reply
        self.chunk_delay = chunk_delay
        self.requests: list[dict[str, Any]] = []
        self.streams: list[StreamRecord] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.host = ""
        self.port = port

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> Self:
        """Start serving in a background thread."""
        handler = type("Handler", (_Handler,), {"standin": self})
        self._server = _Server(("127.0.0.1", self.port), handler)
        self._server.daemon_threads = True
        self.host = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; replies still streaming are cut off."""
        self._closing.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- what the tests look at -------------------------------------------------------------

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """Bodies of the ``POST /api/chat`` requests, in order."""
        with self._lock:
            return [r["body"] for r in self.requests if r["path"] == "/api/chat" and r["method"] == "POST"]

    # -- model behaviour ------------------------------------------------------------------

    def has_model(self, name: str) -> bool:
        return _full_name(name) in self.models

    def pieces_for(self, messages: list[dict[str, Any]]) -> list[str | dict[str, Any]]:
        reply = self.reply(messages) if callable(self.reply) else self.reply
        return split_words(reply) if isinstance(reply, str) else list(reply)

    def _record(self, method: str, path: str, body: Any) -> None:
        with self._lock:
            self.requests.append({"method": method, "path": path, "body": body})

    @staticmethod
    def model_entry(name: str) -> dict[str, Any]:
        digest = hashlib.sha256(name.encode()).hexdigest()
        return {
            "name": name,
            "model": name,
            "modified_at": "2025-01-15T10:20:30.123456789Z",
            "size": 2019393189,
            "digest": digest,
            "details": {
                "parent_model": "",
                "format": "gguf",
                "family": "llama",
                "families": ["llama"],
                "parameter_size": "3.2B",
                "quantization_level": "Q4_K_M",
            },
        }


class _Handler(BaseHTTPRequestHandler):
    standin: OllamaStandin
    protocol_version = "HTTP/1.1"
    server_version = "Ollama-standin"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -- plumbing -------------------------------------------------------------------------

    def _read_body(self) -> tuple[bytes, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return raw, json.loads(raw) if raw else None
        except json.JSONDecodeError:
            return raw, None

    def _send_json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _send_text(self, status: int, text: str, head: bool = False) -> None:
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def _error(self, status: int, message: str) -> None:
        self._send_json(status, {"error": message})

    def _client_gone(self, wait: float) -> bool:
        """Wait up to ``wait`` seconds; True as soon as the client has closed the connection."""
        deadline = time.monotonic() + wait
        # poll, not select: in a long test run the socket's descriptor may be above select's
        # FD_SETSIZE (1024), where select.select raises "filedescriptor out of range"
        poller = select.poll()
        poller.register(self.connection, select.POLLIN | select.POLLHUP | select.POLLERR)
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            readable = poller.poll(min(remaining, 0.05) * 1000)
            if readable:
                try:
                    if self.connection.recv(1, socket.MSG_PEEK) == b"":
                        return True
                except OSError:
                    return True
            if self.standin._closing.is_set():
                raise _ClientGone
            if remaining <= 0:
                return False
            if readable:  # data (a pipelined request): just wait out the delay
                time.sleep(min(remaining, 0.05))

    def _write_chunk(self, obj: dict[str, Any]) -> None:
        line = json.dumps(obj).encode() + b"\n"
        try:
            self.wfile.write(b"%x\r\n%s\r\n" % (len(line), line))
            self.wfile.flush()
        except OSError as exc:
            raise _ClientGone from exc

    # -- routes ---------------------------------------------------------------------------

    def do_HEAD(self) -> None:
        self.standin._record("HEAD", self.path, None)
        self._send_text(HTTPStatus.OK, "Ollama is running", head=True)

    def do_GET(self) -> None:
        self.standin._record("GET", self.path, None)
        if self.path == "/":
            self._send_text(HTTPStatus.OK, "Ollama is running")
        elif self.path == "/api/version":
            self._send_json(HTTPStatus.OK, {"version": VERSION})
        elif self.path == "/api/tags":
            self._send_json(HTTPStatus.OK, {"models": [self.standin.model_entry(m) for m in self.standin.models]})
        else:
            self._send_text(HTTPStatus.NOT_FOUND, "404 page not found")

    def do_POST(self) -> None:
        raw, body = self._read_body()
        self.standin._record("POST", self.path, body)
        if self.path not in ("/api/chat", "/api/show"):
            self._send_text(HTTPStatus.NOT_FOUND, "404 page not found")
            return
        if not isinstance(body, dict):
            self._error(HTTPStatus.BAD_REQUEST, "invalid request body" if raw else "missing request body")
            return
        model = body.get("model") or body.get("name") or ""
        if not model:
            self._error(HTTPStatus.BAD_REQUEST, "model is required")
            return
        if not self.standin.has_model(model):
            self._error(HTTPStatus.NOT_FOUND, f"model '{model}' not found")
            return
        if self.path == "/api/show":
            self._show(model)
        elif _full_name(model) in self.standin.errors:
            status, message = self.standin.errors[_full_name(model)]
            self._error(status, message)
        else:
            self._chat(model, body)

    def _show(self, model: str) -> None:
        entry = self.standin.model_entry(_full_name(model))
        self._send_json(
            HTTPStatus.OK,
            {
                "modelfile": f'# Modelfile generated by "ollama show"\nFROM {model}\n',
                "parameters": 'stop                           "<|eot_id|>"',
                "template": "{{ .Prompt }}",
                "details": entry["details"],
                "model_info": {"general.architecture": "llama", "llama.context_length": 131072},
                "capabilities": ["completion"],
                "modified_at": entry["modified_at"],
            },
        )

    def _chat(self, model: str, body: dict[str, Any]) -> None:
        started = time.monotonic_ns()
        messages = list(body.get("messages") or [])
        options = body.get("options") or {}
        pieces = self.standin.pieces_for(messages) if messages else []
        done_reason = "stop" if messages else "load"
        limit = options.get("num_predict")
        if isinstance(limit, int) and 0 <= limit < len(pieces):
            pieces, done_reason = pieces[:limit], "length"
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in messages) // 4
        written = sum(isinstance(p, str) for p in pieces)
        rates = self.standin.rates

        def final(extra: dict[str, Any]) -> dict[str, Any]:
            total = time.monotonic_ns() - started
            if rates:
                reading, writing = int(prompt_tokens / rates[0] * 1e9), int(written / rates[1] * 1e9)
            else:
                reading, writing = total // 4, total // 2
            return {
                "model": model,
                "created_at": _now(),
                **extra,
                "done_reason": done_reason,
                "done": True,
                "total_duration": reading + writing + 1_000_000 if rates else total,
                "load_duration": 1_000_000,
                "prompt_eval_count": prompt_tokens,
                "prompt_eval_duration": reading,
                "eval_count": written,
                "eval_duration": writing,
            }

        record = StreamRecord(model=model, planned=len(pieces))
        with self.standin._lock:
            self.standin.streams.append(record)
        try:
            if body.get("stream") is False:
                if self.standin.chunk_delay:
                    time.sleep(self.standin.chunk_delay * len(pieces))
                failure = next((p for p in pieces if isinstance(p, dict)), None)
                if failure is not None:
                    self._error(HTTPStatus.INTERNAL_SERVER_ERROR, str(failure.get("error")))
                    return
                self._send_json(HTTPStatus.OK, final({"message": {"role": "assistant", "content": "".join(pieces)}}))
                record.sent, record.completed = len(pieces), True
                return
            mode = self.standin.mode
            try:
                if mode == "slow_first_byte" and self._client_gone(self.standin.first_byte_delay):
                    raise _ClientGone
                self.send_response(HTTPStatus.OK)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                stream = itertools.cycle(pieces) if mode == "trickle" and pieces else iter(pieces)
                for piece in stream:
                    if self._client_gone(self.standin.chunk_delay):
                        raise _ClientGone
                    if isinstance(piece, dict):  # a staged failure: Ollama ends the stream with it
                        self._write_chunk(piece)
                        break
                    self._write_chunk(
                        {
                            "model": model,
                            "created_at": _now(),
                            "message": {"role": "assistant", "content": piece},
                            "done": False,
                        }
                    )
                    record.sent += 1
                else:
                    if mode == "cut_mid_body":  # announce a chunk, send half of it, hang up
                        line = json.dumps(final({"message": {"role": "assistant", "content": ""}})).encode()
                        self.wfile.write(b"%x\r\n%s" % (len(line) + 1, line[: len(line) // 2]))
                        self.wfile.flush()
                        self.close_connection = True
                        self.connection.shutdown(socket.SHUT_RDWR)
                        return
                    if mode != "cut_without_done":
                        self._write_chunk(final({"message": {"role": "assistant", "content": ""}}))
                        record.completed = True
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except (_ClientGone, OSError):
                record.client_disconnected = not record.completed
                self.close_connection = True
        finally:
            record.finished.set()
