"""The lexical side of the retriever, built once per collection content and kept on disk.

:class:`LexicalIndex` is what :class:`rag.index.retrieve.HybridRetriever` derives from the paper
records at every start: the catalogue (papers, name index), the lexicon, each paper's index terms,
document frequencies and the BM25 index. Building it reads every record from Chroma and lemmatises
every abstract: about 0.5 s for the 38 seed papers, tens of seconds for thousands (see
``benchmarks/bench.py``). :func:`load_or_build` keeps it in ``<home>/cache/index/`` under a key
of the collection's content (:meth:`store.chroma.ChromaStore.fingerprint`: ids and metadata of
every paper record, chunk count) and of this module's :data:`FORMAT` and the glossary, so any
write to the collection, or a new version of the code that builds it, builds it anew.

The file is a pickle (the index holds compiled patterns and a ``bm25s`` index): it is read only
from the user's own data directory, like the Chroma store beside it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rag.acronyms import Senses
from rag.index.catalogue import Catalogue
from rag.lexicon import GLOSSARY, Lexicon, compound_parts, lemma, stem
from rag.text import STOPWORDS, tokenize
from store.papers import Paper

__all__ = ["FORMAT", "KEEP", "LexicalIndex", "load_or_build"]

log = logging.getLogger(__name__)

FORMAT = 29
"""Version of the kept file: raise it whenever :class:`LexicalIndex` or how it is built changes."""

KEEP = 2
"""Kept files per collection name: the current one and the one before (a reader that started
before the last write may still load it); older ones are removed."""


def _lexical_text(p: Paper) -> str:
    return " ".join([p.title, p.label, *p.aliases, p.abstract])


def index_terms(text: str) -> list[str]:
    """Words of ``text`` that are not stopwords (:func:`rag.text.tokenize`), in order."""
    return [t for t in tokenize(text) if t not in STOPWORDS]


def _vocab(corpus_tokens: list[list[str]]) -> tuple[list[list[int]], dict[str, int]]:
    vocab: dict[str, int] = {}
    ids = [[vocab.setdefault(t, len(vocab)) for t in toks] for toks in corpus_tokens]
    return ids, vocab


@dataclass
class LexicalIndex:
    """Everything the retriever derives from the paper records (no vectors).

    Attributes:
        catalogue: The papers with their names (:class:`rag.index.catalogue.Catalogue`).
        lexicon: Index-term expansion of the collection.
        senses: The senses of the collection's acronyms (:class:`rag.acronyms.Senses`).
        ids: Paper ids in BM25 row order.
        paper_terms: Stemmed index terms of each paper.
        paper_words: For each paper, each stem -> the index forms (:func:`rag.lexicon.lemma`) it
            writes under it ("reinforc" -> {"reinforce"}), to tell a word from its relatives
            (:func:`rag.lexicon.derives`); a stem a paper gets only from another spelling of a
            hyphenated word has none.
        df: Document frequency of each stemmed term.
        bm25: The ``bm25s.BM25`` index (k1 = 1.5, b = 0.75), ``None`` for an empty collection.
        vocab: BM25 token (Snowball stem of an index form) -> token id.
    """

    catalogue: Catalogue
    lexicon: Lexicon
    senses: Senses
    ids: list[str]
    paper_terms: dict[str, set[str]] = field(default_factory=dict)
    paper_words: dict[str, dict[str, frozenset[str]]] = field(default_factory=dict)
    df: dict[str, int] = field(default_factory=dict)
    bm25: Any = None
    vocab: dict[str, int] = field(default_factory=dict)

    @classmethod
    def build(cls, papers: Sequence[Paper]) -> LexicalIndex:
        """Build from the paper records (Lucene BM25 variant of ``bm25s``, k1 = 1.5, b = 0.75)."""
        import bm25s

        logging.getLogger("bm25s").setLevel(logging.WARNING)
        catalogue = Catalogue(list(papers))
        ids = list(catalogue.papers)
        texts = [_lexical_text(catalogue.papers[i]) for i in ids]
        lexicon = Lexicon(texts)
        index = cls(catalogue, lexicon, Senses(texts, indexed=lexicon.long_forms), ids)
        if not ids:
            return index
        lemma_tokens = [[lemma(t) for t in index_terms(t) + index.lexicon.expansions(t)] for t in texts]
        corpus_tokens = [[stem(w) for w in words] for words in lemma_tokens]
        corpus_tokens = _one_hyphenation(corpus_tokens, index.lexicon.hyphenated)
        df: dict[str, int] = defaultdict(int)
        for pid, toks, words in zip(ids, corpus_tokens, lemma_tokens, strict=True):
            index.paper_terms[pid] = set(toks)
            written: dict[str, set[str]] = defaultdict(set)
            for w in words:
                written[stem(w)].add(w)
            index.paper_words[pid] = {k: frozenset(v) for k, v in written.items()}
            for t in index.paper_terms[pid]:
                df[t] += 1
        index.df = dict(df)
        index.senses.stated = {k.lower(): df.get(stem(lemma(k.lower())), 0) for k in index.senses.senses}
        token_ids, index.vocab = _vocab(corpus_tokens)
        index.bm25 = bm25s.BM25(k1=1.5, b=0.75)
        index.bm25.index(bm25s.tokenization.Tokenized(token_ids, index.vocab), show_progress=False)
        return index


def _one_hyphenation(corpus_tokens: list[list[str]], hyphenated: dict[str, str]) -> list[list[str]]:
    """Index a word the collection writes both with and without its hyphen ("multi-modal" and
    "multimodal", ``hyphenated``: joined -> hyphenated, :attr:`rag.lexicon.Lexicon.hyphenated`)
    under the same tokens in every paper: a paper that writes it joined also gets the hyphenated
    form and its parts, which a paper writing it hyphenated already has (with the joined form,
    :meth:`rag.lexicon.Lexicon.expansions`). Without it BM25 ranks the papers that write the
    question's spelling above the others (three matched tokens against one). Returns new lists."""
    split = {
        stem(lemma(j)): [stem(lemma(h)), *(stem(lemma(p)) for p in compound_parts(h) if p not in STOPWORDS)]
        for j, h in hyphenated.items()
        if h not in STOPWORDS
    }
    out = []
    for toks in corpus_tokens:
        have = set(toks)
        extra = [t for j in have if j in split and split[j][0] not in have for t in split[j] if t not in have]
        out.append(toks + list(dict.fromkeys(extra)))
    return out


