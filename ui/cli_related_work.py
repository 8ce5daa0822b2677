"""``paperchat related-work``: a related-work draft on a topic, as LaTeX or Markdown with its .bib.

The draft goes through :func:`ui.related_work.related_work` (the route the chat page answers "draft
a related-work section on T" through, and the API and MCP tool draft through): the papers
``paperchat ask "which papers are about T?"`` lists, grouped by what they do, each statement cited
with the user's own citation key. Without ``--out`` the draft is printed, then its ``.bib``; with
it, ``related-work.tex`` (or ``.md``) and ``related-work.bib`` are written there.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from rag.settings import Settings
from store.encoding import read_text
from store.textin import clean_text, limit_text
from ui.cli_setup import LLM_CHOICE, build_components, command_settings

__all__ = ["related_work"]


@click.command(name="related-work")
@click.argument("topic")
@click.option("--bib", "bib_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Your .bib: the papers it holds are cited with its keys (matched by DOI, arXiv id or title).")
@click.option("--format", "fmt", type=click.Choice(["latex", "markdown"]), default="latex", show_default=True,
              help="latex: \\cite{key}; markdown: [@key] (pandoc).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write related-work.tex (or .md) and related-work.bib into this folder instead of printing.")
@click.option("--llm", "backend", type=LLM_CHOICE, default="none", show_default=True,
              help="LLM for prose whose every sentence is checked (none: every statement quoted).")
@click.option("--ollama-model", default=None, help="Ollama model (default llama3.2:3b).")
@click.pass_context
def related_work(
    ctx: click.Context, topic: str, bib_path: Path | None, fmt: str, out_dir: Path | None, backend: str,
    ollama_model: str | None,
) -> None:
    """A related-work draft on TOPIC: the matching papers grouped by what they do, each statement
    its paper's own sentence, quoted, with \\cite{key} (your .bib's or Zotero's key, else the key
    every BibTeX export gives the paper), and the .bib entries it cites. Exits 1 when no paper is on
    the topic; 2 on bad input (an unreadable --bib).
    """
    from ui.related_work import CitationError
    from ui.related_work import related_work as draft

    settings: Settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)
    text = limit_text(clean_text(topic), settings.input.max_question_chars)[0]
    bib = read_text(bib_path).text if bib_path is not None else None
    comp = build_components(settings, ensure_corpus=True)
    t0 = time.perf_counter()
    from rag.route.conversation import Conversation

    try:
        turn, files = draft(Conversation(comp.pipeline), text, fmt=fmt, bib=bib)  # type: ignore[arg-type]
    except CitationError as exc:
        raise click.ClickException(f"the draft's citations do not resolve: {exc}") from exc
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from exc
    took = time.perf_counter() - t0
    if files is None:
        click.echo(turn.answer.text)
        sys.exit(1)
    draft_ = turn.related_work
    assert draft_ is not None
    groups = "; ".join(f"{g.name} ({len(g.paper_ids)})" for g in draft_.groups)
    own = f", {len(files.from_bib)} with the keys of {bib_path.name}" if bib_path is not None else ""
    status = (
        f"{len(files.keys)} papers in {len(draft_.groups)} groups: {groups}{own}; every \\cite key is in the .bib; "
        f"{turn.answer.note}; {took:.1f} s"
    )
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / files.text_name).write_text(files.text, encoding="utf-8")
        (out_dir / "related-work.bib").write_text(files.bib, encoding="utf-8")
        click.echo(f"wrote {out_dir / files.text_name} and {out_dir / 'related-work.bib'}")
    else:
        click.echo(files.text)
        click.echo("% --- related-work.bib ---" if fmt == "latex" else "<!-- related-work.bib -->")
        click.echo(files.bib, nl=False)
    click.echo(status, err=True)
