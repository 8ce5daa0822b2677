"""Duplicates across sources become one paper (``store.merge``): by DOI, arXiv id or title."""

from __future__ import annotations

from pathlib import Path

from zotero_fixture import IMPORTS, build_zotero_db

from store.merge import merge_duplicates, paper_keys
from store.papers import ReadResult, make_paper, read_path

FILES = [
    "zotero_export.csv",
    "library.csl.json",
    "openreview_v1.json",
    "openreview_v2.json",
    "s2_search.json",
    "arxiv_query.xml",
]


def read_all(tmp_path: Path) -> list[ReadResult]:
    """Every import fixture, in a fixed order, the Zotero database last."""
    return [read_path(IMPORTS / name) for name in FILES] + [read_path(build_zotero_db(tmp_path))]


def test_identity_keys_come_from_doi_arxiv_id_and_title() -> None:
    p = make_paper("2305.01234", "A.", title="Schrödinger Bridges for Tabular Data", doi="10.48550/arXiv.2305.01234")
    assert paper_keys(p) == ("", "2305.01234", "schrodinger bridges for tabular data")
    q = make_paper("p1", "A.", title="Short", url="https://doi.org/10.1162/TACL_A_00999")
    assert paper_keys(q) == ("10.1162/tacl_a_00999", "", "")
    assert paper_keys(make_paper("10.1145/3292500.3330701", "A."))[0] == "10.1145/3292500.3330701"


def test_the_same_paper_from_every_source_is_one_paper(tmp_path: Path) -> None:
    results = read_all(tmp_path)
    outcome = merge_duplicates(results)

    # records folded into the most complete record of their paper, per file: csv, csl, v1, v2, s2, atom, sqlite
    assert outcome.merged == [0, 2, 1, 0, 2, 3, 3]
    papers = {p.id: p for r in outcome.results for p in r.papers}
    assert sorted(papers) == [
        "10.1162/tacl_a_00999",  # CSV, CSL, S2, arXiv (arxiv:doi) and the database: one DOI
        "10.5555/joules.2023.7",  # CSL (no DOI) and the database (DOI in Extra): same title
        "2110.05555",  # OpenReview v1 and arXiv: same title; the arXiv id wins over the note id
        "2305.01234",  # CSV (arXiv DOI), arXiv (v2) and the database (archive ID): one arXiv id
        "2310.04567",  # OpenReview v2 (title), Semantic Scholar and arXiv (arXiv id)
        "2311.02222",  # CSV (Zotero key only) and the database (arXiv id in Extra): same title
        "openreview:Wd9Withdrn",
        "s2:7d6c5b4a39281706f5e4d3c2b1a0987654321fed",
        "zotero:GCTA2023",
        "zotero:GRUP0001",
    ]
    found = sum(len(r.papers) for r in results)
    assert found - sum(outcome.merged) == len(papers) == 10
    curriculum = papers["2110.05555"]
    # the arXiv record has the most fields, but the venue it gives ("arXiv") yields to ICLR's, with its year
    assert (curriculum.source, curriculum.venue, curriculum.year, curriculum.authors) == (
        "arxiv_query.xml",
        "ICLR 2022 Poster",
        2022,
        ("Aiko Suzuki",),
    )
    tokens = papers["2310.04567"]  # the first of equally complete records wins; its file holds the paper
    assert (tokens.source, tokens.venue, tokens.url) == (
        "openreview_v2.json",
        "ICLR 2024 poster",
        "https://openreview.net/forum?id=Ab3dEf9XyZ",
    )
    assert [p.id for p in outcome.results[3].papers] == ["2310.04567", "openreview:Wd9Withdrn"]
    joules = papers["10.5555/joules.2023.7"]  # the database's record (DOI, URL) fills the CSL one's gaps
    assert (joules.source, joules.venue) == ("zotero.sqlite", "Green AI Institute")


def test_merging_is_stable_and_keeps_problems(tmp_path: Path) -> None:
    first = merge_duplicates(read_all(tmp_path))
    again = merge_duplicates(read_all(tmp_path))
    assert [[p for p in r.papers] for r in first.results] == [[p for p in r.papers] for r in again.results]
    assert [len(r.problems) for r in first.results] == [1, 1, 1, 1, 1, 1, 1]


def test_a_title_shared_by_papers_with_different_dois_or_arxiv_ids_merges_none() -> None:
    title = "A Survey of Graph Neural Networks"
    a = make_paper("10.1234/a", "A.", title=title, doi="10.1234/a")
    b = make_paper("10.1234/b", "B.", title=title, doi="10.1234/b")
    c = make_paper("x#1", "C.", title=title)
    outcome = merge_duplicates([ReadResult("x", papers=[a, b]), ReadResult("y", papers=[c])])
    assert outcome.merged == [0, 0]  # which of a and b would c be? no guessing
    d = make_paper("2101.00001", "D.", title=title)
    e = make_paper("e#1", "E.", title=title, authors=["Ann Lee"])
    outcome = merge_duplicates([ReadResult("x", papers=[a, d]), ReadResult("y", papers=[e])])
    assert outcome.merged == [1, 1]  # one DOI and one arXiv id: one paper
    [paper] = outcome.results[0].papers
    assert (paper.id, paper.abstract, paper.authors) == ("10.1234/a", "A.", ("Ann Lee",))


def test_a_record_of_a_stored_paper_keeps_the_stored_id_and_fills_its_gaps() -> None:
    stored = make_paper(
        "zotero:MOEX1234",
        "Old abstract.",
        title="Sparse Mixture-of-Experts Routing with Learned Capacity",
        authors=["Chidi Okafor"],
        url="https://proceedings.mlr.press/v235/okafor24a.html",
    )
    fresh = make_paper("2311.02222", "New abstract.", title="Sparse Mixture-of-Experts Routing With Learned Capacity")
    outcome = merge_duplicates([ReadResult("z.sqlite", papers=[fresh])], known=[stored])
    [paper] = outcome.results[0].papers
    assert outcome.merged == [0]  # it is written (as an update of the stored paper), not folded away
    assert (paper.id, paper.abstract, paper.authors, paper.url) == (
        "zotero:MOEX1234",
        "New abstract.",
        ("Chidi Okafor",),
        "https://proceedings.mlr.press/v235/okafor24a.html",
    )


def test_a_stored_paper_is_replaced_by_its_own_file_and_completed_by_another_source() -> None:
    title = "A Paper About Calibration Methods"
    stored = make_paper("p1", "A.", title=title, authors=["Wrong Author"], source="mine.jsonl")
    edited = make_paper("p1", "A.", title=title, source="mine.jsonl")
    outcome = merge_duplicates([ReadResult("mine.jsonl", papers=[edited])], known=[stored])
    assert outcome.results[0].papers == [edited]  # the file's new version: the author was removed on purpose

    other = make_paper("p1", "A newer abstract.", title=title, source="other.json")
    outcome = merge_duplicates([ReadResult("other.json", papers=[other])], known=[stored])
    [paper] = outcome.results[0].papers
    assert (paper.id, paper.abstract, paper.authors, paper.source) == (
        "p1",
        "A newer abstract.",
        ("Wrong Author",),
        "other.json",
    )
