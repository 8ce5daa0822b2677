"""BibTeX exports that never invent (issue 34): each entry carries the record's own fields (no
title for a record without one; its label goes to ``note``) under a stable key: the key the
user's own .bib or Zotero library gave the paper (``tests/test_import_keys.py``: kept in the store),
else ``authorYEARword`` told apart by a/b/c, else one made from the paper id. Every export is
parsed back with bibtexparser."""

from __future__ import annotations

import random

import bibtexparser
import pytest

from rag.types import Citation
from store.papers import Paper, make_paper
from store.readers.bibtex import latex_to_text
from ui.exports import bibtex, bibtex_key, bibtex_keys

ABSTRACT = "We propose a method. It works."


def paper(pid: str, *, title: str = "", authors: tuple[str, ...] = (), year: int | None = None, **kw) -> Paper:
    return make_paper(pid, ABSTRACT, title=title, authors=authors, year=year, **kw)


def cite(p: Paper, number: int = 1) -> Citation:
    return Citation(number, p.id, p.label, (), url=p.url, authors=p.author_line, year=p.year)


def parse(text: str) -> dict[str, dict[str, str]]:
    """The entries of a .bib text by key: ``{key: {field: value}}`` (bibtexparser 2.x, no block failed)."""
    library = bibtexparser.parse_string(text)
    assert not library.failed_blocks, [b.raw for b in library.failed_blocks]
    return {e.key: {f.key: f.value for f in e.fields} for e in library.entries}


# --- keys --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record,key",
    [
        (dict(title="Attention Is All You Need", authors=("Ashish Vaswani", "Noam Shazeer"), year=2017),
         "vaswani2017attention"),
        (dict(title="On the Convergence of Adam and Beyond", authors=("Sashank J. Reddi",), year=2018),
         "reddi2018convergence"),  # "On", "the" say nothing of the paper
        (dict(title="Towards $\\ell_1$ {Robust} Models", authors=("Hans Müller",), year=2023), "muller2023ell"),
        (dict(title="Łódź Graphs", authors=("Łucja Kowalska",), year=2024), "kowalska2024lodz"),
        (dict(title="Deep Nets", authors=("Lovelace, Ada",), year=1843), "lovelace1843deep"),
        (dict(title="Dreams", authors=("Martin Luther King Jr.",), year=1963), "king1963dreams"),
        (dict(title="Attention Is All You Need", authors=("Ashish Vaswani",)), "vaswaniattention"),  # no year
        (dict(authors=("Ada Lovelace",), year=2026), "lovelace2026"),  # no title: no word
        (dict(authors=("Ada Lovelace",)), "x_1"),  # neither year nor word: the id's
        (dict(title="Deep Nets", year=2020), "x_1"),  # no author: the id's
        (dict(title="图神经网络", authors=("李明",), year=2023), "x_1"),  # nothing ASCII-writable
        (dict(title="Anything", authors=("A B",), year=2020, cite_key="Smith:2020/x"), "Smith:2020/x"),  # the user's
        (dict(title="Anything", cite_key="bad key{1}"), "bad_key_1"),  # not a BibTeX key as written
    ],
)
def test_key_of_one_record(record: dict, key: str):
    assert bibtex_key(paper("x#1", **record)) == key


def test_colliding_keys_take_a_b_c_in_id_order_whatever_order_they_come_in():
    same = dict(title="Learning to Learn", authors=("Wei Liu",), year=2022)
    papers = [
        paper("icml-3", **same),
        paper("icml-1", **same),
        paper("icml-2", **same),
        paper("mine", title="Other", authors=("Zed",), year=1, cite_key="liu2022learning"),  # the user's own key
        paper("icml-9", title="Unique Thing", authors=("Wei Liu",), year=2022),
        paper("bib-2", cite_key="dup2020"),  # two files gave one key: the first id keeps it
        paper("bib-1", cite_key="dup2020"),
    ]
    want = {
        "icml-1": "liu2022learninga",
        "icml-2": "liu2022learningb",
        "icml-3": "liu2022learningc",
        "mine": "liu2022learning",
        "icml-9": "liu2022unique",
        "bib-1": "dup2020",
        "bib-2": "dup2020a",
    }
    assert bibtex_keys(papers) == want
    shuffled = papers[:]
    random.Random(7).shuffle(shuffled)
    assert bibtex_keys(shuffled) == want
    assert bibtex_keys([paper("icml-1", **same)]) == {"icml-1": "liu2022learning"}  # alone: no suffix


def test_a_paper_has_the_same_key_in_every_export_of_one_collection():
    same = dict(title="Learning to Learn", authors=("Wei Liu",), year=2022)
    collection = {p.id: p for p in (paper("icml-1", **same), paper("icml-2", **same))}
    alone = parse(bibtex([cite(collection["icml-2"])], collection))
    both = parse(bibtex([cite(collection["icml-1"], 1), cite(collection["icml-2"], 2)], collection))
    assert list(alone) == ["liu2022learningb"] and list(both) == ["liu2022learninga", "liu2022learningb"]


# --- entries --------------------------------------------------------------------------------------


def test_entries_carry_the_records_fields_only_and_parse_back():
    titled = paper(
        "10.1145/3292500.3330701",
        title="100% of A & B_C {ok}: Fast #1",
        authors=("José García", "Google and DeepMind"),
        year=2019,
        url="https://x.org/a%20b#c",
        doi="10.1145/3292500.3330701",
    )
    untitled = paper("000_6b930c46f6674b66#7", authors=("Ada Lovelace",), year=2026)
    stub = Citation(3, "gone#1", "Removed paper", (), year=2020)  # cited, no longer in the collection
    collection = {p.id: p for p in (titled, untitled)}
    text = bibtex([cite(untitled, 2), cite(titled, 1), stub, cite(titled, 4)], collection)

    entries = parse(text)
    assert list(entries) == ["garcia2019100", "lovelace2026", "gone_1"]  # by number, once per paper
    got = entries["garcia2019100"]
    assert list(got) == ["title", "author", "year", "doi", "note", "howpublished"]
    assert latex_to_text(got["title"].strip("{}")) == "100% of A & B_C {ok}: Fast #1"
    assert got["author"] == "José García and {Google and DeepMind}"  # one organisation, not two people
    assert (got["year"], got["doi"]) == ("2019", "10.1145/3292500.3330701")
    assert got["howpublished"] == "\\url{https://x.org/a\\%20b\\#c}"

    label = untitled.label
    assert label and "title" not in entries["lovelace2026"]  # the record has none: never the label
    assert entries["lovelace2026"] == {
        "author": "Ada Lovelace",
        "year": "2026",
        "note": f"No title in the record; paperchat shows it as: {label}. Paper id: 000\\_6b930c46f6674b66\\#7",
    }
    assert entries["gone_1"] == {
        "year": "2020",
        "note": "No title in the record; paperchat shows it as: Removed paper. Paper id: gone\\#1",
    }
    assert bibtex([], collection) == ""
