"""gzip-compressed corpus files (``.jsonl.gz``, ``.bib.gz``, ``.csv.gz``, ...) are read as the file
inside them: the same papers and ids, a bad record reported with the compressed file's name and its
line, what a cut file holds kept; ingested into a real Chroma store on disk like the plain file."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from conftest import ROOT

from rag.index.embed import HashingEmbedder
from rag.index.ingest import ingest_paths
from store.chroma import ChromaStore
from store.compressed import corpus_stem, format_suffix, gunzip, inner_name, numbered_name
from store.papers import iter_corpus_files, read_path

ICML = ROOT / "benchmarks" / "corpus" / "icml_2022_2023.jsonl.gz"
"""The project's own corpus (3,098 ICML 2022-23 papers, gzipped JSONL)."""

BIB = """@inproceedings{smith2023dance,
  title    = {{DANCE}: Fast Things},
  author   = {Smith, Alice and Jones, Bob},
  year     = {2023},
  abstract = {We propose DANCE, a fast method.}
}

@article{noabs,
  title = {No abstract}
}

@article{lee2021,
  title    = {Second Paper},
  author   = {Lee, Ann},
  year     = {2021},
  abstract = {Plain abstract.}
}
"""


def icml_lines(n: int) -> list[str]:
    """The first ``n`` records of the project's corpus, as JSONL lines."""
    with gzip.open(ICML, "rt", encoding="utf-8") as f:
        return [next(f).rstrip("\n") for _ in range(n)]


@pytest.fixture
def jsonl_pair(tmp_path: Path) -> tuple[Path, Path]:
    """``few.jsonl`` (4 ICML records, a broken record on line 3) and the same file gzipped in a
    folder of its own, ``gz/few.jsonl.gz``."""
    lines = icml_lines(4)
    text = "\n".join([*lines[:2], '{"id": "broken", "abstract": "cut', *lines[2:]]) + "\n"
    plain = tmp_path / "few.jsonl"
    plain.write_text(text, encoding="utf-8")
    (tmp_path / "gz").mkdir()
    packed = tmp_path / "gz" / "few.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode("utf-8")))
    return plain, packed


def test_a_gzipped_jsonl_reads_as_the_plain_file_and_names_itself_in_problems(jsonl_pair):
    plain, packed = jsonl_pair
    want, got = read_path(plain), read_path(packed)
    assert [(p.id, p.content_hash) for p in got.papers] == [(p.id, p.content_hash) for p in want.papers]
    assert len(got.papers) == 4 and {p.source for p in got.papers} == {"few.jsonl.gz"}
    assert got.file == "few.jsonl.gz" and got.encoding == "utf-8"
    assert [str(q) for q in got.problems] == [str(q).replace("few.jsonl", "few.jsonl.gz") for q in want.problems]
    assert [(q.file, q.line) for q in got.problems] == [("few.jsonl.gz", 3)]


def test_ids_made_from_the_file_name_are_the_plain_files(tmp_path: Path):
    records = [{"abstract": "We study compressed corpora. They are common."}, {"abstract": "A second one here."}]
    text = "\n".join(json.dumps(r) for r in records) + "\n"
    packed = tmp_path / "dump.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert [p.id for p in read_path(packed).papers] == ["dump#1", "dump#2"]  # <stem>#<line>, as dump.jsonl


def test_a_gzipped_bib_keeps_keys_and_reports_the_entry_without_abstract(tmp_path: Path):
    packed = tmp_path / "refs.bib.gz"
    packed.write_bytes(gzip.compress(BIB.encode()))
    result = read_path(packed)
    assert [(p.id, p.cite_key, p.title, p.authors, p.source) for p in result.papers] == [
        ("smith2023dance", "smith2023dance", "DANCE: Fast Things", ("Alice Smith", "Bob Jones"), "refs.bib.gz"),
        ("lee2021", "lee2021", "Second Paper", ("Ann Lee",), "refs.bib.gz"),
    ]
    assert [(q.file, q.line) for q in result.problems] == [("refs.bib.gz", 8)]
    assert "'noabs' has no abstract" in result.problems[0].reason


def test_a_gzipped_csv_is_read(tmp_path: Path):
    packed = tmp_path / "table.CSV.GZ"
    packed.write_bytes(gzip.compress(b"title,abstract,year\nA,We propose A. It helps.,2020\nB,,2021\n"))
    result = read_path(packed)
    assert [(p.title, p.year, p.id) for p in result.papers] == [("A", 2020, "table#1")]
    assert [(q.file, q.line) for q in result.problems] == [("table.CSV.GZ", 3)]


