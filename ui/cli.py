"""The ``paperchat`` command line: ingest, ask, compare, ui, eval, config, remove; mcp and serve
(:mod:`ui.cli_remote`); table (:mod:`ui.cli_table`); chat (:mod:`ui.cli_chat`); similar and watch
(:mod:`ui.cli_related`); related-work (:mod:`ui.cli_related_work`).

Every command that answers goes through :class:`rag.route.conversation.Conversation`, the route the
chat page serves, so the CLI, ``eval`` and the page answer alike.

Options fall back to ``PAPERCHAT_*`` environment variables through the settings tree.
Progress bars live in the command line only (tqdm, :mod:`ui.cli_setup`), never in library code.
"""

from __future__ import annotations

import json
import logging
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from rag.settings import Settings, default_corpus
from store.textin import clean_text
from ui.cli_chat import chat
from ui.cli_related import similar, watch
from ui.cli_related_work import related_work
from ui.cli_remote import mcp, serve
from ui.cli_setup import (
    LLM_CHOICE,
    answer_options,
    build_components,
    command_settings,
    locked_ingest,
    print_ingest_report,
    question_in,
)
from ui.cli_table import table
from ui.cli_warm import LOCAL_HELP, ask_warm, compare_warm, ingest_warm
from ui.discovery import connect
from ui.render import Qid, print_answer, render_comparison

log = logging.getLogger("paperchat")

_local = click.option("--local", is_flag=True, envvar="PAPERCHAT_LOCAL", help=LOCAL_HELP)


class _Group(click.Group):
    """The command group; Ctrl-C in any command ends with one line and exit code 130, a store that is
    busy, damaged or unreachable with its message and exit code 1, never a traceback."""

    def invoke(self, ctx: click.Context):
        from store.chroma import StoreError

        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\nInterrupted.", err=True)
            ctx.exit(130)
        except StoreError as exc:  # a busy, damaged or unreachable store: its message says what to do
            click.echo(f"Error: {exc}", err=True)
            ctx.exit(1)


