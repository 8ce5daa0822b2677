"""Readers of the import formats (``store.formats``), on the files of ``fixtures/imports``
(built from each format's documentation, see IMPORTS.md there) and on small variants of them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from zotero_fixture import IMPORTS, build_zotero_db

from store.formats.common import arxiv_id, clean_abstract, clean_title, person_name, stable_id, title_key, year_in
from store.papers import Paper, ReadResult, read_path


def row(p: Paper) -> tuple:
    """The fields a reader sets (the label is derived from them)."""
    return (p.id, p.title, p.authors, p.year, p.venue, p.url, p.doi)


def problems(result: ReadResult) -> list[tuple[int | None, str]]:
    """``(line, reason)`` of each problem, after checking that each names the file."""
    assert all(q.file == result.file for q in result.problems)
    return [(q.line, q.reason) for q in result.problems]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- shared field helpers ------------------------------------------------------------------


def test_markup_names_years_and_ids_of_real_exports() -> None:
    jats = (
        "<jats:title>Abstract</jats:title>\n<jats:p>We study R&amp;D in <jats:italic>deep</jats:italic>"
        "\nnets.</jats:p>"
    )
    assert clean_abstract(jats) == "We study R&D in deep nets."
    sections = "<jats:sec><jats:title>Background</jats:title><jats:p>Bg.</jats:p></jats:sec>"
    assert clean_abstract(sections) == "Background: Bg."
    assert clean_abstract("Abstract: if p < q then $x<y$ &#x2013; done") == "if p < q then $x<y$ – done"
    assert clean_abstract("Abstract reasoning is hard.") == "Abstract reasoning is hard."
    assert clean_title('Schr\\"odinger Bridges with $\\mathcal{O}(n)$ {BERT}.') == (
        "Schrödinger Bridges with $\\mathcal{O}(n)$ BERT"
    )
    assert person_name("明", "李") == "李明"
    assert person_name("Anna", "Berg", particle="van der") == "Anna van der Berg"
    dates = ("2023-00-00 2023", "0000-00-00 n.d.", 2021.0, "forthcoming")
    assert [year_in(v) for v in dates] == [2023, None, 2021, None]
    assert [
        arxiv_id(v)
        for v in (
            "http://arxiv.org/abs/2305.01234v2",
            "https://arxiv.org/pdf/2305.01234v1.pdf",
            "10.48550/arXiv.2305.01234",
            "arXiv:hep-th/9901001v3",
            "tex.type: x arXiv: 2311.02222",
            "10.1145/3292500.3330701",
        )
    ] == ["2305.01234", "2305.01234", "2305.01234", "hep-th/9901001", "2311.02222", ""]
    assert stable_id("10.1162/TACL_A_00999", "2402.07777", "k") == "10.1162/tacl_a_00999"
    assert stable_id("10.48550/arXiv.2305.01234", "", "k") == "2305.01234"
    assert stable_id("", "", "zotero:ABCD2345") == "zotero:ABCD2345"
    assert title_key("Schrödinger Bridges: a {Study}.") == title_key("Schrodinger bridges - A study") != ""
    assert title_key("Introduction") == ""


# --- Zotero CSV ------------------------------------------------------------------------------


def test_zotero_csv_export_is_read_without_map() -> None:
    result = read_path(IMPORTS / "zotero_export.csv")

    assert [row(p) for p in result.papers] == [
        (
            "2305.01234",
            "Schrödinger Bridges for Tabular Data Imputation",
            ("Hans Müller", "Łucja Kowalska", "李明"),
            2023,
            "arXiv",
            "http://arxiv.org/abs/2305.01234",
            "10.48550/arXiv.2305.01234",
        ),
        (
            "10.1162/tacl_a_00999",
            "Calibrated Uncertainty for Retrieval-Augmented Generation",
            ("José García", "Thị Lan Nguyễn", "Anna van der Berg"),
            2024,
            "Transactions of the Association for Computational Linguistics",
            "https://direct.mit.edu/tacl/article/doi/10.1162/tacl_a_00999",
            "10.1162/TACL_A_00999",
        ),
        (
            "zotero:MOEX1234",
            "Sparse Mixture-of-Experts Routing with Learned Capacity",
            ("Chidi Okafor", "Seo-yeon Kim"),
            2024,
            "Proceedings of the 41st International Conference on Machine Learning",
            "https://proceedings.mlr.press/v235/okafor24a.html",
            "",
        ),
    ]
    assert 'penalty on the "overflow" of tokens' in result.papers[2].abstract
    assert problems(result) == [(4, 'row 3: item QRST6789 has no abstract (empty "Abstract Note")')]


def test_zotero_csv_edited_in_a_spreadsheet_keeps_multiline_values_and_line_numbers(tmp_path: Path) -> None:
    text = (
        '"Key","Item Type","Publication Year","Author","Title","DOI","Url","Abstract Note","Date","Extra"\n'
        '"AAAA1111","report","","Nowak, Łukasz; OpenAI","Energy\nAccounting","","","First line.\n\nSecond line.",'
        '"2021-03-04","DOI: 10.5555/energy.1"\n'
        '"BBBB2222","journalArticle","2020","","Nothing","","","","",""\n'
    )
    result = read_path(write(tmp_path, "edited.csv", text))

    assert [row(p) for p in result.papers] == [
        (
            "10.5555/energy.1",
            "Energy Accounting",
            ("Łukasz Nowak", "OpenAI"),
            2021,
            "",
            "https://doi.org/10.5555/energy.1",
            "10.5555/energy.1",
        )
    ]
    assert result.papers[0].abstract == "First line. Second line."
    assert problems(result) == [(6, 'row 2: item BBBB2222 has no abstract (empty "Abstract Note")')]


def test_a_plain_csv_is_still_read_by_its_column_names(tmp_path: Path) -> None:
    result = read_path(write(tmp_path, "plain.csv", "id,title,abstract,year\np1,T,An abstract.,2020\n"))
    assert [(p.id, p.year) for p in result.papers] == [("p1", 2020)] and result.problems == []


# --- CSL-JSON ---------------------------------------------------------------------------------


def test_csl_json_items_of_zotero_crossref_and_mendeley() -> None:
    result = read_path(IMPORTS / "library.csl.json")

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
            "zotero:GCTA2023",
            "Graph Condensation with Text Attributes",
            ("Łukasz Nowak", "李华", "OpenGraph Consortium"),
            2023,
            "Proceedings of the 40th International Conference on Machine Learning",
            "https://proceedings.mlr.press/v202/nowak23a.html",
            "",
        ),
        (
            "library.csl#4",
            "Where the Joules Go: Accounting for the Energy of Training Runs",
            ("Siobhán O'Neill", "Daniel Okoye Jr."),
            2023,
            "Green AI Institute",
            "",
            "",
        ),
    ]
    first, second = result.papers[0].abstract, result.papers[1].abstract
    assert first.startswith("Retrieval-augmented") and "subsets & reduce" in first and "<" not in first
    assert "a graph neural network trains" in second and "original ones. Across 8 datasets" in second
    assert problems(result) == [(38, "record 3: item zotero:NOAB1234 has no abstract")]


def test_a_single_csl_item_and_an_edtf_date(tmp_path: Path) -> None:
    item = {"id": "x1", "type": "article", "title": "T", "abstract": "A.", "issued": "2019-05", "publisher": "arXiv"}
    result = read_path(write(tmp_path, "one.json", json.dumps(item)))
    assert [row(p) for p in result.papers] == [("x1", "T", (), 2019, "arXiv", "", "")]


def test_paperchat_json_with_a_type_field_is_not_taken_for_csl(tmp_path: Path) -> None:
    recs = [{"id": "a", "type": "article", "abstract": "A.", "authors": ["Ann Lee"], "year": 2020, "venue": "ICML"}]
    result = read_path(write(tmp_path, "own.json", json.dumps(recs)))
    assert [row(p) for p in result.papers] == [("a", "", ("Ann Lee",), 2020, "ICML", "", "")]


# --- OpenReview -------------------------------------------------------------------------------


def test_openreview_api_v2_reply_with_a_review_and_a_withdrawn_submission() -> None:
    result = read_path(IMPORTS / "openreview_v2.json")

    assert [row(p) for p in result.papers] == [
        (
            "openreview:Ab3dEf9XyZ",
            "Token Dropping for Efficient Vision Transformers",
            ("Sofía Ramírez", "Jun Tanaka", "李华"),
            2024,
            "ICLR 2024 poster",
            "https://openreview.net/forum?id=Ab3dEf9XyZ",
            "",
        ),
        (
            "openreview:Wd9Withdrn",
            "Prompt Ensembles Are Not Calibrated",
            (),
            2024,
            "ICLR 2024 Conference Withdrawn Submission",
            "https://openreview.net/forum?id=Wd9Withdrn",
            "",
        ),
    ]
    assert "tokens that matter. On ImageNet-1k" in result.papers[0].abstract  # paragraph break joined
    assert problems(result) == [
        (30, "record 2: note Rv7Review01 is not a paper (no title or abstract: a review, comment or decision)")
    ]


def test_openreview_api_v1_blind_submissions_and_a_deleted_note() -> None:
    result = read_path(IMPORTS / "openreview_v1.json")

    assert [row(p) for p in result.papers] == [
        (
            "openreview:Cs8pQ2mNvL",
            "Curriculum Sampling for Diffusion Policies",
            (),  # "Anonymous" is no author
            2022,
            "ICLR 2022 Poster",
            "https://openreview.net/forum?id=Cs8pQ2mNvL",
            "",
        )
    ]
    assert problems(result) == [(30, "record 2: note Dl3tedNote is deleted (it has a ddate)")]


def test_a_single_openreview_note_takes_its_year_from_the_venue_id_or_the_creation_time(tmp_path: Path) -> None:
    content = {"title": {"value": "T"}, "abstract": {"value": "A."}}
    note = {"id": "n1", "forum": "n1", "cdate": 1577836800000, "content": content}  # 2020-01-01 in ms
    result = read_path(write(tmp_path, "note.json", json.dumps(note)))
    forum = "https://openreview.net/forum?id=n1"
    assert [row(p) for p in result.papers] == [("openreview:n1", "T", (), 2020, "", forum, "")]
    note.update(domain="NeurIPS.cc/2023/Conference")
    result = read_path(write(tmp_path, "note.json", json.dumps(note)))
    assert (result.papers[0].year, result.papers[0].venue) == (2023, "NeurIPS 2023 Conference")


def test_malformed_records_fail_alone_with_their_record_number(tmp_path: Path) -> None:
    good = {"id": "ok", "forum": "ok", "content": {"title": "Fine", "abstract": "A."}}
    odd = {"id": "odd", "forum": "odd", "cdate": 1e20, "invitations": [], "content": {"title": ["x"], "abstract": "B."}}
    bad = {"id": "bad", "forum": "bad", "content": "not an object"}
    csl = {"id": "c", "type": ["article"], "issued": {"date-parts": "x"}, "author": "Smith", "abstract": 5}
    result = read_path(write(tmp_path, "mixed.json", json.dumps([good, odd, bad, csl], indent=1)))
    assert [row(p) for p in result.papers] == [
        ("openreview:ok", "Fine", (), None, "", "https://openreview.net/forum?id=ok", ""),
        ("openreview:odd", "", (), None, "", "https://openreview.net/forum?id=odd", ""),
    ]
    assert [reason for _, reason in problems(result)] == [
        "record 3: note bad is not a paper (no title or abstract: a review, comment or decision)",
        "record 4: note c is not a paper (no title or abstract: a review, comment or decision)",
    ]


# --- Semantic Scholar -------------------------------------------------------------------------


def test_semantic_scholar_search_reply() -> None:
    result = read_path(IMPORTS / "s2_search.json")

    assert [row(p) for p in result.papers] == [
        (
            "10.1162/tacl_a_00999",
            "Calibrated Uncertainty for Retrieval-Augmented Generation",
            ("José García", "Thị Lan Nguyễn", "Anna van der Berg"),
            2024,
            "Transactions of the Association for Computational Linguistics",
            "https://www.semanticscholar.org/paper/5c2e4f1a9b8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f",
            "10.1162/tacl_a_00999",
        ),
        (
            "2310.04567",
            "Token Dropping for Efficient Vision Transformers",
            ("Sofía Ramírez", "Jun Tanaka", "Hua Li"),
            2024,
            "International Conference on Learning Representations",
            "https://www.semanticscholar.org/paper/9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b",
            "",
        ),
        (
            "s2:7d6c5b4a39281706f5e4d3c2b1a0987654321fed",
            "Federated Learning with Heterogeneous Label Noise",
            ("Zoë Ångström", "Rahul Ghosh"),
            2022,
            "IEEE Transactions on Neural Networks and Learning Systems",
            "https://www.semanticscholar.org/paper/7d6c5b4a39281706f5e4d3c2b1a0987654321fed",
            "",
        ),
    ]
    assert "each client's noise transition matrix from the server’s global model" in result.papers[2].abstract
    assert problems(result) == [
        (
            37,
            "record 3: paper 0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6 has no abstract "
            "(Semantic Scholar gives none for it)",
        )
    ]


def test_semantic_scholar_batch_list_with_null_and_a_single_paper(tmp_path: Path) -> None:
    paper = {"paperId": "abc", "title": "T", "abstract": "A.", "year": 2021, "authors": [{"name": "Ann Lee"}]}
    batch = write(tmp_path, "batch.json", json.dumps([paper, None], indent=1))
    result = read_path(batch)
    assert [row(p) for p in result.papers] == [("s2:abc", "T", ("Ann Lee",), 2021, "", "", "")]
    null_line = batch.read_text().splitlines().index(" null") + 1  # an unknown id gives null
    assert problems(result) == [(null_line, "record 2 is not a JSON object")]
    single = read_path(write(tmp_path, "single.json", json.dumps(paper)))
    assert [p.id for p in single.papers] == ["s2:abc"]


# --- arXiv Atom -------------------------------------------------------------------------------


def test_arxiv_api_feed() -> None:
    result = read_path(IMPORTS / "arxiv_query.xml")

    assert [row(p) for p in result.papers] == [
        (
            "2305.01234",
            "Schrödinger Bridges for Tabular Data Imputation",
            ("Hans Müller", "Łucja Kowalska", "Ming Li"),
            2023,
            "arXiv",
            "https://arxiv.org/abs/2305.01234",
            "",
        ),
        (
            "2310.04567",
            "Token Dropping for Efficient Vision Transformers",
            ("Sofía Ramírez", "Jun Tanaka"),
            2024,  # the journal reference's year, not the submission's (2023)
            "ICLR 2024",
            "https://arxiv.org/abs/2310.04567",
            "",
        ),
        (
            "10.1162/tacl_a_00999",
            "Calibrated Uncertainty for Retrieval-Augmented Generation",
            ("José García", "Thị Lan Nguyễn"),
            2024,
            "Transactions of the ACL 12 (2024)",
            "https://arxiv.org/abs/2402.07777",
            "10.1162/tacl_a_00999",
        ),
        (
            "2110.05555",
            "Curriculum Sampling for Diffusion Policies",
            ("Aiko Suzuki",),
            2021,
            "arXiv",
            "https://arxiv.org/abs/2110.05555",
            "",
        ),
    ]
    schrodinger = result.papers[0].abstract
    assert schrodinger.startswith("Missing values") and "cost is $\\mathcal{O}(n)$ in the number of rows" in schrodinger
    assert "(p < 0.01)" in result.papers[3].abstract
    assert problems(result) == [(106, "entry 5: 2404.00042 has no summary (abstract)")]


ERROR_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>arXiv Query: id_list=1234.12345</title>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>
    <title>Error</title>
    <summary>incorrect id format for 1234.12345</summary>
  </entry>
</feed>
"""


