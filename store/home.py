"""The data directory's locks and state: one writer at a time, one page per directory.

Two processes writing one local Chroma store at once corrupt it (afterwards every command on
the directory can die inside Chroma). So every writer (``ingest``, ``ingest --sync``,
``remove``, and first-run indexing by ``ask``/``ui``/``eval``/``compare``) holds
:class:`WriterLock` on ``<home>/writer.lock`` from before it opens the store until it is
done. Readers (``ask``, ``compare``, ``eval``, the page) take no lock and stay available.
``paperchat ui`` holds :class:`PageLock` on ``<home>/ui.lock`` while it serves, so a second
page on the same directory is refused with the address of the first.

The locks are ``filelock`` locks (``flock`` on Unix): the operating system releases them when
their process ends, however it ends, so a crashed writer never leaves the directory locked.
Beside each lock, ``*.owner.json`` says who holds it (PID, command, start time) for the
message a waiting process shows. ``state.json`` remembers that something was written here,
so an empty index whose only ingest failed is not silently filled with the bundled corpus.
"""

from __future__ import annotations

import json
import logging
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from store.chroma import StoreError

__all__ = ["PageLock", "StoreBusy", "WriterLock", "mark_written", "pid_alive", "was_written"]

log = logging.getLogger(__name__)

_STATE = "state.json"


class StoreBusy(StoreError):
    """Another process holds the lock; the message names it and says what to do."""


def _now() -> str:
    return datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S")


def pid_alive(pid: int) -> bool:
    """Whether a process with this id runs (on Windows: always assumed)."""
    if os.name == "nt":  # os.kill(pid, 0) would end the process there
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def _owner(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _describe(owner: dict[str, Any]) -> str:
    """``PID 123 (paperchat ingest, started 2026-11-30 10:00:00)``, or ``another process``."""
    pid = owner.get("pid")
    if not isinstance(pid, int) or not pid_alive(pid):
        return "another process"
    what = ", ".join(x for x in (owner.get("command", ""), f"started {owner.get('started', '?')}") if x)
    return f"PID {pid} ({what})"


class _HeldLock:
    """A ``filelock`` lock with an owner file beside it."""

    name = "lock"

    def __init__(self, home: Path, *, command: str, timeout: float = 0.0, **extra: Any):
        self.home = Path(home)
        self.command = command
        self.timeout = max(0.0, float(timeout))
        self.extra = extra
        self.path = self.home / f"{self.name}.lock"
        self.owner_path = self.home / f"{self.name}.owner.json"
        self._lock: FileLock | None = None

    def _busy(self, owner: dict[str, Any]) -> StoreBusy:  # pragma: no cover - overridden
        raise NotImplementedError

    def acquire(self) -> _HeldLock:
        """Take the lock, waiting at most ``timeout`` seconds.

        Raises:
            StoreBusy: another process holds it after the wait (the message names it).
        """
        self.home.mkdir(parents=True, exist_ok=True)
        lock = FileLock(self.path, thread_local=False)
        try:
            lock.acquire(timeout=self.timeout, poll_interval=0.1)
        except Timeout:
            raise self._busy(_owner(self.owner_path)) from None
        self._lock = lock
        record = {"pid": os.getpid(), "command": self.command, "started": _now(), **self.extra}
        try:
            self.owner_path.write_text(json.dumps(record), encoding="utf-8")
        except OSError:  # the lock holds all the same; only the message of a waiting process is poorer
            log.debug("cannot write %s", self.owner_path, exc_info=True)
        return self

    def release(self) -> None:
        """Let the next process in (also done by the operating system when this one ends)."""
        if self._lock is None:
            return
        try:
            if _owner(self.owner_path).get("pid") == os.getpid():
                self.owner_path.unlink(missing_ok=True)
        except OSError:
            log.debug("cannot remove %s", self.owner_path, exc_info=True)
        self._lock.release()
        self._lock = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock now."""
        return self._lock is not None

    def __enter__(self) -> _HeldLock:
        return self.acquire()

    def __exit__(self, *exc_info: object) -> None:
        self.release()


class WriterLock(_HeldLock):
    """The one-writer lock of a data directory; acquiring it also marks the directory as written.

    Args:
        home: The data directory.
        command: What writes, for the message of a waiting process (``"paperchat ingest"``).
        timeout: Seconds to wait for another writer to finish (``store.lock_timeout``); 0 = do not wait.
        mark: Record in ``state.json`` that the directory is written (:func:`mark_written`) once the
            lock is taken and again when it is released; ``False`` for a process that may only read
            (it calls :func:`mark_written` itself when it does write).

    Example:
        with WriterLock(settings.home, command="paperchat ingest", timeout=10):
            store = open_store(settings)
            ingest_paths(paths, store, embedder)
    """

    name = "writer"

    def _busy(self, owner: dict[str, Any]) -> StoreBusy:
        waited = f" after waiting {self.timeout:g} s" if self.timeout else ""
        return StoreBusy(
            f"The index in {self.home} is in use by {_describe(owner)}: only one process may write it at a "
            f"time{waited}. Wait for it to finish (or stop it) and run the command again, or let writers wait "
            "longer with PAPERCHAT_STORE__LOCK_TIMEOUT=SECONDS. Questions can still be asked meanwhile."
        )

    def __init__(self, home: Path, *, command: str, timeout: float = 0.0, mark: bool = True):
        super().__init__(home, command=command, timeout=timeout)
        self.mark = mark

    def acquire(self) -> WriterLock:
        """Take the lock (see :meth:`_HeldLock.acquire`) and record that the directory is written."""
        super().acquire()
        if self.mark:
            mark_written(self.home, self.command)
        return self

    def release(self) -> None:
        """Record the write once more, then let the next process in: a reader that rebuilt while the
        write ran (it saw the count of :meth:`acquire`) sees the count move again and rebuilds over
        the finished write."""
        if self.held and self.mark:
            mark_written(self.home, self.command)
        super().release()


class PageLock(_HeldLock):
    """Held by ``paperchat ui`` while it serves a data directory; a second page is refused.

    Args:
        home: The data directory.
        command: ``"paperchat ui"``.
        url: The address the page serves, told to a second ``paperchat ui``.
    """

    name = "ui"

    def _busy(self, owner: dict[str, Any]) -> StoreBusy:
        url = owner.get("url")
        at = f", serving {url}" if isinstance(url, str) and url else ""
        return StoreBusy(
            f"paperchat ui is already serving the data directory {self.home} ({_describe(owner)}{at}). "
            "Open that page, stop it first (Ctrl+C in its terminal), or serve another directory with --home."
        )


def mark_written(home: Path, command: str) -> None:
    """Record in ``<home>/state.json`` that ``command`` wrote (or tried to write) the index."""
    path = Path(home) / _STATE
    state = _owner(path)
    state.setdefault("first_write", _now())
    state.update(last_write=_now(), last_command=command, writes=int(state.get("writes", 0)) + 1)
    try:
        path.write_text(json.dumps(state, indent=1), encoding="utf-8")
    except OSError:
        log.warning("cannot record the write in %s", path, exc_info=True)


def was_written(home: Path) -> dict[str, Any] | None:
    """What ``state.json`` says of the last write (``last_write``, ``last_command``), or ``None``
    when nothing was ever written to this data directory."""
    state = _owner(Path(home) / _STATE)
    return state if state.get("writes") else None