@click.group(cls=_Group)
@click.option(
    "--home", type=click.Path(path_type=Path), envvar="PAPERCHAT_HOME", help="Data directory (PAPERCHAT_HOME)."
)
@click.option(
    "--chroma-url", envvar="PAPERCHAT_CHROMA_URL", default=None, help="Chroma server URL instead of the local store."
)
@click.option("-v", "--verbose", is_flag=True, help="Log debug messages.")
@click.pass_context
def main(ctx: click.Context, home: Path | None, chroma_url: str | None, verbose: bool) -> None:
    """paperchat: cited answers over ML paper abstracts, offline."""
    level = logging.DEBUG if verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    for noisy in ("httpx", "chromadb", "sentence_transformers", "transformers", "bm25s"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
    over: dict = {}
    if home:
        over["home"] = home
    if chroma_url:
        over["chroma_url"] = chroma_url
    try:
        ctx.obj = {"settings": Settings(**over)}
    except Exception as exc:  # pydantic ValidationError: show it plainly
        raise click.ClickException(f"bad settings: {exc}") from exc


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--map", "maps", multiple=True, help="Column/field mapping such as abstract=Summary (CSV/JSON).")
@click.option(
    "--sync", is_flag=True, help="Also remove the indexed papers of these files that the files no longer hold."
)
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option(
    "--collection",
    default=None,
    metavar="NAME",
    help="Zotero database only: read the items of this collection (and its subcollections).",
)
@_local
@click.pass_context
def ingest(
    ctx: click.Context, paths: tuple[Path, ...], maps: tuple[str, ...], quiet: bool, sync: bool, collection: str | None,
    local: bool,
) -> None:
    """Index corpus files or folders (default: the bundled ICML 2026 abstracts).

    Reads .txt (seed format), .jsonl, .json (paperchat's shape, CSL-JSON, OpenReview notes,
    Semantic Scholar papers), .csv/.tsv (Zotero's export too), .bib, arXiv API responses
    (.xml/.atom) and a Zotero library's zotero.sqlite, recognised by content.

    Only one process writes a data directory at a time: another writer is waited for up to
    store.lock_timeout seconds (PAPERCHAT_STORE__LOCK_TIMEOUT), then the command stops and names it.
    When `paperchat serve` or `paperchat ui` serves this data directory, that process ingests (no
    progress bar) and answers from the new papers at once; --local ingests here.
    """
    from store.home import WriterLock

    if collection is not None:
        from store.formats import is_zotero_database
        from store.papers import iter_corpus_files

        if not any(is_zotero_database(f) for f in iter_corpus_files(list(paths))):
            hint = "applies to a Zotero database (zotero.sqlite); none was given"
            raise click.BadParameter(hint, param_hint="--collection")
    settings = command_settings(ctx)
    field_map = None
    if maps:
        from store.readers.fields import parse_field_map

        try:
            field_map = parse_field_map(list(maps))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--map") from exc
    warm = connect(settings, local)
    if warm is not None and ingest_warm(warm, paths, field_map, sync, collection):
        return
    command = "paperchat ingest --sync" if sync else "paperchat ingest"
    with WriterLock(settings.home, command=command, timeout=settings.store.lock_timeout):
        report = locked_ingest(settings, list(paths) or [default_corpus()], quiet, field_map, sync, collection)
    print_ingest_report(report, settings)
    from ui.watching import after_ingest

    for line in after_ingest(settings, report.changed):  # saved questions asked again over the new papers
        click.echo(line)
    failed = report.failed
    if failed:
        click.echo(
            f"{failed} record{'s' if failed != 1 else ''} or file{'s' if failed != 1 else ''} could not be ingested "
            "(listed above); everything else is stored.",
            err=True,
        )
        sys.exit(1)


def _read_batch(path: Path) -> list[tuple[Qid, str]]:
    """``(qid, question)`` pairs of a JSONL batch file (``{"qid": ..., "question": ...}`` per line);
    a qid is kept as the line gives it (string or number; any other value as its text), the line
    number when absent.

    Raises:
        click.ClickException: a line is not a JSON object with a string ``question`` (file and line named).
    """
    out: list[tuple[Qid, str]] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise click.ClickException(f"{path}:{lineno}: not JSON ({exc.msg}, column {exc.colno})") from exc
        if not isinstance(rec, dict) or not isinstance(rec.get("question"), str):
            raise click.ClickException(f'{path}:{lineno}: expected {{"qid": ..., "question": "..."}}')
        qid = rec.get("qid", lineno)
        scalar = isinstance(qid, str | int | float) and not isinstance(qid, bool)
        out.append((qid if scalar else str(qid), rec["question"]))
    return out


@main.command()
@click.argument("question", required=False)
@click.option("--batch", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help='JSONL of {"qid", "question"}: one JSON answer per line, each in a fresh conversation.')
@click.option("--json", "as_json", is_flag=True, help="Print the Answer as JSON.")
@answer_options
@_local
@click.pass_context
def ask(ctx, question: str | None, batch: Path | None, as_json: bool, backend, ollama_model, top_k, stream: bool,
        year, venue, author, no_auto_filter: bool, local: bool) -> None:
    """Answer a question with citations to specific papers (the same route as the chat page).

    With --batch, every question of the file is answered in a fresh conversation, in order;
    with --json each answer is one line: qid, text, refused, citations (paper_id, evidence
    with spans), retrieved paper ids. When `paperchat serve` or `paperchat ui` serves this data
    directory, that process answers (the same output, without loading anything here); --local
    answers here.
    """
    from rag.route.filters import Filters

    if (question is None) == (batch is None):
        raise click.UsageError("give a QUESTION or --batch FILE (not both)")
    settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)
    filters = Filters(year=year, venue=clean_text(venue), author=clean_text(author), auto=not no_auto_filter)
    items: Sequence[tuple[Qid, str]]  # (qid, question)
    if batch is not None:
        items = _read_batch(batch)
    else:
        items = [(None, question or "")]  # QUESTION is given without --batch (checked above)
    warm = connect(settings, local)
    if warm is not None:
        read = [(qid, *question_in(raw, settings)) for qid, raw in items]
        if ask_warm(warm, read, settings, filters, top_k, as_json, batch is not None):
            return
    from rag.route.conversation import Conversation
    from ui.service import timed_ask

    started = time.perf_counter()
    comp = build_components(settings, ensure_corpus=True)
    loading = time.perf_counter() - started  # the first answer's footer counts what this process loaded
    on_token: Callable[[str], None] | None = None
    if stream and not as_json and batch is None and sys.stdout.isatty():

        def echo(piece: str) -> None:
            click.echo(piece, nl=False, err=True)

        on_token = echo

    for n, (qid, raw) in enumerate(items):
        if n:
            started, loading = time.perf_counter(), 0.0
        text, trimmed = question_in(raw, settings)
        turn = timed_ask(Conversation(comp.pipeline), text, started=started, loading=loading, top_k=top_k,
                         on_token=on_token, filters=filters)  # fmt: skip
        ans = turn.answer
        if trimmed:  # a trimmed question says so
            ans.note = "; ".join(x for x in (trimmed, ans.note) if x)
        if on_token is not None:
            click.echo("\n", err=True)
        print_answer(ans, as_json, qid)
        if batch is not None and not as_json:
            click.echo("")


