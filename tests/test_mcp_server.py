"""``paperchat mcp`` through the MCP SDK's own client over stdio: one server process for the module
(real Chroma on disk, the real embedder, ``--llm none``), every tool called, and ``ask`` equal to
``paperchat ask`` for every named-fact question of the dev set; ``initialize`` answered before the
collection is loaded, the papers listed as resources; and a server the client leaves while it
still embeds the collection in the background exits by itself, with code 0."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from typing import Any

import anyio
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from rag.llm.prose import REFUSAL
from rag.route.conversation import Conversation
from tests.conftest import NAMED_FACTS, ROOT, cited_evidence

pytestmark = pytest.mark.slow

DANCE = "000_6b930c46f6674b66#1"
APM = "000_6b930c46f6674b66#2"
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("search", "search_papers", {"query": "graph condensation for federated learning", "k": 3}),
    ("compare", "compare", {"papers": ["DANCE", "APM", "CoVRL"], "aspect": "which datasets does each use?"}),
    ("compare_one", "compare", {"papers": ["DANCE"]}),
    ("table", "table", {"topic": "Which papers work on speech or audio?", "columns": ["datasets"]}),
    ("table_papers", "table", {"papers": ["DANCE", "APM"]}),
    ("paper", "get_paper", {"id": DANCE}),
    ("no_paper", "get_paper", {"id": DANCE + "x"}),
    ("bibtex", "bibtex", {"ids": [DANCE, APM]}),
    ("refused", "ask", {"question": "What is the boiling point of water on Mars?"}),
    ("year_stated", "ask", {"question": "Which papers from 2025 work on speech or audio?"}),
    ("year_kept", "ask", {"question": "Which papers from 2025 work on speech or audio?", "auto_filter": False}),
]


async def _session(home: str, errlog, out: dict[str, Any]) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "ui.cli", "--home", home, "mcp", "--llm", "none"],
        env={**os.environ},
        cwd=str(ROOT),
    )
    started = time.perf_counter()
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        out["initialize_s"] = time.perf_counter() - started
        out["tools"] = (await session.list_tools()).tools
        out["templates"] = (await session.list_resource_templates()).resource_templates
        out["resource"] = (await session.read_resource("paper://" + DANCE.replace("#", "%23"))).contents
        out["loaded_s"] = time.perf_counter() - started  # reading a paper waits for the collection
        out["resources"] = await session.list_resources()
        for q in NAMED_FACTS:
            out[q["qid"]] = await session.call_tool("ask", {"question": q["question"]})
        for key, tool, args in CALLS:
            out[key] = await session.call_tool(tool, args)


@pytest.fixture(scope="module")
def mcp_results(seed_store, seed_settings, tmp_path_factory):
    """``wait()`` -> the results of one stdio session with the server; the session starts at once
    and runs in the background while the test computes its reference answers."""
    out: dict[str, Any] = {}
    errors: list[BaseException] = []
    log = tmp_path_factory.mktemp("mcp") / "server.log"

    def run() -> None:
        with open(log, "w", encoding="utf-8") as errlog:
            try:
                anyio.run(_session, str(seed_settings.home), errlog, out)
            except BaseException as exc:  # noqa: BLE001 - reported by wait()
                errors.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def wait() -> dict[str, Any]:
        thread.join(timeout=600)
        assert not thread.is_alive(), "the MCP session did not finish in 600 s"
        if errors:
            raise AssertionError(f"MCP session failed; server log:\n{log.read_text()[-3000:]}") from errors[0]
        return out

    return wait


def test_ask_over_mcp_equals_paperchat_ask_for_every_named_fact_question(mcp_results, named_fact_answers):
    reference = named_fact_answers()  # computed while the server answers
    out = mcp_results()
    same = 0
    for q in NAMED_FACTS:
        res = out[q["qid"]]
        assert not res.is_error, res.content
        got, want = res.structured_content, reference[q["qid"]]
        assert cited_evidence(got) == cited_evidence(want), q["qid"]
        assert (got["text"], got["refused"]) == (want["text"], want["refused"]), q["qid"]
        same += 1
    assert same == len(NAMED_FACTS) == 23


def test_a_year_the_question_states_filters_as_paperchat_ask_does(mcp_results):
    # the seed papers are of 2026: the year stated is a filter (named in the note, as the CLI and
    # the page name theirs) unless the client turns it off
    out = mcp_results()
    stated, kept = out["year_stated"].structured_content, out["year_kept"].structured_content
    assert stated["refused"] and "filter: year=2025 (remove with auto_filter=false)" in stated["note"]
    assert not kept["refused"] and kept["citations"] and "year=2025" not in kept["note"]


def test_the_tools_say_what_they_guarantee(mcp_results):
    tools = {t.name: t for t in mcp_results()["tools"]}
    assert set(tools) == {
        "search_papers", "ask", "compare", "table", "related_work", "get_paper", "bibtex", "similar_papers",
        "watch_question", "list_watches", "remove_watch",
    }
    assert "exact spans" in (tools["similar_papers"].description or "")
    assert "exact span" in (tools["ask"].description or "") and REFUSAL in (tools["ask"].description or "")
    assert "exact spans" in (tools["search_papers"].description or "")
    assert "exact spans" in (tools["table"].description or "") and "not stated" in (tools["table"].description or "")
    assert set(tools["search_papers"].input_schema["properties"]) == {"query", "year", "venue", "author", "k"}


def test_every_tool_answers_with_abstract_sentences(mcp_results, extractive):
    out = mcp_results()
    papers = extractive.retriever.papers

    def exact(evidence: list[dict]) -> bool:
        return all(papers[e["paper_id"]].abstract[e["start"] : e["end"]] == e["sentence"] for e in evidence)

    found = out["search"].structured_content["papers"]
    assert found[0]["paper_id"] == DANCE and len(found) == 3 and all(exact(f["evidence"]) for f in found)

    compared = out["compare"].structured_content
    assert compared["turn"] == "compare"
    assert [p["label"] for p in compared["table"]["papers"]] == ["DANCE", "APM", "CoVRL"]
    assert compared["table"]["aspects"][0]["aspect"].lower().startswith("which datasets")
    rows = compared["table"]["rows"] + compared["table"]["aspects"]
    assert all(exact(evs) for r in rows for evs in r["evidence"].values())
    assert out["compare_one"].is_error and "at least two" in out["compare_one"].content[0].text

    table = out["table"].structured_content
    assert table["turn"] == "table" and table["table"]["columns"][1:] == [{"title": "Datasets", "kind": "data"}]
    assert table["table"]["columns"][0]["kind"] == "topic"  # why each paper is a row
    listed = Conversation(extractive.pipeline).ask("Which papers work on speech or audio?").answer.cited_ids
    rows = [r["paper_id"] for r in table["table"]["rows"]]
    assert len(rows) >= 2 and rows[: len(listed)] == listed  # every member, in the order the list answer cites
    assert all(exact(c["evidence"]) for r in table["table"]["rows"] for c in r["cells"])
    assert [r["paper_id"] for r in out["table_papers"].structured_content["table"]["rows"]] == [DANCE, APM]

    record = out["paper"].structured_content
    assert record["id"] == DANCE and record["abstract"] == papers[DANCE].abstract
    assert out["no_paper"].is_error and DANCE in out["no_paper"].content[0].text  # the close id is named
    bib = out["bibtex"].content[0].text
    assert bib.count("@misc{") == 2 and "Paper id: 000\\_6b930c46f6674b66\\#1" in bib
    assert "title = " not in bib and "paperchat shows it as: DANCE." in bib  # the seed records have no titles

    refused = out["refused"].structured_content
    assert refused["refused"] and not refused["citations"] and refused["text"].startswith(REFUSAL)


def test_papers_are_resources_by_id(mcp_results, extractive):
    out = mcp_results()
    assert [t.uri_template for t in out["templates"]] == ["paper://{+paper_id}"]
    assert json.loads(out["resource"][0].text)["id"] == DANCE
    listed = out["resources"]
    ids = sorted(extractive.retriever.papers)
    assert len(ids) == 38 and listed.next_cursor is None  # one page holds the seed corpus
    assert [r.uri for r in listed.resources] == ["paper://" + pid.replace("#", "%23") for pid in ids]
    assert {r.name for r in listed.resources if r.uri.endswith("%231") and "6b930c" in r.uri} == {"DANCE"}


def test_initialize_is_answered_before_the_collection_is_loaded(mcp_results):
    out = mcp_results()
    # The server answers the handshake, then loads the embedder and the store (seconds): the first
    # call that needs the collection waits for it, the handshake does not.
    assert out["initialize_s"] < out["loaded_s"] - 1.0, (out["initialize_s"], out["loaded_s"])


async def _call_and_leave(home: str, errlog) -> None:
    """One call, then the client closes (stdin closed, 2 s for the server to exit, then SIGTERM)."""
    params = StdioServerParameters(  # sh reports the server's exit code on the log once it ended by itself
        command="sh",
        args=["-c", '"$@"; echo "paperchat mcp exited with $?" >&2', "sh",
              sys.executable, "-m", "ui.cli", "--home", home, "mcp", "--llm", "none"],  # fmt: skip
        env={**os.environ},
        cwd=str(ROOT),
    )
    async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        assert not (await session.call_tool("get_paper", {"id": DANCE})).is_error


def test_the_server_exits_cleanly_when_the_client_leaves(seed_store, seed_settings, tmp_path):
    # get_paper embeds nothing: the client leaves while the server still embeds the 38 papers' sentences
    log = tmp_path / "server.log"
    with open(log, "w", encoding="utf-8") as errlog:
        anyio.run(_call_and_leave, str(seed_settings.home), errlog)
    text = log.read_text(encoding="utf-8")
    assert "terminate called" not in text, text[-2000:]
    assert text.splitlines()[-1:] == ["paperchat mcp exited with 0"], text[-2000:]
