"""The commands that serve paperchat to other programs: ``paperchat mcp`` (an MCP server for
agents and chat clients) and ``paperchat serve`` (an OpenAI-compatible HTTP API).

Both load one pipeline (the bundled papers are indexed first into a data directory never
written to, as ``paperchat ask`` does) and serve every call with it. ``paperchat mcp`` answers
the MCP handshake first and loads it in the background (clients time ``initialize`` out).
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING

import click

from rag.settings import Settings
from ui.cli_setup import LLM_CHOICE, command_settings

if TYPE_CHECKING:  # loaded by the commands, not on import
    from ui.service import Library

__all__ = ["mcp", "serve"]


def _open_library(settings: Settings, stack: contextlib.ExitStack) -> Library:
    """Build the :class:`ui.service.Library` of ``settings`` and start embedding its papers'
    sentences in the background until ``stack`` closes (:func:`rag.pipeline.prewarming`: the
    process then exits cleanly; answers never wait for the first embedding of a paper's sentences).

    Raises:
        click.ClickException: the store or the LLM cannot be used (the message has the remedy).
    """
    from rag.pipeline import prewarming
    from ui.cli_setup import build_components
    from ui.service import Library
    from ui.warm import load_warmed

    comp = load_warmed(lambda: build_components(settings, ensure_corpus=True))
    stack.enter_context(prewarming(comp))
    return Library(comp, workers=settings.api.workers)


@contextlib.contextmanager
def _library(settings: Settings) -> Iterator[Library]:
    """The loaded :class:`ui.service.Library` while the block runs (output while loading goes to
    stderr), its papers' sentences embedded in the background until the block ends."""
    with contextlib.ExitStack() as stack:
        with contextlib.redirect_stdout(sys.stderr):
            library = _open_library(settings, stack)
        yield library


@click.command()
@click.option("--http", "http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", default=8765, show_default=True, type=click.IntRange(1, 65535), help="Port of --http.")
@click.option("--llm", "backend", type=LLM_CHOICE, default=None, help="LLM backend (default auto).")
@click.option("--ollama-model", default=None, help="Ollama model (default llama3.2:3b).")
@click.pass_context
def mcp(ctx: click.Context, http: bool, port: int, backend: str | None, ollama_model: str | None) -> None:
    """Serve paperchat to MCP clients (Claude Desktop, editors, agents) over stdio.

    Tools: search_papers, ask, compare, table, get_paper, bibtex; the papers as resources (paged) and
    the template paper://{id}. It answers the handshake at once and loads the collection meanwhile.
    With --http, streamable HTTP at http://127.0.0.1:PORT/mcp (loopback only).
    """
    from ui.deferred import Deferred
    from ui.mcp_server import build_server

    settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)

    def load() -> Library:
        with ctx.scope(cleanup=False):  # the loading thread names this command in what it says
            return _open_library(settings, stack)

    # The server starts loading when it starts (the stdio transport then holds stdout: what loading
    # prints goes to stderr) and answers `initialize` meanwhile; leaving waits for a load still running.
    with contextlib.ExitStack() as stack, Deferred(load, name="paperchat-mcp-load") as library:
        server = build_server(library)
        if http:
            click.echo(f"paperchat MCP server at http://127.0.0.1:{port}/mcp (Ctrl+C to stop)", err=True)
            server.run("streamable-http", host="127.0.0.1", port=port)
        else:
            server.run("stdio")
    # The process ends now. Its loaded heap (~0.7 M objects) is left out of the interpreter's final
    # collections, seconds on a busy machine: a client that stops the server (the MCP SDK closes
    # stdin, waits 2 s, then kills it) sees it exit by itself, with code 0.
    gc.freeze()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (others need --api-key).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--api-key",
    default=None,
    metavar="KEY",
    help="Require 'Authorization: Bearer KEY' (PAPERCHAT_API_KEY); required off loopback.",
)
@click.option("--llm", "backend", type=LLM_CHOICE, default=None, help="LLM backend (default auto).")
@click.option("--ollama-model", default=None, help="Ollama model (default llama3.2:3b).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, api_key: str | None, backend: str | None,
          ollama_model: str | None) -> None:  # fmt: skip
    """Serve an OpenAI-compatible API (POST /v1/chat/completions, GET /v1/models) at
    http://127.0.0.1:8000/v1 by default; chat clients such as Open WebUI can use paperchat as a model."""
    from ui.api import create_app
    from ui.bind import check_api_bind
    from ui.warm import serve_advertised

    key = (api_key if api_key is not None else os.environ.get("PAPERCHAT_API_KEY", "")).strip()
    try:
        check_api_bind(host, key)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from exc
    settings = command_settings(ctx, backend=backend, ollama_model=ollama_model)
    with _library(settings) as library:
        app = create_app(library, api_key=key, model=settings.api.model, conversations=settings.api.conversations)
        shown = f"[{host}]" if ":" in host else host
        auth = "; requests need 'Authorization: Bearer <key>'" if key else ""
        click.echo(f"paperchat API at http://{shown}:{port}/v1 as model '{settings.api.model}'{auth} (Ctrl+C to stop)",
                   err=True)  # fmt: skip
        serve_advertised(app, library, settings, host, port)
