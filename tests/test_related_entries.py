"""Related papers and saved questions at every entry, on the real parts (the bundled embedder, Chroma
on disk, the 38 seed papers): the one function (:func:`rag.route.similar.similar_papers`), the chat's
"papers like X", ``paperchat similar``, the MCP tools through the SDK's own client, the HTTP API
through an HTTP client, and the page (its "More like this" and "Watch this question")."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

import anyio
import httpx
import pytest
from click.testing import CliRunner
from gradio_client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from rag.lexicon import term_key
from rag.route.similar import similar_papers
from rag.text import content_terms
from store.watches import Watches
from tests.conftest import ROOT, free_port, served
from ui.api import create_app, start
from ui.cli import main
from ui.evidence_panel import MORE_LIKE
from ui.service import Library

pytestmark = pytest.mark.slow

DANCE = "000_6b930c46f6674b66#1"


@pytest.fixture(scope="module")
def expected(extractive) -> list[str]:
    """DANCE's five neighbours as the one function lists them."""
    return [n.paper.id for n in similar_papers(extractive.pipeline, DANCE).neighbours]


def test_neighbours_never_include_the_paper_and_say_what_makes_them_similar(extractive, expected):
    papers = extractive.retriever.papers
    related = similar_papers(extractive.pipeline, DANCE, k=5)
    assert len(expected) == 5 and DANCE not in expected
    everything = similar_papers(extractive.pipeline, DANCE, k=50)  # more than the collection holds
    assert len(everything.neighbours) == len(papers) - 1 and DANCE not in {n.paper.id for n in everything.neighbours}
    assert [n.paper.id for n in everything.neighbours[:5]] == expected  # the same order, whatever k
    for n in related.neighbours:
        seed, other = papers[DANCE].abstract, n.paper.abstract
        assert seed[n.seed_sentence.start : n.seed_sentence.end] == n.seed_sentence.sentence
        assert other[n.sentence.start : n.sentence.end] == n.sentence.sentence
        for term in n.terms:  # every shared term is stated by both abstracts (by term key)
            keys = [term_key(w) for w in content_terms(term)]
            for text in (f"{papers[DANCE].title} {seed}", f"{n.paper.title} {other}"):
                assert all(k in {term_key(w) for w in content_terms(text)} for k in keys), (term, n.paper.label)
    assert sum(bool(n.terms) for n in related.neighbours) >= 4  # most neighbours name what they share
    with pytest.raises(ValueError, match="between 1 and 50"):
        similar_papers(extractive.pipeline, DANCE, k=0)
    only = {expected[2], expected[4], DANCE}  # a filter restricts the neighbours, never lists the paper
    got = [n.paper.id for n in similar_papers(extractive.pipeline, DANCE, allowed=only).neighbours]
    assert got == [expected[2], expected[4]]


def test_papers_like_a_paper_in_chat_and_more_like_a_number(extractive, expected):
    conv = extractive.conversation()
    turn = conv.ask("Are there any papers similar to DANCE?")
    assert turn.kind == "similar" and turn.answer.kind == "similar"
    assert [c.paper_id for c in turn.citations] == [*expected, DANCE]  # the paper last, as quoted in each pair
    for n, c in zip(turn.related.neighbours, turn.citations, strict=False):
        assert f"“{n.sentence.sentence}” [{c.number}]" in turn.answer.text
        assert turn.answer.text.count(f"“{n.seed_sentence.sentence}”") == 1  # the paper's sentence quoted once
    number = turn.citations[0].number  # "more like [n]": the first neighbour's number
    again = conv.ask(f"more like [{number}]")
    assert again.kind == "similar" and again.related.seed.id == expected[0]
    assert expected[0] not in [c.paper_id for c in again.citations[:-1]]
    unclear = conv.similar("ZQXW-9")  # no paper of the collection: which one is meant is asked
    assert unclear.kind == "clarify" and not unclear.citations


