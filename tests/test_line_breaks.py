"""Line-break artefacts of abstracts copied out of PDFs (:func:`store.textin.repair_breaks`):
words a line break cut ("atmo- spheric") are joined, compounds keep their hyphen ("two- stage"
-> "two-stage"), suspended hyphens stay as written ("first- and second-order"), and words run
together ("moreefficient") are split only on strong evidence. The strings are real ones of the
ICML 2022-23 corpus; the collections around them are small, written for each test."""

import json

import pytest

from rag.index.embed import HashingEmbedder
from rag.index.ingest import ingest_paths
from store.chroma import ChromaStore
from store.papers import make_paper, repair_line_breaks
from store.textin import CollectionWords, TextEdit, repair_breaks, undo_edits


def repaired(text: str, *others: str) -> str:
    words = CollectionWords([text, *others])
    out, edits = repair_breaks(text, words)
    assert undo_edits(out, edits) == text  # the source's text is always recoverable
    return out


@pytest.mark.parametrize(
    ("broken", "mended"),
    [
        ("We apply FNOs to forecasting atmo- spheric dynamics.", "We apply FNOs to forecasting atmospheric dynamics."),
        ("to boost the perfor- mance of FSC", "to boost the performance of FSC"),
        ("We show that it signif- icantly outperforms existing compression meth- ods.",
         "We show that it significantly outperforms existing compression methods."),
        ("To re- duce the size and complexity", "To reduce the size and complexity"),
        ("natural language under- standing, question answering", "natural language understanding, question answering"),
        ("Specif- ically, we introduce a novel", "Specifically, we introduce a novel"),
        ("It can- not be directly applied to NLP models", "It cannot be directly applied to NLP models"),
    ],
)
def test_a_word_a_line_break_cut_is_joined_on_the_dictionary_alone(broken, mended):
    assert repaired(broken) == mended


@pytest.mark.parametrize(
    "text",
    [
        "leveraging the first- and second-order features",
        "for developing both sample- and communication-efficient methods",
        "decoupling the roles of pre- and post-processing",
        "in the supervised node- and graph-level classification",
        "both simulators with low- to mid-dimensional inputs",
        "the spectrum from average- to worst-case robustness",
        "specific settings (full- vs few-shot) by trading",
        "instance- or category-level distillation",
    ],
)
def test_a_suspended_hyphen_stays_as_written(text):
    # other documents write "low-to-high", "first-and-last", "pre-and-post", "node-and-edge": still as written
    others = ["low-to-high transitions", "a first-and-last rule", "pre-and-post comparisons", "node-and-edge features",
              "average-to-best ratio", "instance-or-class", "full-vs-partial"]
    assert repaired(text, *others) == text


def test_a_compound_keeps_its_hyphen_when_the_collection_writes_it_so():
    others = ["a two-stage detector", "two-stage training", "semi-supervised learning", "out-of-distribution data"]
    text = "We adopt a standard two- stage detector, unlike semi- supervised approaches for out-of- distribution data."
    assert repaired(text, *others) == (
        "We adopt a standard two-stage detector, unlike semi-supervised approaches for out-of-distribution data."
    )
    alone = "We adopt a standard two- stage object detector."
    assert repaired(alone) == alone  # no evidence either way: left as written (never "twostage")


def test_a_dash_or_a_typo_without_evidence_is_left_as_written():
    for text in (
        "a sequence of amino acids -the peptide- responsible for generating each observed spectrum",
        "requires the estimation of the- smoothing expectation of some additive functional",
        "available at https://github.com/bigscience- workshop/architecture-objective",
    ):
        assert repaired(text, "the peptide is responsible", "a smoothing expectation") == text


def test_a_hyphen_without_a_space_is_joined_only_when_nothing_says_it_is_a_spelling():
    others = ["image generation", "more iterations", "parallel decoding", "we resolve it", "a covariance matrix",
              "re-train the model", "re-use the features", "co-training", "co-occurrence", "upsampling layers",
              "spatiotemporal graphs"]
    text = "state-of-the-art image genera-tion; fewer sampling itera-tions; par-allel decoding."
    assert repaired(text, *others) == "state-of-the-art image generation; fewer sampling iterations; parallel decoding."
    # "re-" and "co-" are prefixes the other documents write with a hyphen; "sampling", "temporal" are words
    spellings = ("suboptimally re-solve each problem", "asymptotic co-variance", "an up-sampling transform",
                 "spatio-temporal dynamics")
    for spelling in spellings:
        assert repaired(spelling, *others) == spelling


