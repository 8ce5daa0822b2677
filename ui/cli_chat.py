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
page. The conversation is answered in this process: the warm process of ``paperchat serve`` or
``paperchat ui`` answers single questions only (:mod:`ui.warm`).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import sys
from collections.abc import Callable, Iterator

import click

from ui.cli_setup import answer_options, command_settings, question_in

__all__ = ["PROMPT", "chat"]

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


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print each answer as one JSON line (turn number as qid).")
@answer_options
@click.pass_context
def chat(ctx: click.Context, as_json: bool, backend, ollama_model, top_k, stream: bool, year, venue, author,
         no_auto_filter: bool) -> None:  # fmt: skip
    """A conversation: answer each line of input, follow-ups about earlier answers included.

    "Which papers use reinforcement learning?", then "what datasets does the second one use?",
    then "compare [1] and [3]": one conversation as on the chat page, each paper keeping its
    citation number. Ends at end of input or a line `exit` or `quit`. A message that fails is
    reported and the conversation goes on (with --json as a line {"qid", "question", "error"});
    the exit code is then 1.
    """
    from rag.pipeline import refreshed
    from rag.route.conversation import Conversation
    from rag.route.filters import Filters
    from store.textin import clean_text
    from ui.cli_setup import build_components
    from ui.render import print_answer_data, render_comparison
    from ui.wire import answer_json

    settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)
    filters = Filters(year=year, venue=clean_text(venue), author=clean_text(author), auto=not no_auto_filter)
    comp = build_components(settings, ensure_corpus=True)
    conversation = Conversation(comp.pipeline)
    on_token: Callable[[str], None] | None = None
    streamed: list[str] = []  # prose pieces printed during the current turn
    if stream and not as_json and sys.stdout.isatty():

        def echo(piece: str) -> None:
            streamed.append(piece)
            click.echo(piece, nl=False, err=True)

        on_token = echo

    failed = 0
    for n, raw in enumerate(_lines(), start=1):
        text, trimmed = question_in(raw, settings)
        streamed.clear()
        try:
            comp = refreshed(comp) or comp  # what was ingested or removed meanwhile, as the page does
            conversation.pipeline = comp.pipeline
            turn = conversation.ask(text, top_k=top_k, on_token=on_token, filters=filters)
        except Exception as exc:  # noqa: BLE001 - reported; the conversation goes on
            log.debug("answering %r failed", text, exc_info=True)
            failed += 1
            reason = str(exc) or type(exc).__name__
            if streamed:
                click.echo("", err=True)
            click.echo(f"Error: answering “{text}” failed ({reason}); ask again or ask something else.", err=True)
            if as_json:
                click.echo(json.dumps({"qid": str(n), "question": text, "error": reason}, ensure_ascii=False))
            continue
        ans = turn.answer
        if trimmed:  # a trimmed question says so
            ans.note = "; ".join(x for x in (trimmed, ans.note) if x)
        if streamed:  # the checked answer follows the prose
            click.echo("\n", err=True)
        if turn.rewritten and not as_json:
            click.echo(f"Interpreted as: {turn.interpreted}\n")
        if as_json:  # with the turn kind and "interpreted_as", as the HTTP API gives a turn
            print_answer_data(answer_json(turn), "", True, str(n))
        else:
            click.echo(render_comparison(turn) + "\n")  # any other turn: as `paperchat ask` prints it
    if failed:
        sys.exit(1)
