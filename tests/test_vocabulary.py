"""The word classes (:mod:`rag.vocabulary`): the row syntax, and every class of every vocabulary file
finds each of its examples and none of its counter-examples. Fast: no embedder, no store."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rag.vocabulary import Vocabulary, phrase_source

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "rag").rglob("*.toml"))
CLASSES = [(f, name) for f in FILES for name in Vocabulary(f)]


def test_rows_match_whole_words_with_endings_optional_words_and_gaps(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text(
        '[venue]\njob = "venues"\nphrases = ["icml", "[the] conference[s]"]\n'
        '[review]\njob = "reviews"\nphrases = ["accept* ~2 at {venue}", "tl;dr", "vs", "vs."]\n'
        '[compare]\njob = "compare"\nwords = "compar* contrast* versus"\n'
    )
    v = Vocabulary(f)
    found = [m.group(0) for m in v["review"].finditer("accepted at ICML; accepted early on at the conferences; tl;dr")]
    assert found == ["accepted at ICML", "accepted early on at the conferences", "tl;dr"]
    assert not v["review"].search("unaccepted at icml")  # whole words only
    assert "comparison" in v["compare"] and "Contrasting" in v["compare"] and "incomparable" not in v["compare"]
    assert v["compare"].words == frozenset({"versus"})  # only plain rows are words
    assert phrase_source("paper[s]") == "paper(?:s)?"


def test_optional_words_at_the_end_optional_references_and_bare_sources(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text(
        '[strong]\njob = "strong"\nphrases = ["vs.", "vs", "versus"]\n'
        '[link]\njob = "links"\nphrases = ["{strong}", "and"]\n'
        '[polite]\njob = "polite"\nphrases = ["please", "can you"]\n'
        '[ask]\njob = "asks"\nphrases = ["[{polite}] compare", "outside [of]"]\n'
        '[venue]\njob = "venues"\nwords = "acl icml"\n'
    )
    v = Vocabulary(f)
    # a trailing optional word is taken when present, and the row still ends at a word boundary
    assert [m.group(0) for m in v["ask"].finditer("outside of X; outside Y; outsider")] == ["outside of", "outside"]
    found = [m.group(0) for m in v["ask"].finditer("can you compare; compare; xcompare")]
    assert found == ["can you compare", "compare"]
    # a reference brings the boundaries of its rows: "vs." ends with no word character
    assert [m.group(0) for m in v["link"].finditer("A vs. B and C vs D")] == ["vs.", "and", "vs"]
    # the bare alternation sets no outer boundary: "acl" as the end of "naacl"
    assert not v["venue"].search("naacl") and re.search(rf"{v['venue'].bare}\b", "naacl", re.I)
    assert phrase_source("outside [of]") == r"outside(?:\s+of)?"


def test_a_class_without_job_or_rows_or_with_an_unknown_reference_is_refused(tmp_path):
    for body in ('[a]\nphrases = ["x"]\n', '[a]\njob = "j"\n', '[a]\njob = "j"\nphrases = ["{b} x"]\n',
                 '[a]\njob = "j"\nphrases = ["[x] [y]"]\n'):
        f = tmp_path / "bad.toml"
        f.write_text(body)
        with pytest.raises((ValueError, KeyError)):
            Vocabulary(f)


@pytest.mark.parametrize(("path", "name"), CLASSES, ids=[f"{f.stem}:{n}" for f, n in CLASSES])
def test_each_class_finds_its_examples_and_not_its_counter_examples(path, name):
    cls = Vocabulary(path)[name]
    assert cls.job.strip() and cls.examples, f"[{name}] in {path.name} needs a job and examples"
    for text in cls.examples:
        assert cls.search(text), f"[{name}] finds nothing in its example {text!r}"
    for text in cls.counter:
        assert not cls.search(text), f"[{name}] finds {cls.search(text).group(0)!r} in its counter-example {text!r}"
