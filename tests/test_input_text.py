"""Text at the input boundary: files in any encoding, lone surrogates, control characters, and
the one normalisation every input path shares (ingest fields, CLI questions, page messages)."""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from rag.index.embed import HashingEmbedder
from rag.index.ingest import ingest_paths
from store import papers as papers_mod
from store.chroma import ChromaStore
from store.encoding import decode_bytes
from store.papers import read_path
from store.textin import REPLACEMENT, clean_text, limit_text

# Western text that cp1250 (the detector's usual first guess) would misread: ï, ’, “ ”, —.
WESTERN = "We propose Naïve Café, a “robust” method — it’s 5% better on Zürich data."
RECORDS = [
    {"id": "w1", "title": "Naïve Café", "abstract": WESTERN},
    {"id": "w2", "title": "Plain", "abstract": "We propose PLAIN. It is a second paper with plain text."},
]


def jsonl(records: list[dict]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def csv_text(records: list[dict]) -> str:
    rows = ["id,title,abstract"] + [f'{r["id"]},{r["title"]},"{r["abstract"]}"' for r in records]
    return "\r\n".join(rows) + "\r\n"


def bib_text(records: list[dict]) -> str:
    entry = "@inproceedings{{{id},\n  title = {{{title}}},\n  abstract = {{{abstract}}},\n}}\n"
    return "\n".join(entry.format(**r) for r in records)


def seed_text(records: list[dict]) -> str:
    return "ICML 2026 abstracts\n\n" + "\n\n".join(r["abstract"] for r in records) + "\n"


FORMATS = {".jsonl": jsonl, ".csv": csv_text, ".bib": bib_text, ".txt": seed_text}


# --- the one normalisation -------------------------------------------------------------------


def test_clean_text_rules():
    assert clean_text("Cafe\u0301") == "Café"  # NFC
    assert clean_text("a\ud800b\udfffc") == f"a{REPLACEMENT}b{REPLACEMENT}c"  # lone surrogates
    assert clean_text("x\udcff") == f"x{REPLACEMENT}"  # surrogateescape'd byte from sys.argv
    assert clean_text("a\x00b\x07c\x1bd\x7fe\u202ef\ufeffg") == "abcdefg"  # controls, bidi override, BOM
    assert clean_text("  one\t two\r\n\n\n three  ") == "one two three"
    assert clean_text("one\t two\r\n\n\n\nthree \n", multiline=True) == "one two\n\nthree"
    assert clean_text("") == "" and clean_text("\x00\x01") == ""
    messy = "  Na\u0131\u0308ve\ud83d\x00 [1]\n\tq "
    assert clean_text(clean_text(messy)) == clean_text(messy)  # idempotent
    clean_text(messy).encode("utf-8")  # always encodable


def test_limit_text_trims_at_a_word_and_says_so():
    text = "word " * 1000
    cut, notice = limit_text(text.strip(), 2000)
    assert len(cut) <= 2000 and cut.endswith("word") and "4,999 characters" in notice and "2,000" in notice
    assert limit_text("short", 2000) == ("short", "")


# --- decoding ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (WESTERN.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + WESTERN.encode("utf-8"), "utf-8 (BOM)"),
        (codecs.BOM_UTF16_LE + WESTERN.encode("utf-16-le"), "utf-16-le (BOM)"),
        (codecs.BOM_UTF16_BE + WESTERN.encode("utf-16-be"), "utf-16-be (BOM)"),
        (WESTERN.encode("utf-16-le"), "utf-16-le"),
        (WESTERN.encode("utf-16-be"), "utf-16-be"),
        (WESTERN.encode("cp1252"), "cp1252"),
    ],
)
def test_decode_finds_the_encoding(data: bytes, encoding: str):
    got = decode_bytes(data)
    assert (got.text, got.encoding, got.notes) == (WESTERN, encoding, [])


