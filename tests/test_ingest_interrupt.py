"""An ingest killed or interrupted half-way leaves a consistent store, and the next run finishes it.

``paperchat ingest`` runs as a user would (a subprocess with the real embedder) on the first 200
of the 300 ICML papers of ``fixtures/icml300.jsonl`` (more than one batch of 128, so the bar shows
finished papers while the second batch of 72 is still being embedded; fewer papers for the
resumed run to embed again). It is stopped once its progress bar shows finished papers: with
SIGKILL (no chance to clean up) and with SIGINT (Ctrl-C: one clean message, no traceback). The
store is then inspected from a separate process: every stored paper has exactly its chunks,
and a second run reports the finished papers as unchanged.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import FIXTURES, run_cli

pytestmark = pytest.mark.slow
EXE = [sys.executable, "-m", "ui.cli"]
SOURCE = FIXTURES / "icml300.jsonl"
N = 200
"""Papers ingested: the first ``N`` records of :data:`SOURCE`, more than one batch (``batch_papers``, 128)
and a second batch long enough (72 papers) for the test to see the bar before the ingest ends."""
_PROGRESS = re.compile(rb"(\d+)/(\d+) \[")


@pytest.fixture
def env(tmp_path):
    return dict(os.environ, PAPERCHAT_HOME=str(tmp_path / "home"))


@pytest.fixture
def corpus(tmp_path):
    """The first :data:`N` records of :data:`SOURCE`, as one JSONL file of the same name."""
    lines = [line for line in SOURCE.read_text(encoding="utf-8").splitlines() if line.strip()][:N]
    path = tmp_path / "papers" / SOURCE.name
    path.parent.mkdir()
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _sigint_default() -> None:
    # A shell starting a job in the background (`cmd &`) makes it ignore SIGINT, and children
    # inherit that; Ctrl-C at a terminal reaches a foreground process whose SIGINT is default.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_ingest(env, corpus) -> subprocess.Popen:
    return subprocess.Popen(
        [*EXE, "ingest", str(corpus)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_sigint_default,
    )


def _wait_for_progress(proc: subprocess.Popen, timeout: float = 600) -> tuple[int, bytes]:
    """Read the progress bar (stderr) until some but not all papers are finished."""
    fd = proc.stderr.fileno()
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.5)
        if ready:
            piece = os.read(fd, 65536)
            if not piece:
                break
            seen += piece
            done = [int(m.group(1)) for m in _PROGRESS.finditer(seen) if int(m.group(2)) == N]
            if done and 0 < done[-1] < N:
                return done[-1], seen
        if proc.poll() is not None:
            break
    proc.kill()
    pytest.fail(f"no partial progress seen before the ingest ended:\n{seen[-3000:].decode(errors='replace')}")


def _inspect(env) -> dict:
    """Audit the store from a fresh process (the ingest that wrote it is gone)."""
    code = textwrap.dedent(
        """
        import json
        from rag.pipeline import open_store
        from rag.settings import Settings
        store = open_store(Settings())
        audit = store.audit()
        papers = store.all_papers()
        meta = store.chunks.get(include=["metadatas"])
        keys = [(m["paper_id"], m["chunk_index"]) for m in meta["metadatas"]]
        print(json.dumps({
            "papers": audit.papers, "chunks": audit.chunks, "counts": list(store.counts()),
            "incomplete": list(audit.incomplete), "orphans": list(audit.orphans),
            "duplicate_chunks": len(keys) - len(set(keys)),
            "hashes": {p.id: p.content_hash for p in papers}, "sources": sorted({p.source for p in papers}),
        }))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def _expected_hashes(corpus) -> dict[str, str]:
    """The content hash of each paper as ingest stores it: read and mended on the evidence of the
    collection (:func:`rag.index.ingest.read_corpus`: words a line break cut are joined)."""
    from rag.index.ingest import read_corpus

    _, papers = read_corpus([corpus])
    return {p.id: p.content_hash for batch in papers for p in batch}


def _assert_consistent(state: dict, corpus) -> None:
    assert state["incomplete"] == [], "papers stored without (all) their chunks"
    assert state["duplicate_chunks"] == 0
    assert state["counts"] == [state["papers"], state["chunks"]]
    want = _expected_hashes(corpus)
    assert all(want[pid] == h for pid, h in state["hashes"].items())


def test_a_killed_ingest_resumes_where_it_stopped(env, corpus):
    proc = _start_ingest(env, corpus)
    done, _ = _wait_for_progress(proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    proc.stdout.close()
    proc.stderr.close()

    killed = _inspect(env)
    _assert_consistent(killed, corpus)
    kept = killed["papers"]
    assert done <= kept < N  # every paper the bar counted is stored; the batch in flight may be too

    again = subprocess.run([*EXE, "ingest", "--quiet", str(corpus)], env=env, capture_output=True, text=True,
                           timeout=900, check=False)
    assert again.returncode == 0, again.stderr
    assert f"icml300.jsonl: found {N}, added {N - kept}, updated 0, unchanged {kept}, failed 0" in again.stdout
    final = _inspect(env)
    _assert_consistent(final, corpus)
    assert final["orphans"] == []  # chunks of the batch in flight were replaced when their papers were redone
    assert final["papers"] == N and set(final["hashes"]) == set(_expected_hashes(corpus))
    assert f"store: {N} papers, {final['chunks']} chunks" in again.stdout
    assert final["sources"] == ["icml300.jsonl"]

    # a third run reports every paper unchanged; in this process (run_cli): the resumed store is what
    # is read, and a new process would only import torch and load the embedder again
    third = run_cli(env, "ingest", "--quiet", str(corpus))
    assert third.returncode == 0, third.stderr
    assert f"icml300.jsonl: found {N}, added 0, updated 0, unchanged {N}, failed 0" in third.stdout


def test_ctrl_c_prints_a_clean_message_and_keeps_finished_papers(env, corpus):
    proc = _start_ingest(env, corpus)
    done, seen = _wait_for_progress(proc)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    err = (seen + err).decode(errors="replace")
    out = out.decode()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "Interrupted" in err and "run the same command again" in err

    state = _inspect(env)
    _assert_consistent(state, corpus)
    kept = state["papers"]
    assert done <= kept < N
    # the per-file report printed on the way out counts exactly what the store holds
    assert f"icml300.jsonl: found {N}, added {kept}, updated 0, unchanged 0, failed 0" in out
    assert f"store: {kept} papers, {state['chunks']} chunks" in out
