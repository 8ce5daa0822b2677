"""``paperchat similar`` (the papers like one paper) and ``paperchat watch`` (saved questions).

``similar`` goes through :meth:`rag.route.conversation.Conversation.similar`, the route the chat's
"papers like DANCE" and the page's *More like this* answer through. ``watch`` saves, lists and
removes the questions kept in the data directory (:class:`store.watches.Watches`); ``paperchat
ingest`` then asks each one again over the papers it added or updated (:mod:`ui.watching`).
"""

from __future__ import annotations

import json

import click

from rag.settings import Settings
from ui.cli_warm import LOCAL_HELP

__all__ = ["similar", "similar_output", "watch"]


def similar_output(turn, as_json: bool):
    """What ``paperchat similar`` prints for a ``similar`` (or ``clarify``) turn, in-process or in the
    warm process: the answer as ``paperchat ask`` prints it, or ``--json``; exit code 1 when the paper
    is unclear. Returns a :class:`ui.discovery.CommandOutput`."""
    from ui.discovery import CommandOutput
    from ui.render import render_answer
    from ui.wire import answer_json

    text = json.dumps(answer_json(turn), ensure_ascii=False, indent=2) if as_json else render_answer(turn.answer)
    return CommandOutput(stdout=text, exit_code=1 if turn.kind == "clarify" else 0)


@click.command()
@click.argument("paper")
@click.option(
    "-k", "--top", "k", type=click.IntRange(1, 50), default=5, show_default=True,
    help="How many related papers to list.",
)  # fmt: skip
@click.option("--year", type=click.IntRange(1900, 2100), default=None, help="Only related papers of this year.")
@click.option("--venue", default="", help="Only related papers whose venue contains this, e.g. ICML.")
@click.option("--author", default="", help="Only related papers with an author whose name contains this.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer and the neighbours (pairs, terms) as JSON.")
@click.option("--local", is_flag=True, envvar="PAPERCHAT_LOCAL", help=LOCAL_HELP)
@click.pass_context
def similar(
    ctx: click.Context, paper: str, k: int, year: int | None, venue: str, author: str, as_json: bool, local: bool
) -> None:
    """The papers nearest to PAPER by abstract, nearest first, never PAPER itself.

    PAPER is a name the abstracts state (DANCE), a paper id, or a short description ("the
    ride-hailing paper"); in `paperchat chat`, "papers like [2]" also takes an answer's number.
    Each related paper comes with the pair of sentences, one of each abstract, that are closest,
    and the key terms both abstracts state. Exits 1 when PAPER is unclear. When `paperchat serve`
    or `paperchat ui` serves this data directory, that process answers; --local answers here.
    """
    from rag.route.conversation import Conversation
    from rag.route.filters import Filters
    from store.textin import clean_text
    from ui.cli_setup import build_components, question_in
    from ui.cli_warm import similar_warm
    from ui.discovery import connect

    settings: Settings = ctx.obj["settings"]
    ref = question_in(paper, settings)[0]
    if not ref.strip():
        raise click.UsageError("name a paper: paperchat similar DANCE")
    venue, author = clean_text(venue), clean_text(author)
    warm = connect(settings, local)
    body = {"paper": ref, "k": k, "year": year, "venue": venue, "author": author, "as_json": as_json}
    if warm is not None and similar_warm(warm, body):
        return
    filters = Filters(year=year, venue=venue, author=author, auto=False)
    comp = build_components(settings, llm=None, ensure_corpus=True)
    similar_output(Conversation(comp.pipeline).similar(ref, k=k, filters=filters), as_json).emit()


@click.command()
@click.argument("question", required=False)
@click.option("--list", "listing", is_flag=True, help="List the saved questions.")
@click.option(
    "--remove", "remove", default=None, metavar="QUESTION|N", help="Remove a saved question (its text or number)."
)
@click.pass_context
def watch(ctx: click.Context, question: str | None, listing: bool, remove: str | None) -> None:
    """Save QUESTION: after every ingest it is asked again over the papers just added or updated.

    `paperchat ingest` (and the page's Add papers, the API and a synced folder) then reports, per
    saved question, which new papers match, each with its evidence sentence, never the same
    paper twice. Saved questions live in the data directory (watches.json).
    """
    from store.textin import clean_text
    from store.watches import WatchError, Watches

    settings: Settings = ctx.obj["settings"]
    if sum((question is not None, listing, remove is not None)) != 1:
        raise click.UsageError('give a QUESTION, --list or --remove QUESTION|N: paperchat watch "RL for LLM agents"')
    watches = Watches(settings.home)
    try:
        if listing:
            saved = watches.load()
            if not saved:
                click.echo('No saved questions. Save one with paperchat watch "QUESTION".')
            for i, w in enumerate(saved, start=1):
                n = len(w.reported)
                click.echo(f"{i}. {w.question}  (saved {w.added}; {n} paper{'s' if n != 1 else ''} reported)")
        elif remove is not None:
            gone = watches.remove(clean_text(remove))
            click.echo(f"removed: {gone.question}")
        else:
            w, added = watches.add(clean_text(question or ""))
            n = len(watches.load())
            state = "watching" if added else "already watching"
            click.echo(
                f"{state}: {w.question} ({n} saved question{'s' if n != 1 else ''}); "
                "each ingest now reports the new papers that match it"
            )
    except WatchError as exc:
        raise click.ClickException(str(exc)) from exc
