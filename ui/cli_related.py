"""``paperchat similar`` (the papers like one paper) and ``paperchat watch`` (saved questions).

``similar`` goes through :meth:`rag.route.conversation.Conversation.similar`, the route the chat's
"papers like DANCE" and the page's *More like this* answer through. ``watch`` saves, lists and
removes the questions kept in the data directory (:class:`store.watches.Watches`); ``paperchat
ingest`` then asks each one again over the papers it added or updated (:mod:`ui.watching`).
"""

from __future__ import annotations

import json
import sys

import click

from rag.settings import Settings

__all__ = ["similar", "watch"]


@click.command()
@click.argument("paper")
@click.option(
    "-k",
    "--top",
    "k",
    type=click.IntRange(1, 50),
    default=5,
    show_default=True,
    help="How many related papers to list.",
)
@click.option("--year", type=click.IntRange(1900, 2100), default=None, help="Only related papers of this year.")
@click.option("--venue", default="", help="Only related papers whose venue contains this, e.g. ICML.")
@click.option("--author", default="", help="Only related papers with an author whose name contains this.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer and the neighbours (pairs, terms) as JSON.")
@click.pass_context
def similar(ctx: click.Context, paper: str, k: int, year: int | None, venue: str, author: str, as_json: bool) -> None:
    """The papers nearest to PAPER by abstract, nearest first, never PAPER itself.

    PAPER is a name the abstracts state (DANCE), a paper id, or a short description ("the
    ride-hailing paper"); in `paperchat chat`, "papers like [2]" also takes an answer's number.
    Each related paper comes with the pair of sentences, one of each abstract, that are closest,
    and the key terms both abstracts state. Exits 1 when PAPER is unclear.
    """
    from rag.route.conversation import Conversation
    from rag.route.filters import Filters
    from store.textin import clean_text
    from ui.cli_setup import build_components, question_in
    from ui.render import render_answer
    from ui.wire import answer_json

    settings: Settings = ctx.obj["settings"]
    ref = question_in(paper, settings)[0]
    if not ref.strip():
        raise click.UsageError("name a paper: paperchat similar DANCE")
    filters = Filters(year=year, venue=clean_text(venue), author=clean_text(author), auto=False)
    comp = build_components(settings, llm=None, ensure_corpus=True)
    turn = Conversation(comp.pipeline).similar(ref, k=k, filters=filters)
    if as_json:
        click.echo(json.dumps(answer_json(turn), ensure_ascii=False, indent=2))
    else:
        click.echo(render_answer(turn.answer))
    if turn.kind == "clarify":
        sys.exit(1)


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