def test_arxiv_error_reply_truncated_feed_and_other_xml(tmp_path: Path) -> None:
    err = read_path(write(tmp_path, "err.atom", ERROR_FEED))
    assert err.papers == [] and problems(err) == [(4, "entry 1: arXiv API error: incorrect id format for 1234.12345")]

    full = (IMPORTS / "arxiv_query.xml").read_text(encoding="utf-8")
    cut = full[: full.index("<entry>", full.index("2110.05555") - 400)]  # ends before the 4th entry closes
    truncated = read_path(write(tmp_path, "cut.xml", cut + "<entry><id>http://arxiv.org/abs/2110.05555v2</id>"))
    assert [p.id for p in truncated.papers] == ["2305.01234", "2310.04567", "10.1162/tacl_a_00999"]
    [(line, reason)] = problems(truncated)
    assert line == cut.count("\n") + 1 and reason.startswith("invalid XML at column") and "no element found" in reason

    other = read_path(write(tmp_path, "pom.xml", "<?xml version='1.0'?>\n<project><a/></project>\n"))
    assert problems(other) == [(1, "not an Atom feed (the root element is <project>): expected an arXiv API response")]


def test_formats_are_recognised_by_content_whatever_the_extension(tmp_path: Path) -> None:
    atom = tmp_path / "query"  # saved with no extension
    shutil.copy(IMPORTS / "arxiv_query.xml", atom)
    assert len(read_path(atom).papers) == 4
    db = build_zotero_db(tmp_path, "library.db")
    assert len(read_path(db).papers) == 5
    csl = tmp_path / "export.json"
    shutil.copy(IMPORTS / "library.csl.json", csl)
    assert [p.id for p in read_path(csl).papers][:1] == ["10.1162/tacl_a_00999"]
    quoting = [{"id": "q", "abstract": 'We parse <feed xmlns="http://www.w3.org/2005/Atom"> responses.'}]
    assert [p.id for p in read_path(write(tmp_path, "quote.json", json.dumps(quoting))).papers] == ["q"]