@main.command()
@click.argument("papers", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON (rows x papers, evidence sentences).")
@_local
@click.pass_context
def compare(ctx, papers: tuple[str, ...], as_json: bool, local: bool) -> None:
    """Compare two to five papers row by row (problem, approach, data, results, limitations).

    PAPERS are names the abstracts state (DANCE), paper ids, or short descriptions
    ("the graph-based pruning paper"). Every cell is a sentence of that paper's abstract.
    """
    if not 2 <= len(papers) <= 5:
        raise click.UsageError(f"compare takes two to five papers, not {len(papers)}")
    settings = command_settings(ctx, backend="none")
    first, second, *more = (question_in(x, settings)[0] for x in papers)
    warm = connect(settings, local)
    if warm is not None and compare_warm(warm, first, second, as_json, more):
        return
    from rag.route.conversation import Conversation

    comp = build_components(settings, llm=None, ensure_corpus=True)
    turn = Conversation(comp.pipeline).compare(first, second, *more)
    if not as_json:
        click.echo(render_comparison(turn))
    elif turn.table is None:
        click.echo(json.dumps(turn.answer.to_dict(), ensure_ascii=False, indent=2))
    else:
        from ui.wire import table_json

        click.echo(json.dumps(table_json(turn), ensure_ascii=False, indent=2))
    if turn.table is None:
        sys.exit(1)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=7860, show_default=True, type=int)
@click.option("--auth", default=None, help="user:password, or a file holding that line (required off loopback).")
@click.option("--llm", "backend", type=LLM_CHOICE, default=None, help="LLM backend (default auto).")
@click.option("--ollama-model", default=None, help="Ollama model (default llama3.2:3b).")
@click.pass_context
def ui(ctx, host: str, port: int, auth: str | None, backend, ollama_model) -> None:
    """Serve the chat page (http://127.0.0.1:7860 by default)."""
    from store.home import PageLock

    settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)
    shown = f"[{host}]" if ":" in host else host
    # One page per data directory: a second `paperchat ui` here is refused and told where the first serves.
    with PageLock(settings.home, command="paperchat ui", url=f"http://{shown}:{port}/"):
        from ui.serve import check_bind, launch, parse_auth

        try:
            check_bind(host, parse_auth(auth))
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
        from ui.warm import load_warmed

        click.echo("paperchat: loading the papers and warming up for the first question…", err=True)
        comp = load_warmed(lambda: build_components(settings, ensure_corpus=True))
        from rag.pipeline import prewarming

        # answers never wait for the first embedding of a paper's sentences; stopped before exit
        with prewarming(comp):
            try:
                launch(comp, host=host, port=port, auth=auth)
            except ValueError as exc:
                raise click.ClickException(str(exc)) from exc


