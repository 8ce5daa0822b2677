"""Store contract: every ChromaStore backend behaves the same.

One mixin of contract tests (:class:`StoreContract`) runs against two backends: the local
persistent store in ``tmp_path`` and a real Chroma server (``chroma run``, started once per
module on a free port and used through ``ChromaStore(url=...)``). Vectors come from the
hand-checkable :class:`rag.index.embed.HashingEmbedder`, so every expected score can be computed
with numpy. The end of the file drives the CLI against the server (``--chroma-url`` and
``PAPERCHAT_CHROMA_URL``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import numpy as np
import pytest

from rag.index.embed import HashingEmbedder
from rag.index.ingest import chunk_paper
from store.chroma import ChromaStore, Chunk, DimensionMismatch, StoreError
from store.papers import Paper, make_paper

EMB = HashingEmbedder(dimension=32)


def _words(text: str) -> int:
    return len(text.split())


def _item(paper: Paper, max_tokens: int = 12, emb: HashingEmbedder = EMB) -> tuple[Paper, list[Chunk], np.ndarray]:
    chunks = chunk_paper(paper, _words, max_tokens=max_tokens, overlap=0)
    return paper, chunks, emb.embed([c.text for c in chunks])


ALPHA = make_paper(
    "alpha#1",
    "We propose ALPHA, a sparse attention method for long documents. "
    "ALPHA halves memory on long inputs. It keeps accuracy on every benchmark we tried.",
    title="ALPHA: sparse attention",
    authors=["Ada Lovelace", "Jonas Müller"],
    year=2023,
    venue="ICML",
    url="https://github.com/example/alpha",
    source="mine.jsonl",
)
BETA = make_paper(
    "beta#2",
    "We introduce BETA for graph learning on molecules. BETA predicts binding affinity well.",
    title="BETA",
    authors=["Grace Hopper"],
    year=2022,
    venue="NeurIPS",
)
GAMMA = make_paper("gamma#3", "GAMMA studies speech recognition with small audio models in noisy rooms.")


class StoreContract:
    """Contract tests; a subclass provides the ``store`` fixture (a fresh, empty ChromaStore)."""

    def test_an_empty_store_reads_as_empty(self, store):
        assert store.counts() == (0, 0)
        assert store.dimension() is None
        assert store.all_papers() == []
        assert store.paper_hashes(["alpha#1"]) == {}
        assert store.query_chunks(EMB.embed(["anything"])[0], 5) == []
        assert store.audit().consistent

    def test_written_papers_round_trip_every_field(self, store):
        assert store.write_papers([_item(ALPHA), _item(BETA), _item(GAMMA)]) == 3
        got = {p.id: p for p in store.all_papers()}
        assert list(got) == ["alpha#1", "beta#2", "gamma#3"]  # id order
        for want in (ALPHA, BETA, GAMMA):
            have = got[want.id]
            assert have == want, want.id  # abstract, title, label, authors, year, venue, url, source, aliases
            assert isinstance(have.authors, tuple) and have.year == want.year
        assert got["alpha#1"].authors == ("Ada Lovelace", "Jonas Müller")
        assert got["alpha#1"].aliases == ALPHA.aliases
        assert got["gamma#3"].year is None and got["gamma#3"].venue == ""

    def test_counts_and_hashes_follow_the_writes(self, store):
        items = [_item(ALPHA), _item(BETA)]
        store.write_papers(items)
        n_chunks = sum(len(c) for _, c, _ in items)
        assert store.counts() == (2, n_chunks)
        assert store.dimension() == EMB.dimension
        assert store.paper_hashes(["alpha#1", "beta#2", "nope"]) == {
            "alpha#1": ALPHA.content_hash,
            "beta#2": BETA.content_hash,
        }

    def test_rewriting_a_paper_replaces_its_chunks(self, store):
        store.write_papers([_item(ALPHA, max_tokens=8)])
        before = store.counts()[1]
        assert before >= 3
        edited = make_paper("alpha#1", "ALPHA is now one short sentence only.", title="ALPHA v2", year=2024)
        store.write_papers([_item(edited, max_tokens=40)])
        assert store.counts() == (1, 1)
        chunks = store.chunks.get(where={"paper_id": "alpha#1"}, include=["documents", "metadatas"])
        assert chunks["documents"] == [edited.abstract]
        assert chunks["metadatas"][0]["content_hash"] == edited.content_hash
        assert store.paper_hashes(["alpha#1"]) == {"alpha#1": edited.content_hash}
        assert store.all_papers()[0].year == 2024
        assert store.audit().consistent

    def test_query_chunks_returns_the_nearest_best_first_with_cosines(self, store):
        items = [_item(ALPHA), _item(BETA), _item(GAMMA)]
        store.write_papers(items)
        question = "sparse attention memory for long documents"
        q = EMB.embed([question])[0]
        expected = sorted(
            ((p.id, c.index, float(v @ q)) for p, cs, vs in items for c, v in zip(cs, vs, strict=True)),
            key=lambda t: -t[2],
        )
        got = store.query_chunks(q, 4)
        assert len(got) == 4
        assert [(pid, idx) for pid, idx, _ in got] == [(pid, idx) for pid, idx, _ in expected[:4]]
        assert [s for _, _, s in got] == pytest.approx([s for _, _, s in expected[:4]], abs=1e-5)
        assert all(a >= b for (_, _, a), (_, _, b) in zip(got, got[1:], strict=False))
        # a chunk's own vector is its nearest neighbour with cosine 1
        _, chunks, vecs = items[1]
        top = store.query_chunks(vecs[0], 1)
        assert top[0][:2] == ("beta#2", 0) and top[0][2] == pytest.approx(1.0, abs=1e-5)
        # asking for more than the store holds returns everything
        assert len(store.query_chunks(q, 1000)) == store.counts()[1]

    def test_a_metadata_where_filter_restricts_the_query(self, store):
        store.write_papers([_item(ALPHA), _item(BETA), _item(GAMMA)])
        q = EMB.embed(["sparse attention memory for long documents"])[0]
        only_beta = store.query_chunks(q, 10, where={"paper_id": "beta#2"})
        assert only_beta and {pid for pid, _, _ in only_beta} == {"beta#2"}
        two = store.query_chunks(q, 10, where={"paper_id": {"$in": ["beta#2", "gamma#3"]}})
        assert {pid for pid, _, _ in two} == {"beta#2", "gamma#3"}
        first_chunks = store.query_chunks(q, 10, where={"chunk_index": 0})
        assert sorted(pid for pid, _, _ in first_chunks) == ["alpha#1", "beta#2", "gamma#3"]

    def test_delete_papers_removes_records_and_chunks(self, store):
        store.write_papers([_item(ALPHA), _item(BETA)])
        store.delete_papers(["alpha#1"])
        assert [p.id for p in store.all_papers()] == ["beta#2"]
        assert store.paper_hashes(["alpha#1"]) == {}
        assert store.counts() == (1, len(_item(BETA)[1]))
        assert not store.chunks.get(where={"paper_id": "alpha#1"})["ids"]
        store.delete_papers([])  # no-op
        assert store.counts()[0] == 1

    def test_vectors_of_another_dimension_raise(self, store):
        store.write_papers([_item(ALPHA)])
        with pytest.raises(DimensionMismatch, match="index name must change"):
            store.write_papers([_item(BETA, emb=HashingEmbedder(dimension=16))])
        assert store.counts()[0] == 1  # nothing of the refused write is stored

    def test_reads_page_through_more_records_than_one_batch(self, store):
        papers = [make_paper(f"p{i:03d}", f"Paper number {i} studies topic {i % 7} in depth today.") for i in range(23)]
        store._batch = 5  # force several pages on both backends
        store.write_papers([_item(p) for p in papers])
        assert [p.id for p in store.all_papers()] == [p.id for p in papers]
        assert len(store.paper_hashes([p.id for p in papers])) == 23
        audit = store.audit()
        assert (audit.papers, audit.chunks, audit.consistent, audit.orphans) == (23, store.counts()[1], True, ())

    def test_audit_finds_orphan_chunks_of_an_interrupted_write(self, store):
        paper, chunks, vecs = _item(BETA)
        store.write_papers([_item(ALPHA)])
        # what an interruption between the chunk write and the record write leaves behind
        store.chunks.upsert(
            ids=[c.id for c in chunks],
            embeddings=vecs,
            documents=[c.text for c in chunks],
            metadatas=[{"paper_id": paper.id, "chunk_index": c.index, "start": c.start, "end": c.end,
                        "content_hash": paper.content_hash} for c in chunks],
        )
        audit = store.audit()
        assert audit.consistent and audit.orphans == tuple(sorted(c.id for c in chunks))
        assert store.paper_hashes([paper.id]) == {}  # so the next ingest writes it again
        store.write_papers([_item(BETA)])
        assert store.audit() == type(audit)(2, store.counts()[1], (), ())


class TestLocalStore(StoreContract):
    """The persistent store on disk."""

    @pytest.fixture
    def store(self, tmp_path):
        return ChromaStore("pc_contract", path=tmp_path / "chroma")

    def test_it_persists_across_clients(self, tmp_path):
        ChromaStore("pc_persist", path=tmp_path / "c").write_papers([_item(ALPHA)])
        assert [p.id for p in ChromaStore("pc_persist", path=tmp_path / "c").all_papers()] == ["alpha#1"]


# --- the client/server backend ------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _chroma_exe() -> str:
    exe = Path(sys.executable).with_name("chroma")
    found = str(exe) if exe.exists() else shutil.which("chroma")
    if not found:
        pytest.fail("the `chroma` command of chromadb is missing from the venv: run `make install`")
    return found


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory):
    """A real ``chroma run`` server on a free port (its data in a temp dir), stopped at the end."""
    data = tmp_path_factory.mktemp("chroma_server")
    port = _free_port()
    log = (data / "server.log").open("wb")
    env = dict(os.environ, ANONYMIZED_TELEMETRY="False")
    proc = subprocess.Popen(
        [_chroma_exe(), "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=log, stderr=subprocess.STDOUT, env=env,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"chroma run did not start: {(data / 'server.log').read_text(errors='replace')[-2000:]}")
        time.sleep(0.2)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


class TestServerStore(StoreContract):
    """A Chroma server started with ``chroma run``, used over HTTP."""

    @pytest.fixture
    def store(self, chroma_server):
        return ChromaStore(f"pc_{uuid.uuid4().hex[:12]}", url=chroma_server)

    def test_two_clients_see_the_same_data(self, chroma_server):
        name = f"pc_{uuid.uuid4().hex[:12]}"
        ChromaStore(name, url=chroma_server).write_papers([_item(ALPHA)])
        other = ChromaStore(name, url=chroma_server)
        assert [p.id for p in other.all_papers()] == ["alpha#1"] and other.location == chroma_server

    def test_an_unreachable_server_says_how_to_start_one(self):
        with pytest.raises(StoreError, match="chroma run"):
            ChromaStore("pc_nowhere", url=f"http://127.0.0.1:{_free_port()}")


# --- the CLI against the server --------------------------------------------------------------

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.mark.slow
def test_cli_ingests_and_answers_through_a_chroma_server(chroma_server, tmp_path):
    """``PAPERCHAT_CHROMA_URL`` (and ``--chroma-url``) send every read and write to the server."""
    home = tmp_path / "home"
    env = dict(os.environ, PAPERCHAT_HOME=str(home), PAPERCHAT_CHROMA_URL=chroma_server)
    corpus = FIXTURES / "icml_mixed50.jsonl"
    n = sum(1 for line in corpus.read_text().splitlines() if line.strip())

    from conftest import run_cli  # the command in this process, on the real components

    def run(*args, env=env):
        return run_cli(env, *args)

    first = run("ingest", "--quiet", str(corpus))
    assert first.returncode == 0, first.stderr
    assert f"icml_mixed50.jsonl: found {n}, added {n}, updated 0, unchanged 0, failed 0" in first.stdout
    assert f"store: {n} papers" in first.stdout
    assert not (home / "chroma").exists()  # nothing went to the local store

    cfg = json.loads(run("config").stdout)
    from rag.settings import Settings

    name = Settings(home=home).index_name()
    direct = ChromaStore(name, url=chroma_server)
    assert direct.counts()[0] == n and direct.audit().consistent and cfg["chroma_url"] == chroma_server

    no_env = {k: v for k, v in env.items() if k != "PAPERCHAT_CHROMA_URL"}
    again = run("--chroma-url", chroma_server, "ingest", "--quiet", str(corpus), env=no_env)
    assert again.returncode == 0, again.stderr
    assert f"found {n}, added 0, updated 0, unchanged {n}, failed 0" in again.stdout

    ask = run("ask", "Which diffusion model purifies adversarial examples?", "--json", "--llm", "none")
    assert ask.returncode == 0, ask.stderr
    ans = json.loads(ask.stdout)
    assert not ans["refused"] and ans["citations"]
    titles = {p["id"]: p["title"] for p in map(json.loads, corpus.read_text().splitlines())}
    assert "Adversarial Purification" in titles[ans["citations"][0]["paper_id"]]
    assert not (home / "chroma").exists()

    down = run("--chroma-url", f"http://127.0.0.1:{_free_port()}", "ingest", "--quiet", str(corpus), env=no_env)
    assert down.returncode != 0 and "chroma run" in down.stderr and "Traceback" not in down.stderr