def _code_key() -> str:
    """What the index depends on besides the collection: :data:`FORMAT` and the glossary."""
    return f"{FORMAT}:{hashlib.sha1(GLOSSARY.read_bytes()).hexdigest()}"


def load_or_build(store, cache_dir: Path | None) -> LexicalIndex:
    """The collection's :class:`LexicalIndex`: loaded when ``cache_dir`` keeps one of the store's
    current content, else built from the store and kept there (a write failure only logs).

    Args:
        store: A :class:`store.chroma.ChromaStore` (its ``name``, ``fingerprint()`` and ``all_papers()``).
        cache_dir: Folder of the kept files; ``None`` builds without keeping.
    """
    if cache_dir is None:
        return LexicalIndex.build(store.all_papers())
    key = hashlib.sha1(f"{_code_key()}|{store.fingerprint()}".encode()).hexdigest()[:16]
    path = Path(cache_dir) / f"{store.name}-{key}.lexical.pkl"
    try:
        with path.open("rb") as fh:
            index = pickle.load(fh)
        if isinstance(index, LexicalIndex):
            os.utime(path)  # most recently used: kept by the pruning below
            return index
    except FileNotFoundError:
        pass
    except Exception:  # noqa: BLE001 - a damaged or foreign file: build anew
        log.warning("cannot read %s: building the index anew", path, exc_info=True)
    index = LexicalIndex.build(store.all_papers())
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as fh:
            pickle.dump(index, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        _prune(path.parent, store.name)
    except OSError:
        log.warning("cannot keep the index in %s", path.parent, exc_info=True)
    return index


def _prune(folder: Path, name: str) -> None:
    """Remove all but the :data:`KEEP` most recently used files of collection ``name``."""
    files = sorted(folder.glob(f"{name}-*.lexical.pkl"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in files[KEEP:]:
        old.unlink(missing_ok=True)