def test_paperchat_similar_prints_the_same_neighbours(seed_settings, expected):
    run = CliRunner().invoke
    r = run(main, ["--home", str(seed_settings.home), "similar", "DANCE", "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["turn"] == "similar" and [n["paper_id"] for n in data["similar"]["neighbours"]] == expected
    assert data["similar"]["paper"]["paper_id"] == DANCE
    pair = data["similar"]["neighbours"][0]["pair"]
    assert pair["paper"]["paper_id"] == DANCE and pair["neighbour"]["paper_id"] == expected[0]
    text = run(main, ["--home", str(seed_settings.home), "similar", "DANCE", "-k", "2"])
    assert text.exit_code == 0 and text.output.startswith("2 papers like DANCE [3], nearest first:")
    unclear = run(main, ["--home", str(seed_settings.home), "similar", "ZQXW-9"])
    assert unclear.exit_code == 1 and "I could not find “ZQXW-9”" in unclear.output


async def _mcp(home: str, out: dict[str, Any]) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "ui.cli", "--home", home, "mcp", "--llm", "none"], env={**os.environ},
        cwd=str(ROOT),
    )  # fmt: skip
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            out["tools"] = {t.name for t in (await session.list_tools()).tools}
            out["similar"] = await session.call_tool("similar_papers", {"paper": "DANCE", "k": 5})
            out["watch"] = await session.call_tool("watch_question", {"question": "Which papers study audio?"})
            out["list"] = await session.call_tool("list_watches", {})
            out["remove"] = await session.call_tool("remove_watch", {"question": "1"})
            out["gone"] = await session.call_tool("remove_watch", {"question": "1"})


def test_mcp_similar_papers_and_watch_tools(seed_settings, expected):
    out: dict[str, Any] = {}
    anyio.run(_mcp, str(seed_settings.home), out)
    assert {"similar_papers", "watch_question", "list_watches", "remove_watch"} <= out["tools"]
    data = out["similar"].structured_content
    assert [n["paper_id"] for n in data["similar"]["neighbours"]] == expected
    assert out["watch"].structured_content["added"] is True
    assert [w["question"] for w in out["list"].structured_content["watches"]] == ["Which papers study audio?"]
    assert out["remove"].structured_content["removed"]["question"] == "Which papers study audio?"
    assert out["gone"].is_error and "no saved question" in out["gone"].content[0].text
    assert Watches(seed_settings.home).load() == []


def test_api_similar_and_watches(extractive, expected):
    port = free_port()
    server = start(create_app(Library(extractive)), "127.0.0.1", port, block=False)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        r = httpx.get(f"{base}/similar", params={"paper": "DANCE", "k": 5}, timeout=120)
        assert r.status_code == 200 and [n["paper_id"] for n in r.json()["similar"]["neighbours"]] == expected
        by_id = httpx.get(f"{base}/similar", params={"paper": DANCE, "k": 2}, timeout=120).json()
        assert [n["paper_id"] for n in by_id["similar"]["neighbours"]] == expected[:2]
        assert httpx.get(f"{base}/similar", params={"paper": "DANCE", "k": 0}, timeout=60).status_code == 400
        saved = httpx.post(f"{base}/watches", json={"question": "graph condensation"}, timeout=60)
        assert saved.status_code == 200 and saved.json()["added"] is True
        assert [w["question"] for w in httpx.get(f"{base}/watches", timeout=60).json()["watches"]] == [
            "graph condensation"
        ]
        gone = httpx.delete(f"{base}/watches", params={"question": "graph condensation"}, timeout=60)
        assert gone.status_code == 200 and gone.json()["removed"]["question"] == "graph condensation"
        assert httpx.delete(f"{base}/watches", params={"question": "graph condensation"}, timeout=60).status_code == 404
    finally:
        server.should_exit = True
        for w in Watches(extractive.settings.home).load():
            Watches(extractive.settings.home).remove(w.question)


def test_the_page_more_like_this_and_watch_this_question(extractive, expected):
    home = extractive.settings.home
    try:
        with served(extractive) as url:
            c = Client(url, verbose=False, download_files=False)
            first = c.predict("What accuracy gain does DANCE report?", api_name="/ask")
            panel = first[1]
            n = int(re.search(r'id="src-(\d+)" data-paper-id="000_6b930c46f6674b66#1"', panel).group(1))
            ask = MORE_LIKE.format(n=n)
            assert f'class="pc-more" href="#pc-more-{n}" data-ask="{ask}"' in panel  # the link's message
            more = c.predict(ask, api_name="/ask")  # what the page's script sends on a click
            assert more[3]["kind"] == "similar"
            shown = re.findall(r'<section class="pc-src" id="src-\d+" data-paper-id="([^"]+)"', more[1])
            assert shown == [*expected, DANCE]
            status = c.predict("", api_name="/watch")  # nothing typed: the last question asked
            assert "Watching “More papers like" in status
            assert [w.question for w in Watches(home).load()] == [ask]
    finally:
        for w in Watches(home).load():
            Watches(home).remove(w.question)