def test_a_utf8_file_with_a_cp1252_line_keeps_both():
    data = "première ligne\n".encode() + WESTERN.encode("cp1252") + b"\n" + "dernière\n".encode()
    got = decode_bytes(data)
    assert got.text.splitlines() == ["première ligne", WESTERN, "dernière"]
    assert got.encoding == "utf-8 + 1 line cp1252" and got.notes == [(2, "not UTF-8: decoded as cp1252")]


def test_nul_characters_are_removed_and_reported():
    got = decode_bytes(b"abc\ndef\x00ghi\n")
    assert got.text == "abc\ndefghi\n" and got.notes == [(2, "NUL characters removed")]


# --- readers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", sorted(FORMATS))
@pytest.mark.parametrize("encoding", ["cp1252", "utf-16", "utf-8-sig"])
def test_every_format_reads_legacy_and_utf16_files_like_utf8(tmp_path: Path, suffix: str, encoding: str):
    text = FORMATS[suffix](RECORDS)
    (tmp_path / "utf8").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "utf8" / f"p{suffix}").write_bytes(text.encode("utf-8"))
    (tmp_path / "other" / f"p{suffix}").write_bytes(text.encode(encoding))
    want = read_path(tmp_path / "utf8" / f"p{suffix}")
    got = read_path(tmp_path / "other" / f"p{suffix}")
    assert want.problems == [] and len(want.papers) == 2
    assert (got.papers, got.problems) == (want.papers, [])
    assert got.papers[0].abstract == WESTERN
    assert got.encoding == {"cp1252": "cp1252", "utf-16": "utf-16-le (BOM)", "utf-8-sig": "utf-8 (BOM)"}[encoding]


