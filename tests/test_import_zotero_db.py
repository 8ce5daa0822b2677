"""The Zotero database reader (``store.formats.zotero_sqlite``) on a database built from
``fixtures/imports/zotero_library.sql``: items, collections, the trash, feeds, Zotero's lock."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from zotero_fixture import build_zotero_db

from store.formats.zotero_sqlite import read_zotero_sqlite
from store.papers import Paper, ReadResult, read_path


def row(p: Paper) -> tuple:
    """The fields a reader sets (the label is derived from them)."""
    return (p.id, p.title, p.authors, p.year, p.venue, p.url, p.doi)


def problems(result: ReadResult) -> list[tuple[int | None, str]]:
    """``(line, reason)`` of each problem, after checking that each names the file."""
    assert all(q.file == result.file for q in result.problems)
    return [(q.line, q.reason) for q in result.problems]


def test_zotero_database_whole_library(tmp_path: Path) -> None:
    result = read_path(build_zotero_db(tmp_path))

    assert [row(p) for p in result.papers] == [
        (
            "10.1162/tacl_a_00999",
            "Calibrated Uncertainty for Retrieval-Augmented Generation",
            ("José García", "Thị Lan Nguyễn", "Anna van der Berg"),
            2024,
            "Transactions of the Association for Computational Linguistics",
            "https://direct.mit.edu/tacl/article/doi/10.1162/tacl_a_00999",
            "10.1162/tacl_a_00999",
        ),
        (
            "2305.01234",
            "Schrödinger Bridges for Tabular Data Imputation",
            ("Hans Müller", "Łucja Kowalska", "李明"),
            2023,
            "arXiv",
            "http://arxiv.org/abs/2305.01234",
            "",
        ),
        (
            "2311.02222",  # from "arXiv: 2311.02222" in Extra; the editor is no author
            "Sparse Mixture-of-Experts Routing with Learned Capacity",
            ("Chidi Okafor", "Seo-yeon Kim"),
            2024,
            "Proceedings of the 41st International Conference on Machine Learning",
            "",
            "",
        ),
        (
            "10.5555/joules.2023.7",  # from "DOI: ..." in Extra
            "Where the Joules Go: Accounting for the Energy of Training Runs",
            ("Green AI Institute", "Siobhán O'Neill"),
            2023,
            "",
            "https://doi.org/10.5555/joules.2023.7",
            "10.5555/joules.2023.7",
        ),
        (
            "zotero:GRUP0001",
            "Low-Rank Landmarks for Long-Context Attention",
            ("Wei Zhang",),
            2022,
            "Advances in Neural Information Processing Systems 35",
            "",
            "",
        ),
    ]  # not the note, the attachment, the trashed item or the feed item
    assert "disagree. We estimate" in result.papers[0].abstract  # its blank line joined
    assert problems(result) == [(None, "item QRST6789 ('Probabilistic Machine Learning: A Primer') has no abstract")]


def test_zotero_database_collection_with_subcollections(tmp_path: Path) -> None:
    db = build_zotero_db(tmp_path)
    result = read_path(db, collection="reading GROUP")
    assert [p.id for p in result.papers] == ["10.1162/tacl_a_00999", "2305.01234", "2311.02222"]
    assert result.problems == []
    assert [p.id for p in read_zotero_sqlite(db, collection="Lab papers").papers] == ["zotero:GRUP0001"]
    missing = read_zotero_sqlite(db, collection="Old")  # in the trash
    listed = "'Lab papers', 'Reading group', 'Week 1'"
    assert problems(missing) == [(None, f"no collection named 'Old' (collections: {listed})")]


def test_zotero_database_is_read_while_zotero_holds_its_lock_and_never_written(tmp_path: Path) -> None:
    db = build_zotero_db(tmp_path)
    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    running = sqlite3.connect(db)  # Zotero keeps an exclusive lock while it runs
    running.execute("PRAGMA locking_mode=EXCLUSIVE")
    running.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            sqlite3.connect(db, timeout=0).execute("SELECT count(*) FROM items").fetchone()
        assert len(read_path(db).papers) == 5
    finally:
        running.rollback()
        running.close()
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


def test_a_sqlite_file_that_is_not_zotero_and_a_corrupt_one(tmp_path: Path) -> None:
    other = tmp_path / "chroma.sqlite"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE embeddings (id INTEGER)")
    con.commit()
    con.close()
    assert problems(read_path(other)) == [
        (None, "not a Zotero database (no items, itemData, itemDataValues, creators, itemCreators, creatorTypes table)")
    ]
    broken = tmp_path / "zotero.sqlite"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    [(line, reason)] = problems(read_path(broken))
    assert line is None and reason.startswith("cannot read the database:")
