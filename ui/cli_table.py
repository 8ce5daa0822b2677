"""``paperchat table``: a table across papers, one row per paper, each cell a cited sentence.

The rows are every paper the membership model accepts for a topic, or the papers named with
``--paper``; the columns are free phrases (``--columns "benchmark, main result, code"``). The table
goes through :meth:`rag.conversation.Conversation.table`, the route the chat page answers "table of
the papers on ..." through. Output: Markdown (default), ``--json`` (rows, cells, spans, citations)
or ``--csv``.
"""

from __future__ import annotations

import json
import sys

import click

from rag.settings import Settings

__all__ = ["table"]


@click.command()
@click.argument("topic", required=False, default="")
@click.option("--columns", default="", help='Column phrases, e.g. "benchmark, main result, code" (default: '
              "problem, approach, data, results, limitations).")
@click.option("--paper", "papers", multiple=True, help="A paper for a row (name, id or description); repeat it.")
@click.option("--json", "as_json", is_flag=True, help="Print rows, cells, evidence spans and citations as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the table as CSV.")
@click.pass_context
def table(ctx: click.Context, topic: str, columns: str, papers: tuple[str, ...], as_json: bool, as_csv: bool) -> None:
    """A table of the papers on TOPIC (or of the --paper papers), a column per phrase of --columns.

    Every cell is a sentence of that paper's abstract with its citation marker, or "not stated
    in the abstract". Exits 1 when no paper is on the topic or a paper is unclear.
    """
    from rag.conversation import Conversation
    from rag.phrasing import column_phrases
    from rag.table_text import table_csv
    from store.textin import clean_text, limit_text
    from ui.cli_setup import build_components
    from ui.wire import answer_json, sources_text

    if bool(topic.strip()) == bool(papers):
        raise click.UsageError('give a TOPIC or --paper NAME (repeated), not both: paperchat table "diffusion models"')
    settings: Settings = ctx.obj["settings"]
    limit = settings.input.max_question_chars
    topic = limit_text(clean_text(topic), limit)[0]
    refs = [limit_text(clean_text(p), limit)[0] for p in papers]
    comp = build_components(settings, llm=None, ensure_corpus=True)
    turn = Conversation(comp.pipeline).table(topic, refs, column_phrases(clean_text(columns)))
    if as_json:
        click.echo(json.dumps(answer_json(turn), ensure_ascii=False, indent=2))
    elif as_csv and turn.paper_table is not None:
        click.echo(table_csv(turn.paper_table), nl=False)
    else:
        ans = turn.answer
        click.echo("\n\n".join(x for x in (ans.text, sources_text(ans.citations)) if x))
        click.echo(f"{ans.note} · {ans.timings.total:.2f} s")
    if turn.paper_table is None:
        sys.exit(1)
