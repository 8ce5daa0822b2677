"""A page (or any reader process) picks up what another process wrote to its data directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow

FIRST = {
    "id": "p-1",
    "abstract": "We propose HashRoute, which routes requests among LLM servers by hashing prompts. "
    "HashRoute cuts latency by 20% on a production trace.",
}
ADDED = {
    "id": "p-2",
    "abstract": "We propose ZebraNet, a striped convolutional network for counting zebras in aerial images. "
    "ZebraNet counts herds with 95% accuracy on the Serengeti dataset.",
}


def test_the_page_answers_from_papers_another_process_ingested_and_removed(tmp_path, embedder):
    from rag.pipeline import build_pipeline, prepare_environment
    from rag.route.conversation import Conversation
    from rag.settings import Settings
    from ui.session import Backends

    home = tmp_path / "home"
    env = dict(os.environ, PAPERCHAT_HOME=str(home))
    cli = [sys.executable, "-m", "ui.cli"]

    def run(*args: str) -> None:
        out = subprocess.run([*cli, *args], env=env, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
        assert out.returncode == 0, out.stderr

    src = tmp_path / "papers.jsonl"
    src.write_text(json.dumps(FIRST) + "\n")
    run("ingest", "--quiet", str(src))
    settings = Settings(home=home)
    prepare_environment(settings)
    components = build_pipeline(settings, embedder=embedder, llm=None)
    backends = Backends(components, "")  # what the page holds while it serves
    pipeline, _ = backends.resolve("none", "")
    assert not backends.refresh() and set(pipeline.catalogue.papers) == {"p-1"}

    src.write_text(json.dumps(FIRST) + "\n" + json.dumps(ADDED) + "\n")
    run("ingest", "--quiet", str(src))  # another process writes while the page runs
    pipeline, _ = backends.resolve("none", "")
    assert set(pipeline.catalogue.papers) == {"p-1", "p-2"} and components.pipeline is pipeline
    ans = Conversation(pipeline).ask("Which paper counts zebras in aerial images?").answer
    assert ans.cited_ids == ["p-2"] and ans.hits[0].dense > 0.5  # found by the vector index too, not only BM25

    run("remove", "p-2")
    pipeline, _ = backends.resolve("none", "")
    assert set(pipeline.catalogue.papers) == {"p-1"}
    assert "p-2" not in Conversation(pipeline).ask("Which paper counts zebras in aerial images?").answer.cited_ids


def test_files_added_on_the_page_are_reported_per_record_and_answered_from(tmp_path, embedder):
    """The page's "Add papers": the same per-file report as `paperchat ingest` (a bad record named
    with its line, the rest ingested), the heading's count follows, and the next answer cites the
    new paper with its evidence in the panel."""
    from conftest import served
    from gradio_client import Client, handle_file

    from rag.index.ingest import ingest_paths
    from rag.pipeline import build_pipeline, open_store, prepare_environment
    from rag.settings import Settings

    settings = Settings(home=tmp_path / "home")
    prepare_environment(settings)
    first = tmp_path / "first.jsonl"
    first.write_text(json.dumps(FIRST) + "\n")
    ingest_paths([first], open_store(settings), embedder)
    components = build_pipeline(settings, embedder=embedder, llm=None)
    upload = tmp_path / "zebras.jsonl"
    upload.write_text(json.dumps(ADDED) + "\n" + '{"id": "broken", "abstract": \n')
    with served(components) as url:
        c = Client(url, verbose=False, download_files=False)
        report, header = c.predict([handle_file(str(upload))], api_name="/add_papers")
        assert "zebras.jsonl: found 2, added 1, updated 0, unchanged 0, failed 1" in report
        assert "failed zebras.jsonl:2: invalid JSON" in report and "**2 papers** in the collection now" in report
        assert "Ask about the 2 paper abstracts" in header
        out = c.predict("Which paper counts zebras in aerial images?", api_name="/ask")
        assert 'data-paper-id="p-2"' in out[1] and "95%" in out[1]
    assert (settings.home / "uploads" / "zebras.jsonl").is_file()
