"""``paperchat table``: a table across papers, one row per paper, each cell a cited sentence.

The rows are every paper the membership model accepts for a topic, or the papers named with
``--paper``; the columns are free phrases (``--columns "benchmark, main result, code"``). The table
goes through :meth:`rag.route.conversation.Conversation.table`, the route the chat page answers "table of
the papers on ..." through. Output: Markdown (default), ``--json`` (rows, cells, spans, citations)
or ``--csv`` (:func:`ui.render.render_table`, which the warm process renders with too).
"""

from __future__ import annotations

import sys

import click

from ui.cli_setup import LLM_CHOICE, command_settings
from ui.cli_warm import LOCAL_HELP, table_warm

__all__ = ["table"]


@click.command()
@click.argument("topic", required=False, default="")
@click.option("--columns", default="", help='Column phrases, e.g. "benchmark, main result, code" (default: '
              "problem, approach, data, results, limitations).")
@click.option("--paper", "papers", multiple=True, help="A paper for a row (name, id or description); repeat it.")
@click.option("--json", "as_json", is_flag=True, help="Print rows, cells, evidence spans and citations as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print the table as CSV.")
@click.option("--values", is_flag=True, help="Ask the LLM (--llm) for a short value per cell, shown beside the quote "
              "only when every word of it stands in the cell's sentence.")
@click.option("--llm", "backend", type=LLM_CHOICE, default=None, help="LLM backend for --values (default auto).")
@click.option("--ollama-model", default=None, help="Ollama model for --values (default llama3.2:3b).")
@click.option("--local", is_flag=True, envvar="PAPERCHAT_LOCAL", help=LOCAL_HELP)
@click.pass_context
def table(
    ctx: click.Context,
    topic: str,
    columns: str,
    papers: tuple[str, ...],
    as_json: bool,
    as_csv: bool,
    values: bool,
    backend: str | None,
    ollama_model: str | None,
    local: bool,
) -> None:
    """A table of the papers on TOPIC (or of the --paper papers), a column per phrase of --columns.

    Every cell is a sentence of that paper's abstract with its citation marker, or "not stated
    in the abstract". With --values and an LLM, a cell also shows a short value the LLM took from
    its sentence. Exits 1 when no paper is on the topic or a paper is unclear.
    """
    from rag.question.table import column_phrases
    from rag.route.conversation import Conversation
    from store.textin import clean_text, limit_text
    from ui.cli_setup import build_components
    from ui.discovery import connect
    from ui.render import render_table

    if bool(topic.strip()) == bool(papers):
        raise click.UsageError('give a TOPIC or --paper NAME (repeated), not both: paperchat table "diffusion models"')
    settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)
    limit = settings.input.max_question_chars
    topic = limit_text(clean_text(topic), limit)[0]
    refs = [limit_text(clean_text(p), limit)[0] for p in papers]
    cols = list(column_phrases(clean_text(columns)))
    warm = None if values else connect(settings, local)  # values are asked in this process, of --llm
    if warm is not None and table_warm(warm, topic, refs, cols, as_json, as_csv):
        return
    comp = build_components(settings, llm="configured" if values else None, ensure_corpus=True)
    turn = Conversation(comp.pipeline).table(topic, refs, cols, values=values)
    out, code = render_table(turn, as_json=as_json, as_csv=as_csv, papers=comp.retriever.papers)
    click.echo(out)
    if code:
        sys.exit(code)
