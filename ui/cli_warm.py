"""``paperchat ask``, ``chat``, ``compare``, ``table``, ``similar`` and ``ingest`` run by the warm process
(:mod:`ui.discovery`).

Each function sends the command's work to the process and prints what the command prints
in-process, and returns True; it returns False, having printed nothing, when the process cannot
be used after all (it went away since it was found): the command then runs in-process.
``paperchat chat`` keeps its conversation in the process (:class:`WarmChat`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import click

from rag.route.filters import Filters
from rag.settings import Settings
from ui.discovery import WarmClient
from ui.render import Qid, print_answer_data

__all__ = [
    "LOCAL_HELP", "Answered", "ChatFailed", "WarmChat", "WarmGone", "ask_warm", "compare_warm", "ingest_warm",
    "similar_warm", "table_warm",
]

log = logging.getLogger(__name__)

LOCAL_HELP = "Run in this process even when `paperchat serve` or `paperchat ui` serves this data directory."


class Answered(NamedTuple):
    """One message answered, as ``paperchat chat`` prints it.

    Attributes:
        data: The turn's JSON (:func:`ui.wire.answer_json`), printed with ``--json``.
        text: The terminal rendering (:func:`ui.render.render_comparison`).
        interpreted: The question as read when a follow-up's references were spelled out, else ``""``.
    """

    data: dict
    text: str
    interpreted: str


class ChatFailed(Exception):
    """Answering one message of ``paperchat chat`` failed (the message is the reason); the
    conversation goes on."""


class WarmGone(Exception):
    """The warm process stopped answering in the middle of a ``paperchat chat`` conversation."""


class WarmChat:
    """A ``paperchat chat`` conversation kept by the warm process (``/paperchat/chat*`` routes of
    :mod:`ui.warm`): the process answers each message in the conversation it keeps for this one.

    Args:
        client: The warm process.
        settings: The command's settings (its LLM backend and model are sent).
        filters: The filters of the whole conversation.
        top_k: Most named papers one answer is about (``None``: the process's setting).
    """

    def __init__(self, client: WarmClient, settings: Settings, filters: Filters, top_k: int | None) -> None:
        self.client = client
        self.options = {
            "backend": settings.llm.backend, "ollama_model": settings.llm.ollama_model, "top_k": top_k,
            "year": filters.year, "venue": filters.venue, "author": filters.author, "auto": filters.auto,
        }  # fmt: skip
        self.session = ""
        self._asked: list[tuple[str, str]] = []  # (message, notice), asked again if the process drops the session

    def start(self) -> bool:
        """Open the conversation in the process; False, after saying so, when the process went away
        (the command then answers in-process).

        Raises:
            click.ClickException: the LLM asked for is not usable (as ``paperchat chat`` says in-process).
        """
        import httpx

        try:
            reply = self.client.post("chat/start", self.options)
        except httpx.HTTPError as exc:
            _gone(self.client, exc)
            return False
        if "error" in reply:
            raise click.ClickException(reply["error"])
        self.session = reply["session"]
        return True

    def _send(self, text: str, notice: str) -> dict:
        import httpx

        try:
            return self.client.post("chat", {"session": self.session, "question": text, "notice": notice})
        except httpx.HTTPStatusError as exc:
            if exc.response.status_code != 404:
                raise WarmGone(f"the warm process at {self.client.info.url} failed ({exc})") from exc
        except httpx.HTTPError as exc:
            raise WarmGone(f"the warm process at {self.client.info.url} stopped answering ({exc})") from exc
        # The process no longer keeps this conversation (it kept too many): open it again there.
        log.info("the warm process dropped this conversation: asking its %d messages again", len(self._asked))
        try:
            if not self.start():
                raise WarmGone(f"the warm process at {self.client.info.url} stopped answering")
            for message, said in [*self._asked, (text, notice)]:
                reply = self.client.post("chat", {"session": self.session, "question": message, "notice": said})
            return reply
        except httpx.HTTPError as exc:
            raise WarmGone(f"the warm process at {self.client.info.url} stopped answering ({exc})") from exc

    def __call__(self, text: str, notice: str) -> Answered:
        """Answer one message in the kept conversation.

        Raises:
            ChatFailed: answering this message failed; the conversation goes on.
            WarmGone: the process stopped answering (the caller goes on in-process).
            click.ClickException: the LLM is no longer usable.
        """
        reply = self._send(text, notice)
        self._asked.append((text, notice))
        if "error" in reply:
            raise click.ClickException(reply["error"])
        if "failed" in reply:
            raise ChatFailed(reply["failed"])
        return Answered(reply["answer"], reply["text"], reply.get("interpreted", ""))

    def end(self) -> None:
        """Tell the process the conversation ended (it forgets it); nothing when it went away."""
        import httpx

        if self.session:
            with contextlib.suppress(httpx.HTTPError):
                self.client.post("chat/end", {"session": self.session})


def _gone(client: WarmClient, exc: Exception) -> None:
    log.warning("the warm process at %s failed (%s): running in-process", client.info.url, exc)


def ask_warm(
    client: WarmClient,
    items: Sequence[tuple[Qid, str, str]],
    settings: Settings,
    filters: Filters,
    top_k: int | None,
    as_json: bool,
    batch: bool,
) -> bool:
    """Answer ``items`` (``(qid, question, trimming notice)``) through the warm process.

    Raises:
        click.ClickException: the LLM asked for is not usable (as in-process), or the process
            went away after some answers were printed.
    """
    import httpx

    for n, (qid, text, notice) in enumerate(items):
        body = {
            "question": text, "notice": notice, "backend": settings.llm.backend,
            "ollama_model": settings.llm.ollama_model, "top_k": top_k, "year": filters.year,
            "venue": filters.venue, "author": filters.author, "auto": filters.auto,
        }
        try:
            reply = client.ask(body)
        except httpx.HTTPError as exc:
            if n:
                raise click.ClickException(f"the warm process at {client.info.url} stopped answering: {exc}") from exc
            _gone(client, exc)
            return False
        if "error" in reply:
            raise click.ClickException(reply["error"])
        print_answer_data(reply["answer"], reply["text"], as_json, qid)
        if batch and not as_json:
            click.echo("")
    return True


def _run(client: WarmClient, command: str, body: dict) -> bool:
    """Run ``command`` in the warm process and print what it printed (exiting with its code when
    not 0); False, after saying so, when the process went away (the caller runs in-process)."""
    import httpx

    try:
        out = client.run(command, body)
    except httpx.HTTPError as exc:
        _gone(client, exc)
        return False
    out.emit()
    return True


def compare_warm(client: WarmClient, first: str, second: str, as_json: bool, more: Sequence[str] = ()) -> bool:
    """``paperchat compare`` through the warm process (exits 1 when no table was made, as in-process)."""
    return _run(client, "compare", {"first": first, "second": second, "more": list(more), "as_json": as_json})


def table_warm(
    client: WarmClient, topic: str, papers: list[str], columns: list[str], as_json: bool, as_csv: bool
) -> bool:
    """``paperchat table`` through the warm process (exits 1 when no table was made, as in-process)."""
    body = {"topic": topic, "papers": papers, "columns": columns, "as_json": as_json, "as_csv": as_csv}
    return _run(client, "table", body)


def similar_warm(client: WarmClient, body: dict) -> bool:
    """``paperchat similar`` through the warm process (``body``: the fields of
    :class:`ui.warm.SimilarRequest`; exits 1 when the paper is unclear, as in-process)."""
    return _run(client, "similar", body)


def ingest_warm(
    client: WarmClient, paths: Sequence[Path], field_map: dict[str, str] | None, sync: bool, collection: str | None
) -> bool:
    """``paperchat ingest`` through the warm process (no progress bar; exits 1 when records failed).

    Paths are sent absolute (the process may run in another folder); none means the default corpus.
    """
    body = {"paths": [str(Path(p).resolve()) for p in paths], "field_map": field_map, "sync": sync,
            "collection": collection}  # fmt: skip
    return _run(client, "ingest", body)
