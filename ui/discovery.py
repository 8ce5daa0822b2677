"""Finding the warm process that serves a data directory, and talking to it.

``paperchat serve`` and ``paperchat ui`` load the embedder, the retriever and the LLM once. While
they run they keep ``<home>/server.json`` (:data:`DISCOVERY_FILE`): the address they listen on,
their PID, what they are (``api`` or ``page``), a random token and a key of the settings they
answer with. ``paperchat ask``, ``chat``, ``compare``, ``table`` and ``ingest`` read it
(:func:`find_server`) and send their work there (:class:`WarmClient`, ``/paperchat/*`` routes of
:mod:`ui.warm`) instead of loading everything again; ``--local`` (or ``PAPERCHAT_LOCAL=1``) keeps them in-process.

A file is used only when its process is alive, answers ``/paperchat/health`` with the same PID
within :data:`HEALTH_TIMEOUT`, and serves the same settings (index, retrieval, answer settings:
:func:`settings_key`); a file whose process is gone (or whose port answers for another process)
is removed. The token (file mode 0600) keeps the routes to those who can read the data directory,
also when the page is served to other machines.

One file, one process: a warm process started while another one that is alive and answering holds
the file (a ``paperchat ui`` started beside a ``paperchat serve``) leaves it alone, serves its own
page or API, and logs that commands keep using the other one. A process removes the file only
while it still names it (same PID and token). Every change to the file (write, stale removal,
removal on exit) happens under ``<home>/server.json.lock`` (:data:`LOCK_FILE`, a ``filelock``
lock) after reading it again; the file itself is replaced atomically, so readers take no lock.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import secrets
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock

from rag.settings import Settings
from store.home import pid_alive

__all__ = [
    "DISCOVERY_FILE",
    "LOCK_FILE",
    "TOKEN_HEADER",
    "CommandOutput",
    "ServerInfo",
    "WarmClient",
    "advertise",
    "connect",
    "find_server",
    "new_server_info",
    "remove_discovery",
    "write_discovery",
    "settings_key",
]

log = logging.getLogger(__name__)

DISCOVERY_FILE = "server.json"
"""The file in the data directory that names the running warm process."""

LOCK_FILE = "server.json.lock"
"""The lock in the data directory held while the discovery file is checked and changed."""

_KINDS = {"api": "paperchat serve", "page": "paperchat ui"}

TOKEN_HEADER = "X-Paperchat-Token"
"""Request header carrying the discovery file's token."""

HEALTH_TIMEOUT = 2.0
"""Seconds the health check waits for the warm process; a loaded process answers in milliseconds,
so a silent one is treated as absent (the command runs in-process)."""

WORK_TIMEOUT = 3600.0
"""Seconds a client waits for an answer or an ingest (a large ingest on two cores takes minutes)."""


def settings_key(settings: Settings) -> str:
    """A key of the settings that decide what a command prints: everything but the LLM choice
    (sent with each request), the API's serving options and the lock timeout. 16 hex digits."""
    data = json.loads(
        settings.model_dump_json(exclude={"llm": {"backend", "ollama_model"}, "api": True, "store": True})
    )
    data["home"] = str(Path(settings.home).resolve())
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ServerInfo:
    """What the discovery file holds.

    Attributes:
        pid: Process id of the warm process.
        host: Address it binds (``0.0.0.0``/``::`` are reached through loopback).
        port: TCP port.
        kind: ``"api"`` (``paperchat serve``) or ``"page"`` (``paperchat ui``).
        token: Secret sent with each request (:data:`TOKEN_HEADER`).
        settings: :func:`settings_key` of the settings it answers with.
        writes: The data directory's write count when it started (``state.json``).
    """

    pid: int
    host: str
    port: int
    kind: str
    token: str
    settings: str
    writes: int = 0

    @property
    def url(self) -> str:
        """Base URL to reach it from this machine, e.g. ``http://127.0.0.1:8000``."""
        host = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(self.host, self.host)
        return f"http://[{host}]:{self.port}" if ":" in host else f"http://{host}:{self.port}"


def _path(home: Path) -> Path:
    return Path(home) / DISCOVERY_FILE


def _lock(home: Path) -> FileLock:
    """The lock held while the discovery file is checked and changed: a few health checks at most
    (:data:`HEALTH_TIMEOUT` each), so waiting longer than that means something is stuck.
    Acquiring raises :class:`filelock.Timeout` (an :class:`OSError`) after that wait."""
    return FileLock(Path(home) / LOCK_FILE, timeout=4 * HEALTH_TIMEOUT)


def new_server_info(settings: Settings, host: str, port: int, kind: str) -> ServerInfo:
    """The :class:`ServerInfo` of this process serving ``settings`` on ``host:port`` (a fresh token)."""
    from rag.pipeline import data_version

    return ServerInfo(
        pid=os.getpid(), host=host, port=port, kind=kind, token=secrets.token_urlsafe(24),
        settings=settings_key(settings), writes=data_version(settings)[0],
    )


def write_discovery(home: Path, info: ServerInfo) -> bool:
    """Make the discovery file of ``home`` name ``info``, unless another warm process that is alive
    and answers (:func:`_probe`) holds it: that one is kept, with one warning saying that commands
    keep using it. The file is replaced atomically, mode 0600 (a warning when it cannot be).

    Returns:
        Whether the file now names ``info``.
    """
    path = _path(home)
    tmp = path.with_name(f".{DISCOVERY_FILE}.{os.getpid()}")
    try:
        with _lock(home):
            held = _read(path)
            if held is not None and held != info and _probe(held)[1] is not None:
                what = _KINDS.get(held.kind, held.kind)
                log.warning("%s (PID %d, %s) already serves %s: paperchat ask, compare, table and ingest keep "
                            "using it, not this process", what, held.pid, held.url, Path(home))  # fmt: skip
                return False
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(asdict(info), fh)
            os.replace(tmp, path)
            return True
    except OSError:  # serving still works; only the CLI will not find this process
        log.warning("cannot write %s: commands will not use this process", path, exc_info=True)
        return False


