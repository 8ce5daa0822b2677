"""A value built in a background thread, waited for by whoever needs it first.

A server that must answer its handshake before its collection is loaded (``paperchat mcp``:
``initialize`` comes back before the embedder and the store are loaded) starts the load with
:meth:`Deferred.start` and serves; each call that needs the collection waits in :meth:`Deferred.get`.
Light on purpose: importing this module loads nothing of the pipeline.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Generic, TypeVar

__all__ = ["Deferred", "NotLoaded"]

log = logging.getLogger(__name__)

T = TypeVar("T")


class NotLoaded(RuntimeError):
    """Building the value failed; the message is the builder's (it says how to fix it)."""


class Deferred(Generic[T]):
    """``build()`` run once in a background thread; :meth:`get` waits for its result.

    A build that raised is reported by :meth:`get` as :class:`NotLoaded` and started again by the
    next :meth:`get` (the user may have fixed the cause meanwhile: an empty data directory
    ingested, a busy writer gone). Used as a context manager, leaving the block waits for a
    build still running: a thread inside torch at interpreter shutdown aborts the process.

    Args:
        build: Makes the value (seconds: loads models, opens the store); runs in the thread
            ``name``, never in the caller's.
        name: The thread's name.
    """

    def __init__(self, build: Callable[[], T], *, name: str = "paperchat-load"):
        self._build = build
        self._name = name
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._value: T | None = None
        self._error: BaseException | None = None

    def start(self) -> None:
        """Start building in the background unless a build runs or succeeded (idempotent)."""
        with self._lock:
            if self._value is not None or (self._thread is not None and not self._done.is_set()):
                return
            self._done.clear()
            self._error = None
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            value = self._build()
        except BaseException as exc:  # noqa: BLE001 - kept and raised to every caller of get()
            log.warning("loading failed: %s", exc)
            self._error = exc
        else:
            self._value = value
        finally:
            self._done.set()

    @property
    def ready(self) -> bool:
        """Whether the value is built (:meth:`get` returns at once)."""
        return self._value is not None

    def get(self, timeout: float | None = None) -> T:
        """The value, built first when it is not (started now when no build runs).

        Args:
            timeout: Seconds to wait at most; ``None`` waits for the build to end.

        Raises:
            NotLoaded: the build raised (its message), or did not end within ``timeout``.
        """
        if self._value is not None:
            return self._value
        self.start()
        if not self._done.wait(timeout):
            raise NotLoaded(f"still loading after {timeout:.0f} s; try again shortly")
        if self._value is not None:
            return self._value
        error = self._error
        message = getattr(error, "message", None) or str(error) or type(error).__name__  # click's message
        raise NotLoaded(message) from error

    def join(self) -> None:
        """Wait for a build still running (nothing to wait for when none runs)."""
        thread = self._thread
        if thread is not None:
            thread.join()

    def __enter__(self) -> Deferred[T]:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.join()
