"""Ollama backend for :class:`rag.llm.clients.ChatLLM`, through the official ``ollama`` Python client.

The server is reached over its REST API (``/api/chat``, ``/api/tags``). Reasoning that
thinking models (qwen3, deepseek-r1, ...) write into the reply as ``<think>...</think>``
is filtered out of the stream, also when a tag is split across chunks; text the server
returns separately in ``message.thinking`` is never read.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import threading
import time
from collections.abc import Iterator, Sequence
from urllib.parse import urlsplit

import httpx
import ollama

from rag.llm.clients import LLMError, LLMIncomplete, LLMUnavailable, Message, ModelNotFound
from rag.types import LLMUsage

__all__ = ["OllamaLLM", "ThinkFilter", "server_usage"]

log = logging.getLogger(__name__)

#: What the ``ollama`` client raises (``ValueError`` covers request validation and bad JSON).
_CLIENT_ERRORS = (ConnectionError, ollama.ResponseError, ollama.RequestError, httpx.HTTPError, ValueError)

#: Average characters per token used by :meth:`OllamaLLM.count_tokens` (English prose,
#: Llama-3/Qwen tokenizers are at about 3.5-4.5; the lower value over-counts, which is safe
#: when packing a prompt into the context window).
CHARS_PER_TOKEN = 3.5


class ThinkFilter:
    """Removes ``<think>...</think>`` blocks from text that arrives in pieces.

    Tags are matched case-insensitively and may be split across pieces; the end of a piece
    that could be the start of a tag is held back until the next piece decides it. Text
    inside an unterminated block is dropped. A stray ``</think>`` is dropped too, and
    whitespace right after a closed block is skipped (models put blank lines there).

    Example:
        >>> f = ThinkFilter()
        >>> [f.feed(p) for p in ["Hi <th", "ink>plan</thi", "nk>\\n\\nthere"]] + [f.flush()]
        ['Hi ', '', 'there', '']
    """

    OPEN = "<think>"
    CLOSE = "</think>"

    def __init__(self) -> None:
        self._buffer = ""
        self._inside = False
        self._skip_space = False

    @staticmethod
    def _partial_tail(text: str, tags: Sequence[str]) -> int:
        """Length of the longest end of ``text`` that is a proper prefix of one of ``tags``."""
        lowered = text.lower()
        for size in range(min(len(text), max(map(len, tags)) - 1), 0, -1):
            tail = lowered[-size:]
            if any(tag.startswith(tail) and len(tag) > size for tag in tags):
                return size
        return 0

    def feed(self, piece: str) -> str:
        """Add the next piece of the reply; return the part of it that is safe to show."""
        self._buffer += piece
        out: list[str] = []
        while self._buffer:
            lowered = self._buffer.lower()
            if self._inside:
                end = lowered.find(self.CLOSE)
                if end < 0:
                    keep = self._partial_tail(self._buffer, [self.CLOSE])
                    self._buffer = self._buffer[len(self._buffer) - keep :] if keep else ""
                    break
                self._buffer = self._buffer[end + len(self.CLOSE) :]
                self._inside = False
                self._skip_space = True
                continue
            if self._skip_space:
                self._buffer = self._buffer.lstrip()
                if not self._buffer:
                    break
                self._skip_space = False
            starts = [i for i in (lowered.find(self.OPEN), lowered.find(self.CLOSE)) if i >= 0]
            if not starts:
                keep = self._partial_tail(self._buffer, [self.OPEN, self.CLOSE])
                cut = len(self._buffer) - keep
                out.append(self._buffer[:cut])
                self._buffer = self._buffer[cut:]
                break
            at = min(starts)
            out.append(self._buffer[:at])
            if lowered.startswith(self.OPEN, at):
                self._buffer = self._buffer[at + len(self.OPEN) :]
                self._inside = True
            else:  # a closing tag without an opening one: drop the tag itself
                self._buffer = self._buffer[at + len(self.CLOSE) :]
                self._skip_space = True
        return "".join(out)

    def flush(self) -> str:
        """End of the reply: return held-back text that turned out not to be a tag."""
        rest = "" if self._inside else self._buffer
        self._buffer = ""
        return rest


def server_usage(final: ollama.ChatResponse, usage: LLMUsage) -> None:
    """Copy Ollama's own counts and timings of a finished reply (its final ``"done": true``
    message; durations in nanoseconds, see docs.ollama.com/api/usage) into ``usage``, in seconds.
    A field the server left out stays ``None``."""

    def seconds(ns: int | None) -> float | None:
        return ns / 1e9 if ns is not None else None

    usage.prompt_eval_count = final.prompt_eval_count
    usage.prompt_eval_seconds = seconds(final.prompt_eval_duration)
    usage.eval_count = final.eval_count
    usage.eval_seconds = seconds(final.eval_duration)
    usage.load_seconds = seconds(final.load_duration)
    usage.total_seconds = seconds(final.total_duration)


def _is_loopback(host: str) -> bool:
    hostname = urlsplit(host if "://" in host else f"http://{host}").hostname or ""
    if hostname == "localhost":
        return True
    try:
        return ipaddress.ip_address(hostname).is_loopback
    except ValueError:
        return False


class OllamaLLM:
    """A model served by a running Ollama server (``ollama serve``).

    Args:
        host: Base URL of the Ollama server.
        model: Name of a pulled model, as ``ollama list`` shows it (``"llama3.2:3b"``;
            a name without a tag means ``:latest``).
        context_tokens: Context window to request from the server (``num_ctx``), in tokens.
            Ollama's own default is much smaller (2,048-4,096 tokens) and would silently
            truncate long prompts.
        timeout: Connect/read timeout of each HTTP request, in seconds; while streaming it
            bounds the wait for the next piece, not the whole reply.
        deadline: Longest one reply may take in total, in seconds (``llm.deadline``). The wait
            for each piece is also capped by it, so a reply ends at most one wait after the
            deadline, and within the deadline when the server stalls or trickles.

    Attributes:
        name: ``"ollama:<model>"``.
        context_tokens: As given.
        host: As given.
        model: As given.
        timeout: As given.
    """

    def __init__(
        self,
        host: str = "http://127.0.0.1:11434",
        model: str = "llama3.2:3b",
        *,
        context_tokens: int = 8192,
        timeout: float = 120.0,
        deadline: float = 300.0,
    ):
        if not model:
            raise ValueError("model must name an Ollama model, e.g. 'llama3.2:3b'")
        self.host = host
        self.model = model
        self.name = f"ollama:{model}"
        self.context_tokens = context_tokens
        self.timeout = timeout
        self.deadline = deadline
        self._client = self._make_client(httpx.Timeout(timeout, read=min(timeout, deadline)))

    def _make_client(self, timeout: float | httpx.Timeout) -> ollama.Client:
        # Never send requests for a local server through an HTTP(S)_PROXY from the environment.
        return ollama.Client(host=self.host, timeout=timeout, trust_env=not _is_loopback(self.host))

    def __repr__(self) -> str:
        return f"OllamaLLM(host={self.host!r}, model={self.model!r}, context_tokens={self.context_tokens})"

    # -- errors -----------------------------------------------------------------------------

    def _unavailable(self) -> LLMUnavailable:
        return LLMUnavailable(
            f"Ollama is not running at {self.host} — start it with `ollama serve`, "
            "or answer without an LLM (`--llm none`)"
        )

    def _not_found(self) -> ModelNotFound:
        return ModelNotFound(
            f"Ollama has no model '{self.model}' — run `ollama pull {self.model}`, "
            "or choose another with --ollama-model"
        )

    def _translate(self, exc: Exception) -> LLMError:
        """Map an exception from the ``ollama``/``httpx`` client to an :class:`LLMError`."""
        if isinstance(exc, LLMError):
            return exc
        if isinstance(exc, (ConnectionError, httpx.ConnectError, httpx.ConnectTimeout)):
            return self._unavailable()
        if isinstance(exc, ollama.ResponseError):
            message = str(exc.error)
            if exc.status_code == 404 or "not found" in message.lower():
                return self._not_found()
            return LLMError(f"Ollama at {self.host} answered with an error: {message} (HTTP {exc.status_code})")
        if isinstance(exc, httpx.TimeoutException):
            return LLMError(
                f"Ollama at {self.host} did not answer within {self.timeout:g} s — the model may still be "
                "loading; try again, raise the timeout, or choose a smaller model with --ollama-model"
            )
        if isinstance(exc, httpx.HTTPError):
            return LLMError(
                f"The connection to Ollama at {self.host} failed: {exc}. Check that `ollama serve` is healthy."
            )
        if isinstance(exc, ollama.RequestError):
            return LLMError(f"Invalid request for Ollama: {exc.error}")
        if isinstance(exc, ValueError):  # pydantic validation of the request, or a reply that is not JSON
            return LLMError(f"Ollama at {self.host}: unusable request or reply: {exc}")
        return LLMError(f"Ollama at {self.host} failed: {exc}")

    # -- ChatLLM ----------------------------------------------------------------------------

    def count_tokens(self, text: str) -> int:
        """Estimate how many tokens ``text`` takes.

        Ollama has no tokenize endpoint, so this is ``ceil(len(text) / 3.5)``: an estimate
        that errs on the high side for English prose, not the model's exact count.

        Args:
            text: Any text.

        Returns:
            Estimated number of tokens.
        """
        return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0

    def stream(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        stop: threading.Event | None = None,
        usage: LLMUsage | None = None,
    ) -> Iterator[str]:
        """Yield the reply in pieces as the server generates them.

        ``<think>...</think>`` reasoning is never yielded. When ``stop`` is set (checked as
        each piece arrives), or the caller stops iterating, the HTTP response is closed and
        Ollama stops generating.

        Args:
            messages: The chat so far (``role``/``content`` dicts).
            max_tokens: Most tokens to generate (``num_predict``).
            temperature: Sampling temperature; 0 is (near-)deterministic.
            stop: Set it from another thread to end generation early.
            usage: Filled in place from Ollama's final message (``prompt_eval_count``,
                ``eval_count`` and the durations, :func:`server_usage`); left as it is when the
                reply never finished.

        Yields:
            Non-empty pieces of the reply text.

        Raises:
            LLMUnavailable: no Ollama server answers at ``host``.
            ModelNotFound: the model is not pulled into this server.
            LLMIncomplete: the reply did not finish: the stream ended without Ollama's final
                ``"done": true`` message, the connection was cut or stalled after the reply
                began, or ``deadline`` seconds passed. Its ``partial`` holds what was received.
            LLMError: any other server or connection failure (including a timeout of
                ``timeout`` seconds before the reply began), with the server's message.
        """
        if stop is not None and stop.is_set():
            return
        think = ThinkFilter()
        chunks = None
        t0 = time.monotonic()
        said: list[str] = []
        began = done = False
        try:
            chunks = self._client.chat(
                model=self.model,
                messages=[{"role": m["role"], "content": m["content"]} for m in messages],
                stream=True,
                options={"num_ctx": self.context_tokens, "num_predict": max_tokens, "temperature": temperature},
            )
            for chunk in chunks:
                began = True
                if stop is not None and stop.is_set():
                    return
                message = chunk.message
                piece = think.feed(message.content or "") if message is not None else ""
                if piece:
                    said.append(piece)
                    yield piece
                if chunk.done:
                    done = True
                    if usage is not None:
                        server_usage(chunk, usage)
                    break
                if time.monotonic() - t0 > self.deadline:
                    raise LLMIncomplete(self._deadline_reason(), "".join(said))
            if stop is not None and stop.is_set():
                return
            if not done:
                raise LLMIncomplete("the stream ended without Ollama's final message", "".join(said))
            rest = think.flush()
            if rest:
                yield rest
        except LLMIncomplete:
            raise
        except _CLIENT_ERRORS as exc:
            if stop is not None and stop.is_set():
                return
            if time.monotonic() - t0 >= self.deadline - 0.05 and isinstance(exc, httpx.TimeoutException):
                raise LLMIncomplete(self._deadline_reason(), "".join(said)) from exc
            if began and isinstance(exc, (httpx.TransportError, httpx.StreamError)):
                what = "stalled" if isinstance(exc, httpx.TimeoutException) else "was cut"
                raise LLMIncomplete(f"the connection to Ollama {what} mid-reply", "".join(said)) from exc
            if began and isinstance(exc, ValueError):  # a last line cut short is not JSON
                raise LLMIncomplete("Ollama's reply was cut mid-message", "".join(said)) from exc
            if isinstance(exc, httpx.RemoteProtocolError):
                raise LLMIncomplete("the connection to Ollama was cut before the reply", "") from exc
            raise self._translate(exc) from exc
        finally:
            if chunks is not None:
                # a generator (the stubs say Iterator): closing it leaves the client's `with stream(...)`,
                # which closes the response
                chunks.close()  # type: ignore[attr-defined]

    def _deadline_reason(self) -> str:
        return f"no complete reply within {self.deadline:g} s (llm.deadline)"

    # -- server checks ----------------------------------------------------------------------

    def ping(self, timeout: float = 2.0) -> bool:
        """Whether an Ollama server answers at ``host`` (``GET /api/tags``).

        Args:
            timeout: How long to wait for the answer, in seconds.

        Returns:
            True if the server answered; never raises.
        """
        client = self._make_client(timeout)
        try:
            client.list()
            return True
        except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
            log.debug("Ollama ping to %s failed: %s", self.host, exc)
            return False
        finally:
            client.close()

    def list_models(self) -> list[str]:
        """Names of the models pulled into the server (as ``ollama list`` shows them).

        Returns:
            Model names such as ``"llama3.2:3b"``, in the server's order.

        Raises:
            LLMUnavailable: no Ollama server answers at ``host``.
            LLMError: the server answered with an error.
        """
        try:
            listing = self._client.list()
        except _CLIENT_ERRORS as exc:
            raise self._translate(exc) from exc
        return [m.model for m in listing.models if m.model]

    def check(self) -> None:
        """Fail early, with a remedy, unless the server runs and has the model.

        Raises:
            LLMUnavailable: no Ollama server answers at ``host``.
            ModelNotFound: the model is not pulled into this server.
        """
        wanted = self.model if ":" in self.model else f"{self.model}:latest"
        if wanted not in self.list_models():
            raise self._not_found()

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()
