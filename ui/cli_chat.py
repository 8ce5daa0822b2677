"""``paperchat chat``: a conversation in the terminal, one question per line.

Every line is a message of one :class:`rag.route.conversation.Conversation`, the object the chat page
keeps per browser session, so follow-ups resolve as on the page ("what datasets does the second
one use?", "compare [1] and [3]") and a paper keeps its citation number for the whole
conversation. Each answer is printed as ``paperchat ask`` prints one, a comparison's table as one
block per row as ``paperchat compare`` prints it; a follow-up whose references were spelled out is
preceded by ``Interpreted as: “...”``, as on the page. With ``--json`` each
answer is one line: ``{"qid": turn number, ...}`` followed by the fields of ``paperchat ask --json``,
the turn's kind (``turn``) and the question as read (``interpreted_as``).

Input ends at end of file or at a line ``exit`` / ``quit``; empty lines are skipped. A prompt
``> `` is shown only when typing at a terminal, so piped input gives the answers alone. Papers
ingested or removed while the conversation runs are answered from at the next message, as on the
page.

When ``paperchat serve`` or ``paperchat ui`` serves the data directory, that process answers and
keeps the conversation (one per ``paperchat chat``, :meth:`ui.warm.WarmService.chat`; nothing is
loaded here, so the first answer comes in about a second instead of after the 10-20 s load);
LLM prose then arrives with the checked answer rather than streamed. If that process stops
mid-conversation, the conversation goes on in this process (its earlier messages are asked again
here first, so follow-ups still resolve). ``--local`` (or ``PAPERCHAT_LOCAL=1``) answers here.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import sys
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import click

from ui.cli_setup import answer_options, command_settings, question_in
from ui.cli_warm import LOCAL_HELP, Answered, ChatFailed, WarmChat, WarmGone

if TYPE_CHECKING:  # loaded when the conversation runs here, not on import
    from rag.route.filters import Filters
    from rag.settings import Settings

__all__ = ["PROMPT", "LocalChat", "chat"]

log = logging.getLogger(__name__)

PROMPT = "> "
"""The prompt shown before each message when typing at a terminal."""

_ENDS = {"exit", "quit"}


def _lines() -> Iterator[str]:
    """The messages typed or piped in, one per line, until end of file or ``exit`` / ``quit``.

    At a terminal (input and output), lines are read with line editing and history when the
    platform has ``readline``; with only the input at a terminal the prompt goes to stderr; piped
    input shows no prompt and is decoded as UTF-8, undecodable bytes becoming U+FFFD.
    """
    if sys.stdin is None:  # no input at all (a detached process)
        return
    at_terminal = sys.stdin.isatty()
    editing = at_terminal and sys.stdout.isatty()
    if editing:
        with contextlib.suppress(ImportError):  # platforms without readline: plain input()
            importlib.import_module("readline")  # line editing and history for input()
    while True:
        if editing:
            try:
                line = input(PROMPT)
            except EOFError:
                click.echo("", err=True)  # end the prompt's line
                return
        else:
            if at_terminal:
                click.echo(PROMPT, nl=False, err=True)
            raw = sys.stdin.buffer.readline()
            if not raw:
                if at_terminal:
                    click.echo("", err=True)
                return
            line = raw.decode("utf-8", errors="replace")
        line = line.strip()
        if line.lower() in _ENDS:
            return
        if line:
            yield line


class LocalChat:
    """The conversation answered in this process (the components loaded here).

    Args:
        settings: The command's settings.
        filters: The year / venue / author filters of the whole conversation.
        top_k: Most named papers one answer is about (``None``: the setting).
        on_token: Receives LLM prose pieces as they stream (``None``: not streamed).
    """

    def __init__(self, settings: Settings, filters: Filters, top_k: int | None,
                 on_token: Callable[[str], None] | None) -> None:  # fmt: skip
        from rag.route.conversation import Conversation
        from ui.cli_setup import build_components

        self.components = build_components(settings, ensure_corpus=True)
        self.conversation = Conversation(self.components.pipeline)
        self.filters, self.top_k, self.on_token = filters, top_k, on_token

    def _turn(self, text: str, on_token: Callable[[str], None] | None):
        from rag.pipeline import refreshed
        from ui.service import timed_ask

        started = time.perf_counter()
        self.components = refreshed(self.components) or self.components  # what was ingested or removed meanwhile
        self.conversation.pipeline = self.components.pipeline
        return timed_ask(self.conversation, text, started=started, loading=time.perf_counter() - started,
                         top_k=self.top_k, on_token=on_token, filters=self.filters)  # fmt: skip

    def replay(self, texts: list[str]) -> None:
        """Ask earlier messages again, printing nothing (the conversation moved here mid-way)."""
        for text in texts:
            with contextlib.suppress(Exception):  # a message that failed before fails quietly again
                self._turn(text, None)

    def __call__(self, text: str, notice: str) -> Answered:
        """Answer one message.

        Raises:
            ChatFailed: answering failed (the reason is its message; the conversation goes on).
        """
        from ui.render import render_comparison
        from ui.wire import answer_json

        try:
            turn = self._turn(text, self.on_token)
        except Exception as exc:  # noqa: BLE001 - reported; the conversation goes on
            log.debug("answering %r failed", text, exc_info=True)
            raise ChatFailed(str(exc) or type(exc).__name__) from exc
        if notice:  # a trimmed question says so
            turn.answer.note = "; ".join(x for x in (notice, turn.answer.note) if x)
        return Answered(answer_json(turn), render_comparison(turn), turn.interpreted if turn.rewritten else "")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print each answer as one JSON line (turn number as qid).")
@answer_options
@click.option("--local", is_flag=True, envvar="PAPERCHAT_LOCAL", help=LOCAL_HELP)
@click.pass_context
def chat(ctx: click.Context, as_json: bool, backend, ollama_model, top_k, stream: bool, year, venue, author,
         no_auto_filter: bool, local: bool) -> None:  # fmt: skip
    """A conversation: answer each line of input, follow-ups about earlier answers included.

    "Which papers use reinforcement learning?", then "what datasets does the second one use?",
    then "compare [1] and [3]": one conversation as on the chat page, each paper keeping its
    citation number. Ends at end of input or a line `exit` or `quit`. A message that fails is
    reported and the conversation goes on (with --json as a line {"qid", "question", "error"});
    the exit code is then 1. When `paperchat serve` or `paperchat ui` serves this data directory,
    that process answers and keeps the conversation (nothing is loaded here); --local answers here.
    """
    from rag.route.filters import Filters
    from store.textin import clean_text
    from ui.discovery import connect
    from ui.render import print_answer_data

    settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)
    filters = Filters(year=year, venue=clean_text(venue), author=clean_text(author), auto=not no_auto_filter)
    streamed: list[str] = []  # prose pieces printed during the current turn
    on_token: Callable[[str], None] | None = None
    if stream and not as_json and sys.stdout.isatty():

        def echo(piece: str) -> None:
            streamed.append(piece)
            click.echo(piece, nl=False, err=True)

        on_token = echo

    warm = connect(settings, local)
    remote = WarmChat(warm, settings, filters, top_k) if warm is not None else None
    answer: Callable[[str, str], Answered]
    answer = remote if remote is not None and remote.start() else LocalChat(settings, filters, top_k, on_token)
    asked: list[str] = []  # the messages so far, asked again here when the warm process goes away
    failed = 0
    try:
        for n, raw in enumerate(_lines(), start=1):
            text, trimmed = question_in(raw, settings)
            streamed.clear()
            try:
                try:
                    got = answer(text, trimmed)
                except WarmGone as exc:  # the conversation goes on here, its earlier messages asked again
                    log.warning("%s: going on in this process", exc)
                    local_chat = LocalChat(settings, filters, top_k, on_token)
                    local_chat.replay(asked)
                    answer = local_chat
                    got = answer(text, trimmed)
            except ChatFailed as exc:
                failed += 1
                if streamed:
                    click.echo("", err=True)
                click.echo(f"Error: answering “{text}” failed ({exc}); ask again or ask something else.", err=True)
                if as_json:
                    click.echo(json.dumps({"qid": str(n), "question": text, "error": str(exc)}, ensure_ascii=False))
                continue
            finally:
                asked.append(text)
            if streamed:  # the checked answer follows the prose
                click.echo("\n", err=True)
            if got.interpreted and not as_json:
                click.echo(f"Interpreted as: {got.interpreted}\n")
            if as_json:  # with the turn kind and "interpreted_as", as the HTTP API gives a turn
                print_answer_data(got.data, "", True, str(n))
            else:
                click.echo(got.text + "\n")  # any other turn: as `paperchat ask` prints it
    finally:
        if remote is not None:
            remote.end()
    if failed:
        sys.exit(1)