def _corpus_of(*pairs: str, n: int = 25) -> list[str]:
    """``n`` documents, each holding the words of ``pairs`` as separate words."""
    return [f"Document {i} states that {'; '.join(pairs)} hold." for i in range(n)]


def test_words_run_together_are_split_only_on_strong_evidence():
    others = _corpus_of("more efficient", "diffusion models", "multi label", "log log")
    others += ["a multi-label detector", "log bounds"]
    assert repaired("Muse is significantly moreefficient than pixel-space diffusionmodels.", *others) == (
        "Muse is significantly more efficient than pixel-space diffusion models."
    )
    for text in (
        "we evaluate COCO multilabel anomaly detectors",  # the collection hyphenates it: a spelling
        "with loglog(T) switching cost",  # notation
        "moreefficient here, and moreefficient again",  # twice in one abstract: the author's word
    ):
        assert repaired(text, *others) == text
    # parts too rare in a small collection: no split
    assert repaired("Muse is moreefficient.", "more efficient", "more efficient") == "Muse is moreefficient."


def test_edits_record_where_each_repair_is():
    text = "fewer itera-tions and better perfor- mance"
    out, edits = repair_breaks(text, CollectionWords([text, "many iterations"]))
    assert out == "fewer iterations and better performance"
    assert edits == (
        TextEdit(6, "itera-tions", "iterations", "join"),
        TextEdit(28, "perfor- mance", "performance", "join"),
    )
    assert undo_edits(out, edits) == text


def test_papers_keep_their_source_text_and_a_label_from_the_mended_text():
    broken = make_paper("p1", "We forecast atmo- spheric dynamics with operators.", title="Spherical Operators")
    clean = make_paper("p2", "A paper with nothing to mend.")
    out = repair_line_breaks([broken, clean])
    assert out[1] is clean
    assert out[0].abstract == "We forecast atmospheric dynamics with operators."
    assert out[0].source_text() == broken.abstract and out[0].source_text("title") == "Spherical Operators"
    assert out[0].edits == (("abstract", TextEdit(12, "atmo- spheric", "atmospheric", "join")),)
    assert out[0].content_hash != broken.content_hash  # a home ingested before the repair is rewritten


def test_ingest_stores_the_mended_text_and_its_edits_and_rewrites_a_home_ingested_before(tmp_path, monkeypatch):
    store = ChromaStore("pc_test_breaks", path=tmp_path / "chroma")
    f = tmp_path / "mine.jsonl"
    rows = [
        {"id": "p1", "title": "Two- stage detectors", "abstract": "We re- duce the cost of a detector. It is fast."},
        {"id": "p2", "title": "Two-stage training", "abstract": "A two-stage method. It is slow."},
    ]
    f.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with monkeypatch.context() as m:  # a home ingested before the repair existed
        m.setattr("rag.index.ingest.mend_collection", lambda papers, others=(): (list(papers), []))
        ingest_paths([f], store, HashingEmbedder())
    assert store.all_papers()[0].abstract.startswith("We re- duce")
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"id": "p3", "abstract": "Nothing to mend here. It reads well."}) + "\n")
    told = ingest_paths([other], store, HashingEmbedder())  # another file: the user is told what to ingest again
    assert told.unmended == {"mine.jsonl": 1}
    assert "1 stored paper (from mine.jsonl) holds words a line break cut" in told.unmended_line()
    assert "ingest that file again" in told.unmended_line()
    report = ingest_paths([f], store, HashingEmbedder())  # ingesting the same file again repairs it
    assert (report.files[0].updated, report.files[0].unchanged, report.files[0].mended) == (1, 1, 2)
    assert report.unmended == {} and report.unmended_line() == ""
    assert "mended 2 words" in report.files[0].line()
    paper = {p.id: p for p in store.all_papers()}["p1"]
    assert (paper.title, paper.abstract) == ("Two-stage detectors", "We reduce the cost of a detector. It is fast.")
    assert (paper.source_text("title"), paper.source_text()) == (rows[0]["title"], rows[0]["abstract"])
    again = ingest_paths([f], store, HashingEmbedder())
    assert (again.files[0].unchanged, again.files[0].updated) == (2, 0)
