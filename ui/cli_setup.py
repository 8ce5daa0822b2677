"""What the commands run on: their settings and the question text as the command line gave it, the
pipeline built from settings (the bundled papers indexed first into a data directory never written
to), and ingest with a progress bar under the writer lock.

Progress bars live here and in :mod:`ui.cli` only (tqdm), never in library code.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path

import click

from rag.question.phrasing import keep_asking
from rag.settings import Settings
from store.textin import clean_text

__all__ = [
    "LLM_CHOICE", "answer_options", "build_components", "command_settings", "first_run", "ingest_report_output",
    "locked_ingest", "print_ingest_report", "question_in", "run_ingest",
]


LLM_CHOICE = click.Choice(["auto", "ollama", "embedded", "none"])
"""The ``--llm`` backends of every command that answers."""


def command_settings(ctx: click.Context, **llm: str | None) -> Settings:
    """The settings a command runs with: the group's (``--home``, ``--chroma-url``, environment)
    with the command's LLM options over them.

    Args:
        ctx: The command's context; ``ctx.obj["settings"]`` holds the group's settings.
        **llm: Fields of ``settings.llm`` as the options gave them (``backend``, ``ollama_model``);
            ``None`` (an option not given) keeps the group's value.

    Returns:
        The group's settings unchanged when no field is given, else a copy with those fields.
    """
    base: Settings = ctx.obj["settings"]
    upd = {k: v for k, v in llm.items() if v is not None}
    if upd:
        base = base.model_copy(update={"llm": base.llm.model_copy(update=upd)})
    return base


def question_in(text: str, settings: Settings) -> tuple[str, str]:
    """A question (or paper reference) from the command line, as the commands read it.

    Args:
        text: The text as given (an argument, a batch line or a line of ``paperchat chat``).
        settings: Its ``input.max_question_chars`` is the longest question kept.

    Returns:
        ``(question, notice)``: the text normalised (:func:`store.textin.clean_text`: invalid bytes
        in ``sys.argv`` arrive as lone surrogates and become U+FFFD) and trimmed to
        ``input.max_question_chars``, keeping the sentences that ask
        (:func:`rag.question.phrasing.keep_asking`); the notice says what was dropped, ``""`` when it fits.
    """
    return keep_asking(clean_text(text), settings.input.max_question_chars)


def answer_options(command):
    """The options of the commands that answer questions (``ask``, ``chat``): the LLM backend and
    model, top-k, streaming, the year / venue / author filters and whether a year in the question
    becomes a filter."""
    options = [
        click.option("--llm", "backend", type=LLM_CHOICE, default=None, help="LLM backend (default auto)."),
        click.option("--ollama-model", default=None, help="Ollama model (default llama3.2:3b)."),
        click.option(
            "--top-k", type=click.IntRange(1, 50), default=None, help="Most named papers one answer is about."
        ),
        click.option("--stream/--no-stream", default=True, help="Print LLM prose as it is generated."),
        click.option("--year", type=click.IntRange(1900, 2100), default=None, help="Only papers of this year."),
        click.option(
            "--venue", default="", help="Only papers whose venue contains this (case-insensitive), e.g. ICML."
        ),
        click.option(
            "--author", default="", help="Only papers with an author whose name contains this (case-insensitive)."
        ),
        click.option(
            "--no-auto-filter", is_flag=True,
            help="Do not turn a year in the question ('papers from 2023') into a filter.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def build_components(settings: Settings, llm="configured", ensure_corpus: bool = False):
    """The store, retriever and pipeline for a command (:func:`rag.pipeline.build_pipeline`).

    Args:
        settings: The command's settings.
        llm: ``"configured"`` for the settings' backend, ``None`` for extractive answers.
        ensure_corpus: Index the bundled papers first when the data directory was never written
            (:func:`first_run`); stop when a written one is empty.

    When called inside a click command, the sentence embeddings the command computed are written
    to the data directory as the command ends (:func:`rag.pipeline.keep_sentences`, only when it
    embedded any), so the next command reads them instead of embedding the same abstracts again.

    Raises:
        click.ClickException: the store or the LLM cannot be used (the message has the remedy).
    """
    from rag.llm.clients import LLMError
    from rag.pipeline import build_pipeline, keep_sentences, make_embedder, open_store, prepare_environment
    from store.chroma import StoreError

    prepare_environment(settings)
    try:
        store, embedder = first_run(settings) if ensure_corpus else (open_store(settings), None)
        embedder = embedder or make_embedder(settings)
        comp = build_pipeline(settings, embedder=embedder, store=store, llm=llm)
    except (LLMError, StoreError) as exc:
        raise click.ClickException(str(exc)) from exc
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        # The sentences this command embedded are kept for the next process (rag.evidence.kept):
        # a second `paperchat ask` on the same papers does not embed them again.
        ctx.call_on_close(functools.partial(keep_sentences, settings, comp.pipeline.evidence))
    return comp


def first_run(settings: Settings):
    """Open the store; index the bundled corpus only into a data directory never written before.

    A directory something was written to (an ingest, even one that stored nothing, or a removal)
    whose index is empty is not filled behind the user's back: the command stops and says how
    to index papers.

    Returns:
        ``(store, embedder or None)``.
    """
    from rag.pipeline import make_embedder, open_store
    from store.home import WriterLock, mark_written, was_written

    command = f"paperchat {click.get_current_context().info_name}"
    if was_written(settings.home) is None:
        # Under the writer lock: two first commands at once must not both index.
        with WriterLock(settings.home, command=f"{command} (first-run indexing)", timeout=settings.store.lock_timeout,
                        mark=False):  # fmt: skip
            store = open_store(settings)
            if store.counts()[0] > 0:
                return store, None
            mark_written(settings.home, f"{command} (first-run indexing)")
            corpus = ", ".join(str(p) for p in settings.corpus)
            click.echo(
                f"This data directory ({settings.home}) has never been indexed: indexing the default corpus "
                f"({corpus}) first. Index your own papers with `paperchat ingest PATH...`.",
                err=True,
            )
            embedder = make_embedder(settings)
            run_ingest(settings, store, embedder, [*settings.corpus], quiet=False)
            return store, embedder
    store = open_store(settings)
    if store.counts()[0] == 0:
        last = was_written(settings.home) or {}
        raise click.ClickException(
            f"The index in {settings.home} is empty: the last write ({last.get('last_command', 'an ingest')} at "
            f"{last.get('last_write', '?')}) left no paper in it. Index papers with `paperchat ingest PATH...` "
            "(`paperchat ingest` alone indexes the 38 bundled ICML 2026 abstracts)."
        )
    return store, None


def run_ingest(settings, store, embedder, paths, quiet: bool, field_map=None, sync: bool = False, collection=None):
    """Ingest (or, with ``sync``, sync) ``paths`` into ``store`` with a progress bar on stderr.

    Returns:
        The :class:`rag.index.ingest.IngestReport` of :func:`rag.index.ingest.ingest_paths` /
        :func:`rag.index.sync.sync_paths`.
    """
    from tqdm import tqdm

    from rag.index.ingest import ingest_paths
    from rag.index.sync import sync_paths

    bar = tqdm(total=0, unit="paper", disable=quiet, file=sys.stderr, desc="ingest")

    def total(n: int) -> None:
        bar.total = n
        bar.refresh()

    try:
        return (sync_paths if sync else ingest_paths)(
            paths,
            store,
            embedder,
            max_tokens=settings.chunking.max_tokens,
            overlap=settings.chunking.overlap_sentences,
            field_map=field_map,
            on_progress=bar.update,
            on_total=total,
            collection=collection,
        )
    finally:
        bar.close()


class _Lazy:
    """An object built on first use of any attribute (the embedder, when nothing may need it)."""

    def __init__(self, make):
        self._make, self._obj = make, None

    def __getattr__(self, name: str):
        if self._obj is None:
            self._obj = self._make()
        return getattr(self._obj, name)


def locked_ingest(settings: Settings, paths: list[Path], quiet: bool, field_map, sync: bool, collection=None):
    """Open the store and ingest (the caller holds the writer lock); Ctrl-C prints what was stored."""
    from rag.index.ingest import IngestInterrupted
    from rag.pipeline import make_embedder, open_store, prepare_environment
    from store.chroma import StoreError

    prepare_environment(settings)
    try:
        store = open_store(settings)
        embedder = _Lazy(lambda: make_embedder(settings))  # loaded only when a paper needs embedding
        return run_ingest(settings, store, embedder, paths, quiet, field_map, sync=sync, collection=collection)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    except IngestInterrupted as exc:
        print_ingest_report(exc.report, settings)
        click.echo(
            "Interrupted. Every paper counted above is stored with all its chunks; run the same command "
            "again to ingest the rest (finished papers are reported as unchanged).",
            err=True,
        )
        sys.exit(130)


def ingest_report_output(report, settings: Settings):
    """What ``paperchat ingest`` prints for ``report``: one line per file on stdout (failures and
    repairs on stderr), the store's totals, and a closing line on stderr with exit code 1 when
    records or files failed.

    Returns:
        A :class:`ui.discovery.CommandOutput`.
    """
    from ui.discovery import CommandOutput

    out: list[str] = []
    err: list[str] = []
    for f in report.files:
        out.append(f.line())
        err += [f"  failed {p}" for p in f.problems]
        err += [f"  repaired {p}" for p in f.repairs]
    out.append(_totals(report, settings))
    if report.unmended:
        err.append(report.unmended_line())
    failed = sum(len(f.problems) for f in report.files)
    if failed:
        s = "s" if failed != 1 else ""
        err.append(
            f"{failed} record{s} or file{s} could not be ingested (listed above); everything else is stored."
        )
    return CommandOutput(stdout="\n".join(out), stderr="\n".join(err), exit_code=1 if failed else 0)


def print_ingest_report(report, settings: Settings) -> None:
    """Print one line per file (failures and repairs on stderr), then the store's totals."""
    for f in report.files:
        click.echo(f.line())
        for p in f.problems:
            click.echo(f"  failed {p}", err=True)
        for p in f.repairs:
            click.echo(f"  repaired {p}", err=True)
    click.echo(_totals(report, settings))
    if report.unmended:
        click.echo(report.unmended_line(), err=True)


def _totals(report, settings: Settings) -> str:
    return (
        f"store: {report.papers_in_store} papers, {report.chunks_in_store} chunks "
        f"({settings.index_name()}, {report.seconds:.1f} s)"
    )
