"""Term coverage over a real lexical index (no embedder, no store): a hyphenated term is stated by
its pieces only when they are words of their own ("vision language" for "vision-language"); one
whose pieces leave a single content word is no more that word ("context" is no in-context)."""

from __future__ import annotations

from rag.index.cache import LexicalIndex
from rag.index.retrieve import HybridRetriever
from store.papers import make_paper

PAPERS = [
    make_paper("icl", "We show that transformers perform in-context learning from demonstrations.", title="ICL"),
    make_paper("pool", "We pool context features in transformer layers for long sequences.", title="Pool"),
    make_paper("edge", "Models run on the device itself, with no server.", title="Edge"),
    make_paper("vl", "We pretrain a vision language model on image captions.", title="VL"),
    make_paper("other", "We study sorting networks.", title="Sort"),
]


def _retriever() -> HybridRetriever:
    index = LexicalIndex.build(PAPERS)
    r = HybridRetriever.__new__(HybridRetriever)  # coverage reads only the lexical index's tables
    r._ids, r._df, r._paper_terms, r._paper_words = index.ids, index.df, index.paper_terms, index.paper_words
    return r


def test_a_hyphenated_term_is_stated_by_its_pieces_only_when_each_is_a_word():
    r = _retriever()
    icl, pool = r.coverages("in-context learning", ["icl", "pool"])
    assert icl == 1.0 and pool < 0.5, (icl, pool)  # "context" and "learning"-less pooling is no in-context learning
    assert r.coverages("on-device models", ["edge"])[0] < 0.5  # "the device" is no on-device
    assert r.coverages("vision-language models", ["vl"])[0] == 1.0  # both pieces are words: stated apart


def test_a_hyphenated_term_whose_second_piece_is_a_function_word_is_stated_by_its_first():
    # "RL-based finetuning" was refused beside "reinforcement-based finetuning", and "diffusion-based
    # generative modelling" no longer covered a paper writing "diffusion ... generative modelling"
    papers = [*PAPERS, make_paper("dm", "We train diffusion models for generative modelling.", title="DM")]
    index = LexicalIndex.build(papers)
    r = HybridRetriever.__new__(HybridRetriever)
    r._ids, r._df, r._paper_terms, r._paper_words = index.ids, index.df, index.paper_terms, index.paper_words
    assert r.coverages("diffusion-based generative modelling", ["dm"])[0] == 1.0