def remove_discovery(home: Path, info: ServerInfo) -> None:
    """Remove the discovery file when it still names ``info`` (same PID and token), under the lock:
    a process calls it for itself on exit, and :func:`find_server` for a stale file; a file another
    process wrote since is left alone."""
    path = _path(home)
    with contextlib.suppress(OSError), _lock(home):
        held = _read(path)
        if held is not None and (held.pid, held.token) == (info.pid, info.token):
            path.unlink()


@contextlib.contextmanager
def advertise(home: Path, info: ServerInfo) -> Iterator[bool]:
    """Keep the discovery file of ``info`` in ``home`` while the block runs (enter it once the server
    accepts connections): :func:`write_discovery`, then :func:`remove_discovery` on exit. Yields
    whether the file names ``info`` (``False``: another live process keeps it)."""
    written = write_discovery(home, info)
    try:
        yield written
    finally:
        if written:
            remove_discovery(home, info)


def _read(path: Path) -> ServerInfo | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return ServerInfo(**data) if isinstance(data, dict) else None
    except (OSError, ValueError, TypeError):
        return None


def _probe(info: ServerInfo) -> tuple[bool, dict[str, Any] | None]:
    """``(stale, health)`` of the process a discovery file names: stale when the process is gone or
    its port answers for another process; ``health`` is its ``/paperchat/health`` answer when it
    answers as itself within :data:`HEALTH_TIMEOUT` (``None`` when it does not, or is stale)."""
    if not pid_alive(info.pid):
        return True, None
    health = WarmClient(info).health()
    if health is None:
        return False, None
    if health.get("pid") != info.pid:  # the port was taken over by another process
        return True, None
    return False, health


def find_server(settings: Settings) -> ServerInfo | None:
    """The live warm process serving ``settings``' data directory with the same settings, or ``None``.

    Stale files (the process is gone, or its port answers for another process) are removed; a
    process that is alive but does not answer within :data:`HEALTH_TIMEOUT`, or serves other
    settings, is left alone and not used.
    """
    path = _path(settings.home)
    info = _read(path)
    if info is None:
        return None
    stale, health = _probe(info)
    if stale:
        log.info("removing the stale %s (PID %d is gone or no longer serves its port)", path, info.pid)
        remove_discovery(settings.home, info)
        return None
    if health is None:
        return None
    if health.get("settings") != settings_key(settings):
        log.info("the warm process at %s serves other settings: running in-process", info.url)
        return None
    return info


def connect(settings: Settings, local: bool) -> WarmClient | None:
    """A client of the warm process for this command, or ``None`` to run in-process
    (``local`` asked for it, or no live process serves these settings)."""
    if local:
        return None
    info = find_server(settings)
    return WarmClient(info) if info is not None else None


@dataclass
class CommandOutput:
    """What a command run by the warm process prints: stdout, stderr (text, without the last
    newline) and the exit code."""

    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0

    def emit(self) -> None:
        """Print both streams as the command in-process would, then exit with its code when not 0."""
        import sys

        import click

        if self.stdout:
            click.echo(self.stdout)
        if self.stderr:
            click.echo(self.stderr, err=True)
        if self.exit_code:
            sys.exit(self.exit_code)


class WarmClient:
    """HTTP client of one warm process (``httpx``; JSON in and out).

    Args:
        info: The process, from :func:`find_server`.
    """

    def __init__(self, info: ServerInfo):
        self.info = info

    def _post(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        r = httpx.post(
            f"{self.info.url}/paperchat/{route}", json=body, headers={TOKEN_HEADER: self.info.token},
            timeout=httpx.Timeout(WORK_TIMEOUT, connect=HEALTH_TIMEOUT),
        )
        r.raise_for_status()
        return r.json()

    def health(self) -> dict[str, Any] | None:
        """``{"pid", "kind", "settings", "writes", "served"}`` of the process, or ``None`` when it does not answer."""
        import httpx

        try:
            r = httpx.get(
                f"{self.info.url}/paperchat/health", headers={TOKEN_HEADER: self.info.token}, timeout=HEALTH_TIMEOUT
            )
            return r.json() if r.status_code == 200 else None
        except (httpx.HTTPError, ValueError):
            return None

    def ask(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /paperchat/ask``: ``{"answer": Answer.to_dict(), "text": rendered}`` or ``{"error", "exit_code"}``.

        Raises:
            httpx.HTTPError: the process went away or failed.
        """
        return self._post("ask", body)

    def post(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /paperchat/<route>`` with the token: the JSON reply (``chat/start``, ``chat``, ``chat/end``).

        Raises:
            httpx.HTTPError: the process went away or failed; ``httpx.HTTPStatusError`` with status
                404 from ``chat`` when it no longer keeps the session.
        """
        return self._post(route, body)

    def run(self, command: str, body: dict[str, Any]) -> CommandOutput:
        """``POST /paperchat/<command>`` (``compare``, ``ingest``): the command's output.

        Raises:
            httpx.HTTPError: the process went away or failed.
        """
        return CommandOutput(**self._post(command, body))
