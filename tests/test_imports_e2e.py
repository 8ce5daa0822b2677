"""Every import format through the real ingest into a real Chroma store on disk, with the bundled
embedder: per-file reports, failures named by file and record, merged duplicates, stable ids
across re-imports, and the CLI's ``--collection``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from zotero_fixture import IMPORTS, build_zotero_db

from rag.index.ingest import FileReport, IngestReport, ingest_paths
from store.chroma import ChromaStore

pytestmark = pytest.mark.slow


def accounted(f: FileReport) -> int:
    """Records of a file the report accounts for: each is added, updated, unchanged, merged or failed."""
    return f.added + f.updated + f.unchanged + f.merged + f.failed


def stored(store: ChromaStore) -> dict[str, tuple]:
    return {p.id: (p.title, p.authors, p.year, p.venue, p.doi) for p in store.all_papers()}


def ingest(paths, tmp_path: Path, embedder, name: str = "pc_imports", **kw) -> tuple[IngestReport, ChromaStore]:
    store = ChromaStore(name, path=tmp_path / "chroma")
    return ingest_paths(paths, store, embedder, **kw), store


# (file, records in it, papers, failures as (line or None, start of the reason))
CASES = {
    "zotero_export.csv": (4, 3, [(4, "row 3: item QRST6789 has no abstract")]),
    "library.csl.json": (4, 3, [(38, "record 3: item zotero:NOAB1234 has no abstract")]),
    "openreview_v1.json": (2, 1, [(30, "record 2: note Dl3tedNote is deleted")]),
    "openreview_v2.json": (3, 2, [(30, "record 2: note Rv7Review01 is not a paper")]),
    "s2_search.json": (4, 3, [(37, "record 3: paper 0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6 has no abstract")]),
    "arxiv_query.xml": (5, 4, [(106, "entry 5: 2404.00042 has no summary")]),
    "zotero.sqlite": (6, 5, [(None, "item QRST6789 ('Probabilistic Machine Learning: A Primer') has no abstract")]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_each_format_is_ingested_with_its_failures_named(name: str, tmp_path: Path, embedder) -> None:
    path = build_zotero_db(tmp_path) if name == "zotero.sqlite" else IMPORTS / name
    n_records, n_papers, failures = CASES[name]

    report, store = ingest([path], tmp_path, embedder)

    [f] = report.files
    assert (f.file, f.added, f.failed, f.merged) == (name, n_papers, len(failures), 0)
    assert accounted(f) == n_records
    assert [(q.file, q.line) for q in f.problems] == [(name, line) for line, _ in failures]
    assert all(q.reason.startswith(start) for q, (_, start) in zip(f.problems, failures, strict=True))
    assert report.papers_in_store == n_papers and store.audit().consistent


def test_all_sources_together_give_one_paper_per_work_and_reimport_changes_nothing(tmp_path: Path, embedder) -> None:
    paths = [IMPORTS / name for name in CASES if name != "zotero.sqlite"] + [build_zotero_db(tmp_path)]

    first, store = ingest(paths, tmp_path, embedder)

    assert [(f.file, f.added, f.merged, f.failed) for f in first.files] == [
        ("zotero_export.csv", 3, 0, 1),
        ("library.csl.json", 1, 2, 1),
        ("openreview_v1.json", 0, 1, 1),
        ("openreview_v2.json", 2, 0, 1),
        ("s2_search.json", 1, 2, 1),
        ("arxiv_query.xml", 1, 3, 1),
        ("zotero.sqlite", 2, 3, 1),
    ]
    assert [accounted(f) for f in first.files] == [CASES[f.file][0] for f in first.files]
    assert "merged 3 (same paper as another record)" in first.files[-1].line()
    papers = stored(store)
    assert first.papers_in_store == len(papers) == 10
    assert papers["10.1162/tacl_a_00999"] == (
        "Calibrated Uncertainty for Retrieval-Augmented Generation",
        ("José García", "Thị Lan Nguyễn", "Anna van der Berg"),
        2024,
        "Transactions of the Association for Computational Linguistics",
        "10.1162/TACL_A_00999",
    )
    assert papers["2110.05555"][2:4] == (2022, "ICLR 2022 Poster")

    again = ingest_paths(paths, store, embedder)
    assert [(f.added, f.updated, f.failed) for f in again.files] == [(0, 0, 1)] * 7
    assert sum(f.unchanged for f in again.files) == 10 and stored(store) == papers


def test_imports_in_separate_commands_keep_ids_and_merge_into_stored_papers(tmp_path: Path, embedder) -> None:
    csv, _ = ingest([IMPORTS / "zotero_export.csv"], tmp_path, embedder)
    assert csv.papers_in_store == 3
    atom, store = ingest([IMPORTS / "arxiv_query.xml"], tmp_path, embedder)
    # Schrödinger (arXiv id) and the calibration paper (DOI) are the stored papers, now updated
    assert [(f.added, f.updated, f.unchanged, f.merged) for f in atom.files] == [(2, 2, 0, 0)]
    schrodinger = stored(store)["2305.01234"]  # the arXiv record, its gaps filled from the CSV's
    assert schrodinger[1] == ("Hans Müller", "Łucja Kowalska", "Ming Li")
    assert schrodinger[4] == "10.48550/arXiv.2305.01234"
    database, store = ingest([build_zotero_db(tmp_path)], tmp_path, embedder)
    # its MoE item (arXiv id in Extra) is the CSV's item (Zotero key): the stored id is kept
    assert (database.files[0].added, database.papers_in_store) == (2, 7)
    papers = stored(store)
    assert "2311.02222" not in papers
    assert papers["zotero:MOEX1234"][:4] == (
        "Sparse Mixture-of-Experts Routing with Learned Capacity",
        ("Chidi Okafor", "Seo-yeon Kim"),
        2024,
        "Proceedings of the 41st International Conference on Machine Learning",
    )
    assert sorted(papers) == [
        "10.1162/tacl_a_00999",
        "10.5555/joules.2023.7",
        "2110.05555",
        "2305.01234",
        "2310.04567",
        "zotero:GRUP0001",
        "zotero:MOEX1234",
    ]


def test_cli_ingests_one_zotero_collection(tmp_path: Path, embedder, monkeypatch) -> None:
    import rag.pipeline
    from ui.cli import main

    monkeypatch.setattr(rag.pipeline, "make_embedder", lambda settings: embedder)
    db = build_zotero_db(tmp_path)
    home = ["--home", str(tmp_path / "home")]
    runner = CliRunner()

    out = runner.invoke(main, [*home, "ingest", "--quiet", str(db), "--collection", "Reading group"])

    assert out.exit_code == 0, out.output
    assert "zotero.sqlite: found 3, added 3, updated 0, unchanged 0, failed 0" in out.output
    wrong = runner.invoke(main, [*home, "ingest", "--quiet", str(IMPORTS / "s2_search.json"), "--collection", "X"])
    assert wrong.exit_code == 2 and "applies to a Zotero database" in wrong.output
    missing = runner.invoke(main, [*home, "ingest", "--quiet", str(db), "--collection", "Nope"])
    assert missing.exit_code == 1 and "no collection named 'Nope'" in missing.output


def test_cli_report_counts_every_row_and_prints_no_parser_messages(
    tmp_path: Path, embedder, monkeypatch, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    import logging

    import rag.pipeline
    from ui.cli import main

    monkeypatch.setattr(rag.pipeline, "make_embedder", lambda settings: embedder)
    named = tmp_path / "zotero_named.csv"  # Zotero's column names, not its full export (no Key, Item Type)
    named.write_text(
        "Title,Abstract Note,Author,Publication Year,DOI\n"
        'Widgets at Scale,"We study widgets, at scale, and find them useful.","Smith, Alice",2021,10.1000/w1\n'
        'Gadgets,We propose gadgets that beat widgets.,"Doe, Jane",2022,10.1000/g2\n'
        'No Abstract,,"Roe, Rick",2023,10.1000/n3\n',
        encoding="utf-8",
    )
    no_column = tmp_path / "no_column.csv"
    no_column.write_text("Title,Body\nA,x\nB,y\nC,z\n", encoding="utf-8")
    cut = tmp_path / "cut.bib"
    cut.write_text("@article{good1,\n  abstract = {We read this entry.}\n}\n\n@article{broken,\n  title = {Br", "utf-8")

    with caplog.at_level(logging.WARNING):
        out = CliRunner().invoke(
            main, ["--home", str(tmp_path / "home"), "ingest", "--quiet", str(named), str(no_column), str(cut)]
        )

    assert out.exit_code == 1, out.output
    lines = out.output.splitlines()
    assert "zotero_named.csv: found 3, added 2, updated 0, unchanged 0, failed 1; utf-8" in lines
    assert "no_column.csv: found 3, added 0, updated 0, unchanged 0, failed 3; utf-8" in lines
    assert "cut.bib: found 2, added 1, updated 0, unchanged 0, failed 1; utf-8" in lines
    assert "  failed zotero_named.csv:4: row 3: no abstract" in lines
    assert any(line.startswith("  failed no_column.csv:1: no abstract column;") for line in lines)
    assert "  failed cut.bib:5: garbled entry 'broken': Unexpectedly reached end of file." in lines
    assert "5 records or files could not be ingested (listed above); everything else is stored." in lines
    printed = out.output + "".join(capfd.readouterr())
    assert printed.count("Unexpectedly reached end of file.") == 1  # only in the failure line
    assert not [r for r in caplog.records if r.name.startswith("bibtexparser")]
