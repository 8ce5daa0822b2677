"""``ingest --sync`` and ``remove`` keep the store equal to the sources: chunks and paper records
together, on a real Chroma store (a hand-checkable hashing embedder keeps it fast)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from rag.index.embed import HashingEmbedder
from rag.index.ingest import ingest_paths
from rag.index.sync import remove_papers, remove_source, sync_paths
from rag.pipeline import build_pipeline, prepare_environment
from rag.settings import Settings
from store.chroma import ChromaStore
from store.papers import read_path

EMB = HashingEmbedder()


def write_jsonl(path: Path, records: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def rec(pid: str, text: str) -> dict:
    return {"id": pid, "title": f"Paper {pid}", "abstract": f"We propose {text}. It is described in one sentence here."}


def index_equals_sources(store: ChromaStore, *files: Path) -> None:
    """The store holds exactly the papers of ``files`` (ids, content hashes, sources), each with its chunks."""
    want = {p.id: (p.content_hash, p.source) for f in files for p in read_path(f).papers}
    got = {p.id: (p.content_hash, p.source) for p in store.all_papers()}
    assert got == want
    audit = store.audit()
    assert audit.consistent and not audit.orphans and audit.papers == len(want)


def test_sync_adds_updates_removes_and_reports(tmp_path: Path):
    store = ChromaStore("pc_sync", path=tmp_path / "chroma")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a, [rec("a1", "ALPHA"), rec("a2", "BETA"), rec("a3", "GAMMA"), rec("m1", "MOVER")])
    write_jsonl(b, [rec("b1", "DELTA")])
    ingest_paths([a, b], store, EMB)
    write_jsonl(a, [rec("a1", "ALPHA"), rec("a2", "BETA CHANGED"), rec("a4", "EPSILON")])  # a3 gone, m1 moved
    write_jsonl(b, [rec("b1", "DELTA"), rec("m1", "MOVER")])
    ingest_paths([a], store, EMB)
    assert {p.id for p in store.all_papers()} >= {"a3"}  # a plain ingest never removes
    report = sync_paths([a, b], store, EMB)
    assert [f.line() for f in report.files] == [
        "a.jsonl: found 3, added 0, updated 0, unchanged 3, failed 0, removed 1; utf-8",
        "b.jsonl: found 2, added 0, updated 0, unchanged 2, failed 0, removed 0; utf-8",
    ]
    index_equals_sources(store, a, b)  # m1 kept its vectors and now says it comes from b.jsonl


def test_a_file_with_a_failed_record_removes_nothing_until_it_reads_cleanly(tmp_path: Path):
    store = ChromaStore("pc_sync_fail", path=tmp_path / "chroma")
    a = tmp_path / "a.jsonl"
    write_jsonl(a, [rec("a1", "ALPHA"), rec("a2", "BETA")])
    ingest_paths([a], store, EMB)
    a.write_text(json.dumps(rec("a1", "ALPHA")) + '\n{"id": "a2", "abstract": "cut off\n')  # a2's line is broken
    (f,) = sync_paths([a], store, EMB).files
    assert (f.failed, f.removed, f.kept) == (1, 0, 1) and "paperchat remove --source a.jsonl" in f.line()
    assert {p.id for p in store.all_papers()} == {"a1", "a2"}
    missing = sync_paths([tmp_path / "gone.jsonl"], store, EMB).files[0]
    assert missing.failed == 1 and store.counts()[0] == 2  # a path that is not there removes nothing


def test_remove_by_id_and_by_source_keep_chunks_and_records_together(tmp_path: Path):
    store = ChromaStore("pc_remove", path=tmp_path / "chroma")
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a, [rec("a1", "ALPHA"), rec("a2", "BETA")])
    write_jsonl(b, [rec("b1", "DELTA"), rec("b2", "ZETA")])
    ingest_paths([a, b], store, EMB)
    got = remove_papers(store, ["a1", "nope", "a1"])
    assert (got.removed, got.missing, got.papers_in_store) == (["a1"], ["nope"], 3)
    got = remove_source(store, tmp_path / "elsewhere" / "b.jsonl")  # matched by file name
    assert (got.removed, got.missing) == (["b1", "b2"], [])
    assert remove_source(store, "b.jsonl").missing == ["b.jsonl"]
    audit = store.audit()
    assert (audit.papers, audit.consistent, audit.orphans) == (1, True, ())
    assert store.chunks.get(where={"paper_id": {"$in": ["a1", "b1", "b2"]}})["ids"] == []


def test_a_removed_paper_is_never_cited_again(tmp_path: Path):
    settings = Settings(home=tmp_path / "home")
    prepare_environment(settings)
    store = ChromaStore(settings.index_name(), path=settings.home / "chroma")
    a = tmp_path / "a.jsonl"
    write_jsonl(a, [rec("q1", "QUOKKANET for marsupial detection"), rec("w1", "WOMBATNET for burrow mapping")])
    ingest_paths([a], store, EMB)
    question = "What does QUOKKANET do for marsupial detection?"
    before = build_pipeline(settings, embedder=EMB, store=store, llm=None).ask(question)
    assert "q1" in before.cited_ids
    write_jsonl(a, [rec("w1", "WOMBATNET for burrow mapping")])
    assert sync_paths([a], store, EMB).files[0].removed == 1
    after = build_pipeline(settings, embedder=EMB, store=store, llm=None).ask(question)
    assert "q1" not in after.cited_ids and "q1" not in {h.paper.id for h in after.hits}


# --- property: random edits and removals, then --sync, leave the index equal to the source ---------

_EDIT = st.one_of(
    st.tuples(st.just("add"), st.integers(0, 99)),
    st.tuples(st.just("remove"), st.integers(0, 99)),
    st.tuples(st.just("change"), st.integers(0, 99)),
    st.tuples(st.just("move"), st.integers(0, 99)),  # to the other file
)


@seed(17)
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(
    start=st.lists(st.integers(0, 30), min_size=0, max_size=8, unique=True),
    rounds=st.lists(st.lists(_EDIT, max_size=5), min_size=1, max_size=3),
)
def test_property_sync_after_random_edits_leaves_the_index_equal_to_the_sources(tmp_path_factory, start, rounds):
    folder = tmp_path_factory.mktemp("prop")
    store = ChromaStore("pc_prop", path=folder / "chroma")
    files = {"a": folder / "a.jsonl", "b": folder / "b.jsonl"}
    content: dict[str, dict[str, dict]] = {"a": {f"p{i}": rec(f"p{i}", f"M{i}") for i in start}, "b": {}}
    version = 0
    for name, path in files.items():
        write_jsonl(path, list(content[name].values()))
    ingest_paths(files.values(), store, EMB)
    for edits in rounds:
        for op, n in edits:
            version += 1
            here = "a" if n % 2 else "b"
            there = "b" if here == "a" else "a"
            ids = sorted(content[here])
            if op == "add":
                pid = f"p{100 + version}"
                content[here][pid] = rec(pid, f"NEW{version}")
            elif ids and op == "remove":
                content[here].pop(ids[n % len(ids)])
            elif ids and op == "change":
                pid = ids[n % len(ids)]
                content[here][pid] = rec(pid, f"CHANGED{version}")
            elif ids and op == "move":
                pid = ids[n % len(ids)]
                content[there][pid] = content[here].pop(pid)
        for name, path in files.items():
            write_jsonl(path, list(content[name].values()))
        report = sync_paths(files.values(), store, EMB)
        assert all(f.found == f.added + f.updated + f.unchanged + f.failed for f in report.files)
        index_equals_sources(store, *files.values())
