"""Processes sharing one data directory: one writer at a time (the others wait or are told who
writes), readers always served, one page per directory, a damaged store reported with its fix,
and no bundled corpus slipped into a directory whose ingest failed. Real processes, real Chroma."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
from conftest import ROOT

from rag.index.ingest import chunk_paper
from rag.settings import Settings
from store.chroma import ChromaStore
from store.papers import make_paper

EXE = [sys.executable, "-m", "ui.cli"]


def env_for(home: Path, **extra: str) -> dict[str, str]:
    return dict(os.environ, PAPERCHAT_HOME=str(home), PYTHONPATH=str(ROOT), **extra)


def cli(env: dict[str, str], *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*EXE, *args], env=env, capture_output=True, text=True, timeout=timeout, check=False)


def holder(home: Path, kind: str, seconds: float, **extra: str) -> subprocess.Popen:
    """Another process holding ``WriterLock``/``PageLock`` of ``home`` for ``seconds``."""
    code = textwrap.dedent(
        f"""
        import sys, time
        from store.home import {kind}
        lock = {kind}({str(home)!r}, command="paperchat test-holder", **{extra!r}).acquire()
        print("held", flush=True)
        time.sleep({seconds})
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", code], env=env_for(home), stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_second_writer_is_told_who_writes_or_waits_for_it(tmp_path: Path):
    home = tmp_path / "home"
    papers = tmp_path / "p.jsonl"
    papers.write_text(json.dumps({"id": "a", "abstract": "We propose A. It is a paper."}) + "\n")
    proc = holder(home, "WriterLock", 60)
    try:
        started = time.monotonic()
        out = cli(env_for(home, PAPERCHAT_STORE__LOCK_TIMEOUT="0"), "ingest", "--quiet", str(papers))
        assert out.returncode == 1 and time.monotonic() - started < 30
        assert f"in use by PID {proc.pid} (paperchat test-holder, started " in out.stderr, out.stderr
        assert "PAPERCHAT_STORE__LOCK_TIMEOUT" in out.stderr and "Traceback" not in out.stderr
        removal = cli(env_for(home, PAPERCHAT_STORE__LOCK_TIMEOUT="0"), "remove", "a")
        assert removal.returncode == 1 and f"in use by PID {proc.pid}" in removal.stderr
    finally:
        proc.kill()
        proc.wait()
    brief = holder(home, "WriterLock", 1.5)
    try:
        started = time.monotonic()
        waited = cli(env_for(home, PAPERCHAT_STORE__LOCK_TIMEOUT="60"), "remove", "--source", "p.jsonl")
        assert time.monotonic() - started >= 1.0  # it waited for the holder, then ran
        assert "in use" not in waited.stderr and "not in the index: p.jsonl" in waited.stderr
    finally:
        brief.wait()


def test_a_second_page_on_the_same_directory_is_refused(tmp_path: Path):
    home = tmp_path / "home"
    proc = holder(home, "PageLock", 60, url="http://127.0.0.1:7999/")
    try:
        out = cli(env_for(home), "ui", "--port", "7998")
        assert out.returncode == 1 and "already serving" in out.stderr
        assert f"PID {proc.pid}" in out.stderr and "http://127.0.0.1:7999/" in out.stderr
    finally:
        proc.kill()
        proc.wait()


_WRITER = """
import sys, zlib
from pathlib import Path
import numpy as np
from rag.index.ingest import ingest_paths
from rag.pipeline import open_store
from rag.settings import Settings
from store.home import WriterLock

class Embedder:  # rag.index.embed.HashingEmbedder without importing llama-index
    dimension, batch_size = 32, 8
    def embed(self, texts):
        out = np.zeros((len(texts), 32), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.split():
                out[i, zlib.crc32(w.encode()) % 32] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
    def count_tokens(self, text):
        return len(text.split())

home, path = Path(sys.argv[1]), Path(sys.argv[2])
with WriterLock(home, command="test writer", timeout=120):
    report = ingest_paths([path], open_store(Settings(home=home)), Embedder(), batch_papers=8)
print(report.files[0].line(), flush=True)
"""

_READER = """
import sys, time
from pathlib import Path
from rag.pipeline import open_store
from rag.settings import Settings

settings = Settings(home=Path(sys.argv[1]))
store = open_store(settings)
reads = 0
end = time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    store.counts(); store.all_papers(); reads += 1
print(reads, flush=True)
"""