@main.command(name="eval")
@click.argument("gold", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--llm", "backend", type=LLM_CHOICE, default=None, help="LLM backend (default auto).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object with the metrics.")
@click.option("--rows", is_flag=True, help="With --json, include per-question rows.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.pass_context
def eval_cmd(ctx, gold: tuple[Path, ...], backend, as_json: bool, rows: bool, quiet: bool) -> None:
    """Score retrieval, citations, facts and refusals on gold question files (through the chat route).

    Each file is scored on its own. When a file rephrases the questions of another given file
    (records with ``orig_qid``), the consistency of the cited papers across rephrasings is
    reported too (mean Jaccard similarity).
    """
    from tqdm import tqdm

    from rag.eval import consistency, evaluate, format_report, load_gold

    settings = command_settings(ctx, backend=backend)
    comp = build_components(settings, ensure_corpus=True)
    try:
        files = [(g, load_gold(g)) for g in gold]
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    papers = comp.retriever.papers
    missing = {pid for _, qs in files for q in qs for pid in q.gold_ids if pid not in papers}
    if missing:
        click.echo(
            f"warning: {len(missing)} gold paper ids are not in the collection; ingest the corpus "
            f"{', '.join(g.name for g in gold)} was written for (or use another --home)",
            err=True,
        )
    t0 = time.perf_counter()
    results = {}
    total = sum(len(qs) for _, qs in files)
    with tqdm(total=total, unit="q", disable=quiet, file=sys.stderr, desc="eval") as bar:
        for g, qs in files:
            results[str(g)] = evaluate(comp.ask, qs, on_progress=bar.update)
    every = [r for res in results.values() for r in res["rows"]]
    agree = consistency(every)
    seconds = round(time.perf_counter() - t0, 1)
    if as_json:
        for res in results.values():
            res["backend"], res["papers"] = comp.pipeline.backend, len(papers)
            if not rows:
                res.pop("rows", None)
        out = next(iter(results.values())) if len(results) == 1 else {"files": results}
        if agree["questions"]:
            out["consistency"] = agree
        out["seconds"] = seconds
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    for name, res in results.items():
        if len(results) > 1:
            click.echo(f"\n{name}")
        click.echo(format_report(res))
    if agree["questions"]:
        by_kind = ", ".join(f"{k} {v:.3f}" for k, v in agree["by_kind"].items())
        click.echo(
            f"\nconsistency across rephrasings: mean Jaccard {agree['mean_jaccard']:.3f} of cited papers "
            f"({agree['questions']} questions; {by_kind})"
        )
    secs = [r["seconds"] for r in every if "seconds" in r]
    click.echo(
        f"\nbackend {comp.pipeline.backend} · {len(papers)} papers indexed · {total} questions in "
        f"{seconds} s (median {statistics.median(secs):.2f} s/question)"
    )


@main.command()
@click.pass_context
def config(ctx) -> None:
    """Print the effective settings (after environment variables)."""
    settings: Settings = ctx.obj["settings"]
    data = json.loads(settings.model_dump_json())
    data["index_name"] = settings.index_name()
    click.echo(json.dumps(data, indent=2))


@main.command()
@click.argument("ids", nargs=-1)
@click.option("--source", "sources", multiple=True, help="Remove every paper of this source file (name or path).")
@click.pass_context
def remove(ctx: click.Context, ids: tuple[str, ...], sources: tuple[str, ...]) -> None:
    """Remove papers from the index by id, or every paper of a source file.

    IDS are paper ids as the Sources list shows them (000_6b930c46f6674b66#1). Chunks and paper
    records go together; exits 1 when an id or a source is not in the index.
    """
    from rag.index.sync import known_sources, remove_papers, remove_source
    from rag.pipeline import open_store, prepare_environment
    from store.home import WriterLock

    if not ids and not sources:
        raise click.UsageError("name paper ids, or --source FILE (see `paperchat remove --help`)")
    settings = command_settings(ctx)
    prepare_environment(settings)
    missing: list[str] = []
    with WriterLock(settings.home, command="paperchat remove", timeout=settings.store.lock_timeout):
        store = open_store(settings)
        reports = [remove_papers(store, [clean_text(i) for i in ids])] if ids else []
        reports += [remove_source(store, clean_text(src)) for src in sources]
        for rep in reports:
            if rep.removed:
                n = len(rep.removed)
                shown = ", ".join(rep.removed[:10]) + (f" and {n - 10} more" if n > 10 else "")
                click.echo(f"removed {n} paper{'s' if n != 1 else ''}: {shown}")
            missing += rep.missing
        if missing:
            held = ", ".join(f"{name} ({n})" for name, n in known_sources(store).items()) or "none"
            click.echo(
                f"not in the index: {', '.join(missing)} (ids as the Sources list shows them; sources held: {held})",
                err=True,
            )
        papers, chunks = store.counts()
    click.echo(f"store: {papers} papers, {chunks} chunks ({settings.index_name()})")
    if missing:
        sys.exit(1)


main.add_command(chat)
main.add_command(mcp)
main.add_command(serve)
main.add_command(table)
main.add_command(related_work)
main.add_command(similar)
main.add_command(watch)

if __name__ == "__main__":  # pragma: no cover
    main()
