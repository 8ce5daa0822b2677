"""The MCP server in process, through the official MCP client (``mcp.Client`` with the
``initialize`` handshake over in-memory JSON-RPC streams): it answers ``initialize`` while the
collection is still loading, lists the papers as resources a page at a time with MCP's cursor
pagination (beside the ``paper://{id}`` template), and says why a collection could not be loaded.

The collection here is a hand-made shelf of papers (what the resource and record tools read of
:class:`ui.service.Library`); ``tests/test_mcp_server.py`` runs the real one over stdio.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

import anyio
import click
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError

from store.papers import Paper, make_paper
from ui.deferred import Deferred
from ui.exports import bibtex
from ui.mcp_server import PAPERS_PER_PAGE, build_server, paper_uri, papers_page
from ui.service import UnknownPaper


class Shelf:
    """The part of :class:`ui.service.Library` the resources, ``get_paper`` and ``bibtex`` use."""

    def __init__(self, papers: list[Paper]):
        self.papers = {p.id: p for p in papers}

    def paper(self, paper_id: str) -> Paper:
        if paper_id not in self.papers:
            raise UnknownPaper(f"No paper has the id “{paper_id}”.")
        return self.papers[paper_id]

    def bibtex(self, ids: list[str]) -> str:
        from rag.types import Citation

        cits = [Citation(i, pid, self.papers[pid].label, ()) for i, pid in enumerate(ids, start=1)]
        return bibtex(cits, self.papers)


def shelf(n: int) -> Shelf:
    """``n`` papers with ids ``p000#1``, ``p001#2``, ... (one with a DOI-shaped id, one with a space)."""
    papers = [
        make_paper(f"p{i:03d}#{i + 1}", f"We propose method {i}. It works.", title=f"Method {i}",
                   authors=("Ada Lovelace",), year=2020 + i % 5, venue="ICML")  # fmt: skip
        for i in range(n)
    ]
    papers += [make_paper("10.1162/tacl_a_00999", "A DOI id. Fine."), make_paper("odd id %1", "Odd id. Fine.")]
    return Shelf(papers)


def run(server: Any, steps: Callable[[Client], Any]) -> Any:
    """Connect the official client to ``server`` in process (the initialize handshake), run ``steps``."""

    async def go() -> Any:
        async with Client(server, mode="legacy") as client:
            return await steps(client)

    return anyio.run(go)


def test_initialize_is_answered_while_the_collection_is_still_loading():
    started, release = threading.Event(), threading.Event()
    books = shelf(3)

    def load() -> Any:
        started.set()
        assert release.wait(30), "the test never let the load finish"
        return books

    library: Deferred[Any] = Deferred(load)
    seen: dict[str, Any] = {}

    async def steps(client: Client) -> None:
        # The handshake is over: the load started with the server and is still held back.
        seen["loading"] = started.wait(5) and not library.ready
        seen["tools"] = {t.name for t in (await client.list_tools()).tools}
        seen["templates"] = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
        release.set()
        seen["paper"] = (await client.call_tool("get_paper", {"id": "p001#2"})).structured_content

    with library:
        run(build_server(library), steps)
    assert seen["loading"] is True
    assert seen["tools"] == {
        "search_papers", "ask", "compare", "table", "related_work", "get_paper", "bibtex", "similar_papers",
        "watch_question", "list_watches", "remove_watch",
    }
    assert seen["templates"] == ["paper://{+paper_id}"]
    assert seen["paper"]["id"] == "p001#2" and seen["paper"]["title"] == "Method 1"


def test_the_papers_are_resources_listed_a_page_at_a_time():
    books = shelf(2 * PAPERS_PER_PAGE + 30)

    async def steps(client: Client) -> dict[str, Any]:
        pages, cursor = [], None
        while True:
            page = await client.list_resources(cursor=cursor)
            pages.append(page.resources)
            cursor = page.next_cursor
            if cursor is None:
                break
        read = {}
        for pid in ("p007#8", "10.1162/tacl_a_00999", "odd id %1"):
            contents = (await client.read_resource(paper_uri(pid))).contents
            read[pid] = json.loads(contents[0].text)["id"]
        with pytest.raises(MCPError) as bad:
            await client.list_resources(cursor="not a cursor!")
        return {"pages": pages, "read": read, "bad": bad.value}

    got = run(build_server(Deferred(lambda: books)), steps)
    assert [len(p) for p in got["pages"]] == [PAPERS_PER_PAGE, PAPERS_PER_PAGE, 32]
    listed = [r for p in got["pages"] for r in p]
    assert [r.uri for r in listed] == [paper_uri(pid) for pid in sorted(books.papers)]  # each paper once, id order
    first = next(r for r in listed if r.uri == paper_uri("p000#1"))
    assert (first.name, first.title, first.description, first.mime_type) == (
        "Method 0", "Method 0", "Ada Lovelace · 2020 · ICML", "application/json"
    )
    assert got["read"] == {pid: pid for pid in got["read"]}  # every listed URI reads back its paper
    assert got["bad"].code == -32602  # MCP: an invalid cursor is INVALID_PARAMS


def test_a_page_after_an_ingest_neither_repeats_nor_skips():
    papers = shelf(10).papers
    first = papers_page(papers, None, size=4)
    assert [r.uri for r in first.resources] == [paper_uri(p) for p in sorted(papers)[:4]]
    assert first.resources[-1].uri == paper_uri("p001#2")  # the cursor names it
    papers = {**papers, "a-new#1": make_paper("a-new#1", "New. Paper."), "zz-new#1": make_paper("zz-new#1", "New.")}
    del papers["p001#2"]  # meanwhile: the cursor's paper removed, one paper added before it, one after
    rest, cursor = [], first.next_cursor
    while cursor:
        page = papers_page(papers, cursor, size=4)
        rest += [r.uri for r in page.resources]
        cursor = page.next_cursor
    before = [paper_uri(p) for p in sorted(shelf(10).papers)]
    assert rest == before[4:] + [paper_uri("zz-new#1")]


def test_a_collection_that_cannot_load_says_why_and_is_tried_again():
    calls = []

    def load() -> Any:
        calls.append(1)
        if len(calls) <= 2:  # at the server's start, and again at the first call
            raise click.ClickException("The index in /x is empty. Index papers with `paperchat ingest PATH...`")
        return shelf(2)

    async def steps(client: Client) -> tuple[Any, Any, Any]:
        failed = await client.call_tool("get_paper", {"id": "p000#1"})
        again = await client.call_tool("get_paper", {"id": "p000#1"})
        bib = await client.call_tool("bibtex", {"ids": ["p001#2"]})
        return failed, again, bib

    with Deferred(load) as library:
        failed, again, bib = run(build_server(library), steps)
    assert failed.is_error and "could not load the collection" in failed.content[0].text
    assert "`paperchat ingest PATH...`" in failed.content[0].text  # the remedy, as the load said it
    assert not again.is_error and again.structured_content["id"] == "p000#1" and len(calls) == 3
    assert bib.content[0].text.startswith("@misc{lovelace2021method,\n  title = {{Method 1}},")