def test_a_utf8_bom_never_loses_the_first_jsonl_record(tmp_path: Path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(codecs.BOM_UTF8 + jsonl(RECORDS).encode())
    result = read_path(path)
    assert [p.id for p in result.papers] == ["w1", "w2"] and result.problems == []


def test_a_lone_surrogate_escape_is_replaced_and_reported_with_its_line(tmp_path: Path):
    path = tmp_path / "sur.jsonl"
    bad = '{"id": "s1", "title": "T\\ud800", "abstract": "We propose SUR\\udfff. It handles escapes well."}'
    pair = '{"id": "s2", "abstract": "An emoji \\ud83d\\ude00 written as a valid surrogate pair is kept."}'
    path.write_text(jsonl(RECORDS[:1]) + bad + "\n" + pair + "\n", encoding="utf-8")
    result = read_path(path)
    assert [p.id for p in result.papers] == ["w1", "s1", "s2"] and result.problems == []
    assert result.papers[1].abstract == f"We propose SUR{REPLACEMENT}. It handles escapes well."
    assert result.papers[2].abstract.startswith("An emoji 😀")
    assert [(r.line, r.reason) for r in result.repairs] == [(2, "record 2: 2 lone surrogates replaced with U+FFFD")]
    result.papers[1].content_hash  # noqa: B018 - hashing encodes to UTF-8: this raised before


def test_json_array_with_a_surrogate_and_control_characters(tmp_path: Path):
    path = tmp_path / "arr.json"
    path.write_text('[{"id": "a", "abstract": "Tab\\there and a raw \x01 control \\ud800."}]', encoding="utf-8")
    result = read_path(path)
    assert [p.abstract for p in result.papers] == [f"Tab here and a raw control {REPLACEMENT}."]
    assert result.repairs and result.repairs[0].line == 1


# --- ingest: one bad record or file never costs the others ------------------------------------------


@pytest.fixture()
def store(tmp_path: Path) -> ChromaStore:
    return ChromaStore("pc_test_input", path=tmp_path / "chroma")


def _balanced(report) -> bool:
    return all(f.found == f.added + f.updated + f.unchanged + f.failed for f in report.files)


def test_a_bad_file_never_costs_the_others(tmp_path: Path, store: ChromaStore, monkeypatch):
    (tmp_path / "a_legacy.jsonl").write_bytes(jsonl(RECORDS).encode("cp1252"))
    (tmp_path / "b_sur.jsonl").write_text('{"id": "s1", "abstract": "Broken \\ud800 text. Still a paper."}\n{bad\n')
    (tmp_path / "c_boom.bib").write_text("@misc{x, abstract={y}}")
    (tmp_path / "d_good.jsonl").write_text(jsonl([{"id": "g1", "abstract": "We propose GOOD. It is fine."}]))

    def boom(path, field_map=None):
        raise RuntimeError("a reader bug")

    monkeypatch.setitem(papers_mod.READERS, ".bib", boom)
    report = ingest_paths([tmp_path], store, HashingEmbedder())
    lines = {f.file: f.line() for f in report.files}
    assert lines["a_legacy.jsonl"] == "a_legacy.jsonl: found 2, added 2, updated 0, unchanged 0, failed 0; cp1252"
    assert lines["b_sur.jsonl"] == "b_sur.jsonl: found 2, added 1, updated 0, unchanged 0, failed 1; utf-8"
    assert lines["c_boom.bib"].startswith("c_boom.bib: found 1, added 0, updated 0, unchanged 0, failed 1")
    assert "a reader bug" in str(report.files[2].problems[0])
    repaired = "b_sur.jsonl:1: record 1: 1 lone surrogate replaced with U+FFFD"
    assert [str(r) for r in report.files[1].repairs] == [repaired]
    assert store.counts()[0] == 4 and _balanced(report)
    assert store.audit().consistent


def test_a_paper_that_fails_to_index_costs_only_itself(tmp_path: Path, store: ChromaStore):
    class Picky(HashingEmbedder):
        def embed(self, texts):
            if any("POISON" in t for t in texts):
                raise ValueError("cannot embed this")
            return super().embed(texts)

    recs = [{"id": f"p{i}", "abstract": f"We propose M{i}. It is paper {i} of five."} for i in range(5)]
    recs[2]["abstract"] = "We propose POISON. It breaks the embedder."
    (tmp_path / "five.jsonl").write_text(jsonl(recs))
    report = ingest_paths([tmp_path / "five.jsonl"], store, Picky())
    f = report.files[0]
    assert (f.found, f.added, f.failed) == (5, 4, 1) and "'p2' could not be indexed" in str(f.problems[0])
    assert store.counts()[0] == 4 and store.audit().consistent


# --- fuzz: generated records in mixed encodings ----------------------------------------------------

_TEXT = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),  # any code point, lone surrogates excluded
        st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),  # lone surrogates (escaped by json)
        st.sampled_from(["\x00", "\x01", "\x1b", "\u202e", "\ufeff", "\r", "\n", "\t", " "]),
    ),
    max_size=60,
)
_RECORD = st.fixed_dictionaries(
    {"id": _TEXT, "abstract": st.one_of(_TEXT, st.just(""), st.just("x " * 3000))},
    optional={"title": _TEXT, "authors": st.lists(_TEXT, max_size=3), "year": st.integers(-5, 10**20)},
)


def _dump(record: dict) -> str:
    """One JSONL line with real non-ASCII characters and lone surrogates as ``\\udxxx`` escapes."""
    line = json.dumps(record, ensure_ascii=False)
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", line)


@seed(17)
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(records=st.lists(_RECORD, min_size=1, max_size=6), encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_fuzz_found_equals_outcomes_and_no_readable_record_is_lost(tmp_path_factory, records, encoding):
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "fuzz.jsonl"
    path.write_bytes("".join(_dump(r) + "\n" for r in records).encode(encoding))
    store = ChromaStore("pc_fuzz", path=folder / "chroma")
    report = ingest_paths([path], store, HashingEmbedder())  # never raises
    (f,) = report.files
    assert f.found == f.added + f.updated + f.unchanged + f.failed == len(records)
    readable = [
        clean_text(r["id"]) or f"fuzz#{i}"
        for i, r in enumerate(records, 1)
        if clean_text(r["abstract"]) and 0 < r.get("year", 2000) < 10000
    ]
    assert {p.id for p in store.all_papers()} == set(readable)  # no record lost that could be read
    assert f.failed == len(records) - len(set(readable))
    assert store.audit().consistent
