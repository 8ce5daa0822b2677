"""Tests for the JSON, CSV/TSV and BibTeX readers in ``store.readers`` (and JSONL truncation)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from store.papers import READERS, IngestProblem, Paper, ReadResult, read_jsonl, read_path
from store.readers.bibtex import read_bibtex
from store.readers.csv_table import read_csv
from store.readers.fields import parse_field_map, split_authors
from store.readers.json_array import read_json_array


def write(tmp_path: Path, name: str, text: str) -> Path:
    """Write ``text`` to ``tmp_path/name`` exactly (no newline translation) and return the path."""
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def fields(p: Paper) -> tuple:
    """Return the fields a reader sets (the label is derived elsewhere)."""
    return (p.id, p.title, p.abstract, p.authors, p.year, p.venue, p.url, p.source)


def where(result: ReadResult) -> list[tuple[str, int | None]]:
    """``(file, line)`` of each problem, in order."""
    return [(q.file, q.line) for q in result.problems]


# --- JSON ---------------------------------------------------------------------------


def test_json_array_reads_common_field_names(tmp_path: Path) -> None:
    records = [
        {
            "id": "dance-1",
            "title": "DANCE: Fast Things",
            "abstract": "We propose DANCE, a fast method.",
            "authors": ["Alice Smith", "Bob Jones", "Carol White"],
            "year": 2023,
            "venue": "ICML",
            "url": "https://example.org/dance",
        },
        {
            "Paper_ID": "p2",
            "Paper_Title": "Second",
            "Summary": "A summary used as abstract.",
            "Creators": [{"given": "Ann", "family": "Lee"}, {"name": "Zed Zee"}],
            "publication_date": "2021-06-30",
            "Conference": "NeurIPS",
            "PDF_URL": "https://example.org/p2.pdf",
        },
        {"name": "Third", "tldr": "Short text.", "author": "Smith, Alice and Bob Jones", "date": "May 2020"},
    ]
    path = write(tmp_path, "papers.json", json.dumps(records, indent=2))

    result = read_json_array(path)

    assert result.file == "papers.json"
    assert result.problems == []
    assert [fields(p) for p in result.papers] == [
        (
            "dance-1",
            "DANCE: Fast Things",
            "We propose DANCE, a fast method.",
            ("Alice Smith", "Bob Jones", "Carol White"),
            2023,
            "ICML",
            "https://example.org/dance",
            "papers.json",
        ),
        (
            "p2",
            "Second",
            "A summary used as abstract.",
            ("Ann Lee", "Zed Zee"),
            2021,
            "NeurIPS",
            "https://example.org/p2.pdf",
            "papers.json",
        ),
        ("papers#3", "Third", "Short text.", ("Alice Smith", "Bob Jones"), 2020, "", "", "papers.json"),
    ]
    assert result.papers[0].author_line == "Alice Smith et al."


@pytest.mark.parametrize("key", ["papers", "items", "data", "records", "results", "notes", "Papers"])
def test_json_object_holding_the_array(tmp_path: Path, key: str) -> None:
    doc = {"description": "An export", key: [{"abstract": "First."}, {"abstract": "Second.", "doi": "10.1/x"}]}
    path = write(tmp_path, "wrapped.json", json.dumps(doc))

    result = read_json_array(path)

    assert result.problems == []
    assert [(p.id, p.abstract) for p in result.papers] == [("wrapped#1", "First."), ("10.1/x", "Second.")]


def test_json_wrapper_key_written_with_escapes_is_read_without_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "esc.json", '{"p\\u0061pers": [{"abstract": "x"}, {"title": "no abstract"}]}')

    result = read_json_array(path)

    assert [p.abstract for p in result.papers] == ["x"]
    assert [(q.line, q.reason) for q in result.problems] == [(None, "record 2: no abstract")]


def test_json_bad_records_are_problems_and_the_rest_is_read(tmp_path: Path) -> None:
    text = (
        "[\n"  # line 1
        '  {"id": "a", "abstract": "Good one."},\n'  # line 2
        '  {"id": "b", "title": "No abstract"},\n'  # line 3
        "  42,\n"  # line 4
        '  {"id": "c", "abstract": "Bad year.", "year": "soon"},\n'  # line 5
        '  {"id": "d", "abstract": ["not", "text"]},\n'  # line 6
        "  {\n"  # line 7
        '    "abstract": "Good two."\n'
        "  }\n"
        "]\n"
    )
    path = write(tmp_path, "mixed.json", text)

    result = read_json_array(path)

    assert [(p.id, p.abstract) for p in result.papers] == [("a", "Good one."), ("mixed#6", "Good two.")]
    assert where(result) == [("mixed.json", 3), ("mixed.json", 4), ("mixed.json", 5), ("mixed.json", 6)]
    reasons = [q.reason for q in result.problems]
    assert reasons[0] == "record 2: no abstract"
    assert reasons[1] == "record 3 is not a JSON object"
    assert "no 4-digit year in 'soon'" in reasons[2]
    assert "abstract is not text" in reasons[3]


def test_json_syntax_error_reports_the_line_and_keeps_earlier_records(tmp_path: Path) -> None:
    text = '[\n  {"abstract": "One."},\n  {"abstract": "Two."}\n  {"abstract": "Three."}\n]\n'
    path = write(tmp_path, "broken.json", text)

    result = read_json_array(path)

    assert [(p.id, p.abstract) for p in result.papers] == [("broken#1", "One."), ("broken#2", "Two.")]
    assert len(result.problems) == 1
    problem = result.problems[0]
    assert (problem.file, problem.line) == ("broken.json", 4)
    assert problem.reason.startswith("invalid JSON")
    assert "Expecting ',' delimiter" in problem.reason


def test_jsonl_syntax_error_names_the_file_line_and_column_only(tmp_path: Path) -> None:
    path = write(tmp_path, "some.jsonl", '{"abstract": "One."}\n{"abstract": "Two." "x": 1}\n{"abstract": "Three."}\n')
    result = read_jsonl(path)
    assert [p.abstract for p in result.papers] == ["One.", "Three."]
    (problem,) = result.problems
    assert (problem.file, problem.line) == ("some.jsonl", 2)
    assert problem.reason == "invalid JSON at column 21: Expecting ',' delimiter"


def test_json_truncated_last_record(tmp_path: Path) -> None:
    text = '{"papers": [\n  {"abstract": "One."},\n  {"abstract": "Two."},\n  {"abstract": "Thr'
    path = write(tmp_path, "cut.json", text)

    result = read_json_array(path)

    assert [p.abstract for p in result.papers] == ["One.", "Two."]
    assert where(result) == [("cut.json", 4)]
    assert "invalid JSON" in result.problems[0].reason


def test_json_without_an_array_of_papers(tmp_path: Path) -> None:
    path = write(tmp_path, "config.json", '{"name": "settings", "size": 3}')

    result = read_json_array(path)

    assert result.papers == []
    assert where(result) == [("config.json", 1)]
    assert "no array of papers" in result.problems[0].reason


def test_json_empty_array_and_single_object(tmp_path: Path) -> None:
    empty = read_json_array(write(tmp_path, "none.json", "[]"))
    single = read_json_array(write(tmp_path, "one.json", '{"title": "Solo", "abstract": "Only one."}'))

    assert empty.papers == [] and [q.reason for q in empty.problems] == ["no records"]
    assert single.problems == []
    assert [(p.id, p.title, p.abstract) for p in single.papers] == [("one#1", "Solo", "Only one.")]


def test_json_field_map(tmp_path: Path) -> None:
    path = write(tmp_path, "custom.json", json.dumps([{"Body": "Mapped abstract.", "abstract": "", "Heading": "T"}]))

    result = read_json_array(path, field_map={"abstract": "Body", "title": "heading"})

    assert result.problems == []
    assert [(p.title, p.abstract) for p in result.papers] == [("T", "Mapped abstract.")]


# --- CSV / TSV ----------------------------------------------------------------------


def test_csv_good_file(tmp_path: Path) -> None:
    text = (
        "ID,Title,Abstract,Authors,Year,Venue,URL\n"
        'x1,First,"We propose X1, a model.","Alice Smith; Bob Jones",2022,ICLR,https://x1.dev\n'
        ',Second,Plain abstract.,"Lee, Ann",,,\n'
    )
    path = write(tmp_path, "table.csv", text)

    result = read_csv(path)

    assert result.problems == []
    assert [fields(p) for p in result.papers] == [
        (
            "x1",
            "First",
            "We propose X1, a model.",
            ("Alice Smith", "Bob Jones"),
            2022,
            "ICLR",
            "https://x1.dev",
            "table.csv",
        ),
        ("table#2", "Second", "Plain abstract.", ("Ann Lee",), None, "", "", "table.csv"),
    ]


ZOTERO_NAMED = (
    "Title,Abstract Note,Author,Publication Year,DOI\n"  # Zotero's column names, not its full export
    'Widgets at Scale,"We study widgets, at scale.","Smith, Alice; Jones, Bob",2021,10.1000/w1\n'
    'Gadgets,We propose gadgets.,"Doe, Jane",2022,10.1000/g2\n'
    'No Abstract,,"Roe, Rick",2023,10.1000/n3\n'
)


def test_csv_with_zotero_column_names_is_read_without_map(tmp_path: Path) -> None:
    path = write(tmp_path, "zotero_named.csv", ZOTERO_NAMED)

    result = read_csv(path)

    assert [fields(p) for p in result.papers] == [
        (
            "10.1000/w1",
            "Widgets at Scale",
            "We study widgets, at scale.",
            ("Alice Smith", "Bob Jones"),
            2021,
            "",
            "",
            "zotero_named.csv",
        ),
        ("10.1000/g2", "Gadgets", "We propose gadgets.", ("Jane Doe",), 2022, "", "", "zotero_named.csv"),
    ]
    assert [(q.file, q.line, q.reason, q.records) for q in result.problems] == [
        ("zotero_named.csv", 4, "row 3: no abstract", 1)
    ]


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("snake.csv", "title,abstract_note,author,publication_year,doi,url,publication_title"),
        ("upper.csv", "TITLE;ABSTRACT NOTE;AUTHORS;YEAR;DOI;URL;SOURCE TITLE"),
        ("camel.tsv", "Title\tabstractNote\tAuthor\tPublication-Year\tDOI\tUrl\tpublicationTitle"),
        ("wos.csv", "Article Title,Abstract,Authors,Publication Year,DOI,Link,Conference Name"),
    ],
)
def test_csv_export_column_names_in_any_case_spacing_or_underscores(tmp_path: Path, name: str, header: str) -> None:
    sep = next(c for c in ",;\t" if c in header)
    cells = ["A Title", "An abstract, with a comma.", "Lee, Ann; Roe, Bo", "2020", "10.1/x", "https://x", "ICML"]
    path = write(tmp_path, name, header + "\n" + sep.join(f'"{c}"' for c in cells) + "\n")

    result = read_csv(path)

    assert result.problems == []
    assert [fields(p) for p in result.papers] == [
        ("10.1/x", "A Title", "An abstract, with a comma.", ("Ann Lee", "Bo Roe"), 2020, "ICML", "https://x", name)
    ]


def test_json_keys_of_export_names_are_read_without_map(tmp_path: Path) -> None:
    record = {
        "Title": "T",
        "abstractNote": "An abstract.",
        "creators": [{"firstName": "Ann", "lastName": "Lee"}],
        "Publication Year": 2021,
        "publicationTitle": "NeurIPS",
        "URL": "https://t",
    }
    result = read_json_array(write(tmp_path, "zotero_like.json", json.dumps([record])))

    assert result.problems == []
    assert [fields(p) for p in result.papers] == [
        ("zotero_like#1", "T", "An abstract.", ("Ann Lee",), 2021, "NeurIPS", "https://t", "zotero_like.json")
    ]


def test_full_zotero_export_header_is_still_read_as_zotero(tmp_path: Path) -> None:
    text = '"Key","Item Type","Title","Abstract Note","Author","Publication Year"\n'
    text += 'K1,report,T,Abstract.,"Lee, Ann",2020\n'

    [paper] = read_csv(write(tmp_path, "zotero.csv", text)).papers

    assert (paper.id, paper.authors, paper.year) == ("zotero:K1", ("Ann Lee",), 2020)


def test_csv_sniffs_semicolon_and_tsv_uses_tabs(tmp_path: Path) -> None:
    semi = write(tmp_path, "semi.csv", 'title;abstract;year\nA;"Uses, commas";2020\nB;Also fine;2021\n')
    tsv = write(tmp_path, "tabs.tsv", "title\tabstract\nA\tText, with; punctuation\n")

    r_semi, r_tsv = read_csv(semi), read_csv(tsv)

    assert r_semi.problems == [] and r_tsv.problems == []
    assert [(p.title, p.abstract, p.year) for p in r_semi.papers] == [
        ("A", "Uses, commas", 2020),
        ("B", "Also fine", 2021),
    ]
    assert [(p.title, p.abstract) for p in r_tsv.papers] == [("A", "Text, with; punctuation")]


def test_csv_missing_abstract_cell_reports_the_physical_line(tmp_path: Path) -> None:
    text = (
        "title,abstract\n"  # line 1
        'A,"An abstract\nspanning two lines."\n'  # lines 2-3
        "B,\n"  # line 4
        "\n"  # line 5 (blank, skipped)
        "C\n"  # line 6: short row
        'D,"a,b",extra\n'  # line 7: too many cells
        "E,Last one.\n"  # line 8
    )
    path = write(tmp_path, "holes.csv", text)

    result = read_csv(path)

    assert [(p.id, p.title, p.abstract) for p in result.papers] == [
        ("holes#1", "A", "An abstract\nspanning two lines."),
        ("holes#5", "E", "Last one."),
    ]
    assert where(result) == [("holes.csv", 4), ("holes.csv", 6), ("holes.csv", 7)]
    assert [q.reason for q in result.problems[:2]] == ["row 2: no abstract", "row 3: no abstract"]
    assert "3 cells but the header has 2" in result.problems[2].reason


def test_csv_field_map_selects_a_custom_column(tmp_path: Path) -> None:
    path = write(tmp_path, "custom.csv", "Paper,Body Text,Notes\nP1,Mapped abstract.,n/a\n")

    result = read_csv(path, field_map={"abstract": "Body Text", "title": "paper"})

    assert result.problems == []
    assert [(p.id, p.title, p.abstract) for p in result.papers] == [("custom#1", "P1", "Mapped abstract.")]


def test_csv_header_without_abstract_column_is_one_problem_failing_every_row(tmp_path: Path) -> None:
    path = write(tmp_path, "noabs.csv", "Title,Body Text,Year\nA,Some text,2020\n\nB,More text,2021\n")

    result = read_csv(path)

    assert result.papers == []
    assert where(result) == [("noabs.csv", 1)]
    reason = result.problems[0].reason
    assert "no abstract column" in reason
    assert "'Title', 'Body Text', 'Year'" in reason
    assert "--map abstract=COLUMN" in reason
    assert reason.endswith("none of its 2 rows is read")
    assert result.problems[0].records == 2  # the report counts both rows found and failed


def test_csv_mapped_column_not_in_header(tmp_path: Path) -> None:
    path = write(tmp_path, "nomatch.csv", "Title,Text\nA,Some text\n")

    result = read_csv(path, field_map={"abstract": "Body"})

    assert result.papers == []
    assert len(result.problems) == 1
    assert "column 'Body' (--map abstract=Body) not found" in result.problems[0].reason
    assert "'Title', 'Text'" in result.problems[0].reason


def test_csv_truncated_last_row_and_stray_quote(tmp_path: Path) -> None:
    truncated = write(tmp_path, "cut.csv", 'id,abstract\n1,Complete.\n2,"Cut off in the mid')
    stray = write(tmp_path, "stray.csv", 'id,abstract\n1,"Unclosed\n2,Still read.\n3,"Also" read\n4,Fine.\n')

    r_cut, r_stray = read_csv(truncated), read_csv(stray)

    assert [(p.id, p.abstract) for p in r_cut.papers] == [("1", "Complete.")]
    assert where(r_cut) == [("cut.csv", 3)]
    assert "unclosed quote" in r_cut.problems[0].reason
    assert [(p.id, p.abstract) for p in r_stray.papers] == [("2", "Still read."), ("4", "Fine.")]
    assert where(r_stray) == [("stray.csv", 2), ("stray.csv", 4)]
    assert [q.reason.split(" (")[0] for q in r_stray.problems] == [
        "row 1: malformed quoting",
        "row 3: malformed quoting",
    ]


def test_csv_header_only_and_bom(tmp_path: Path) -> None:
    header_only = read_csv(write(tmp_path, "header.csv", "title,abstract\n"))
    bom = read_csv(write(tmp_path, "bom.csv", "\ufeffAbstract,Title\nText.,T\n"))

    assert header_only.papers == [] and [(q.line, q.reason) for q in header_only.problems] == [
        (1, "header only, no records")
    ]
    assert bom.problems == [] and [(p.title, p.abstract) for p in bom.papers] == [("T", "Text.")]


# --- BibTeX -------------------------------------------------------------------------

GOOD_BIB = r"""% exported by a reference manager
@inproceedings{smith2023dance,
  title     = {{DANCE}: Fast {T}hings for {M}{\"u}nchen},
  author    = {Smith, Alice and van der Berg, Jan and Bob Jones},
  booktitle = {Proceedings of ICML},
  year      = {2023},
  url       = {https://dance.github.io},
  abstract  = {We propose DANCE,
               a fast method.}
}

@article{lee2021,
  title    = "Second Paper",
  author   = {Lee, Ann},
  journal  = {JMLR},
  year     = 2021,
  doi      = {10.5555/12345},
  abstract = {Plain abstract.}
}
"""


def test_bibtex_good_file(tmp_path: Path) -> None:
    path = write(tmp_path, "refs.bib", GOOD_BIB)

    result = read_bibtex(path)

    assert result.problems == []
    assert [fields(p) for p in result.papers] == [
        (
            "smith2023dance",
            "DANCE: Fast Things for München",
            "We propose DANCE, a fast method.",
            ("Alice Smith", "Jan van der Berg", "Bob Jones"),
            2023,
            "Proceedings of ICML",
            "https://dance.github.io",
            "refs.bib",
        ),
        (
            "lee2021",
            "Second Paper",
            "Plain abstract.",
            ("Ann Lee",),
            2021,
            "JMLR",
            "https://doi.org/10.5555/12345",
            "refs.bib",
        ),
    ]


def test_bibtex_missing_abstract_garbled_duplicate_and_truncated(tmp_path: Path) -> None:
    text = (
        "@article{good1,\n"  # line 1
        "  title = {Good},\n"
        "  abstract = {Read me.}\n"
        "}\n"
        "\n"
        "@article{noabs,\n"  # line 6
        "  title = {No abstract},\n"
        "  year = {2022}\n"
        "}\n"
        "\n"
        "@article{garbled\n"  # line 11: no comma after the key
        "  title = {Oops},\n"
        "  abstract = {Lost.}\n"
        "\n"
        "@misc{good2,\n"  # line 15
        "  abstract = {Read me too.}\n"
        "}\n"
        "@misc{good1,\n"  # line 18: duplicate key
        "  abstract = {Duplicate.}\n"
        "}\n"
        "@misc{cut,\n"  # line 21: truncated at end of file
        "  abstract = {Cut o"
    )
    path = write(tmp_path, "messy.bib", text)

    result = read_bibtex(path)

    assert [(p.id, p.abstract) for p in result.papers] == [("good1", "Read me."), ("good2", "Read me too.")]
    assert where(result) == [("messy.bib", 6), ("messy.bib", 11), ("messy.bib", 18), ("messy.bib", 21)]
    reasons = [q.reason for q in result.problems]
    assert reasons[0] == "entry 'noabs' has no abstract"
    assert reasons[1].startswith("garbled entry 'garbled'")
    assert "duplicate entry key 'good1'" in reasons[2]
    assert reasons[3].startswith("garbled entry 'cut'")
    assert "end of file" in reasons[3]


def test_bibtex_parser_messages_are_not_printed_but_reported(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    text = "@article{good1,\n  abstract = {Read me.}\n}\n\n@article{broken,\n  title = {Broken\n"
    path = write(tmp_path, "cut.bib", text)

    with caplog.at_level(logging.DEBUG):
        result = read_bibtex(path)

    assert [p.id for p in result.papers] == ["good1"]
    assert [(q.file, q.line, q.reason) for q in result.problems] == [
        ("cut.bib", 5, "garbled entry 'broken': Unexpectedly reached end of file.")
    ]
    out, err = capfd.readouterr()
    assert out == err == ""
    assert not [r for r in caplog.records if r.name.startswith("bibtexparser") or r.levelno >= logging.WARNING]
    assert not logging.getLogger("bibtexparser").handlers and logging.getLogger("bibtexparser").propagate


def test_bibtex_parser_abort_message_without_a_failed_block_becomes_a_problem() -> None:
    from store.readers.bibtex import _account_for

    result = ReadResult(file="x.bib", problems=[IngestProblem("x.bib", 9, "entry 'k' has no abstract")])
    messages = [
        "bibtexparser.splitter: Parsing of `@article` block (line 2) aborted on line 4 due to syntactical "
        "error in bibtex:\n Unexpectedly reached end of file.",
        "bibtexparser.splitter: We will try to continue parsing, but this might lead to unexpected results.",
    ]

    _account_for(messages, result)

    assert [(q.line, q.reason) for q in result.problems] == [
        (3, "garbled @article block: Unexpectedly reached end of file."),
        (9, "entry 'k' has no abstract"),
    ]


def test_bibtex_without_entries(tmp_path: Path) -> None:
    result = read_bibtex(write(tmp_path, "notes.bib", "just some text, no entries\n"))

    assert result.papers == []
    assert [(q.line, q.reason) for q in result.problems] == [(None, "no BibTeX entries found")]


# --- empty files, JSONL truncation, dispatch ------------------------------------------


@pytest.mark.parametrize(
    "reader,name", [(read_json_array, "e.json"), (read_csv, "e.csv"), (read_csv, "e.tsv"), (read_bibtex, "e.bib")]
)
@pytest.mark.parametrize("content", ["", "  \n\n"])
def test_empty_file_of_each_format(tmp_path: Path, reader, name: str, content: str) -> None:
    result = reader(write(tmp_path, name, content))

    assert result.papers == []
    assert result.problems == [IngestProblem(name, None, "empty file")]


def test_jsonl_truncated_last_line(tmp_path: Path) -> None:
    text = '{"id": "a", "abstract": "First."}\n{"id": "b", "abstract": "Second."}\n{"id": "c", "abstr'
    path = write(tmp_path, "stream.jsonl", text)

    result = read_jsonl(path)

    assert [(p.id, p.abstract) for p in result.papers] == [("a", "First."), ("b", "Second.")]
    assert where(result) == [("stream.jsonl", 3)]
    assert "Unterminated string" in result.problems[0].reason


def test_read_path_dispatches_and_passes_the_field_map(tmp_path: Path) -> None:
    assert {".json", ".csv", ".tsv", ".bib", ".txt", ".jsonl"} <= set(READERS)
    csv_path = write(tmp_path, "m.csv", "Name,Summary Text\nN,Mapped.\n")
    txt_path = write(tmp_path, "seed.txt", "ICML 2024 abstracts\n\nWe study things.\n")
    bib_path = write(tmp_path, "r.bib", GOOD_BIB)

    mapped = read_path(csv_path, field_map={"abstract": "Summary Text"})
    unmapped = read_path(csv_path)
    seed = read_path(txt_path, field_map={"abstract": "Summary Text"})  # the seed reader takes no map

    assert [(p.title, p.abstract) for p in mapped.papers] == [("N", "Mapped.")]
    assert unmapped.papers == [] and "no abstract column" in unmapped.problems[0].reason
    assert [p.abstract for p in seed.papers] == ["We study things."]
    assert [p.id for p in read_path(bib_path).papers] == ["smith2023dance", "lee2021"]


# --- helpers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value,expected",
    [
        (None, []),
        ("", []),
        ("Alice Smith and Bob Jones", ["Alice Smith", "Bob Jones"]),
        ("Alice Smith; Bob Jones; Carol White", ["Alice Smith", "Bob Jones", "Carol White"]),
        ("Alice Smith, Bob Jones, Carol White", ["Alice Smith", "Bob Jones", "Carol White"]),
        ("Alice Smith, Bob Jones, and Carol White", ["Alice Smith", "Bob Jones", "Carol White"]),
        ("Smith, Alice and Jones, Bob", ["Alice Smith", "Bob Jones"]),
        ("LeCun, Yann", ["Yann LeCun"]),
        ("van der Berg, Jan", ["Jan van der Berg"]),
        (["Smith, Alice", "Bob Jones"], ["Alice Smith", "Bob Jones"]),
        ([{"name": "Ann Lee"}, {"given": "Bo", "family": "Li"}, {"family": "Solo"}], ["Ann Lee", "Bo Li", "Solo"]),
    ],
)
def test_split_authors(value, expected: list[str]) -> None:
    assert split_authors(value) == expected


def test_parse_field_map() -> None:
    assert parse_field_map(["abstract=Summary", " Title = Paper Name "]) == {
        "abstract": "Summary",
        "title": "Paper Name",
    }
    with pytest.raises(ValueError, match="expected FIELD=NAME"):
        parse_field_map(["abstract"])
    with pytest.raises(ValueError, match="unknown field 'abstrct'"):
        parse_field_map(["abstrct=Summary"])


def test_a_name_the_title_states_before_a_colon_is_the_label():
    from store.papers import make_paper

    abstract = "Layouts matter. We propose a conditional latent diffusion model, PLay, that generates vector layouts."
    p = make_paper("x#1", abstract, title="PLay: Parametrically Conditioned Layout Generation using Latent Diffusion")
    assert p.label == "PLay"
    # A title whose part before the colon is not a coined name keeps the abstract's name or the title.
    q = make_paper("x#2", "We introduce FOAM, an optimizer.", title="Learning to Rank: A Survey of Methods")
    assert q.label == "FOAM"
    r = make_paper("x#3", "Ranking is studied here at length in many settings.", title="Learning to Rank: A Survey")
    assert r.label == "Learning to Rank: A Survey"
    # The abstract's own coined name stays an alias that name matching finds.
    s = make_paper("x#4", "We propose MolNet, a model.", title="MolDiff: Addressing Atom-Bond Inconsistency")
    assert s.label == "MolDiff" and "MolNet" in s.aliases