def test_concurrent_writers_and_readers_leave_a_consistent_store(tmp_path: Path):
    home = tmp_path / "home"
    files = []
    for w in range(3):
        path = tmp_path / f"w{w}.jsonl"
        records = [
            {"id": f"w{w}-{i}" if i % 4 else f"shared-{i}", "abstract": f"We propose M{w}x{i}. It does task {i} well."}
            for i in range(24)
        ]
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        files.append(path)
    env = env_for(home)
    for _ in range(2):  # repeated: the second round updates every shared paper again
        procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(home), str(f)], env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for f in files]  # fmt: skip
        reader = subprocess.run([sys.executable, "-c", _READER, str(home), "2"], env=env, capture_output=True,
                                text=True, timeout=180, check=False)  # fmt: skip
        outs = [p.communicate(timeout=180) for p in procs]
        assert all(p.returncode == 0 for p in procs), [err[-2000:] for _, err in outs]
        assert reader.returncode == 0 and int(reader.stdout) > 0, reader.stderr[-2000:]
    store = ChromaStore(Settings(home=home).index_name(), path=home / "chroma")
    union = {json.loads(line)["id"] for f in files for line in f.read_text().splitlines()}
    audit = store.audit()
    assert audit.consistent and audit.papers == len(union) == 3 * 18 + 6
    assert {p.id for p in store.all_papers()} == union


def test_a_damaged_store_is_reported_with_the_fix_not_a_traceback(tmp_path: Path):
    home = tmp_path / "home"
    store = ChromaStore(Settings(home=home).index_name(), path=home / "chroma")
    items = []
    for i in range(300):
        p = make_paper(f"x#{i}", f"We propose FOO{i}. It is method number {i} for testing things well.")
        chunks = chunk_paper(p, lambda t: len(t.split()))
        items.append((p, chunks, np.full((len(chunks), 8), 8**-0.5, dtype=np.float32)))
    store.write_papers(items)
    del store
    db = home / "chroma" / "chroma.sqlite3"
    size = db.stat().st_size
    with db.open("r+b") as f:  # overwrite the middle of the database with a fixed pattern
        f.seek(size // 2)
        f.write(bytes(range(256)) * (size // 1024))
    for args in (["ask", "What is FOO1?", "--llm", "none"], ["ingest", "--quiet", str(tmp_path)]):
        out = cli(env_for(home), *args)
        assert out.returncode == 1, (args, out.returncode, out.stderr[-2000:])
        assert "Traceback" not in out.stderr and "paperchat ingest" in out.stderr
        assert f"delete the folder {home / 'chroma'}" in out.stderr


def test_a_home_whose_only_ingest_failed_gets_no_bundled_papers(tmp_path: Path):
    home = tmp_path / "home"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    env = env_for(home)
    assert cli(env, "ingest", "--quiet", str(bad)).returncode == 1
    out = cli(env, "ask", "What is DANCE?", "--llm", "none")
    assert out.returncode == 1 and "is empty" in out.stderr and "paperchat ingest" in out.stderr
    assert "indexing" not in out.stderr
    assert ChromaStore(Settings(home=home).index_name(), path=home / "chroma").counts() == (0, 0)


def test_an_open_held_by_another_process_past_the_timeout_says_which_lock(tmp_path: Path, monkeypatch):
    import pytest
    from filelock import FileLock

    import store.chroma as chroma
    from store.chroma import StoreError

    monkeypatch.setattr(chroma, "OPEN_LOCK_TIMEOUT", 0.2)
    path = tmp_path / "chroma"
    path.mkdir()
    lock = str(path.with_name("chroma.open.lock"))
    with subprocess.Popen(
        [sys.executable, "-c", f"import time; from filelock import FileLock; held = FileLock({lock!r}); "
         "held.acquire(); print('held', flush=True); time.sleep(30)"],
        stdout=subprocess.PIPE, text=True,
    ) as holder:  # fmt: skip
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
            with pytest.raises(StoreError, match="delete the lock file"):
                ChromaStore("papers_test", path=path)
        finally:
            holder.kill()
    with FileLock(lock, timeout=5):  # released with its process: a later open works
        pass
    assert ChromaStore("papers_test", path=path).counts() == (0, 0)