def test_a_cut_download_keeps_the_records_before_the_cut(tmp_path: Path):
    text = "\n".join(icml_lines(30)) + "\n"
    data = gzip.compress(text.encode("utf-8"))
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data[: len(data) // 2])
    result = read_path(cut)
    assert 5 < len(result.papers) < 30
    assert [p.id for p in result.papers] == [json.loads(x)["id"] for x in text.splitlines()[: len(result.papers)]]
    last = result.problems[-1]
    assert (last.file, last.line, last.records) == ("cut.jsonl.gz", None, 0)
    assert "ends early" in last.reason
    assert all(q.file == "cut.jsonl.gz" for q in result.problems)


def test_files_that_are_not_gzip_or_name_no_format(tmp_path: Path):
    fake = tmp_path / "fake.jsonl.gz"
    fake.write_text('{"id": "a", "abstract": "Not compressed at all."}\n')
    bare = tmp_path / "papers.gz"
    bare.write_bytes(gzip.compress(b"{}"))
    odd = tmp_path / "papers.docx.gz"
    odd.write_bytes(gzip.compress(b"{}"))
    assert [str(q) for q in read_path(fake).problems] == [
        "fake.jsonl.gz: not gzip-compressed data (Error -3 while decompressing data: incorrect header check)"
    ]
    assert "name it as the file inside, e.g. papers.jsonl.gz" in str(read_path(bare).problems[0])
    assert "unsupported format '.docx'" in str(read_path(odd).problems[0])


def test_concatenated_members_and_zero_padding_are_read_whole(tmp_path: Path):
    a, b = (json.dumps({"id": i, "abstract": f"Abstract {i} here."}) + "\n" for i in ("m1", "m2"))
    packed = tmp_path / "two.jsonl.gz"
    packed.write_bytes(gzip.compress(a.encode()) + gzip.compress(b.encode()) + b"\x00" * 512)
    plain = tmp_path / "two.jsonl"
    assert gunzip(packed, plain) == ""
    assert plain.read_text() == a + b
    assert [p.id for p in read_path(packed).papers] == ["m1", "m2"]


def test_folders_yield_gzipped_corpus_files_of_known_formats(tmp_path: Path):
    for name in ("a.jsonl.gz", "b.bib.gz", "c.txt", "notes.md.gz", "archive.gz", ".hidden.jsonl.gz"):
        (tmp_path / name).write_bytes(b"")
    assert [f.name for f in iter_corpus_files([tmp_path])] == ["a.jsonl.gz", "b.bib.gz", "c.txt"]


@pytest.mark.parametrize(
    "name,inner,suffix,stem,second",
    [
        ("a.jsonl.gz", "a.jsonl", ".jsonl", "a", "a-2.jsonl.gz"),
        ("refs.BIB.GZ", "refs.BIB", ".bib", "refs", "refs-2.BIB.GZ"),
        ("a.bib", "a.bib", ".bib", "a", "a-2.bib"),
        ("x.gz", "x", "", "x", "x-2.gz"),
    ],
)
def test_names_of_compressed_files(name: str, inner: str, suffix: str, stem: str, second: str):
    assert (inner_name(name), format_suffix(name), corpus_stem(name), numbered_name(name, 2)) == (
        inner, suffix, stem, second
    )


def test_ingest_of_a_gzipped_file_into_chroma_on_disk(tmp_path: Path, jsonl_pair):
    _, packed = jsonl_pair
    store = ChromaStore("pc_test_gz", path=tmp_path / "chroma")
    emb = HashingEmbedder()
    first = ingest_paths([packed.parent], store, emb)
    assert [(f.file, f.found, f.added, f.failed) for f in first.files] == [("few.jsonl.gz", 5, 4, 1)]
    assert [str(q) for q in first.files[0].problems][0].startswith("few.jsonl.gz:3: invalid JSON")
    again = ingest_paths([packed], store, emb)
    assert [(f.unchanged, f.added, f.updated) for f in again.files] == [(4, 0, 0)]
    stored = {p.id: p.source for p in store.all_papers()}
    assert sorted(stored) == sorted(json.loads(x)["id"] for x in icml_lines(4))
    assert set(stored.values()) == {"few.jsonl.gz"}
