"""The seed corpus parser: ids, abstracts, labels and code URLs against papers.jsonl."""
import json

import pytest
from conftest import ROOT, SEED

from store.papers import derive_label, find_code_url, read_path, read_seed_text, strip_markup


def _gold():
    return {r["id"]: r for r in map(json.loads, SEED.read_text().splitlines())}


def _seed_papers():
    papers = []
    for f in sorted((ROOT / "data").glob("*.txt")):
        res = read_seed_text(f)
        assert res.problems == []
        papers += res.papers
    return papers


def test_ids_and_abstracts_equal_the_reference():
    gold = _gold()
    papers = _seed_papers()
    assert [p.id for p in papers] == sorted(gold, key=lambda i: (i.split("#")[0], int(i.split("#")[1])))
    for p in papers:
        assert p.abstract == gold[p.id]["abstract"], p.id


def test_the_header_gives_every_abstract_its_venue_and_year():
    # "ICML 2026 Papers": "which papers were published in 2026?" said no paper matched year=2026
    assert {(p.venue, p.year) for p in _seed_papers()} == {("ICML", 2026)}


def test_labels_are_the_names_the_abstracts_state():
    gold = _gold()
    named = [(p, gold[p.id]["short_name"]) for p in _seed_papers() if gold[p.id]["short_name"]]
    right = sum(1 for p, name in named if p.label == name)
    assert right >= len(named) - 1, [(p.id, p.label, name) for p, name in named if p.label != name]
    unnamed = [p for p in _seed_papers() if not gold[p.id]["short_name"]]
    # papers without a stated name get a short description of what they do, never a cut sentence
    assert not any("…" in p.label for p in unnamed)
    assert all(2 <= len(p.label.split()) <= 6 for p in unnamed), [p.label for p in unnamed]
    from store.papers import has_opening_label

    assert sum(has_opening_label(p) for p in unnamed) >= len(unnamed) - 1
    assert not any(has_opening_label(p) for p, _ in named)


def test_code_urls_match_the_reference():
    gold = _gold()
    for p in _seed_papers():
        assert (p.url or None) == gold[p.id]["code_url"], p.id


def test_a_descriptive_label_is_told_apart_from_a_name_or_a_title():
    from store.papers import has_opening_label, make_paper

    text = "Large models are big and slow to serve. We propose a cheaper serving schedule for them."
    assert has_opening_label(make_paper("a", text))
    assert not has_opening_label(make_paper("b", text, title="Cheap serving of large models"))
    assert not has_opening_label(make_paper("c", "We propose FOO-2, a method. It works."))
    # a short first sentence is still only opening words: the title is the better label
    short = make_paper("d", "Composition is a key feature of privacy. We study it.", title="Adaptive Composition")
    assert short.label == "Adaptive Composition"


def test_derive_label_patterns():
    assert derive_label("We propose \\textbf{FOO-2}, a method.")[0] == "FOO-2"
    got = derive_label("Here we propose analytic thing matching (ATM), which works.")
    assert got == ("ATM", ("analytic thing matching",))
    assert derive_label("Large models cost a lot. We study sparse expert routing.")[0] == "Sparse expert routing"
    assert strip_markup("**DocVAL** gains 2.33\\%") == "DocVAL gains 2.33%"
    assert find_code_url("Code: https://github.com/a/b.") == "https://github.com/a/b"


def test_bad_files_are_reported_not_raised(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert read_path(empty).problems[0].reason == "empty file"
    odd = tmp_path / "x.docx"
    odd.write_text("hi")
    assert "unsupported format" in read_path(odd).problems[0].reason
    missing = read_path(tmp_path / "nope.txt")
    assert "no such file" in missing.problems[0].reason


@pytest.mark.parametrize(
    ("abstract", "url"),
    [
        # a line break of the PDF left a space inside the link: the link is joined whole
        ("Code is available at https://github.com/bigscience- workshop/architecture-objective.",
         "https://github.com/bigscience-workshop/architecture-objective"),
        ("Our code is available at https://github. com/BU-DEPEND-Lab/DRIBO.", "https://github.com/BU-DEPEND-Lab/DRIBO"),
        ("See https://github.com/jiaweihhuang/ Confounded-POMDP-Exp.", "https://github.com/jiaweihhuang/Confounded-POMDP-Exp"),
        # a URL followed by prose stays as it is
        ("Code: https://x.org/a/ and more results.", "https://x.org/a/"),
        ("Try it at http://fedscale.ai. We release everything.", "http://fedscale.ai"),
    ],
)
def test_a_url_cut_by_a_line_break_is_found_whole(abstract, url):
    from store.labels import is_code_link, written_url

    assert find_code_url(abstract) == url
    written = written_url(abstract, url)  # where the abstract writes it, spaces and all
    assert written in abstract and "".join(written.split()) == url
    if "github" in url:
        assert is_code_link(abstract, url)
